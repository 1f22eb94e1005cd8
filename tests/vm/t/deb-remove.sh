# "dpkg -r atimectl", then "dpkg -i" again: the package is installed
# anew, as the first time.  dpkg configures a package installed again
# over its conffiles as it configures an upgrade ("postinst configure
# OLD-VERSION"), but nothing followed utab while it was away: what the
# mounts declare then is applied at once, without waiting for the next
# change of utab, to a filesystem mounted while the package was removed,
# to one remounted with a new value meanwhile, and to one whose override
# was cleared meanwhile.  Also while it is away: an installation that
# fails after its preinst leaves no mark of an installation again, and
# the record of what was applied that a removal by an earlier version
# kept does not stop the next installation from applying.
#
# Before deb-purge.sh in its suite: the package is installed again at the
# end, but a failure half way may leave it removed.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
debs=(/usr/lib/atimectl-tests/deb/atimectl_*.deb)
deb=${debs[0]}
[ -f "$deb" ] || die "no .deb to reinstall in /usr/lib/atimectl-tests/deb"
installed() { dpkg-query -W -f='${Status}' atimectl 2>/dev/null | grep -q 'ok installed'; }
reinstall() { installed || dpkg -i "$deb" >/dev/null 2>&1 || true; }
conflict=atimectl-test-conflict
tmp=$(mktemp -d)
sysctl_set fs.relatime_interval 60
trap 'dpkg -P $conflict >/dev/null 2>&1; rm -rf "$tmp"; reinstall; restore_sysctls; cleanup_mounts' EXIT

wait_mounted /srv/mail
mail=$(override_file /srv/mail)
expect_eq "/srv/mail override before the removal" "$(wait_file "$mail" 600)" 600

# A tmpfs that declares its interval, applied while the package is here.
kept=/run/atimectl-tests/mnt-kept
mkdir -p "$kept"
mount -t tmpfs -o size=1m,x-relatime-interval=20min tmpfs "$kept"
expect_interval "mount before the removal" "$kept" 1200
apply_settled
[ -s /run/atimectl/applied ] || die "nothing recorded in /run/atimectl/applied before the removal"
cp /run/atimectl/applied "$tmp/applied"

since=$(journal_mark)
out=$(dpkg -r atimectl 2>&1) || die "dpkg -r atimectl failed: $out"
if grep -qi -e 'warning' -e 'error' <<<"$out"; then
	die "dpkg -r atimectl: $out"
fi
expect_eq "dpkg status after the removal" "$(dpkg-query -W -f='${Status}' atimectl 2>&1)" \
	"deinstall ok config-files"
for u in atimectl-apply.path atimectl-apply.service; do
	expect_eq "$u after the removal" "$(systemctl show -P ActiveState "$u")" inactive
done
[ ! -e /run/atimectl/applied ] || die "the record of what was applied outlived the removal"

# An installation that fails after the preinst: another package owns
# /usr/bin/atimectl, so dpkg stops at the unpack and calls "postrm
# abort-install".  The preinst's mark must go with it.
mkdir -p "$tmp/conflict/DEBIAN" "$tmp/conflict/usr/bin"
printf '%s\n' "Package: $conflict" "Version: 1" "Architecture: all" \
	"Maintainer: atimectl tests <tests@atimectl.invalid>" \
	"Description: owns /usr/bin/atimectl, so that installing atimectl fails" \
	>"$tmp/conflict/DEBIAN/control"
: >"$tmp/conflict/usr/bin/atimectl"
dpkg-deb --root-owner-group -b "$tmp/conflict" "$tmp/conflict.deb" >/dev/null
out=$(dpkg -i "$tmp/conflict.deb" 2>&1) || die "installing $conflict: $out"
# (-D2: dpkg names each maintainer script it runs, and its arguments.)
out=$(dpkg -D2 -i "$deb" 2>&1) && die "dpkg -i $deb over $conflict's file succeeded: $out"
grep -q "trying to overwrite '/usr/bin/atimectl'" <<<"$out" ||
	die "dpkg -i $deb over $conflict's file failed otherwise: $out"
grep -q '/preinst ( install [^ ]* ' <<<"$out" ||
	die "the failed installation ran no 'preinst install OLD-VERSION': $out"
grep -q '/postrm ( abort-install ' <<<"$out" ||
	die "the failed installation ran no 'postrm abort-install': $out"
# (dpkg now wants it installed: "install ok config-files".)
expect_eq "dpkg state after the failed installation" \
	"$(dpkg-query -W -f='${db:Status-Status}' atimectl 2>&1)" config-files
[ ! -e /run/atimectl/reinstall ] || die "a failed installation left the preinst's mark"
out=$(dpkg -P "$conflict" 2>&1) || die "purging $conflict: $out"

# The record a removal by an earlier version kept.
cp "$tmp/applied" /run/atimectl/applied

# While it is away: a remount with a new value, a new mount, and an
# override cleared by hand.  Nothing applies them.
mount -o remount,x-relatime-interval=25min "$kept"
new=/run/atimectl-tests/mnt-new
mkdir -p "$new"
mount -t tmpfs -o size=1m,x-relatime-interval=30min tmpfs "$new"
echo -1 >"$mail"
sleep 2
expect_eq "remounted while removed" "$(cat "$(override_file "$kept")")" 1200
expect_no_override "mounted while removed" "$new"
expect_eq "/srv/mail override cleared" "$(cat "$mail")" -1

# Installed again: at once, with no change of utab after dpkg returns.
out=$(dpkg -i "$deb" 2>&1) || die "dpkg -i $deb failed: $out"
if grep -qi -e 'warning' -e 'error' <<<"$out"; then
	die "dpkg -i $deb: $out"
fi
expect_eq "dpkg status after installing again" "$(dpkg-query -W -f='${Status}' atimectl 2>&1)" \
	"install ok installed"
expect_eq "remounted while removed, after installing again" "$(cat "$(override_file "$kept")")" 1500
expect_eq "mounted while removed, after installing again" "$(cat "$(override_file "$new")")" 1800
expect_eq "/srv/mail override after installing again" "$(cat "$mail")" 600
[ ! -e /run/atimectl/reinstall ] || die "the preinst's mark outlived the postinst"
expect_eq "atimectl-apply.path after installing again" "$(systemctl show -P ActiveState atimectl-apply.path)" active

# And it follows utab again.
mount -o remount,x-relatime-interval=35min "$new"
expect_interval "remount after installing again" "$new" 2100
expect_apply_following "after installing again"
errors=$(journal_since "$since" -p err)
[ -z "$errors" ] || die "errors in the journal since the removal: $errors"
umount "$new" "$kept"
