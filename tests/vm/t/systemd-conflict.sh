# A bind mount asking for another value than its source: the mount applied
# last (the bind mount, made last) wins, and atimectl-apply.service says so
# in one line.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60
src=/run/atimectl-tests/mnt-src
bind=/run/atimectl-tests/mnt-bind
mkdir -p "$src" "$bind"
mount -t tmpfs -o size=1m,x-relatime-interval=2h tmpfs "$src"
expect_eq "source override" "$(wait_file "$(override_file "$src")" 7200)" 7200
apply_settled
since=$(journal_mark)
mount --bind -o x-relatime-interval=1h "$src" "$bind"
note "utab: $(cat /run/mount/utab)"
expect_interval "bind mount, made last" "$bind" 3600
apply_settled
expect_eq "what atimectl-apply.service said" "$(apply_lines "$since" "relatime interval 1h")" \
"atimectl: conflict on $(majmin "$src"): $src asks for x-relatime-interval=2h, $bind for x-relatime-interval=1h; the one applied last wins: 1h
$bind ($(majmin "$src")): relatime interval 1h (x-relatime-interval=1h)"
umount "$bind"
