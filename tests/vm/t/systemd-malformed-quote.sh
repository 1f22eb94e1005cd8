# An unbalanced quote, x-relatime-interval="1h, in an fstab line: mount(8)
# drops the option without a word (it never reaches utab), so
# atimectl-generator says it, one line per run (boot, daemon-reload),
# naming the mount point and the options; the mount stays, the override is
# unchanged.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
where=/run/atimectl-tests/quote
unit=$(systemd-escape -p --suffix=mount "$where")
cp /etc/fstab /run/atimectl-tests/fstab.orig
cleanup() {
	systemctl stop "$unit" 2>/dev/null || true
	cp /run/atimectl-tests/fstab.orig /etc/fstab
	systemctl daemon-reload
}
trap cleanup EXIT
mkdir -p "$where"
echo "tmpfs $where tmpfs size=1m,x-relatime-interval=\"1h,noauto 0 0" >>/etc/fstab
since=$(journal_mark)
systemctl daemon-reload
for ((i = 0; i < wait_polls; i++)); do
	lines=$(journal_since "$since" -t atimectl-generator)
	[ -n "$lines" ] && break
	sleep 0.1
done
note "atimectl-generator said: $lines"
expect_eq "lines from atimectl-generator" "$(printf '%s\n' "$lines" | grep -c .)" 1
case $lines in
*"$where"*'x-relatime-interval="1h'*) ;;
*) die "the message does not name $where and the value: $lines" ;;
esac
systemctl start "$unit" || { show_unit "$unit"; die "$unit did not start"; }
mountpoint -q "$where" || die "$where is not mounted"
note "utab: $(grep -F "$where" /run/mount/utab || echo none)"
apply_settled
expect_eq "override" "$(cat "$(override_file "$where")")" -1
