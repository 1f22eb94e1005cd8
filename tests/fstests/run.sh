#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run fstests' read-path groups (rw, mmap, aio, copy_range, io_uring,
# splice, atime, each intersected with quick) on the patched kernel and on
# the unpatched kernel of the same base and configuration, on ext4, xfs
# and btrfs, and report the tests whose result differs.  A command to run
# by hand (hours under TCG), not part of scripts/test.sh or CI.
#
#   tests/fstests/run.sh --src DIR --base 6.1|6.12|7.3 [--fs "ext4 xfs btrfs"]
#                        [--kernel patched|stock|both] [--out FILE]
#                        [--timeout SEC] [--stall SEC] [--jobs N]
#                        [--tests "generic/591 ..." [--iterate N] | --resume]
#
#   --src DIR      an fstests source tree (required), e.g.
#                    git clone https://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git
#                  or its GitHub mirror, kdave/xfstests; built inside the
#                  image (scripts/build-image.sh --fstests DIR), never on
#                  the host
#   --base B       the kernel base (required)
#   --fs LIST      the filesystems, among ext4, xfs and btrfs (default all three)
#   --kernel K     boot the patched kernel, the stock one or both (default
#                  both); the other column comes from an earlier run
#   --out FILE     the table (default bench/fstests/fstests-B.tsv)
#   --timeout SEC  the time limit of each guest (default 21600, 6 hours)
#   --stall SEC    a test that gives no result for SEC seconds (default
#                  1200) is a hang: the guest prints what its processes
#                  wait in, records "hang" as the test's result and stops
#                  there (tests/vm/t/fstests.sh); --resume goes on after it
#   --jobs N       guests booted at a time (default 2: each runs TCG on one
#                  host thread, as scripts/test.sh's ATIMECTL_VM_JOBS)
#   --tests LIST   a rerun: these tests only (fstests names, such as
#                  generic/591), to tell a flaky test from a defect; the
#                  table is left alone, and the counts of each result per
#                  test and kernel are printed
#   --iterate N    with --tests: run them N times in each guest (default 1)
#   --resume       go on with a run whose guests stopped before the end
#                  (their --timeout, or their QEMU killed): each guest runs
#                  the tests after the last one with a result, and its
#                  results join the earlier ones; a guest that finished
#                  earlier is not booted again.  Refused when the fstests
#                  commit, the release or the kernel (its bzImage's
#                  sha256) is not the earlier boot's.
#
# Missing kernels are built first (kernel/build.sh --base B, and --stock),
# then the fstests image of the base's release; N guests at a time boot
# the "fstests" suite (tests/vm/t/fstests.sh) with 8 GB scratch disks.
# Each boot's results are kept in build/fstests/B/KERNEL-FS.results
# (ATIMECTL_FSTESTS_DIR/B/..., when that is set), and
# the table is made of all those of this base, fstests commit and
# release, so that a run of one kernel or filesystem keeps the others'
# results.  The table: comment lines (the base, the release, the fstests
# commit, each run's kernel, build and date), then "test fs stock patched" rows,
# tab-separated, each cell pass, fail, hang, "notrun: REASON", "none" (selected,
# but the guest stopped before its result) or "-" (not run on that kernel).
#
# Prints the rows whose results differ.  Exit status 1 when a test fails
# (or has no result) on the patched kernel and passes on the stock one,
# or hangs on the patched kernel and not on the stock one,
# or when a guest of this run did not finish; 2 for bad arguments, with
# nothing built or written (also when --resume finds no earlier run of
# the kernels and filesystems it is given).  A rerun (--tests) keeps its guests' notes in
# build/fstests/B/KERNEL-FS-rerun.results and exits 1 only when a guest
# did not finish.
set -euo pipefail

prog=tests/fstests/run.sh
top=$(cd "$(dirname "$0")/../.." && pwd)
usage() { echo "$prog: $*" >&2; echo "usage: $prog --src DIR --base 6.1|6.12|7.3 [--fs \"ext4 xfs btrfs\"] [--kernel patched|stock|both] [--out FILE] [--timeout SEC] [--stall SEC] [--jobs N] [--tests \"T ...\" [--iterate N] | --resume]" >&2; exit 2; }
die() { echo "$prog: $*" >&2; exit 1; }
log() { printf '[fstests] %s\n' "$*" >&2; }

