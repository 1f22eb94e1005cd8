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
atimectl status /srv/mail | grep -q '10min *option' || die "table: $(atimectl status /srv/mail)"
# Set at run time: no longer what the mount declares; the kernel's mount
# option shows the new value (the two never disagree).
atimectl set /srv/mail 11min >/dev/null
atimectl status /srv/mail | grep -q '11min *override' || die "table after set: $(atimectl status /srv/mail)"
case ,$(findmnt -n -o FS-OPTIONS --mountpoint /srv/mail), in
*,relatime_interval=660,*) ;;
*) die "mountinfo after atimectl set: $(findmnt -n -o FS-OPTIONS --mountpoint /srv/mail)" ;;
esac
atimectl set /srv/mail 10min >/dev/null
atimectl status /srv/mail | grep -q '10min *option' || die "table after setting back: $(atimectl status /srv/mail)"
