# A sysctl.d drop-in in /etc/sysctl.d/ sets fs.relatime_interval at boot
# through systemd-sysctl.service.  In this suite atimectl-test-sysctl.service
# writes /etc/sysctl.d/90-atimectl-test.conf (5400) before systemd-sysctl
# runs.  The package ships its sysctl.d file as an example only
# (/usr/share/doc/atimectl/examples/50-relatime.conf, which sets nothing),
# not in /usr/lib/sysctl.d, where Debian 13's dpkg trigger would apply
# sysctl.d again at every install of the package (debian/rules).
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh

dropin=/etc/sysctl.d/90-atimectl-test.conf
shipped=/usr/share/doc/atimectl/examples/50-relatime.conf

expect_eq "atimectl-test-sysctl.service result" \
	"$(systemctl show -P Result atimectl-test-sysctl.service)" success
[ -f "$dropin" ] || die "$dropin was not written (atimectl-test-sysctl.service: $(systemctl show -P ActiveState atimectl-test-sysctl.service))"
grep -qx 'fs.relatime_interval = 5400' "$dropin" || die "$dropin holds: $(cat "$dropin")"

# The drop-in was there before systemd-sysctl started, so it was
# systemd-sysctl that applied it.
written=$(systemctl show -P ExecMainExitTimestampMonotonic atimectl-test-sysctl.service)
applied=$(systemctl show -P ExecMainStartTimestampMonotonic systemd-sysctl.service)
if [ "${written:-0}" -le 0 ] || [ "${applied:-0}" -le 0 ]; then
	die "no timestamps (test unit: '$written', systemd-sysctl: '$applied')"
fi
[ "$written" -le "$applied" ] ||
	die "systemd-sysctl started at ${applied}us, before the drop-in was written at ${written}us"

expect_eq "systemd-sysctl.service state" "$(systemctl show -P ActiveState systemd-sysctl.service)" active
expect_eq "systemd-sysctl.service result" "$(systemctl show -P Result systemd-sysctl.service)" success
expect_eq "systemd-sysctl.service exit status" "$(systemctl show -P ExecMainStatus systemd-sysctl.service)" 0
expect_eq "fs.relatime_interval after boot" "$(cat /proc/sys/fs/relatime_interval)" 5400
expect_eq "sysctl fs.relatime_interval" "$(sysctl -n fs.relatime_interval)" 5400

# The shipped example documents the settings but sets none: copied to
# /etc/sysctl.d as it is, it would not override the relatime_interval=
# boot parameter.  Nothing of the package is in sysctl.d.
[ -f "$shipped" ] || die "$shipped is not installed"
for d in /usr/lib/sysctl.d /lib/sysctl.d; do
	[ -e "$d/50-relatime.conf" ] && die "$d/50-relatime.conf is installed"
done
grep -q 'fs.relatime_interval' "$shipped" || die "$shipped does not mention fs.relatime_interval"
if grep -Ev '^[[:space:]]*([#;]|$)' "$shipped"; then
	die "$shipped sets something (lines above)"
fi

# systemd-sysctl applies the drop-in again when asked, e.g. after an edit.
echo 3600 >/proc/sys/fs/relatime_interval
/usr/lib/systemd/systemd-sysctl "$dropin"
expect_eq "fs.relatime_interval after systemd-sysctl $dropin" "$(cat /proc/sys/fs/relatime_interval)" 5400
