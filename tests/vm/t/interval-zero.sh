# Interval 0: every access that changes the timestamp updates it; the
# atime <= mtime rule still applies first.
. /usr/lib/atimectl-tests/lib.sh
sysctl_set fs.relatime_interval 0
mnt=$(mount_scratch scratch1)
fresh_file "$mnt/f"
t0=$(atime "$mnt/f")
clock_set $((t0 + 2))
read_file "$mnt/f"
expect_eq "atime after a read 2s later" "$(atime "$mnt/f")" $((t0 + 2))
clock_set $((t0 + 3))
read_file "$mnt/f"
expect_eq "atime after another read 1s later" "$(atime "$mnt/f")" $((t0 + 3))