src=
base=
fslist="ext4 xfs btrfs"
which=both
out=
timeout=21600
stall=1200
jobs=2
only=
only_given=
iterate=
resume=
while [ $# -gt 0 ]; do
	case $1 in
	--src)
		[ $# -ge 2 ] && [ -n "$2" ] || usage "--src needs a directory"
		src=$2; shift ;;
	--base)
		[ $# -ge 2 ] && [ -n "$2" ] || usage "--base needs a value"
		base=$2; shift ;;
	--fs)
		[ $# -ge 2 ] || usage "--fs needs one or more of ext4, xfs, btrfs"
		fslist=$2; shift ;;
	--kernel)
		[ $# -ge 2 ] || usage "--kernel needs patched, stock or both"
		which=$2; shift ;;
	--out)
		[ $# -ge 2 ] && [ -n "$2" ] || usage "--out needs a file"
		out=$2; shift ;;
	--timeout)
		[ $# -ge 2 ] || usage "--timeout needs seconds"
		timeout=$2; shift ;;
	--stall)
		[ $# -ge 2 ] || usage "--stall needs seconds"
		stall=$2; shift ;;
	--jobs)
		[ $# -ge 2 ] || usage "--jobs needs a number"
		jobs=$2; shift ;;
	--tests)
		[ $# -ge 2 ] || usage "--tests needs fstests names, such as generic/591"
		only=$2 only_given=1; shift ;;
	--iterate)
		[ $# -ge 2 ] || usage "--iterate needs a number"
		iterate=$2; shift ;;
	--resume) resume=1 ;;
	-h|--help) sed -n '4,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown argument '$1'" ;;
	esac
	shift
done
[ -n "$src" ] || usage "--src is required (an fstests tree: git clone https://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git)"
[ -n "$base" ] || usage "--base is required"
. "$top/kernel/bases.sh"
check_base "$prog" "$base"
[ -x "$src/check" ] && [ -d "$src/tests" ] ||
	usage "--src: '$src' is not an fstests tree (no check script and tests/ directory)"
src=$(cd "$src" && pwd)
[ -n "$(echo "$fslist" | tr -d ' ')" ] || usage "--fs needs one or more of ext4, xfs, btrfs"
seen=" "
for fs in $fslist; do
	case $fs in
	ext4 | xfs | btrfs) ;;
	*) usage "--fs: unknown filesystem '$fs' (ext4, xfs or btrfs)" ;;
	esac
	case $seen in *" $fs "*) usage "--fs: '$fs' named twice" ;; esac
	seen+="$fs "
