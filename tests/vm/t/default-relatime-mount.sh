# fs.default_relatime with the real mount(8) and real systemd mount units,
# as Debian 13 has them: util-linux 2.39 and later mount through
# fsopen/fsconfig/fsmount/move_mount (mount_setattr only for the options
# given) and remount through open_tree/fsconfig/mount_setattr, and systemd
# runs that mount(8) for .mount units and systemd-mount.  A mount that
# names no atime mode gets what fs.default_relatime says, an explicit mode
# wins, a remount keeps the mode, and existing mounts never change.  An
# older util-linux (Debian 12: 2.38) mounts with mount(2): everything but
# the check that mount(8) uses the new calls runs there too, systemd's
# units and systemd-mount included.  new-mount-api.sh covers the new calls
# one by one (helpers/fsmount).
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh

ver=$(mount --version | sed -n 's/.*util-linux \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p')
[ -n "$ver" ] || die "cannot tell the util-linux version from: $(mount --version)"
read -r major minor <<<"$ver"
new_api=1
if [ "$major" -lt 2 ] || { [ "$major" = 2 ] && [ "$minor" -lt 39 ]; }; then
	new_api=0
fi
note "$(mount --version)"
note "$(systemctl --version | head -n 1)"
expect_eq fs.default_relatime "$(cat /proc/sys/fs/default_relatime)" 0

m=/run/atimectl-tests/mnt-real
mkdir -p "$m"
dev=$(mkfs_scratch scratch1)

mode_of() {
	case ",$(mount_opts "$1")," in
	*,noatime,*) echo noatime ;;
	*,relatime,*) echo relatime ;;
	*) echo strictatime ;;
	esac
}

# mount(8) goes through the new API: libmount's debug log names the calls.
dbg=$(LIBMOUNT_DEBUG=all mount "$dev" "$m" 2>&1 >/dev/null)
if [ "$new_api" = 1 ]; then
	for call in 'fsopen(ext4)' 'create FS' 'move_mount(to='; do
		grep -qF "$call" <<<"$dbg" || {
			printf '%s\n' "$dbg" | grep -i -E 'hook|api' | tail -n 20 >&2
			die "mount(8) did not go through the new mount API: no '$call' in its debug log"
		}
	done
	grep -qF 'new API disabled' <<<"$dbg" && die "libmount fell back to mount(2)"
else
	note "util-linux $major.$minor: mount(8) uses mount(2)"
fi
expect_eq "mount without options: atime mode" "$(mode_of "$m")" strictatime
fresh_file "$m/f"
expect_read "mount without options, a read 5s later (strictatime)" "$m/f" \
	$(( $(atime "$m/f") + 5 )) updates
[ -d "$(relatime_dir "$m")" ] || die "no $(relatime_dir "$m") for a superblock made by mount(8)"

# A remount (open_tree, fsconfig reconfigure, mount_setattr) without an
# atime mode keeps the one in force.
mount -o remount "$m"
expect_eq "mount -o remount: atime mode" "$(mode_of "$m")" strictatime
mount -o remount,nodiratime "$m"
expect_eq "mount -o remount,nodiratime: atime mode" "$(mode_of "$m")" strictatime
has_opt "$m" nodiratime || die "remount,nodiratime: no nodiratime in $(mount_opts "$m")"
mount -o remount,ro "$m"
expect_eq "mount -o remount,ro: atime mode" "$(mode_of "$m")" strictatime
umount "$m"

