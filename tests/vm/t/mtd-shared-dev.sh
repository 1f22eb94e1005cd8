# Two live superblocks with one device number, on every base: an MTD
# device's superblocks are keyed by device and filesystem type, and all of
# them get s_dev 31:N, so a romfs and a cramfs mounted from the same MTD
# RAM device (CONFIG_MTD_MTDRAM) are two superblocks sharing 31:0.
#
# The image written to the device is both: a romfs of an empty directory
# in its first bytes, and a cramfs made with 512 bytes of padding, which
# the kernel looks for at offset 512 when offset 0 holds no cramfs.
#
# The directory belongs to the superblock set up last, with a notice and
# no sysfs duplicate-name trace; it starts at -1 whatever the older
# superblock had; the older superblock's end leaves it alone; its own
# superblock's end removes it.
. /usr/lib/atimectl-tests/lib.sh
mtd=/dev/mtd0
udevadm settle 2>/dev/null || true
[ -c "$mtd" ] || die "no $mtd (CONFIG_MTD_MTDRAM)"
w=/run/atimectl-tests
tmp=$(mktemp -d)
mkdir "$tmp/empty" "$tmp/c"
echo hello >"$tmp/c/hello"
genromfs -d "$tmp/empty" -f "$tmp/rom.img" -V atimectl
mkfs.cramfs -p "$tmp/c" "$tmp/poly.img" >/dev/null
# romfs's header holds its size (big-endian, at offset 8): it must end
# before the cramfs superblock at 512.
romsize=$(($(od -A n -t x1 -j 8 -N 4 "$tmp/rom.img" | tr -d ' \n' | sed 's/^/0x/')))
[ "$romsize" -gt 0 ] && [ "$romsize" -le 512 ] || die "romfs image of $romsize bytes"
dd if="$tmp/rom.img" of="$tmp/poly.img" bs="$romsize" count=1 conv=notrunc status=none
dd if="$tmp/poly.img" of="$mtd" bs=4096 status=none
rm -rf "$tmp"

m1=$w/mnt-romfs m2=$w/mnt-cramfs
mkdir -p "$m1" "$m2"
mount -t romfs -o ro mtd0 "$m1"
mm=$(findmnt -n -o MAJ:MIN "$m1" | tr -d ' ')
expect_eq "romfs on mtd0: device number" "$mm" 31:0
d=/sys/fs/relatime/$mm
[ -d "$d" ] || die "no $d for the romfs mount"
echo 111 >"$d/relatime_interval"

mount -t cramfs -o ro mtd0 "$m2"
expect_eq "cramfs on mtd0: device number" "$(findmnt -n -o MAJ:MIN "$m2" | tr -d ' ')" "$mm"
expect_eq "a file on the cramfs" "$(cat "$m2/hello")" hello
mountpoint -q "$m1" || die "romfs mount gone after the cramfs mount"
[ -d "$d" ] || die "no $d after the cramfs mount"
expect_eq "cramfs superblock's override (new superblock)" "$(cat "$d/relatime_interval")" -1
if dmesg | grep -q 'duplicate filename'; then
	die "sysfs reported a duplicate name: $(dmesg | grep -A2 'duplicate filename')"
fi
dmesg | grep -q "relatime: .*(cramfs): device $mm is now this superblock's" ||
	die "no notice that $mm went to the cramfs superblock"
echo 3600 >"$d/relatime_interval"

# The older superblock's end does not touch the directory it lost.
umount "$m1"
[ -d "$d" ] || die "$d vanished when the romfs superblock ended"
expect_eq "cramfs override after the romfs superblock's end" "$(cat "$d/relatime_interval")" 3600
# A new romfs superblock takes it back, starting at -1.
mount -t romfs -o ro mtd0 "$m1"
expect_eq "new romfs superblock's override" "$(cat "$d/relatime_interval")" -1
umount "$m1"
[ -e "$d" ] && die "$d still there after its owner's unmount (the cramfs is not its owner any more)"
umount "$m2"
[ -e "$d" ] && die "$d still there after the last unmount"
exit 0
