# relatime_interval= and default_relatime= on the command line take effect.
. /usr/lib/atimectl-tests/lib.sh
expect_eq fs.relatime_interval "$(cat /proc/sys/fs/relatime_interval)" 3600
expect_eq fs.default_relatime "$(cat /proc/sys/fs/default_relatime)" 0
mnt=$(mount_scratch scratch1 -o relatime)
fresh_file "$mnt/f"
t0=$(atime "$mnt/f")
clock_set $((t0 + 1800))
read_file "$mnt/f"
expect_eq "atime after +30min with interval 3600 from the command line" "$(atime "$mnt/f")" "$t0"
clock_set $((t0 + 3660))
read_file "$mnt/f"
expect_eq "atime after +61min" "$(atime "$mnt/f")" $((t0 + 3660))
