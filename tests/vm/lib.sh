# Helpers for the in-guest tests.  Each test sources this file, runs with
# "set -eu", and fails with a message through die() or an expect_* helper.
set -eu
shopt -s inherit_errexit

die() { echo "FAIL: $*" >&2; exit 1; }

# Every wait for something done in the background (systemd, its units and
# generators, the journal, udev) has the same bound: 60 s, polled every
# 0.1 s, so wait_polls polls.  (A short bound held until the guest ran
# beside kernel builds.)
wait_polls=600
skip() { echo "$*"; exit 77; }
note() { echo "# $*"; }

expect_eq() {	# expect_eq WHAT GOT WANT
	[ "$2" = "$3" ] || die "$1: got '$2', want '$3'"
}

expect_fail() {	# expect_fail WHAT COMMAND...: the command must fail
	local what=$1
	shift
	if "$@" 2>/dev/null; then
		die "$what: '$*' succeeded, should have failed"
	fi
}

# wait_gone PATH: wait up to 60s (wait_polls) until PATH does not exist;
# fails if it stays.
wait_gone() {
	local i
	for ((i = 0; i < wait_polls; i++)); do
		[ -e "$1" ] || return 0
		sleep 0.1
	done
	return 1
}

# Scratch disks attached by scripts/vm.sh: /dev/disk/by-id/virtio-scratch1, 2.
scratch_dev() {
	local dev=/dev/disk/by-id/virtio-$1
	udevadm settle 2>/dev/null || true
	[ -b "$dev" ] || die "scratch disk $1 missing ($dev)"
	readlink -f "$dev"
}

# mkfs_scratch NAME [mkfs.ext4 options...]: a fresh ext4 without a journal
# unless asked, so atime updates are the only writes a read can cause.
mkfs_scratch() {
	local dev
	dev=$(scratch_dev "$1")
	shift
	mkfs.ext4 -q -F -O ^has_journal "$@" "$dev" >/dev/null
	echo "$dev"
}

atime() { stat -c %X "$1"; }
majmin() { stat -c '%Hd:%Ld' "$1"; }

# Move the clock.  The runner sets it right again after the test.
clock_set() {	# clock_set EPOCH
	: >/run/atimectl-tests/clock-moved
	date -s "@$1" >/dev/null
}

read_file() { cat "$1" >/dev/null; }

# journal_mark: where the journal stands, as the monotonic time (in
# microseconds) of its newest entry; journal_since MARK [journalctl
# options...]: the messages of this boot logged after MARK, as
# "journalctl -o cat" prints them.  Both go by the monotonic clock, which
# no test moves: what was logged while a test had the wall clock hours or
# days ahead would match a --since of any later time.  (--after-cursor
# would do, but with a match such as -t it returns nothing on systemd 252.)
journal_mark() {
	journalctl --no-pager -b -n 1 -o export | sed -n 's/^__MONOTONIC_TIMESTAMP=//p'
}
journal_since() {
	local mark=$1
	shift
	[ -n "$mark" ] || die "journal_since: no mark (is the journal empty?)"
	# "[ SECONDS.MICROSECONDS] HOST IDENTIFIER[PID]: MESSAGE", and a
	# multi-line message's further lines indented.
	journalctl --no-pager -q -b -o short-monotonic "$@" | awk -v mark="$mark" '
		/^\[ *[0-9]+\.[0-9]+\] / {
			split(substr($0, 2, index($0, "]") - 2), t, ".")
			keep = t[1] * 1000000 + t[2] > mark + 0
			if (keep) {
				msg = substr($0, index($0, "] ") + 2)
				sub(/^[^ ]+ /, "", msg)
				sub(/^[^:]*: /, "", msg)
				print msg
			}
			next
		}
		keep'
}

# Block-layer write requests completed on DEV so far (field 5 of stat).
writes() { awk '{ print $5 }' "/sys/block/$(basename "$1")/stat"; }

# mount_scratch NAME [mount options]: fresh ext4 on scratch disk NAME,
# mounted on a new directory that is printed; unmounted when the test ends.
mount_scratch() {
	local name=$1 dev mnt
	shift
	dev=$(mkfs_scratch "$name" -E lazy_itable_init=0,lazy_journal_init=0)
	mnt=/run/atimectl-tests/mnt-$name
	mkdir -p "$mnt"
	mount "$@" "$dev" "$mnt"
	echo "$mnt"
}

cleanup_mounts() {
	local m
	for m in /run/atimectl-tests/mnt-*; do
		mountpoint -q "$m" 2>/dev/null && umount -R "$m"
	done
	return 0
}
trap cleanup_mounts EXIT

