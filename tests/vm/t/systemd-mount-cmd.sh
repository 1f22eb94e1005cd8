# systemd-mount -o x-relatime-interval=...: a transient mount unit gets the
# mount.d/ drop-in like any other, so the option is applied.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60
t=/run/atimectl-tests/mnt-sdmount
unit=$(systemd-escape -p --suffix=mount "$t")
svc=atimectl-apply@${unit%.mount}.service
cleanup() { systemd-umount "$t" 2>/dev/null || true; restore_sysctls; cleanup_mounts; }
trap cleanup EXIT

mkdir -p "$t"
systemd-mount -t tmpfs -o size=1m,x-relatime-interval=30min tmpfs "$t" ||
	die "systemd-mount failed"
expect_eq "$unit" "$(systemctl show -P ActiveState "$unit")" active
expect_eq "$unit is transient" "$(systemctl show -P Transient "$unit")" yes
expect_interval "systemd-mount -o" "$t" 1800
expect_eq "$svc" "$(wait_state "$svc" active failed)" active
systemd-umount "$t"
expect_eq "$svc after systemd-umount" "$(wait_state "$svc" inactive)" inactive
