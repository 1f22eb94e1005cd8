# x-relatime-interval= in /etc/fstab is applied at boot: atimectl-generator
# makes srv-cache.mount want atimectl-apply@srv-cache.service, which sets
# the override from the option (2h on /srv/cache, 10min on /srv/mail).
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh

gen=/run/systemd/generator
for m in cache mail; do
	link=$gen/srv-$m.mount.wants/atimectl-apply@srv-$m.service
	[ -L "$link" ] || die "the generator wrote no $link ($(find "$gen" -maxdepth 1 | tr '\n' ' '))"
	grep -q "^Environment=\"ATIMECTL_MOUNT_OPTIONS=.*x-relatime-interval=" \
		"$gen/atimectl-apply@srv-$m.service.d/50-options.conf" ||
		die "no options drop-in for srv-$m"
done

wait_mounted /srv/cache
wait_mounted /srv/mail
for m in cache mail; do
	state=$(wait_state "atimectl-apply@srv-$m.service" active failed inactive)
	if [ "$state" != active ]; then
		show_unit "atimectl-apply@srv-$m.service"
		die "atimectl-apply@srv-$m.service is $state, want active"
	fi
done
expect_eq "atimectl-apply@srv-cache.service result" \
	"$(systemctl show -P Result atimectl-apply@srv-cache.service)" success

expect_eq "/srv/cache override" "$(cat "$(override_file /srv/cache)")" 7200
expect_eq "/srv/mail override" "$(cat "$(override_file /srv/mail)")" 600
# Other filesystems are left alone.
expect_eq "/run override" "$(cat "$(override_file /run)")" -1

# The kernel obeys it: with the global interval at 1 minute, a read 1h
# after the last atime update leaves atime alone, one 3h after updates it.
sysctl_set fs.relatime_interval 60
f=/srv/cache/systemd-fstab-test
fresh_file "$f"
t=$(atime "$f")
clock_set $((t + 3600))
read_once "$f"
expect_eq "/srv/cache: atime after a read at +1h" "$(atime "$f")" "$t"
clock_set $((t + 3 * 3600))
read_once "$f"
expect_eq "/srv/cache: atime after a read at +3h" "$(atime "$f")" $((t + 3 * 3600))
rm -f "$f"
