#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# "atimectl apply --changes", what atimectl-apply.path runs when utab
# changes: a mount's x-relatime-interval= is applied (or reported) once,
# when the mount appears or a remount changes the value; a value set by
# hand since stays; a kernel without the patches gets one line per mount
# and no failure.  A fake kernel tree, a mount table (-F), a utab
# ($LIBMOUNT_UTAB) and a state file ($ATIMECTL_APPLIED) in a temporary
# directory.
#
#   test-apply-changes.sh ATIMECTL FIXTURES_DIR
set -u
ATIMECTL=${1:?usage: test-apply-changes.sh ATIMECTL FIXTURES_DIR}
MI=${2:?usage: test-apply-changes.sh ATIMECTL FIXTURES_DIR}/mountinfo-basic
T=$(mktemp -d /tmp/atimectl-changes-XXXXXX)
follower=
trap '[ -z "$follower" ] || kill -9 "$follower" 2>/dev/null; rm -rf "$T"' EXIT
read -r -a wrapper <<<"${ATIMECTL_TEST_WRAPPER:-}"
failures=0

fake_kernel() {
	rm -rf "$T/proc" "$T/sys"
	mkdir -p "$T/proc"
	echo 86400 >"$T/proc/relatime_interval"
	for d in 8:16 8:48 0:25; do
		mkdir -p "$T/sys/$d"
		echo -1 >"$T/sys/$d/relatime_interval"
	done
}
utab() { printf '%s\n' "$@" >"$T/utab"; }