for c in "relatime:relatime" "noatime:noatime" "strictatime:strictatime" \
	"nodiratime:strictatime" "ro:strictatime" "nodiratime,relatime:relatime"; do
	opts=${c%%:*} want=${c#*:}
	mount -o "$opts" "$dev" "$m"
	expect_eq "mount -o $opts: atime mode" "$(mode_of "$m")" "$want"
	mount -o remount "$m"
	expect_eq "mount -o $opts, then -o remount: atime mode" "$(mode_of "$m")" "$want"
	umount "$m"
done

# tmpfs, a superblock without a device, alike.
mount -t tmpfs none "$m"
expect_eq "tmpfs without options: atime mode" "$(mode_of "$m")" strictatime
umount "$m"

# systemd's mount units run the same mount(8).
dir=/run/systemd/system
where=/run/atimectl-tests/sd-default
unit=$(systemd-escape -p --suffix=mount "$where")
where2=/run/atimectl-tests/sd-transient
cleanup() {
	systemctl stop "$unit" 2>/dev/null || true
	systemd-umount "$where2" 2>/dev/null || true
	rm -f "$dir/$unit"
	systemctl daemon-reload || true
	restore_sysctls
	cleanup_mounts
}
trap cleanup EXIT

write_unit() {	# write_unit [OPTIONS]
	{
		printf '[Unit]\nDescription=atimectl default_relatime test mount\n\n'
		printf '[Mount]\nWhat=%s\nWhere=%s\nType=ext4\n' "$dev" "$where"
		[ -n "${1:-}" ] && printf 'Options=%s\n' "$1"
	} >"$dir/$unit"
	systemctl daemon-reload
}
# unit_mode and transient_mode set $mode: called in the test's own shell,
# not in $(...), where a failure inside would be lost.
unit_mode() {	# unit_mode [OPTIONS]: start the unit, note the mode, stop it
	local state
	write_unit "${1:-}"
	systemctl start "$unit"
	mountpoint -q "$where" || die "$unit started but $where is not mounted"
	mode=$(mode_of "$where")
	systemctl stop "$unit"
	state=$(wait_state "$unit" inactive failed)
	expect_eq "$unit after stop" "$state" inactive
	mountpoint -q "$where" && die "$unit stopped but $where is still mounted"
	return 0
}
unit_mode
expect_eq ".mount unit without Options=: atime mode" "$mode" strictatime
unit_mode relatime
expect_eq ".mount unit, Options=relatime: atime mode" "$mode" relatime
unit_mode noatime
expect_eq ".mount unit, Options=noatime: atime mode" "$mode" noatime
unit_mode nodiratime
expect_eq ".mount unit, Options=nodiratime: atime mode" "$mode" strictatime

# systemd-mount makes a transient unit.
transient_mode() {
	systemd-mount -t ext4 "$dev2" "$where2" >/dev/null 2>&1 || die "systemd-mount failed"
	mode=$(mode_of "$where2")
	systemd-umount "$where2" >/dev/null 2>&1 || die "systemd-umount failed"
	mountpoint -q "$where2" && die "systemd-umount succeeded but $where2 is still mounted"
	return 0
}
dev2=$(mkfs_scratch scratch2)
transient_mode
expect_eq "systemd-mount without options: atime mode" "$mode" strictatime

# Turning the default on changes new mounts only, whoever makes them.
mount "$dev" "$m"
sysctl_set fs.default_relatime 1
trap cleanup EXIT
expect_eq "mounted before default_relatime=1: atime mode" "$(mode_of "$m")" strictatime
umount "$m"
mount "$dev" "$m"
expect_eq "mount without options, default_relatime=1: atime mode" "$(mode_of "$m")" relatime
m2=/run/atimectl-tests/mnt-real2
mkdir -p "$m2"
mount -o strictatime "$dev2" "$m2"
expect_eq "mount -o strictatime, default_relatime=1: atime mode" "$(mode_of "$m2")" strictatime
umount "$m2"
umount "$m"
unit_mode
expect_eq ".mount unit without Options=, default_relatime=1: atime mode" "$mode" relatime
unit_mode strictatime
expect_eq ".mount unit, Options=strictatime, default_relatime=1: atime mode" "$mode" strictatime
transient_mode
expect_eq "systemd-mount without options, default_relatime=1: atime mode" "$mode" relatime
