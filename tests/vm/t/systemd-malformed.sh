# A malformed x-relatime-interval= (/srv/broken has "fast") neither stops
# the boot nor the mount: atimectl-apply.service writes one clear line in
# the journal naming the mount and the value, once, and the override stays
# -1.  (The generator leaves the line alone: an invalid value never reaches
# the kernel.)
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh

expect_eq "multi-user.target" "$(systemctl show -P ActiveState multi-user.target)" active
wait_mounted /srv/broken
expect_eq "/srv/broken mount unit" "$(systemctl show -P ActiveState srv-broken.mount)" active
case " $(systemctl show -P DropInPaths srv-broken.mount) " in
*50-atimectl-relatime-interval.conf*) die "srv-broken.mount has the generator's drop-in" ;;
esac
apply_settled
expect_eq "/srv/broken override" "$(cat "$(override_file /srv/broken)")" -1

# What the service's processes wrote this boot about /srv/broken (systemd's
# own messages about the unit come from init.scope): exactly one line,
# which names the mount point and the bad value, however often the service
# ran since.
for ((i = 0; i < wait_polls; i++)); do
	lines=$(journalctl -b --no-pager -o cat _SYSTEMD_UNIT=atimectl-apply.service | grep /srv/broken)
	[ -n "$lines" ] && break
	sleep 0.1
done
note "atimectl said: $lines"
[ -n "$lines" ] || { show_unit atimectl-apply.service; die "nothing about /srv/broken from atimectl-apply.service"; }
expect_eq "lines about /srv/broken" "$(printf '%s\n' "$lines" | wc -l)" 1
case $lines in
*fast*) ;;
*) die "the message does not name the value 'fast': $lines" ;;
esac
# Another mount with userspace options runs the service again: it says
# nothing more about /srv/broken.
t=/run/atimectl-tests/mnt-other
mkdir -p "$t"
mount -t tmpfs -o size=1m,x-relatime-interval=1h tmpfs "$t"
expect_eq "the other mount" "$(wait_file "$(override_file "$t")" 3600)" 3600
apply_settled
expect_eq "lines about /srv/broken after another run" \
	"$(journalctl -b --no-pager -o cat _SYSTEMD_UNIT=atimectl-apply.service | grep -c /srv/broken)" 1
umount "$t"
