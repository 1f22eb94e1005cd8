# mount(8) by hand, with no step by the user: "mount -o
# x-relatime-interval=..." of a filesystem systemd knows nothing of (libmount
# keeps the x- option in /run/mount/utab; systemd synthesizes a mount unit
# from mountinfo, whose mount.d/ drop-in wants atimectl-apply@), and an
# fstab filesystem unmounted and mounted again with plain umount/mount.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60
remount() { mountpoint -q /srv/cache || mount /srv/cache || true; restore_sysctls; cleanup_mounts; }
trap remount EXIT

# A tmpfs mounted by hand with the option.
t=/run/atimectl-tests/mnt-byhand
mkdir -p "$t"
mount -t tmpfs -o size=1m,x-relatime-interval=20min tmpfs "$t"
note "utab: $(grep -F "$t" /run/mount/utab || echo none)"
unit=$(systemd-escape -p --suffix=mount "$t")
svc=atimectl-apply@${unit%.mount}.service
expect_interval "mount -o by hand" "$t" 1200
expect_eq "$svc" "$(wait_state "$svc" active failed)" active
umount "$t"
expect_eq "$svc after umount" "$(wait_state "$svc" inactive)" inactive

# By hand without the option: the instance runs and leaves it alone.
mount -t tmpfs -o size=1m tmpfs "$t"
expect_eq "$svc without the option" "$(wait_state "$svc" active failed)" active
expect_no_override "mount by hand without the option" "$t"
umount "$t"

# An fstab filesystem, by hand.
svc=atimectl-apply@srv-cache.service
wait_mounted /srv/cache
expect_eq "$svc" "$(wait_state "$svc" active failed)" active
old=$(majmin /srv/cache)
umount /srv/cache
expect_eq "$svc after umount" "$(wait_state "$svc" inactive)" inactive
wait_gone "/sys/fs/relatime/$old" || die "/sys/fs/relatime/$old still there after umount"
mount /srv/cache
expect_interval "fstab mount by hand" /srv/cache 7200
expect_eq "$svc after mount by hand" "$(wait_state "$svc" active)" active
