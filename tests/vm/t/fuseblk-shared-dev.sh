# A FUSE block filesystem (ntfs-3g, fuseblk) that a forced unmount
# retired while a file on it is still open, and a new mount of the same
# device.
#
# On 6.1 the block device's exclusive holder is the filesystem type, so
# the new mount gets a second live superblock with the same device
# number.  The directory belongs to the new superblock: no duplicate-name
# trace, the old superblock's end leaves the new directory and the value
# written to it in place, and the new superblock's end removes it.  In
# the other order (the newer superblock ends while the retired one lives)
# the name passes back to the retired superblock, whose own override
# shows again, and its end removes it.  (Which
# superblock a written override governs cannot be seen in atime or the
# counters: FUSE keeps atime in its daemon.)
#
# On 6.12 the holder is the superblock itself (get_tree_bdev() opens the
# device with the superblock as holder): the retired superblock
# keeps the device until its last file is closed and the new mount fails
# with EBUSY, so fuseblk cannot share a device number there (two MTD
# filesystem types still can: mtd-shared-dev.sh).  The directory stays
# the retired superblock's until it ends, then goes; the next mount gets
# a fresh one.
#
# No fixed sleeps: the old ntfs-3g daemon, which holds the device open
# too, must have exited (the forced unmount aborts its connection) before
# the device can be mounted again, and is waited for; the retired
# superblock ends in the close(2) of its last file (the final fput and the
# detached mount's cleanup run before close returns), and on 6.12 its
# directory's removal is waited for.
. /usr/lib/atimectl-tests/lib.sh

# retire MNT: force-unmount MNT, a file on which the caller holds open, so
# that its superblock lives on unmounted, and wait for its ntfs-3g daemon
# (the newest one) to exit, after which the device can be mounted again.
retire() {
	local mnt=$1 daemon i
	daemon=$(pgrep -n -x ntfs-3g) || die "no ntfs-3g daemon for $mnt"
	umount -f "$mnt" 2>/dev/null || true
	umount -l "$mnt" 2>/dev/null || true
	mountpoint -q "$mnt" && die "$mnt still mounted after umount -f and -l"
	for ((i = 0; i < wait_polls; i++)); do
		kill -0 "$daemon" 2>/dev/null || return 0
		sleep 0.1
	done
	die "the ntfs-3g daemon of $mnt (pid $daemon) still runs 60s after umount -f"
}
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
retire "$m1"

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
	wait_gone "$d" || die "$d still there 60s after the retired superblock's last file closed"
	ntfs-3g "$dev" "$m2" || die "ntfs-3g mount of $dev after the retired superblock ended failed"
	expect_eq "device number of the new mount" "$(findmnt -n -o MAJ:MIN "$m2" | tr -d ' ')" "$mm"
	[ -d "$d" ] || die "no $d for the new mount"
	expect_eq "new superblock's override" "$(cat "$d/relatime_interval")" -1
	umount "$m2"
	[ -e "$d" ] && die "$d still there after the last unmount"
	exit 0
fi

# The new daemon must not inherit fd 3: it would keep the retired
# superblock alive past the close below (and past the umount of $m2).
ntfs-3g "$dev" "$m2" 3<&- || die "second ntfs-3g mount of $dev failed"
expect_eq "second mount's device number" "$(findmnt -n -o MAJ:MIN "$m2" | tr -d ' ')" "$mm"
[ -d "$d" ] || die "no $d for the second mount"
expect_eq "new superblock's override" "$(cat "$d/relatime_interval")" -1
dmesg | grep -q 'duplicate filename' && die "sysfs reported a duplicate name: $(dmesg | grep -A2 'duplicate filename')"
dmesg | grep -q "relatime: .*device $mm is now this superblock's" ||
	die "no notice that $mm changed superblock"

# The directory, and what is written to it, outlive the retired
# superblock, which ends in the close of its last file.
echo 3600 >"$d/relatime_interval"
exec 3<&-
[ -d "$d" ] || die "$d vanished when the retired superblock went away"
expect_eq "override after the old superblock's end" "$(cat "$d/relatime_interval")" 3600

# The other order: the newer superblock ends first, and the name passes
# back to the retired one, whose own override shows again.  Retire $m2's
# superblock (3600) with fd 4 open, mount the device at $m3, end $m3.
m3=$w/mnt-ntfs3
mkdir -p "$m3"
exec 4<"$m2/f"
retire "$m2"
ntfs-3g "$dev" "$m3" 4<&- || die "third ntfs-3g mount of $dev failed"
expect_eq "third mount's device number" "$(findmnt -n -o MAJ:MIN "$m3" | tr -d ' ')" "$mm"
expect_eq "third superblock's override" "$(cat "$d/relatime_interval")" -1
start=$(($(dmesg | wc -l) + 1))
umount "$m3"
[ -d "$d" ] || die "$d gone when the newest superblock ended while the retired one lives"
expect_eq "retired superblock's override, back in sight" "$(cat "$d/relatime_interval")" 3600
dmesg | sed -n "$start,\$p" | grep -q "relatime: .*device $mm is this superblock's again" ||
	die "no notice that $mm went back to the retired superblock"
exec 4<&-
[ -e "$d" ] && die "$d still there after the retired superblock's last file closed"
exit 0
