# mount(8) of util-linux 2.39 and later (Debian 13 ships 2.41) mounts
# through fsopen/fsconfig/fsmount and calls mount_setattr only for the
# options given; helpers/fsmount makes exactly those system calls.  A
# mount that names no atime mode gets what fs.default_relatime says, as
# with mount(2); an explicit mode always wins; the superblock gets its
# /sys/fs/relatime directory either way.
. /usr/lib/atimectl-tests/lib.sh
fsmount=/usr/lib/atimectl-tests/helpers/fsmount
m=/run/atimectl-tests/mnt-newapi
mkdir -p "$m"
def=$(cat /proc/sys/fs/default_relatime)
note "fs.default_relatime is $def"
[ "$def" = 1 ] && default=relatime || default=strictatime
dev=$(mkfs_scratch scratch1)

mode_of() {
	case ",$(mount_opts "$1")," in
	*,noatime,*) echo noatime ;;
	*,relatime,*) echo relatime ;;
	*) echo strictatime ;;
	esac
}

for c in "-:$default" "relatime:relatime" "noatime:noatime" \
	"strictatime:strictatime" "nodiratime:$default" \
	"ro:$default" "nodiratime,relatime:relatime"; do
	opts=${c%%:*} want=${c#*:}
	if [ "$opts" = - ]; then
		"$fsmount" ext4 "$dev" "$m"
	else
		"$fsmount" -o "$opts" ext4 "$dev" "$m"
	fi
	expect_eq "fsmount -o $opts: atime mode" "$(mode_of "$m")" "$want"
	case $opts in *nodiratime*) has_opt "$m" nodiratime ||
		die "fsmount -o $opts: no nodiratime in $(mount_opts "$m")" ;; esac
	[ -d "$(relatime_dir "$m")" ] || die "no $(relatime_dir "$m") for a superblock made by fsconfig"
	umount "$m"
done

# The mode is the one in force: with strictatime a read 5 seconds after
# the last one updates atime, with relatime it does not.
"$fsmount" ext4 "$dev" "$m"
fresh_file "$m/f"
if [ "$default" = strictatime ]; then
	expect_read "option-less fsmount, a read 5s later" "$m/f" $(( $(atime "$m/f") + 5 )) updates
else
	expect_read "option-less fsmount, a read 5s later" "$m/f" $(( $(atime "$m/f") + 5 )) keeps
fi
d=$(relatime_dir "$m")
umount "$m"
[ -e "$d" ] && die "$d still there after unmount"

# mount(2), as util-linux 2.38 (Debian 12) uses it, agrees.
mount "$dev" "$m"
expect_eq "mount(2) without options: atime mode" "$(mode_of "$m")" "$default"
umount "$m"

# tmpfs, a superblock without a device, behaves alike.
"$fsmount" tmpfs tmpfs "$m"
expect_eq "fsmount tmpfs: atime mode" "$(mode_of "$m")" "$default"
umount "$m"
