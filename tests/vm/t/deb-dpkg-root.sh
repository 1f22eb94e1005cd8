# atimectl installed into another root (dpkg --root DIR, with the
# maintainer scripts run outside it, --force-script-chrootless, which is
# how DPKG_ROOT=DIR reaches them): installing it, removing it, installing
# it again over its conffiles and purging it change nothing of the
# running system.  Its atimectl-apply.path stays as it was, its
# atimectl-apply.service keeps running, not restarted, its record of
# what was applied and its intervals stay, and no mark of an
# installation again appears in /run/atimectl.  Each step would touch
# one of those without the scripts' DPKG_ROOT guards.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
debs=(/usr/lib/atimectl-tests/deb/atimectl_*.deb)
deb=${debs[0]}
[ -f "$deb" ] || die "no .deb in /usr/lib/atimectl-tests/deb"
dpkg-query -W -f='${Status}' atimectl | grep -q 'ok installed' ||
	die "atimectl is not installed on the running system"
root=$(mktemp -d)
trap 'rm -rf "$root"; cleanup_mounts' EXIT
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"

wait_mounted /srv/mail
mail=$(override_file /srv/mail)
expect_eq "/srv/mail override" "$(wait_file "$mail" 600)" 600
apply_settled
[ -s /run/atimectl/applied ] || die "nothing recorded in /run/atimectl/applied"
expect_eq "atimectl-apply.service" "$(systemctl show -P ActiveState atimectl-apply.service)" active
record=$(cat /run/atimectl/applied)
# (An unguarded postinst would remove the record and write it anew, with
# the same lines: its inode and time tell.)
record_id=$(stat -c '%i %.9Y' /run/atimectl/applied)
global=$(cat /proc/sys/fs/relatime_interval)
invocation=$(systemctl show -P InvocationID atimectl-apply.service)
path_state=$(systemctl show -P ActiveState atimectl-apply.path)
path_enabled=$(systemctl is-enabled atimectl-apply.path 2>&1 || true)
expect_eq "atimectl-apply.path" "$path_state" active

# in_root WHAT ARGS...: dpkg ARGS into $root, which must succeed; then the
# running system must be as it was.
in_root() {
	local what=$1 out
	shift
	out=$(dpkg --root="$root" --force-script-chrootless --force-depends \
		--log=/dev/null "$@" 2>&1) || die "$what: dpkg --root $*: $out"
	expect_eq "$what: atimectl-apply.service" \
		"$(systemctl show -P ActiveState atimectl-apply.service)" active
	expect_eq "$what: atimectl-apply.service's invocation (not restarted)" \
		"$(systemctl show -P InvocationID atimectl-apply.service)" "$invocation"
	expect_eq "$what: atimectl-apply.path" "$(systemctl show -P ActiveState atimectl-apply.path)" "$path_state"
	expect_eq "$what: atimectl-apply.path enabled" "$(systemctl is-enabled atimectl-apply.path 2>&1 || true)" "$path_enabled"
	[ -e /run/atimectl/applied ] || die "$what: removed the running system's /run/atimectl/applied"
	expect_eq "$what: /run/atimectl/applied" "$(cat /run/atimectl/applied)" "$record"
	expect_eq "$what: /run/atimectl/applied's inode and time" \
		"$(stat -c '%i %.9Y' /run/atimectl/applied)" "$record_id"
	[ ! -e /run/atimectl/reinstall ] || die "$what: left /run/atimectl/reinstall on the running system"
	expect_eq "$what: /srv/mail override" "$(cat "$mail")" 600
	expect_eq "$what: fs.relatime_interval" "$(cat /proc/sys/fs/relatime_interval)" "$global"
}

in_root "install" -i "$deb"
expect_eq "status in the root after installing" \
	"$(dpkg-query --root="$root" -W -f='${Status}' atimectl)" "install ok installed"
[ -x "$root/usr/bin/atimectl" ] || die "install: no $root/usr/bin/atimectl"
# The scripts did run, for the root: debhelper's enabled the path unit
# there.
[ -L "$root/etc/systemd/system/local-fs-pre.target.wants/atimectl-apply.path" ] ||
	die "install: atimectl-apply.path not enabled in $root (the maintainer scripts did not run for it)"
in_root "remove" -r atimectl
expect_eq "status in the root after removing" \
	"$(dpkg-query --root="$root" -W -f='${Status}' atimectl)" "deinstall ok config-files"
# "preinst install OLD" and "postinst configure OLD": an installation again.
in_root "install again" -i "$deb"
in_root "remove again" -r atimectl
in_root "purge" -P atimectl
st=$(dpkg-query --root="$root" -W -f='${Status}' atimectl 2>/dev/null || true)
case $st in
'' | *not-installed) ;;
*) die "status in the root after the purge: '$st'" ;;
esac
[ ! -e "$root/usr/bin/atimectl" ] || die "purge: $root/usr/bin/atimectl is still there"
