#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/test.sh's own logic, on the host: bad arguments are refused, and
# its final line counts every suite that ran or was left out.  The script
# runs in a copy of the tree whose kernel, image and VM commands are stubs
# (nothing is built or booted): the stub scripts/vm.sh answers each suite
# with the TAP that $FAKE_DIR/SUITE.tap holds (default: one passing test
# and the runner's kernel-log check).
#
#   test-test-sh.sh SOURCE_ROOT
set -u
src=${1:?usage: test-test-sh.sh SOURCE_ROOT}
# the settings scripts/test.sh reads from the environment, as a user has none
unset ATIMECTL_BASE ATIMECTL_KERNEL ATIMECTL_DEBUG_BASES ATIMECTL_RELEASE STRESS_SECONDS \
	ATIMECTL_VM_JOBS ATIMECTL_ALL_SUITES
# No core base, unless a case sets one: every suite on every base.
export ATIMECTL_CORE_BASES=
T=$(mktemp -d /tmp/atimectl-test-sh-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/tap.sh"
tap_diagnose() { sed 's/^/#   /' "$T/out" | tail -n 30; }

tree=$T/tree
# shellcheck disable=SC1091
bases=$(. "$src/kernel/bases.sh" && echo "$ATIMECTL_BASES")
nbases=$(wc -w <<<"$bases")
mkdir -p "$tree/scripts" "$tree/tests/vm" "$T/fake"
for b in $bases; do
	mkdir -p "$tree/kernel/patches/$b" "$tree/build/linux-$b/scripts"
done
cp "$src/scripts/test.sh" "$tree/scripts/"
cp "$src/kernel/bases.sh" "$tree/kernel/"
cp -r "$src/tests/vm/suites" "$tree/tests/vm/"
stub() {	# stub PATH [BODY]
	printf '#!/usr/bin/env bash\n%s\n' "${2:-exit 0}" >"$tree/$1"
	chmod +x "$tree/$1"
}
stub scripts/host-deps.sh
stub scripts/build-image.sh
stub kernel/build.sh
stub tests/kernel-deb.sh 'echo "ok - kernel-deb stub"'
stub tests/kernel-scripts-args.sh 'echo "ok - kernel-scripts-args stub"'
stub kernel/check-kerneldoc.sh 'echo "ok - kernel-doc stub"'
for b in $bases; do
	stub "build/linux-$b/scripts/checkpatch.pl"
done
stub scripts/vm.sh '
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=$2; shift ;;
	--results) results=$2; shift ;;
	--) break ;;
	esac
	shift
done
if [ -f "$FAKE_DIR/$suite.tap" ]; then
	cp "$FAKE_DIR/$suite.tap" "$results"
else
	printf "ok 1 a.sh\nok 2 kernel log has no BUG\n1..2\n# atimectl: done\n" >"$results"
fi'
export FAKE_DIR=$T/fake

# ts ARGS...: run the copy of scripts/test.sh; $T/out, $rc
ts() {
	(cd "$tree" && bash scripts/test.sh "$@") >"$T/out" 2>&1
	rc=$?
}
last() { tail -n 1 "$T/out"; }
has() { grep -qxF -- "$1" "$T/out"; }

