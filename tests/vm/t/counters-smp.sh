# The counters are exact on SMP: readers on two CPUs at once, while the
# interval is rewritten, counters are read and other filesystems are
# mounted and unmounted, add exactly as many skips as their own logs say
# they made reads, once they have returned.
. /usr/lib/atimectl-tests/lib.sh
cpus=$(nproc)
[ "$cpus" -ge 2 ] || die "the guest has $cpus CPU; every boot must have at least 2"
mnt=$(mount_scratch scratch1)
head -c 65536 /dev/zero >"$mnt/f"
sleep 0.05
read_once "$mnt/f"
d=$(relatime_dir "$mnt")
echo 3600 >"$d/relatime_interval"
n=20000
w=/run/atimectl-tests
mkdir -p "$w/churn"

read -r s0 u0 < <(counters "$mnt")
for cpu in 0 1; do
	taskset -c "$cpu" dd if="$mnt/f" of=/dev/null bs=1 count=$n \
		status=noxfer 2>"$w/reader-$cpu.log" &
done
readers=$(jobs -p)
# Noise on both CPUs while they run: interval writes that keep the file
# inside the interval, counter reads, unrelated mounts.  Each worker logs
# how many rounds it made.
rm -f "$w/noise-rounds" "$w/churn-rounds"
( n=0; while kill -0 $readers 2>/dev/null; do
	echo 7200 >"$d/relatime_interval"; echo 3600 >"$d/relatime_interval"
	cat "$d/relatime_skips" "$d/atime_updates" >/dev/null
	n=$((n + 1))
done; echo "$n" >"$w/noise-rounds" ) &
noise=$!
( n=0; while kill -0 $readers 2>/dev/null; do
	mount -t tmpfs none "$w/churn" && umount "$w/churn"
	n=$((n + 1))
done; echo "$n" >"$w/churn-rounds" ) &
churn=$!
wait $readers
wait $noise $churn || true
read -r s1 u1 < <(counters "$mnt")
for k in noise churn; do
	r=$(cat "$w/$k-rounds" 2>/dev/null) || die "the $k worker did not finish (no $w/$k-rounds)"
	[ "$r" -ge 1 ] || die "the $k worker made no round while the readers ran"
done
note "noise rounds: $(cat "$w/noise-rounds"), mount rounds: $(cat "$w/churn-rounds")"

total=0
for cpu in 0 1; do
	r=$(sed -n 's/^\([0-9]*\)+0 records in$/\1/p' "$w/reader-$cpu.log")
	[ -n "$r" ] || die "reader on CPU $cpu: $(cat "$w/reader-$cpu.log")"
	total=$((total + r))
done
note "$total reads on $cpus CPUs"
expect_eq "reads the readers logged" "$total" $((2 * n))
expect_eq "skips and updates after $total reads" "$((s1 - s0)) $((u1 - u0))" "$total 0"
