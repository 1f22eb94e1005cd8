#!/usr/bin/env bash
# Boot the guest: build/kernel/<base>/bzImage (or --kernel) with the mkosi
# image build/image-RELEASE/image.cpio as its initramfs, in QEMU, with the
# project's virtio disks attached.
#
#   scripts/vm.sh [options] [-- extra kernel arguments]
#
#   --base B          boot build/kernel/B/bzImage, B 6.1, 6.12 or 7.3 (default
#                     $ATIMECTL_BASE, else 6.1)
#   --kernel FILE     kernel image (overrides --base)
#   --release R       boot the image of Debian release R, bookworm or
#                     trixie (default $ATIMECTL_RELEASE, else the base's
#                     own: bookworm for 6.1, trixie for 6.12):
#                     build/image-R/image.cpio
#   --image FILE      initramfs image (default: that of --release)
#   --suite NAME      run the in-guest test suite NAME and power off;
#                     its TAP output is written to --results
#   --demo            print "atimectl status" and power off
#   --results FILE    where the guest's results go (default build/vm/results.tap)
#   --console FILE    where the serial console goes (default build/vm/console.log)
#   --timeout SEC     kill a guest that has not powered off (default 1800)
#   --idle SEC        kill a guest that wrote nothing to the console or the
#                     results for SEC seconds (default 300; with --icount,
#                     whose guests run quietly for many minutes, the
#                     --timeout value)
#                     A guest that has written all its results ("# atimectl:
#                     done") and not powered off 300 s later is stopped
#                     and fails (a filesystem that hung in a test can hold
#                     its shutdown forever).
#   --icount          exact timing: -icount shift=0 (TCG only)
#   --smp N           virtual CPUs (default 2; 1 with --icount, under
#                     which QEMU 7.2 never brings up a second CPU)
#   --broken-disk     also attach the disk whose fstab entry carries a
#                     malformed x-relatime-interval= (systemd suite)
#   --scratch-size S  make the two blank scratch disks S (512M, 8G, ...:
#                     scripts/make-disks.sh; sparse files) instead of 512M
#
# With none of --suite/--demo and a terminal on stdin, the console is the
# terminal and root is logged in.  KVM is used only when a probe boot
# (cached in build/vm/accel) shows that guests run under it; otherwise TCG,
# single-threaded unless ATIMECTL_TCG_THREAD=multi (see below).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
base=${ATIMECTL_BASE:-6.1}
kernel=
release=${ATIMECTL_RELEASE:-}
image=
vmdir=$top/build/vm
results=$vmdir/results.tap
console=$vmdir/console.log
# A slow guest (TCG on a busy host: the systemd suite took 183s idle and
# 389s beside two CPU hogs and another guest) is given time as long as it
# makes progress; a hung one is stopped after --idle seconds of silence.
timeout=1800
idle=300
idle_given=0
mode=interactive
suite=
icount=0
smp=
broken=0
scratch_size=
extra=()

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift ;;
	--base) base=$2; shift ;;
	--release) release=$2; shift ;;
	--image) image=$2; shift ;;
	--suite) mode=suite; suite=$2; shift ;;
	--demo) mode=demo ;;
	--results) results=$2; shift ;;
	--console) console=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--idle) idle=$2; idle_given=1; shift ;;
	--icount) icount=1 ;;
	--smp) smp=$2; shift ;;
	--broken-disk) broken=1 ;;
	--scratch-size)
		[ $# -ge 2 ] || { echo "scripts/vm.sh: --scratch-size needs a size" >&2; exit 2; }
		scratch_size=$2; shift ;;
	--) shift; extra=("$@"); break ;;
	-h|--help) sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "scripts/vm.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

die() { printf 'scripts/vm.sh: %s\n' "$*" >&2; exit 1; }
# Checked here, before anything is built or booted (make-disks.sh says the
# same, but only once the guest is being set up).
if [ -n "$scratch_size" ] && ! [[ $scratch_size =~ ^[1-9][0-9]*[KMG]?$ ]]; then
	echo "scripts/vm.sh: --scratch-size takes a size such as 512M or 8G, not '$scratch_size'" >&2
	exit 2
