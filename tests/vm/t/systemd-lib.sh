# Helpers for the systemd-*.sh tests (not a test itself; sourced after
# lib.sh).

# wait_state UNIT STATE...: wait up to 60s until UNIT's ActiveState is one
# of STATEs; prints the state it ended in.
wait_state() {
	local unit=$1 s i want
	shift
	for ((i = 0; i < 600; i++)); do
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

# wait_file FILE WANT: wait up to 30s until FILE holds WANT; prints what it
# holds in the end ("(missing)" if it does not exist).
wait_file() {
	local v i
	for ((i = 0; i < 300; i++)); do
		v=$(cat "$1" 2>/dev/null || echo "(missing)")
		[ "$v" = "$2" ] && break
		sleep 0.1
	done
	echo "$v"
}

# wait_mounted DIR: a nofail fstab mount may still be on its way when the
# runner starts (multi-user.target does not wait for it).
wait_mounted() {
	local i
	for ((i = 0; i < 300; i++)); do
		mountpoint -q "$1" && return 0
		sleep 0.1
	done
	die "$1 is not mounted ($(systemctl show -P ActiveState "$(systemd-escape -p --suffix=mount "$1")"))"
}

# wait_gone PATH: wait up to 10s until PATH does not exist; fails if it stays.
wait_gone() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ -e "$1" ] || return 0
		sleep 0.1
	done
	return 1
}

override_file() { echo "/sys/fs/relatime/$(majmin "$1")/relatime_interval"; }

# show_unit UNIT: its status and log, for a failing test's output.
show_unit() {
	systemctl status --no-pager --full "$1" 2>&1 | head -n 20 || true
	journalctl -b --no-pager -u "$1" 2>&1 | tail -n 20 || true
}
