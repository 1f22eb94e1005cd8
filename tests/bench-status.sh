#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Compare "atimectl status --all --json -F FILE" with
# "findmnt --kernel --list --json -F FILE" on a 10,000-entry mountinfo file
# and print the ratio of the medians.  The target is a ratio <= 1.5.
#
#   tests/bench-status.sh [ATIMECTL [COUNT]]
#
# Uses hyperfine when installed, else a loop timed with date +%s%N.
# $BENCH_SYSFS selects what atimectl sees as /sys/fs/relatime:
#   system (default)  the running kernel's directory, as users have it
#   none              no directory: a kernel without the patches
#   full              a fake directory with an entry for every superblock of
#                     the file: the worst case (three file reads each)
# $BENCH_RUNS sets the number of runs (default 30).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
atimectl=${1:-$here/../build/meson/tools/atimectl/atimectl}
count=${2:-10000}
runs=${BENCH_RUNS:-30}
mode=${BENCH_SYSFS:-system}

if [ ! -x "$atimectl" ]; then
	echo "bench-status.sh: $atimectl not found; build first (meson setup build/meson && ninja -C build/meson)" >&2
	exit 1
fi
command -v findmnt >/dev/null || { echo "bench-status.sh: findmnt missing" >&2; exit 1; }

work=$(mktemp -d /tmp/atimectl-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
file=$work/mountinfo

case $mode in
	system)
		python3 "$here/fixtures/gen-mountinfo.py" --count "$count" "$file"
		;;
	none)
		python3 "$here/fixtures/gen-mountinfo.py" --count "$count" "$file"
		export ATIMECTL_SYSFS_RELATIME="$work/none" ATIMECTL_PROC_SYS_FS="$work/none"
		;;
	full)
		python3 "$here/fixtures/gen-mountinfo.py" --count "$count" --sysfs "$work/sys" "$file"
		export ATIMECTL_SYSFS_RELATIME="$work/sys"
		;;
	*)
		echo "bench-status.sh: BENCH_SYSFS must be system, none or full" >&2
		exit 2
		;;
esac

findmnt_cmd=(findmnt --kernel --list --json -F "$file")
# no "env" in front: an extra exec would skew a 20 ms measurement
atimectl_cmd=("$atimectl" status --all --json -F "$file")

# sanity: both print every entry
n=$("${atimectl_cmd[@]}" 2>/dev/null | grep -c '"target":')
[ "$n" -eq "$count" ] || { echo "bench-status.sh: atimectl printed $n of $count entries" >&2; exit 1; }

median_loop() {
	local i start end
	for ((i = 0; i < runs; i++)); do
		start=$(date +%s%N)
		"$@" >/dev/null 2>&1
		end=$(date +%s%N)
		echo $(((end - start) / 1000))
	done | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/hf.json" \
		--command-name findmnt "${findmnt_cmd[*]}" \
		--command-name atimectl "${atimectl_cmd[*]}" >&2
	read -r f a < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(r[0]["median"] * 1e6, r[1]["median"] * 1e6)' "$work/hf.json")
	tool=hyperfine
else
	f=$(median_loop "${findmnt_cmd[@]}")
	a=$(median_loop "${atimectl_cmd[@]}")
	tool="shell loop"
fi

python3 - "$f" "$a" "$count" "$mode" "$tool" "$runs" <<'PY'
import sys
f, a = float(sys.argv[1]), float(sys.argv[2])
count, mode, tool, runs = sys.argv[3:7]
ratio = a / f
print(f"{count} mounts, sysfs={mode}, {tool}, {runs} runs: "
      f"findmnt median {f / 1000:.1f} ms, atimectl median {a / 1000:.1f} ms, "
      f"ratio {ratio:.2f} ({'ok' if ratio <= 1.5 else 'over'} the 1.5 target)")
PY
