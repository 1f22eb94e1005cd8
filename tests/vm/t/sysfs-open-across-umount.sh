# Files of the directory held open across the unmount fail cleanly after
# it; nothing crashes (the suite's kernel log check catches a splat).
. /usr/lib/atimectl-tests/lib.sh
mnt=$(mount_scratch scratch1)
d=$(relatime_dir "$mnt")
exec 5<"$d/atime_updates" 6<"$d/relatime_skips" 7>>"$d/relatime_interval" 8<"$d/relatime_interval"
umount "$mnt"
[ -e "$d" ] && die "$d still there after unmount"
for fd in 5 6 8; do
	if out=$(cat <&$fd 2>&1); then
		[ -z "$out" ] || die "fd $fd still reads '$out' after unmount"
	fi
done
if echo 5 >&7 2>/dev/null; then
	die "write through a descriptor held across unmount succeeded"
fi
exec 5<&- 6<&- 7>&- 8<&-
# The device mounts again and gets a fresh directory.
mnt=$(mount_scratch scratch1)
expect_eq "fresh directory after remount" "$(cat "$(relatime_dir "$mnt")/relatime_interval")" -1