# run NAME WANT-RC WANT-STDOUT WANT-STDERR [ARGS...]: apply --changes ARGS
run() {
	local name=$1 want_rc=$2 want_out=$3 want_err=$4 rc out err
	shift 4
	ATIMECTL_PROC_SYS_FS=$T/proc ATIMECTL_SYSFS_RELATIME=$T/sys \
	ATIMECTL_APPLIED=$T/state/applied LIBMOUNT_UTAB=$T/utab ATIMECTL_APPLY_QUIET_MS=0 \
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
expect_value() {	# expect_value NAME MAJ:MIN WANT
	local v
	v=$(tr -d '\n' <"$T/sys/$2/relatime_interval")
	[ "$v" = "$3" ] || {
		echo "FAIL: $1: $2 holds $v, want $3" >&2
		failures=$((failures + 1))
	}
}

fake_kernel
# A new mount that declares the option: applied, once.
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=1h'
run "new mount" 0 "/srv/data (8:16): relatime interval 1h (x-relatime-interval=1h)" "" --changes
expect_value "new mount" 8:16 3600
run "nothing new" 0 "" "" --changes
# A value set by hand since stays, whatever else changes in utab.
echo 7200 >"$T/sys/8:16/relatime_interval"
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=1h' \
	'ID=25 SRC=tmpfs TARGET=/tmp ROOT=/ OPTS=x-other'
run "another utab change" 0 "" "" --changes
expect_value "set by hand stays" 8:16 7200
# A remount that changes the value applies it.
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=30min'
run "remount with a new value" 0 "/srv/data (8:16): relatime interval 30min (x-relatime-interval=30min)" "" --changes
expect_value "remount with a new value" 8:16 1800

# status says where the interval comes from: "option" while the override
# is what the mount declares, "override" once set otherwise.
origin() {
	ATIMECTL_PROC_SYS_FS=$T/proc ATIMECTL_SYSFS_RELATIME=$T/sys LIBMOUNT_UTAB=$T/utab \
		"${wrapper[@]}" "$ATIMECTL" status -F "$MI" -n -o ORIGIN "$1"
}
[ "$(origin /srv/data)" = option ] || { echo "FAIL: origin of a declared value: $(origin /srv/data)" >&2; failures=$((failures + 1)); }
echo 600 >"$T/sys/8:16/relatime_interval"
[ "$(origin /srv/data)" = override ] || { echo "FAIL: origin of a value set otherwise: $(origin /srv/data)" >&2; failures=$((failures + 1)); }
[ "$(origin /mnt/with\ space)" = global ] || { echo "FAIL: origin without an override: $(origin '/mnt/with space')" >&2; failures=$((failures + 1)); }
echo 1800 >"$T/sys/8:16/relatime_interval"

# A bad value is reported once, and the rest is applied.  (An unbalanced
# quote never reaches utab: mount(8) drops the option, see
# atimectl-generator.)
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=30min' \
	'ID=29 SRC=/dev/sdd TARGET=/mnt/stack ROOT=/ OPTS=x-relatime-interval=fast'
run "bad values" 1 "" \
	"atimectl: /mnt/stack: invalid x-relatime-interval= value 'fast': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)" --changes
expect_value "bad value" 8:48 -1
expect_value "bad value, the rest" 8:16 1800
run "bad values, said once" 0 "" "" --changes

# An unmounted mount is forgotten: mounted again (the same ID), applied again.
grep -v '^26 ' "$MI" >"$T/mi-without-26"
mi=$T/mi-without-26 run "unmounted" 0 "" "" --changes
echo -1 >"$T/sys/8:16/relatime_interval"
run "mounted again" 0 "/srv/data (8:16): relatime interval 30min (x-relatime-interval=30min)" "" --changes
expect_value "mounted again" 8:16 1800

# A block device unmounted and mounted again between two runs: the same
# MAJ:MIN, maybe the same mount ID, the same value; but a new superblock,
# whose directory the kernel made anew (a new inode).  Applied again.
mkdir "$T/sys/8:16.new"
echo -1 >"$T/sys/8:16.new/relatime_interval"
rm -r "$T/sys/8:16"
mv "$T/sys/8:16.new" "$T/sys/8:16"
run "a new superblock behind the same mount ID" 0 \
	"/srv/data (8:16): relatime interval 30min (x-relatime-interval=30min)" "" --changes
expect_value "a new superblock behind the same mount ID" 8:16 1800

# Two mounts of one superblock: the newer wins, the other is reported.
fake_kernel
rm -f "$T/state/applied"
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=2h' \
	'ID=27 SRC=/dev/sdb TARGET=/srv/bind ROOT=/export OPTS=x-relatime-interval=1h'
run "conflict" 0 "/srv/bind (8:16): relatime interval 1h (x-relatime-interval=1h)" \
	"atimectl: conflict on 8:16: /srv/data asks for x-relatime-interval=2h, /srv/bind for x-relatime-interval=1h; the one applied last wins: 1h" --changes
expect_value "conflict" 8:16 3600
# ... and a remount of the older one makes it the one applied last.
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=3h' \
	'ID=27 SRC=/dev/sdb TARGET=/srv/bind ROOT=/export OPTS=x-relatime-interval=1h'
run "conflict, remounted" 0 "/srv/data (8:16): relatime interval 3h (x-relatime-interval=3h)" \
	"atimectl: conflict on 8:16: /srv/bind asks for x-relatime-interval=1h, /srv/data for x-relatime-interval=3h; the one applied last wins: 3h" --changes
expect_value "conflict, remounted" 8:16 10800

# A kernel without the patches: one line per mount, nothing fails.
rm -rf "$T/sys" "$T/state/applied"
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=2h'
run "unpatched kernel" 0 "" \
	"atimectl: /srv/data: x-relatime-interval=2h not applied: this kernel has no per-filesystem relatime interval" --changes
run "unpatched kernel, said once" 0 "" "" --changes
fake_kernel

# --record-only: what mounts declare is recorded, nothing applied; a
# remount that changes the value later is applied.
rm -f "$T/state/applied"
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=1h'
run "record only" 0 "" "" --changes --record-only
expect_value "record only" 8:16 -1
run "recorded" 0 "" "" --changes
expect_value "recorded" 8:16 -1
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=2h'
run "changed after recording" 0 "/srv/data (8:16): relatime interval 2h (x-relatime-interval=2h)" "" --changes
fake_kernel
run "record only without --changes" 2 "" "atimectl: apply: --record-only needs --changes" --record-only
run "follow without --changes" 2 "" "atimectl: apply: --follow needs --changes, and takes no --record-only" --follow
run "follow with --record-only" 2 "" "atimectl: apply: --follow needs --changes, and takes no --record-only" --changes --follow --record-only

# A mount made while a run waits for utab to settle is that run's: the
# path unit does not watch while the service runs.
fake_kernel
rm -f "$T/state/applied"
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=1h'
ATIMECTL_PROC_SYS_FS=$T/proc ATIMECTL_SYSFS_RELATIME=$T/sys LIBMOUNT_UTAB=$T/utab \
ATIMECTL_APPLIED=$T/state/applied ATIMECTL_APPLY_QUIET_MS=3000 \
	"${wrapper[@]}" "$ATIMECTL" apply -F "$MI" --changes >"$T/out" 2>"$T/err" &
pid=$!
for ((i = 0; i < 100; i++)); do
	[ "$(tr -d '\n' <"$T/sys/8:16/relatime_interval")" = 3600 ] && break
	sleep 0.05
done
# as libmount writes it: a new file renamed over the old one
printf '%s\n' 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=1h' \
	'ID=29 SRC=/dev/sdd TARGET=/mnt/stack ROOT=/ OPTS=x-relatime-interval=2h' >"$T/utab.new"
mv "$T/utab.new" "$T/utab"
wait "$pid"
rc=$?
want="/srv/data (8:16): relatime interval 1h (x-relatime-interval=1h)
/mnt/stack (8:48): relatime interval 2h (x-relatime-interval=2h)"
[ "$rc" = 0 ] && [ "$(cat "$T/out")" = "$want" ] && [ ! -s "$T/err" ] || {
	printf 'FAIL: a mount made while the run settles: exit %s\n  stdout: %s\n  stderr: %s\n' \
		"$rc" "$(cat "$T/out")" "$(cat "$T/err")" >&2
	failures=$((failures + 1))
}
expect_value "a mount made while the run settles" 8:48 7200
fake_kernel

# --follow (atimectl-apply.service): a run that never ends on quiet, so
# that no change falls between one run's last look and the next start.
# Changes long after the first pass are applied; a malformed value is
# reported and the run goes on; another "apply --changes" (the package's)
# does not wait for it; SIGTERM ends it with status 0 and the state saved.
fake_kernel
rm -f "$T/state/applied"
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=1h'
ATIMECTL_PROC_SYS_FS=$T/proc ATIMECTL_SYSFS_RELATIME=$T/sys LIBMOUNT_UTAB=$T/utab \
ATIMECTL_APPLIED=$T/state/applied ATIMECTL_APPLY_QUIET_MS=0 \
	"${wrapper[@]}" "$ATIMECTL" apply -F "$MI" --changes --follow >"$T/follow.out" 2>"$T/follow.err" &
follower=$!
# reap_follower: the follower's exit status once it ended (up to 10 s;
# 124 and a SIGKILL if it did not); stop_follower sends SIGTERM first.
reap_follower() {
	local i rc
	for ((i = 0; i < 200; i++)); do
		kill -0 "$follower" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$follower" 2>/dev/null; then
		kill -9 "$follower"
		wait "$follower"
		rc=124
	else
		wait "$follower"
		rc=$?
	fi
	follower=
	return $rc
}
stop_follower() {
	kill -TERM "$follower"
	reap_follower
}
wait_value() {	# wait_value MAJ:MIN WANT: up to 10 s
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(tr -d '\n' <"$T/sys/$1/relatime_interval")" = "$2" ] && return 0
		sleep 0.05
	done
	return 1
}
replace_utab() { printf '%s\n' "$@" >"$T/utab.new" && mv "$T/utab.new" "$T/utab"; }
wait_value 8:16 3600
sleep 1.5
replace_utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=soon'
sleep 1.5
replace_utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=2h'
wait_value 8:16 7200 || { echo "FAIL: --follow: a change 3 s after the first pass was not applied" >&2; failures=$((failures + 1)); }
# the package's own run meanwhile: it takes the lock, finds nothing new
# (within 20 s: a follower that kept the lock while it waits would block it)
saved=("${wrapper[@]}")
wrapper=(timeout 20 "${wrapper[@]}")
run "apply --changes beside --follow" 0 "" "" --changes
wrapper=("${saved[@]}")
kill -0 "$follower" 2>/dev/null || { echo "FAIL: --follow ended by itself" >&2; failures=$((failures + 1)); }
stop_follower
rc=$?
want="/srv/data (8:16): relatime interval 1h (x-relatime-interval=1h)
/srv/data (8:16): relatime interval 2h (x-relatime-interval=2h)"
want_err="atimectl: /srv/data: invalid x-relatime-interval= value 'soon': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
[ "$rc" = 0 ] && [ "$(cat "$T/follow.out")" = "$want" ] && [ "$(cat "$T/follow.err")" = "$want_err" ] || {
	printf 'FAIL: --follow: exit %s, want 0\n  stdout: %s\n  stderr: %s\n' \
		"$rc" "$(cat "$T/follow.out")" "$(cat "$T/follow.err")" >&2
	failures=$((failures + 1))
}
grep -q ' 2h$' "$T/state/applied" ||
	{ echo "FAIL: --follow: the state file lacks the last value: $(cat "$T/state/applied")" >&2; failures=$((failures + 1)); }
# utab's directory removed while it follows: nothing there can be seen
# any more, so it says so and fails (systemd starts it again).
mkdir -p "$T/gone"
utab 'ID=26 SRC=/dev/sdb TARGET=/srv/data ROOT=/ OPTS=x-relatime-interval=1h'
cp "$T/utab" "$T/gone/utab"
ATIMECTL_PROC_SYS_FS=$T/proc ATIMECTL_SYSFS_RELATIME=$T/sys LIBMOUNT_UTAB=$T/gone/utab \
ATIMECTL_APPLIED=$T/state-gone/applied \
	"${wrapper[@]}" "$ATIMECTL" apply -F "$MI" --changes --follow >"$T/out" 2>"$T/err" &
follower=$!
for ((i = 0; i < 200; i++)); do
	[ -s "$T/state-gone/applied" ] && break
	sleep 0.05
done
rm -rf "$T/gone"
reap_follower
rc=$?
[ "$rc" != 124 ] || { echo "FAIL: --follow still runs 10 s after utab's directory went away" >&2; failures=$((failures + 1)); }
[ "$rc" = 1 ] && [ "$(cat "$T/err")" = "atimectl: apply: cannot watch $T/gone/utab: No such file or directory" ] || {
	echo "FAIL: --follow after utab's directory went away: exit $rc, $(cat "$T/err")" >&2
	failures=$((failures + 1))
}
# A utab whose directory cannot be watched: said, and a failure.
ATIMECTL_PROC_SYS_FS=$T/proc ATIMECTL_SYSFS_RELATIME=$T/sys LIBMOUNT_UTAB=$T/no-such-dir/utab \
ATIMECTL_APPLIED=$T/state/applied \
	"${wrapper[@]}" "$ATIMECTL" apply -F "$MI" --changes --follow >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 1 ] && [ "$(cat "$T/err")" = "atimectl: apply: cannot watch $T/no-such-dir/utab: No such file or directory" ] || {
	echo "FAIL: --follow without a utab directory: exit $rc, $(cat "$T/err")" >&2
	failures=$((failures + 1))
}
fake_kernel

