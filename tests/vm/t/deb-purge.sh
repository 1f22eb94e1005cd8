# "dpkg --purge atimectl" on the running system leaves nothing of the
# package behind and tells systemd (postrm: daemon-reload), without an
# error or a warning: the generator no longer runs (mount units lose its
# drop-in), atimectl-apply.path and .service are stopped and gone, their
# record in /run/atimectl with them, while the intervals in force stay
# until unmount.  Installing the .deb again ("dpkg -i") brings it all
# back: the filesystems already mounted get what their mounts declare at
# once, the global interval set at run time stays, and a new mount gets
# its interval again.
#
# Last in its suite: the package is installed again at the end, but a
# failure half way may leave it purged.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
work=/run/atimectl-tests
debs=(/usr/lib/atimectl-tests/deb/atimectl_*.deb)
deb=${debs[0]}
[ -f "$deb" ] || die "no .deb to reinstall in /usr/lib/atimectl-tests/deb"

# generator_says SECONDS: what atimectl-generator logs at a daemon-reload
# with an fstab line libmount cannot parse ("" if it did not run), waiting
# up to SECONDS of wall-clock time for it to reach the journal.  The bound
# is in seconds, not polls: each poll runs journalctl, which under TCG
# takes a good part of a second, and 600 polls for a line that must not
# come kept the guest silent for longer than scripts/vm.sh's idle limit.
generator_says() {
	local since said deadline=$((SECONDS + $1))
	cp /etc/fstab "$work/fstab.orig"
	echo "LABEL=nothing /srv/nothing ext4 defaults zero 0" >>/etc/fstab
	since=$(journal_mark)
	systemctl daemon-reload
	said=
	while ((SECONDS < deadline)); do
		said=$(journal_since "$since" -t atimectl-generator)
		[ -n "$said" ] && break
		sleep 0.1
	done
	cp "$work/fstab.orig" /etc/fstab
	systemctl daemon-reload
	echo "$said"
}

# A failure half way must not leave the package purged for a later test.
reinstall() {
	dpkg-query -W -f='${Status}' atimectl 2>/dev/null | grep -q 'ok installed' ||
		dpkg -i "$deb" >/dev/null 2>&1 || true
}
trap 'reinstall; cleanup_mounts' EXIT

wait_mounted /srv/mail
dropin=50-atimectl-relatime-interval.conf
case " $(systemctl show -P DropInPaths srv-mail.mount) " in
*/$dropin" "*) ;;
*) die "srv-mail.mount lacks the generator's drop-in before the purge" ;;
esac
override=$(override_file /srv/mail)
expect_eq "/srv/mail override before the purge" "$(wait_file "$override" 600)" 600

# Units failed before the purge: only new failures count.
failed_units() { systemctl list-units --state=failed --no-legend --plain | awk '{ print $1 }' | LC_ALL=C sort; }
failed0=$(failed_units)
[ -z "$failed0" ] || note "failed before the purge: $(echo $failed0)"
new_failures() { LC_ALL=C comm -13 <(echo "$failed0") <(failed_units) | tr '\n' ' '; }

files=$(dpkg-query -L atimectl)
[ -n "$files" ] || die "dpkg -L atimectl lists nothing"
metadata=$(ls /var/lib/dpkg/info/atimectl.*)

# The purge itself: no error and no warning.  (The generator is in the
# directory systemd's own generators are in, so dpkg does not warn that
# the directory is not empty, as it did when the package alone named
# /usr/lib/systemd/system-generators on bookworm.)
since=$(journal_mark)
out=$(dpkg --purge atimectl 2>&1) || die "dpkg --purge atimectl failed: $out"
if grep -qi -e 'warning' -e 'error' <<<"$out"; then
	die "dpkg --purge atimectl: $out"
fi

# Nothing of the package is left: no file, no directory only it had
# (one that stays must belong to another package or hold others' files),
# nothing in dpkg's database.
left=
# (On bookworm the package names /lib, which on a merged /usr is the
# system's link to usr/lib: a directory too.)
while IFS= read -r f; do
	if [ -d "$f" ]; then
		[ -n "$(ls -A "$f")" ] && continue
		dpkg-query -S "$f" >/dev/null 2>&1 && continue
		left+=" $f/"
	elif [ -e "$f" ] || [ -L "$f" ]; then
		left+=" $f"
	fi
done <<<"$files"
for f in $metadata; do
	[ -e "$f" ] && left+=" $f"