done
case $which in
both) kernels="stock patched" ;;
patched | stock) kernels=$which ;;
*) usage "--kernel must be patched, stock or both, not '$which'" ;;
esac
[[ $timeout =~ ^[1-9][0-9]*$ ]] || usage "--timeout takes seconds (a number from 1), not '$timeout'"
[[ $stall =~ ^[1-9][0-9]*$ ]] || usage "--stall takes seconds (a number from 1), not '$stall'"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || usage "--jobs takes a number of guests (from 1), not '$jobs'"
if [ -n "$only_given" ]; then
	read -r -a only_list <<<"${only//,/ }"
	[ ${#only_list[@]} -gt 0 ] || usage "--tests needs fstests names, such as generic/591"
	for t in "${only_list[@]}"; do
		[[ $t =~ ^[a-z0-9]+/[0-9]+$ ]] || usage "--tests: '$t' is not an fstests name (such as generic/591)"
	done
	for t in "${only_list[@]}"; do
		[ -f "$src/tests/$t" ] || usage "--tests: no test '$t' in $src/tests"
	done
	only=${only_list[*]}
	[ -z "$out" ] || usage "--out: a rerun (--tests) writes no table"
fi
if [ -n "$iterate" ]; then
	[ -n "$only_given" ] || usage "--iterate needs --tests"
	[[ $iterate =~ ^[1-9][0-9]*$ ]] || usage "--iterate takes a number of rounds (from 1), not '$iterate'"
fi
iterate=${iterate:-1}
[ -z "$resume" ] || [ -z "$only_given" ] ||
	usage "--resume goes on with a run of the groups, not with a rerun (--tests)"
out=${out:-$top/bench/fstests/fstests-$base.tsv}
case $out in /*) ;; *) out=$PWD/$out ;; esac
[ ! -d "$out" ] || usage "--out: '$out' is a directory"
[ -d "$(dirname "$out")" ] || [ "$out" = "$top/bench/fstests/fstests-$base.tsv" ] ||
	usage "--out: no directory '$(dirname "$out")'"

cd "$top"
release=$(base_release "$base")
raw=${ATIMECTL_FSTESTS_DIR:-build/fstests}/$base
if [ -n "$resume" ]; then
	found=
	for fs in $fslist; do
		for k in $kernels; do
			[ ! -f "$raw/$k-$fs.results" ] || found=1
		done
	done
	[ -n "$found" ] || usage "--resume: no earlier run on base $base to go on with (${raw}/KERNEL-FS.results)"
fi
mkdir -p "$raw"
# Two runs on one base would boot into and assemble from the same files.
exec 8>"$raw/.lock"
flock -n 8 || die "another $prog is running on base $base (${raw}/.lock)"
commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
field() { sed -n "s/^$2 //p" "$1" | head -n 1; }
kdir=build/kernel/$base
kernel_of() { if [ "$1" = stock ]; then echo "$kdir/bzImage-stock"; else echo "$kdir/bzImage"; fi; }

# --resume: what each guest goes on from.  after[K-FS] is the last test
# with a result, whose successors the guest runs; finished[K-FS] says that
# guest has nothing left.  The earlier results stay in K-FS.results
# until the new boot's join them.
declare -A after=() finished=()
if [ -n "$resume" ]; then
	for fs in $fslist; do
		for k in $kernels; do
			f=$raw/$k-$fs.results
			if [ ! -f "$f" ]; then
				log "$k, $fs: no earlier run (${f}): it runs whole"
				continue
			fi
			if [ "$(field "$f" complete)" = yes ]; then
				log "$k, $fs: finished earlier; not booted again"
				finished[$k-$fs]=1
				continue
			fi
			[ "$(field "$f" commit)" = "$commit" ] ||
				usage "--resume: $f is of fstests $(field "$f" commit), not $commit"
			[ "$(field "$f" release)" = "$release" ] ||
				usage "--resume: $f was made on $(field "$f" release), not $release"
			sum=$(field "$f" kernel-sha256)
			[ -n "$sum" ] ||
				usage "--resume: $f does not say which kernel it ran (no kernel-sha256 line): run it again without --resume"
			[ -f "$(kernel_of "$k")" ] && [ "$(sha256sum <"$(kernel_of "$k")" | cut -d' ' -f1)" = "$sum" ] ||
				usage "--resume: $(kernel_of "$k") is not the kernel $f ran: run it again without --resume"
			# The results must be the selection's first tests, in the order
			# they run (the guest sorts its selection, and check runs
			# it in that order).
			if ! awk 'FNR == NR { sel[++n] = $2; next } $1 == "result" { if ($2 != sel[++r]) bad = 1 }
				END { exit bad || r > n }' <(grep '^selected ' "$f" | LC_ALL=C sort) "$f"; then
				usage "--resume: the results in $f are not the first of its selected tests: run it again without --resume"
			fi
			last=$(sed -n 's/^result \([^ ]*\) .*/\1/p' "$f" | tail -n 1)
			if [ -z "$last" ]; then
				log "$k, $fs: no result yet: it runs whole"
				continue
			fi
			if [ "$(grep -c '^result ' "$f")" -eq "$(grep -c '^selected ' "$f")" ]; then
				log "$k, $fs: every selected test has a result, though the guest did not finish; not booted again"
				finished[$k-$fs]=1
				continue
			fi
			after[$k-$fs]=$last
			log "$k, $fs: goes on after $last ($(grep -c '^result ' "$f") of $(grep -c '^selected ' "$f") tests have a result)"
		done
	done
fi

# The kernels: built when missing only (kernel/build.sh rebuilds what the
# series changed; run it first after changing a patch).
for k in $kernels; do
	case $k in
	patched) [ -f "$kdir/bzImage" ] || bash kernel/build.sh --base "$base" ;;
	stock) [ -f "$kdir/bzImage-stock" ] || bash kernel/build.sh --base "$base" --stock ;;
	esac
