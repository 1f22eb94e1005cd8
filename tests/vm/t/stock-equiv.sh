# Stock equivalence: with nothing configured (interval 86400,
# default_relatime=1, no per-filesystem override), the patched kernel
# updates atime on exactly the accesses the unpatched kernel of the same
# base and configuration updates it on (docs/interface.md, section 0).
#
# For each filesystem and access path, a new file, directory, symlink or
# executable is put in one state, accessed exactly once, and its stored
# atime (in nanoseconds) compared before and after:
#
#   old     atime 3 days old and older than mtime and ctime
#   fresh   atime 5 minutes old and newer than mtime and ctime
#   resync  (overlayfs) a copied-up file made fresh, whose upper file's
#           mtime then moved through a shared mapping: the overlay
#           inode's own times are stale until something copies them up
#
# The table, one line per case, "FS<TAB>STATE<TAB>PATH<TAB>RESULT" with
# RESULT updated, kept or "n/a: why", sorted, is printed as "# equiv:"
# notes.  With atimetest.equiv=record on the kernel command line (the
# unpatched kernel, booted by tests/stock-equiv/record.sh) that is all;
# otherwise the table must equal the stock table recorded for the running
# base, data/stock-equiv-BASE.tsv, and every case that differs is named
# with both results.
. /usr/lib/atimectl-tests/lib.sh
access=/usr/lib/atimectl-tests/helpers/access
obj=/usr/lib/atimectl-tests/helpers/equivobj
here=/usr/lib/atimectl-tests
w=/run/atimectl-tests

mode=compare
grep -qw 'atimetest.equiv=record' /proc/cmdline && mode=record

case $(uname -r) in
6.1.*) base=6.1 ;;
6.12.*) base=6.12 ;;
7.3.*) base=7.3 ;;
*) die "kernel $(uname -r) is of no base this project supports" ;;
esac

# A base whose unpatched kernel has not been recorded yet has nothing to
# compare with: say so, as a skip that the run counts, before spending
# minutes on the cases.
data=$here/data/stock-equiv-$base.tsv
[ "$mode" = record ] || [ -f "$data" ] ||
	skip "no stock table for base $base yet: record it with tests/stock-equiv/record.sh --base $base"

# Nothing configured.  The unpatched kernel has none of the knobs; a
# kernel that has them must have them at their defaults (the suite boots
# it with invalid values for both boot parameters, which it must refuse:
# bad-boot-params.sh).
if [ "$mode" = record ]; then
	[ ! -e /proc/sys/fs/relatime_interval ] && [ ! -d /sys/fs/relatime ] ||
		die "atimetest.equiv=record on a patched kernel: the stock table must come from the unpatched one"
elif [ -e /proc/sys/fs/relatime_interval ]; then
	expect_eq "fs.relatime_interval" "$(cat /proc/sys/fs/relatime_interval)" 86400
	expect_eq "fs.default_relatime" "$(cat /proc/sys/fs/default_relatime)" 1
else
	# The unpatched kernel against its own table: how stable it is.
	note "an unpatched kernel: comparing it with its own recorded table"
fi

# The paths, each with the kind of object it accesses.
file_paths="read pread readv preadv2 preadv2-nowait preadv2-nowait-uncached
	sendfile splice splice-eof copy_file_range copy_file_range-xdev mmap
	mmap-touch io_uring io_uring-uncached noatime direct loop"
exe_paths="execve execve-e2big binfmt-interp"
all_paths="$file_paths getdents readlink follow $exe_paths"
# Each of the ~300 cases runs its steps under TCG, where every process the
# shell starts costs tens of milliseconds (most of a second on the debug
# kernel): a case's set-up is one process (helpers/equivobj, in set_up),
# and the shell functions below set variables instead of printing for a
# command substitution, and start nothing they need not.
kind() {	# kind PATH: the kind of object PATH accesses, in $kind
	case $1 in
	getdents) kind="dir" ;;
	readlink|follow) kind="link" ;;
	execve|execve-e2big|binfmt-interp) kind="exe" ;;
	*) kind="file" ;;
	esac
}

# Another filesystem, for copy_file_range-xdev (a tmpfs of its own, so it
# is another superblock than each filesystem under test, tmpfs included).
xdst=$w/mnt-xdst
mkdir -p "$xdst"
mount -t tmpfs -o size=64m tmpfs "$xdst"

