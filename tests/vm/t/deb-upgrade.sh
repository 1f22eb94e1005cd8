# Remove, purge, install the previous version, upgrade: what a machine
# that had the package goes through.  "dpkg -r" and then "dpkg --purge"
# leave nothing and warn of nothing.  The previous version
# (tests/deb-prev.sh: the same files as VERSION~prev, in 0.1.0's layout,
# /usr/sbin/atimectl and /usr/lib/systemd/ where bookworm's package now
# has /lib/systemd/) installs; then the administrator sets intervals at
# run time, against what /etc/fstab and /etc/sysctl.d say; and "dpkg -i"
# of the current package upgrades it without a warning, loses no file
# (on bookworm the units and the generator move between the two names of
# one directory), keeps atimectl-apply.path running, and undoes none of
# the run-time settings: an upgrade applies nothing, and from a version
# that kept no record of what it applied, the next change of utab does
# not apply what the mounts declared before the upgrade either.
#
# After t/deb-purge.sh, and like it last but for kernel-package.sh: the
# current package is installed again at the end, but a failure half way
# may leave it missing.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
debs=(/usr/lib/atimectl-tests/deb/atimectl_*.deb)
deb=${debs[0]}
prevs=(/usr/lib/atimectl-tests/deb-prev/atimectl_*.deb)
prev=${prevs[0]}
[ -f "$deb" ] || die "no .deb in /usr/lib/atimectl-tests/deb"
[ -f "$prev" ] || die "no previous version's .deb in /usr/lib/atimectl-tests/deb-prev"
version=$(dpkg-deb -f "$deb" Version)
prev_version=$(dpkg-deb -f "$prev" Version)
dpkg --compare-versions "$prev_version" lt "$version" ||
	die "the previous version $prev_version is not lower than $version"
test_conf=/etc/sysctl.d/60-atimectl-test.conf

reinstall() {
	dpkg-query -W -f='${Version} ${Status}' atimectl 2>/dev/null | grep -qxF "$version install ok installed" ||
		dpkg -i "$deb" >/dev/null 2>&1 || true
}
sysctl_set fs.relatime_interval "$(cat /proc/sys/fs/relatime_interval)"
trap 'rm -f $test_conf; restore_sysctls; reinstall; cleanup_mounts' EXIT

failed_units() { systemctl list-units --state=failed --no-legend --plain | awk '{ print $1 }' | LC_ALL=C sort; }
failed0=$(failed_units)
new_failures() { LC_ALL=C comm -13 <(echo "$failed0") <(failed_units) | tr '\n' ' '; }
# dpkg_quiet WHAT ARGS...: dpkg succeeds and says no warning or error
dpkg_quiet() {
	local what=$1 out
	shift
	out=$(dpkg "$@" 2>&1) || die "$what: dpkg $* failed: $out"
	if grep -qi -e 'warning' -e 'error' <<<"$out"; then
		die "$what: dpkg $*: $out"
	fi
}
status() { dpkg-query -W -f='${Status}' atimectl 2>/dev/null || true; }

# Remove, then purge.
wait_mounted /srv/mail
expect_eq "atimectl-apply.path before the removal" \
	"$(systemctl show -P ActiveState atimectl-apply.path)" active
override=$(override_file /srv/mail)
expect_eq "/srv/mail override before the removal" "$(wait_file "$override" 600)" 600
files=$(dpkg-query -L atimectl)
since=$(journal_mark)
dpkg_quiet "remove" -r atimectl
case $(status) in
*" not-installed"|*" config-files") ;;
*) die "dpkg status after dpkg -r: '$(status)'" ;;
esac
left=
while IFS= read -r f; do
	[ -d "$f" ] && continue	# directories, and the /lib link on bookworm
	[ -e "$f" ] || [ -L "$f" ] && left+=" $f"
done <<<"$files"
[ -z "$left" ] || die "files left after dpkg -r:$left"
for u in atimectl-apply.path atimectl-apply.service; do
	expect_eq "$u after the removal" "$(systemctl show -P ActiveState "$u")" inactive
	expect_eq "$u's unit after the removal" "$(systemctl show -P LoadState "$u")" not-found
done
expect_eq "/srv/mail override after the removal (until unmount)" "$(cat "$override")" 600
# dpkg keeps a removed package's record (config-files: its postrm) until
# the purge, even without conffiles.
case $(status) in
*" config-files") dpkg_quiet "purge after remove" --purge atimectl ;;
*) note "dpkg -r left no record to purge" ;;
esac
case $(status) in
''|*not-installed) ;;
*) die "dpkg status after the purge: '$(status)'" ;;
esac
ls /var/lib/dpkg/info/atimectl.* >/dev/null 2>&1 &&
	die "dpkg's database keeps: $(ls /var/lib/dpkg/info/atimectl.*)"

# The previous version, installed fresh.
dpkg_quiet "installing $prev_version" -i "$prev"
expect_eq "version installed" "$(dpkg-query -W -f='${Version} ${Status}' atimectl)" \
	"$prev_version install ok installed"
