# The same image and /etc/fstab on a kernel without the patches: the
# mounts are made as before, no unit fails, the generator gives no mount
# the kernel option (the kernel refuses it), and atimectl-apply.service
# writes one line per mount that declares an interval, saying it was not
# applied.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
[ ! -e /sys/fs/relatime ] || skip "this kernel has the patches (/sys/fs/relatime)"
for m in mail cache; do
	wait_mounted /srv/$m
	case " $(systemctl show -P DropInPaths srv-$m.mount) " in
	*50-atimectl-relatime-interval.conf*) die "srv-$m.mount has the generator's drop-in on a stock kernel" ;;
	esac
	case ,$(super_opts /srv/$m), in
	*relatime_interval*) die "/srv/$m: super options $(super_opts /srv/$m)" ;;
	esac
done
apply_settled
failed=$(systemctl list-units --state=failed --no-legend --plain | awk '{ print $1 }' | tr '\n' ' ')
[ -z "$failed" ] || die "failed units: $failed"
lines=$(journalctl -b --no-pager -o cat _SYSTEMD_UNIT=atimectl-apply.service)
note "atimectl-apply.service said: $lines"
for m in mail:10min cache:2h; do
	expect_eq "lines about /srv/${m%%:*}" "$(grep -c "^atimectl: /srv/${m%%:*}: " <<<"$lines")" 1
	grep -qxF "atimectl: /srv/${m%%:*}: x-relatime-interval=${m#*:} not applied: this kernel has no per-filesystem relatime interval" <<<"$lines" ||
		die "no 'not applied' line for /srv/${m%%:*}"
done
# A mount by hand with the option: one line, no failure.
t=/run/atimectl-tests/mnt-stock
mkdir -p "$t"
since=$(journal_mark)
mount -t tmpfs -o size=1m,x-relatime-interval=1h tmpfs "$t"
expect_eq "mount by hand: the report" "$(apply_lines "$since" "$t")" \
	"atimectl: $t: x-relatime-interval=1h not applied: this kernel has no per-filesystem relatime interval"
apply_settled
expect_apply_following "after the mount by hand"
umount "$t"
