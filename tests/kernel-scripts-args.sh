#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Bad input to the kernel checks that scripts/test.sh does not run
# (kernel/check-bisect.sh, kernel/check-32bit.sh), to the kernel-doc
# check (kernel/check-kerneldoc.sh), to the recorder of
# the stock kernel's atime table (tests/stock-equiv/record.sh) and to the
# fstests comparison (tests/fstests/run.sh, scripts/build-image.sh
# --fstests): each is
# refused with exit status 2 and a message naming the program and what
# was wrong, and leaves no worktree, object directory, build, image,
# recorded table or fstests result behind.  Needs the tree
# kernel/build.sh prepared (build/linux-<base>), to know the series'
# length; builds nothing.  Prints TAP-like lines and "N passed, N failed".
#
#   tests/kernel-scripts-args.sh [--base 6.1|6.12|7.3]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
base=${ATIMECTL_BASE:-6.1}
case "${1:-}" in
--base) base=${2:-} ;;
"") ;;
*) echo "tests/kernel-scripts-args.sh: unknown argument '$1'" >&2; exit 2 ;;
esac
. "$top/kernel/bases.sh"
check_base tests/kernel-scripts-args.sh "$base"
src=$top/build/linux-$base
[ -d "$src/.git" ] || { echo "tests/kernel-scripts-args.sh: run kernel/build.sh --base $base first" >&2; exit 1; }
n=$(git -C "$src" rev-list --count pristine..atime)

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; [ -z "${2:-}" ] || echo "$2" | sed 's/^/#   /'; }

