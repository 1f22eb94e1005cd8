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
#                                   default none) also the debug kernel
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
# named, suites marked "# kernel: debug" by default only on the debug
# bases.  ATIMECTL_DEBUG_BASES (default "": none, for time; docs/testing.md)
# names them: "6.12" runs the debug kernel on 6.12, "6.1 6.12" on both.
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
# None by default: the debug kernel's build is the longest step of a run
# on a machine whose ccache has not built it (docs/testing.md: "The
# debug kernel and the stress suite"); scripts/test.sh --stress runs it.
debug_bases=${ATIMECTL_DEBUG_BASES-}
# The bases that boot only the suites marked "# core" (the
# stock-equivalence battery, and KUnit with the boot parameters' checks),
# and the "# per: release" ones where they are their release's newest
# base: by default 6.1 and 6.12, while 7.3, the upstream series, boots
# every suite.  So every base's kernel is built, checked and proven equal
# to its stock kernel, and each Debian release's userspace is tested once.
# A run with ATIMECTL_CORE_BASES="" boots every suite on every base: run
# it before resolving a kernel issue (docs/testing.md).
core_bases=${ATIMECTL_CORE_BASES-6.1 6.12}
# How many guests boot at once (default 1: two at once on a 2-core
# machine took as long as one after the other, each guest running half as
# fast; docs/testing.md).
vm_jobs=${ATIMECTL_VM_JOBS:-1}
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

if [ $run_host = 1 ]; then
	step "stock-equivalence tables and their comparison (tests/stock-equiv/check.sh)"
	count_tap bash tests/stock-equiv/check.sh
fi

# vm_base BASE: build BASE's kernel and its release's image, check the
# series, and boot each suite.
# release_primary RELEASE: the base of this run that runs the suites
# marked "# per: release" for RELEASE: the last (newest) base booting it.
release_primary() {
	local b primary=
	for b in $bases; do
		[ "${ATIMECTL_RELEASE:-$(base_release "$b")}" = "$1" ] && primary=$b
	done
	echo "$primary"
}

vm_base() {
	local base=$1 release suite args vmargs results p s f rc cplog primary
	local todo=("${suites[@]}")
	if [ ${#todo[@]} -eq 0 ]; then
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
				*" $base "*) ;;
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
			todo+=("$suite")
		done
	fi
	# kernel/build.sh and scripts/vm.sh take the base from here.
	export ATIMECTL_BASE=$base
	if [ -n "${ATIMECTL_KERNEL:-}" ]; then
		step "kernel: $ATIMECTL_KERNEL (ATIMECTL_KERNEL), not built"
		for f in "kernel/build.sh --deb checks ($base)" "bad input to the kernel checks ($base)" \
			"checkpatch --strict on kernel/patches/$base" \
			"kernel-doc on what kernel/patches/$base touches"; do
			skip_line "$f" "ATIMECTL_KERNEL: no kernel built"
		done
	else
		step "kernel and its Debian package ($base)"
		bash kernel/build.sh --base "$base" --deb --config guest

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
	fi
	for suite in "${todo[@]}"; do
		if grep -qx '# kernel: debug' "tests/vm/suites/$suite"; then
			step "debug kernel ($base)"
			bash kernel/build.sh --base "$base" --debug
			break
		fi
	done
	release=${ATIMECTL_RELEASE:-$(base_release "$base")}
	# One image per release and run: 6.12 and 7.3 both boot trixie's.
	if [ -z "${images_built[$release]:-}" ]; then
		step "image ($release)"
		bash scripts/build-image.sh --release "$release"
		images_built[$release]=1
	fi
	mkdir -p "build/vm/$base"
	# Boot the suites $vm_jobs at a time, the longest first: a guest
	# under TCG keeps about one host core busy, so two share the
	# machine's two.  Their results are reported in suite order once all
	# have run.
	local order=() pending=() running=0 done_pid k
	local -A pids=() started=()
	for suite in main equiv counters systemd stress params interactive; do
		for k in "${todo[@]}"; do
			[ "$k" = "$suite" ] && order+=("$suite")
		done
	done
	for suite in "${todo[@]}"; do
		case " ${order[*]} " in *" $suite "*) ;; *) order+=("$suite") ;; esac
	done
	pending=("${order[@]}")
	step "VM suites on $base ($release), $vm_jobs at a time: ${order[*]}"
	while [ ${#pending[@]} -gt 0 ] || [ "$running" -gt 0 ]; do
		while [ ${#pending[@]} -gt 0 ] && [ "$running" -lt "$vm_jobs" ]; do
			suite=${pending[0]}
			pending=("${pending[@]:1}")
			boot_suite "$base" "$release" "$suite" &
			pids[$!]=$suite
			started[$suite]=$(date +%s)
			running=$((running + 1))
		done
		wait -n -p done_pid || true
		running=$((running - 1))
		suite=${pids[$done_pid]}
		echo "[vm] $suite on $base: done in $(( $(date +%s) - started[$suite] ))s"
	done
	for suite in "${todo[@]}"; do
		report_suite "$base" "$release" "$suite"
	done
}

# boot_suite BASE RELEASE SUITE: boot SUITE's guest, its output and exit
# status kept in build/vm/BASE/run-SUITE.{log,rc} for report_suite.
boot_suite() {
	local base=$1 release=$2 suite=$3 args vmargs rc
	args=$(sed -n 's/^# cmdline: //p' "tests/vm/suites/$suite")
	vmargs=$(sed -n 's/^# vm: //p' "tests/vm/suites/$suite")
	[ -n "${ATIMECTL_KERNEL:-}" ] && vmargs+=" --kernel $ATIMECTL_KERNEL"
	if grep -qx '# kernel: debug' "tests/vm/suites/$suite"; then
		# Quiet for minutes while it boots under TCG.
		vmargs+=" --kernel build/kernel/$base/bzImage-debug --timeout 2400 --idle 1200"
		args+=" atimetest.stress_seconds=${STRESS_SECONDS:-60}"
	fi
	set +e
	# shellcheck disable=SC2086
	bash scripts/vm.sh --base "$base" --release "$release" $vmargs \
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

declare -A images_built=()
if [ $run_vm = 1 ]; then
	for b in $bases; do
		vm_base "$b"
	done
fi

step "done"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
