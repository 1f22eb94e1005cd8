# A FUSE block filesystem (ntfs-3g, fuseblk) that a forced unmount
# retired while a file on it is still open, and a new mount of the same
# device.
#
# On 6.1 the block device's exclusive holder is the filesystem type, so
# the new mount gets a second live superblock with the same device
# number.  The directory belongs to the new superblock: no duplicate-name
# trace, writes reach the new mount, and the old superblock's end leaves
# the new directory in place.
#
# On 6.12 the holder is the superblock itself (get_tree_bdev() opens the
# device with the superblock as holder): the retired superblock
# keeps the device until its last file is closed and the new mount fails
# with EBUSY, so fuseblk cannot share a device number there (two MTD
# filesystem types still can: mtd-shared-dev.sh).  The directory stays
# the retired superblock's until it ends, then goes; the next mount gets
# a fresh one.
. /usr/lib/atimectl-tests/lib.sh
dev=$(scratch_dev scratch2)
mkntfs -Q -F -q "$dev" >/dev/null
w=/run/atimectl-tests
m1=$w/mnt-ntfs1 m2=$w/mnt-ntfs2
mkdir -p "$m1" "$m2"
ntfs-3g "$dev" "$m1"
expect_eq "ntfs-3g mount type" "$(findmnt -n -o FSTYPE "$m1")" fuseblk
echo data >"$m1/f"
mm=$(findmnt -n -o MAJ:MIN "$m1" | tr -d ' ')
d=/sys/fs/relatime/$mm
[ -d "$d" ] || die "no $d for the first fuseblk mount"
echo 111 >"$d/relatime_interval"

exec 3<"$m1/f"
umount -f "$m1" 2>/dev/null || true
umount -l "$m1" 2>/dev/null || true
mountpoint -q "$m1" && die "$m1 still mounted after umount -f and -l"
sleep 1

kver=$(uname -r | cut -d- -f1 | cut -d. -f1,2)
if [ "$kver" != 6.1 ]; then
	note "kernel $kver: the superblock holds its block device"
	err=$(ntfs-3g "$dev" "$m2" 2>&1) &&
		die "second ntfs-3g mount of $dev succeeded while the retired superblock holds it"
	case "$err" in
	*"Device or resource busy"*) ;;
	*) die "second ntfs-3g mount of $dev: want EBUSY, got: $err" ;;
	esac
	mountpoint -q "$m2" && die "$m2 mounted after a failed mount"
	[ -d "$d" ] || die "$d vanished while the retired superblock lives"
	expect_eq "retired superblock's override" "$(cat "$d/relatime_interval")" 111
	exec 3<&-
	sleep 2
	[ -e "$d" ] && die "$d still there after the retired superblock's last file closed"
	ntfs-3g "$dev" "$m2" || die "ntfs-3g mount of $dev after the retired superblock ended failed"
	expect_eq "device number of the new mount" "$(findmnt -n -o MAJ:MIN "$m2" | tr -d ' ')" "$mm"
	[ -d "$d" ] || die "no $d for the new mount"
	expect_eq "new superblock's override" "$(cat "$d/relatime_interval")" -1
	umount "$m2"
	[ -e "$d" ] && die "$d still there after the last unmount"
	exit 0
fi

ntfs-3g "$dev" "$m2" || die "second ntfs-3g mount of $dev failed"
expect_eq "second mount's device number" "$(findmnt -n -o MAJ:MIN "$m2" | tr -d ' ')" "$mm"
[ -d "$d" ] || die "no $d for the second mount"
expect_eq "new superblock's override" "$(cat "$d/relatime_interval")" -1
dmesg | grep -q 'duplicate filename' && die "sysfs reported a duplicate name: $(dmesg | grep -A2 'duplicate filename')"
dmesg | grep -q "relatime: .*device $mm is now this superblock's" ||
	die "no notice that $mm changed superblock"

# The override written through the directory is the new superblock's:
# FUSE keeps atime in its daemon (every FUSE inode is S_NOATIME), so it
# shows in the value read back, not in counters.
echo 3600 >"$d/relatime_interval"
# The retired superblock goes away when its last file is closed; the
# new directory stays.
exec 3<&-
sleep 2
[ -d "$d" ] || die "$d vanished when the retired superblock went away"
expect_eq "override after the old superblock's end" "$(cat "$d/relatime_interval")" 3600
umount "$m2"
[ -e "$d" ] && die "$d still there after the last unmount"
exit 0
