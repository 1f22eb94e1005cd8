# Invalid boot values are named in the kernel log and the defaults stay.
# The log lines are the series' own, whole: a pattern would also match the
# kernel's "Kernel command line:" line, which names both values whatever
# the series does with them.
#
# In the equiv suite, whose cmdline gives them; tests/stock-equiv/record.sh
# boots that suite on the unpatched kernel, which has no such parameters.
. /usr/lib/atimectl-tests/lib.sh
[ -e /proc/sys/fs/relatime_interval ] ||
	skip "an unpatched kernel (no fs.relatime_interval): no boot parameters to refuse"
for p in relatime_interval=soon default_relatime=7; do
	grep -qw -- "$p" /proc/cmdline || die "the suite boots with $p, /proc/cmdline has: $(cat /proc/cmdline)"
done
expect_eq fs.relatime_interval "$(cat /proc/sys/fs/relatime_interval)" 86400
expect_eq fs.default_relatime "$(cat /proc/sys/fs/default_relatime)" 1
log=$(dmesg --notime)
for want in "relatime_interval: invalid value 'soon', keeping 86400 seconds" \
	"default_relatime: invalid value '7', keeping 1"; do
	grep -qxF -- "$want" <<<"$log" ||
		die "no kernel log line '$want'; the series logged: $(grep -E '^(relatime_interval|default_relatime): ' <<<"$log")"
done
