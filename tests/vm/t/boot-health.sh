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
# Checked by what the update units leave behind, not by their condition
# results (on Debian 12, "systemctl show" gave systemd-hwdb-update.service
# no condition check in a boot where it did not run):
# systemd-hwdb-update.service writes /etc/udev/hwdb.bin, and
# systemd-update-done.service rewrites the stamps.
[ -f /usr/lib/udev/hwdb.bin ] ||
	die "no hardware database in /usr/lib/udev (mkosi.finalize compiles it there)"
[ ! -e /etc/udev/hwdb.bin ] ||
	die "a hardware database was compiled at boot, into /etc/udev/hwdb.bin"
for d in /etc /var; do
	grep -q 'mkosi.finalize' "$d/.updated" 2>/dev/null ||
		die "$d/.updated is not the image's (systemd-update-done rewrote it, or it is missing): $(cat "$d/.updated" 2>&1)"
done
