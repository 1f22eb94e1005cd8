# x-relatime-interval= in /etc/fstab is applied at boot: every mount unit
# wants its atimectl-apply@ instance (mount.d/50-atimectl.conf), which
# applies the unit's Options= as systemd resolved them (2h on /srv/cache,
# 10min on /srv/mail), and reads obey it.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60

for m in cache mail; do
	wait_mounted /srv/$m
	svc=atimectl-apply@srv-$m.service
	case " $(systemctl show -P Wants srv-$m.mount) " in
	*" $svc "*) ;;
	*) die "srv-$m.mount does not want $svc: $(systemctl show -P Wants srv-$m.mount)" ;;
	esac
	state=$(wait_state "$svc" active failed)
	if [ "$state" != active ]; then
		show_unit "$svc"
		die "$svc is $state, want active"
	fi
	expect_eq "$svc result" "$(systemctl show -P Result "$svc")" success
done
expect_eq "what atimectl-apply@srv-cache.service said" \
	"$(apply_log atimectl-apply@srv-cache.service)" \
	"/srv/cache ($(majmin /srv/cache)): relatime interval 2h (x-relatime-interval=2h)"

expect_interval "/srv/cache" /srv/cache 7200
expect_interval "/srv/mail" /srv/mail 600
# Other filesystems are left alone.
expect_eq "/run override" "$(cat "$(override_file /run)")" -1