# binfmt_misc, for binfmt-interp: mounted unless systemd has it already.
bm=/proc/sys/fs/binfmt_misc
mountpoint -q "$bm" || mount -t binfmt_misc binfmt_misc "$bm"
[ -w "$bm/register" ] || die "no binfmt_misc register file at $bm"
bmname=atimeequiv
loopdev=
cleanup_equiv() {
	mountpoint -q "$w/mnt-fp" && umount "$w/mnt-fp"
	[ -e "$bm/$bmname" ] && echo -1 >"$bm/$bmname"
	[ -n "$loopdev" ] && losetup -d "$loopdev"
	cleanup_mounts
}
trap cleanup_equiv EXIT

# stamps PATH: atime, mtime and ctime in nanoseconds, as integers, in $a,
# $m and $c, which the caller declares local (a global $m is the mount
# point).
stamps() {
	read -r a m c < <(stat -c '%.9X %.9Y %.9Z' "$1")
	a=${a/./} m=${m/./} c=${c/./}
}

# make_object KIND NAME: a new object of KIND at NAME, with mtime and ctime
# now (a symlink to a file NAME.target; an executable copy of true).  The
# cases make theirs with helpers/equivobj, which does this and sets the
# state in one process; this is for the overlay's lower layer.
make_object() {
	case $1 in
	file) head -c 65536 /dev/urandom >"$2" ;;
	exe) cp /usr/bin/true "$2" ;;
	*) die "make_object: no $1 in the lower layer" ;;
	esac
}

# set_up OBJECT KIND STATE NOW: with KIND (not "-"), set the clock to NOW
# - 15 min and make a new object of KIND at OBJECT; with STATE (not "-"),
# set the state by the clock and utimensat(2) alone (as touch -h -a -d
# would), not by an access of any kind, leave the clock at NOW, and set
# $before to the atime (stat's %.9X; with STATE "-", to ""):
#
#   old     atime NOW - 3 days, older than mtime and ctime
#   fresh   changed at NOW - 10 min, atime NOW - 5 min: newer than both
#   resync  fresh, then the upper file's mtime moves behind the
#           overlay's back, past the atime
#
# helpers/equivobj does the making and the fresh or old state in one
# process, and checks the state (docs in its source).
set_up() {
	local f=$1 kind=$2 state=$3 now=$4 a m c out
	: >"$w/clock-moved"
	out=$("$obj" "$now" "$kind" "${state/#resync/fresh}" "$f") ||
		die "$f: equivobj $now $kind $state failed (its message is above)"
	before=$out
	if [ "$state" = resync ]; then
		"$access" mmap-write "$f"
		stamps "$f"
		[ "$a" -lt "$m" ] ||
			die "$f: a shared mapping's store did not move its mtime past its atime"
		before=$(stat -c '%.9X' "$f")
	fi
}

uncache() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# access_once PATH OBJECT: the one access; sets $na to "n/a: ..." when the
# path does not apply here (to "" when it does), and fails on any
# unexpected error.
access_once() {
	local path=$1 f=$2 rc out
	na=
	case $path in
	*-uncached) uncache; path=${path%-uncached} ;;
	esac
	set +e
	case $path in
	execve) out=$("$f" 2>&1) ;;
	copy_file_range-xdev) out=$("$access" "$path" "$f" "$xdst" 2>&1) ;;
	loop)
		# Attached (and probed by udev) before the state was set; the
		# direct read of the device goes to the backing file.
		out=$(dd if="$loopdev" of=/dev/null bs=4096 count=1 iflag=direct status=none 2>&1) ;;
	binfmt-interp)
		# $f is the interpreter; the program it runs is beside it.
		out=$("$f.prog" 2>&1) ;;
	*) out=$("$access" "$path" "$f" 2>&1) ;;
	esac
	rc=$?
	set -e
	case $rc in
	0) ;;
	3) na=$out ;;
	*) die "$path on $f failed (exit status $rc): $out" ;;
	esac
}

