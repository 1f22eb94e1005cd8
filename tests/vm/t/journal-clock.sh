# A journal check sees what was logged after its mark, not what was logged
# while a test had the clock ahead.  deb-purge.sh once counted among the
# errors "since the purge" a console login's pam_env error from boot time,
# logged while clock-jump-quiet.sh had the clock eight days ahead:
# journalctl --since compares wall-clock times.  journal_mark and
# journal_since (lib.sh) go by the monotonic clock.
. /usr/lib/atimectl-tests/lib.sh
tag=atimectl-journal-clock-$$

# logged TEXT: wait until the journal holds TEXT under the tag.
logged() {
	local i
	for ((i = 0; i < wait_polls; i++)); do
		journalctl --no-pager -o cat -t "$tag" | grep -qxF "$1" && return 0
		sleep 0.1
	done
	die "the journal never got '$1'"
}

now=$(date +%s)
clock_set $((now + 86400))
logger -t "$tag" "logged a day ahead"
logged "logged a day ahead"
clock_set "$now"
since=$(date '+%Y-%m-%d %H:%M:%S')
mark=$(journal_mark)
logger -t "$tag" "logged after the mark"
logged "logged after the mark"

# What went wrong before: by wall-clock time, the entry from a day ahead
# is "since" now.  (If it were not, this test would prove nothing.)
journalctl --no-pager -o cat --since "$since" -t "$tag" | grep -qxF "logged a day ahead" ||
	die "journalctl --since did not show the entry logged a day ahead; the test's premise is gone"
expect_eq "journal_since the mark" "$(journal_since "$mark" -t "$tag")" "logged after the mark"