# Bad input: nothing changed, a usage error.
rm -f "$T/state/applied"
for args in "--changes /srv/data" "--changes -O x-relatime-interval=1h" \
	"--changes --if-mounted" "--changes --fstab /dev/null"; do
	# shellcheck disable=SC2086
	run "bad input: $args" 2 "" \
		"atimectl: apply: --changes takes no TARGET, --options, --if-mounted or --fstab" $args
done
expect_value "bad input" 8:16 -1
[ ! -e "$T/state/applied" ] || { echo "FAIL: bad input wrote the state file" >&2; failures=$((failures + 1)); }
ATIMECTL_MOUNTINFO=$MI "${wrapper[@]}" "$ATIMECTL" status --changes >/dev/null 2>"$T/err"
rc=$?
[ "$rc" = 2 ] && [ "$(cat "$T/err")" = "atimectl: --changes only applies to the apply verb" ] || {
	echo "FAIL: status --changes: exit $rc, $(cat "$T/err")" >&2
	failures=$((failures + 1))
}
ATIMECTL_MOUNTINFO=$MI "${wrapper[@]}" "$ATIMECTL" status --follow >/dev/null 2>"$T/err"
rc=$?
[ "$rc" = 2 ] && [ "$(cat "$T/err")" = "atimectl: --follow only applies to the apply verb" ] || {
	echo "FAIL: status --follow: exit $rc, $(cat "$T/err")" >&2
	failures=$((failures + 1))
}
# A state file that cannot be written: said, and a failure.
touch "$T/state-is-a-file"
ATIMECTL_PROC_SYS_FS=$T/proc ATIMECTL_SYSFS_RELATIME=$T/sys \
ATIMECTL_APPLIED=$T/state-is-a-file/applied \
	"${wrapper[@]}" "$ATIMECTL" apply -F "$MI" --changes >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 1 ] && [ "$(cat "$T/err")" = "atimectl: apply: cannot use $T/state-is-a-file/applied: Not a directory" ] || {
	echo "FAIL: unusable state file: exit $rc, $(cat "$T/err")" >&2
	failures=$((failures + 1))
}
expect_value "unusable state file" 8:16 -1

[ "$failures" -eq 0 ] && echo "all apply --changes cases passed"
[ "$failures" -eq 0 ]
