# What the README promises of scripts/run.sh's VM: /srv/mail (10min) and
# /srv/cache (2h) mounted with their overrides in force, even when udev
# labels the disks late; a missing one is reported at login.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60
if grep -q 'atimetest\.udev_delay' /proc/cmdline; then
	note "udev held back from $(systemctl show -P ExecMainStartTimestampMonotonic atimectl-test-udev-delay.service)us to $(systemctl show -P ExecMainExitTimestampMonotonic atimectl-test-udev-delay.service)us"
	note "srv-mail.mount active at $(systemctl show -P ActiveEnterTimestampMonotonic srv-mail.mount)us, srv-cache.mount at $(systemctl show -P ActiveEnterTimestampMonotonic srv-cache.mount)us"
fi
# The runner is ordered after the mounts: no waiting here.
mountpoint -q /srv/mail || die "/srv/mail is not mounted ($(systemctl show -P ActiveState srv-mail.mount))"
mountpoint -q /srv/cache || die "/srv/cache is not mounted ($(systemctl show -P ActiveState srv-cache.mount))"
expect_interval "/srv/mail" /srv/mail 600
expect_interval "/srv/cache" /srv/cache 7200
atimectl status /srv/mail /srv/cache
atimectl status /srv/mail | grep -q '10min *option' || die "status: $(atimectl status /srv/mail)"
atimectl status /srv/cache | grep -q '2h *option' || die "status: $(atimectl status /srv/cache)"

# The demo (scripts/run.sh without a terminal) prints the status once
# both disks are mounted, which is once both intervals are set: the kernel
# took them with the mounts.
after=" $(systemctl show -P After atimectl-demo.service) "
for u in srv-mail.mount srv-cache.mount; do
	case $after in
	*" $u "*) ;;
	*) die "atimectl-demo.service is not ordered after $u" ;;
	esac
done
for m in mail:600 cache:7200; do
	case ,$(super_opts /srv/${m%%:*}), in
	*,relatime_interval=${m#*:},*) ;;
	*) die "/srv/${m%%:*} was not mounted with relatime_interval=${m#*:}: $(super_opts /srv/${m%%:*})" ;;
	esac
done

# The login check is quiet when both are there, and names a missing one.
expect_eq "login message with both mounted" "$(bash /etc/profile.d/atimectl-disks.sh 2>&1)" ""
umount /srv/cache
msg=$(bash /etc/profile.d/atimectl-disks.sh 2>&1)
systemctl start srv-cache.mount
case $msg in
"atimectl VM: /srv/cache is not mounted: "*) ;;
*) die "login message without /srv/cache: '$msg'" ;;
esac
mountpoint -q /srv/cache || die "/srv/cache not mounted again"

# And root is logged in on the serial console (agetty --autologin runs
# login(1), which trixie no longer installs as Essential): a login shell
# on ttyS0 that stays.  The getty starts after the mounts, as this test
# does, so give it the time a slow guest needs to get there.
for ((i = 0; i < 600; i++)); do
	pgrep -t ttyS0 -u root -x bash >/dev/null && break
	sleep 0.2
done
pid=$(pgrep -t ttyS0 -u root -x bash | head -n 1) ||
	die "no root shell on ttyS0 (serial-getty@ttyS0: $(systemctl show -P ActiveState -P NRestarts serial-getty@ttyS0.service | tr '\n' ' '))"
sleep 5
kill -0 "$pid" 2>/dev/null || die "the root shell on ttyS0 exited within 5s"
expect_eq "serial-getty@ttyS0 restarts" "$(systemctl show -P NRestarts serial-getty@ttyS0.service)" 0