# before_access PATH OBJECT TARGET: what a path needs set up before the
# state is set (whatever the setup reads must not count as the access).
# TARGET is the name the access uses: OBJECT itself, or the same file
# through FUSE passthrough.  one_case names the paths set up here, to
# call this between making the object and setting its state.
before_access() {
	case $1 in
	loop)
		loopdev=$(losetup -r -f --show "$3")
		udevadm settle
		;;
	binfmt-interp)
		printf '\177EQV not a real program\n' >"$2.prog"
		chmod +x "$2.prog"
		printf ':%s:M::\\x7fEQV::%s:F\n' "$bmname" "$3" >"$bm/register"
		grep -qx 'flags: F' "$bm/$bmname" ||
			die "binfmt_misc entry $bmname: $(tr '\n' ' ' <"$bm/$bmname")"
		;;
	esac
}
after_access() {
	case $1 in
	loop) losetup -d "$loopdev"; loopdev= ;;
	binfmt-interp) echo -1 >"$bm/$bmname" ;;
	esac
}

table=$w/equiv.tsv
: >"$table"
n=0
via=
# one_case FS DIR STATE PATH [OBJECT]: one case; OBJECT (made here if not
# given) is a new object of the path's kind in DIR.  With $via set, OBJECT
# is accessed by the same name in directory $via (FUSE passthrough), and
# its atime is OBJECT's, the backing file's.
one_case() {
	local fs=$1 dir=$2 state=$3 path=$4 f=${5:-} kind mk=- before after na now t
	kind "$path"
	n=$((n + 1))
	now=$EPOCHSECONDS
	if [ -z "$f" ]; then
		f=$dir/$kind-$n
		mk=$kind
	fi
	t=$f
	[ -z "$via" ] || t=$via/${f##*/}
	case $path in
	loop|binfmt-interp)
		# The paths before_access sets up: that comes between the
		# object and its state (one process more).
		set_up "$f" "$mk" - "$now"
		before_access "$path" "$f" "$t"
		set_up "$f" - "$state" "$now"
		;;
	*) set_up "$f" "$mk" "$state" "$now" ;;
	esac
	access_once "$path" "$t"
	after=$(stat -c '%.9X' "$f")
	after_access "$path"
	case $na in
	n/a:*) ;;
	*) na= ;;
	esac
	if [ -n "$na" ]; then
		result=$na
	elif [ "$before" = "$after" ]; then
		result=kept
	else
		result=updated
	fi
	printf '%s\t%s\t%s\t%s\n' "$fs" "$state" "$path" "$result" >>"$table"
}
na_case() {	# na_case FS STATE PATH WHY
	printf '%s\t%s\t%s\tn/a: %s\n' "$1" "$2" "$3" "$4" >>"$table"
}

# all_cases FS DIR: every path in both states on the filesystem at DIR.
all_cases() {
	local fs=$1 dir=$2 state path
	# Progress on the console, for scripts/vm.sh --idle: a filesystem's
	# cases take minutes under TCG.
	note "$fs: from case $((n + 1)), $(( $(cut -d. -f1 /proc/uptime) - start ))s in"
	for state in old fresh; do
		for path in $all_paths; do
			one_case "$fs" "$dir" "$state" "$path"
		done
	done
}

m=$w/mnt-equiv
mkdir -p "$m"
dev1=$(scratch_dev scratch1)
dev2=$(scratch_dev scratch2)
start=$(cut -d. -f1 /proc/uptime)	# the clock moves

mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev1"
mount -o strictatime "$dev1" "$m"
! has_opt "$m" relatime && ! has_opt "$m" noatime ||
	die "ext4 mounted strictatime shows $(mount_opts "$m")"
all_cases ext4-strictatime "$m"
umount "$m"
mount -o relatime "$dev1" "$m"
has_opt "$m" relatime || die "ext4 mounted relatime shows $(mount_opts "$m")"
all_cases ext4-relatime "$m"
umount "$m"

mkfs.xfs -q -f "$dev1"
mount "$dev1" "$m"
all_cases xfs "$m"
umount "$m"

mkfs.btrfs -q -f "$dev1" >/dev/null
mount "$dev1" "$m"
all_cases btrfs "$m"
umount "$m"

mount -t tmpfs -o size=256m tmpfs "$m"
all_cases tmpfs "$m"
umount "$m"

# overlayfs, its layers on ext4 (relatime), whose mmap writes move mtime
# (tmpfs's do not).  Objects made through the overlay live in the upper
# layer.  The resync cases start from files in the lower layer, copied up
# when set_up sets their atime (a setattr, which copies up).
ob=$w/mnt-ovlbase
o=$w/mnt-ovl
mkdir -p "$ob" "$o"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev2"
mount -o relatime "$dev2" "$ob"
mkdir "$ob/lower" "$ob/upper" "$ob/work"
resync_paths=
for path in $file_paths $exe_paths; do
	case $path in *-uncached|loop|binfmt-interp|noatime) continue ;; esac
	resync_paths+=" $path"
	kind "$path"
	make_object "$kind" "$ob/lower/rs-$path"
	# Older than the fresh atime the case gives it after the copy-up.
	touch -d "@$(( $(date +%s) - 7200 ))" "$ob/lower/rs-$path"
