# The image boots cleanly on the project's kernel: no failed units.
. /usr/lib/atimectl-tests/lib.sh
failed=$(systemctl list-units --state=failed --no-legend --plain | awk '{ print $1 }')
if [ -n "$failed" ]; then
	for u in $failed; do
		journalctl -b -u "$u" --no-pager | tail -n 15
	done
	die "failed units: $(echo $failed)"
fi
