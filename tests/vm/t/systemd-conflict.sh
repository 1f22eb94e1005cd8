# A bind mount asking for another value than its source: the mount applied
# last (the bind mount, made last) wins, and its atimectl-apply@ instance
# says so in one line.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60
src=/run/atimectl-tests/mnt-src
bind=/run/atimectl-tests/mnt-bind
mkdir -p "$src" "$bind"
mount -t tmpfs -o size=1m,x-relatime-interval=2h tmpfs "$src"
expect_eq "source override" "$(wait_file "$(override_file "$src")" 7200)" 7200
mount --bind -o x-relatime-interval=1h "$src" "$bind"
note "utab: $(cat /run/mount/utab)"
svc=atimectl-apply@$(systemd-escape -p "$bind").service
expect_eq "$svc" "$(wait_state "$svc" active failed)" active
expect_interval "bind mount, made last" "$bind" 3600
expect_eq "what $svc said" "$(apply_log "$svc")" \
"atimectl: conflict on $(majmin "$src"): $src asks for x-relatime-interval=2h, $bind for x-relatime-interval=1h; the one applied last wins: 1h
$bind ($(majmin "$src")): relatime interval 1h (x-relatime-interval=1h)"
umount "$bind"
