# fstests' read-path groups on the running kernel, for tests/fstests/run.sh,
# which boots this once per kernel (patched, stock) and filesystem and
# compares the results.  The filesystem comes from the kernel command
# line (atimetest.fstests_fs=ext4|xfs|btrfs); the tests are those of
# generic/ and of the filesystem's own directory that are in one of the
# groups rw, mmap, aio, copy_range, io_uring, splice or atime and also in
# quick, as fstests' group files (built from each test's _begin_fstest
# line) list them: a list too long for the command line, and one that
# follows the fstests tree the image was built from.  A run resumed
# (atimetest.fstests_after=TEST) runs only the selected tests after TEST.
#
# TEST_DEV is the first blank scratch disk, made with the filesystem here;
# SCRATCH_DEV the second, which the tests make their own filesystems on.
# Every result is printed as a "# " note, so that the runner keeps it in
# the results (tests/fstests/run.sh reads the console when the guest did
# not finish):
#   # fstests result generic/001 pass 3s
#   # fstests result generic/002 notrun 0s: REASON
#   # fstests result generic/003 fail 12s: WHAT
#   # fstests result xfs/250 hang 1200s: WHAT IT WAITS IN
# A test that gives no result for atimetest.fstests_stall=SECONDS (1200
# by default) is a hang: the guest prints what its processes wait in,
# notes the hang as the test's result, and ends the run there (the test
# fails), leaving the filesystems mounted, since an unmount would wait
# as well.  tests/fstests/run.sh --resume goes on after it.
# This test passes whenever fstests ran: comparing the results is the
# host's job, and a test that fails on both kernels is no finding here.
. /usr/lib/atimectl-tests/lib.sh

xfstests=/var/lib/xfstests
[ -x "$xfstests/check" ] ||
	skip "no fstests in this image (scripts/build-image.sh --fstests SRC builds the one that has it)"
fs=$(sed -n 's/.*atimetest\.fstests_fs=\([^ ]*\).*/\1/p' /proc/cmdline)
case $fs in
ext4 | xfs | btrfs) ;;
*) die "atimetest.fstests_fs= must be ext4, xfs or btrfs, not '$fs'" ;;
esac
groups="rw mmap aio copy_range io_uring splice atime"

# select DIR: the tests of tests/DIR in one of $groups and in quick, from
# the group file fstests' build wrote ("NNN group group ..." lines).
select_tests() {
	awk -v dir="$1" -v groups="$groups" '
		BEGIN { n = split(groups, g, " "); for (i = 1; i <= n; i++) want[g[i]] = 1 }
		/^#/ || NF < 2 { next }
		{
			quick = 0; read = 0
			for (i = 2; i <= NF; i++) {
				if ($i == "quick") quick = 1
				if ($i in want) read = 1
			}
			if (quick && read) print dir "/" $1
		}' "$xfstests/tests/$1/group.list"
}
for d in generic "$fs"; do
	[ -f "$xfstests/tests/$d/group.list" ] || die "no $xfstests/tests/$d/group.list: fstests' build writes it"
done
# A rerun (tests/fstests/run.sh --tests, --iterate): the tests named by
# atimetest.fstests_tests=T1,T2 instead of the groups, each run
# atimetest.fstests_iterate=N times, to tell a flaky test from a defect.
only=$(sed -n 's/.*atimetest\.fstests_tests=\([^ ]*\).*/\1/p' /proc/cmdline)
iterate=$(sed -n 's/.*atimetest\.fstests_iterate=\([^ ]*\).*/\1/p' /proc/cmdline)
iterate=${iterate:-1}
[[ $iterate =~ ^[1-9][0-9]*$ ]] || die "atimetest.fstests_iterate= must be a number from 1, not '$iterate'"
stall=$(sed -n 's/.*atimetest\.fstests_stall=\([^ ]*\).*/\1/p' /proc/cmdline)
stall=${stall:-1200}
[[ $stall =~ ^[1-9][0-9]*$ ]] || die "atimetest.fstests_stall= must be seconds (a number from 1), not '$stall'"
if [ -n "$only" ]; then
	IFS=, read -r -a tests <<<"$only"
	for t in "${tests[@]}"; do
		[[ $t =~ ^[a-z0-9]+/[0-9]+$ ]] && [ -f "$xfstests/tests/$t" ] ||
			die "atimetest.fstests_tests=: no fstests test '$t'"
	done
else
	# (Sorted, and check runs them in this order, --exact-order: a
	# resumed run goes on after the last test with a result.)
	mapfile -t tests < <({ select_tests generic; select_tests "$fs"; } | LC_ALL=C sort)