fi
[ "$icount" = 1 ] && [ "$idle_given" = 0 ] && idle=$timeout
if [ -z "$smp" ]; then
	# Under -icount (sleep=on or off) QEMU 7.2 hangs the guest at "x86:
	# Booting SMP configuration:": the SMP kernel runs on one CPU there.
	smp=2
	[ "$icount" = 1 ] && smp=1
fi
case $smp in
[1-9]|[1-9][0-9]) ;;
*) die "--smp needs a number of CPUs from 1 to 99, not '$smp'" ;;
esac
case ${ATIMECTL_TCG_THREAD:-single} in
single | multi) ;;
*) die "ATIMECTL_TCG_THREAD must be single or multi, not '$ATIMECTL_TCG_THREAD'" ;;
esac
. "$top/kernel/bases.sh"
check_base scripts/vm.sh "$base"
[ -n "$release" ] || release=$(base_release "$base")
if [ -n "$kernel" ]; then
	# Not the kernel the image's linux-image package holds: the
	# test of that package (t/kernel-package.sh) has nothing to check.
	extra+=(atimetest.kernel=other)
else
	kernel=$top/build/kernel/$base/bzImage
	# The image of a release installs the package of one base (7.3
	# boots Debian 13's image, which holds 6.12's): any other base's
	# kernel is not the package's either.
	[ "$(release_base "$release")" = "$base" ] || extra+=(atimetest.kernel=other)
fi
[ -f "$kernel" ] || die "no kernel at $kernel (run kernel/build.sh --base $base)"
image=${image:-$top/build/image-$release/image.cpio}
[ -f "$image" ] || die "no image at $image (run scripts/build-image.sh --release $release)"
mkdir -p "$vmdir"

# Does a guest make progress under KVM?  Boot the kernel with no init:
# it panics within seconds and, with panic=-1 and -no-reboot, QEMU exits.
probe_kvm() {
	[ -w /dev/kvm ] || { echo tcg; return; }
	local log=$vmdir/kvm-probe.log
	if timeout 20 qemu-system-x86_64 -accel kvm -m 256 -nographic -no-reboot \
		-kernel "$kernel" -append "console=ttyS0 panic=-1 rdinit=/none root=/dev/none" \
		-serial "file:$log" -monitor none </dev/null >/dev/null 2>&1 &&
		grep -q 'Kernel panic' "$log"; then
		echo kvm
	else
		echo tcg
	fi
}

accel=${ATIMECTL_ACCEL:-}
if [ -z "$accel" ]; then
	if [ -f "$vmdir/accel" ]; then
		accel=$(cat "$vmdir/accel")
	else
		accel=$(probe_kvm)
		echo "$accel" > "$vmdir/accel"
	fi
fi
if [ "$icount" = 1 ]; then
	accel=tcg
	accel_args=(-accel tcg -icount shift=0)
elif [ "$accel" = kvm ]; then
	accel_args=(-accel kvm -cpu host)
else
	# One host thread for all guest CPUs: under multi-threaded TCG
	# (QEMU 7.2 and 10.0 alike) a guest CPU can go on running a stale
	# translation of code another CPU has just patched, and the kernel
	# dies with "Oops: int3" when a static key is switched while it runs
	# (at boot on 7.3, when the clocksource's and sched_clock's keys
	# are; tests/vm/t/tracepoint-toggle.sh).  The guest keeps its
	# CPUs, interleaved by QEMU.  ATIMECTL_TCG_THREAD=multi brings the
	# other mode back, to show that failure.
	accel_args=(-accel "tcg,thread=${ATIMECTL_TCG_THREAD:-single}" -cpu max)
fi
echo "[vm] accelerator: $accel$([ "$icount" = 1 ] && echo ', icount shift=0')$([ "$accel" = tcg ] && [ "$icount" = 0 ] && echo ", thread=${ATIMECTL_TCG_THREAD:-single}")" >&2

