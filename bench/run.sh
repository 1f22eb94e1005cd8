#!/usr/bin/env bash
# The atimectl benchmark: what the relatime interval saves in disk writes,
# what the patched read path costs, how atimectl compares with findmnt, and
# how long the developer loop takes.  Separate from the tests: it asserts
# nothing in CI, prints PASS/FAIL for its targets and exits 0 whenever the
# benchmark ran (1 only if it could not run).
#
#   bench/run.sh [--quick] [--stock | --no-stock] [--cold-build]
#                [--cold-build-time SEC] [--skip-build]
#
#   --quick            smoke run: fewer files, reads and iterations
#   --stock            also run part 2 on the unpatched kernel
#                      build/kernel/<base>/bzImage-stock (made by
#                      "kernel/build.sh --stock"); waits up to 30 minutes
#                      for it to appear.  Default: on if it exists.
#                      Its .config must be the patched kernel's, the
#                      series' own symbols aside: else the run stops.
#   --no-stock         do not
#   --cold-build       measure a cold kernel build first
#                      (rm -rf build/obj-<base>-guest && kernel/build.sh): ~5 minutes
#   --cold-build-time SEC   record a cold build time measured elsewhere
#   --skip-build       use the kernel and image as they are
#
# Parts:
#   1. atime writes: 48 simulated hours of a read-heavy workload on ext4
#      without a journal, per atime policy (one boot, patched kernel)
#   2. read-path cost in guest instructions per call (boots with
#      -icount shift=0, patched and stock kernels)
#   3. atimectl status vs findmnt over a 10,000-entry mountinfo
#      (tests/bench-status.sh), both from the base's image, run on the host
#   4. developer loop: kernel build, image build, boot to results
#
# The kernel base is $ATIMECTL_BASE (6.1 or 6.12), 6.1 if unset.
# Output: a table on stdout, bench/results/<date>-<kernel>.json and .md
# (<date>-<kernel>-quick.* for --quick; -2, -3, ... added when an earlier
# run of the day holds the name: no run overwrites another's results).
# Raw guest output is kept in build/bench/.  Needs root (QEMU, apt-get).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
base=${ATIMECTL_BASE:-6.1}
. kernel/bases.sh
check_base bench/run.sh "$base"
export ATIMECTL_BASE=$base
# The base's own release (bookworm for 6.1, trixie for 6.12) unless
# $ATIMECTL_RELEASE names another; scripts/vm.sh boots the same.
release=${ATIMECTL_RELEASE:-$(base_release "$base")}
export ATIMECTL_RELEASE=$release
kdir=build/kernel/$base
quick=0
stock=auto
cold=0
cold_time=
build=1
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--stock) stock=1 ;;
	--no-stock) stock=0 ;;
	--cold-build) cold=1 ;;
	--cold-build-time) cold_time=$2; shift ;;
	--skip-build) build=0 ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench/run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