# What a refused call must not have made or changed.
state() {
	ls -d "$top"/build/bisect/* "$top"/build/obj-i386-* 2>/dev/null || true
	git -C "$src" worktree list
	git -C "$src" rev-parse atime pristine
	ls -d "$top/build/kernel/$base/bzImage-stock" "$top/build/obj-$base-stock" 2>/dev/null || true
	cat "$top"/tests/vm/data/stock-equiv-*.tsv 2>/dev/null | sha256sum
	ls -d "$top"/build/image-fstests-* "$top"/build/fstests "$top"/build/fstests/* 2>/dev/null || true
	{ cat "$top"/bench/fstests/*.tsv 2>/dev/null || true; } | sha256sum
	# (tests/fstests/run.sh's results under ATIMECTL_FSTESTS_DIR=$fdir)
	[ -z "${fdir:-}" ] || (cd "$fdir" && find . | LC_ALL=C sort && find . -type f -exec cat {} + | sha256sum)
}

# refused WANT PROGRAM ARGS...: PROGRAM exits 2, says WANT, changes nothing.
refused() {
	local want=$1 prog=$2 before after out rc
	shift 2
	before=$(state)
	set +e
	out=$(bash "$top/$prog" "$@" 2>&1 </dev/null)
	rc=$?
	set -e
	after=$(state)
	if [ $rc -ne 2 ]; then
		not_ok "$prog $* is refused" "exit status $rc, want 2; output: $out"
	elif ! grep -q -F -- "$prog: $want" <<<"$out"; then
		not_ok "$prog $* is refused" "output '$out' does not say '$prog: $want'"
	elif [ "$before" != "$after" ]; then
		not_ok "$prog $* is refused" "it changed the build directory"
	else
		ok "$prog $* is refused: $want"
	fi
}

cb=kernel/check-bisect.sh
refused "unknown base 'x'" $cb --base x
refused "--base needs a value" $cb --base
refused "unknown argument '--frm'" $cb --base "$base" --frm 2
refused "--from needs a patch number" $cb --base "$base" --from
refused "--from takes a patch number from 1, not '0'" $cb --base "$base" --from 0
refused "--from takes a patch number from 1, not '-1'" $cb --base "$base" --from -1
refused "--from takes a patch number from 1, not '2x'" $cb --base "$base" --from 2x
refused "--from takes a patch number from 1, not ''" $cb --base "$base" --from=
refused "--from takes a patch number from 1, not '0'" $cb --base "$base" --from 000
refused "--from $((n + 1)): the $base series has $n patches" $cb --base "$base" --from $((n + 1))
refused "unknown argument 'extra'" kernel/check-32bit.sh --base "$base" extra
refused "unknown base 'x'" kernel/check-32bit.sh --base x

kd=kernel/check-kerneldoc.sh
refused "unknown base 'x'" $kd --base x
refused "--base needs a value" $kd --base
refused "unknown argument 'extra'" $kd --base "$base" extra

rec=tests/stock-equiv/record.sh
refused "unknown base 'x'" $rec --base x
refused "unknown base '6.2'" $rec --base 6.2
refused "--base needs a value" $rec --base
refused "--base needs a value" $rec --base ""
refused "--base is required" $rec
refused "--base is required" $rec --no-build
refused "unknown argument '--bse'" $rec --bse "$base"
refused "unknown argument 'extra'" $rec --base "$base" extra
refused "--kernel needs a file" $rec --base "$base" --kernel
refused "--kernel: no file '$top/build/no-such-kernel'" $rec --base "$base" --kernel "$top/build/no-such-kernel"

# An fstests tree as far as tests/fstests/run.sh looks before it starts
# (a check script and a tests/ directory), and what it refuses.
fsrc=$(mktemp -d)
trap 'rm -rf "$fsrc"' EXIT
mkdir "$fsrc/tests"
printf '#!/bin/sh\n' >"$fsrc/check"
chmod +x "$fsrc/check"
fst=tests/fstests/run.sh
refused "--src is required" $fst --base "$base"
refused "--src is required" $fst
refused "--src needs a directory" $fst --base "$base" --src
refused "--src needs a directory" $fst --base "$base" --src ""
refused "--src: '$top/build/no-such-tree' is not an fstests tree" $fst --base "$base" --src "$top/build/no-such-tree"
refused "--src: '$top/tests' is not an fstests tree" $fst --base "$base" --src "$top/tests"
refused "--base is required" $fst --src "$fsrc"
refused "--base needs a value" $fst --src "$fsrc" --base
refused "unknown base 'x'" $fst --src "$fsrc" --base x
refused "--fs: unknown filesystem 'zfs' (ext4, xfs or btrfs)" $fst --src "$fsrc" --base "$base" --fs "ext4 zfs"
refused "--fs needs one or more of ext4, xfs, btrfs" $fst --src "$fsrc" --base "$base" --fs " "
refused "--fs needs one or more of ext4, xfs, btrfs" $fst --src "$fsrc" --base "$base" --fs
refused "--fs: 'xfs' named twice" $fst --src "$fsrc" --base "$base" --fs "xfs ext4 xfs"
refused "--kernel must be patched, stock or both, not 'unpatched'" $fst --src "$fsrc" --base "$base" --kernel unpatched
refused "--kernel must be patched, stock or both, not ''" $fst --src "$fsrc" --base "$base" --kernel ""
refused "--out: '$top/bench' is a directory" $fst --src "$fsrc" --base "$base" --out "$top/bench"
refused "--out: no directory '$top/build/no-such-dir'" $fst --src "$fsrc" --base "$base" --out "$top/build/no-such-dir/x.tsv"
refused "--out needs a file" $fst --src "$fsrc" --base "$base" --out
refused "--timeout takes seconds (a number from 1), not '0'" $fst --src "$fsrc" --base "$base" --timeout 0
refused "--timeout takes seconds (a number from 1), not '6h'" $fst --src "$fsrc" --base "$base" --timeout 6h
refused "--stall takes seconds (a number from 1), not '0'" $fst --src "$fsrc" --base "$base" --stall 0
refused "--stall takes seconds (a number from 1), not '20m'" $fst --src "$fsrc" --base "$base" --stall 20m
refused "--stall needs seconds" $fst --src "$fsrc" --base "$base" --stall
refused "--jobs takes a number of guests (from 1), not '0'" $fst --src "$fsrc" --base "$base" --jobs 0
refused "--jobs takes a number of guests (from 1), not 'two'" $fst --src "$fsrc" --base "$base" --jobs two
refused "--jobs needs a number" $fst --src "$fsrc" --base "$base" --jobs
refused "unknown argument '--bse'" $fst --src "$fsrc" --bse "$base"
refused "--tests needs fstests names, such as generic/591" $fst --src "$fsrc" --base "$base" --tests
refused "--tests needs fstests names, such as generic/591" $fst --src "$fsrc" --base "$base" --tests " , "
refused "--tests: 'generic/59x' is not an fstests name (such as generic/591)" $fst --src "$fsrc" --base "$base" --tests "generic/001 generic/59x"
refused "--tests: '../x/1' is not an fstests name (such as generic/591)" $fst --src "$fsrc" --base "$base" --tests ../x/1
refused "--tests: no test 'generic/591' in $fsrc/tests" $fst --src "$fsrc" --base "$base" --tests generic/591
refused "--iterate needs --tests" $fst --src "$fsrc" --base "$base" --iterate 3
mkdir -p "$fsrc/tests/generic"
: >"$fsrc/tests/generic/591"
refused "--iterate takes a number of rounds (from 1), not '0'" $fst --src "$fsrc" --base "$base" --tests generic/591 --iterate 0
refused "--iterate takes a number of rounds (from 1), not 'x'" $fst --src "$fsrc" --base "$base" --tests generic/591 --iterate x
refused "--iterate needs a number" $fst --src "$fsrc" --base "$base" --tests generic/591 --iterate
refused "--out: a rerun (--tests) writes no table" $fst --src "$fsrc" --base "$base" --tests generic/591 --out "$top/build/x.tsv"
refused "unknown argument 'ext4'" $fst --src "$fsrc" --base "$base" --fs xfs ext4

# --resume, and the earlier results it refuses to go on from: the guests'
# results of a test directory (ATIMECTL_FSTESTS_DIR), not build/fstests.
refused "--resume goes on with a run of the groups, not with a rerun (--tests)" $fst --src "$fsrc" --base "$base" --tests generic/591 --resume
fdir=$(mktemp -d)
trap 'rm -rf "$fsrc" "$fdir"' EXIT
release=$(base_release "$base")
earlier=$fdir/$base/patched-ext4.results
resume=("$fst" --src "$fsrc" --base "$base" --fs ext4 --kernel patched --resume)
ATIMECTL_FSTESTS_DIR=$fdir refused "--resume: no earlier run on base $base to go on with ($fdir/$base/KERNEL-FS.results)" "${resume[@]}"
mkdir "$fdir/$base"
: >"$fdir/$base/.lock"	# (as an earlier run leaves it)
# earlier_results COMMIT RELEASE SHA256 RESULT...: an earlier boot that
# selected generic/001, 002 and 003 and did not finish.
earlier_results() {
	printf '%s\n' "kernel x" "commit $1" "release $2" "fs ext4" \
		"selected generic/001" "selected generic/002" "selected generic/003"
	shift 2
	[ -z "$1" ] || echo "kernel-sha256 $1"
	shift
	printf 'result %s pass 1s\n' "$@"
	printf '%s\n' "complete no" "boots 1" "date 2026-12-06" "seconds 100"
}
earlier_results 0123abc "$release" "" generic/001 >"$earlier"
ATIMECTL_FSTESTS_DIR=$fdir refused "--resume: $earlier is of fstests 0123abc, not unknown" "${resume[@]}"
earlier_results unknown sid "" generic/001 >"$earlier"
ATIMECTL_FSTESTS_DIR=$fdir refused "--resume: $earlier was made on sid, not $release" "${resume[@]}"
earlier_results unknown "$release" "" generic/001 >"$earlier"
ATIMECTL_FSTESTS_DIR=$fdir refused "--resume: $earlier does not say which kernel it ran (no kernel-sha256 line)" "${resume[@]}"
earlier_results unknown "$release" 0000 generic/001 >"$earlier"
ATIMECTL_FSTESTS_DIR=$fdir refused "--resume: build/kernel/$base/bzImage is not the kernel $earlier ran" "${resume[@]}"
if [ -f "$top/build/kernel/$base/bzImage" ]; then
	sum=$(sha256sum <"$top/build/kernel/$base/bzImage" | cut -d' ' -f1)
	earlier_results unknown "$release" "$sum" generic/002 >"$earlier"
	ATIMECTL_FSTESTS_DIR=$fdir refused "--resume: the results in $earlier are not the first of its selected tests" "${resume[@]}"
	earlier_results unknown "$release" "$sum" generic/001 generic/003 >"$earlier"
	ATIMECTL_FSTESTS_DIR=$fdir refused "--resume: the results in $earlier are not the first of its selected tests" "${resume[@]}"
else
	echo "ok - # SKIP --resume with results out of order: no build/kernel/$base/bzImage"
fi

refused "--fstests needs the fstests source tree" scripts/build-image.sh --fstests
refused "--fstests: '$top/tests' is not an fstests tree" scripts/build-image.sh --release trixie --fstests "$top/tests"

out=$(bash "$top/$cb" --help)
if grep -q -- '--from N' <<<"$out"; then
	ok "$cb --help describes --from"
else
	not_ok "$cb --help describes --from" "$out"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
