# Interval 0: every access that changes the timestamp updates it; the
# atime <= mtime rule still applies first.
. /usr/lib/atimectl-tests/lib.sh
sysctl_set fs.relatime_interval 0
mnt=$(mount_scratch scratch1)
fresh_file "$mnt/f"
t=$(atime "$mnt/f")
expect_read "read 2s later" "$mnt/f" $((t + 2)) updates
expect_read "another read 1s later" "$mnt/f" $((t + 3)) updates