work=$top/build/bench
log() { printf '[bench] %s\n' "$*" >&2; }
die() { printf 'bench/run.sh: %s\n' "$*" >&2; exit 1; }
mkdir -p "$work" "$top/bench/results"
# Every run writes its raw output and meta.env to build/bench: a second
# run beside it (another base, say) would mix their files into one report.
exec 8>"$work/.lock"
flock -n 8 || die "another bench/run.sh is running in this tree (${work#"$top"/}/.lock); run the bases one after the other"
rm -f "$work"/*.out "$work"/*.console "$work"/*.txt "$work"/meta.env
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
meta() { printf '%s=%q\n' "$1" "$2" >> "$work/meta.env"; }

command -v hyperfine >/dev/null || {
	log "installing hyperfine"
	apt-get install -y hyperfine >/dev/null || log "hyperfine not installed: part 3 uses a shell loop"
}
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (scripts/host-deps.sh)"

# --- 4. developer loop (builds) ---------------------------------------------
meta quick "$quick"
meta base "$base"
# scripts/vm.sh --icount boots one CPU (QEMU 7.2's icount never brings up
# a second); the kernel is the same SMP build as the tests boot.
meta cost_smp 1
meta image_release "$release"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
meta date "${started%%T*}"
meta started "$started"
meta cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
meta ncpu "$(nproc)"
meta qemu "$(qemu-system-x86_64 --version | head -n 1)"
meta cold_build_supplied "$cold_time"
if [ "$build" = 1 ]; then
	if [ "$cold" = 1 ]; then
		log "cold kernel build (rm -rf build/obj-$base-guest)"
		rm -rf "build/obj-$base-guest"
		t=$(now)
		bash kernel/build.sh 2>&1 | tee "$work/kernel-cold.txt" >&2
		meta cold_build "$(since "$t")"
	fi
	t=$(now)
	bash kernel/build.sh 2>&1 | tee "$work/kernel-build.txt" >&2
	meta kernel_rebuild "$(since "$t")"
	meta kernel_build_line "$(grep -- '->' "$work/kernel-build.txt" | tail -n 1)"
	t=$(now)
	bash scripts/build-image.sh --release "$release" 2>&1 | tee "$work/image-build.txt" >&2
	meta image_build "$(since "$t")"
fi
[ -f "$kdir/bzImage" ] || die "no $kdir/bzImage"

# stock_config_differs: print the symbols on which the stock kernel's
# configuration differs from the patched one's, other than the series' own
# (kernel/config/atime.config).  Instructions counted on kernels of two
# configurations compare the configurations as much as the series: the
# stock kernels of 2026-12-05 lacked CONFIG_USER_NS, which the guest
# configuration had gained since they were built.
stock_config_differs() {
	local own
	own=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' kernel/config/atime.config | paste -sd'|' -)
	diff <(grep -E '^CONFIG_' "$kdir/bzImage.config" | grep -v -E "^($own)=" | sort) \
		<(grep -E '^CONFIG_' "$stock_kernel.config" | grep -v -E "^($own)=" | sort) |
		sed -n 's/^[<>] \(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' | sort -u | paste -sd' ' -
}
# stock_config_problem: print why the stock kernel cannot be compared with
# the patched one, if it cannot.
stock_config_problem() {
	local differs
	if [ ! -f "$stock_kernel.config" ]; then
		echo "$stock_kernel has no $stock_kernel.config to compare"
	elif [ ! -f "$kdir/bzImage.config" ]; then
		echo "$kdir/bzImage has no $kdir/bzImage.config to compare"
	else
		differs=$(stock_config_differs)
		[ -z "$differs" ] || echo "$stock_kernel was built with another configuration ($differs)"
	fi
}
stock_kernel=$kdir/bzImage-stock
if [ "$stock" != 0 ] && [ -f "$stock_kernel" ]; then
	problem=$(stock_config_problem)
	[ -z "$problem" ] ||
		die "$problem; rebuild it with kernel/build.sh --base $base --stock, or pass --no-stock"
fi
# The image scripts/build-image.sh built and scripts/vm.sh boots.
image=build/image-$release/image.cpio
[ -f "$image" ] || die "no $image"
meta release "$(cat "$kdir/bzImage.release" 2>/dev/null || echo unknown)"

# scripts/vm.sh gives every boot disks of its own and writes results and
# console where it is told, so a test run can use build/vm at the same time.
export ATIMECTL_ACCEL=${ATIMECTL_ACCEL:-$(cat build/vm/accel 2>/dev/null || echo tcg)}

# One guest at a time on this machine: wait (up to 15 min) for others.
wait_for_other_guests() {
	local i
	for ((i = 0; i < 90; i++)); do
		pgrep -f '^qemu-system-x86_64 ' >/dev/null || return 0
		[ "$i" = 0 ] && log "another QEMU guest is running; waiting for it to finish"
		sleep 10
	done
	log "still another guest after 15 minutes; going ahead"
}

boot() {	# boot NAME TIMEOUT [vm.sh options] -- [kernel arguments]
	local name=$1 timeout=$2 t rc=0
	shift 2
	wait_for_other_guests
	log "booting: $name"
	t=$(now)
	bash scripts/vm.sh --timeout "$timeout" --results "$work/$name.out" \
		--console "$work/$name.console" "$@" </dev/null || rc=$?
	meta "boot_$(echo "$name" | tr -- '-' '_')" "$(since "$t")"
	[ $rc = 0 ] || log "boot $name failed (console: ${work#"$top"/}/$name.console)"
	return 0
}

q=
[ "$quick" = 1 ] && q=atimebench.quick=1

# --- 3. atimectl vs findmnt (the release's own, on the host CPU) -------------
# The image's tree, extracted (no mount), so that the release's findmnt
# runs against the atimectl its Debian package installed; both through
# chroot(8), on the host's CPU rather than under TCG.
log "part 3: atimectl status vs findmnt of $release (tests/bench-status.sh)"
root=$work/root-$release
rm -rf "$root"
mkdir -p "$root"
cpio -i -d -m --quiet -D "$root" <"$image" 2>/dev/null ||
	log "extracting $image for part 3 reported errors"
meta status_findmnt "$(chroot "$root" findmnt --version 2>/dev/null || echo unknown)"
BENCH_ROOT=$root BENCH_RUNS=$([ "$quick" = 1 ] && echo 10 || echo 30) \
	bash tests/bench-status.sh > "$work/status.txt" 2> "$work/status-hyperfine.txt" ||
	log "tests/bench-status.sh failed: $(tail -n 1 "$work/status-hyperfine.txt")"
rm -rf "$root"

# --- 1. atime writes ----------------------------------------------------------
log "part 1: atime writes (patched kernel, TCG)"
boot workload 3600 -- atimebench=workload $q

# --- 2. read-path cost --------------------------------------------------------
log "part 2: read-path cost (patched kernel, -icount shift=0)"
boot cost-patched 3600 --icount -- atimebench=cost $q

if [ "$stock" = auto ]; then
	stock=0
	[ -f "$stock_kernel" ] && stock=1
fi
if [ "$stock" = 1 ]; then
	for ((i = 0; i < 30; i++)); do
		[ -f "$stock_kernel" ] && break
		[ "$i" = 0 ] && log "waiting for $stock_kernel (kernel/build.sh --stock), up to 30 minutes"
		sleep 60
	done
	problem=
	[ -f "$stock_kernel" ] && problem=$(stock_config_problem)
	if [ -n "$problem" ]; then
		log "$problem: stock column left empty"
	elif [ -f "$stock_kernel" ]; then
		meta stock_release "$(cat "$stock_kernel.release" 2>/dev/null || echo unknown)"
		log "part 2: read-path cost (stock kernel, -icount shift=0)"
		boot cost-stock 3600 --icount --kernel "$top/$stock_kernel" -- atimebench=cost $q
	else
		log "no $stock_kernel after 30 minutes: stock column left empty"
	fi
fi

# --- report -------------------------------------------------------------------
python3 "$top/bench/report.py" "$work" "$top/bench/results"
