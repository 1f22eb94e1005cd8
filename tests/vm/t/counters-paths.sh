# What one access counts: every access path the contract lists, on every
# filesystem the project covers.  relatime_skips counts decisions, so an
# access that consults the relatime rule K times counts K skips inside the
# interval, and past it one update and K-1 skips (the first decision
# updates the atime, the later ones find it young).  K is 1 unless the
# base's multiplicity table below says otherwise; that table is what
# Documentation/ABI/testing/sysfs-fs-relatime lists.  The deltas are
# printed as a table ("# table: FS PATH INSIDE PAST", each "SKIPS UPDATES").
. /usr/lib/atimectl-tests/lib.sh
w=/run/atimectl-tests
methods="read pread readv preadv2 sendfile splice copy_file_range mmap io_uring"

# prepare M: a file f (16 KiB), a directory d, a symlink l and an
# executable x on M, each read once so its atime is newer than its mtime
# and ctime; then a one hour override.
prepare() {
	local m=$1 links=$2
	head -c 16384 /dev/urandom >"$m/f"
	mkdir "$m/d"
	touch "$m/d/entry"
	cp /usr/bin/true "$m/x"
	[ "$links" = yes ] && ln -s f "$m/l"
	sleep 0.05
	read_once "$m/f"
	read_once "$m/x"
	"$access" getdents "$m/d" >/dev/null
	[ "$links" = yes ] && "$access" readlink "$m/l"
	echo 3600 >"$(relatime_dir "$m")/relatime_interval"
}

# one FS METHOD PATH: run one access of PATH by METHOD (execve: run it).
one() {
	case $2 in
	execve) "$3" ;;
	io_uring-uncached)
		sync
		echo 3 >/proc/sys/vm/drop_caches
		"$access" io_uring "$3" 4096 ;;
	*) "$access" "$2" "$3" ;;
	esac
}

# Decisions per access where they are not one, per base: "FS METHOD K"
# (FS * for every filesystem), measured by this test.  K may be a range
# LO-HI where the count depends on the page cache: an io_uring read of
# uncached data decides once per attempt, and how many attempts the
# non-blocking read and its retries make depends on readahead.
#   sendfile, copy_file_range (where it copies): splice_direct_to_actor()
#     reads the file, then reads again at its end; on 6.1 each splice
#     read of a file decides twice, splice(2) included
#   execve: the binary and its ELF interpreter are read several times
#   io_uring-direct-dirty: ext4 and xfs decide before the non-blocking
#     O_DIRECT attempt fails over dirty page cache, and again in the retry
#   rename-through-symlink: the old and the new path both follow it
kbase=$(uname -r | cut -d- -f1 | cut -d. -f1,2)
case $kbase in
6.1) multiplicity='
* sendfile 3
* splice 2
* copy_file_range 3
* execve 7
* io_uring-uncached 1-3
* io_uring-direct-dirty 2
* rename-through-symlink 2
' ;;
6.12 | 7.3) multiplicity='
* sendfile 2
* copy_file_range 2
* execve 7
* io_uring-uncached 1-3
* io_uring-direct-dirty 2
* rename-through-symlink 2
' ;;
*) die "no multiplicity table for kernel $kbase" ;;
esac
# mult FS METHOD: the decisions one access makes, in $k (in the shell:
# it runs for most of the 150 or so checks).
mult() {
	local f meth n
	k=1
	while read -r f meth n; do
		[ "$meth" = "$2" ] || continue
		if [ "$f" = "$1" ]; then
			k=$n
			break
		fi
		[ "$f" != "*" ] || k=$n
	done <<<"$multiplicity"
	: "${k:=1}"
}
# kcheck FS M METHOD PATH: check with the multiplicity of FS and METHOD:
# one access counts "K 0" inside the interval and "K-1 1" past it; with a
# range, "LO-HI 0" and "0-(HI-1) 1", which check() takes as any count of
# skips in the range.
kcheck() {
	local k
	mult "$1" "$3"
	case $k in
	*-*) check "$1" "$2" "$3" "$4" "$k 0" "0-$((${k#*-} - 1)) 1" ;;
	*) check "$1" "$2" "$3" "$4" "$k 0" "$((k - 1)) 1" ;;
	esac
}
# matches GOT WANT: GOT ("S U") is WANT, whose S may be a range LO-HI.
matches() {
	local gs=${1% *} gu=${1#* } ws=${2% *} wu=${2#* }
	[ "$gu" = "$wu" ] || return 1
	case $ws in
	*-*) [ "$gs" -ge "${ws%-*}" ] && [ "$gs" -le "${ws#*-}" ] ;;
	*) [ "$gs" = "$ws" ] ;;
	esac
}

