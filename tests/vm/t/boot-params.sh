# relatime_interval= and default_relatime= on the command line take effect.
. /usr/lib/atimectl-tests/lib.sh
expect_eq fs.relatime_interval "$(cat /proc/sys/fs/relatime_interval)" 3600
expect_eq fs.default_relatime "$(cat /proc/sys/fs/default_relatime)" 0
mnt=$(mount_scratch scratch1 -o relatime)
fresh_file "$mnt/f"
t=$(atime "$mnt/f")
expect_read "read at +30min, interval 3600 from the command line" "$mnt/f" $((t + 1800)) keeps
expect_read "read at +61min" "$mnt/f" $((t + 3660)) updates
