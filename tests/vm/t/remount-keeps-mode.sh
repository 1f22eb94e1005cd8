# A remount that names no atime mode keeps the mount's mode, whatever
# fs.default_relatime says: "remount,nodiratime" adds nodiratime to a
# relatime, noatime or strictatime mount and changes nothing else.
# helpers/remount makes one mount(2) call with exactly the flags named
# (mount(8) would add the options it finds in mountinfo).
. /usr/lib/atimectl-tests/lib.sh
remount=/usr/lib/atimectl-tests/helpers/remount
note "fs.default_relatime is $(cat /proc/sys/fs/default_relatime)"
mode_of() {
	case ",$(mount_opts "$1")," in
	*,noatime,*) echo noatime ;;
	*,relatime,*) echo relatime ;;
	*) echo strictatime ;;
	esac
}
dev=$(mkfs_scratch scratch1)
m=/run/atimectl-tests/mnt-remount
mkdir -p "$m"
for mode in relatime noatime strictatime; do
	mount -o "$mode" "$dev" "$m"
	"$remount" "$m" nodiratime
	expect_eq "$mode, remount nodiratime: mode" "$(mode_of "$m")" "$mode"
	has_opt "$m" nodiratime || die "$mode, remount nodiratime: $(mount_opts "$m")"
	"$remount" "$m"
	expect_eq "$mode, remount without flags: mode" "$(mode_of "$m")" "$mode"
	has_opt "$m" nodiratime || die "$mode, remount without flags dropped nodiratime"
	# Naming a mode still changes it, and resets nodiratime as before.
	"$remount" "$m" relatime
	expect_eq "$mode, remount relatime: mode" "$(mode_of "$m")" relatime
	has_opt "$m" nodiratime && die "$mode, remount relatime kept nodiratime"
	umount "$m"
done