# Fresh disks every boot, so no run depends on what an earlier one left,
# in a directory of this run's own so that two guests can run at once.
# Labels are what the image's /etc/fstab refers to.
diskdir=$(mktemp -d "$vmdir/disks.XXXXXX")
trap 'rm -rf "$diskdir"' EXIT
diskargs=()
[ "$broken" = 1 ] && diskargs=(--broken)
[ -n "$scratch_size" ] && diskargs+=(--scratch-size "$scratch_size")
bash "$top/scripts/make-disks.sh" "$diskdir" "${diskargs[@]}"
disks=()
for name in mail cache broken scratch1 scratch2; do
	[ -f "$diskdir/$name.img" ] || continue
	disks+=(-drive "file=$diskdir/$name.img,if=none,id=$name,format=raw,cache=unsafe"
		-device "virtio-blk-pci,drive=$name,serial=$name")
done

cmdline="console=ttyS0 panic=-1"
if [ -n "${ATIMECTL_VM_VERBOSE:-}" ]; then
	cmdline+=" systemd.log_target=console"
else
	cmdline+=" quiet loglevel=4 systemd.show_status=0"
fi
case $mode in
suite) cmdline+=" atimetest.suite=$suite" ;;
demo) cmdline+=" atimectl.demo=1" ;;
esac
[ ${#extra[@]} -gt 0 ] && cmdline+=" ${extra[*]}"

qemu=(qemu-system-x86_64 "${accel_args[@]}" -smp "$smp" -m 2048 -nographic -no-reboot
	-kernel "$kernel" -initrd "$image" -append "$cmdline"
	"${disks[@]}" -nic none)

if [ "$mode" = interactive ] && [ -t 0 ]; then
	"${qemu[@]}" -serial mon:stdio
	exit
fi

rm -f "$results" "$console"
start=$(date +%s)
set +e
timeout --foreground "$timeout" "${qemu[@]}" -monitor none \
	-serial "file:$console" -serial "file:$results" </dev/null &
qpid=$!
trap 'kill "$qpid" 2>/dev/null || true; rm -rf "$diskdir"' EXIT
# Watch for progress: the console and the results grow as the guest boots
# and as each test starts and ends.
last=-1 quiet=0 stalled=0 finished=0 lingered=0
while kill -0 "$qpid" 2>/dev/null; do
	sleep 5
	if [ "$finished" = 1 ] || grep -q '^# atimectl: done' "$results" 2>/dev/null; then
		finished=1 lingered=$((lingered + 5))
		if [ "$lingered" -ge 300 ]; then
			kill "$qpid" 2>/dev/null
			break
		fi
	fi
	size=$(( $(stat -c %s "$console" 2>/dev/null || echo 0) + $(stat -c %s "$results" 2>/dev/null || echo 0) ))
	if [ "$size" != "$last" ]; then
		last=$size quiet=0
	else
		quiet=$((quiet + 5))
	fi
	if [ "$quiet" -ge "$idle" ]; then
		stalled=1
		kill "$qpid" 2>/dev/null
		break
	fi
done
wait "$qpid"
rc=$?
set -e
echo "[vm] guest ran $(( $(date +%s) - start ))s" >&2

if [ "$mode" = demo ]; then
	# The demo writes its output to the second serial port.
	cat "$results" 2>/dev/null || true
fi

fail() {
	echo "scripts/vm.sh: $*; last console lines:" >&2
	tail -n 40 "$console" >&2 || true
	exit 1
}
[ "$stalled" = 1 ] && fail "guest wrote nothing for ${idle}s (--idle)"
[ "$lingered" -ge 300 ] && fail "guest did not power off within 300s of its last result"
[ $rc -eq 124 ] && fail "guest did not power off within ${timeout}s"
grep -q 'Kernel panic' "$console" 2>/dev/null && fail "guest kernel panicked"
[ $rc -ne 0 ] && fail "qemu exited with status $rc"
grep -q '^# atimectl: done' "$results" 2>/dev/null ||
	fail "guest powered off without finishing"
exit 0