done
mount -t overlay overlay -o "lowerdir=$ob/lower,upperdir=$ob/upper,workdir=$ob/work" "$o"
all_cases overlay "$o"
note "overlay resync: from case $((n + 1)), $(( $(cut -d. -f1 /proc/uptime) - start ))s in"
for path in $resync_paths; do
	one_case overlay "$o" resync "$path" "$o/rs-$path"
	[ -f "$ob/upper/rs-$path" ] || die "overlay: rs-$path was not copied up"
done
umount "$o"
umount "$ob"

# FUSE: fuse2fs, as the counters suite uses.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev2"
fuse2fs "$dev2" "$m" >/dev/null
findmnt -n -o FSTYPE "$m" | grep -q fuse || die "fuse2fs did not mount $m"
all_cases fuse "$m"
umount "$m"
# The unmount returns before fuse2fs's daemon has exited and closed the
# device, which the next mkfs then finds in use (seen once in CI, with
# two guests at a time): wait for the daemon to go.
for ((poll = 0; poll < wait_polls; poll++)); do
	pgrep -f "fuse2fs $dev2" >/dev/null || break
	sleep 0.1
done
! pgrep -f "fuse2fs $dev2" >/dev/null || die "fuse2fs still holds $dev2 $((wait_polls / 10))s after its unmount"

# FUSE passthrough (6.9 and later): helpers/fusepass serves the files of
# an ext4 (relatime) directory with FOPEN_PASSTHROUGH; what counts is the
# backing file's atime (a FUSE inode is S_NOATIME).  It has regular files
# only, and makes none.
fp=$w/mnt-fp
mkdir -p "$fp"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev2"
mount -o relatime "$dev2" "$m"
set +e
fpout=$("$here/helpers/fusepass" "$fp" "$m" "$w/fusepass.log" 2>&1)
rc=$?
set -e
case $rc in
0)
	findmnt -n -o FSTYPE "$fp" | grep -qx fuse.fusepass || die "fusepass did not mount $fp"
	via=$fp
	note "fuse-passthrough: from case $((n + 1)), $(( $(cut -d. -f1 /proc/uptime) - start ))s in"
	for state in old fresh; do
		for path in $all_paths; do
			case $path in
			getdents|readlink|follow)
				na_case fuse-passthrough "$state" "$path" "passthrough is for regular files" ;;
			copy_file_range)
				na_case fuse-passthrough "$state" "$path" "the passthrough daemon makes no files" ;;
			*) one_case fuse-passthrough "$m" "$state" "$path" ;;
			esac
		done
	done
	via=
	umount "$fp"
	[ ! -s "$w/fusepass.log" ] || die "the passthrough server reported: $(cat "$w/fusepass.log")"
	;;
3)
	[ "$base" = 6.1 ] || die "fusepass on $base: $fpout"
	for state in old fresh; do
		for path in $all_paths; do
			na_case fuse-passthrough "$state" "$path" "no FUSE passthrough before Linux 6.9"
		done
	done
	;;
*) die "fusepass failed (exit status $rc): $fpout" ;;
esac
umount "$m"

note "$n cases in $(( $(cut -d. -f1 /proc/uptime) - start ))s ($mode, base $base, kernel $(uname -r))"
LC_ALL=C sort -o "$table" "$table"
sed 's/^/equiv: /' "$table" | while IFS= read -r line; do note "$line"; done

[ "$mode" = record ] && exit 0

set +e
diffs=$("$here/equiv-diff" "$data" "$table")
rc=$?
set -e
case $rc in
0) ;;
1)
	echo "FAIL: $(wc -l <<<"$diffs") of the cases differ from the stock $base table ($(sed -n 's/^# //p' "$data" | head -n 1)):" >&2
	echo "$diffs" >&2
	exit 1
	;;
*) die "equiv-diff could not compare with $data: $diffs" ;;
esac
note "all $(wc -l <"$table") cases as on the stock $base kernel"
