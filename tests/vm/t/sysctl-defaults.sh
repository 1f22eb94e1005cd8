# With no boot parameters the new sysctls show upstream's behaviour.
. /usr/lib/atimectl-tests/lib.sh
[ -f /proc/sys/fs/relatime_interval ] || die "no /proc/sys/fs/relatime_interval"
expect_eq fs.relatime_interval "$(cat /proc/sys/fs/relatime_interval)" 86400
expect_eq fs.default_relatime "$(cat /proc/sys/fs/default_relatime)" 1
expect_eq "sysctl(8) sees it" "$(sysctl -n fs.relatime_interval)" 86400
