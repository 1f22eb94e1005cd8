# Stress the sysfs directories' lifetime: for STRESS_SECONDS (default 60,
# or atimetest.stress_seconds= on the kernel command line), and for at
# least 10 full mount cycles however slow the kernel is, mount
# and unmount ext4 and tmpfs in a loop while other processes read and
# write the attributes, hold them open across unmounts, and read files on
# the mounts.  Meant for the debug kernel (lockdep, KASAN,
# DEBUG_KOBJECT_RELEASE): the runner's kernel log check fails the suite on
# any report.
. /usr/lib/atimectl-tests/lib.sh
secs=$(sed -n 's/.*atimetest\.stress_seconds=\([0-9]*\).*/\1/p' /proc/cmdline)
secs=${secs:-60}
w=/run/atimectl-tests/stress
mkdir -p "$w/ext4" "$w/tmpfs" "$w/bind"
dev=$(mkfs_scratch scratch1 -E lazy_itable_init=0)
mount "$dev" "$w/ext4"
for i in $(seq 1 20); do echo "file $i" >"$w/ext4/f$i"; done
umount "$w/ext4"
min_cycles=10
begin=$(date +%s)
end=$((begin + secs))
# The mounter decides when everyone stops: after the time asked for and
# at least $min_cycles cycles (a KASAN kernel under TCG is slow).
rm -f "$w/stop"
stop() { [ -e "$w/stop" ]; }
# The workers expect failures (a directory vanishes under them, a write is
# refused): they must not stop at the first one as "set -e" would.

# unmount DIR: a reader may have a file open for a moment; try again.
unmount() {
	local i
	for i in $(seq 1 100); do
		umount "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	umount "$1"
}

# One cycle counts only if every mount and unmount in it succeeded.
mounter() {
	local n=0 tries=0 ok
	set +e
	while [ "$(date +%s)" -lt "$end" ] || [ "$n" -lt "$min_cycles" ]; do
		tries=$((tries + 1))
		[ "$tries" -le $((min_cycles * 10)) ] || [ "$(date +%s)" -lt "$end" ] || break
		ok=0
		if mount "$dev" "$w/ext4"; then
			if mount --bind "$w/ext4" "$w/bind"; then
				mount -o remount,strictatime "$w/bind" && ok=$((ok + 1))
				unmount "$w/bind" && ok=$((ok + 1))
			fi
			unmount "$w/ext4" && ok=$((ok + 1))
		fi
		if mount -t tmpfs tmpfs "$w/tmpfs"; then
			echo x >"$w/tmpfs/x"; cat "$w/tmpfs/x" >/dev/null
			unmount "$w/tmpfs" && ok=$((ok + 1))
		fi
		[ "$ok" = 4 ] && n=$((n + 1))
	done
	touch "$w/stop"
	echo "$n" >"$w/mount-cycles"
}

attr_reader() {
	local n=0
	set +e
	until stop; do
		cat /sys/fs/relatime/*/* >/dev/null 2>&1
		n=$((n + 1))
	done
	echo "$n" >"$w/reads-$1"
}

attr_writer() {
	local f v n=0 r=0
	set +e
	until stop; do
		for f in /sys/fs/relatime/*/relatime_interval; do
			for v in 0 60 -1 2147483647 bogus; do
				if echo "$v" 2>/dev/null >"$f"; then
					n=$((n + 1))
				else
					r=$((r + 1))
				fi
			done
		done
	done
	echo "$n" >"$w/writes"
	echo "$r" >"$w/refused"
}

holder() {	# open attribute files, let the mount go, use them afterwards
	local d n=0
	set +e
	until stop; do
		for d in /sys/fs/relatime/*; do
			{
				exec 5<"$d/atime_updates" 6>>"$d/relatime_interval"
				sleep 0.2
				cat <&5 >/dev/null
				echo 30 >&6
				exec 5<&- 6>&-
			} 2>/dev/null
			n=$((n + 1))
		done
		sleep 0.1
	done
	echo "$n" >"$w/holds"
}

file_reader() {
	set +e
	until stop; do
		cat "$w"/ext4/f* "$w"/bind/f* "$w"/tmpfs/x >/dev/null 2>&1
		touch -a -d @1000000000 "$w"/ext4/f1 2>/dev/null
	done
}

mounter & attr_reader 1 & attr_reader 2 & attr_writer & holder & file_reader &
wait
note "in $(( $(date +%s) - begin ))s (${secs}s asked): $(cat "$w/mount-cycles") mount cycles," \
	"$(cat "$w/reads-1") + $(cat "$w/reads-2") attribute sweeps," \
	"$(cat "$w/writes") accepted and $(cat "$w/refused") refused attribute writes," \
	"$(cat "$w/holds") files held across unmounts"
[ "$(cat "$w/mount-cycles")" -ge "$min_cycles" ] ||
	die "only $(cat "$w/mount-cycles") full mount cycles, want $min_cycles"
[ "$(cat "$w/writes")" -ge 1 ] || die "no attribute write went through"
for d in /sys/fs/relatime/*; do
	mm=$(basename "$d")
	cat /proc/[0-9]*/mountinfo 2>/dev/null | grep -q " $mm " ||
		die "$d outlived its superblock"
done
