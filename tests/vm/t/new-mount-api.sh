# The new mount API states the atime mode explicitly (MOUNT_ATTR_RELATIME
# is 0, so "unspecified" cannot be told apart): fs.default_relatime does
# not apply to fsmount(2), and superblocks created through fsconfig(2) get
# their /sys/fs/relatime directory too.
. /usr/lib/atimectl-tests/lib.sh
fsmount=/usr/lib/atimectl-tests/helpers/fsmount
m=/run/atimectl-tests/mnt-newapi
mkdir -p "$m"
note "fs.default_relatime is $(cat /proc/sys/fs/default_relatime)"

"$fsmount" tmpfs "$m" relatime
has_opt "$m" relatime || die "fsmount MOUNT_ATTR_RELATIME: $(mount_opts "$m"), want relatime"
[ -d "$(relatime_dir "$m")" ] || die "no $(relatime_dir "$m") for a superblock made by fsconfig"
d=$(relatime_dir "$m")
umount "$m"
[ -e "$d" ] && die "$d still there after unmount"

"$fsmount" tmpfs "$m" strictatime
has_opt "$m" relatime && die "fsmount MOUNT_ATTR_STRICTATIME shows relatime"
umount "$m"

"$fsmount" tmpfs "$m" noatime
has_opt "$m" noatime || die "fsmount MOUNT_ATTR_NOATIME: $(mount_opts "$m")"
umount "$m"
