#!/usr/bin/env bash
# Run every test: host unit tests (meson), then the patched kernel and the
# image are built and each in-guest suite in tests/vm/suites/ is booted in
# QEMU.  Ends with the line "N passed, N failed"; exits non-zero on any
# failure.
#
#   scripts/test.sh                 everything
#   scripts/test.sh --host          host unit tests only
#   scripts/test.sh --vm [SUITE..]  in-guest suites only (default: all)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
run_host=1
run_vm=1
suites=()
case "${1:-}" in
--host) run_vm=0 ;;
--vm) run_host=0; shift; suites=("$@") ;;
"") ;;
*) echo "scripts/test.sh: unknown argument '$1'" >&2; exit 2 ;;
esac

passed=0
failed=0
skipped=0
t0=$(date +%s)
step() { printf '\n=== %s (%ss)\n' "$*" "$(( $(date +%s) - t0 ))"; }

bash scripts/host-deps.sh

if [ $run_host = 1 ]; then
	step "host unit tests (meson test)"
	if [ ! -f build/meson/build.ninja ]; then
		meson setup --prefix=/usr --buildtype=debugoptimized build/meson >/dev/null
	fi
	meson compile -C build/meson >/dev/null
	set +e
	meson test -C build/meson --print-errorlogs >build/meson-test.log 2>&1
	set -e
	grep -E '^ *[0-9]+/[0-9]+ ' build/meson-test.log || true
	ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' build/meson-test.log)
	bad=0
	for k in Fail Timeout 'Unexpected Pass'; do
		v=$(sed -n "s/^$k: *\([0-9]*\).*/\1/p" build/meson-test.log)
		bad=$((bad + ${v:-0}))
	done
	sk=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' build/meson-test.log)
	if [ -z "$ok" ]; then
		tail -n 30 build/meson-test.log
		echo "meson test did not run"
		bad=$((bad + 1))
	fi
	[ "$bad" -gt 0 ] && sed -n '/^=* *[0-9]*\/[0-9]* .*FAIL/,/^====/p' build/meson-test.log | tail -n 80
	passed=$((passed + ${ok:-0}))
	failed=$((failed + bad))
	skipped=$((skipped + ${sk:-0}))
fi

if [ $run_vm = 1 ]; then
	step "kernel"
	bash kernel/build.sh
	step "image"
	bash scripts/build-image.sh
	if [ ${#suites[@]} -eq 0 ]; then
		for f in tests/vm/suites/*; do suites+=("$(basename "$f")"); done
	fi
	for suite in "${suites[@]}"; do
		args=$(sed -n 's/^# cmdline: //p' "tests/vm/suites/$suite")
		step "VM suite '$suite'${args:+ (kernel parameters: $args)}"
		results=build/vm/results-$suite.tap
		# shellcheck disable=SC2086
		if ! bash scripts/vm.sh --suite "$suite" --results "$results" \
			--console "build/vm/console-$suite.log" -- $args; then
			failed=$((failed + 1))
			echo "not ok - suite $suite did not complete"
		fi
		tr -d '\r' <"$results" 2>/dev/null | grep -v '^# atimectl: done' || true
		p=$(tr -d '\r' <"$results" 2>/dev/null | grep -c '^ok ' || true)
		s=$(tr -d '\r' <"$results" 2>/dev/null | grep -c '^ok .* # SKIP' || true)
		f=$(tr -d '\r' <"$results" 2>/dev/null | grep -c '^not ok ' || true)
		passed=$((passed + p - s))
		skipped=$((skipped + s))
		failed=$((failed + f))
	done
fi

step "done"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
