# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the host test scripts that print TAP themselves:
#   check DESCRIPTION COMMAND...   one "ok"/"not ok" line for COMMAND's
#                                  status; on failure, tap_diagnose (if
#                                  the script defines it) adds comments
#   tap_end                        the plan line, and exit 1 if any failed
n=0 fail=0
check() {
	local what=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		if declare -F tap_diagnose >/dev/null; then
			tap_diagnose
		fi
		fail=1
	fi
}
tap_end() {
	echo "1..$n"
	exit "$fail"
}
