# atime_updates and relatime_skips move exactly as reads and updates
# happen: one read(2) is one decision.
. /usr/lib/atimectl-tests/lib.sh
mnt=$(mount_scratch scratch1)
d=$(relatime_dir "$mnt")
echo 3600 >"$d/relatime_interval"
fresh_file "$mnt/f"
t0=$(atime "$mnt/f")
u0=$(cat "$d/atime_updates"); s0=$(cat "$d/relatime_skips")
[ "$u0" -ge 1 ] || die "fresh_file's atime update was not counted (atime_updates $u0)"

for i in 1 2 3 4 5; do read_once "$mnt/f"; done
expect_eq "skips after 5 reads inside the interval" "$(cat "$d/relatime_skips")" $((s0 + 5))
expect_eq "updates after 5 reads inside the interval" "$(cat "$d/atime_updates")" "$u0"

clock_set $((t0 + 3700))
read_once "$mnt/f"
expect_eq "updates after a read past the interval" "$(cat "$d/atime_updates")" $((u0 + 1))
expect_eq "skips after a read past the interval" "$(cat "$d/relatime_skips")" $((s0 + 5))
for i in 1 2 3; do read_once "$mnt/f"; done
expect_eq "skips after 3 more reads" "$(cat "$d/relatime_skips")" $((s0 + 8))
expect_eq "updates after 3 more reads" "$(cat "$d/atime_updates")" $((u0 + 1))

# noatime mounts of the superblock neither update nor count skips.
mkdir -p /run/atimectl-tests/mnt-noatime
mount --bind -o noatime "$mnt" /run/atimectl-tests/mnt-noatime 2>/dev/null ||
	{ mount --bind "$mnt" /run/atimectl-tests/mnt-noatime;
	  mount -o remount,bind,noatime /run/atimectl-tests/mnt-noatime; }
clock_set $((t0 + 9000))
read_once /run/atimectl-tests/mnt-noatime/f
expect_eq "skips after a noatime read" "$(cat "$d/relatime_skips")" $((s0 + 8))
expect_eq "updates after a noatime read" "$(cat "$d/atime_updates")" $((u0 + 1))
umount /run/atimectl-tests/mnt-noatime

# Counters are per superblock and start at 0.
t=/run/atimectl-tests/mnt-tmpfs
mkdir -p "$t"; mount -t tmpfs tmpfs "$t"
expect_eq "fresh tmpfs skips" "$(counter "$t" relatime_skips)" 0
expect_eq "fresh tmpfs updates" "$(counter "$t" atime_updates)" 0
umount "$t"
