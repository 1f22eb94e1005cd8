#!/usr/bin/env bash
# Build the guest kernel at every commit of the series, oldest first, to
# prove the series is bisectable: each patch builds on its own, without a
# warning.  Uses the tree kernel/build.sh prepared (build/linux-<base>)
# through worktrees and object directories of its own under build/bisect/,
# so the normal build is left alone.
#
#   kernel/check-bisect.sh [--base 6.1|6.12|7.3] [--from N]
#
#   --base B   the series to check (default $ATIMECTL_BASE, else 6.1)
#   --from N   start at patch N of the series (1 is the first): after a
#              change to patch N, the patches before it need no rebuild
#
# Each commit is built in a tree laid out like the build it resembles, so
# that ccache finds that build's objects: a commit whose headers are still
# pristine's beside the names of the unpatched build (linux-<base>-stock,
# obj-<base>-stock), any other beside those of the patched one
# (linux-<base>, obj-<base>-guest).  What compiles anew is then what a
# patch changes and what depends on it; a patch that changes a header as
# widely included as linux/fs.h still costs a near-full build.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
prog=kernel/check-bisect.sh
base=${ATIMECTL_BASE:-6.1}
from=1
usage() { echo "$prog: $1 (usage: $prog [--base 6.1|6.12|7.3] [--from N])" >&2; exit 2; }
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
. "$top/kernel/build-env.sh"
check_base "$prog" "$base"
case $from in
'' | *[!0-9]*) usage "--from takes a patch number from 1, not '$from'" ;;
esac
from=$((10#$from))	# 07, as in 0007-*.patch, is patch 7
[ "$from" -ge 1 ] || usage "--from takes a patch number from 1, not '$from'"
src=$top/build/linux-$base
frags=("$top/kernel/config/guest.config")
[ -f "$top/kernel/config/guest-$base.config" ] &&
	frags+=("$top/kernel/config/guest-$base.config")
frags+=("$top/kernel/config/atime.config")
[ -d "$src/.git" ] || { echo "$prog: run kernel/build.sh --base $base first" >&2; exit 1; }
mapfile -t commits < <(git -C "$src" rev-list --reverse pristine..atime)
[ "$from" -le ${#commits[@]} ] ||
	usage "--from $from: the $base series has ${#commits[@]} patches"
kernel_build_env "$top/build"
mapfile -t makeflags < <(kernel_make_flags)

# layout COMMIT: "stock" if COMMIT's headers are pristine's, else "guest".
layout() {
	if git -C "$src" diff --quiet pristine "$1" -- include 'arch/*/include'; then
		echo stock
	else
		echo guest
	fi
}

fail=0
for ((i = from; i <= ${#commits[@]}; i++)); do
	c=${commits[i - 1]}
	case $(layout "$c") in
	stock) wt=$top/build/bisect/linux-$base-stock obj=$top/build/bisect/obj-$base-stock ;;
	guest) wt=$top/build/bisect/linux-$base obj=$top/build/bisect/obj-$base-guest ;;
	esac
	[ -d "$wt" ] || git -C "$src" worktree add -q --detach "$wt" pristine
	mkdir -p "$obj"
	git -C "$wt" checkout -q "$c"
	subject="$i/${#commits[@]} $(git -C "$wt" log -1 --format=%s)"
	make -s -C "$wt" O="$obj" tinyconfig >/dev/null
	KCONFIG_CONFIG=$obj/.config "$wt/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "${frags[@]}" >/dev/null 2>&1
	make -s -C "$wt" O="$obj" olddefconfig >/dev/null 2>&1
	start=$(date +%s)
	if make -s -C "$wt" O="$obj" "${makeflags[@]}" -j"$(nproc)" bzImage >"$obj/build.log" 2>&1 &&
		! grep -q 'warning:' "$obj/build.log"; then
		echo "ok - $subject ($(( $(date +%s) - start ))s, ${obj#"$top"/})"
	else
		grep -E 'error|warning' "$obj/build.log" | head -n 20
		echo "not ok - $subject"
		fail=1
	fi
done
exit $fail
