#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two bench/run.sh at once in one tree would share build/bench (raw
# output, meta.env) and mix two runs into one report, as happened on
# 2026-12-05 (a 6.12 report with 6.1's kernel names).  The second one must
# refuse before it touches build/bench.  Run on a copy of the tree with a
# stub apt-get, hyperfine and scripts/, so that a run the lock fails to stop
# builds and boots nothing.
#
#   test-bench-lock.sh SOURCE_ROOT
set -u
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

tree=$tmp/tree
mkdir -p "$tree/bench" "$tree/kernel" "$tree/scripts" "$tree/build/bench" "$tmp/bin"
cp "$src/bench/run.sh" "$tree/bench/"
cp "$src/kernel/bases.sh" "$tree/kernel/"
for c in apt-get hyperfine qemu-system-x86_64; do
	printf '#!/bin/sh\nexit 1\n' > "$tmp/bin/$c"
	chmod +x "$tmp/bin/$c"
done
echo 'raw output of the run holding the lock' > "$tree/build/bench/cost-patched.out"

# This shell holds the lock as a first run would (run.sh opens the file
# anew, so the fd it inherits does not count as its own).
exec 9>"$tree/build/bench/.lock"
flock -n 9 || { echo "Bail out! cannot take the lock"; exit 1; }

PATH=$tmp/bin:$PATH timeout 20 bash "$tree/bench/run.sh" --quick --skip-build \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
check "a second run exits 1 (got $rc)" test "$rc" = 1
check "it says why" grep -q 'another bench/run.sh is running' "$tmp/err"
check "the first run's raw output is untouched" \
	grep -qx 'raw output of the run holding the lock' "$tree/build/bench/cost-patched.out"

exec 9>&-
tap_end
