# x-relatime-interval= in /etc/fstab reaches the kernel as the mount option
# relatime_interval=: atimectl-generator gives each line's mount unit a
# drop-in whose Options= adds it (2h on /srv/cache, 10min on /srv/mail), so
# the interval is in force from the moment the mount exists, mountinfo shows
# it, and reads obey it.  atimectl-apply.service, started when mount(8)
# wrote the x- option to utab, finds the value in force and says so.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60
dropin=50-atimectl-relatime-interval.conf

expect_eq "atimectl-apply.path" "$(systemctl show -P ActiveState atimectl-apply.path)" active
for m in cache:7200 mail:600; do
	name=${m%%:*} secs=${m#*:}
	wait_mounted /srv/$name
	unit=srv-$name.mount
	case " $(systemctl show -P DropInPaths "$unit") " in
	*/$unit.d/$dropin" "*) ;;
	*) die "$unit has no $dropin: $(systemctl show -P DropInPaths "$unit")" ;;
	esac
	case ,$(super_opts /srv/$name), in
	*,relatime_interval=$secs,*) ;;
	*) die "/srv/$name: super options '$(super_opts /srv/$name)' lack relatime_interval=$secs" ;;
	esac
	expect_interval "/srv/$name" /srv/$name "$secs"
done
# Other filesystems are left alone, and nothing wants a service per mount.
expect_eq "/run override" "$(cat "$(override_file /run)")" -1
expect_eq "atimectl-apply@ instances" \
	"$(systemctl list-units --all --no-legend 'atimectl-apply@*' | wc -l)" 0