done
[ -z "$left" ] || die "left behind after the purge:$left"
status=$(dpkg-query -W -f='${Status}' atimectl 2>/dev/null || true)
case $status in
''|*not-installed) ;;
*) die "dpkg status after the purge: '$status'" ;;
esac
command -v atimectl >/dev/null && die "atimectl still on PATH: $(command -v atimectl)"

# systemd was told (the postrm's daemon-reload, not ours): mount units
# have no drop-in, the units are gone and stopped, and the interval in
# force stays.
expect_eq "srv-mail.mount needs a daemon-reload" "$(systemctl show -P NeedDaemonReload srv-mail.mount)" no
case " $(systemctl show -P DropInPaths srv-mail.mount) " in
*$dropin*) die "srv-mail.mount still has the drop-in: $(systemctl show -P DropInPaths srv-mail.mount)" ;;
esac
for u in atimectl-apply.path atimectl-apply.service; do
	expect_eq "$u after the purge" "$(systemctl show -P ActiveState "$u")" inactive
	expect_eq "$u's unit after the purge" "$(systemctl show -P LoadState "$u")" not-found
done
[ ! -e /run/atimectl ] || die "/run/atimectl left after the purge: $(ls -A /run/atimectl)"
expect_eq "/srv/mail override after the purge (until unmount)" "$(cat "$override")" 600
# The generator is gone, so nothing may come: 10 s is ample for a line
# that, after the reinstall below, takes a second or two (the
# daemon-reload returns once the generators have run; what waits is only
# the journal).
note "purged; watching the journal 10 s for the generator"
said=$(generator_says 10)
[ -z "$said" ] || die "atimectl-generator still runs after the purge: $said"
failed=$(new_failures)
[ -z "$failed" ] || die "units failed after the purge: $failed"
errors=$(journal_since "$since" -p err)
[ -z "$errors" ] || die "errors in the journal since the purge: $errors"

# Installed again from the .deb, it all comes back.  A first
# installation applies what the filesystems already mounted declare in
# utab (/srv/mail, whose override is cleared first, as on a
# machine that never had the package), and changes no sysctl: a global
# interval set at run time stays, though /etc/sysctl.d says otherwise.
echo -1 >"$override"
expect_eq "/srv/mail override cleared" "$(cat "$override")" -1
sysctl_set fs.relatime_interval 7200
trap 'rm -f /etc/sysctl.d/60-atimectl-test.conf; restore_sysctls; reinstall; cleanup_mounts' EXIT
echo 'fs.relatime_interval = 3600' >/etc/sysctl.d/60-atimectl-test.conf
since=$(journal_mark)
out=$(dpkg -i "$deb" 2>&1) || die "dpkg -i $deb failed: $out"
if grep -qi -e 'warning' -e 'error' <<<"$out"; then
	die "dpkg -i $deb: $out"
fi
note "dpkg -i: $(tr '\n' ' ' <<<"$out")"
expect_eq "/srv/mail override after installing, without a remount" "$(cat "$override")" 600
expect_eq "fs.relatime_interval after installing (set at run time)" \
	"$(cat /proc/sys/fs/relatime_interval)" 7200
rm /etc/sysctl.d/60-atimectl-test.conf
expect_eq "dpkg status after reinstalling" "$(dpkg-query -W -f='${Status}' atimectl 2>&1)" \
	"install ok installed"
expect_package_files "after reinstalling"
case " $(systemctl show -P DropInPaths srv-mail.mount) " in
*/$dropin" "*) ;;
*) die "after reinstalling, srv-mail.mount lacks the generator's drop-in: $(systemctl show -P DropInPaths srv-mail.mount)" ;;
esac
expect_eq "atimectl-apply.path after reinstalling" "$(systemctl show -P ActiveState atimectl-apply.path)" active
said=$(generator_says 120)
[ -n "$said" ] || die "after reinstalling, atimectl-generator does not run (nothing in the journal in 120 s)"
# A new mount of /srv/mail (a new superblock) gets its interval as a
# mount option, from the reinstalled package's generator.
systemctl restart srv-mail.mount
mountpoint -q /srv/mail || die "/srv/mail is not mounted after restarting srv-mail.mount"
case ,$(super_opts /srv/mail), in
*,relatime_interval=600,*) ;;
*) die "after reinstalling, /srv/mail: super options '$(super_opts /srv/mail)' lack relatime_interval=600" ;;
esac
expect_eq "/srv/mail override after a new mount" "$(wait_file "$(override_file /srv/mail)" 600)" 600
failed=$(new_failures)
[ -z "$failed" ] || die "units failed after reinstalling: $failed"
errors=$(journal_since "$since" -p err)
[ -z "$errors" ] || die "errors in the journal since reinstalling: $errors"
