# With fs.relatime_interval=3600, a read 30 minutes after the last atime
# update leaves atime alone; one 61 minutes after updates it.  The bounds:
# 3599 s skip, 3600 s update.
. /usr/lib/atimectl-tests/lib.sh
sysctl_set fs.relatime_interval 3600
mnt=$(mount_scratch scratch1)
for f in a b c d; do fresh_file "$mnt/$f"; done
t0=$(atime "$mnt/a")

clock_set $((t0 + 1800))
read_file "$mnt/a"
expect_eq "atime after a read at +30min" "$(atime "$mnt/a")" "$t0"

clock_set $((t0 + 3660))
read_file "$mnt/a"
expect_eq "atime after a read at +61min" "$(atime "$mnt/a")" $((t0 + 3660))

tb=$(atime "$mnt/b")
clock_set $((tb + 3599))
read_file "$mnt/b"
expect_eq "atime after a read at +3599s" "$(atime "$mnt/b")" "$tb"
tc=$(atime "$mnt/c")
clock_set $((tc + 3600))
read_file "$mnt/c"
expect_eq "atime after a read at +3600s" "$(atime "$mnt/c")" $((tc + 3600))

# Raising the interval takes effect at once, for the next decision.
echo 86400 >/proc/sys/fs/relatime_interval
td=$(atime "$mnt/d")
clock_set $((td + 7200))
read_file "$mnt/d"
expect_eq "atime after +2h with interval 24h" "$(atime "$mnt/d")" "$td"
