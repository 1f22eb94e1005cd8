# Two ext4 filesystems with different intervals behave differently at the
# same moment; bind mounts and remounts keep the override; -1 returns to
# the global value; a new superblock starts at -1.
. /usr/lib/atimectl-tests/lib.sh
sysctl_set fs.relatime_interval 86400
a=$(mount_scratch scratch1)
b=$(mount_scratch scratch2)
echo 60 >"$(relatime_dir "$a")/relatime_interval"
echo 7200 >"$(relatime_dir "$b")/relatime_interval"
expect_eq "override read back" "$(cat "$(relatime_dir "$a")/relatime_interval")" 60

fresh_file "$a/f"; fresh_file "$b/f"
ta=$(atime "$a/f"); tb=$(atime "$b/f")
clock_set $((ta + 120))
read_once "$a/f"; read_once "$b/f"
expect_atime_set "60s override, +120s" "$a/f" $((ta + 120))
expect_eq "7200s override: atime after +120s" "$(atime "$b/f")" "$tb"

# A bind mount of the same superblock obeys the same override.
bind=/run/atimectl-tests/mnt-bind
mkdir -p "$bind"
mount --bind "$b" "$bind"
fresh_file "$b/g"
t=$(atime "$b/g")
expect_read "bind mount, +1h under a 2h override" "$bind/g" $((t + 3600)) keeps
expect_read "bind mount, +2h01" "$bind/g" $((t + 7300)) updates
umount "$bind"

# Remount keeps the override.
mount -o remount,ro "$b"
mount -o remount,rw "$b"
expect_eq "override after remount" "$(cat "$(relatime_dir "$b")/relatime_interval")" 7200

# -1 hands the decision back to the global sysctl.
echo -1 >"$(relatime_dir "$a")/relatime_interval"
fresh_file "$a/h"
t=$(atime "$a/h")
expect_read "after reset to -1, +10min with global 24h" "$a/h" $((t + 600)) keeps
echo 300 >/proc/sys/fs/relatime_interval
expect_read "after reset to -1, global lowered to 5min" "$a/h" $((t + 600)) updates

# A new superblock starts at -1.
umount "$b"
b=$(mount_scratch scratch2)
expect_eq "new superblock's override" "$(cat "$(relatime_dir "$b")/relatime_interval")" -1