# check FS M METHOD PATH INSIDE PAST: the counters of M's superblock move
# by INSIDE for an access inside the interval and by PAST for one an
# interval later ("-" skips that half).
base=$(date +%s)
step=0
check() {
	local fs=$1 m=$2 method=$3 p=$4 inside=$5 past=$6 d skips updates s0 u0 got1 got2=-
	d=$(relatime_dir "$m")
	[ -d "$d" ] || die "check: no $d for $m"
	# A first access brings the atime up to the clock, so that the
	# measured one is inside the interval.
	one "$fs" "$method" "$p" >/dev/null || die "$fs $method $p failed"
	counters_in "$d"
	s0=$skips u0=$updates
	one "$fs" "$method" "$p" >/dev/null || die "$fs $method $p failed"
	counters_in "$d"
	got1="$((skips - s0)) $((updates - u0))"
	if [ "$past" != - ]; then
		step=$((step + 1))
		clock_set $((base + step * 3700))
		counters_in "$d"
		s0=$skips u0=$updates
		one "$fs" "$method" "$p" >/dev/null || die "$fs $method $p failed"
		counters_in "$d"
		got2="$((skips - s0)) $((updates - u0))"
	fi
	note "table: $fs $method inside=${got1/ /,} past=${got2/ /,}"
	matches "$got1" "$inside" ||
		mismatches+="$fs $method inside the interval: got '$got1', want '$inside'"$'\n'
	[ "$past" = - ] || matches "$got2" "$past" ||
		mismatches+="$fs $method past the interval: got '$got2', want '$past'"$'\n'
}
# Every mismatch is reported at the end, so that one run gives the table.
mismatches=
report_mismatches() {
	[ -z "$mismatches" ] && return 0
	printf 'FAIL: %s' "$mismatches" >&2
	return 1
}

# all FS M LINKS [CFR]: every path on a filesystem that keeps atime like
# ext4.  CFR is what copy_file_range counts: "reflink" on filesystems that
# share the blocks instead of reading them, which does not access the file.
all() {
	local fs=$1 m=$2 links=$3 cfr=${4:-} method
	prepare "$m" "$links"
	for method in $methods; do
		if [ "$method" = copy_file_range ] && [ "$cfr" = reflink ]; then
			check "$fs" "$m" "$method" "$m/f" "0 0" "0 0"
		else
			kcheck "$fs" "$m" "$method" "$m/f"
		fi
	done
	kcheck "$fs" "$m" getdents "$m/d"
	if [ "$links" = yes ]; then
		kcheck "$fs" "$m" readlink "$m/l"
		kcheck "$fs" "$m" follow "$m/l"
	fi
	kcheck "$fs" "$m" execve "$m/x"
}

# dirty_direct FS M: an io_uring O_DIRECT read of a file with dirty page
# cache.  The write moves mtime, so the first decision updates; ext4 and
# xfs decide before the non-blocking attempt fails with EAGAIN, and the
# blocking retry decides again.
dirty_direct() {
	local fs=$1 m=$2 s0 u0 s1 u1 k
	mult "$fs" io_uring-direct-dirty
	head -c 8192 /dev/urandom >"$m/dio"
	sync
	"$access" io_uring-direct "$m/dio" >/dev/null
	sleep 0.05
	dd if=/dev/zero of="$m/dio" bs=4096 count=1 conv=notrunc status=none
	read -r s0 u0 < <(counters "$m")
	"$access" io_uring-direct "$m/dio" >/dev/null || die "$fs io_uring-direct failed"
	read -r s1 u1 < <(counters "$m")
	note "table: $fs io_uring-direct-dirty inside=- past=$((s1 - s0)),$((u1 - u0))"
	[ "$((s1 - s0)) $((u1 - u0))" = "$((k - 1)) 1" ] ||
		mismatches+="$fs io_uring-direct-dirty: got '$((s1 - s0)) $((u1 - u0))', want '$((k - 1)) 1'"$'\n'
}

