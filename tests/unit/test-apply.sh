#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# "atimectl apply": nothing goes unreported.  Unparsable fstab lines, an
# unbalanced quote in the options and two mounts of one superblock asking
# for different values each get exactly one line on stderr.  Runs against
# the fixture mount table and a fake kernel tree in a temporary directory.
#
#   test-apply.sh ATIMECTL FIXTURES_DIR
set -u
ATIMECTL=${1:?usage: test-apply.sh ATIMECTL FIXTURES_DIR}
MI=${2:?usage: test-apply.sh ATIMECTL FIXTURES_DIR}/mountinfo-basic
T=$(mktemp -d /tmp/atimectl-apply-XXXXXX)
trap 'rm -rf "$T"' EXIT
read -r -a wrapper <<<"${ATIMECTL_TEST_WRAPPER:-}"
failures=0

# case NAME WANT-RC WANT-STDOUT WANT-STDERR ARGS...: a fresh fake kernel
# (8:16, 8:48 and 0:50 at -1), atimectl apply -F mountinfo-basic ARGS, and exact
# expectations.
case_() {
	local name=$1 want_rc=$2 want_out=$3 want_err=$4 rc out err d
	shift 4
	rm -rf "$T/proc" "$T/sys"
	mkdir -p "$T/proc"
	echo 86400 >"$T/proc/relatime_interval"
	for d in 8:16 8:48 0:50; do
		mkdir -p "$T/sys/$d"
		echo -1 >"$T/sys/$d/relatime_interval"
	done
	ATIMECTL_PROC_SYS_FS=$T/proc ATIMECTL_SYSFS_RELATIME=$T/sys \
		"${wrapper[@]}" "$ATIMECTL" apply -F "${mi:-$MI}" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	out=$(cat "$T/out")
	err=$(cat "$T/err")
	if [ "$rc" != "$want_rc" ] || [ "$out" != "$want_out" ] || [ "$err" != "$want_err" ]; then
		printf 'FAIL: %s\n  exit %s, want %s\n  stdout: %s\n  want:   %s\n  stderr: %s\n  want:   %s\n' \
			"$name" "$rc" "$want_rc" "$out" "$want_out" "$err" "$want_err" >&2
		failures=$((failures + 1))
	fi
}
value() { tr -d '\n' <"$T/sys/$1/relatime_interval"; }
expect_value() {	# expect_value NAME MAJ:MIN WANT
	[ "$(value "$2")" = "$3" ] || {
		echo "FAIL: $1: $2 holds $(value "$2"), want $3" >&2
		failures=$((failures + 1))
	}
}

# An unbalanced quote: libmount would drop the option without a word.
case_ "unbalanced quote in --options" 1 "" \
	"atimectl: /srv/data: cannot parse mount options 'x-relatime-interval=\"1h'" \
	-O 'x-relatime-interval="1h' /srv/data
expect_value "unbalanced quote" 8:16 -1
printf '/dev/sdb /srv/data ext4 rw,x-relatime-interval="2h 0 0\n' >"$T/fstab-quote"
case_ "unbalanced quote in fstab" 1 "" \
	"atimectl: /srv/data: cannot parse mount options 'rw,x-relatime-interval=\"2h'" \
	--fstab "$T/fstab-quote"
# Balanced quotes are fine.
case_ "quoted value" 0 "/srv/data (8:16): relatime interval 1h 30min (x-relatime-interval=1h 30min)" "" \
	-O 'rw,x-relatime-interval="1h 30min"' /srv/data

# Lines libmount cannot parse are reported; the others still apply, and
# the exit status says something was wrong.
cat >"$T/fstab-bad" <<'FSTAB'
# comment
garbage
/dev/sdb   /srv/data   ext4  x-relatime-interval=2h  0 0
/dev/sdx   /srv/x      ext4  defaults  zero 0
FSTAB
case_ "unparsable fstab lines" 1 "/srv/data (8:16): relatime interval 2h (x-relatime-interval=2h)" \
	"atimectl: $T/fstab-bad: parse error at line 2 -- ignored
atimectl: $T/fstab-bad: parse error at line 4 -- ignored" \
	--fstab "$T/fstab-bad"
expect_value "unparsable fstab lines" 8:16 7200
printf 'garbage\n' >"$T/fstab-only-bad"
case_ "only an unparsable line" 1 "" \
	"atimectl: $T/fstab-only-bad: parse error at line 1 -- ignored" --fstab "$T/fstab-only-bad"

# One rule for every bad line: an invalid value, an option string libmount
# cannot split, a line it cannot parse, a mount without a directory: the
# valid lines are applied, each bad one is reported, and apply exits 1.
cat >"$T/fstab-mixed" <<'FSTAB'
/dev/sdb   /srv/data   ext4  x-relatime-interval=2h  0 0
/dev/sdd   /mnt/stack  ext4  x-relatime-interval=fast  0 0
garbage
/dev/sde1  /mnt/with\040space  vfat  x-relatime-interval="1h  0 0
FSTAB
case_ "valid lines applied, bad ones reported" 1 "/srv/data (8:16): relatime interval 2h (x-relatime-interval=2h)" \
	"atimectl: $T/fstab-mixed: parse error at line 3 -- ignored
