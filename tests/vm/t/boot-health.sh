# The image boots cleanly on the project's kernel: no failed units.
. /usr/lib/atimectl-tests/lib.sh
failed=$(systemctl list-units --state=failed --no-legend --plain | awk '{ print $1 }')
if [ -n "$failed" ]; then
	for u in $failed; do
		journalctl -b -u "$u" --no-pager | tail -n 15
	done
	die "failed units: $(echo $failed)"
fi

# The image boots as an installed system, not a first boot, and with
# nothing left for ConditionNeedsUpdate= (mkosi.finalize): otherwise every
# guest applies all unit presets and compiles the hardware database again
# before udev starts, tens of seconds under TCG (docs/testing.md).
[ ! -e /run/systemd/first-boot ] ||
	die "systemd took this boot for a first boot (/etc/machine-id: $(cat /etc/machine-id)); the image's mkosi.finalize gives it a machine ID"
for u in systemd-hwdb-update.service systemd-update-done.service; do
	checked=$(systemctl show -P ConditionTimestampMonotonic "$u")
	[ "${checked:-0}" != 0 ] || die "$u: its conditions were never checked in this boot"
	expect_eq "$u: ConditionNeedsUpdate= (mkosi.finalize's /etc/.updated)" \
		"$(systemctl show -P ConditionResult "$u")" no
done
