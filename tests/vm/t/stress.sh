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
begin=$EPOCHSECONDS
end=$((begin + secs))
# The mounter decides when everyone stops: after the time asked for and
# at least $min_cycles cycles (a KASAN kernel under TCG is slow).
rm -f "$w/stop"
stop() { [ -e "$w/stop" ]; }
# The workers expect failures (a directory vanishes under them, a write is
# refused): they must not stop at the first one as "set -e" would.
#
# They work on the directories that come and go with the mounter's
# mounts, not on those of the filesystems mounted before it started
# (proc, sysfs, the root, ...), which no unmount races with.  They read
# and write with the shell's own read and echo, and rest between sweeps
# (pause: a read that times out on a FIFO nobody writes).  Under TCG a
# KASAN kernel needs one to four seconds for a fork and exec: workers that
# swept every filesystem's directory and spawned "cat" and "sleep" in a
# loop took the guest's CPU from the mounter, whose 10 cycles then took
# five minutes instead of one.
rm -f "$w/pace"
mkfifo "$w/pace"
exec 9<>"$w/pace"
pause() { read -r -t "$1" -u 9 _ || true; }
before=" $(cd /sys/fs/relatime && echo *) "
# racing: the directories in the array "dirs" that were not there before.
racing() {
	local d
	dirs=()
	for d in /sys/fs/relatime/*; do
		case $before in
		*" ${d##*/} "*) ;;
		*) dirs+=("$d") ;;
		esac
	done
}

# unmount DIR: a reader may have a file open for a moment; try again.
unmount() {
	local i
	for ((i = 0; i < 100; i++)); do
		umount "$1" 2>/dev/null && return 0
		pause 0.1
	done
	umount "$1"
}

# One cycle counts only if every mount and unmount in it succeeded.  It
# starts mount and umount, and nothing else the shell can do itself.
mounter() {
	local n=0 tries=0 ok
	set +e
	while [ "$EPOCHSECONDS" -lt "$end" ] || [ "$n" -lt "$min_cycles" ]; do
		tries=$((tries + 1))
		[ "$tries" -le $((min_cycles * 10)) ] || [ "$EPOCHSECONDS" -lt "$end" ] || break
		ok=0
		if mount "$dev" "$w/ext4"; then
			if mount --bind "$w/ext4" "$w/bind"; then
				mount -o remount,strictatime "$w/bind" && ok=$((ok + 1))
				unmount "$w/bind" && ok=$((ok + 1))
			fi
			unmount "$w/ext4" && ok=$((ok + 1))
		fi
		if mount -t tmpfs tmpfs "$w/tmpfs"; then
			echo x >"$w/tmpfs/x"; read -r _ <"$w/tmpfs/x"
			unmount "$w/tmpfs" && ok=$((ok + 1))
		fi
		[ "$ok" = 4 ] && n=$((n + 1))
	done
	touch "$w/stop"
	echo "$n" >"$w/mount-cycles"
}

attr_reader() {
	local d f n=0 dirs
	set +e
	until stop; do
		racing
		for d in "${dirs[@]}"; do
			for f in "$d"/*; do
				read -r _ <"$f"
			done
		done 2>/dev/null
		# A sweep counts when there was a directory to sweep.
		[ ${#dirs[@]} -eq 0 ] || n=$((n + 1))
		pause 0.1
	done
	echo "$n" >"$w/reads-$1"
}

attr_writer() {
	local d v n=0 r=0 dirs
	set +e
	until stop; do
		racing
		for d in "${dirs[@]}"; do
			for v in 0 60 -1 2147483647 bogus; do
				if echo "$v" 2>/dev/null >"$d/relatime_interval"; then
					n=$((n + 1))
				else
					r=$((r + 1))
				fi
			done
		done
		pause 0.1
	done
	echo "$n" >"$w/writes"
	echo "$r" >"$w/refused"
}

holder() {	# open attribute files, let the mount go, use them afterwards
	local d n=0 dirs
	set +e
	until stop; do
		racing
		for d in "${dirs[@]}"; do
			# Counted when both files were opened.
			{
				exec 5<"$d/atime_updates" 6>>"$d/relatime_interval" &&
					n=$((n + 1))
				pause 0.2
				read -r _ <&5
				echo 30 >&6
				exec 5<&- 6>&-
			} 2>/dev/null
		done
		pause 0.1
	done
	echo "$n" >"$w/holds"
}

file_reader() {
	local f
	set +e
	until stop; do
		for f in "$w"/ext4/f* "$w"/bind/f* "$w"/tmpfs/x; do
			read -r _ <"$f"
		done 2>/dev/null
		touch -a -d @1000000000 "$w"/ext4/f1 2>/dev/null
		pause 0.5
	done
}

mounter & attr_reader 1 & attr_reader 2 & attr_writer & holder & file_reader &
wait
note "in $((EPOCHSECONDS - begin))s (${secs}s asked): $(cat "$w/mount-cycles") mount cycles," \
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
