# What applying x-relatime-interval= at every mount costs the boot: with
# atimetest.mounts=N, N tmpfs mounts with the option come up at boot
# (generators/atimectl-test-mounts).  Notes (kept in the TAP output): time
# from the start of userspace to local-fs.target and multi-user.target,
# and the atimectl-apply@ instances: how many, their summed run time, and
# when the last one finished.  With atimetest.noapply the template is
# masked: the same boot without them, to compare.
. /usr/lib/atimectl-tests/lib.sh
n=$(sed -n 's/.*atimetest\.mounts=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$n" ] || skip "no atimetest.mounts= on the kernel command line"
mounted=$(findmnt -rn -o TARGET | grep -c '^/mnt/many/m')
expect_eq "mounts on /mnt/many" "$mounted" "$n"

ms() { echo $(( ($1 - base) / 1000 )); }
base=$(systemctl show -P UserspaceTimestampMonotonic)
note "local-fs.target after $(ms "$(systemctl show -P ActiveEnterTimestampMonotonic local-fs.target)") ms of userspace"
note "multi-user.target after $(ms "$(systemctl show -P ActiveEnterTimestampMonotonic multi-user.target)") ms of userspace"

if grep -q 'atimetest\.noapply' /proc/cmdline; then
	expect_eq "atimectl-apply@.service" "$(systemctl show -P LoadState atimectl-apply@mnt-many-m1.service)" masked
	expect_eq "/mnt/many/m1 override" "$(cat "/sys/fs/relatime/$(majmin /mnt/many/m1)/relatime_interval")" -1
	exit 0
fi
for ((i = 1; i <= n; i++)); do
	f=/sys/fs/relatime/$(majmin /mnt/many/m$i)/relatime_interval
	for ((j = 0; j < 600; j++)); do
		[ "$(cat "$f")" = 3600 ] && break
		sleep 0.1
	done
	expect_eq "/mnt/many/m$i override" "$(cat "$f")" 3600
done
count=0 sum=0 last=0
for u in $(systemctl list-units --all --plain --no-legend 'atimectl-apply@*.service' | awk '{ print $1 }'); do
	s=$(systemctl show -P ExecMainStartTimestampMonotonic "$u")
	e=$(systemctl show -P ExecMainExitTimestampMonotonic "$u")
	[ "${s:-0}" -gt 0 ] && [ "${e:-0}" -gt 0 ] || continue
	count=$((count + 1))
	sum=$((sum + e - s))
	[ "$e" -gt "$last" ] && last=$e
done
note "$count atimectl-apply@ instances ran, $((sum / 1000)) ms in all (start to exit, summed); the last finished after $(ms "$last") ms of userspace"