atimectl: /mnt/stack: invalid x-relatime-interval= value 'fast': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)
atimectl: /mnt/with space: cannot parse mount options 'x-relatime-interval=\"1h'" \
	--fstab "$T/fstab-mixed"
expect_value "valid lines applied" 8:16 7200
expect_value "bad line not applied" 8:48 -1
printf '/dev/sdb /srv/data ext4 x-relatime-interval=2h 0 0\n/dev/sde1 /mnt/with\\040space vfat x-relatime-interval=1h 0 0\n' >"$T/fstab-nodir"
case_ "a mount without a directory does not stop the others" 1 "/srv/data (8:16): relatime interval 2h (x-relatime-interval=2h)" \
	"atimectl: /mnt/with space: vfat on 8:64 has no relatime interval (no $T/sys/8:64)" \
	--fstab "$T/fstab-nodir"
expect_value "a mount without a directory does not stop the others" 8:16 7200
case_ "--options: an invalid value on one TARGET" 1 "" \
	"atimectl: /srv/data: invalid x-relatime-interval= value 'fast': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)" \
	-O x-relatime-interval=fast /srv/data
case_ "--options: one TARGET without a directory" 1 "/srv/data (8:16): relatime interval 1h (x-relatime-interval=1h)" \
	"atimectl: /mnt/with space: vfat on 8:64 has no relatime interval (no $T/sys/8:64)" \
	-O x-relatime-interval=1h /srv/data "/mnt/with space"
expect_value "--options: one TARGET without a directory" 8:16 3600

# /srv/data and /srv/bind are one superblock (8:16); /srv/bind is later in
# the mount table, so it is the more recent mount and its value wins.
cat >"$T/fstab-conflict" <<'FSTAB'
/dev/sdb          /srv/data   ext4  x-relatime-interval=2h  0 0
/srv/data/export  /srv/bind   none  bind,x-relatime-interval=1h  0 0
/dev/sdd          /mnt/stack  ext4  x-relatime-interval=10min  0 0
FSTAB
case_ "conflict" 0 "/srv/bind (8:16): relatime interval 1h (x-relatime-interval=1h)
/mnt/stack (8:48): relatime interval 10min (x-relatime-interval=10min)" \
	"atimectl: conflict on 8:16: /srv/data asks for x-relatime-interval=2h, /srv/bind for x-relatime-interval=1h; the one applied last wins: 1h" \
	--fstab "$T/fstab-conflict"
expect_value "conflict" 8:16 3600
# With a TARGET, that target is applied (it is the one applied last) and
# the other mount's different value is reported.
case_ "conflict with a TARGET" 0 "/srv/data (8:16): relatime interval 2h (x-relatime-interval=2h)" \
	"atimectl: conflict on 8:16: /srv/bind asks for x-relatime-interval=1h, /srv/data for x-relatime-interval=2h; the one applied last wins: 2h" \
	--fstab "$T/fstab-conflict" /srv/data
expect_value "conflict with a TARGET" 8:16 7200
# The same value twice is no conflict: one write, by the later mount.
printf '/dev/sdb /srv/data ext4 x-relatime-interval=1h 0 0\n/srv/data/export /srv/bind none bind,x-relatime-interval=60min 0 0\n' >"$T/fstab-same"
case_ "same value on both mounts" 0 "/srv/bind (8:16): relatime interval 1h (x-relatime-interval=60min)" "" \
	--fstab "$T/fstab-same"

# An fstab line describes the mount whose source and target it names, as
# findmnt --fstab --evaluate and libmount's mnt_table_is_fs_mounted() match
# them: another filesystem mounted on the same mount point does not take
# its value.
printf '/dev/sdb /srv/data ext4 x-relatime-interval=2h 0 0\n' >"$T/fstab-sdb"
printf '%s\n' '21 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw' \
	'40 21 0:50 / /srv/data rw,relatime - tmpfs tmpfs rw' >"$T/mi-tmpfs-over"
mi=$T/mi-tmpfs-over
case_ "fstab: another filesystem on the mount point" 0 "" "" --fstab "$T/fstab-sdb"
expect_value "fstab: another filesystem on the mount point" 0:50 -1
case_ "fstab: another filesystem on the mount point, TARGET" 0 "" "" --fstab "$T/fstab-sdb" /srv/data
expect_value "fstab: another filesystem on the mount point, TARGET" 0:50 -1
printf 'tmpfs /srv/data tmpfs x-relatime-interval=1h 0 0\n' >"$T/fstab-tmpfs"
case_ "fstab: the tmpfs line" 0 "/srv/data (0:50): relatime interval 1h (x-relatime-interval=1h)" "" \
	--fstab "$T/fstab-tmpfs"
