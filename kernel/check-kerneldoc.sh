#!/usr/bin/env bash
# Check that the series adds no kernel-doc warning: every C file and header
# a patch of the base's series touches is run through the base's own
# scripts/kernel-doc twice, as the pristine tree has it and as the series
# leaves it, and a warning only the patched file has fails.  (Warnings
# already in the pristine file are upstream's, and the line numbers are
# left out of the comparison, since the series moves code.)  Prints one
# "ok -"/"not ok -" line per file.
#
#   kernel/check-kerneldoc.sh [--base 6.1|6.12|7.3]
#
# Uses the tree kernel/build.sh prepared (build/linux-<base>, its "pristine"
# tag and the series applied on top).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
prog=kernel/check-kerneldoc.sh
base=${ATIMECTL_BASE:-6.1}
usage() { echo "$prog: $1 (usage: $prog [--base BASE])" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--base) [ $# -ge 2 ] || usage "--base needs a value"; base=$2; shift ;;
	--base=*) base=${1#--base=} ;;
	-h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown argument '$1'" ;;
	esac
	shift
done
. "$top/kernel/bases.sh"
check_base "$prog" "$base"
src=$top/build/linux-$base
git -C "$src" rev-parse -q --verify pristine >/dev/null 2>&1 ||
	{ echo "$prog: $src has no pristine tag: run kernel/build.sh --base $base first" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# kdoc FILE NAME: the kernel-doc warnings of FILE, shown as NAME, without
# line numbers.  -Wall exists from 6.2 on; 6.1's kernel-doc warns about as
# much without it.  The Perl kernel-doc (6.1, 6.12) prints "FILE:LINE:
# warning: ...", the Python one (7.x) "Warning: FILE:LINE ...".
kdoc() {
	local flags=(-none)
	"$src/scripts/kernel-doc" -Wall -none /dev/null >/dev/null 2>&1 && flags=(-Wall -none)
	PATH=/usr/bin:$PATH "$src/scripts/kernel-doc" "${flags[@]}" "$1" 2>&1 |
		sed -E -e "s|$1(:[0-9]+)?:? |$2: |" | sort -u
}

bad=0
files=$(git -C "$src" diff --name-only --diff-filter=AM pristine HEAD -- '*.c' '*.h')
[ -n "$files" ] || { echo "not ok - kernel-doc: the $base series touches no C file (is it applied?)"; exit 1; }
for f in $files; do
	mkdir -p "$tmp/old/$(dirname "$f")" "$tmp/new/$(dirname "$f")"
	if git -C "$src" cat-file -e "pristine:$f" 2>/dev/null; then
		git -C "$src" show "pristine:$f" >"$tmp/old/$f"
	else
		: >"$tmp/old/$f"
	fi
	git -C "$src" show "HEAD:$f" >"$tmp/new/$f"
	kdoc "$tmp/old/$f" "$f" >"$tmp/old.txt"
	kdoc "$tmp/new/$f" "$f" >"$tmp/new.txt"
	new=$(comm -13 "$tmp/old.txt" "$tmp/new.txt")
	if [ -n "$new" ]; then
		echo "not ok - kernel-doc: the $base series adds warnings to $f"
		printf '%s\n' "$new" | sed 's/^/#   /'
		bad=1
	else
		echo "ok - kernel-doc: no new warning in $f ($base)"
	fi
done
exit $bad
