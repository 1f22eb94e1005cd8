# No window: where the interval is declared as the kernel's option, a
# reader that starts polling before the mount and reads the moment the
# mount appears in mountinfo already finds the declared interval in force.
# The file's atime is old enough for the global interval (60s) to update it
# and young enough for the declared one (2h) to keep it: atime kept means
# the read ran under the declared interval; and the mount as the reader
# first saw it in mountinfo already carries relatime_interval=.  Declared
# three ways: an fstab line with x-relatime-interval= (the generator's
# drop-in), a .mount unit with relatime_interval= in Options=, and mount(8)
# by hand with -o relatime_interval=.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60
where=/run/atimectl-tests/nowindow
unit=$(systemd-escape -p --suffix=mount "$where")
cp /etc/fstab /run/atimectl-tests/fstab.orig
cleanup() {
	systemctl stop "$unit" 2>/dev/null || true
	umount "$where" 2>/dev/null || true
	cp /run/atimectl-tests/fstab.orig /etc/fstab
	rm -f "/run/systemd/system/$unit"
	systemctl daemon-reload
	restore_sysctls
	cleanup_mounts
}
trap cleanup EXIT
dev=$(mkfs_scratch scratch1)
mkdir -p "$where"

# prepare: a file with atime after mtime and ctime, the filesystem
# unmounted, and the clock 10 minutes on.
prepare() {
	mount "$dev" "$where"
	fresh_file "$where/f"
	t0=$(atime "$where/f")
	umount "$where"
	clock_set $((t0 + 600))
}

# race WHAT COMMAND...: start a reader that polls mountinfo (bash builtins
# only: no process per poll) and reads $where/f the moment $where appears,
# then run COMMAND to mount; the read must keep atime, and the first
# mountinfo line the reader saw must carry relatime_interval=7200.
race() {
	local what=$1 first
	shift
	rm -f /run/atimectl-tests/first-seen
	(
		while :; do
			while IFS= read -r line; do
				case $line in
				*" $where "*)
					cat "$where/f" >/dev/null
					printf '%s\n' "$line" >/run/atimectl-tests/first-seen
					exit 0
					;;
				esac
			done </proc/self/mountinfo
		done
	) &
	reader=$!
	sleep 0.2
	"$@" || die "$what: mounting failed"
	wait "$reader"
	first=$(cat /run/atimectl-tests/first-seen)
	note "$what: the reader first saw: $first"
	case ,${first##* - }, in
	*,relatime_interval=7200,*) ;;
	*) die "$what: the mount as first seen lacks relatime_interval=7200: $first" ;;
	esac
	expect_eq "$what: atime after the first read" "$(atime "$where/f")" "$t0"
	expect_eq "$what: override" "$(cat "$(override_file "$where")")" 7200
}

# fstab, x-relatime-interval=: the generator's drop-in.
echo "$dev $where ext4 noauto,x-relatime-interval=2h 0 0" >>/etc/fstab
systemctl daemon-reload
case " $(systemctl show -P DropInPaths "$unit") " in
*50-atimectl-relatime-interval.conf*) ;;
*) die "$unit has no drop-in from atimectl-generator: $(systemctl show -P DropInPaths "$unit")" ;;
esac
prepare
race "fstab x-relatime-interval=" systemctl start "$unit"
systemctl stop "$unit"
cp /run/atimectl-tests/fstab.orig /etc/fstab

# A .mount unit with the kernel's option.
printf '[Mount]\nWhat=%s\nWhere=%s\nType=ext4\nOptions=relatime_interval=7200\n' "$dev" "$where" \
	>"/run/systemd/system/$unit"
systemctl daemon-reload
prepare
race ".mount unit relatime_interval=" systemctl start "$unit"
systemctl stop "$unit"
rm -f "/run/systemd/system/$unit"
systemctl daemon-reload

# By hand.
prepare
race "mount -o relatime_interval=" mount -o relatime_interval=7200 "$dev" "$where"
umount "$where"
