# Invalid boot values are named in the kernel log and the defaults stay.
. /usr/lib/atimectl-tests/lib.sh
expect_eq fs.relatime_interval "$(cat /proc/sys/fs/relatime_interval)" 86400
expect_eq fs.default_relatime "$(cat /proc/sys/fs/default_relatime)" 1
dmesg | grep -q 'relatime_interval.*soon' || die "no kernel log line names relatime_interval=soon"
dmesg | grep -q 'default_relatime.*7' || die "no kernel log line names default_relatime=7"
