# Short-lived mounts leave atimectl-apply.service neither failed nor
# wrong.  A mount that is gone before or while the service looks has
# nothing to apply: "apply --changes" finds it unmounted, says so at most,
# and never applies its value to the filesystem that holds the mount point.
# Mounts made while the service runs are taken in another pass, so a mount
# that stays after a burst of others has its interval.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh

top=/run/shortlived
cleanup() {
	local m
	for m in "$top"/*; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	rm -rf "$top"
	cleanup_mounts
}
trap cleanup EXIT
mkdir -p "$top"
run_override=$(cat "$(override_file /run)")
apply_settled
since=$(journal_mark)

# Mount and unmount in a tight loop, as tests do, with and without the
# option, removing the mount point or not, the same mount point again and
# again and new ones.
for ((i = 0; i < 40; i++)); do
	d=$top/m$((i % 7))
	mkdir -p "$d"
	case $((i % 3)) in
	0) mount -t tmpfs -o size=1m,x-relatime-interval=$((i + 1))min tmpfs "$d" ;;
	1) mount -t tmpfs -o size=1m tmpfs "$d" ;;
	2) mount -t tmpfs -o size=1m,x-relatime-interval=$((i + 1))h tmpfs "$d" ;;
	esac
	umount "$d"
	[ $((i % 5)) = 0 ] && rmdir "$d"
done
# A mount made last, that stays: its interval is in force once the
# service has taken everything before it.
mkdir -p "$top/stays"
mount -t tmpfs -o size=1m,x-relatime-interval=17min tmpfs "$top/stays"
expect_eq "the mount that stays" "$(wait_file "$(override_file "$top/stays")" 1020)" 1020
apply_settled
expect_apply_following "after the short-lived mounts"
expect_eq "/run override (holds the mount points)" "$(cat "$(override_file /run)")" "$run_override"
# What it said about them: "nothing to apply", or the value applied to a
# mount that was there when it looked and wrote; nothing else.
lines=$(journal_since "$since" _SYSTEMD_UNIT=atimectl-apply.service)
note "atimectl-apply.service said: $(printf '%s\n' "$lines" | sort | uniq -c | tr '\n' ';')"
other=$(printf '%s\n' "$lines" | grep -v -e ': unmounted, nothing to apply$' \
	-E -e "^$top/m[0-6] \([0-9]+:[0-9]+\): relatime interval [0-9a-z ]+ \(x-relatime-interval=[0-9]+(min|h)\)$" \
	-e "^$top/stays \([0-9]+:[0-9]+\): relatime interval 17min \(x-relatime-interval=17min\)$" | grep . || true)
[ -z "$other" ] || die "atimectl-apply.service said more: $other"
umount "$top/stays"
