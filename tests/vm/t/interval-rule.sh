# With fs.relatime_interval=3600, a read 30 minutes after the last atime
# update leaves atime alone; one 61 minutes after updates it.  The bounds:
# 3599 s skip, 3600 s update.
. /usr/lib/atimectl-tests/lib.sh
sysctl_set fs.relatime_interval 3600
mnt=$(mount_scratch scratch1)
for f in a b c d; do fresh_file "$mnt/$f"; done

t=$(atime "$mnt/a")
expect_read "read at +30min" "$mnt/a" $((t + 1800)) keeps
expect_read "read at +61min" "$mnt/a" $((t + 3660)) updates
t=$(atime "$mnt/b")
expect_read "read at +3599s" "$mnt/b" $((t + 3599)) keeps
t=$(atime "$mnt/c")
expect_read "read at +3600s" "$mnt/c" $((t + 3600)) updates

# Raising the interval takes effect at once, for the next decision.
echo 86400 >/proc/sys/fs/relatime_interval
t=$(atime "$mnt/d")
expect_read "read at +2h with interval 24h" "$mnt/d" $((t + 7200)) keeps
