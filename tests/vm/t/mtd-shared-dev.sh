# Two live superblocks with one device number, on every base: an MTD
# device's superblocks are keyed by device and filesystem type, and all of
# them get s_dev 31:N, so a romfs and a cramfs mounted from the same MTD
# RAM device (CONFIG_MTD_MTDRAM) are two superblocks sharing 31:0.
#
# The image written to the device is both: a romfs of an empty directory
# in its first bytes, and a cramfs made with 512 bytes of padding, which
# the kernel looks for at offset 512 when offset 0 holds no cramfs.
#
# The directory belongs to the superblock a mount request used last, with
# a notice and no sysfs duplicate-name trace; when that superblock ends it
# passes back to the other, with a notice; a mount that reuses the other
# superblock takes it back.  Each superblock is told apart by its own
# override (romfs 111, cramfs 3600), which only its directory shows, in
# every order of mounts and unmounts; a write through the directory
# reaches only the superblock it shows.
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

r1=$w/mnt-romfs r2=$w/mnt-romfs2 c1=$w/mnt-cramfs c2=$w/mnt-cramfs2
mkdir -p "$r1" "$r2" "$c1" "$c2"
d=/sys/fs/relatime/31:0

# owner WHAT WANT: the directory exists and shows the override WANT.
owner() {
	[ -d "$d" ] || die "$1: no $d"
	expect_eq "$1: override shown by $d" "$(cat "$d/relatime_interval")" "$2"
}
# notices PATTERN N: the kernel logged PATTERN N times since the test began.
notices() {
	local n
	n=$(dmesg | sed -n "$start,\$p" | grep -c -- "$1" || true)
	expect_eq "notices '$1'" "$n" "$2"
}
gone() { [ -e "$d" ] && die "$1: $d still there"; return 0; }
start=$(($(dmesg | wc -l) + 1))

# 1. romfs, then cramfs: the cramfs takes the name (its own -1); its end
#    gives it back to the romfs, whose override survived; the romfs's end
#    removes it.
mount -t romfs -o ro mtd0 "$r1"
expect_eq "romfs on mtd0: device number" "$(findmnt -n -o MAJ:MIN "$r1" | tr -d ' ')" 31:0
owner "romfs alone" -1
echo 111 >"$d/relatime_interval"
mount -t cramfs -o ro mtd0 "$c1"
expect_eq "cramfs on mtd0: device number" "$(findmnt -n -o MAJ:MIN "$c1" | tr -d ' ')" 31:0
expect_eq "a file on the cramfs" "$(cat "$c1/hello")" hello
owner "cramfs mounted after romfs" -1
notices "(cramfs): device 31:0 is now this superblock's" 1
echo 3600 >"$d/relatime_interval"
umount "$c1"
owner "cramfs ended, romfs left" 111
notices "(romfs): device 31:0 is this superblock's again" 1
umount "$r1"
gone "romfs ended too"

# 2. romfs, then cramfs, then the romfs ends first: the name stays with
#    the cramfs, untouched.
mount -t romfs -o ro mtd0 "$r1"
echo 111 >"$d/relatime_interval"
mount -t cramfs -o ro mtd0 "$c1"
echo 3600 >"$d/relatime_interval"
umount "$r1"
owner "romfs ended under the cramfs" 3600
umount "$c1"
gone "cramfs ended after romfs"

# 3. cramfs first: the other order of types behaves the same.
mount -t cramfs -o ro mtd0 "$c1"
echo 3600 >"$d/relatime_interval"
mount -t romfs -o ro mtd0 "$r1"
owner "romfs mounted after cramfs" -1
echo 111 >"$d/relatime_interval"
umount "$r1"
owner "romfs ended, cramfs left" 3600

# 4. A mount that reuses a superblock without the name takes it back, and
#    keeps it while that superblock lives; a write then reaches only it.
mount -t romfs -o ro mtd0 "$r1"
owner "new romfs superblock" -1
echo 111 >"$d/relatime_interval"
mount -t cramfs -o ro mtd0 "$c2"
owner "second mount of the live cramfs superblock" 3600
mount -t romfs -o ro mtd0 "$r2"
owner "second mount of the live romfs superblock" 111
echo 222 >"$d/relatime_interval"
umount "$r2"
owner "one romfs mount left" 222
umount "$c1"
owner "one cramfs mount left" 222
umount "$r1"
owner "romfs ended: back to the cramfs, the romfs's write not on it" 3600
umount "$c2"
gone "last mount gone"

if dmesg | grep -q 'duplicate filename'; then
	die "sysfs reported a duplicate name: $(dmesg | grep -A2 'duplicate filename')"
fi
exit 0
