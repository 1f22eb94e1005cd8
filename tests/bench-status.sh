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
# $BENCH_ROOT=DIR runs both commands in DIR with chroot(8): another
# release's findmnt against the atimectl built for it (bench/run.sh
# extracts each base's image there); ATIMECTL is then a path inside DIR.
# chroot's exec costs both commands the same.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=${BENCH_ROOT:-}
count=${2:-10000}
runs=${BENCH_RUNS:-30}
mode=${BENCH_SYSFS:-system}

if [ -n "$root" ]; then
	atimectl=${1:-/usr/bin/atimectl}
	[ -x "$root/$atimectl" ] || { echo "bench-status.sh: $atimectl not found in $root" >&2; exit 1; }
	[ -x "$root/usr/bin/findmnt" ] || { echo "bench-status.sh: findmnt missing in $root" >&2; exit 1; }
	in_root=(chroot "$root")
	# The files are made on the host side of the tree and named from
	# inside it.
	work=$(mktemp -d "$root/tmp/atimectl-bench-XXXXXX")
	inner=${work#"$root"}
else
	atimectl=${1:-$here/../build/meson/tools/atimectl/atimectl}
	if [ ! -x "$atimectl" ]; then
		echo "bench-status.sh: $atimectl not found; build first (meson setup build/meson && ninja -C build/meson)" >&2
		exit 1
	fi
	command -v findmnt >/dev/null || { echo "bench-status.sh: findmnt missing" >&2; exit 1; }
	in_root=()
	work=$(mktemp -d /tmp/atimectl-bench-XXXXXX)
	inner=$work
fi
trap 'rm -rf "$work"' EXIT
file=$work/mountinfo

case $mode in
	system)
		python3 "$here/fixtures/gen-mountinfo.py" --count "$count" "$file"
		;;
	none)
		python3 "$here/fixtures/gen-mountinfo.py" --count "$count" "$file"
		export ATIMECTL_SYSFS_RELATIME="$inner/none" ATIMECTL_PROC_SYS_FS="$inner/none"
		;;
	full)
		python3 "$here/fixtures/gen-mountinfo.py" --count "$count" --sysfs "$work/sys" "$file"
		export ATIMECTL_SYSFS_RELATIME="$inner/sys"
		;;
	*)
		echo "bench-status.sh: BENCH_SYSFS must be system, none or full" >&2
		exit 2
		;;
esac

findmnt_cmd=("${in_root[@]}" findmnt --kernel --list --json -F "$inner/mountinfo")
# no "env" in front: an extra exec would skew a 20 ms measurement
atimectl_cmd=("${in_root[@]}" "$atimectl" status --all --json -F "$inner/mountinfo")

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
