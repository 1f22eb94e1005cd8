# /sys/fs/relatime/MAJ:MIN exists from mount(2) until the superblock shuts
# down, for ext4 on virtio and for tmpfs, named as mountinfo names it, and
# only for superblocks that are mounted.
. /usr/lib/atimectl-tests/lib.sh
[ -d /sys/fs/relatime ] || die "no /sys/fs/relatime"

check_dir() {	# check_dir MOUNTPOINT
	local mm d
	mm=$(findmnt -n -o MAJ:MIN --mountpoint "$1" | tr -d " ")
	expect_eq "mountinfo MAJ:MIN vs stat" "$mm" "$(majmin "$1")"
	d=/sys/fs/relatime/$mm
	[ -d "$d" ] || die "$d missing for $1"
	expect_eq "$d/relatime_interval" "$(cat "$d/relatime_interval")" -1
	expect_eq "mode of relatime_interval" "$(stat -c %a "$d/relatime_interval")" 644
	expect_eq "mode of atime_updates" "$(stat -c %a "$d/atime_updates")" 444
	expect_eq "mode of relatime_skips" "$(stat -c %a "$d/relatime_skips")" 444
	echo "$mm"
}

mnt=$(mount_scratch scratch1)
mm=$(check_dir "$mnt")
# A second mount of the same device shares the superblock and the directory.
mkdir -p /run/atimectl-tests/mnt-second
mount "$(findmnt -n -o SOURCE "$mnt")" /run/atimectl-tests/mnt-second
expect_eq "second mount's MAJ:MIN" "$(majmin /run/atimectl-tests/mnt-second)" "$mm"
umount /run/atimectl-tests/mnt-second
[ -d "/sys/fs/relatime/$mm" ] || die "directory went away while a mount remains"
umount "$mnt"
[ -e "/sys/fs/relatime/$mm" ] && die "/sys/fs/relatime/$mm still there after the last unmount"

t=/run/atimectl-tests/mnt-tmpfs
mkdir -p "$t"
mount -t tmpfs tmpfs "$t"
mm=$(check_dir "$t")
umount "$t"
[ -e "/sys/fs/relatime/$mm" ] && die "/sys/fs/relatime/$mm (tmpfs) still there after unmount"

# Every directory belongs to a superblock that some mount namespace
# mounts.  The shell compares (each process costs the debug kernel most
# of a second, and there are some 25 directories).
mounted=" $(cat /proc/[0-9]*/mountinfo 2>/dev/null | awk '{ print $3 }' | sort -u | tr '\n' ' ') "
for d in /sys/fs/relatime/*; do
	case $mounted in
	*" ${d##*/} "*) ;;
	*) die "$d has no mount" ;;
	esac
done
# ... and the root filesystem's kernel-made superblock has none.
rootmm=$(findmnt -n -o MAJ:MIN / | tr -d " ")
[ -e "/sys/fs/relatime/$rootmm" ] && note "rootfs $rootmm has a directory"
exit 0