done
# A difference between kernels of two configurations is a difference of
# configurations: compare them, the series' own symbols aside (bench/run.sh
# refuses such a pair for the same reason).
if [ -f "$kdir/bzImage.config" ] && [ -f "$kdir/bzImage-stock.config" ]; then
	own=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' kernel/config/atime.config | paste -sd'|' -)
	differs=$(diff <(grep -E '^CONFIG_' "$kdir/bzImage.config" | grep -v -E "^($own)=" | sort) \
		<(grep -E '^CONFIG_' "$kdir/bzImage-stock.config" | grep -v -E "^($own)=" | sort) |
		sed -n 's/^[<>] \(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' | sort -u | paste -sd' ' - || true)
	[ -z "$differs" ] ||
		die "$kdir/bzImage-stock was built with another configuration than $kdir/bzImage ($differs): rebuild it with kernel/build.sh --base $base --stock"
fi

log "image: scripts/build-image.sh --release $release --fstests $src ($commit)"
bash scripts/build-image.sh --release "$release" --fstests "$src"
image=build/image-fstests-$release/image.cpio

# boot KERNEL FS: one guest, its notes kept in $raw/KERNEL-FS.results
# (KERNEL-FS-rerun.results for a rerun).
rerun=${only:+-rerun}
incomplete=()
boot() {
	local k=$1 fs=$2 kernel name=$1-$2$rerun notes from start complete unchecked
	local from_test=${after[$1-$2]:-} earlier=$raw/$1-$2.results results
	kernel=$(kernel_of "$k")
	log "booting $k ($kernel), $fs${from_test:+, after $from_test}: up to $timeout s"
	start=$(date +%s)
	# Quiet for as long as one test runs: check prints a test's line when
	# it ends, and the guest its result on the next poll.  A test silent
	# for --stall seconds is the guest's to report; --idle is the last
	# resort, for a guest that cannot.
	bash scripts/vm.sh --base "$base" --release "$release" --kernel "$kernel" \
		--image "$image" --suite fstests --scratch-size 8G \
		--timeout "$timeout" --idle $((stall + 600 > 3600 ? stall + 600 : 3600)) \
		--results "$raw/$name.tap" --console "$raw/$name.console" \
		-- "atimetest.fstests_fs=$fs" "atimetest.test_timeout=$timeout" "atimetest.fstests_stall=$stall" \
		${only:+"atimetest.fstests_tests=${only// /,}" "atimetest.fstests_iterate=$iterate"} \
		${from_test:+"atimetest.fstests_after=$from_test"} </dev/null ||
		log "the guest of $k, $fs did not finish (console: $raw/$name.console)"
	# The results file once the guest finished (its notes, whole);
	# otherwise what the console caught as the tests ran.
	# (The runner keeps all the notes of a passing test, only the last
	# 80 lines of a failing one.)
	from=$raw/$name.tap
	complete=yes
	if ! grep -q '^# atimectl: done' "$from" 2>/dev/null ||
		! grep -q '^ok [0-9]* fstests\.sh' "$from"; then
		from=$raw/$name.console
		complete=no
	fi
	notes=$(tr -d '\r' <"$from" 2>/dev/null | sed -n 's/.*# fstests \([a-z]* .*\)$/\1/p' || true)
	notes+=$'\n'"complete $complete"
	# The runner's last check: a BUG, WARNING or Oops in the kernel log
	# (fstests fails the test that caused one; this also sees the rest).
	if grep -q '^not ok [0-9]* kernel log has no BUG' "$raw/$name.tap" 2>/dev/null; then
		notes+=$'\n'"kernel-log reports"
	fi
	# A guest stopped before that check: its kernel log was never read
	# (the console has only what loglevel=4 lets through).
	unchecked=0
	grep -q '^\(not \)\{0,1\}ok [0-9]* kernel log has no BUG' "$raw/$name.tap" 2>/dev/null || unchecked=1
	grep -qx "fs $fs" <<<"$notes" || die "the guest of $k, $fs reported no fstests run (see $raw/$name.console)"
	case $k:$(sed -n 's/^series //p' <<<"$notes") in
	patched:yes | stock:no) ;;
	*) die "the $k kernel $kernel has $( [ "$k" = stock ] && echo 'the series' || echo 'no series'): not the kernel to compare" ;;
	esac
	grep -qx "after ${from_test:-}" <<<"$notes" || [ -z "$from_test" ] ||
		die "the guest of $k, $fs did not go on after $from_test (see $raw/$name.console)"
	notes+=$'\n'"kernel-sha256 $(sha256sum <"$kernel" | cut -d' ' -f1)"
	if [ -n "$from_test" ]; then
		# The earlier boots' results, date, time and reports join these.
		# (Every earlier boot was stopped, or this one would not be: a
		# file without an unchecked-boots line has its boots count.)
		notes=$(grep -v '^result ' <<<"$notes"; grep '^result ' "$earlier"; grep '^result ' <<<"$notes" || true)
		! grep -qx 'kernel-log reports' "$earlier" || grep -qx 'kernel-log reports' <<<"$notes" ||
			notes+=$'\n'"kernel-log reports"
		results=$(printf '%s\nboots %s\nunchecked-boots %s\ndate %s\nseconds %s\n' "$notes" \
			$(( $(field "$earlier" boots | grep . || echo 1) + 1 )) \
			$(( $(field "$earlier" unchecked-boots | grep . || field "$earlier" boots | grep . || echo 1) + unchecked )) \
			"$(field "$earlier" date)" $(( $(field "$earlier" seconds) + $(date +%s) - start )))
	else
		results=$(printf '%s\nboots 1\nunchecked-boots %s\ndate %s\nseconds %s\n' "$notes" "$unchecked" \
			"$(date -u +%Y-%m-%d)" "$(( $(date +%s) - start ))")
	fi
	# (Replaced only now: a boot that fails leaves the earlier results.)
	printf '%s\n' "$results" >"$raw/$name.results.new"
	mv "$raw/$name.results.new" "$raw/$name.results"
	log "$k, $fs: $(grep -c '^result ' "$raw/$name.results") results in $(( $(date +%s) - start ))s"
}
# Up to $jobs guests at a time, each boot in a subshell of its own: what
# one found is in its .results file ("complete no" when it did not
# finish), and a boot that cannot be compared fails the run.
for fs in $fslist; do
	for k in $kernels; do
		if [ -n "${after[$k-$fs]:-}" ]; then
			# Each earlier boot's console and TAP are kept, as
			# K-FS.console.N and K-FS.tap.N, N from 1 in the order
			# the boots were made (failed ones included).
			b=1
			while [ -e "$raw/$k-$fs.console.$b" ] || [ -e "$raw/$k-$fs.tap.$b" ]; do
				b=$((b + 1))
			done
			! [ -f "$raw/$k-$fs.console" ] || mv "$raw/$k-$fs.console" "$raw/$k-$fs.console.$b"
			! [ -f "$raw/$k-$fs.tap" ] || mv "$raw/$k-$fs.tap" "$raw/$k-$fs.tap.$b"
		elif [ -z "${finished[$k-$fs]:-}" ]; then
			rm -f "$raw/$k-$fs$rerun.results"
		fi
	done
