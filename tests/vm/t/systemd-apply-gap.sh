# A remount made as atimectl-apply.service would end is applied.  A
# service that ran once per change of utab and ended when utab had been
# quiet for a second lost such a remount (seen in CI, 2026-12-06): systemd
# does not watch utab for atimectl-apply.path while the service is active
# or deactivating, and PathChanged= does not look back once it watches
# again.  The service now follows utab until shutdown.  A drop-in that
# makes the service's end slow (ExecStopPost= sleeping 5 s) widens that
# moment from milliseconds to seconds, so that the gap, where there is
# one, is found every time.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
dropin=/run/systemd/system/atimectl-apply.service.d/50-atimectl-test-slow-end.conf
cleanup() {
	rm -f "$dropin"
	systemctl daemon-reload
	restore_sysctls
	cleanup_mounts
}
sysctl_set fs.relatime_interval 60
trap cleanup EXIT
mkdir -p "$(dirname "$dropin")"
printf '[Service]\nExecStopPost=/bin/sleep 5\n' >"$dropin"
systemctl daemon-reload

t=/run/atimectl-tests/mnt-gap
mkdir -p "$t"
mount -t tmpfs -o size=1m,x-relatime-interval=20min tmpfs "$t"
expect_interval "mount -o x-relatime-interval=20min" "$t" 1200
# A service that ends does so a second after its last pass, and then
# sleeps in ExecStopPost=: remount then.  One that follows never gets
# there (up to 5 s).
for ((i = 0; i < 50; i++)); do
	[ "$(systemctl show -P ActiveState atimectl-apply.service)" = deactivating ] && break
	sleep 0.1
done
note "atimectl-apply.service is $(systemctl show -P ActiveState atimectl-apply.service) at the remount"
mount -o remount,x-relatime-interval=25min "$t"
expect_interval "remount as the service would end" "$t" 1500
expect_apply_following "after the remount"
