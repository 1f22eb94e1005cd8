# relatime_interval=N, the VFS's mount option (interface.md, section 3a),
# every way a mount is made: mount(2) data (mount(8) of util-linux 2.38,
# and of 2.41 with LIBMOUNT_FORCE_MOUNT2=always), fsconfig() (mount(8) of
# 2.41, and helpers/fsctx on both releases), remounts of either kind.  The
# option and /sys/fs/relatime/MAJ:MIN/relatime_interval are one value,
# which mountinfo shows; it decides reads at once; conflicts and bad
# values fail with a message and change nothing.  Filesystems on the
# fs_context path and on the legacy one (devpts on both bases; vfat,
# overlayfs and btrfs, whose data is "binary", on 6.1) alike.
. /usr/lib/atimectl-tests/lib.sh
fsctx=/usr/lib/atimectl-tests/helpers/fsctx
sysctl_set fs.relatime_interval 86400
m=/run/atimectl-tests/mnt-opt
m2=/run/atimectl-tests/mnt-opt2
mkdir -p "$m" "$m2"

# The value of relatime_interval= in the superblock options mountinfo
# shows for the mount at $1, or "none".
shown() {
	local v
	v=$(findmnt -n -o FS-OPTIONS --mountpoint "$1" | tr , '\n' |
		sed -n 's/^relatime_interval=//p')
	echo "${v:-none}"
}
sysfs_value() { cat "$(relatime_dir "$1")/relatime_interval"; }
# expect_value WHAT MOUNTPOINT N: sysfs holds N, mountinfo shows it (or
# nothing, for -1).
expect_value() {
	local want_shown=$3
	[ "$3" = -1 ] && want_shown=none
	expect_eq "$1: sysfs" "$(sysfs_value "$2")" "$3"
	expect_eq "$1: mountinfo" "$(shown "$2")" "$want_shown"
}
kmsg_count() { dmesg | grep -c -- "$1" || true; }
# expect_kmsg WHAT TEXT BEFORE: the kernel logged TEXT once more since
# BEFORE was counted.
expect_kmsg() {
	local now
	now=$(kmsg_count "$2")
	[ "$now" -gt "$3" ] || die "$1: the kernel did not log '$2'"
}

dev=$(mkfs_scratch scratch1)

# --- New mounts, each API, and the value in force at once --------------
for api in mount2 default fsconfig; do
	case $api in
	mount2) LIBMOUNT_FORCE_MOUNT2=always mount -o relatime_interval=60 "$dev" "$m" ;;
	default) mount -o relatime_interval=60 "$dev" "$m" ;;
	fsconfig) "$fsctx" create ext4 "$m" source="$dev" relatime_interval=60 >/dev/null 2>&1 ;;
	esac
	expect_value "$api mount with relatime_interval=60" "$m" 60
	fresh_file "$m/f"
	t=$(atime "$m/f")
	expect_read "$api: 60 s interval, +61 s" "$m/f" $((t + 61)) updates
	umount "$m"
done

# Every spelling of the values, and the global value.
for c in default:-1 -1:-1 0:0 0x3c:60 2147483647:2147483647; do
	mount -o "relatime_interval=${c%%:*}" "$dev" "$m"
	expect_value "relatime_interval=${c%%:*}" "$m" "${c#*:}"
	umount "$m"
done
mount -o relatime_interval=default "$dev" "$m"
fresh_file "$m/f"
t=$(atime "$m/f")
expect_read "relatime_interval=default follows the global 1 day, +1h" "$m/f" $((t + 3600)) keeps
umount "$m"

# --- Bad values: the mount fails, with the option named ------------------
for v in abc -2 2147483648 '' 1.5 60s; do
	before=$(kmsg_count "Bad value for 'relatime_interval'")
	if LIBMOUNT_FORCE_MOUNT2=always mount -o "relatime_interval=$v" "$dev" "$m" 2>/dev/null; then
		die "mount(2) with relatime_interval='$v' succeeded"
	fi
	mountpoint -q "$m" && die "relatime_interval='$v': mounted anyway"
	expect_kmsg "mount(2) with relatime_interval='$v'" "Bad value for 'relatime_interval'" "$before"
	if out=$("$fsctx" create ext4 "$m" source="$dev" "relatime_interval=$v" 2>&1); then
		die "fsconfig with relatime_interval='$v' succeeded"
	fi
	case $out in
	*"fsconfig relatime_interval=$v: Invalid argument"*"e VFS: Bad value for 'relatime_interval'"*) ;;
	*) die "fsconfig with relatime_interval='$v': got '$out'" ;;
	esac
	mountpoint -q "$m" && die "fsconfig relatime_interval='$v': mounted anyway"
done
if out=$("$fsctx" create ext4 "$m" source="$dev" relatime_interval 2>&1); then
	die "relatime_interval without a value succeeded"
fi
case $out in
*"e VFS: relatime_interval needs a value"*) ;;
*) die "relatime_interval without a value: got '$out'" ;;
esac

# --- Remounts: set, keep, refuse, and agree with sysfs -------------------
mount -o relatime_interval=60 "$dev" "$m"
mount -o remount,relatime_interval=300 "$m"
expect_value "mount -o remount,relatime_interval=300" "$m" 300
# mount(8) re-sends the options mountinfo shows: the value parses back.
mount -o remount,ro "$m"
mount -o remount,rw "$m"
expect_value "remount ro, then rw" "$m" 300
"$fsctx" reconfigure "$m"
expect_value "fsconfig reconfigure without the option" "$m" 300
"$fsctx" reconfigure "$m" relatime_interval=600
expect_value "fsconfig reconfigure relatime_interval=600" "$m" 600
expect_fail "remount with relatime_interval=abc" \
	env LIBMOUNT_FORCE_MOUNT2=always mount -o remount,relatime_interval=abc "$m"
