# The atime:atime_decision tracepoint reports each decision of the
# relatime and strictatime rules with its reason, device, inode and
# interval; noatime accesses never reach it; and its "young" events are
# exactly what relatime_skips counts.
. /usr/lib/atimectl-tests/lib.sh
tr=/sys/kernel/tracing
mountpoint -q "$tr" || mount -t tracefs tracefs "$tr"
ev=$tr/events/atime/atime_decision
[ -d "$ev" ] || die "no $ev (CONFIG_FTRACE, CONFIG_ENABLE_DEFAULT_TRACERS)"

mnt=$(mount_scratch scratch1)
mm=$(findmnt -n -o MAJ:MIN "$mnt" | tr -d ' ')
dev=$(( ${mm%%:*} << 20 | ${mm##*:} ))
d=$(relatime_dir "$mnt")
echo 3600 >"$d/relatime_interval"
fresh_file "$mnt/f"
ino=$(stat -c %i "$mnt/f")

stop_trace() {
	echo 0 >"$ev/enable"
	echo 0 >"$ev/filter"
	echo >"$tr/trace"
	cleanup_mounts
}
trap stop_trace EXIT
# Only this filesystem's events: systemd and the shell read elsewhere.
echo "dev == $dev" >"$ev/filter"
echo >"$tr/trace"
echo 1 >"$ev/enable"

# events: the events traced so far, "ino MODE interval I: RESULT (REASON)".
events() {
	sed -n 's/.*atime_decision: dev [0-9:]* ino \([0-9]*\) \(.*\)$/\1 \2/p' "$tr/trace"
}
# expect_last WHAT WANT: the newest event is WANT.
expect_last() {
	expect_eq "$1" "$(events | tail -n 1)" "$2"
}

read -r s0 u0 < <(counters "$mnt")
t0=$(atime "$mnt/f")
read_once "$mnt/f"
expect_last "read inside the interval" "$ino relatime interval 3600: skip (young)"
# Steps apart by more than a tick of the coarse clock, so that each
# change is strictly newer than the atime before it.
sleep 0.05
echo more >>"$mnt/f"
read_once "$mnt/f"
expect_last "read after a write" "$ino relatime interval 3600: update (mtime)"
sleep 0.05
chmod 600 "$mnt/f"
read_once "$mnt/f"
expect_last "read after a chmod" "$ino relatime interval 3600: update (ctime)"
clock_set $(( $(atime "$mnt/f") + 3700 ))
read_once "$mnt/f"
expect_last "read past the override" "$ino relatime interval 3600: update (age)"
# Without the override the global interval is the one reported.
echo -1 >"$d/relatime_interval"
read_once "$mnt/f"
expect_last "read under the global interval" "$ino relatime interval 86400: skip (young)"

# noatime: no decision at all; strictatime: every access, and the second
# read in the same clock tick finds the atime current.
n=$(events | wc -l)
mount -o remount,noatime "$mnt"
read_once "$mnt/f"
expect_eq "events of a noatime read" "$(events | wc -l)" "$n"
mount -o remount,strictatime "$mnt"
sleep 0.05
read_once "$mnt/f"
expect_last "strictatime read" "$ino strictatime interval -1: update (strictatime)"
mount -o remount,relatime "$mnt"

# The relatime skips counted on this filesystem are the "young" events:
# a burst of reads and listings, each one decision.
for i in $(seq 20); do read_once "$mnt/f"; ls "$mnt" >/dev/null; done
read -r s1 u1 < <(counters "$mnt")
young=$(events | grep -c ': skip (young)$' || true)
updates=$(events | grep -c ': update (' || true)
expect_eq "relatime_skips against young events" "$((s1 - s0))" "$young"
[ "$young" -ge 40 ] || die "only $young young events for 40 accesses"
# Each update event changed the stored atime here (ext4 applies them).
expect_eq "atime_updates against update events" "$((u1 - u0))" "$updates"
[ "$t0" -lt "$(atime "$mnt/f")" ] || die "atime did not move"