manual=$(grep -l '^# manual: ' "$src"/tests/vm/suites/* | wc -l)
all=$(find "$src/tests/vm/suites" -type f | wc -l)
debug=$(grep -lx '# kernel: debug' "$src"/tests/vm/suites/* | wc -l)
per=$(grep -lx '# per: release' "$src"/tests/vm/suites/* | wc -l)
# bases that boot a release a newer base boots too: the per-release suites
# skip there
# shellcheck disable=SC1091
nonprimary=$(. "$src/kernel/bases.sh" && for b in $ATIMECTL_BASES; do base_release "$b"; done |
	sort | uniq -c | awk '{ n += $1 - 1 } END { print n + 0 }')
[ "$manual" -ge 1 ] && [ "$debug" -ge 1 ] || { echo "Bail out! no manual or debug suite in $src/tests/vm/suites"; exit 1; }

# Bad arguments.
for bad in "--vm nosuch" "--vm ../suites/main" "--vm main ." "--vm main ''" \
	"--base 9.9 --vm main" "--base" "--bogus"; do
	eval "ts $bad"
	check "'$bad': exit status 2" test "$rc" = 2
	check "'$bad': says what is wrong" grep -q '^scripts/test.sh: ' "$T/out"
	check "'$bad': runs nothing" eval '! grep -q "^===" "$T/out"'
done
ATIMECTL_KERNEL=/nonexistent ts --vm main
check "ATIMECTL_KERNEL on several bases: exit status 2" test "$rc" = 2
for bad in 0 x -1 1.5; do
	ATIMECTL_VM_JOBS=$bad ts --base 6.12 --vm main
	check "ATIMECTL_VM_JOBS='$bad': exit status 2" test "$rc" = 2
	check "ATIMECTL_VM_JOBS='$bad': says what is wrong" \
		grep -q "^scripts/test.sh: ATIMECTL_VM_JOBS must be a number from 1, not '$bad'" "$T/out"
	check "ATIMECTL_VM_JOBS='$bad': runs nothing" eval '! grep -q "^===" "$T/out"'
done

# A default run under ATIMECTL_KERNEL: the debug suite, the manual ones and
# the four kernel checks are counted as skipped.
ATIMECTL_KERNEL=/fake/bzImage ts --base 6.12 --vm
ran=$((all - manual - debug))
check "ATIMECTL_KERNEL: exit 0" test "$rc" = 0
check "ATIMECTL_KERNEL: the debug suite has a SKIP line" \
	has "ok - suite stress on 6.12 # SKIP debug kernel: ATIMECTL_KERNEL boots /fake/bzImage"
check "ATIMECTL_KERNEL: checkpatch has a SKIP line" \
	has "ok - checkpatch --strict on kernel/patches/6.12 # SKIP ATIMECTL_KERNEL: no kernel built"
check "ATIMECTL_KERNEL: a manual suite has a SKIP line" grep -q '^ok - suite bootcost on 6.12 # SKIP manual: ' "$T/out"
check "ATIMECTL_KERNEL: final line counts them" \
	test "$(last)" = "$((2 * ran)) passed, 0 failed, $((manual + debug + 4)) skipped"

# No debug base: the stress suite is counted as skipped on each base.
ATIMECTL_DEBUG_BASES='' ts --vm
check "ATIMECTL_DEBUG_BASES='': exit 0" test "$rc" = 0
check "ATIMECTL_DEBUG_BASES='': SKIP line on 6.1" \
	has "ok - suite stress on 6.1 # SKIP debug kernel: 6.1 is not in ATIMECTL_DEBUG_BASES (\"\")"
check "ATIMECTL_DEBUG_BASES='': SKIP line on 6.12" \
	has "ok - suite stress on 6.12 # SKIP debug kernel: 6.12 is not in ATIMECTL_DEBUG_BASES (\"\")"
# per base: the suites' 2 results each, kernel-deb, kernel-scripts-args,
# checkpatch, kernel-doc
check "ATIMECTL_DEBUG_BASES='': final line" \
	test "$(last)" = "$((nbases * (2 * ran + 4) - 2 * per * nonprimary)) passed, 0 failed, $((nbases * (manual + debug) + per * nonprimary)) skipped"

# The default: the debug kernel on 6.12, the stress suite skipped elsewhere.
ts --vm
check "default: stress skipped on 6.1" grep -q '^ok - suite stress on 6.1 # SKIP' "$T/out"
check "default: stress runs on 6.12" eval '! grep -q "^ok - suite stress on 6.12 # SKIP" "$T/out"'
check "default: stress skipped on 7.3" grep -q '^ok - suite stress on 7.3 # SKIP' "$T/out"
check "default: final line" \
	test "$(last)" = "$((nbases * (2 * ran + 4) + 2 * debug - 2 * per * nonprimary)) passed, 0 failed, $((nbases * (manual + debug) - debug + per * nonprimary)) skipped"
check "default: systemd runs once per release, not on 6.12" \
	has "ok - suite systemd on 6.12 # SKIP once per release: on 7.3, which boots the same userspace (ATIMECTL_ALL_SUITES=1 runs it here too)"
check "default: systemd runs on 7.3 and 6.1" \
	eval '! grep -q "^ok - suite systemd on \(7.3\|6.1\) # SKIP" "$T/out"'

# ATIMECTL_ALL_SUITES=1: the per-release suites on every base too.
ATIMECTL_ALL_SUITES=1 ts --vm
check "ATIMECTL_ALL_SUITES=1: systemd not skipped on 6.12" \
	eval '! grep -q "^ok - suite systemd on 6.12 # SKIP" "$T/out"'
check "ATIMECTL_ALL_SUITES=1: final line" \
	test "$(last)" = "$((nbases * (2 * ran + 4) + 2 * debug)) passed, 0 failed, $((nbases * (manual + debug) - debug)) skipped"

# The default core bases, 6.1 and 6.12: only the suites marked "# core"
# boot there, and the per-release ones on 6.1, bookworm's only base; 7.3
# boots every suite.
core=$(grep -lx '# core' "$src"/tests/vm/suites/* | wc -l)
(unset ATIMECTL_CORE_BASES; ts --vm)
check "default core bases: exit 0" test "$rc" = 0
for b in 6.1 6.12; do
	check "default core bases: main skipped on $b" \
		has "ok - suite main on $b # SKIP $b is a core base: its kernel boots the stock-equivalence battery and KUnit only (ATIMECTL_CORE_BASES=\"\" runs every suite)"
	check "default core bases: equiv runs on $b" eval "! grep -q '^ok - suite equiv on $b # SKIP' \"\$T/out\""
done
check "default core bases: main runs on 7.3" eval '! grep -q "^ok - suite main on 7.3 # SKIP" "$T/out"'
check "default core bases: systemd runs on 6.1, bookworm's only base" \
	eval '! grep -q "^ok - suite systemd on 6.1 # SKIP" "$T/out"'
check "default core bases: systemd skipped on 6.12" grep -q '^ok - suite systemd on 6.12 # SKIP' "$T/out"
check "default core bases: stress runs on 6.12, a debug base" \
	eval '! grep -q "^ok - suite stress on 6.12 # SKIP" "$T/out"'
check "default core bases: final line" \
	test "$(last)" = "$(( (2 * ran + 4) + (2 * (core + per) + 4) + (2 * (core + debug) + 4) )) passed, 0 failed, $(( nbases * (manual + debug) - debug + (ran - core - per) + (ran - core) )) skipped"
ATIMECTL_CORE_BASES=x ts --vm
check "ATIMECTL_CORE_BASES=x: exit status 2" test "$rc" = 2
check "ATIMECTL_CORE_BASES=x: says what is wrong" grep -q "^scripts/test.sh: unknown base 'x'" "$T/out"

# One base named: it is its release's only base, so it runs them.
ts --base 6.12 --vm
check "--base 6.12: systemd runs" eval '! grep -q "^ok - suite systemd on 6.12 # SKIP" "$T/out"'


# A debug base named: stress skipped on 6.1 only, run on 6.12.
ATIMECTL_DEBUG_BASES=6.12 ts --vm
check "ATIMECTL_DEBUG_BASES=6.12: stress skipped on 6.1" grep -q '^ok - suite stress on 6.1 # SKIP' "$T/out"
check "ATIMECTL_DEBUG_BASES=6.12: stress not skipped on 6.12" eval '! grep -q "^ok - suite stress on 6.12 # SKIP" "$T/out"'
check "ATIMECTL_DEBUG_BASES=6.12: final line" \
	test "$(last)" = "$((nbases * (2 * ran + 4) + 2 - 2 * per * nonprimary)) passed, 0 failed, $((nbases * manual + nbases - 1 + per * nonprimary)) skipped"

# A suite whose every test skipped is one more skip; one with no test
# result at all fails.
printf 'ok 1 a.sh # SKIP no disk\nok 2 b.sh # SKIP no disk\nok 3 kernel log has no BUG\n1..3\n' >"$T/fake/main.tap"
ATIMECTL_KERNEL=/fake/bzImage ts --base 6.12 --vm main
check "all tests skipped: exit 0" test "$rc" = 0
check "all tests skipped: a SKIP line for the suite" \
	has "ok - suite main on 6.12 # SKIP every one of its 2 tests skipped"
check "all tests skipped: final line" test "$(last)" = "1 passed, 0 failed, 7 skipped"
printf 'ok 1 kernel log has no BUG\n1..1\n# atimectl: done\n' >"$T/fake/main.tap"
ATIMECTL_KERNEL=/fake/bzImage ts --base 6.12 --vm main
check "no test results: fails" test "$rc" != 0
check "no test results: says so" has "not ok - suite main on 6.12 reported no test results"
check "no test results: final line" test "$(last)" = "1 passed, 1 failed, 4 skipped"
printf 'not ok 1 a.sh\nok 2 b.sh # SKIP x\nok 3 kernel log has no BUG\n1..3\n' >"$T/fake/main.tap"
ATIMECTL_KERNEL=/fake/bzImage ts --base 6.12 --vm main
check "a failed test: fails" test "$rc" != 0
check "a failed test: final line" test "$(last)" = "1 passed, 1 failed, 5 skipped"

tap_end
