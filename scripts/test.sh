#!/usr/bin/env bash
# Run every test: host unit tests (meson), then for each kernel base the
# patched kernel and that base's image are built and each in-guest suite in
# tests/vm/suites/ is booted in QEMU: 6.1 with Debian 12 (bookworm), 6.12
# with Debian 13 (trixie).  Ends with the line "N passed, N failed[, N
# skipped]"; exits non-zero on any failure.  What a default run leaves out
# (a manual suite, the debug kernel's suites on other bases or under
# ATIMECTL_KERNEL, the kernel checks under ATIMECTL_KERNEL) gets an
# "ok - ... # SKIP reason" line and is counted as skipped, and so is a
# suite whose every test skipped.
#
#   scripts/test.sh                 everything, on every base; on the
#                                   debug bases ($ATIMECTL_DEBUG_BASES,
#                                   default 6.12) also the debug kernel
#                                   (lockdep, KASAN, kmemleak, ...) and
#                                   the stress suite on it
#   scripts/test.sh --host          host unit tests only (built with
#                                   AddressSanitizer and UBSan)
#   scripts/test.sh --valgrind      host unit tests only, under valgrind
#   scripts/test.sh --vm [SUITE..]  in-guest suites only (default: all, as
#                                   above)
#   scripts/test.sh --stress        only the debug kernel and the stress
#                                   suite (on every base given);
#                                   STRESS_SECONDS=N sets how long its
#                                   load runs (default 60)
#   scripts/test.sh --base 6.12 ... one kernel base only (6.1, 6.12 or 7.3;
#                                   default $ATIMECTL_BASE, else all); goes
#                                   first
#
# ATIMECTL_KERNEL=FILE boots FILE instead of building the kernel (the VM
# suites only, one base; no checkpatch either; no debug kernel unless a
# suite for it is named).  Suites marked "# manual: ..." run only when
# named, suites marked "# kernel: debug" only on the debug bases,
# ATIMECTL_DEBUG_BASES (default "6.12"; docs/testing.md): "6.1 6.12" runs
# the debug kernel on both, "" on none.
# ATIMECTL_RELEASE=R boots the image of Debian release R (bookworm or
# trixie) on every base instead of the base's own.  Suites marked
# "# per: release" (userspace integration: systemd, interactive) run on
# one base per Debian release, the newest of the run that boots it (7.3
# for trixie, 6.1 for bookworm), and are counted as skipped on the
# others; ATIMECTL_ALL_SUITES=1 runs them on every base.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. kernel/bases.sh
run_host=1
run_vm=1
host_valgrind=0
suites=()
bases=${ATIMECTL_BASE:-$ATIMECTL_BASES}
# 6.12 by default, Debian 13's kernel and the base whose fault injection
# can be confined to relatime_sb_register(): its debug kernel's build and
# its stress suite run beside the other bases' (docs/testing.md: "The
# debug kernel and the stress suite"); "" leaves them out.
debug_bases=${ATIMECTL_DEBUG_BASES-6.12}
# The bases that boot only the suites marked "# core" (the
# stock-equivalence battery, and KUnit with the boot parameters' checks),
# and the "# per: release" ones where they are their release's newest
# base: by default 6.1 and 6.12, while 7.3, the upstream series, boots
# every suite.  So every base's kernel is built, checked and proven equal
# to its stock kernel, and each Debian release's userspace is tested once.
# A run with ATIMECTL_CORE_BASES="" boots every suite on every base: run
# it before resolving a kernel issue (docs/testing.md).
core_bases=${ATIMECTL_CORE_BASES-6.1 6.12}
# How many guests boot at once (default 2: TCG runs each guest on one
# host thread, so two guests, or a guest and a kernel build, keep the
# 2-core machine busy; docs/testing.md).
vm_jobs=${ATIMECTL_VM_JOBS:-2}
case $vm_jobs in
'' | *[!0-9]* | 0) echo "scripts/test.sh: ATIMECTL_VM_JOBS must be a number from 1, not '$vm_jobs'" >&2; exit 2 ;;
esac
case "${1:-}" in
--base) [ $# -ge 2 ] || { echo "scripts/test.sh: --base needs a value" >&2; exit 2; }
	bases=$2; shift 2 ;;
--base=*) bases=${1#--base=}; shift ;;
esac
for b in $bases $core_bases; do
	check_base scripts/test.sh "$b"
done
if [ -n "${ATIMECTL_KERNEL:-}" ] && [ "$bases" != "${bases%% *}" ]; then
	echo "scripts/test.sh: ATIMECTL_KERNEL boots one kernel: name its base with --base" >&2
	exit 2
fi
case "${1:-}" in
--host) run_vm=0 ;;
--vm) run_host=0; shift; suites=("$@")
	for s in "${suites[@]}"; do
		case $s in
		'' | */* | .*) ;;
		*) [ -f "tests/vm/suites/$s" ] && continue ;;
		esac
		echo "scripts/test.sh: unknown suite '$s' (have: $(cd tests/vm/suites && echo *))" >&2
		exit 2
	done ;;
--stress) run_host=0; suites=(stress) ;;
--valgrind) run_vm=0; host_valgrind=1 ;;
"") ;;
*) echo "scripts/test.sh: unknown argument '$1'" >&2; exit 2 ;;
esac

passed=0
failed=0
skipped=0
t0=$(date +%s)
step() { printf '\n=== %s (%ss)\n' "$*" "$(( $(date +%s) - t0 ))"; }
# skip_line WHAT REASON: something a run leaves out, counted.
skip_line() {
	echo "ok - $1 # SKIP $2"
	skipped=$((skipped + 1))
}

bash scripts/host-deps.sh

# meson_tests BUILDDIR [meson test arguments]: run and count.
meson_tests() {
	local dir=$1 log=$1/test-summary.log ok bad sk k v
	shift
	set +e
	meson test -C "$dir" --print-errorlogs "$@" >"$log" 2>&1
	set -e
	grep -E '^ *[0-9]+/[0-9]+ ' "$log" || true
	ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log")
	bad=0
	for k in Fail Timeout 'Unexpected Pass'; do
		v=$(sed -n "s/^$k: *\([0-9]*\).*/\1/p" "$log")
		bad=$((bad + ${v:-0}))
	done
	sk=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' "$log")
	if [ -z "$ok" ]; then
		tail -n 30 "$log"
		echo "not ok - meson test in $dir did not run"
		bad=$((bad + 1))
	elif [ "$bad" -gt 0 ]; then
		sed -n '/^=* *[0-9]*\/[0-9]* *=*$/,/^=====/p' "$log" | tail -n 100
	fi
	passed=$((passed + ${ok:-0}))
	failed=$((failed + bad))
	skipped=$((skipped + ${sk:-0}))
}

