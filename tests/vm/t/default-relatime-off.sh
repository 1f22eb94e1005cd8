# With fs.default_relatime=0 a mount that names no atime mode gets
# strictatime; explicit relatime and noatime still win; existing mounts
# never change; a remount without atime options keeps the mode.
. /usr/lib/atimectl-tests/lib.sh
expect_eq fs.default_relatime "$(cat /proc/sys/fs/default_relatime)" 0

plain=$(mount_scratch scratch1)
has_opt "$plain" relatime && die "option-less mount shows relatime: $(mount_opts "$plain")"
has_opt "$plain" noatime && die "option-less mount shows noatime"
fresh_file "$plain/f"
expect_read "option-less mount, a read 5s later (strictatime)" "$plain/f" \
	$(( $(atime "$plain/f") + 5 )) updates

rel=$(mount_scratch scratch2 -o relatime)
has_opt "$rel" relatime || die "explicit relatime lost: $(mount_opts "$rel")"
umount "$rel"
rel=$(mount_scratch scratch2 -o noatime)
has_opt "$rel" noatime || die "explicit noatime lost: $(mount_opts "$rel")"
umount "$rel"

# Turning the default back on changes new mounts only.
echo 1 >/proc/sys/fs/default_relatime
trap 'echo 0 >/proc/sys/fs/default_relatime; cleanup_mounts' EXIT
has_opt "$plain" relatime && die "an existing mount changed to relatime"
rel=$(mount_scratch scratch2)
has_opt "$rel" relatime || die "new option-less mount with default_relatime=1 lacks relatime"
umount "$rel"
echo 0 >/proc/sys/fs/default_relatime

# Remount without atime options keeps the mode, in both directions.
mount -o remount "$plain"
has_opt "$plain" relatime && die "remount turned strictatime into relatime"
rel=$(mount_scratch scratch2 -o relatime)
mount -o remount "$rel"
has_opt "$rel" relatime || die "remount dropped relatime"

# tmpfs follows the same rule.
mkdir -p /run/atimectl-tests/mnt-tmpfs
mount -t tmpfs none /run/atimectl-tests/mnt-tmpfs
has_opt /run/atimectl-tests/mnt-tmpfs relatime && die "option-less tmpfs shows relatime"
umount /run/atimectl-tests/mnt-tmpfs