# rename_through FS M: rename(2) of L/a to L/b, L a symlink to a directory:
# each of the two path walks follows L.
rename_through() {
	local fs=$1 m=$2 s0 u0 s1 u1 k
	mult "$fs" rename-through-symlink
	mkdir "$m/rd"
	touch "$m/rd/a"
	ln -s rd "$m/L"
	sleep 0.05
	"$access" rename "$m/L/a" "$m/L/b"
	read -r s0 u0 < <(counters "$m")
	"$access" rename "$m/L/b" "$m/L/a" || die "$fs rename through a symlink failed"
	read -r s1 u1 < <(counters "$m")
	note "table: $fs rename-through-symlink inside=$((s1 - s0)),$((u1 - u0)) past=-"
	[ "$((s1 - s0)) $((u1 - u0))" = "$k 0" ] ||
		mismatches+="$fs rename-through-symlink: got '$((s1 - s0)) $((u1 - u0))', want '$k 0'"$'\n'
}

mkdir -p "$w/mnt-fs"
m=$w/mnt-fs
dev=$(scratch_dev scratch1)

mkfs.ext4 -q -F -O ^has_journal "$dev"
mount "$dev" "$m"
all ext4 "$m" yes
kcheck ext4 "$m" io_uring-uncached "$m/f"
dirty_direct ext4 "$m"
rename_through ext4 "$m"
umount "$m"

mkfs.xfs -q -f "$dev"
mount "$dev" "$m"
all xfs "$m" yes reflink
kcheck xfs "$m" io_uring-uncached "$m/f"
dirty_direct xfs "$m"
umount "$m"

mkfs.btrfs -q -f "$dev" >/dev/null
mount "$dev" "$m"
all btrfs "$m" yes reflink
kcheck btrfs "$m" io_uring-uncached "$m/f"
# A file in a subvolume reports the subvolume's device number, not the
# superblock's: the superblock's directory still counts its accesses.
btrfs subvolume create "$m/sub" >/dev/null
echo data >"$m/sub/g"
sleep 0.05
read_once "$m/sub/g"
[ "$(stat -c %d "$m/sub/g")" != "$(stat -c %d "$m/f")" ] ||
	die "btrfs subvolume file has the superblock's device number"
mult btrfs read
check btrfs "$m" read "$m/sub/g" "$k 0" -
# atimectl resolves the subvolume file to the superblock's directory.
atimectl set "$m/sub/g" 2h
expect_eq "atimectl set on a btrfs subvolume file" \
	"$(cat "$(relatime_dir "$m")/relatime_interval")" 7200
umount "$m"

mount -t tmpfs tmpfs "$m"
all tmpfs "$m" yes
umount "$m"

# vfat stores atime as a date: the stored atime of a file read today is
# today, and a read that changes nothing is neither an update nor a skip.
# Fixed at 01:00 so that no step crosses midnight.
clock_set $(( $(date -d 'today 01:00' +%s) ))
mkfs.vfat "$dev" >/dev/null
mount "$dev" "$m"
prepare "$m" no
for method in $methods; do
	check vfat "$m" "$method" "$m/f" "0 0" -
done
check vfat "$m" execve "$m/x" "0 0" -
# The root directory's times are fixed at 0: relatime always says
# "update", fat_update_time() ignores it.  Ten listings change nothing.
for i in 1 2 3 4 5 6 7 8 9 10; do
	check vfat "$m" getdents "$m" "0 0" -
done
umount "$m"
clock_set $((base + step * 3700))