# meson_setup BUILDDIR OPTIONS...: configure BUILDDIR with OPTIONS; one
# configured before is reconfigured, so that it neither keeps options
# given then nor what it did not find then (a program installed since).
meson_setup() {
	local dir=$1
	shift
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$@" "$dir" >/dev/null
	else
		meson setup "$@" "$dir" >/dev/null
	fi
}

# count_tap COMMAND...: run a host check that prints "ok -"/"not ok -"
# lines, and count them (a non-zero exit with no "not ok" counts as one).
count_tap() {
	local out rc p s f
	set +e
	out=$("$@" 2>&1)
	rc=$?
	set -e
	echo "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed$' || true
	p=$(echo "$out" | grep -c '^ok - ' || true)
	s=$(echo "$out" | grep -c '^ok - .* # SKIP' || true)
	f=$(echo "$out" | grep -c '^not ok - ' || true)
	[ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
	passed=$((passed + p - s))
	skipped=$((skipped + s))
	failed=$((failed + f))
}

# The VM part runs as a pipeline, so that neither core waits on the other
# (docs/testing.md, "Where the time goes"):
#
#  - one background job prepares the bases in order: each base's kernel
#    and its Debian package (kernel/build.sh --deb --config guest), its
#    debug kernel when a suite needs it, and the image of its Debian
#    release when no earlier base built it;
#  - the foreground, as soon as a base is prepared, runs its kernel
#    checks (the package, bad input, checkpatch, kernel-doc) and queues
#    its suites;
#  - up to $vm_jobs guests boot at once from that one queue, whichever
#    base they belong to; TCG runs each guest on one host thread
#    (scripts/vm.sh), so two guests, or a guest and a kernel build, share
#    the machine's two cores.
#
# Every base's results are reported in base order, suite order within
# it, once all its guests are done.

# release_primary RELEASE: the base of this run that runs the suites
# marked "# per: release" for RELEASE: the last (newest) base booting it.
release_primary() {
	local b primary=
	for b in $bases; do
		[ "${ATIMECTL_RELEASE:-$(base_release "$b")}" = "$1" ] && primary=$b
	done
	echo "$primary"
}

# plan_base BASE: the suites BASE boots, in todo[BASE] (the longest
# first); what it leaves out gets its SKIP line here.
declare -A todo=()
plan_base() {
	local base=$1 f suite primary list=() order=() k
	if [ ${#suites[@]} -gt 0 ]; then
		list=("${suites[@]}")
	else
		# Manual suites run only when asked for, debug-kernel ones
		# by default only on the debug bases.
		for f in tests/vm/suites/*; do
			suite=$(basename "$f")
			if grep -q '^# manual: ' "$f"; then
				skip_line "suite $suite on $base" "manual: $(sed -n 's/^# manual: //p' "$f" | head -n 1)"
				continue
			fi
			if grep -qx '# kernel: debug' "$f"; then
				if [ -n "${ATIMECTL_KERNEL:-}" ]; then
					skip_line "suite $suite on $base" "debug kernel: ATIMECTL_KERNEL boots $ATIMECTL_KERNEL"
					continue
				fi
				case " $debug_bases " in
				*" $base "*)
					# ATIMECTL_DEBUG_BASES alone decides,
					# core base or not.
					list+=("$suite")
					continue
					;;
				*)
					skip_line "suite $suite on $base" "debug kernel: $base is not in ATIMECTL_DEBUG_BASES (\"$debug_bases\")"
					continue
					;;
				esac
			fi
			case " $core_bases " in
			*" $base "*)
				# The userspace suites still run once per
				# release, on the release's newest base.
				if ! grep -qx '# core' "$f" && ! { grep -qx '# per: release' "$f" &&
					[ "$(release_primary "${ATIMECTL_RELEASE:-$(base_release "$base")}")" = "$base" ]; }; then
					skip_line "suite $suite on $base" "$base is a core base: its kernel boots the stock-equivalence battery and KUnit only (ATIMECTL_CORE_BASES=\"\" runs every suite)"
					continue
				fi
				;;
			esac
			if grep -qx '# per: release' "$f" && [ -z "${ATIMECTL_ALL_SUITES:-}" ]; then
				primary=$(release_primary "${ATIMECTL_RELEASE:-$(base_release "$base")}")
				if [ "$primary" != "$base" ]; then
					skip_line "suite $suite on $base" "once per release: on $primary, which boots the same userspace (ATIMECTL_ALL_SUITES=1 runs it here too)"
					continue
				fi
			fi
			list+=("$suite")
		done
	fi
	# The longest first (measured, docs/testing.md), the rest after.
	for suite in stress main equiv systemd counters params interactive; do
		for k in "${list[@]}"; do
			[ "$k" = "$suite" ] && order+=("$suite")
		done
	done
	for suite in "${list[@]}"; do
		case " ${order[*]} " in *" $suite "*) ;; *) order+=("$suite") ;; esac
	done
	todo[$base]="${order[*]}"
}

# needs_debug BASE: whether a suite BASE boots runs on the debug kernel.
needs_debug() {
	local suite
	for suite in ${todo[$1]}; do
		grep -qx '# kernel: debug' "tests/vm/suites/$suite" && return 0
	done
	return 1
}

# prepare_bases: the background job: build what each base boots, in base
# order, each step's output in build/ci/prep-BASE.log; build/ci/prep-BASE.rc
# says the base is ready (0) or what failed.
prepare_bases() {
	local base release log rc
	local -A imaged=()
	for base in $bases; do
		log=build/ci/prep-$base.log
		release=${ATIMECTL_RELEASE:-$(base_release "$base")}
		rc=0
		{
			export ATIMECTL_BASE=$base
			if [ -z "${ATIMECTL_KERNEL:-}" ]; then
				echo "[prep] kernel and its Debian package ($base)"
				bash kernel/build.sh --base "$base" --deb --config guest || rc=1
				if [ $rc = 0 ] && needs_debug "$base"; then
					echo "[prep] debug kernel ($base)"
					bash kernel/build.sh --base "$base" --debug || rc=2
				fi
			fi
			if [ $rc = 0 ] && [ -z "${imaged[$release]:-}" ]; then
				# One image per release and run: 6.12 and 7.3
				# both boot trixie's, with 6.12's package.
				echo "[prep] image ($release)"
				bash scripts/build-image.sh --release "$release" || rc=3
				imaged[$release]=1
			fi
		} >"$log" 2>&1 </dev/null
		echo "$rc" >"build/ci/prep-$base.rc.tmp"
		mv "build/ci/prep-$base.rc.tmp" "build/ci/prep-$base.rc"
	done
}

# kernel_checks BASE: the kernel checks of a prepared base, in the
# foreground (they are short), counted.
kernel_checks() {
	local base=$1 cplog rc f
	export ATIMECTL_BASE=$base
	if [ -n "${ATIMECTL_KERNEL:-}" ]; then
		step "kernel: $ATIMECTL_KERNEL (ATIMECTL_KERNEL), not built"
		for f in "kernel/build.sh --deb checks ($base)" "bad input to the kernel checks ($base)" \
			"checkpatch --strict on kernel/patches/$base" \
			"kernel-doc on what kernel/patches/$base touches"; do
			skip_line "$f" "ATIMECTL_KERNEL: no kernel built"
		done
		return
	fi
	step "kernel/build.sh --deb checks ($base)"
	count_tap bash tests/kernel-deb.sh --base "$base"

	step "bad input to the kernel checks ($base)"
	count_tap bash tests/kernel-scripts-args.sh --base "$base"

	step "checkpatch --strict on kernel/patches/$base"
	# The base's own checkpatch, with Debian's python3 (with
	# python3-ply for the SPDX check), not a pyenv one.
	cplog=build/checkpatch-$base.log
	set +e
	(cd "build/linux-$base" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict \
		--quiet "$top/kernel/patches/$base"/*.patch) >"$cplog" 2>&1
	rc=$?
	set -e
	if [ $rc -ne 0 ] || [ -s "$cplog" ]; then
		cat "$cplog"
		echo "not ok - checkpatch --strict reports problems in kernel/patches/$base"
		failed=$((failed + 1))
	else
		echo "ok - checkpatch --strict: $(ls "kernel/patches/$base"/*.patch | wc -l) $base patches clean"
		passed=$((passed + 1))
	fi

	step "kernel-doc on what kernel/patches/$base touches"
	count_tap bash kernel/check-kerneldoc.sh --base "$base"
}

# boot_suite BASE RELEASE SUITE: boot SUITE's guest, its output and exit
# status kept in build/vm/BASE/run-SUITE.{log,rc} for report_suite.
boot_suite() {
	local base=$1 release=$2 suite=$3 args vmargs rc
	args=$(sed -n 's/^# cmdline: //p' "tests/vm/suites/$suite")
	vmargs=$(sed -n 's/^# vm: //p' "tests/vm/suites/$suite")
	[ -n "${ATIMECTL_KERNEL:-}" ] && vmargs+=" --kernel $ATIMECTL_KERNEL"
	if grep -qx '# kernel: debug' "tests/vm/suites/$suite"; then
		# Quiet for minutes while it boots under TCG.  A run on a fresh
		# machine compiles 7.3 beside it: the suite then needs more than
		# 2400 s (docs/testing.md, "The debug kernel and the stress suite").
		vmargs+=" --kernel build/kernel/$base/bzImage-debug --timeout 3600 --idle 1200"
		args+=" atimetest.stress_seconds=${STRESS_SECONDS:-60}"
	fi
	set +e
	# shellcheck disable=SC2086
	ATIMECTL_BASE=$base bash scripts/vm.sh --base "$base" --release "$release" $vmargs \
		--suite "$suite" --results "build/vm/$base/results-$suite.tap" \
		--console "build/vm/$base/console-$suite.log" -- $args \
		>"build/vm/$base/run-$suite.log" 2>&1 </dev/null
	rc=$?
	set -e
	echo "$rc" >"build/vm/$base/run-$suite.rc"
	echo "${args:-}" >"build/vm/$base/run-$suite.args"
}

# report_suite BASE RELEASE SUITE: print and count what SUITE's boot
# reported.
report_suite() {
	local base=$1 release=$2 suite=$3 args results p s f t ts
	args=$(cat "build/vm/$base/run-$suite.args" 2>/dev/null || true)
	results=build/vm/$base/results-$suite.tap
	step "VM suite '$suite' ($base, $release)${args:+ (kernel parameters: $args)}"
	cat "build/vm/$base/run-$suite.log" 2>/dev/null || true
	if [ "$(cat "build/vm/$base/run-$suite.rc" 2>/dev/null)" != 0 ]; then
		failed=$((failed + 1))
		echo "not ok - suite $suite on $base did not complete"
	fi
	tr -d '\r' <"$results" 2>/dev/null | grep -v '^# atimectl: done' || true
	p=$(tr -d '\r' <"$results" 2>/dev/null | grep -c '^ok ' || true)
	s=$(tr -d '\r' <"$results" 2>/dev/null | grep -c '^ok .* # SKIP' || true)
	f=$(tr -d '\r' <"$results" 2>/dev/null | grep -c '^not ok ' || true)
	passed=$((passed + p - s))
	skipped=$((skipped + s))
	failed=$((failed + f))
	# The suite's own tests (t/*.sh), not the runner's checks of the
	# kernel log that follow them.
	t=$(tr -d '\r' <"$results" 2>/dev/null | grep -c -E '^(not )?ok [0-9]+ [^ ]+\.sh( |$)' || true)
	ts=$(tr -d '\r' <"$results" 2>/dev/null | grep -c -E '^ok [0-9]+ [^ ]+\.sh # SKIP' || true)
	if [ "$t" -eq 0 ]; then
		echo "not ok - suite $suite on $base reported no test results"
		failed=$((failed + 1))
	elif [ "$ts" -eq "$t" ]; then
		skip_line "suite $suite on $base" "every one of its $t tests skipped"
	fi
}

if [ $run_vm = 1 ]; then
	for b in $bases; do
		plan_base "$b"
	done
	rm -rf build/ci
	mkdir -p build/ci
	for b in $bases; do
		rm -rf "build/vm/$b"
		mkdir -p "build/vm/$b"
	done
	prepare_bases &
	prep_pid=$!
	# A run that ends early takes its builds and guests with it.
	kill_tree() {
		local c
		for c in $(pgrep -P "$1"); do kill_tree "$c"; done
		kill "$1" 2>/dev/null || true
	}
	trap 'for j in $(jobs -p); do kill_tree "$j"; done' EXIT
	declare -A started=() pids=() prep_failed=()
	queue=()
	running=0
	pending_bases=($bases)
	step "VM part: kernels and images for $bases prepared in the background"
fi

if [ $run_host = 1 ] && [ $host_valgrind = 1 ]; then
	step "host unit tests under valgrind (meson test --setup valgrind)"
	meson_setup build/meson --prefix=/usr -Dtests=true -Dfuzz=false
	meson compile -C build/meson >/dev/null
	meson_tests build/meson --setup valgrind
elif [ $run_host = 1 ]; then
	# AddressSanitizer (with LeakSanitizer) and UBSan find what valgrind
	# finds in the C code at a tenth of its time; --valgrind runs the
	# same tests under valgrind instead (docs/testing.md).
	step "host unit tests with AddressSanitizer and UBSan (build/asan)"
	meson_setup build/asan --prefix=/usr -Dtests=true -Dfuzz=false \
		-Db_sanitize=address,undefined -Db_lundef=false
	meson compile -C build/asan >/dev/null
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		meson_tests build/asan
fi
if [ $run_host = 1 ]; then

	step "libFuzzer targets (clang, 20000 runs each)"
	CC=clang meson_setup build/fuzz -Dtests=true -Dfuzz=true -Dfuzz_runs=20000
	meson compile -C build/fuzz >/dev/null
	meson_tests build/fuzz --suite fuzz
fi

if [ $run_host = 1 ]; then
	step "stock-equivalence tables and their comparison (tests/stock-equiv/check.sh)"
	count_tap bash tests/stock-equiv/check.sh
fi

if [ $run_vm = 1 ]; then
	step "VM part: $vm_jobs guest(s) at a time, as the bases are prepared"
	while :; do
		# Guests that are done.
		for pid in "${!pids[@]}"; do
			kill -0 "$pid" 2>/dev/null && continue
			wait "$pid" || true
			k=${pids[$pid]}
			unset "pids[$pid]"
			running=$((running - 1))
			echo "[vm] ${k#* } on ${k%% *}: done in $(( $(date +%s) - started[$k] ))s ($(( $(date +%s) - t0 ))s into the run)"
		done
		# The next base, once it is prepared: its checks, then its
		# suites join the queue.
		if [ ${#pending_bases[@]} -gt 0 ] && [ -f "build/ci/prep-${pending_bases[0]}.rc" ]; then
			b=${pending_bases[0]}
			pending_bases=("${pending_bases[@]:1}")
			step "prepared: $b (build/ci/prep-$b.log)"
			grep -E '^\[(prep|kernel|image)\]' "build/ci/prep-$b.log" || true
			if [ "$(cat "build/ci/prep-$b.rc")" != 0 ]; then
				tail -n 40 "build/ci/prep-$b.log"
				echo "not ok - preparing $b (kernel, debug kernel or image) failed: its suites cannot boot"
				failed=$((failed + 1))
				prep_failed[$b]=1
			else
				kernel_checks "$b"
				for suite in ${todo[$b]}; do
					queue+=("$b $suite")
				done
			fi
			continue
		fi
		# Start guests while there is room.
		while [ ${#queue[@]} -gt 0 ] && [ "$running" -lt "$vm_jobs" ]; do
			k=${queue[0]}
			queue=("${queue[@]:1}")
			b=${k%% *}
			boot_suite "$b" "${ATIMECTL_RELEASE:-$(base_release "$b")}" "${k#* }" &
			pids[$!]=$k
			started[$k]=$(date +%s)
			running=$((running + 1))
			echo "[vm] ${k#* } on $b: started ($(( $(date +%s) - t0 ))s into the run)"
		done
		if [ ${#pending_bases[@]} -eq 0 ] && [ ${#queue[@]} -eq 0 ] && [ "$running" -eq 0 ]; then
			break
		fi
		sleep 1
	done
	wait "$prep_pid" || true
	for b in $bases; do
		[ -n "${prep_failed[$b]:-}" ] && continue
		for suite in ${todo[$b]}; do
			report_suite "$b" "${ATIMECTL_RELEASE:-$(base_release "$b")}" "$suite"
		done
	done
fi

step "done"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
