#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/report.py names its results <date>-<kernel>: a second run of the
# same day and kernel gets -2 and leaves the first run's files as they
# were; rebuilding a run's report (same start time) rewrites its own files.
#
#   test-bench-report.sh REPORT_PY [PYTHON]
#
# PYTHON (default python3 on $PATH) runs the report and the checks: meson
# gives the one it runs on, not a wrapper such as a pyenv shim, which
# costs most of a second per start.
set -u
report=$1
python=${2:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
run() {	# run STARTED [QUICK]: a report of a run with no boots
	mkdir -p "$tmp/work"
	printf 'date=2026-12-04\nstarted=%s\nrelease=6.1.192-atime\nquick=%s\ncpu=%q\n' \
		"$1" "${2:-0}" "CPU of the run at $1" > "$tmp/work/meta.env"
	"$python" "$report" "$tmp/work" "$tmp/res" > "$tmp/stdout" 2> "$tmp/stderr"
}
started() { "$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["started"])' "$1"; }
stem=$tmp/res/2026-12-04-6.1.192-atime

check "first run: exit 0" run 2026-12-04T10:00:00Z
check "first run: <date>-<kernel>.json and .md" test -f "$stem.json" -a -f "$stem.md"
check "first run: its start time in the JSON" \
	test "$(started "$stem.json")" = 2026-12-04T10:00:00Z
cp "$stem.json" "$tmp/first.json"
cp "$stem.md" "$tmp/first.md"

check "second run of the day: exit 0" run 2026-12-04T22:00:00Z
check "second run of the day: -2" test -f "$stem-2.json" -a -f "$stem-2.md"
check "second run of the day: the first run's JSON unchanged" cmp -s "$stem.json" "$tmp/first.json"
check "second run of the day: the first run's table unchanged" cmp -s "$stem.md" "$tmp/first.md"
check "second run of the day: says where it wrote" grep -qF "$stem-2.json" "$tmp/stderr"

check "rebuilding the second run's report: exit 0" run 2026-12-04T22:00:00Z
check "rebuilding the second run's report: -2 again, no -3" \
	test -f "$stem-2.json" -a ! -e "$stem-3.json"
check "rebuilding the second run's report: the first run's JSON unchanged" \
	cmp -s "$stem.json" "$tmp/first.json"

check "third run: exit 0" run 2026-12-04T23:00:00Z
check "third run: -3 holds its start time" \
	test "$(started "$stem-3.json")" = 2026-12-04T23:00:00Z

# A result from before start times were recorded, and a rebuild of a
# report whose raw output has none: neither is taken for the other.
old_result_kept() {
	"$python" -c 'import json, sys
d = json.load(open(sys.argv[1]))
del d["started"]
json.dump(d, open(sys.argv[1], "w"))' "$stem.json" &&
		cp "$stem.json" "$tmp/old.json" &&
		printf 'date=2026-12-04\nrelease=6.1.192-atime\n' > "$tmp/work/meta.env" &&
		"$python" "$report" "$tmp/work" "$tmp/res" >/dev/null 2>&1 &&
		cmp -s "$stem.json" "$tmp/old.json" && test -f "$stem-4.json"
}
check "a result without a start time is kept; the report goes to -4" old_result_kept

check "quick run: exit 0" run 2026-12-04T23:30:00Z 1
check "quick run: <date>-<kernel>-quick" test -f "$stem-quick.json"

tap_end
