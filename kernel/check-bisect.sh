#!/usr/bin/env bash
# Build the guest kernel at every commit of the series, oldest first, to
# prove the series is bisectable: each patch builds on its own.  Uses the
# tree kernel/build.sh prepared (build/linux-<base>) through a separate
# worktree and object directory, so the normal build is left alone.
#
#   kernel/check-bisect.sh [--base 6.1|6.12]   (default $ATIMECTL_BASE, else 6.1)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
base=${ATIMECTL_BASE:-6.1}
case "${1:-}" in
--base) base=${2:-} ;;
--base=*) base=${1#--base=} ;;
"") ;;
*) echo "kernel/check-bisect.sh: unknown argument '$1'" >&2; exit 2 ;;
esac
. "$top/kernel/bases.sh"
check_base kernel/check-bisect.sh "$base"
src=$top/build/linux-$base
wt=$top/build/linux-$base-bisect
obj=$top/build/obj-$base-bisect
frags=("$top/kernel/config/guest.config")
[ -f "$top/kernel/config/guest-$base.config" ] &&
	frags+=("$top/kernel/config/guest-$base.config")
frags+=("$top/kernel/config/atime.config")
[ -d "$src/.git" ] || { echo "kernel/check-bisect.sh: run kernel/build.sh --base $base first" >&2; exit 1; }
export CCACHE_BASEDIR=$top/build CCACHE_NOHASHDIR=1 LOCALVERSION=
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
[ -d "$wt" ] || git -C "$src" worktree add -q --detach "$wt" pristine
mkdir -p "$obj"
fail=0
for c in $(git -C "$src" rev-list --reverse pristine..atime); do
	git -C "$wt" checkout -q "$c"
	subject=$(git -C "$wt" log -1 --format=%s)
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
