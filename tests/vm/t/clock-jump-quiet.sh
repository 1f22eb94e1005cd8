# A test that moves the clock starts nothing: while a suite runs, no
# timer fires however far the wall clock jumps.  Tests move it by hours
# and days (clock_set); a calendar timer the jump crossed would start its
# job in the middle of a test.  Seen on a Saturday: trixie's
# xfs_scrub_all.timer (Sundays 03:10) scrubbed counters-paths.sh's
# scratch XFS from its service's own mount namespace, which kept the
# filesystem alive after the test unmounted it, and the next mkfs found
# the disk busy.
. /usr/lib/atimectl-tests/lib.sh

# last_triggers: "UNIT LAST-TRIGGER" for every timer unit systemd has loaded.
last_triggers() {
	local u
	for u in $(systemctl list-units --all --type=timer --plain --no-legend | awk '{ print $1 }'); do
		echo "$u $(systemctl show -P LastTriggerUSecMonotonic "$u")"
	done
}

before=$(last_triggers)
[ -n "$before" ] || die "systemd lists no timer units at all"
note "timer units: $(echo "$before" | awk '{ print $1 }' | tr '\n' ' ')"
# Eight days and an hour ahead crosses every daily and weekly calendar
# time once, wherever in the week the run starts.
clock_set $(( $(date +%s) + 8 * 86400 + 3600 ))
# systemd notices the jump through its timerfd (TFD_TIMER_CANCEL_ON_SET)
# at once; give a job it would start time to show.
sleep 3
after=$(last_triggers)
if [ "$before" != "$after" ]; then
	diff <(echo "$before") <(echo "$after") | sed -n 's/^> /# fired: /p'
	die "a timer fired when the clock jumped"
fi
