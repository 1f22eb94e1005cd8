#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-fuzzer.sh's own checks, with stand-in fuzzers (no clang needed): bad
# arguments are refused, and a run passes only when the fuzzer exits 0
# having executed at least the runs asked for.
#
#   test-run-fuzzer.sh RUN_FUZZER_SH
set -u
rf=${1:?usage: test-run-fuzzer.sh RUN_FUZZER_SH}
T=$(mktemp -d /tmp/atimectl-run-fuzzer-XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir "$T/seeds"
n=0 fail=0
check() {	# check DESCRIPTION WANT_STATUS ARGS...: run run-fuzzer.sh ARGS
	local what=$1 want=$2 rc=0
	shift 2
	n=$((n + 1))
	bash "$rf" "$@" >"$T/out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ]; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what: exit status $rc, want $want"
		sed 's/^/#   /' "$T/out"
		fail=1
	fi
}
fake() {	# fake NAME STATUS UNITS: a fuzzer that reports UNITS and exits STATUS
	printf '#!/bin/sh\necho "stat::number_of_executed_units: %s"\nexit %s\n' "$3" "$2" >"$T/$1"
	chmod +x "$T/$1"
}
fake good 0 1000
fake crash 77 3
fake sanitizer 1 3
fake short 0 999
fake silent 0 ''

check "a run of the runs asked for passes" 0 "$T/good" "$T/seeds" 1000
check "a crash reported with 77 (meson's skip) fails" 1 "$T/crash" "$T/seeds" 1000
check "a sanitizer report (exit 1) fails" 1 "$T/sanitizer" "$T/seeds" 1000
check "a run cut short with exit 0 fails" 1 "$T/short" "$T/seeds" 1000
check "a run that reports no count fails" 1 "$T/silent" "$T/seeds" 1000
check "RUNS not a number is refused" 2 "$T/good" "$T/seeds" 1e3
check "RUNS empty is refused" 2 "$T/good" "$T/seeds" ''
check "a missing seed directory is refused" 2 "$T/good" "$T/nonexistent" 1000
check "a fuzzer that is not executable is refused" 2 "$T/seeds/none" "$T/seeds" 1000
echo "1..$n"
exit $fail
