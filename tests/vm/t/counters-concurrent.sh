# Exact counters under load: readers pinned to every CPU read their own
# files on one ext4 and log, access by access, whether the atime changed
# (helpers/atimelog), while other processes rewrite that filesystem's
# relatime_interval and fs.relatime_interval (so the rule's answer keeps
# changing), read its counters, and mount and unmount other filesystems.
# When the readers stop, atime_updates and relatime_skips must have moved
# by exactly the sums of the readers' logs.  Runs for
# atimetest.stress_seconds= (default 15) seconds.
. /usr/lib/atimectl-tests/lib.sh
secs=$(sed -n 's/.*atimetest\.stress_seconds=\([0-9]*\).*/\1/p' /proc/cmdline)
secs=${secs:-15}
ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || skip "needs at least 2 CPUs, have $ncpu"
nreaders=$((2 * ncpu))
w=/run/atimectl-tests/concurrent
mkdir -p "$w/other" "$w/tmpfs"
mnt=$(mount_scratch scratch2)
has_opt "$mnt" relatime || die "$mnt is not relatime: $(mount_opts "$mnt")"
d=$(relatime_dir "$mnt")
other=$(mkfs_scratch scratch1)
# Named here, not globbed later: a glob reads the directory, and that is
# an access to count too.
files=()
for r in $(seq 1 "$nreaders"); do
	files[r]=
	for k in 1 2 3 4 5 6 7 8; do
		echo "reader $r file $k" >"$mnt/r$r-$k"
		files[r]+=" $mnt/r$r-$k"
	done
done
sysctl_set fs.relatime_interval 86400
sync
read -r s0 u0 < <(counters "$mnt")

end=$(( $(date +%s) + secs ))
stop() { [ "$(date +%s)" -ge "$end" ]; }
interval_writer() {
	local n=0 v
	set +e
	until stop; do
		for v in 0 1 2 5 3600 -1; do
			echo "$v" >"$d/relatime_interval" && n=$((n + 1))
		done
	done
	echo "$n" >"$w/interval-writes"
}
global_writer() {
	local n=0
	set +e
	until stop; do
		echo 0 >/proc/sys/fs/relatime_interval && n=$((n + 1))
		sleep 0.05
		echo 86400 >/proc/sys/fs/relatime_interval && n=$((n + 1))
	done
	echo "$n" >"$w/global-writes"
}
counter_reader() {
	local n=0 u s
	set +e
	until stop; do
		u=$(cat "$d/atime_updates") && s=$(cat "$d/relatime_skips") && n=$((n + 1))
	done
	echo "$n" >"$w/counter-reads"
}
mounter() {
	local n=0
	set +e
	until stop; do
		mount "$other" "$w/other" && { ls "$w/other" >/dev/null; umount "$w/other"; }
		mount -t tmpfs tmpfs "$w/tmpfs" && { echo x >"$w/tmpfs/x"; umount "$w/tmpfs"; }
		mount --bind "$mnt" "$w/other" && umount "$w/other"
		n=$((n + 1))
	done
	echo "$n" >"$w/mount-cycles"
}

pids=()
for r in $(seq 1 "$nreaders"); do
	# shellcheck disable=SC2086
	/usr/lib/atimectl-tests/helpers/atimelog "$(( (r - 1) % ncpu ))" "$secs" ${files[r]} >"$w/log-$r" &
	pids+=($!)
done
interval_writer & global_writer & counter_reader & mounter &
for p in "${pids[@]}"; do
	wait "$p" || die "reader $p failed: $(cat "$w"/log-* 2>/dev/null)"
done
wait
read -r s1 u1 < <(counters "$mnt")

updates=0 skips=0
for r in $(seq 1 "$nreaders"); do
	read -r u s <"$w/log-$r" || die "reader $r logged nothing"
	updates=$((updates + u)) skips=$((skips + s))
done
note "${secs}s, $nreaders readers on $ncpu CPUs: $updates updates and $skips skips logged;" \
	"$(cat "$w/interval-writes") relatime_interval writes, $(cat "$w/global-writes") fs.relatime_interval writes," \
	"$(cat "$w/counter-reads") counter reads, $(cat "$w/mount-cycles") mount cycles"
[ "$(cat "$w/mount-cycles")" -ge 1 ] && [ "$(cat "$w/interval-writes")" -ge 1 ] &&
	[ "$(cat "$w/counter-reads")" -ge 1 ] || die "the other workers did not get to run"
[ "$updates" -gt 0 ] && [ "$skips" -gt 0 ] ||
	die "the readers saw $updates updates and $skips skips: both must happen for the check to mean anything"
expect_eq "atime_updates delta (logs: $updates)" "$((u1 - u0))" "$updates"
expect_eq "relatime_skips delta (logs: $skips)" "$((s1 - s0))" "$skips"
