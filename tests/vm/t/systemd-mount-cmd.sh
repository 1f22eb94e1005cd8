# systemd-mount -o x-relatime-interval=...: mount(8) keeps the option in
# utab, so atimectl-apply.service applies it; -o relatime_interval= is the
# kernel's and in force before the mount is visible.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60
t=/run/atimectl-tests/mnt-sdmount
unit=$(systemd-escape -p --suffix=mount "$t")
cleanup() { systemd-umount "$t" 2>/dev/null || true; restore_sysctls; cleanup_mounts; }
trap cleanup EXIT

mkdir -p "$t"
systemd-mount -t tmpfs -o size=1m,x-relatime-interval=30min tmpfs "$t" ||
	die "systemd-mount failed"
expect_eq "$unit" "$(systemctl show -P ActiveState "$unit")" active
expect_eq "$unit is transient" "$(systemctl show -P Transient "$unit")" yes
expect_interval "systemd-mount -o" "$t" 1800
systemd-umount "$t"
apply_settled
expect_apply_following "after systemd-umount"

systemd-mount -t tmpfs -o size=1m,relatime_interval=900 tmpfs "$t" ||
	die "systemd-mount -o relatime_interval= failed"
case ,$(super_opts "$t"), in
*,relatime_interval=900,*) ;;
*) die "systemd-mount -o relatime_interval=900: super options $(super_opts "$t")" ;;
esac
expect_interval "systemd-mount -o relatime_interval=" "$t" 900
systemd-umount "$t"
