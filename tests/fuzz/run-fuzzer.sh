#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-fuzzer.sh FUZZER SEED_DIR RUNS
#
# Run a libFuzzer binary for RUNS executions, starting from the seed corpus;
# new inputs go to a temporary directory so the source tree stays clean.
# Fails when the fuzzer fails (a crash, a sanitizer report, a leak: its
# exit status, whatever it is, is not passed on, since meson would take 77
# for a skip) and when it executed fewer than RUNS inputs: -max_total_time
# (a bound for a hung target, below meson's timeout) ends a run early with
# exit status 0.
set -eu
fuzzer=$1 seeds=$2 runs=$3
case $runs in
'' | *[!0-9]*) echo "run-fuzzer.sh: RUNS must be a number, not '$runs'" >&2; exit 2 ;;
esac
[ -x "$fuzzer" ] || { echo "run-fuzzer.sh: $fuzzer is not an executable" >&2; exit 2; }
[ -d "$seeds" ] || { echo "run-fuzzer.sh: no seed directory $seeds" >&2; exit 2; }
work=$(mktemp -d /tmp/atimectl-fuzz-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
rc=0
"$fuzzer" -runs="$runs" -max_total_time=240 -print_final_stats=1 \
	"$work/corpus" "$seeds" >"$work/log" 2>&1 || rc=$?
grep -E '^(Done|stat::number_of_executed_units|INFO: seed corpus|==[0-9]+==|SUMMARY|.*ERROR)' "$work/log" || true
if [ "$rc" -ne 0 ]; then
	tail -n 40 "$work/log"
	echo "FAIL: $fuzzer exited with status $rc" >&2
	exit 1
fi
units=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\)$/\1/p' "$work/log")
if [ -z "$units" ]; then
	tail -n 20 "$work/log"
	echo "FAIL: $fuzzer printed no stat::number_of_executed_units" >&2
	exit 1
fi
if [ "$units" -lt "$runs" ]; then
	echo "FAIL: $fuzzer executed $units inputs, $runs were asked for" >&2
	exit 1
fi
echo "$units inputs executed ($runs asked for)"
