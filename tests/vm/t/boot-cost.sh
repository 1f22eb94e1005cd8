# What intervals declared at mount cost the boot: with atimetest.mounts=N,
# N tmpfs mounts come up at boot, atimetest.asking=K of them with an
# interval (generators/atimectl-test-mounts).  Notes (kept in the TAP
# output): time from the start of userspace to local-fs.target and
# multi-user.target, and atimectl-apply.service: how often it started,
# since when it runs, and its CPU time.  With atimetest.noapply the path and the
# service are masked: the same boot without them, to compare.
. /usr/lib/atimectl-tests/lib.sh
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^atimetest\.$1=//p" | tail -n 1; }
n=$(arg mounts)
[ -n "$n" ] || skip "no atimetest.mounts= on the kernel command line"
k=$(arg asking)
[ -n "$k" ] || k=$n
mounted=$(findmnt -rn -o TARGET | grep -c '^/mnt/many/m')
expect_eq "mounts on /mnt/many" "$mounted" "$n"

ms() { echo $(( ($1 - base) / 1000 )); }
base=$(systemctl show -P UserspaceTimestampMonotonic)
note "$n mounts, $k asking$(grep -q 'atimetest\.native=0' /proc/cmdline && echo ' (x- option only)')$(grep -q 'atimetest\.noapply' /proc/cmdline && echo ', atimectl-apply masked')"
note "local-fs.target after $(ms "$(systemctl show -P ActiveEnterTimestampMonotonic local-fs.target)") ms of userspace"
note "multi-user.target after $(ms "$(systemctl show -P ActiveEnterTimestampMonotonic multi-user.target)") ms of userspace"

if grep -q 'atimetest\.noapply' /proc/cmdline; then
	expect_eq "atimectl-apply.path" "$(systemctl show -P LoadState atimectl-apply.path)" masked
	exit 0
fi
for ((i = 1; i <= n; i++)); do
	want=-1
	[ "$i" -le "$k" ] && want=3600
	f=/sys/fs/relatime/$(majmin /mnt/many/m$i)/relatime_interval
	for ((j = 0; j < 600; j++)); do
		[ "$(cat "$f")" = "$want" ] && break
		sleep 0.1
	done
	expect_eq "/mnt/many/m$i override" "$(cat "$f")" "$want"
done
# The service follows utab once started: one start, and its process for
# the rest of the boot (its CPU time so far says what the mounts cost it).
runs=$(journalctl -b --no-pager -o cat _PID=1 UNIT=atimectl-apply.service | grep -c '^Starting' || true)
note "atimectl-apply.service started $runs times, since $(ms "$(systemctl show -P ActiveEnterTimestampMonotonic atimectl-apply.service)") ms of userspace, $(( $(systemctl show -P CPUUsageNSec atimectl-apply.service 2>/dev/null | grep -E '^[0-9]+$' || echo 0) / 1000000 )) ms of CPU"
