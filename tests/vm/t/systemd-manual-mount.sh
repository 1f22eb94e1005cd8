# A filesystem from /etc/fstab unmounted and mounted again by hand (plain
# umount/mount, not systemctl) gets its x-relatime-interval= again: systemd
# sees srv-cache.mount become active and starts what it wants.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh

svc=atimectl-apply@srv-cache.service
remount() { mountpoint -q /srv/cache || mount /srv/cache || true; cleanup_mounts; }
trap remount EXIT

wait_mounted /srv/cache
expect_eq "$svc" "$(wait_state "$svc" active failed)" active
old=$(majmin /srv/cache)

umount /srv/cache
expect_eq "$svc after umount" "$(wait_state "$svc" inactive)" inactive
wait_gone "/sys/fs/relatime/$old" || die "/sys/fs/relatime/$old still there after umount"

mount /srv/cache
mm=$(majmin /srv/cache)
expect_eq "override after mount by hand" "$(wait_file "/sys/fs/relatime/$mm/relatime_interval" 7200)" 7200
expect_eq "$svc after mount by hand" "$(wait_state "$svc" active)" active
