# Helpers for the systemd-*.sh tests (not a test itself; sourced after
# lib.sh).

# wait_state UNIT STATE...: wait up to 60s (wait_polls) until UNIT's
# ActiveState is one of STATEs; prints the state it ended in.
wait_state() {
	local unit=$1 s i want
	shift
	for ((i = 0; i < wait_polls; i++)); do
		s=$(systemctl show -P ActiveState "$unit")
		for want in "$@"; do
			if [ "$s" = "$want" ]; then
				echo "$s"
				return 0
			fi
		done
		sleep 0.1
	done
	echo "$s"
}

# wait_file FILE WANT: wait up to 60s (wait_polls) until FILE holds WANT;
# prints what it holds in the end ("(missing)" if it does not exist).
wait_file() {
	local v i
	for ((i = 0; i < wait_polls; i++)); do
		v=$(cat "$1" 2>/dev/null || echo "(missing)")
		[ "$v" = "$2" ] && break
		sleep 0.1
	done
	echo "$v"
}

# wait_mounted DIR: an fstab mount of a disk is made when its device
# appears, which the boot does not wait for.  Wait for that event itself:
# starting the mount unit waits for its device (systemd's device timeout
# bounds it) and returns once it is mounted.
wait_mounted() {
	local unit
	mountpoint -q "$1" && return 0
	unit=$(systemd-escape -p --suffix=mount "$1")
	systemctl start "$unit" 2>/dev/null || true
	mountpoint -q "$1" && return 0
	show_unit "$unit"
	die "$1 is not mounted ($unit: $(systemctl show -P ActiveState "$unit"))"
}

override_file() { echo "/sys/fs/relatime/$(majmin "$1")/relatime_interval"; }

# expect_interval WHAT DIR SECONDS: the filesystem on DIR gets the override
# SECONDS (waiting for atimectl-apply.service where the option is applied
# after the mount), and a read obeys it.
# The test must have set fs.relatime_interval to 60 (sysctl_set), so that
# a read a minute short of SECONDS after the last update only keeps atime
# because of the override.
expect_interval() {
	local what=$1 dir=$2 want=$3 f t
	expect_eq "$what: fs.relatime_interval (set by the test)" "$(cat /proc/sys/fs/relatime_interval)" 60
	expect_eq "$what: override" "$(wait_file "$(override_file "$dir")" "$want")" "$want"
	f=$dir/.atimectl-test-read
	fresh_file "$f"
	t=$(atime "$f")
	expect_read "$what: a read $((want - 60))s after the last update" "$f" $((t + want - 60)) keeps
	expect_read "$what: a read $((want + 60))s after the last update" "$f" $((t + want + 60)) updates
	rm -f "$f"
}

# expect_no_override WHAT DIR: no override, and the 60s global rules reads.
expect_no_override() {
	local what=$1 dir=$2 f t
	expect_eq "$what: override" "$(cat "$(override_file "$dir")")" -1
	f=$dir/.atimectl-test-read
	fresh_file "$f"
	t=$(atime "$f")
	expect_read "$what: a read 120s after the last update" "$f" $((t + 120)) updates
	rm -f "$f"
}

# apply_lines MARK [PATTERN]: what atimectl-apply.service wrote since
# MARK (journal_mark), once a line matches PATTERN (a grep -E pattern;
# default: any line), or after 60s (wait_polls).
apply_lines() {
	local since=$1 pat=${2:-.} lines i
	for ((i = 0; i < wait_polls; i++)); do
		lines=$(journal_since "$since" _SYSTEMD_UNIT=atimectl-apply.service)
		grep -q -E -- "$pat" <<<"$lines" && break
		sleep 0.1
	done
	printf '%s\n' "$lines"
}

# apply_settled: wait (up to 60s) until atimectl-apply.service has taken
# every change of utab: no job, and either not running or, as it follows
# utab, no pass in progress (a pass holds the lock of its state file) and
# the last one saved no earlier than utab last changed.  utab's change
# time is its rename into place (libmount writes a new file and renames
# it), not the earlier write its mtime tells; two in one clock tick of a
# coarse-grained filesystem count as settled.
apply_settled() {
	local i f=/run/atimectl/applied
	for ((i = 0; i < wait_polls; i++)); do
		if [ -z "$(systemctl list-jobs --no-legend atimectl-apply.service 2>/dev/null)" ]; then
			case $(systemctl show -P ActiveState atimectl-apply.service) in
			inactive | failed) return 0 ;;
			active)
				[ -e "$f" ] && flock -n "$f" true &&
					[ "$(stat -c %.9Y "$f" | tr -d .)" -ge "$(stat -c %.9Z /run/mount/utab | tr -d .)" ] &&
					return 0
				;;
			esac
		fi
		sleep 0.1
	done
	die "atimectl-apply.service still busy after $((wait_polls / 10))s"
}

# expect_apply_following WHAT: atimectl-apply.service runs, following
# utab, and has not failed.
expect_apply_following() {
	local state result
	state=$(systemctl show -P ActiveState atimectl-apply.service)
	result=$(systemctl show -P Result atimectl-apply.service)
	if [ "$state $result" != "active success" ]; then
		show_unit atimectl-apply.service
		die "$1: atimectl-apply.service is $state ($result), not active, following utab"
	fi
}

# super_opts DIR: the super options of the mount on DIR, from mountinfo.
super_opts() { findmnt -n -o FS-OPTIONS --mountpoint "$1" | tail -n 1; }

# show_unit UNIT: its status and log, for a failing test's output.
show_unit() {
	systemctl status --no-pager --full "$1" 2>&1 | head -n 20 || true
	journalctl -b --no-pager -u "$1" 2>&1 | tail -n 20 || true
}