expect_fail "fsconfig reconfigure relatime_interval=-5" \
	"$fsctx" reconfigure "$m" relatime_interval=-5
expect_value "after two failed remounts" "$m" 600
# A remount that fails after its options parsed (read-write on a device
# made read-only: reconfigure_super() refuses it) leaves the value too.
mount -o remount,ro "$m"
blockdev --setro "$dev"
expect_fail "remount rw of a read-only device" \
	env LIBMOUNT_FORCE_MOUNT2=always mount -o remount,rw,relatime_interval=5 "$m"
blockdev --setrw "$dev"
expect_value "after a remount the kernel refused" "$m" 600
mount -o remount,rw "$m"
echo 900 >"$(relatime_dir "$m")/relatime_interval"
expect_value "sysfs write of 900" "$m" 900
mount -o remount,relatime_interval=default "$m"
expect_value "remount with relatime_interval=default" "$m" -1

# --- A second mount of the same superblock -------------------------------
mount -o remount,relatime_interval=60 "$m"
mount "$dev" "$m2"
expect_value "second mount without the option" "$m2" 60
umount "$m2"
mount -o relatime_interval=60 "$dev" "$m2"
expect_value "second mount with the same value" "$m2" 60
umount "$m2"
before=$(kmsg_count "would change relatime_interval")
expect_fail "second mount(2) with another value" \
	env LIBMOUNT_FORCE_MOUNT2=always mount -o relatime_interval=120 "$dev" "$m2"
mountpoint -q "$m2" && die "second mount with another value: mounted anyway"
expect_kmsg "second mount(2) with another value" "would change relatime_interval" "$before"
if out=$("$fsctx" create ext4 "$m2" source="$dev" relatime_interval=120 2>&1); then
	die "second fsconfig mount with another value succeeded"
fi
case $out in
*"fsconfig create: Device or resource busy"*"e VFS: Can't mount, would change relatime_interval of "*" from 60 to 120"*) ;;
*) die "second fsconfig mount with another value: got '$out'" ;;
esac
expect_value "the first mount after the refused ones" "$m" 60
umount "$m"

# --- Other filesystems, on the fs_context and the legacy paths ----------
# on_fs WHAT FSTYPE SOURCE [OPTIONS]: mount(2) and fsconfig (where the
# filesystem takes a source that way), each with relatime_interval=120,
# then a remount to 240.
on_fs() {
	local what=$1 type=$2 src=$3 opts=${4:+,$4} api
	for api in mount2 fsconfig; do
		case $api in
		mount2) LIBMOUNT_FORCE_MOUNT2=always mount -t "$type" -o "relatime_interval=120$opts" "$src" "$m" ;;
		fsconfig)
			local -a params=(source="$src" relatime_interval=120)
			local o
			for o in ${4:+${4//,/ }}; do params+=("$o"); done
			"$fsctx" create "$type" "$m" "${params[@]}" >/dev/null 2>&1 ;;
		esac
		expect_value "$what, $api mount" "$m" 120
		LIBMOUNT_FORCE_MOUNT2=always mount -o remount,relatime_interval=240 "$m"
		expect_value "$what, $api mount, remounted" "$m" 240
		umount "$m"
	done
}
on_fs tmpfs tmpfs tmpfs
on_fs devpts devpts devpts newinstance
mkfs.vfat "$dev" >/dev/null
on_fs vfat vfat "$dev"
mkfs.btrfs -q -f "$dev" >/dev/null
on_fs btrfs btrfs "$dev"
lower=/run/atimectl-tests/ovl-lower upper=/run/atimectl-tests/ovl-upper work=/run/atimectl-tests/ovl-work
mkdir -p "$lower" "$upper" "$work"
on_fs overlayfs overlay overlay "lowerdir=$lower,upperdir=$upper,workdir=$work"

# --- In force before the mount is visible ---------------------------------
# fsctx reads the superblock's value after fsmount() and before
# move_mount(): while the new mount is attached nowhere, so before anyone
# can read through it.  mount(2) sets the value in the same place
# (vfs_get_tree()), before the mount exists at all.
for type in tmpfs ext4; do
	src=tmpfs
	[ "$type" = ext4 ] && src=$(mkfs_scratch scratch1)
	out=$("$fsctx" create "$type" "$m" source="$src" relatime_interval=77)
	case $out in
	"detached "*" 77") ;;
	*) die "$type: before the mount was attached: got '$out', want the value 77" ;;
	esac
	expect_value "$type: attached" "$m" 77
	umount "$m"
	out=$("$fsctx" create "$type" "$m" source="$src")
	case $out in
	"detached "*" -1") ;;
	*) die "$type without the option: before the mount was attached: got '$out'" ;;
	esac
	umount "$m"
done

# --- Root of a user namespace ----------------------------------------------
# It may set the option on a tmpfs of its own, not on another's superblock.
mount -o relatime_interval=3600 "$(mkfs_scratch scratch1)" "$m"
got=$(unshare -Urm --propagation private sh -ec "
	mkdir -p /tmp/userns-mnt
	mount -t tmpfs -o relatime_interval=42 tmpfs /tmp/userns-mnt
	findmnt -n -o FS-OPTIONS --mountpoint /tmp/userns-mnt
	if mount -o remount,relatime_interval=5 '$m' 2>/dev/null; then echo remounted; fi
")
case $got in
*relatime_interval=42*) ;;
*) die "user namespace tmpfs: got '$got'" ;;
esac
case $got in *remounted*) die "root of a user namespace changed another's superblock" ;; esac
expect_value "ext4 after the user namespace's attempt" "$m" 3600
umount "$m"