done
pids=() names=()
for fs in $fslist; do
	for k in $kernels; do
		[ -z "${finished[$k-$fs]:-}" ] || continue
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n || true
		done
		boot "$k" "$fs" &
		pids+=("$!") names+=("$k-$fs$rerun")
	done
done
failed=()
for i in "${!pids[@]}"; do
	wait "${pids[$i]}" || failed+=("${names[$i]}")
done
[ ${#failed[@]} -eq 0 ] || die "no results to compare from: ${failed[*]} (see the messages above)"
for n in "${names[@]}"; do
	! grep -qx 'complete no' "$raw/$n.results" || incomplete+=("$n")
done
# finish RC: exit with RC, or 1 when a guest of this run did not finish.
finish() {
	if [ ${#incomplete[@]} -gt 0 ]; then
		echo "$prog: guests that did not finish: ${incomplete[*]} (${raw}/*.console)" >&2
		exit 1
	fi
	exit "$1"
}

# A rerun: how often each test had each result, per filesystem and kernel.
if [ -n "$rerun" ]; then
	echo "rerun of $only, $iterate rounds per guest (test fs kernel: counts of each result):"
	for n in "${names[@]}"; do
		k=${n%%-*} fs=${n#*-} fs=${fs%-rerun}
		for t in "${only_list[@]}"; do
			printf '%s\t%s\t%s\t%s\n' "$t" "$fs" "$k" "$(awk -v t="$t" -v rounds="$iterate" '
				$1 == "result" && $2 == t { n[$3]++; got++ }
				END {
					split("pass fail hang notrun", order, " ")
					for (i = 1; i <= 4; i++) {
						if (n[order[i]]) { printf "%s%s %d", sep, order[i], n[order[i]]; sep = ", " }
					}
					if (got < rounds) printf "%snone %d", sep, rounds - got
				}' "$raw/$n.results")"
		done
	done
	finish 0
fi

# The table, from every run of this base whose fstests commit and release
# are this run's.
cell() {	# cell RESULTS TEST: that run's result of TEST
	local f=$1 t=$2 line
	[ -f "$f" ] || { echo -; return; }
	line=$(grep -m 1 "^result $t " "$f" || true)
	if [ -z "$line" ]; then
		echo none
		return
	fi
	# "result TEST STATUS SECONDSs[: REASON]"
	awk -v t="$t" '{
		status = $3
		reason = $0; sub(/^[^:]*(: |$)/, "", reason)
		if (status == "notrun") print "notrun: " reason; else print status
	}' <<<"$line"
}
runs=()
for f in "$raw"/stock-ext4.results "$raw"/patched-ext4.results "$raw"/stock-xfs.results \
	"$raw"/patched-xfs.results "$raw"/stock-btrfs.results "$raw"/patched-btrfs.results; do
	[ -f "$f" ] || continue
	if [ "$(field "$f" commit)" != "$commit" ] || [ "$(field "$f" release)" != "$release" ]; then
		log "left out of the table: $f (fstests $(field "$f" commit), $(field "$f" release))"
		continue
	fi
	runs+=("$f")
done
mkdir -p "$(dirname "$out")"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
	echo "# fstests' read-path groups (rw mmap aio copy_range io_uring splice atime, each intersected with quick), base $base, image $release: $prog"
	echo "# fstests commit $commit"
	for f in "${runs[@]}"; do
		n=$(basename "$f" .results)
		echo "# run ${n#*-} ${n%%-*}: kernel $(field "$f" kernel) ($(field "$f" build)), $(field "$f" date), SIGPIPE $(field "$f" sigpipe | grep . || echo ignored), $(grep -c '^result ' "$f") results of $(grep -c '^selected ' "$f") tests, $(field "$f" seconds) s$([ "$(field "$f" boots | grep . || echo 1)" -eq 1 ] || echo " in $(field "$f" boots) boots")$([ "$(field "$f" complete)" = yes ] || echo ', guest did not finish')$([ -z "$(field "$f" kernel-log)" ] || echo ", kernel log with a BUG/WARNING report (see $raw/$n.tap*)")$(u=$(field "$f" unchecked-boots); [ "${u:-0}" -eq 0 ] || echo ", kernel log of $u stopped boot(s) not read")"
	done
	printf '# test\tfs\tstock\tpatched\n'
	for fs in ext4 xfs btrfs; do
		s=$raw/stock-$fs.results p=$raw/patched-$fs.results
		case " ${runs[*]} " in *" $s "*) ;; *) s= ;; esac
		case " ${runs[*]} " in *" $p "*) ;; *) p= ;; esac
		[ -n "$s$p" ] || continue
		cat ${s:+"$s"} ${p:+"$p"} | sed -n 's/^selected //p' | sort -u | while read -r t; do
			printf '%s\t%s\t%s\t%s\n' "$t" "$fs" "$(cell "${s:-/nonexistent}" "$t")" "$(cell "${p:-/nonexistent}" "$t")"
		done
	done
} >"$tmp"
mv "$tmp" "$out"
trap - EXIT
log "table: ${out#"$top"/} ($(grep -c -v '^#' "$out") rows)"

# The differences, and the defects among them.
diffs=$(awk -F'\t' '!/^#/ && $3 != "-" && $4 != "-" && $3 != $4' "$out")
defects=$(awk -F'\t' '!/^#/ && (($3 == "pass" && ($4 == "fail" || $4 == "none")) ||
	($4 == "hang" && $3 != "hang" && $3 != "-"))' "$out")
if [ -n "$diffs" ]; then
	printf 'results that differ (test, fs, stock, patched):\n%s\n' "$diffs"
else
	echo "no test's result differs between the stock and the patched kernel"
fi
rc=0
if [ -n "$defects" ]; then
	printf '%s: DEFECT: fails (or has no result) on the patched kernel and passes on the stock one, or hangs on the patched one only:\n%s\n' "$prog" "$defects" >&2
	rc=1
fi
finish $rc