# Set a sysctl for the rest of the test; the old value comes back on exit.
saved_sysctls=
sysctl_set() {	# sysctl_set NAME VALUE
	local f=/proc/sys/${1//.//}
	# Newest first, so that restoring in order ends with the oldest value.
	saved_sysctls="$f=$(cat "$f") $saved_sysctls"
	echo "$2" >"$f"
	trap 'restore_sysctls; cleanup_mounts' EXIT
}
restore_sysctls() {
	local kv
	for kv in $saved_sysctls; do
		echo "${kv#*=}" >"${kv%%=*}"
	done
}

# fresh_file PATH: a file whose atime is later than its mtime and ctime,
# so that only the interval decides the next update.  (touch -a would set
# ctime along with atime; a read updates atime alone.)  Compared to the
# nanosecond, strictly: equal times, or whole seconds (equal at creation),
# would leave the mtime/ctime clause to decide.
fresh_file() {
	echo data >"$1"
	sleep 0.05
	read_once "$1"
	local a m c
	read -r a m c < <(stat -c '%.9X %.9Y %.9Z' "$1")
	a=${a/./} m=${m/./} c=${c/./}
	[ "$a" -gt "$m" ] && [ "$a" -gt "$c" ] ||
		die "could not prepare $1: atime $a ns is not after mtime $m and ctime $c"
}

mount_opts() { findmnt -n -o VFS-OPTIONS --target "$1"; }
has_opt() {	# has_opt MOUNTPOINT OPTION
	case ",$(mount_opts "$1")," in *,"$2",*) return 0 ;; esac
	return 1
}

# read_once FILE: exactly one read(2) of FILE, so exactly one atime decision.
read_once() { dd if="$1" of=/dev/null bs=1 count=1 status=none; }

# relatime_dir PATH: the sysfs directory of the superblock PATH lives on,
# by the device number mountinfo gives its mount (btrfs and overlayfs
# files report other device numbers to stat).
relatime_dir() {
	local mm
	mm=$(findmnt -n -o MAJ:MIN --target "$1" | tr -d ' ')
	[ -n "$mm" ] || die "relatime_dir: no mount for $1"
	echo "/sys/fs/relatime/$mm"
}
counter() {	# counter PATH NAME
	cat "$(relatime_dir "$1")/$2"
}

# expect_atime_set WHAT FILE AT: FILE's atime (in seconds) was set by a
# read made just after the clock was set to AT: it is AT, or up to 5 s
# later when a busy host delayed the read.
expect_atime_set() {
	local what=$1 f=$2 at=$3 got
	got=$(atime "$f")
	[ "$got" -ge "$at" ] && [ "$got" -le $((at + 5)) ] ||
		die "$what: atime: got '$got', want '$at' (to 5s later)"
}

# expect_read WHAT FILE EPOCH updates|keeps: move the clock to EPOCH, read
# FILE once, and check that the read set its atime to EPOCH (up to 5s
# later), or left it.
expect_read() {
	local what=$1 f=$2 at=$3 want=$4 before before_ns
	before=$(atime "$f")
	before_ns=$(stat -c %.9X "$f")
	clock_set "$at"
	read_once "$f"
	case $want in
	updates)
		# The read follows the clock's jump by a moment, but on a host
		# busy with other guests that moment can pass a second: an
		# update is a new atime (to the nanosecond: the last one may
		# be as late) from the clock set to 5s after it.
		[ "$(stat -c %.9X "$f")" != "$before_ns" ] ||
			die "$what: atime: kept '$before_ns', want an update to '$at'"
		expect_atime_set "$what" "$f" "$at"
		;;
	keeps) expect_eq "$what: atime" "$(atime "$f")" "$before" ;;
	*) die "expect_read: '$want' is neither updates nor keeps" ;;
	esac
}

# counters_in DIR: the two counters of the relatime directory DIR, in
# $skips and $updates, read by the shell itself: tests read them hundreds
# of times, and under TCG every process costs a good part of a second.
counters_in() {
	{ read -r skips <"$1/relatime_skips" && read -r updates <"$1/atime_updates"; } 2>/dev/null ||
		die "counters: cannot read the counters in $1"
	case "$skips $updates" in
	*[!0-9\ ]* | ' '* | *' ') die "counters: $1 holds '$skips' '$updates', not two numbers" ;;
	esac
}
# counters PATH: "SKIPS UPDATES" of the superblock PATH lives on.  Fails,
# printing nothing, when the directory or a counter is missing or not a
# number: "read -r s u < <(counters P)" then fails too (set -e).
counters() {
	local d skips updates
	d=$(relatime_dir "$1")
	[ -d "$d" ] || die "counters: no $d for $1"
	counters_in "$d"
	echo "$skips $updates"
}

access=/usr/lib/atimectl-tests/helpers/access

# expect_package_files WHAT: every path dpkg lists for the atimectl
# package exists, and no packaged file differs from the package's md5sums
# (dpkg --verify).
expect_package_files() {
	local f missing= verify
	while IFS= read -r f; do
		[ -e "$f" ] || [ -L "$f" ] || missing+=" $f"
	done < <(dpkg-query -L atimectl)
	[ -z "$missing" ] || die "$1: files of the package missing:$missing"
	verify=$(dpkg --verify atimectl 2>&1) && [ -z "$verify" ] ||
		die "$1: dpkg --verify atimectl: $verify"
}