expect_eq "atimectl-apply.path under $prev_version" \
	"$(systemctl show -P ActiveState atimectl-apply.path)" active

# A mount with userspace options starts atimectl-apply.service, which
# then follows utab: the upgrade has to hand it over to the new atimectl.
t0=/run/atimectl-tests/mnt-before-upgrade
mkdir -p "$t0"
mount -t tmpfs -o size=1m,x-relatime-interval=4min tmpfs "$t0"
expect_eq "a mount under $prev_version" "$(wait_file "$(override_file "$t0")" 240)" 240
umount "$t0"
apply_settled

# Run-time settings that differ from the configuration.
echo 'fs.relatime_interval = 3600' >"$test_conf"
atimectl global 2h >/dev/null
atimectl set /srv/mail 1h >/dev/null
expect_eq "fs.relatime_interval set at run time" "$(cat /proc/sys/fs/relatime_interval)" 7200
expect_eq "/srv/mail override set at run time" "$(cat "$override")" 3600
entered0=$(systemctl show -P ActiveEnterTimestampMonotonic atimectl-apply.path)
# A version that kept no record of what it applied.
rm -rf /run/atimectl

# The upgrade.  No error, and no warning but this one, on bookworm: dpkg
# cannot remove a directory of 0.1.0's layout, /usr/lib/systemd/..., that
# is, through the /lib link, the new package's /lib/systemd/... holding
# its files.
apply_before=$(systemctl show -P ActiveState atimectl-apply.service)
since=$(journal_mark)
out=$(dpkg -i "$deb" 2>&1) || die "upgrading from $prev_version: dpkg -i failed: $out"
new_files=$(dpkg-query -L atimectl)
while IFS= read -r line; do
	case $line in
	"dpkg: warning: unable to delete old directory '/usr/lib/"*"': Directory not empty")
		d=${line#*"directory '"}
		d=${d%"': Directory not empty"}
		grep -qxF "${d#/usr}" <<<"$new_files" && [ "$d" -ef "${d#/usr}" ] ||
			die "upgrading from $prev_version: $line"
		note "dpkg kept ${d}, the new package's ${d#/usr}"
		;;
	*[Ww]arning*|*[Ee]rror*) die "upgrading from $prev_version: dpkg -i: $out" ;;
	esac
done <<<"$out"
expect_eq "version installed after the upgrade" \
	"$(dpkg-query -W -f='${Version} ${Status}' atimectl)" "$version install ok installed"
expect_package_files "after the upgrade"
[ -e /usr/sbin/atimectl ] && die "/usr/sbin/atimectl is still there after the upgrade"
# This shell ran the previous version's /usr/sbin/atimectl: forget where.
hash -r
expect_eq "atimectl on PATH after the upgrade" "$(command -v atimectl)" /usr/bin/atimectl

# Nothing undone, nothing restarted.
expect_eq "fs.relatime_interval after the upgrade (set at run time)" \
	"$(cat /proc/sys/fs/relatime_interval)" 7200
expect_eq "/srv/mail override after the upgrade (set at run time)" "$(cat "$override")" 3600
expect_eq "atimectl-apply.path after the upgrade" \
	"$(systemctl show -P ActiveState atimectl-apply.path)" active
expect_eq "atimectl-apply.path not restarted by the upgrade" \
	"$(systemctl show -P ActiveEnterTimestampMonotonic atimectl-apply.path)" "$entered0"
[ -s /run/atimectl/applied ] || die "the upgrade recorded nothing in /run/atimectl/applied"
# A service that followed utab follows it on with the new atimectl (the
# postinst's try-restart, after the record): its process runs
# /usr/bin/atimectl, not the previous version's deleted /usr/sbin one.
expect_eq "atimectl-apply.service before the upgrade" "$apply_before" active
expect_apply_following "after the upgrade"
pid=$(systemctl show -P MainPID atimectl-apply.service)
expect_eq "atimectl-apply.service's program after the upgrade" "$(readlink "/proc/$pid/exe")" /usr/bin/atimectl

# systemd has the upgraded package's files, and the next change of utab
# applies what is new (another mount), not what /srv/mail declared before.
expect_eq "srv-mail.mount needs a daemon-reload" "$(systemctl show -P NeedDaemonReload srv-mail.mount)" no
for u in atimectl-apply.path atimectl-apply.service; do
	expect_eq "$u's unit after the upgrade" "$(systemctl show -P LoadState "$u")" loaded
done
t=/run/atimectl-tests/mnt-upgrade
mkdir -p "$t"
mount -t tmpfs -o size=1m,x-relatime-interval=5min tmpfs "$t"
expect_eq "a new mount after the upgrade" "$(wait_file "$(override_file "$t")" 300)" 300
apply_settled
expect_eq "/srv/mail override after the next change of utab" "$(cat "$override")" 3600
umount "$t"
failed=$(new_failures)
[ -z "$failed" ] || die "units failed during the upgrade: $failed"
errors=$(journal_since "$since" -p err)
[ -z "$errors" ] || die "errors in the journal since the upgrade: $errors"
note "removed, purged, installed $prev_version, upgraded to $version; run-time intervals kept"