# overlayfs over tmpfs layers.  The overlay's own directory decides and
# counts; an update of a file with an upper copy is passed to the upper
# file through overlayfs' private upper mount and counted there too.
o=$w/mnt-ovl
mkdir -p "$o"
mount -t tmpfs tmpfs "$m"
mkdir "$m/lower" "$m/upper" "$m/work"
echo lower >"$m/lower/lf"
mkdir "$m/lower/ld"
ln -s lf "$m/lower/ll"
sleep 0.05
read_once "$m/lower/lf"
"$access" getdents "$m/lower/ld" >/dev/null
"$access" readlink "$m/lower/ll"
mount -t overlay overlay -o "lowerdir=$m/lower,upperdir=$m/upper,workdir=$m/work" "$o"
echo 3600 >"$(relatime_dir "$o")/relatime_interval"
# Lower-only: a regular file's reads do not touch atime at all; a
# directory or symlink is decided by the overlay, and an update, which
# overlayfs cannot apply without an upper inode, changes nothing: ten
# listings of the directory past the interval count nothing.
check overlay-lower "$o" getdents "$o/ld" "1 0" "0 0"
for i in 1 2 3 4 5 6 7 8 9 10; do
	check overlay-lower "$o" getdents "$o/ld" "0 0" -
done
check overlay-lower "$o" readlink "$o/ll" "0 0" "0 0"
check overlay-lower "$o" read "$o/lf" "0 0" "0 0"
check overlay-lower "$o" mmap "$o/lf" "0 0" "0 0"
prepare "$o" yes
# copy_file_range is passed to the upper files, opened O_NOATIME.
for method in $methods; do
	if [ "$method" = copy_file_range ]; then
		check overlay "$o" "$method" "$o/f" "0 0" "0 0"
	else
		kcheck overlay "$o" "$method" "$o/f"
	fi
done
kcheck overlay "$o" execve "$o/x"
kcheck overlay "$o" readlink "$o/l"
# atimectl resolves an overlay file, whose device number is the upper
# layer's, to the overlay's directory.
atimectl set "$o/f" 2h
expect_eq "atimectl set on an overlay file" \
	"$(cat "$(relatime_dir "$o")/relatime_interval")" 7200
[ "$(cat "$(relatime_dir "$m")/relatime_interval")" = -1 ] ||
	die "atimectl set on an overlay file changed the upper filesystem"
echo 3600 >"$(relatime_dir "$o")/relatime_interval"
# The upper filesystem sees the overlay's update of f once, and no skip.
read -r s0 u0 < <(counters "$m")
step=$((step + 1)); clock_set $((base + step * 3700))
"$access" read "$o/f"
read -r s1 u1 < <(counters "$m")
expect_eq "upper tmpfs after an overlay update" "$((s1 - s0)) $((u1 - u0))" "0 1"
umount "$o"
umount "$m"

# FUSE: fuse2fs on the second scratch disk.  FUSE keeps atime in its
# daemon: the kernel marks every FUSE inode S_NOATIME, so no access is a
# candidate for an update and none is counted.
dev2=$(scratch_dev scratch2)
mkfs.ext4 -q -F -O ^has_journal "$dev2"
fuse2fs "$dev2" "$m" >/dev/null
findmnt -n -o FSTYPE "$m" | grep -q fuse || die "fuse2fs did not mount $m"
prepare "$m" yes
for method in $methods getdents readlink follow execve; do
	case $method in
	getdents) p=$m/d ;; readlink|follow) p=$m/l ;; execve) p=$m/x ;; *) p=$m/f ;;
	esac
	read -r s0 u0 < <(counters "$m")
	one fuse "$method" "$p" >/dev/null || die "fuse $method failed"
	read -r s1 u1 < <(counters "$m")
	note "table: fuse $method inside=$((s1 - s0)),$((u1 - u0)) past=-"
	[ "$((s1 - s0)) $((u1 - u0))" = "0 0" ] ||
		mismatches+="fuse $method: got '$((s1 - s0)) $((u1 - u0))', want '0 0'"$'\n'
done
umount "$m"
report_mismatches