fi
[ ${#tests[@]} -gt 0 ] || die "no test of the groups $groups is also in quick"
# A run resumed (tests/fstests/run.sh --resume): all are selected, but
# only those after atimetest.fstests_after=TEST run, that one being the
# last with a result when the earlier boot stopped.
after=$(sed -n 's/.*atimetest\.fstests_after=\([^ ]*\).*/\1/p' /proc/cmdline)
skip=0
if [ -n "$after" ]; then
	[ -z "$only" ] || die "atimetest.fstests_after= resumes the groups' tests, not atimetest.fstests_tests="
	for ((skip = 0; skip < ${#tests[@]}; skip++)); do
		[ "${tests[$skip]}" != "$after" ] || break
	done
	[ "$skip" -lt ${#tests[@]} ] || die "atimetest.fstests_after=: '$after' is not a selected test"
	skip=$((skip + 1))
fi

test_dev=$(scratch_dev scratch1)
scratch_disk=$(scratch_dev scratch2)
release=$(. /etc/os-release && echo "${VERSION_CODENAME:-unknown}")
note "fstests kernel $(uname -r)"
# The stock kernel has the same uname -r (the same LOCALVERSION): its build
# string and the series' sysctl tell the two apart.
note "fstests build $(uname -v)"
note "fstests series $([ -e /proc/sys/fs/relatime_interval ] && echo yes || echo no)"
note "fstests commit $(cat "$xfstests/.atimectl-commit" 2>/dev/null || echo unknown)"
note "fstests release $release"
note "fstests fs $fs"
note "fstests disks $test_dev $(($(blockdev --getsize64 "$test_dev") >> 20)) MiB, $scratch_disk $(($(blockdev --getsize64 "$scratch_disk") >> 20)) MiB"
for t in "${tests[@]}"; do
	note "fstests selected $t"
done
note "fstests iterate $iterate"
note "fstests sigpipe default"
if [ -n "$after" ]; then
	note "fstests after $after"
	tests=("${tests[@]:skip}")
	[ ${#tests[@]} -gt 0 ] || die "atimetest.fstests_after=: no selected test after '$after'"
fi

# The mount points under the runner's directory: lib.sh's cleanup
# unmounts whatever a test that was killed left there.
test_dir=/run/atimectl-tests/mnt-fstests-test
scratch_mnt=/run/atimectl-tests/mnt-fstests-scratch
mkdir -p "$test_dir" "$scratch_mnt"
case $fs in
ext4) mkfs.ext4 -q -F "$test_dev" ;;
xfs) mkfs.xfs -q -f "$test_dev" ;;
btrfs) mkfs.btrfs -q -f "$test_dev" >/dev/null ;;
esac
cat >"$xfstests/local.config" <<EOF
export FSTYP=$fs
export TEST_DEV=$test_dev
export TEST_DIR=$test_dir
export SCRATCH_DEV=$scratch_disk
export SCRATCH_MNT=$scratch_mnt
EOF

# results_of XML: "NAME STATUS SECONDS" for each test case of fstests'
# xunit report, in the order they ran.
results_of() {
	awk '
		/<testcase / {
			# (" name=", not the end of "classname=")
			match($0, / name="[^"]*"/); name = substr($0, RSTART + 7, RLENGTH - 8)
			match($0, / time="[^"]*"/); time = substr($0, RSTART + 7, RLENGTH - 8)
			status = "pass"
		}
		/<skipped/ { status = "notrun" }
		/<failure/ { status = "fail" }
		/<\/testcase>/ { print name, status, (time == "" ? 0 : time) }' "$1"
}
# reason TEST STATUS: why TEST did not run (the .notrun file fstests
# writes) or how it failed (what check printed after its name), on one line.
reason() {
	case $2 in
	notrun) tr '\n\t' '  ' <"$xfstests/results/$1.notrun" 2>/dev/null | sed 's/ *$//' ;;
	# (The longest name has no padding after it: "generic/1212[failed...")
	fail) grep -m 1 -E "^$1([^0-9]|$)" "$work_out" | sed "s|^$1 *||" | tr '\t' ' ' | cut -c1-200 ;;
	esac
}
reported=0
report_new() {
	local xml=$xfstests/results/result.xml name status time line=0 why
	[ -f "$xml" ] || return 0
	while read -r name status time; do
		line=$((line + 1))
		[ "$line" -gt "$reported" ] || continue
		why=$(reason "$name" "$status")
		note "fstests result $name $status ${time}s${why:+: $why}"
	done < <(results_of "$xml")
	reported=$line
}

# fstests writes its xunit report (results/result.xml) before each test
# with the results so far, and at the end: it is read as check runs, so
# that a guest that dies or hangs in a test has reported those before it.
# check's own output goes to the console through sed -u, whole lines at
# a time, so that no note lands in the middle of one of its lines.
#
# check runs with SIGPIPE's default action, as from a login shell, where
# fstests is meant to run: the test service inherits systemd's
# IgnoreSIGPIPE=yes, and a shell cannot restore a signal ignored at its
# start.  With SIGPIPE ignored, a program that writes to a pipe whose
# reader has gone reports EPIPE in the test's output instead of dying
# quietly: generic/591's splice-test (whose reader counts the bytes it
# asked for, not those it got, and may leave early) and generic/615's
# stat loop then fail or pass by the race, on any kernel.
work_out=/run/atimectl-tests/fstests-check.out

uptime_s() { cut -d. -f1 /proc/uptime; }
# tree PID: PID and its descendants, parents first.
tree() {
	local c
	echo "$1"
	for c in $(pgrep -P "$1"); do
		tree "$c"
	done
}
# stalled TEST SECONDS: TEST has given no result for SECONDS.  Prints
# what check's processes, and any process in uninterruptible sleep, wait
# in (wchan, and the kernel stack of those in D state), and the end of
# the test's .full log; notes the hang as TEST's result; kills check
# (a process in D state dies when it wakes, if ever), and fails the
# test without unmounting anything.
stalled() {
	local t=$1 secs=$2 pids p blocked
	pids=" $(tree "$check" | tr '\n' ' ')"
	note "fstests: $t has given no result for $secs s; check's processes and those in D state:"
	ps -e -o pid=,stat=,etimes=,wchan:32=,args= | awk -v want="$pids" '
		index(want, " " $1 " ") || $2 ~ /^D/' | cut -c1-200 | sed 's/^/#   /'
	blocked=
	for p in $(ps -e -o pid=,stat= | awk '$2 ~ /^D/ { print $1 }'); do
		note "fstests: kernel stack of $p ($(cat "/proc/$p/comm" 2>/dev/null || true)):"
		sed 's/^/#   /' "/proc/$p/stack" 2>/dev/null || true
		blocked+="${blocked:+, }$(cat "/proc/$p/comm" 2>/dev/null || true) in $(cat "/proc/$p/wchan" 2>/dev/null || true)"
	done
	if [ -s "$xfstests/results/$t.full" ]; then
		note "fstests: the end of $t's log:"
		tail -n 15 "$xfstests/results/$t.full" | cut -c1-200 | sed 's/^/#   /'
	else
		note "fstests: $t has written nothing to its log ($xfstests/results/$t.full)"
	fi
	note "fstests result $t hang ${secs}s: no result in $secs s; $(echo "${blocked:-no process in D state}" | cut -c1-160)"
	# shellcheck disable=SC2086 # one pid per word
	kill -KILL $pids 2>/dev/null || true
	trap - EXIT
	die "fstests: $t hung (no result in $secs s); the run ends here: tests/fstests/run.sh --resume goes on after it"
}
cd "$xfstests" || die "cannot enter $xfstests"
total=0
for ((round = 1; round <= iterate; round++)); do
	[ "$iterate" -eq 1 ] || note "fstests round $round of $iterate"
	rm -rf results
	reported=0
	{ env --default-signal=PIPE ./check --exact-order -R xunit-quiet "${tests[@]}" 2>&1 | sed -u '' | tee "$work_out"; } &
	check=$!
	# Progress is a new result in the report, or a new line from check
	# (an fstests older than 2023.03, whose report is written only at
	# the end).  The time is the time since boot, which a move of the
	# wall clock does not change.
	since=$(uptime_s) size=0
	while kill -0 "$check" 2>/dev/null; do
		sleep 10
		was=$reported was_size=$size
		report_new
		size=$(stat -c %s "$work_out" 2>/dev/null || echo 0)
		[ "$reported" -eq "$was" ] && [ "$size" -eq "$was_size" ] || since=$(uptime_s)
		[ $(($(uptime_s) - since)) -lt "$stall" ] || [ "$reported" -ge ${#tests[@]} ] ||
			stalled "${tests[$reported]}" $(($(uptime_s) - since))
	done
	wait "$check" || true
	report_new
	[ "$reported" -eq ${#tests[@]} ] ||
		note "fstests round $round reported $reported of ${#tests[@]} tests"
	total=$((total + reported))
done
note "fstests ran ${#tests[@]} selected $iterate times, reported $total"
[ "$total" -gt 0 ] || die "fstests reported no result (its output is above)"