expect_value "fstab: the tmpfs line" 0:50 3600
# /dev/sdb under a tmpfs: the line is /dev/sdb's, not the topmost mount's
printf '%s\n' '21 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw' \
	'26 21 8:16 / /srv/data rw,relatime - ext4 /dev/sdb rw' \
	'40 26 0:50 / /srv/data rw,relatime - tmpfs tmpfs rw' >"$T/mi-tmpfs-stacked"
mi=$T/mi-tmpfs-stacked
case_ "fstab: stacked, the line's own mount" 0 "/srv/data (8:16): relatime interval 2h (x-relatime-interval=2h)" "" \
	--fstab "$T/fstab-sdb"
expect_value "fstab: stacked, the line's own mount" 0:50 -1
expect_value "fstab: stacked, the line's own mount" 8:16 7200
# a bind mount of another directory is not the line's
mi=
printf '/srv/data/other /srv/bind none bind,x-relatime-interval=1h 0 0\n' >"$T/fstab-bind-other"
case_ "fstab: bind mount of another directory" 0 "" "" --fstab "$T/fstab-bind-other"
expect_value "fstab: bind mount of another directory" 8:16 -1
printf '/srv/data/export /srv/bind none bind,x-relatime-interval=1h 0 0\n' >"$T/fstab-bind"
case_ "fstab: bind mount" 0 "/srv/bind (8:16): relatime interval 1h (x-relatime-interval=1h)" "" --fstab "$T/fstab-bind"

# Names, option strings and values are shown escaped, as findmnt shows
# them, in what is applied and in every message: a newline would split a
# journal line, an ESC or CSI (UTF-8 \302\233) sequence would reach the
# terminal.  8:16 is mounted on "/srv/a<newline>b", 8:48 on "/srv/c<CSI>2J".
printf '%s\n' '21 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw' \
	'26 21 8:16 / /srv/a\012b rw,relatime - ext4 /dev/sdb rw' \
	$'29 21 8:48 / /srv/c\302\2332J rw,relatime - ext4 /dev/sdd rw' >"$T/mi-control"
mi=$T/mi-control
case_ "escaped: applied" 0 '/srv/a\x0ab (8:16): relatime interval 1h (x-relatime-interval=1h)' "" \
	-O 'x-relatime-interval=1h' 8:16
case_ "escaped: C1 control" 0 '/srv/c\xc2\x9b2J (8:48): relatime interval 1h (x-relatime-interval=1h)' "" \
	-O 'x-relatime-interval=1h' 8:48
case_ "escaped: invalid value" 1 "" \
	"atimectl: /srv/a\\x0ab: invalid x-relatime-interval= value '1h\\x1b[2J': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)" \
	-O $'x-relatime-interval=1h\e[2J' 8:16
case_ "escaped: unparsable options" 1 "" \
	"atimectl: /srv/c\\xc2\\x9b2J: cannot parse mount options 'x-relatime-interval=\"1h\\x0a'" \
	-O $'x-relatime-interval="1h\n' 8:48
case_ "escaped: nothing to do" 0 '/srv/a\x0ab: no x-relatime-interval= option, nothing to do' "" \
	-v -O rw 8:16
case_ "escaped: not mounted" 0 '/srv/x\x1b[2J: not mounted, nothing to apply' "" \
	--if-mounted -O 'x-relatime-interval=1h' $'/srv/x\e[2J'
printf '/dev/sdb /srv/a\\012b ext4 x-relatime-interval=2h 0 0\nbad\n' >"$T/fstab-control"
cp "$T/fstab-control" "$T/fstab"$'\e'"[2J"
case_ "escaped: fstab" 1 '/srv/a\x0ab (8:16): relatime interval 2h (x-relatime-interval=2h)' \
	"atimectl: $T/fstab\\x1b[2J: parse error at line 2 -- ignored" \
	--fstab "$T/fstab"$'\e'"[2J"
case_ "escaped: missing fstab" 1 "" \
	"atimectl: cannot read $T/nofstab\\x0a: No such file or directory" \
	--fstab "$T/nofstab"$'\n'
printf '/dev/sdb /srv/a\\012b ext4 x-relatime-interval=2h 0 0\n/srv/a\\012b /srv/c\302\2332J none bind,x-relatime-interval=1h 0 0\n' >"$T/fstab-control-conflict"
printf '%s\n' '21 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw' \
	'26 21 8:16 / /srv/a\012b rw,relatime - ext4 /dev/sdb rw' \
	$'29 21 8:16 / /srv/c\302\2332J rw,relatime - ext4 /dev/sdb rw' >"$T/mi-control-bind"
mi=$T/mi-control-bind
case_ "escaped: conflict" 0 '/srv/c\xc2\x9b2J (8:16): relatime interval 1h (x-relatime-interval=1h)' \
	'atimectl: conflict on 8:16: /srv/a\x0ab asks for x-relatime-interval=2h, /srv/c\xc2\x9b2J for x-relatime-interval=1h; the one applied last wins: 1h' \
	--fstab "$T/fstab-control-conflict"
mi=

[ "$failures" -eq 0 ] && echo "all apply cases passed"
[ "$failures" -eq 0 ]
