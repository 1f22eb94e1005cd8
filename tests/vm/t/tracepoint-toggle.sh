# Turning the atime:atime_decision tracepoint on and off while readers on
# every CPU run through the code it sits in.  Each switch rewrites the
# kernel's text on all CPUs at once (a static key: an INT3 first, then
# the new bytes, with a synchronisation of every CPU between the steps),
# and the readers keep taking the patched branch in touch_atime().  The
# scheduler's and the timer interrupt's tracepoints are switched with it,
# for sites every CPU runs from interrupts.
#
# Under QEMU's multi-threaded TCG a guest CPU can run a stale
# translation of a patched site after the kernel has finished with it:
# the INT3 handler no longer knows the address and the kernel dies with
# "Oops: int3" (seen on 6.12 and 7.3 with QEMU 7.2 and 10.0, within a
# few hundred switches; on 7.3 also at boot, when the clocksource's and
# sched_clock's static keys are switched).  scripts/vm.sh therefore runs
# TCG single-threaded; this test is what fails if that changes.
. /usr/lib/atimectl-tests/lib.sh
tr=/sys/kernel/tracing
mountpoint -q "$tr" || mount -t tracefs tracefs "$tr"
ev=$tr/events/atime/atime_decision
[ -d "$ev" ] || die "no $ev (CONFIG_FTRACE, CONFIG_ENABLE_DEFAULT_TRACERS)"
cpus=$(nproc)
[ "$cpus" -ge 2 ] || die "the guest has $cpus CPU; every boot must have at least 2"
events=("$ev")
for e in sched/sched_switch sched/sched_wakeup timer/hrtimer_expire_entry irq/irq_handler_entry; do
	[ -d "$tr/events/$e" ] && events+=("$tr/events/$e")
done

mnt=$(mount_scratch scratch1)
fresh_file "$mnt/f"
d=$(relatime_dir "$mnt")
echo 3600 >"$d/relatime_interval"
w=/run/atimectl-tests
stop() {
	local e
	for e in "${events[@]}"; do echo 0 >"$e/enable"; done
	echo >"$tr/trace"
	kill "${readers[@]}" 2>/dev/null || true
	wait "${readers[@]}" 2>/dev/null || true
	cleanup_mounts
}
readers=()
trap stop EXIT
# Each reader writes its count over the last one in place (1<>, no
# truncation): ">" would empty the file before each write, and a check
# reading it in between would see no count at all.  The count only
# grows, so the new digits always cover the old ones.
rm -f "$w"/toggle-reads-*
for ((cpu = 0; cpu < cpus; cpu++)); do
	taskset -c "$cpu" bash -c 'n=0; while :; do dd if="$1" of=/dev/null bs=1 count=1 status=none; n=$((n + 1)); echo $n 1<>"$2"; done' \
		reader "$mnt/f" "$w/toggle-reads-$cpu" &
	readers+=($!)
done
read -r s0 u0 < <(counters "$mnt")

# 30 s of switching, however fast the emulator runs.
switches=0
end=$((SECONDS + 30))
while [ $SECONDS -lt $end ]; do
	for e in "${events[@]}"; do
		echo 1 >"$e/enable"
		echo 0 >"$e/enable"
		switches=$((switches + 2))
	done
done
for pid in "${readers[@]}"; do
	kill -0 "$pid" 2>/dev/null || die "a reader ended while the tracepoints were switched"
done
read -r s1 u1 < <(counters "$mnt")
reads=0
for ((cpu = 0; cpu < cpus; cpu++)); do
	r=$(cat "$w/toggle-reads-$cpu" 2>/dev/null || echo 0)
	[ "$r" -gt 0 ] || die "the reader on CPU $cpu made no read"
	reads=$((reads + r))
done
[ $((s1 - s0)) -gt 0 ] || die "relatime_skips did not move while the readers read ($s0 -> $s1)"
note "$switches tracepoint switches (${#events[@]} tracepoints) in 30 s while $cpus readers made $reads reads"
