#!/usr/bin/env bash
# Run the series' KUnit tests on a 32-bit x86 kernel with two CPUs.
#
#   kernel/check-32bit.sh [--base 6.1|6.12|7.3] [--src DIR]
#
# Builds an i386 tinyconfig kernel (kernel/config/kunit-i386.config and
# atime.config) from the tree kernel/build.sh prepared
# (build/linux-<base>, default base $ATIMECTL_BASE, else 6.1; or DIR), boots it in qemu-system-i386 with two vCPUs on two host
# threads (multi-threaded TCG: see below) and no root filesystem, and prints the
# KUnit results of the "relatime" suite.  Exits 0 only if the suite ran
# and passed.  The 64-bit guests cannot show a torn 64-bit counter; this
# kernel can.  Not part of scripts/test.sh: it costs a kernel build.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
base=${ATIMECTL_BASE:-6.1}
src=
while [ $# -gt 0 ]; do
	case "$1" in
	--base) base=${2:-}; shift ;;
	--src) src=${2:-}; shift ;;
	-h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "kernel/check-32bit.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
. "$top/kernel/bases.sh"
check_base kernel/check-32bit.sh "$base"
src=${src:-$top/build/linux-$base}
[ -f "$src/Makefile" ] || { echo "kernel/check-32bit.sh: no kernel tree in $src (run kernel/build.sh)" >&2; exit 1; }
command -v qemu-system-i386 >/dev/null || { echo "kernel/check-32bit.sh: qemu-system-i386 missing (scripts/host-deps.sh)" >&2; exit 1; }

obj=$top/build/obj-i386-$(basename "$src")
log=$obj/console.log
export CCACHE_BASEDIR=$top/build CCACHE_NOHASHDIR=1 LOCALVERSION=
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
mk=(make -s -C "$src" O="$obj" ARCH=i386 CC="ccache gcc" HOSTCC="ccache gcc")
command -v ccache >/dev/null || mk=(make -s -C "$src" O="$obj" ARCH=i386)

mkdir -p "$obj"
"${mk[@]}" tinyconfig >/dev/null
KCONFIG_CONFIG=$obj/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
	"$obj/.config" "$top/kernel/config/kunit-i386.config" \
	"$top/kernel/config/atime.config" >/dev/null
"${mk[@]}" olddefconfig >/dev/null
for sym in CONFIG_SMP CONFIG_ACPI CONFIG_KUNIT CONFIG_RELATIME_KUNIT_TEST CONFIG_SERIAL_8250_CONSOLE; do
	grep -qx "$sym=y" "$obj/.config" || { echo "kernel/check-32bit.sh: $sym did not get set" >&2; exit 1; }
done
grep -q '^CONFIG_64BIT=y' "$obj/.config" && { echo "kernel/check-32bit.sh: not a 32-bit config" >&2; exit 1; }

start=$(date +%s)
if ! "${mk[@]}" -j"$(nproc)" bzImage >"$obj/build.log" 2>&1; then
	grep -E -B2 -A8 'error|Error' "$obj/build.log" | tail -n 40 >&2
	echo "kernel/check-32bit.sh: build failed; log in ${obj#"$top"/}/build.log" >&2
	exit 1
fi
echo "built $(cat "$obj/include/config/kernel.release") (i386) in $(( $(date +%s) - start ))s"

# No root filesystem: KUnit runs at boot, then the kernel panics and
# -no-reboot ends QEMU.  Multi-threaded TCG, unlike scripts/vm.sh's
# guests: the torn-counter test wants two vCPUs truly at once, and QEMU's
# stale translations after text patching (docs/testing.md) need jump
# labels, which this tinyconfig kernel has not (CONFIG_JUMP_LABEL stays
# off: a static key is a plain variable).
timeout 900 qemu-system-i386 -machine pc -smp 2 -m 256 -accel tcg,thread=multi \
	-kernel "$obj/arch/x86/boot/bzImage" -nographic -no-reboot \
	-append "console=ttyS0 panic=-1 kunit.filter_glob=relatime*" \
	</dev/null >"$log" 2>&1 || true
grep -E '^\s*# .*(reads|torn)|^\s*(not )?ok [0-9]+ ' "$log" | sed 's/\r$//' || true
if grep -q 'SKIP' "$log"; then
	echo "FAIL: a test was skipped; this check needs both CPUs online (console: ${log#"$top"/})"
	exit 1
fi
if grep -qE '^\s*not ok [0-9]+ relatime' "$log"; then
	echo "FAIL: the relatime suite failed on i386 (console: ${log#"$top"/})"
	exit 1
fi
if ! grep -qE '^\s*ok [0-9]+ relatime' "$log"; then
	echo "FAIL: the relatime suite did not run on i386 (console: ${log#"$top"/})"
	exit 1
fi
echo "ok: the relatime suite passed on i386 with 2 CPUs"
