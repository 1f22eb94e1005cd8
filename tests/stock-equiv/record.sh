#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Record what the unpatched kernel does: build it (kernel/build.sh --stock:
# the same base and guest configuration as the patched kernel, no
# patches), build the base's image, boot the "equiv" suite on it with
# atimetest.equiv=record, and write the table t/stock-equiv.sh prints to
# tests/vm/data/stock-equiv-BASE.tsv, which the patched kernel's run of
# the suite must then match.  See tests/stock-equiv/README.md.
#
#   tests/stock-equiv/record.sh --base 6.1|6.12|7.3 [--kernel FILE] [--no-build]
#
#   --base B       the kernel base (required)
#   --kernel FILE  boot FILE, an unpatched kernel of base B, instead of
#                  building build/kernel/B/bzImage-stock
#   --no-build     build neither the kernel nor the image: boot what is
#                  there (build/kernel/B/bzImage-stock or --kernel, and
#                  build/image-RELEASE/image.cpio)
#
# The image must hold the tests/vm this tree has (the image build copies
# them in); the guest refuses to record on a kernel that has the
# patches' sysctls.  Exit status 2 for bad arguments, 1 when something
# failed; the data file is written only when the suite passed.
set -euo pipefail

prog=tests/stock-equiv/record.sh
top=$(cd "$(dirname "$0")/../.." && pwd)
usage() { echo "$prog: $*" >&2; echo "usage: $prog --base 6.1|6.12|7.3 [--kernel FILE] [--no-build]" >&2; exit 2; }
die() { echo "$prog: $*" >&2; exit 1; }

base=
kernel=
build=1
while [ $# -gt 0 ]; do
	case $1 in
	--base)
		[ $# -ge 2 ] && [ -n "$2" ] || usage "--base needs a value"
		base=$2; shift ;;
	--kernel)
		[ $# -ge 2 ] && [ -n "$2" ] || usage "--kernel needs a file"
		kernel=$2; shift ;;
	--no-build) build=0 ;;
	-h|--help) sed -n '4,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown argument '$1'" ;;
	esac
	shift
done
[ -n "$base" ] || usage "--base is required"
. "$top/kernel/bases.sh"
check_base "$prog" "$base"
if [ -n "$kernel" ]; then
	[ -f "$kernel" ] || usage "--kernel: no file '$kernel'"
	kernel=$(cd "$(dirname "$kernel")" && pwd)/$(basename "$kernel")
fi

cd "$top"
release=$(base_release "$base")
if [ -z "$kernel" ]; then
	kernel=build/kernel/$base/bzImage-stock
	if [ "$build" = 1 ]; then
		bash kernel/build.sh --base "$base" --stock
	fi
	[ -f "$kernel" ] || die "no stock kernel at $kernel (run kernel/build.sh --base $base --stock)"
fi
if [ "$build" = 1 ]; then
	bash scripts/build-image.sh --release "$release"
fi

kver=$(cat "$kernel.release" 2>/dev/null || file -b "$kernel" | sed -n 's/.*version \([^ ]*\).*/\1/p')
mkdir -p "build/vm/$base"
results=build/vm/$base/results-equiv-stock.tap
console=build/vm/$base/console-equiv-stock.log
echo "[record] booting the equiv suite on $kernel ($kver), image $release" >&2
bash scripts/vm.sh --base "$base" --release "$release" --kernel "$kernel" \
	--suite equiv --results "$results" --console "$console" -- atimetest.equiv=record ||
	die "the guest did not complete; see $console"
tr -d '\r' <"$results" >"$results.txt"
grep -q '^ok [0-9]* stock-equiv.sh$' "$results.txt" || {
	grep -A40 'stock-equiv.sh' "$results.txt" >&2 || cat "$results.txt" >&2
	die "t/stock-equiv.sh did not pass on $kernel; nothing recorded"
}
table=$(sed -n 's/^#   # equiv: //p' "$results.txt")
[ -n "$table" ] || die "the results in $results hold no table"
bad=$(awk -F'\t' 'NF != 4 || ($4 != "updated" && $4 != "kept" && $4 !~ /^n\/a: /)' <<<"$table")
[ -z "$bad" ] || die "malformed lines in the table: $bad"
guest_release=$(sed -n 's/^#   # .*kernel \([^ )]*\)).*/\1/p' "$results.txt" | head -n 1)

out=tests/vm/data/stock-equiv-$base.tsv
mkdir -p tests/vm/data
{
	echo "# stock atime results of tests/vm/t/stock-equiv.sh: base $base, unpatched kernel ${guest_release:-$kver}, image $release, recorded $(date -u +%Y-%m-%d) by $prog"
	echo "# fs	state	path	result"
	LC_ALL=C sort <<<"$table"
} >"$out"
echo "[record] $(wc -l <<<"$table") cases -> $out" >&2
