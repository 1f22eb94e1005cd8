#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-fuzzer.sh FUZZER SEED_DIR RUNS
#
# Run a libFuzzer binary for RUNS executions, starting from the seed corpus;
# new inputs go to a temporary directory so the source tree stays clean.
set -eu
fuzzer=$1 seeds=$2 runs=$3
work=$(mktemp -d /tmp/atimectl-fuzz-XXXXXX)
trap 'rm -rf "$work"' EXIT
"$fuzzer" -runs="$runs" -max_total_time=120 -print_final_stats=1 "$work" "$seeds" 2>&1 |
	grep -E '^(Done|stat::number_of_executed_units|INFO: seed corpus|==[0-9]+==|SUMMARY|.*ERROR)' || true
exit "${PIPESTATUS[0]}"
