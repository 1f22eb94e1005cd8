#!/usr/bin/env bash
# Build the guest kernel at every commit of the series, oldest first, to
# prove the series is bisectable: each patch builds on its own, without a
# warning.  Uses the tree kernel/build.sh prepared (build/linux-<base>)
# through a separate worktree and object directory, so the normal build
# is left alone.
#
#   kernel/check-bisect.sh [--base 6.1|6.12] [--from N]
#
#   --base B   the series to check (default $ATIMECTL_BASE, else 6.1)
#   --from N   start at patch N of the series (1 is the first): after a
#              change to patch N, the patches before it need no rebuild
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
prog=kernel/check-bisect.sh
base=${ATIMECTL_BASE:-6.1}
from=1
usage() { echo "$prog: $1 (usage: $prog [--base 6.1|6.12] [--from N])" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--base) [ $# -ge 2 ] || usage "--base needs a value"; base=$2; shift ;;
	--base=*) base=${1#--base=} ;;
	--from) [ $# -ge 2 ] || usage "--from needs a patch number"; from=$2; shift ;;
	--from=*) from=${1#--from=} ;;
	-h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown argument '$1'" ;;
	esac
	shift
done
. "$top/kernel/bases.sh"
check_base "$prog" "$base"
case $from in
'' | *[!0-9]*) usage "--from takes a patch number from 1, not '$from'" ;;
esac
from=$((10#$from))	# 07, as in 0007-*.patch, is patch 7
[ "$from" -ge 1 ] || usage "--from takes a patch number from 1, not '$from'"
src=$top/build/linux-$base
wt=$top/build/linux-$base-bisect
obj=$top/build/obj-$base-bisect
frags=("$top/kernel/config/guest.config")
[ -f "$top/kernel/config/guest-$base.config" ] &&
	frags+=("$top/kernel/config/guest-$base.config")
frags+=("$top/kernel/config/atime.config")
[ -d "$src/.git" ] || { echo "$prog: run kernel/build.sh --base $base first" >&2; exit 1; }
mapfile -t commits < <(git -C "$src" rev-list --reverse pristine..atime)
[ "$from" -le ${#commits[@]} ] ||
	usage "--from $from: the $base series has ${#commits[@]} patches"
export CCACHE_BASEDIR=$top/build CCACHE_NOHASHDIR=1 LOCALVERSION=
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
[ -d "$wt" ] || git -C "$src" worktree add -q --detach "$wt" pristine
mkdir -p "$obj"
fail=0
for ((i = from; i <= ${#commits[@]}; i++)); do
	c=${commits[i - 1]}
	git -C "$wt" checkout -q "$c"
	subject="$i/${#commits[@]} $(git -C "$wt" log -1 --format=%s)"
	make -s -C "$wt" O="$obj" tinyconfig >/dev/null
	KCONFIG_CONFIG=$obj/.config "$wt/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "${frags[@]}" >/dev/null 2>&1
	make -s -C "$wt" O="$obj" olddefconfig >/dev/null 2>&1
	start=$(date +%s)
	if make -s -C "$wt" O="$obj" CC="ccache gcc" -j"$(nproc)" bzImage >"$obj/build.log" 2>&1 &&
		! grep -q 'warning:' "$obj/build.log"; then
		echo "ok - $subject ($(( $(date +%s) - start ))s)"
	else
		grep -E 'error|warning' "$obj/build.log" | head -n 20
		echo "not ok - $subject"
		fail=1
	fi
done
exit $fail
