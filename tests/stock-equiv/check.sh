#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host checks of the stock-equivalence data and of its comparison
# (tests/vm/equiv-diff, which t/stock-equiv.sh runs in the guest): a
# differing or missing case fails and is named with both results, a
# malformed table is refused; every committed table
# (tests/vm/data/stock-equiv-BASE.tsv) is well-formed, says which base and
# kernel it came from, and lists the same cases as the others.  Prints
# TAP-like lines and "N passed, N failed".
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
diffp=$top/tests/vm/equiv-diff
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; [ -z "${2:-}" ] || printf '%s\n' "$2" | sed 's/^/#   /'; }

# expect WHAT RC OUTPUT-PATTERN STOCK TABLE: equiv-diff exits RC and its
# output (stdout and stderr) matches the extended regular expression.
expect() {
	local what=$1 want=$2 pat=$3 out rc
	set +e
	out=$(bash "$diffp" "$4" "$5" 2>&1)
	rc=$?
	set -e
	if [ "$rc" != "$want" ]; then
		not_ok "$what" "exit status $rc, want $want; output: $out"
	elif ! grep -q -E -- "$pat" <<<"$out"; then
		not_ok "$what" "output does not match '$pat': $out"
	else
		ok "$what"
	fi
}

T=$'\t'
cat >"$tmp/stock" <<EOF2
# stock atime results: base 6.12, unpatched kernel 6.12.0-atime
# fs${T}state${T}path${T}result
ext4-relatime${T}old${T}splice-eof${T}updated
ext4-relatime${T}fresh${T}read${T}kept
tmpfs${T}old${T}direct${T}n/a: O_DIRECT open: Invalid argument
EOF2
grep -v '^#' "$tmp/stock" >"$tmp/same"
sed "s/splice-eof${T}updated/splice-eof${T}kept/" "$tmp/same" >"$tmp/differs"
grep -v 'fresh' "$tmp/same" >"$tmp/lacks"
{ cat "$tmp/same"; echo "xfs${T}old${T}read${T}kept"; } >"$tmp/extra"
{ cat "$tmp/same"; echo "xfs${T}old${T}read${T}maybe"; } >"$tmp/malformed"
{ cat "$tmp/same"; echo "ext4-relatime${T}fresh${T}read${T}updated"; } >"$tmp/twice"
: >"$tmp/empty"

expect "equiv-diff: the same results pass" 0 '^$' "$tmp/stock" "$tmp/same"
expect "equiv-diff: a differing result fails, named with both" 1 \
	'^ext4-relatime/old/splice-eof: stock updated, this kernel kept$' "$tmp/stock" "$tmp/differs"
expect "equiv-diff: a case the kernel's table lacks fails" 1 \
	'^ext4-relatime/fresh/read: stock kept, this kernel MISSING$' "$tmp/stock" "$tmp/lacks"
expect "equiv-diff: a case the stock table lacks fails" 1 \
	'^xfs/old/read: stock MISSING, this kernel kept$' "$tmp/stock" "$tmp/extra"
expect "equiv-diff: a malformed result is refused" 2 'malformed line' "$tmp/stock" "$tmp/malformed"
expect "equiv-diff: a case listed twice is refused" 2 'case listed twice' "$tmp/stock" "$tmp/twice"
expect "equiv-diff: an empty stock table is refused" 2 'has no case' "$tmp/empty" "$tmp/same"

# The committed tables.
. "$top/kernel/bases.sh"
first=
for b in $ATIMECTL_BASES; do
	f=$top/tests/vm/data/stock-equiv-$b.tsv
	if [ ! -f "$f" ]; then
		# Not recorded yet: the base's equiv suite skips, and so
		# does this check; both are counted as skipped.
		echo "ok - stock table for base $b is committed # SKIP not recorded yet (tests/stock-equiv/record.sh --base $b)"
		continue
	fi
	expect "${f#"$top"/} is well-formed" 0 '^$' "$f" "$f"
	if head -n 1 "$f" | grep -q -E "^# .*base $b, unpatched kernel $b\.[0-9]+"; then
		ok "${f#"$top"/} names its base and unpatched kernel"
	else
		not_ok "${f#"$top"/} names its base and unpatched kernel" "$(head -n 1 "$f")"
	fi
	grep -v '^#' "$f" | cut -f1-3 >"$tmp/cases-$b"
	if [ -z "$first" ]; then
		first=$b
	elif cmp -s "$tmp/cases-$first" "$tmp/cases-$b"; then
		ok "the $first and $b tables list the same cases"
	else
		not_ok "the $first and $b tables list the same cases" \
			"$(diff "$tmp/cases-$first" "$tmp/cases-$b" | head -n 20)"
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
