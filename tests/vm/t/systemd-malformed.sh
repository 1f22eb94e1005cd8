# A malformed x-relatime-interval= (/srv/broken has "fast") neither stops
# the boot nor the mount: the service fails with one clear line in the
# journal naming the mount and the value, and the override stays -1.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh

svc=atimectl-apply@srv-broken.service

expect_eq "multi-user.target" "$(systemctl show -P ActiveState multi-user.target)" active
wait_mounted /srv/broken
expect_eq "/srv/broken mount unit" "$(systemctl show -P ActiveState srv-broken.mount)" active

state=$(wait_state "$svc" failed active inactive)
if [ "$state" != failed ]; then
	show_unit "$svc"
	die "$svc is $state, want failed"
fi
expect_eq "$svc exit status" "$(systemctl show -P ExecMainStatus "$svc")" 1
expect_eq "/srv/broken override" "$(cat "$(override_file /srv/broken)")" -1

# What the service's process wrote (systemd's own messages about the unit
# come from init.scope), and nothing more: exactly one line, which names the
# mount point and the bad value.
for ((i = 0; i < wait_polls; i++)); do
	lines=$(journalctl -b --no-pager -o cat _SYSTEMD_UNIT="$svc")
	[ -n "$lines" ] && break
	sleep 0.1
done
note "atimectl said: $lines"
[ -n "$lines" ] || { show_unit "$svc"; die "nothing from atimectl in the journal of $svc"; }
expect_eq "lines from atimectl" "$(printf '%s\n' "$lines" | wc -l)" 1
case $lines in
*/srv/broken*) ;;
*) die "the message does not name /srv/broken: $lines" ;;
esac
case $lines in
*fast*) ;;
*) die "the message does not name the value 'fast': $lines" ;;
esac
# The unit's log as a whole also has it.
journalctl -b --no-pager -u "$svc" | grep -q "/srv/broken.*fast" ||
	die "journalctl -u $svc does not show the message"
