# Two live superblocks can share a device number: a FUSE block filesystem
# (ntfs-3g, fuseblk) that a forced unmount retired while a file on it is
# still open, and a new mount of the same device.  The directory belongs
# to the new superblock: no duplicate-name trace, writes reach the new
# mount, and the old superblock's end leaves the new directory in place.
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
