# An unbalanced quote, x-relatime-interval="1h, in a unit's Options= (an
# fstab line becomes the same): the mount stays, the override is unchanged,
# and the apply instance fails with one line naming the mount and the value.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
where=/run/atimectl-tests/quote
unit=$(systemd-escape -p --suffix=mount "$where")
svc=atimectl-apply@${unit%.mount}.service
# The failed apply instance is this test's to clear: later tests (and
# "systemctl --failed") must not see it.
cleanup() {
	systemctl stop "$unit" 2>/dev/null || true
	systemctl reset-failed "$svc" 2>/dev/null || true
	rm -f "/run/systemd/system/$unit"
	systemctl daemon-reload
}
trap cleanup EXIT
printf '[Mount]\nWhat=tmpfs\nWhere=%s\nType=tmpfs\nOptions=size=1m,x-relatime-interval="1h\n' "$where" \
	>"/run/systemd/system/$unit"
systemctl daemon-reload
note "Options=$(systemctl show -P Options "$unit")"
systemctl start "$unit" || { show_unit "$unit"; die "$unit did not start"; }
mountpoint -q "$where" || die "$where is not mounted"
note "utab: $(grep -F "$where" /run/mount/utab || echo none)"
note "$(systemctl show -p ExecMount -p Options "$unit")"
state=$(wait_state "$svc" failed active inactive)
if [ "$state" != failed ]; then
	show_unit "$svc"
	die "$svc is $state, want failed"
fi
expect_eq "override" "$(cat "$(override_file "$where")")" -1
lines=$(apply_log "$svc")
note "atimectl said: $lines"
expect_eq "lines from atimectl" "$(printf '%s\n' "$lines" | wc -l)" 1
case $lines in
*"$where"*'x-relatime-interval="1h'*) ;;
*) die "the message does not name $where and the value: $lines" ;;
esac
