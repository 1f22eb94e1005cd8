# The demo filesystems from /etc/fstab show their x-relatime-interval= in
# atimectl status, applied at boot.
. /usr/lib/atimectl-tests/lib.sh
for ((i = 0; i < wait_polls; i++)); do
	[ "$(atimectl status --json /srv/mail 2>/dev/null | jq -r '.filesystems[0].override')" = 600 ] && break
	sleep 0.1
done
atimectl status
expect_eq "/srv/mail override" "$(atimectl status --json /srv/mail | jq -r '.filesystems[0].override')" 600
expect_eq "/srv/cache interval" "$(atimectl status --json /srv/cache | jq -r '.filesystems[0].interval')" 7200
atimectl status /srv/mail | grep -q '10min *override' || die "table: $(atimectl status /srv/mail)"
