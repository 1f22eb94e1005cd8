#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# End-to-end tests of the atimectl binary against fixture mount tables and
# fake kernel trees ($ATIMECTL_PROC_SYS_FS, $ATIMECTL_SYSFS_RELATIME) in a
# temporary directory.
#
#   test-cli.sh ATIMECTL FIXTURES_DIR
set -u

ATIMECTL=${1:?usage: test-cli.sh ATIMECTL FIXTURES_DIR}
FIXTURES=${2:?usage: test-cli.sh ATIMECTL FIXTURES_DIR}
MI=$FIXTURES/mountinfo-basic
# some runs are in another working directory
case $ATIMECTL in /*) ;; *) ATIMECTL=$PWD/$ATIMECTL ;; esac
case $FIXTURES in /*) ;; *) FIXTURES=$PWD/$FIXTURES MI=$PWD/$MI ;; esac

T=$(mktemp -d /tmp/atimectl-cli-XXXXXX)
trap 'rm -rf "$T"' EXIT

failures=0
tests=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# $ATIMECTL_TEST_WRAPPER, e.g. "valgrind -q --error-exitcode=99
# --leak-check=full", runs every atimectl invocation under a checker
# (meson test --setup valgrind sets it).
read -r -a wrapper <<<"${ATIMECTL_TEST_WRAPPER:-}"

# Every run is followed by exactly one expect (exit status and the whole
# of stderr), and its stdout is checked with check: with ATIMECTL replaced
# by a program that exits 99, every check here fails.  The counts are
# compared at the end so a run without expect cannot creep back in.
runs=0
expects=0

# run ARGS...: runs atimectl, sets $rc, $out, $err
run() {
	runs=$((runs + 1))
	: >"$T/out"
	"${run_prefix[@]}" "${wrapper[@]}" "$ATIMECTL" "$@" >"${run_stdout:-$T/out}" 2>"$T/err"
	rc=$?
	out=$(cat "$T/out")
	err=$(cat "$T/err")
}
run_prefix=()

# expect NAME RC STDERR: check the exit status and all of stderr of the
# last run ("" for none)
expect() {
	local name=$1 want_rc=$2
	[ $# -eq 3 ] || { echo "test-cli.sh: expect $name: needs RC and STDERR" >&2; exit 2; }
	expects=$((expects + 1))
	tests=$((tests + 1))
	if [ "$rc" != "$want_rc" ]; then
		fail "$name: exit status $rc, expected $want_rc (stderr: $err)"
		return
	fi
	if [ "$err" != "$3" ]; then
		fail "$name: stderr was
  '$err'
expected
  '$3'"
	fi
}

# check NAME ACTUAL EXPECTED
check() {
	tests=$((tests + 1))
	[ "$2" == "$3" ] || fail "$1: got '$2', expected '$3'"
}

# A fake patched kernel: global 10min, 8:16 overridden to 1h.
make_kernel() {
	rm -rf "$T/proc" "$T/sys"
	mkdir -p "$T/proc" "$T/sys"
	echo 600 >"$T/proc/relatime_interval"
	for d in 8:1 0:25 8:16 8:32 8:48 8:64 8:80; do
		mkdir "$T/sys/$d"
		echo -1 >"$T/sys/$d/relatime_interval"
		echo 100 >"$T/sys/$d/atime_updates"
		echo 200 >"$T/sys/$d/relatime_skips"
	done
	echo 3600 >"$T/sys/8:16/relatime_interval"
	echo 5 >"$T/sys/8:16/atime_updates"
	echo 7 >"$T/sys/8:16/relatime_skips"
	export ATIMECTL_PROC_SYS_FS=$T/proc ATIMECTL_SYSFS_RELATIME=$T/sys
}

unpatched_kernel() {
	export ATIMECTL_PROC_SYS_FS=$T/no-proc ATIMECTL_SYSFS_RELATIME=$T/no-sys
}

value() { tr -d '\n' <"$T/sys/$1/relatime_interval"; }

# ---------------------------------------------------------------- status
make_kernel

run status --json -F "$MI"
expect "status --json" 0 ""
echo "$out" | jq -e . >/dev/null || fail "status --json: invalid JSON"
check "json: entries" "$(echo "$out" | jq '.filesystems | length')" 9
check "json: keys" "$(echo "$out" | jq -c '.filesystems[0] | keys')" \
	'["fstype","interval","maj:min","mode","override","skips","source","target","updates"]'
check "json: root" "$(echo "$out" | jq -c '.filesystems[] | select(.target == "/")')" \
	'{"target":"/","source":"/dev/sda1","fstype":"ext4","maj:min":"8:1","mode":"relatime","interval":600,"override":null,"updates":100,"skips":200}'
check "json: noatime with override" "$(echo "$out" | jq -c '.filesystems[] | select(.target == "/srv/data")')" \
	'{"target":"/srv/data","source":"/dev/sdb","fstype":"ext4","maj:min":"8:16","mode":"noatime","interval":null,"override":3600,"updates":5,"skips":7}'
check "json: strictatime" "$(echo "$out" | jq -c '.filesystems[] | select(.target == "/tmp") | [.mode, .interval]')" \
	'["strictatime",null]'
check "json: no sysfs dir" "$(echo "$out" | jq -c '.filesystems[] | select(.target == "/home/nfs") | [.interval, .override, .updates, .skips]')" \
	'[600,null,null,null]'
check "json: escaped target" "$(echo "$out" | jq -r '.filesystems[] | select(."maj:min" == "8:64") | .target')" \
	'/mnt/with space'
check "json: stacked mounts" "$(echo "$out" | jq -c '[.filesystems[] | select(.target == "/mnt/stack") | ."maj:min"]')" \
	'["8:32","8:48"]'
check "json: numbers are numbers" "$(echo "$out" | jq -r '[.filesystems[] | .updates | type] | unique | join(",")')" \
	'null,number'

run status --all --json -F "$MI"
expect "status --all" 0 ""
check "--all: entries" "$(echo "$out" | jq '.filesystems | length')" 14
# -A, as findmnt spells --all; findmnt's -a is --ascii, so -a is no option
run status -A --json -F "$MI"
expect "status -A" 0 ""
check "-A: entries" "$(echo "$out" | jq '.filesystems | length')" 14
run status -a -F "$MI"
expect "-a is no option" 2 "atimectl: invalid option '-a' (see atimectl --help)"
check "-a is no option: no output" "$out" ""

run -F "$MI" -o TARGET,MAJ:MIN,INTERVAL,ORIGIN,OVERRIDE -r -n
expect "default verb, raw" 0 ""
check "raw output" "$out" "/ 8:1 10min global -
/tmp 0:25 - - -
/srv/data 8:16 (1h) override 1h
/srv/bind 8:16 (1h) override 1h
/mnt/stack 8:32 10min global -
/mnt/stack 8:48 10min global -
/mnt/with\\x20space 8:64 1d granularity -
/home/nfs 0:40 10min global -
/boot 8:80 10min global -"

# -u: on a terminal too narrow for the table, SOURCE and FSTYPE are
# truncated unless -u is given (as findmnt -u)
cat >"$T/on-tty" <<'EOF'
#!/usr/bin/env bash
# on-tty COMMAND...: runs COMMAND on a pseudo-terminal $COLUMNS wide
printf -v cmd '%q ' "$@"
exec script -qec "stty cols $COLUMNS; $cmd" /dev/null </dev/null
EOF
chmod +x "$T/on-tty"
long=/dev/disk/by-id/a-long-source-name-that-does-not-fit
printf '21 1 8:1 / / rw,relatime - ext4 %s rw\n' "$long" >"$T/mi-long"
run_prefix=(env COLUMNS=60 "$T/on-tty")
run status -F "$T/mi-long"
expect "on a terminal: truncated" 0 ""
check "on a terminal: truncated" "$(echo "$out" | tr -d '\r' | grep -c -- "$long")" 0
run status -u -F "$T/mi-long"
expect "-u on a terminal" 0 ""
check "-u on a terminal: not truncated" "$(echo "$out" | tr -d '\r' | awk 'NR == 2 { print $2 }')" "$long"
run status --notruncate -F "$T/mi-long" -o SOURCE,TARGET
expect "--notruncate on a terminal" 0 ""
check "--notruncate on a terminal: not truncated" "$(echo "$out" | tr -d '\r' | awk 'NR == 2 { print $1 }')" "$long"
run_prefix=()

# --output-all: every column, in the order of --help
run status -F "$MI" --output-all -r /srv/data
expect "--output-all" 0 ""
check "--output-all" "$out" "TARGET SOURCE FSTYPE MAJ:MIN MODE INTERVAL ORIGIN OVERRIDE UPDATES SKIPS
/srv/data /dev/sdb ext4 8:16 noatime (1h) override 1h 5 7"
run status -F "$MI" --output-all -J /
expect "--output-all -J" 0 ""
check "--output-all -J" "$(echo "$out" | jq -c .)" \
	'{"filesystems":[{"target":"/","source":"/dev/sda1","fstype":"ext4","maj:min":"8:1","mode":"relatime","interval":600,"origin":"global","override":null,"updates":100,"skips":200}]}'
run status -F "$MI" --output-all -o TARGET
expect "--output-all and -o" 2 "atimectl: --output and --output-all are mutually exclusive"
check "--output-all and -o: no output" "$out" ""

# -t TYPE, a comma list as findmnt -t takes it: the types it names are
# listed, pseudo filesystems too; "no" before the list hides the types
# from what would be listed (pseudo filesystems only with -A)
run status -F "$MI" -t ext4 -o TARGET,MAJ:MIN -r -n
expect "-t ext4" 0 ""
check "-t ext4" "$out" "/ 8:1
/srv/data 8:16
/srv/bind 8:16
/mnt/stack 8:48
/boot 8:80"
run status -F "$MI" --types xfs,vfat -o TARGET,FSTYPE -r -n
expect "--types xfs,vfat" 0 ""
check "--types xfs,vfat" "$out" "/mnt/stack xfs
/mnt/with\x20space vfat"
run status -F "$MI" -t noext4 -o TARGET,FSTYPE -r -n
expect "-t noext4" 0 ""
check "-t noext4" "$out" "/tmp tmpfs
/mnt/stack xfs
/mnt/with\x20space vfat
/home/nfs nfs4"
run status -F "$MI" -t noext4,vfat,tmpfs,xfs -A -o TARGET -r -n
expect "-t noext4,... -A" 0 ""
check "-t noext4,... -A" "$out" "/proc
/sys
/dev
/home/nfs
/proc/sys/fs/binfmt_misc
/var/lib/docker/overlay2/abc/merged"
run status -F "$MI" -t proc,sysfs -o TARGET -r -n
expect "-t proc,sysfs" 0 ""
check "-t proc,sysfs" "$out" "/proc
/sys"
run status -F "$MI" -t ext4 -o TARGET -r -n / /home/nfs /mnt/with\ space /boot
expect "-t with TARGETs" 0 ""
check "-t with TARGETs" "$out" "/
/boot"
run status -F "$MI" -t btrfs -o TARGET -r
expect "-t: none of that type" 0 ""
check "-t: none of that type" "$out" ""
run status -F "$MI" -t btrfs -J
expect "-t: none of that type, JSON" 0 ""
check "-t: none of that type, JSON" "$(echo "$out" | jq -c .)" '{"filesystems":[]}'
run --list-targets -F "$MI" -t xfs,proc
expect "--list-targets -t" 0 ""
check "--list-targets -t" "$(tr '\0' ' ' <"$T/out")" "/proc /mnt/stack "
for bad in '' ext4, ,ext4 ext4,,xfs no noext4,no; do
	run status -F "$MI" -t "$bad"
	expect "-t '$bad'" 2 "atimectl: empty type name in --types '$bad'"
	check "-t '$bad': no output" "$out" ""
done
run status -F "$MI" -t $'ext4\e[2J,'
expect "-t escaped" 2 "atimectl: empty type name in --types 'ext4\x1b[2J,'"

# -P, as findmnt prints it: KEY="value", the heading as the key, a
# missing value empty
run status -F "$MI" -P -o TARGET,MAJ:MIN,INTERVAL,ORIGIN,OVERRIDE / /srv/data "/mnt/with space"
expect "status --pairs" 0 ""
check "status --pairs" "$out" 'TARGET="/" MAJ:MIN="8:1" INTERVAL="10min" ORIGIN="global" OVERRIDE=""
TARGET="/srv/data" MAJ:MIN="8:16" INTERVAL="(1h)" ORIGIN="override" OVERRIDE="1h"
TARGET="/mnt/with space" MAJ:MIN="8:64" INTERVAL="1d" ORIGIN="granularity" OVERRIDE=""'
run status --pairs -n -F "$MI" -o TARGET /
expect "status --pairs -n" 0 ""
check "status --pairs -n" "$out" 'TARGET="/"'
run status -P -J -F "$MI"
expect "pairs and json" 2 "atimectl: --json and --pairs are mutually exclusive"
check "pairs and json: no output" "$out" ""
run status -r --pairs -F "$MI"
expect "pairs and raw" 2 "atimectl: --raw and --pairs are mutually exclusive"

# vfat stores the access date only: an interval below a day is a day,
# one above it is kept
echo 3600 >"$T/sys/8:64/relatime_interval"
run status -F "$MI" -o TARGET,INTERVAL,ORIGIN,OVERRIDE -r -n 8:64 8:32
expect "status: vfat, 1h override" 0 ""
check "status: vfat, 1h override" "$out" "/mnt/with\\x20space 1d granularity 1h
/mnt/stack 10min global -"
run status -F "$MI" --json 8:64
expect "status --json: vfat, 1h override" 0 ""
check "status --json: vfat, 1h override" "$(echo "$out" | jq -c '.filesystems[0] | [.fstype, .interval, .override]')" \
	'["vfat",86400,3600]'
echo 172800 >"$T/sys/8:64/relatime_interval"
run status -F "$MI" -o TARGET,INTERVAL,ORIGIN,OVERRIDE -r -n 8:64
expect "status: vfat, 2d override" 0 ""
check "status: vfat, 2d override" "$out" "/mnt/with\\x20space 2d override 2d"
echo -1 >"$T/sys/8:64/relatime_interval"

run status -F "$MI" -o +MAJ:MIN /srv/data 8:32 /dev/sde1
expect "status TARGET..." 0 ""
check "status targets" "$(echo "$out" | awk 'NR > 1 { print $1, $NF }')" "/srv/data 8:16
/mnt/stack 8:32
/mnt/with 8:64"
check "status header" "$(echo "$out" | head -1 | tr -s ' ')" \
	"TARGET SOURCE FSTYPE MODE INTERVAL ORIGIN UPDATES SKIPS MAJ:MIN"

# an override on a noatime mount shows, in parentheses: not in use
run status -F "$MI" -n -r /srv/data
expect "inactive override" 0 ""
check "inactive override" "$out" "/srv/data /dev/sdb ext4 noatime (1h) override 5 7"

# each column once, even when named again
run status -F "$MI" -J -o +MAJ:MIN,maj:min,TARGET /srv/data
expect "json: columns once" 0 ""
check "json: columns once" "$(echo "$out" | jq -c .)" \
	'{"filesystems":[{"target":"/srv/data","source":"/dev/sdb","fstype":"ext4","maj:min":"8:16","mode":"noatime","interval":null,"override":3600,"updates":5,"skips":7}]}'
check "json: columns once, raw text" "$(echo "$out" | grep -c '"maj:min"')" 1

run status -F "$MI" -o target,origin -J /
expect "json -o" 0 ""
check "json -o" "$(echo "$out" | jq -c .)" '{"filesystems":[{"target":"/","origin":"global"}]}'

run status -F "$MI" /srv/data /nonexistent/x bogus
expect "status: bad targets" 1 "atimectl: /nonexistent/x: no such file or directory
atimectl: bogus: no such mount"
check "status: bad targets print nothing" "$out" ""

run status -F "$MI" -o TARGET,BOGUS
expect "unknown column" 2 "atimectl: unknown column: BOGUS"
# MAJ:MIN as findmnt and lsblk spell it; the old MAJMIN is no column
run status -F "$MI" -o TARGET,MAJMIN
expect "MAJMIN is no column" 2 "atimectl: unknown column: MAJMIN"
check "MAJMIN is no column: no output" "$out" ""
# an empty name is said to be one, with the list it is in
run status -F "$MI" -o TARGET,
expect "empty column name" 2 "atimectl: empty column name in --output 'TARGET,'"
run status -F "$MI" -o ,TARGET
expect "empty column name, first" 2 "atimectl: empty column name in --output ',TARGET'"
run status -F "$MI" -o +
expect "empty column name after +" 2 "atimectl: empty column name in --output '+'"
run status -F "$MI" -o ''
expect "empty column list" 2 "atimectl: empty column name in --output ''"
run status -F "$MI" -o $'X\e[2J'
expect "unknown column, escaped" 2 "atimectl: unknown column: X\\x1b[2J"

run status -F "$T/missing-table"
expect "missing table" 1 "atimectl: cannot read $T/missing-table: No such file or directory"
# a directory is said to be one, as findmnt says it
run status -F "$T"
expect "table is a directory" 1 "atimectl: cannot read $T: Is a directory"
run explain -F "$T" "$T"
expect "table is a directory: explain" 1 "atimectl: cannot read $T: Is a directory"

# ---------------------------------------------------------------- set / reset
make_kernel
run set -F "$MI" /srv/data 30min
expect "set mount point" 0 ""
check "set wrote" "$(value 8:16)" 1800

run set -F "$MI" 8:32 "1d 12h"
expect "set MAJ:MIN" 0 ""
check "set MAJ:MIN wrote" "$(value 8:32)" 129600

run set -F "$MI" "/mnt/with space" 0
expect "set path with space" 0 ""
check "set 0" "$(value 8:64)" 0

run set -F "$MI" /dev/sdf1 2147483647
expect "set source, max" 0 ""
check "set max" "$(value 8:80)" 2147483647

run set -F "$MI" -v /mnt/stack 90s
expect "set stacked: topmost" 0 ""
check "set stacked wrote topmost" "$(value 8:48)" 90
check "set stacked left lower" "$(value 8:32)" 129600
check "set -v" "$out" "/mnt/stack (8:48): relatime interval 1min 30s"

before=$(value 8:16)
run set -F "$MI" /srv/data fast
expect "set bad duration" 2 "atimectl: set: invalid duration 'fast': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
check "bad duration: unchanged" "$(value 8:16)" "$before"

run set -F "$MI" /srv/data 2147483648
expect "set overflow" 2 "atimectl: set: invalid duration '2147483648': out of range (at most 2147483647 seconds, about 68 years)"
run set -F "$MI" /srv/data 0.5s
expect "set sub-second" 2 "atimectl: set: invalid duration '0.5s': not a whole number of seconds"
run set -F "$MI" /srv/data 1500ms
expect "set sub-second, ms" 2 "atimectl: set: invalid duration '1500ms': not a whole number of seconds"
check "sub-second: unchanged" "$(value 8:16)" "$before"
# what systemd accepts, when it is whole seconds
run set -F "$MI" /srv/data "1.5s 500ms"
expect "set ms that make seconds" 0 ""
check "set ms that make seconds" "$(value 8:16)" 2
run set -F "$MI" /srv/data .5h
expect "set .5h" 0 ""
check "set .5h" "$(value 8:16)" 1800
echo "$before" >"$T/sys/8:16/relatime_interval"
run set -F "$MI" /srv/data
expect "set missing duration" 2 "atimectl: set: expected TARGET DURATION (see --help)"
run set -F "$MI" /srv/data 1h 2h
expect "set extra argument" 2 "atimectl: set: expected TARGET DURATION (see --help)"
check "set extra argument: no output" "$out" ""
run set -F "$MI" /nonexistent/x 1h
expect "set no such path" 1 "atimectl: /nonexistent/x: no such file or directory"
run set -F "$MI" 9:9 1h
expect "set no such MAJ:MIN" 1 "atimectl: 9:9: no such mount"
run set -F "$MI" /proc 1h
expect "set without sysfs dir" 1 "atimectl: /proc: proc on 0:20 has no relatime interval (no $T/sys/0:20)"
check "unchanged after failures" "$(value 8:16)" "$before"

run reset -F "$MI" 8:16 /srv/bind /nonexistent/y 8:32
expect "reset with one bad target" 1 "atimectl: /nonexistent/y: no such file or directory"
check "reset validated first (8:16)" "$(value 8:16)" "$before"
check "reset validated first (8:32)" "$(value 8:32)" 129600

run reset -F "$MI" 8:16 8:32
expect "reset" 0 ""
check "reset 8:16" "$(value 8:16)" -1
check "reset 8:32" "$(value 8:32)" -1
run reset -F "$MI"
expect "reset without target" 2 "atimectl: reset: expected at least one TARGET (see --help)"

# A source two filesystems are mounted from names neither: a usage error
# that lists them, and nothing is changed.  Mounts of one filesystem (a
# bind mount and its source) are not ambiguous.
make_kernel
mkdir "$T/sys/0:26"
echo -1 >"$T/sys/0:26/relatime_interval"
printf '%s\n' '21 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw' \
	'24 21 0:25 / /run rw,nosuid,relatime - tmpfs tmpfs rw' \
	'25 21 0:26 / /tmp\012x rw,relatime - tmpfs tmpfs rw' >"$T/mi-two-tmpfs"
ambiguous="atimectl: tmpfs: ambiguous: mounted from it are /run (0:25), /tmp\\x0ax (0:26); name one by mount point or MAJ:MIN"
run set -F "$T/mi-two-tmpfs" tmpfs 1h
expect "ambiguous: set" 2 "$ambiguous"
check "ambiguous: set changed nothing" "$(value 0:25)/$(value 0:26)" "-1/-1"
run reset -F "$T/mi-two-tmpfs" / tmpfs
expect "ambiguous: reset" 2 "$ambiguous"
run status -F "$T/mi-two-tmpfs" tmpfs
expect "ambiguous: status" 2 "$ambiguous"
check "ambiguous: status prints nothing" "$out" ""
run apply -F "$T/mi-two-tmpfs" -O x-relatime-interval=1h tmpfs
expect "ambiguous: apply" 2 "$ambiguous"
check "ambiguous: apply changed nothing" "$(value 0:25)/$(value 0:26)" "-1/-1"
run set -F "$T/mi-two-tmpfs" /run 1h
expect "ambiguous: the mount point is not" 0 ""
check "ambiguous: the mount point is not" "$(value 0:25)/$(value 0:26)" "3600/-1"
run set -F "$MI" /dev/sdb 2h
expect "a bind mount and its source are one filesystem" 0 ""
check "a bind mount and its source are one filesystem" "$(value 8:16)" 7200
make_kernel

# as an unprivileged user: as root, drop to nobody, who may read the
# fixtures but not write the read-only file
chmod 0444 "$T/sys/8:1/relatime_interval"
chmod 0755 "$T"
[ "$(id -u)" = 0 ] && run_prefix=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
run set -F "$MI" / 1h
run_prefix=()
expect "permission denied" 1 "atimectl: set: permission denied writing $T/sys/8:1/relatime_interval (are you root?)"
check "permission denied: unchanged" "$(value 8:1)" -1
chmod 0644 "$T/sys/8:1/relatime_interval"

# ---------------------------------------------------------------- global
make_kernel
run global
expect "global show" 0 ""
check "global show" "$out" "10min"
run global -r
expect "global raw" 0 ""
check "global raw" "$out" "600"
run global --json
expect "global json" 0 ""
check "global json" "$(echo "$out" | jq -c .)" '{"global":[{"interval":600,"tunable":true}]}'
check "global json: as libsmartcols prints it" "$out" '{
   "global": [
      {
         "interval": 600,
         "tunable": true
      }
   ]
}'
run global 2h
expect "global set" 0 ""
check "global set wrote" "$(tr -d '\n' <"$T/proc/relatime_interval")" 7200
run global soon
expect "global bad" 2 "atimectl: global: invalid duration 'soon': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
run global 1h 2h
expect "global two args" 2 "atimectl: global: expected at most one DURATION (see --help)"
check "global unchanged" "$(tr -d '\n' <"$T/proc/relatime_interval")" 7200

# a relatime_interval that holds no number is reported as what it holds
make_kernel
echo garbage >"$T/proc/relatime_interval"
bad="atimectl: $T/proc/relatime_interval holds 'garbage', not a number of seconds (0 to 2147483647)"
run global
expect "global: garbage" 1 "$bad"
check "global: garbage: no output" "$out" ""
run -F "$MI" /
expect "status: garbage" 1 "$bad"
check "status: garbage: no output" "$out" ""
echo -5 >"$T/proc/relatime_interval"
run global -J
expect "global: negative" 1 "atimectl: $T/proc/relatime_interval holds '-5', not a number of seconds (0 to 2147483647)"
check "global: negative: no output" "$out" ""

# a per-filesystem relatime_interval that holds no number, the same way;
# the table keeps the other filesystems, and that one's interval is not
# known ("-", null), and the exit status is 1
make_kernel
echo garbage >"$T/sys/8:16/relatime_interval"
bad="atimectl: $T/sys/8:16/relatime_interval holds 'garbage', not -1 or a number of seconds (0 to 2147483647)"
run -F "$MI" -o TARGET,MAJ:MIN,INTERVAL,ORIGIN,OVERRIDE,UPDATES -r -n
expect "status: fs garbage" 1 "$bad"
check "status: fs garbage: the rest of the table" "$out" "/ 8:1 10min global - 100
/tmp 0:25 - - - 100
/srv/data 8:16 - - - 5
/srv/bind 8:16 - - - 5
/mnt/stack 8:32 10min global - 100
/mnt/stack 8:48 10min global - 100
/mnt/with\\x20space 8:64 1d granularity - 100
/home/nfs 0:40 10min global - -
/boot 8:80 10min global - 100"
run status -J -F "$MI" /srv/data /srv/bind
expect "status: fs garbage, two mounts, one message" 1 "$bad"
check "status: fs garbage, json" "$(echo "$out" | jq -c '[.filesystems[] | [.target, .interval, .override, .updates]]')" \
	'[["/srv/data",null,null,5],["/srv/bind",null,null,5]]'
run status -F "$MI" -o TARGET,INTERVAL -n -r /mnt/stack
expect "status: fs garbage elsewhere" 0 ""
check "status: fs garbage elsewhere" "$out" "/mnt/stack 10min"
echo -5 >"$T/sys/8:16/relatime_interval"
printf '\033[2J\n' >"$T/sys/8:32/relatime_interval"
echo 2147483648 >"$T/sys/8:48/relatime_interval"
run status -F "$MI" -o TARGET,MAJ:MIN,INTERVAL -r -n /srv/data /mnt/stack
expect "status: every bad fs reported" 1 "atimectl: $T/sys/8:16/relatime_interval holds '-5', not -1 or a number of seconds (0 to 2147483647)
atimectl: $T/sys/8:48/relatime_interval holds '2147483648', not -1 or a number of seconds (0 to 2147483647)"
check "status: every bad fs reported: the table" "$out" "/srv/data 8:16 -
/mnt/stack 8:48 -"
run status -F "$MI" -o TARGET,INTERVAL -r -n 8:32
expect "status: fs garbage escaped" 1 "atimectl: $T/sys/8:32/relatime_interval holds '\\x1b[2J', not -1 or a number of seconds (0 to 2147483647)"
check "status: fs garbage escaped: the table" "$out" "/mnt/stack -"

# A counter that is malformed or cannot be read is not "no directory":
# the file and why are said, the table is kept with that value unknown,
# and the exit status is 1.
make_kernel
echo garbage >"$T/sys/8:16/atime_updates"
run status -F "$MI" -o TARGET,UPDATES,SKIPS -r -n /srv/data /
expect "status: counter garbage" 1 "atimectl: $T/sys/8:16/atime_updates holds 'garbage', not a count"
check "status: counter garbage: the table" "$out" "/srv/data - 7
/ 100 200"
run status -F "$MI" -J /srv/data
expect "status --json: counter garbage" 1 "atimectl: $T/sys/8:16/atime_updates holds 'garbage', not a count"
check "status --json: counter garbage" "$(echo "$out" | jq -c '.filesystems[0] | [.override, .updates, .skips]')" '[3600,null,7]'
printf -- '-1\033[2J\n' >"$T/sys/8:16/atime_updates"
rm "$T/sys/8:16/relatime_skips"
mkdir "$T/sys/8:16/relatime_skips"
rm "$T/sys/8:32/relatime_skips"
run status -F "$MI" -o TARGET,UPDATES,SKIPS -r -n
expect "status: counters unreadable" 1 "atimectl: $T/sys/8:16/atime_updates holds '-1\\x1b[2J', not a count
atimectl: cannot read $T/sys/8:16/relatime_skips: Is a directory
atimectl: cannot read $T/sys/8:32/relatime_skips: No such file or directory"
check "status: counters unreadable: the table" "$(echo "$out" | head -5)" "/ 100 200
/tmp 100 200
/srv/data - -
/srv/bind - -
/mnt/stack 100 -"
# columns that need no counter read none
run status -F "$MI" -o TARGET,INTERVAL -r -n /srv/data
expect "status: counters not shown, not read" 0 ""
check "status: counters not shown, not read" "$out" "/srv/data (1h)"
: >"$T/sys/8:1/relatime_interval"
echo data >"$T/file"
echo "1 0 8:1 / / rw,relatime - ext4 /dev/sda1 rw" >"$T/mi-relatime"
run explain -F "$T/mi-relatime" "$T/file"
expect "explain: fs garbage" 1 "atimectl: $T/sys/8:1/relatime_interval holds '', not -1 or a number of seconds (0 to 2147483647)"
check "explain: fs garbage: no output" "$out" ""

# ---------------------------------------------------------------- apply
make_kernel
run apply -F "$MI" --options "rw,noatime,x-relatime-interval=45min" /srv/data
expect "apply --options" 0 ""
check "apply --options wrote" "$(value 8:16)" 2700
check "apply --options message" "$out" "/srv/data (8:16): relatime interval 45min (x-relatime-interval=45min)"

run apply -F "$MI" -O "rw,x-relatime-interval=fast" /srv/data
expect "apply invalid" 1 "atimectl: /srv/data: invalid x-relatime-interval= value 'fast': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
check "apply invalid: unchanged" "$(value 8:16)" 2700

run apply -F "$MI" -O "rw,nofail" -v /srv/data
expect "apply without option" 0 ""
check "apply without option -v" "$out" "/srv/data: no x-relatime-interval= option, nothing to do"
check "apply without option: unchanged" "$(value 8:16)" 2700

run apply -F "$MI" -O "x-relatime-interval=1h"
expect "apply --options without target" 2 "atimectl: apply: --options needs at least one TARGET"
run status -F "$MI" -O "x-relatime-interval=1h"
expect "--options outside apply" 2 "atimectl: --options only applies to the apply verb"

# --if-mounted, as atimectl-apply@ runs it: a mount point that is not
# mounted (any more) has nothing to apply, and the filesystem that holds it
# is left alone; a real failure on a mount that is there still fails.
make_kernel
run apply -F "$MI" --if-mounted -O "x-relatime-interval=1h" /srv/gone
expect "apply --if-mounted, not mounted" 0 ""
check "apply --if-mounted, not mounted: message" "$out" "/srv/gone: not mounted, nothing to apply"
check "apply --if-mounted, not mounted: / untouched" "$(value 8:1)" -1
run apply -F "$MI" -O "x-relatime-interval=1h" /srv/gone
expect "apply, not mounted, without --if-mounted" 1 "atimectl: /srv/gone: no such file or directory"
run apply -F "$MI" --if-mounted -O "x-relatime-interval=1h" /srv/data/sub
expect "apply --if-mounted, not a mount point" 0 ""
check "apply --if-mounted, not a mount point: message" "$out" "/srv/data/sub: not mounted, nothing to apply"
check "apply --if-mounted, not a mount point: untouched" "$(value 8:16)" 3600
run apply -F "$MI" --if-mounted -O "x-relatime-interval=1h" /mnt/stack
expect "apply --if-mounted, stacked" 0 ""
check "apply --if-mounted, stacked: the topmost" "$(value 8:48)/$(value 8:32)" 3600/-1
run apply -F "$MI" --if-mounted -O "x-relatime-interval=fast" /srv/data
expect "apply --if-mounted, invalid" 1 "atimectl: /srv/data: invalid x-relatime-interval= value 'fast': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
rm -r "$T/sys/8:64"
run apply -F "$MI" --if-mounted -O "x-relatime-interval=1h" "/mnt/with space"
expect "apply --if-mounted, mounted, no directory" 1 "atimectl: /mnt/with space: vfat on 8:64 has no relatime interval (no $T/sys/8:64)"
rm "$T/sys/8:48/relatime_interval"
run apply -F "$MI" --if-mounted -O "x-relatime-interval=1h" /srv/data /mnt/stack
expect "apply --if-mounted, mounted, attribute gone" 1 "atimectl: apply: $T/sys/8:48/relatime_interval is gone (filesystem no longer mounted?)"
run apply -F "$MI" --if-mounted
expect "apply --if-mounted without target" 2 "atimectl: apply: --if-mounted needs at least one TARGET"
run status -F "$MI" --if-mounted
expect "--if-mounted outside apply" 2 "atimectl: --if-mounted only applies to the apply verb"

make_kernel
run apply -F "$MI" --fstab "$FIXTURES/fstab-basic"
expect "apply from fstab" 0 ""
check "fstab: /srv/data" "$(value 8:16)" 7200
check "fstab: /mnt/stack topmost" "$(value 8:48)" 129600
check "fstab: /mnt/with space" "$(value 8:64)" 90
check "fstab: / untouched" "$(value 8:1)" -1
check "fstab: /mnt/stack lower untouched" "$(value 8:32)" -1
check "fstab: messages" "$(echo "$out" | sort)" "/mnt/stack (8:48): relatime interval 1d 12h (x-relatime-interval=1d 12h)
/mnt/with space (8:64): relatime interval 1min 30s (x-relatime-interval=90s)
/srv/data (8:16): relatime interval 2h (x-relatime-interval=2h)"

run apply -F "$MI" --fstab "$FIXTURES/fstab-basic" /srv/data
expect "apply one target from fstab" 0 ""
check "apply one target" "$out" "/srv/data (8:16): relatime interval 2h (x-relatime-interval=2h)"

make_kernel
# one rule for every bad line: the valid ones are applied, each bad one
# is reported, and the exit status is 1
run apply -F "$MI" --fstab "$FIXTURES/fstab-invalid"
expect "apply fstab with a bad value" 1 "atimectl: /mnt/stack: invalid x-relatime-interval= value 'fast': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
check "bad fstab: the valid line applied" "$(value 8:16)" 7200
check "bad fstab: the valid line applied, message" "$out" "/srv/data (8:16): relatime interval 2h (x-relatime-interval=2h)"
check "bad fstab: the bad line's mount unchanged" "$(value 8:48)" -1

run apply -F "$MI" --fstab "$T/no-fstab"
expect "apply missing fstab" 1 "atimectl: cannot read $T/no-fstab: No such file or directory"

# ---------------------------------------------------------------- explain
make_kernel
f=$T/file
echo data >"$f"
now=$(date +%s)
# mtime in the past, atime in the future: newer than mtime and ctime
touch -m -d "@$((now - 1000))" "$f"
touch -a -d "@$((now + 1000))" "$f"
atime=$(stat -c %X "$f")
echo "1 0 8:1 / / rw,relatime - ext4 /dev/sda1 rw" >"$T/mi-relatime"
echo "1 0 8:1 / / rw,noatime - ext4 /dev/sda1 rw" >"$T/mi-noatime"
echo "1 0 8:1 / / ro,relatime - ext4 /dev/sda1 ro" >"$T/mi-ro"
echo "1 0 8:1 / / rw - ext4 /dev/sda1 rw" >"$T/mi-strict"

run explain --json -F "$T/mi-relatime" "$f"
expect "explain --json" 0 ""
check "explain: relatime no update" "$(echo "$out" | jq -c '.files[0] | [.mount, ."maj:min", .mode, .interval, .origin, .update, .never, .next_update_sec == .atime_sec + 600]')" \
	'["/","8:1","relatime",600,"global",false,false,true]'
check "explain: atime" "$(echo "$out" | jq '.files[0].atime_sec')" "$atime"
check "explain: reason" "$(echo "$out" | jq -r '.files[0].reason')" \
	"atime is newer than mtime and ctime and younger than the interval"

echo 60 >"$T/sys/8:1/relatime_interval"
run explain --json -F "$T/mi-relatime" "$f"
expect "explain: override" 0 ""
check "explain: override" "$(echo "$out" | jq -c '.files[0] | [.interval, .origin, .override, .next_update_sec - .atime_sec]')" \
	'[60,"override",60,60]'

run explain -F "$T/mi-relatime" "$f"
expect "explain human" 0 ""
check "explain human: interval line" "$(echo "$out" | grep '^   Interval:')" "   Interval: 1min (override on 8:1)"
check "explain human: next read" "$(echo "$out" | grep 'Next read:')" \
	"  Next read: does not update atime (atime is newer than mtime and ctime and younger than the interval)"

# atime in the past again: touch itself set ctime to now, after atime
touch -a -d "@$((now - 10))" "$f"
run explain --json -F "$T/mi-relatime" "$f"
expect "explain: ctime after atime" 0 ""
check "explain: ctime after atime" "$(echo "$out" | jq -c '.files[0] | [.update, .next_update_sec]')" '[true,null]'
check "explain: ext4 keeps the interval" "$(echo "$out" | jq -c '.files[0] | [.interval, .rule_interval, .atime_granularity]')" \
	'[60,60,1]'

# vfat stores the date only: the update the ctime asks for stores the
# same date, so none happens before the day is over
echo "1 0 8:1 / / rw,relatime - vfat /dev/sda1 rw" >"$T/mi-vfat"
echo 3600 >"$T/sys/8:1/relatime_interval"
run explain --json -F "$T/mi-vfat" "$f"
expect "explain: vfat" 0 ""
check "explain: vfat, same date" "$(echo "$out" | jq -c '.files[0] | [.interval, .rule_interval, .origin, .atime_granularity, .update, .next_update_sec - .atime_sec]')" \
	'[86400,3600,"override",86400,false,86400]'
check "explain: vfat reason" "$(echo "$out" | jq -r '.files[0].reason')" \
	"the filesystem stores only the date of the last access, and that date would not change"
run explain -F "$T/mi-vfat" "$f"
expect "explain human: vfat" 0 ""
check "explain human: vfat interval line" "$(echo "$out" | grep '^   Interval:')" \
	"   Interval: 1d in effect: vfat stores atime to 1d (set: 1h, override on 8:1)"
touch -a -d "@$((now - 86400))" "$f"
run explain --json -F "$T/mi-vfat" "$f"
expect "explain: vfat, a day old" 0 ""
check "explain: vfat, a day old" "$(echo "$out" | jq -c '.files[0] | [.update, .reason]')" \
	'[true,"atime <= mtime (modified since the last recorded access)"]'
# exFAT: 2 s steps; an interval of 1 s acts as 2 s
echo "1 0 8:1 / / rw,relatime - exfat /dev/sda1 rw" >"$T/mi-exfat"
echo 1 >"$T/sys/8:1/relatime_interval"
run explain --json -F "$T/mi-exfat" "$f"
expect "explain: exfat" 0 ""
check "explain: exfat" "$(echo "$out" | jq -c '.files[0] | [.interval, .rule_interval, .atime_granularity]')" '[2,1,2]'
echo 60 >"$T/sys/8:1/relatime_interval"
touch -a -d "@$((now - 10))" "$f"

run explain --json -F "$T/mi-noatime" "$f"
expect "explain: noatime" 0 ""
check "explain: noatime" "$(echo "$out" | jq -c '.files[0] | [.mode, .interval, .update, .never, .reason]')" \
	'["noatime",null,false,true,"the filesystem is mounted noatime"]'
run explain --json -F "$T/mi-ro" "$f"
expect "explain: read-only" 0 ""
check "explain: read-only" "$(echo "$out" | jq -c '.files[0] | [.readonly, .never, .reason]')" \
	'[true,true,"the filesystem is read-only"]'
run explain --json -F "$T/mi-strict" "$f" "$T"
expect "explain: strictatime, two files" 0 ""
check "explain: strictatime, two files" "$(echo "$out" | jq -c '[.files[] | [.mode, .update]]')" \
	'[["strictatime",true],["strictatime",true]]'

# explain --json is printed by libsmartcols, as status --json is: a name
# is written the same way by both (DEL as it is, a quote escaped)
printf '1 0 8:1 / /del\177" rw,relatime - ext4 /dev/sda1 rw\n' >"$T/mi-del"
run status -J -o TARGET -F "$T/mi-del"
expect "status --json: DEL" 0 ""
check "status --json: DEL" "$(echo "$out" | sed -n 's/^ *"target": //p')" $'"/del\177\\""'
g=$T/$'del\177"'
echo data >"$g"
run explain -J -F "$T/mi-relatime" "$g"
expect "explain --json: DEL" 0 ""
check "explain --json: DEL, as status" "$(echo "$out" | sed -n 's/^ *"file": //p')" "\"$T/del"$'\177\\"",'
# no file explained: an empty list, as status prints one
run explain -J -F "$T/mi-relatime" "$T/nope"
expect "explain --json: none" 1 "atimectl: $T/nope: no such file or directory"
check "explain --json: none" "$out" '{
   "files": [

   ]
}'

run explain -F "$T/mi-relatime" "$f" "$T/nope"
expect "explain: missing file" 1 "atimectl: $T/nope: no such file or directory"
check "explain: the good file is still explained" "$(echo "$out" | grep -c '^       File:')" 1
run explain
expect "explain without file" 2 "atimectl: explain: expected at least one FILE (see --help)"

# the real mount table and statvfs() flags
run explain --json "$f"
expect "explain real mount" 0 ""
real=$(findmnt -J -o TARGET,MAJ:MIN,VFS-OPTIONS -T "$f" | jq -c '.filesystems[0]')
case ,$(echo "$real" | jq -r '."vfs-options"'), in
*,noatime,*) real_mode=noatime ;;
*,relatime,*) real_mode=relatime ;;
*) real_mode=strictatime ;;
esac
check "explain real mount: as findmnt says" "$(echo "$out" | jq -c '.files[0] | [.file, .mount, ."maj:min", .mode]')" \
	"$(echo "$real" | jq -c --arg f "$f" --arg mode "$real_mode" '[$f, .target, ."maj:min", $mode]')"

# ---------------------------------------------------------------- no kernel support
unpatched_kernel
run status --json -F "$MI"
expect "unpatched: status" 0 "atimectl: this kernel has no per-filesystem relatime interval (no /sys/fs/relatime)"
check "unpatched: relatime" "$(echo "$out" | jq -c '.filesystems[] | select(.target == "/") | [.interval, .override, .updates, .skips]')" \
	'[86400,null,null,null]'
run status -F "$MI" -o TARGET,INTERVAL,ORIGIN -r -n /
expect "unpatched: origin" 0 "atimectl: this kernel has no per-filesystem relatime interval (no /sys/fs/relatime)"
check "unpatched: origin" "$out" "/ 1d kernel"
run set -F "$MI" / 1h
expect "unpatched: set" 1 "atimectl: this kernel has no per-filesystem relatime interval (no /sys/fs/relatime)"
run reset -F "$MI" /
expect "unpatched: reset" 1 "atimectl: this kernel has no per-filesystem relatime interval (no /sys/fs/relatime)"
run global
expect "unpatched: global show" 0 "atimectl: this kernel has no global relatime interval (no /proc/sys/fs/relatime_interval); the built-in 1d applies"
check "unpatched: global value" "$out" "1d"
run global -J
expect "unpatched: global json" 0 "atimectl: this kernel has no global relatime interval (no /proc/sys/fs/relatime_interval); the built-in 1d applies"
check "unpatched: global json" "$(echo "$out" | jq -c .)" '{"global":[{"interval":86400,"tunable":false}]}'
run global 1h
expect "unpatched: global set" 1 "atimectl: this kernel has no global relatime interval (no /proc/sys/fs/relatime_interval)"
run apply -F "$MI" -O "x-relatime-interval=1h" /srv/data
expect "unpatched: apply" 1 "atimectl: this kernel has no per-filesystem relatime interval (no /sys/fs/relatime)"
run apply -F "$MI" -O "rw" /srv/data
expect "unpatched: apply with nothing to do" 0 ""
run explain --json -F "$T/mi-relatime" "$f"
expect "unpatched: explain" 0 ""
check "unpatched: explain" "$(echo "$out" | jq -c '.files[0] | [.interval, .origin]')" '[86400,"kernel"]'

# ---------------------------------------------------------------- control characters
# shown as findmnt shows them (\x0a), in messages and in every output
make_kernel
run status -F "$MI" $'/tmp\n'
expect "control: message" 1 'atimectl: /tmp\x0a: no such file or directory'
check "control: message: no output" "$out" ""
run set -F "$MI" / $'1h\e[2J'
expect "control: duration" 2 "atimectl: set: invalid duration '1h\\x1b[2J': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
check "control: duration: no output" "$out" ""
printf '%s\n' '21 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw' \
	'30 21 8:64 / /mnt/a\012b\134x\011 rw,relatime - vfat /dev/sde1 rw' >"$T/mi-control"
run -F "$T/mi-control" -o TARGET,MAJ:MIN -n -r
expect "control: table" 0 ""
check "control: table" "$out" '/ 8:1
/mnt/a\x0ab\x5cx\x09 8:64'
run -F "$T/mi-control" -o TARGET -P
expect "control: pairs" 0 ""
check "control: pairs" "$out" 'TARGET="/"
TARGET="/mnt/a\x0ab\x5cx\x09"'
run set -v -F "$T/mi-control" 8:64 1h
expect "control: set -v" 0 ""
check "control: set -v" "$out" '/mnt/a\x0ab\x5cx\x09 (8:64): relatime interval 1h'
g=$T/$'new\nline'
echo data >"$g"
run explain -F "$T/mi-relatime" "$g"
expect "control: explain" 0 ""
check "control: explain" "$(echo "$out" | head -2)" "       File: $T/new\\x0aline
      Mount: / (ext4 on 8:1)"

# ---------------------------------------------------------------- usage
run --bogus
expect "unknown option" 2 "atimectl: invalid option '--bogus' (see atimectl --help)"
check "unknown option: no output" "$out" ""
# option errors name the option as typed
run --json=1
expect "option takes no argument" 2 "atimectl: option '--json' takes no argument (see atimectl --help)"
check "option takes no argument: no output" "$out" ""
run status --js=1
expect "abbreviation takes no argument" 2 "atimectl: option '--json' takes no argument (see atimectl --help)"
run --o x
expect "ambiguous abbreviation" 2 "atimectl: option '--o' is ambiguous: --output, --output-all, --options (see atimectl --help)"
run -nx
expect "invalid short option" 2 "atimectl: invalid option '-x' (see atimectl --help)"
run -F
expect "missing argument" 2 "atimectl: option '-F' needs an argument (see atimectl --help)"
run status --tab
expect "missing argument, long" 2 "atimectl: option '--tab-file' needs an argument (see atimectl --help)"
make_kernel
run set -F "$MI" /srv/data -1
expect "set: negative duration" 2 "atimectl: set: invalid duration '-1': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
check "set: negative duration: unchanged" "$(value 8:16)" 3600
run global -5
expect "global: negative duration" 2 "atimectl: global: invalid duration '-5': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
run -F "$MI" -o TARGET -n -- /srv/data -r
expect "options end at --" 1 "atimectl: -r: no such mount"
check "options end at --: no output" "$out" ""
run -n /srv/data -F "$MI" -o TARGET,MODE -r
expect "options after arguments" 0 ""
check "options after arguments" "$out" "/srv/data noatime"
# a bare word that names nothing is a mistyped command
run frobnicate
expect "unknown verb" 2 "atimectl: unknown command 'frobnicate' (commands: status, set, reset, global, apply, explain, check; see atimectl --help)"
check "unknown verb: no output" "$out" ""
run -F "$MI" stauts /srv/data
expect "unknown verb with options" 2 "atimectl: unknown command 'stauts' (commands: status, set, reset, global, apply, explain, check; see atimectl --help)"
run -F "$MI" -o TARGET -n 8:16
expect "MAJ:MIN is a target" 0 ""
check "MAJ:MIN is a target" "$out" "/srv/data"
run -F "$MI" -o TARGET -n /srv/nothing-here
expect "a path is a target" 1 "atimectl: /srv/nothing-here: no such file or directory"
run -F "$MI" -o TARGET -n UUID=0000-none
expect "a tag is a target" 1 "atimectl: UUID=0000-none: no such device"
cd "$T"
run -F "$T/mi-relatime" -o TARGET -n file
cd - >/dev/null
expect "a file in the working directory is a target" 0 ""
check "a file in the working directory is a target" "$out" "/"
run -V
expect "version" 0 ""
check "version" "$out" "atimectl 0.1.0"
run --help
expect "help" 0 ""
check "help: usage" "$(echo "$out" | head -7)" "Usage:
 atimectl [options] [status] [TARGET...]  show mounted filesystems
 atimectl [options] set TARGET DURATION   set a filesystem's interval
 atimectl [options] reset TARGET...       back to the global interval
 atimectl [options] global [DURATION]     show or set fs.relatime_interval
 atimectl [options] apply [TARGET...]     apply x-relatime-interval= options
 atimectl [options] explain FILE...       will the next read update atime?"
run status -J -r -F "$MI"
expect "json and raw" 2 "atimectl: --json and --raw are mutually exclusive"
run global -J -r
expect "json and raw: global" 2 "atimectl: --json and --raw are mutually exclusive"

# One rule for the output options: a verb that does not print what one
# shapes refuses it, as a usage error, and does nothing.
make_kernel
only_json="(only to status, global without DURATION, explain and check)"
only_raw="(only to status and global without DURATION)"
run -J set -F "$MI" /srv/data 1h
expect "--json on set" 2 "atimectl: --json does not apply to set $only_json"
check "--json on set: unchanged" "$(value 8:16)" 3600
run reset -F "$MI" -r /srv/data
expect "--raw on reset" 2 "atimectl: --raw does not apply to reset $only_raw"
check "--raw on reset: unchanged" "$(value 8:16)" 3600
run apply -F "$MI" -n -O x-relatime-interval=1h /srv/data
expect "--noheadings on apply" 2 "atimectl: --noheadings does not apply to apply (only to status)"
check "--noheadings on apply: unchanged" "$(value 8:16)" 3600
run set -A -F "$MI" /srv/data 1h
expect "--all on set" 2 "atimectl: --all does not apply to set (only to status)"
run global -J 1h
expect "--json on global DURATION" 2 "atimectl: --json does not apply to global DURATION $only_json"
check "--json on global DURATION: unchanged" "$(tr -d '\n' <"$T/proc/relatime_interval")" 600
run global -o TARGET
expect "--output on global" 2 "atimectl: --output does not apply to global (only to status)"
run explain -o TARGET "$T"
expect "--output on explain" 2 "atimectl: --output does not apply to explain (only to status)"
run explain -r "$T"
expect "--raw on explain" 2 "atimectl: --raw does not apply to explain $only_raw"
run explain -n "$T"
expect "--noheadings on explain" 2 "atimectl: --noheadings does not apply to explain (only to status)"
run global -r -n
expect "--noheadings on global" 2 "atimectl: --noheadings does not apply to global (only to status)"
run set -P -F "$MI" /srv/data 1h
expect "--pairs on set" 2 "atimectl: --pairs does not apply to set (only to status)"
check "--pairs on set: unchanged" "$(value 8:16)" 3600
run global -P
expect "--pairs on global" 2 "atimectl: --pairs does not apply to global (only to status)"
check "--pairs on global: no output" "$out" ""
run set -t ext4 -F "$MI" /srv/data 1h
expect "--types on set" 2 "atimectl: --types does not apply to set (only to status)"
check "--types on set: unchanged" "$(value 8:16)" 3600
run explain -t ext4 "$T"
expect "--types on explain" 2 "atimectl: --types does not apply to explain (only to status)"
check "--types on explain: no output" "$out" ""
run reset --output-all -F "$MI" /srv/data
expect "--output-all on reset" 2 "atimectl: --output-all does not apply to reset (only to status)"
check "--output-all on reset: unchanged" "$(value 8:16)" 3600
run global --output-all
expect "--output-all on global" 2 "atimectl: --output-all does not apply to global (only to status)"
run set -u -F "$MI" /srv/data 1h
expect "--notruncate on set" 2 "atimectl: --notruncate does not apply to set (only to status)"
check "--notruncate on set: unchanged" "$(value 8:16)" 3600
run explain --notruncate "$T"
expect "--notruncate on explain" 2 "atimectl: --notruncate does not apply to explain (only to status)"
run explain -P "$T"
expect "--pairs on explain" 2 "atimectl: --pairs does not apply to explain (only to status)"

# ---------------------------------------------------------------- write errors
# every verb: exit 1 and one line when stdout cannot be written
make_kernel
full_err="atimectl: write error on standard output: No space left on device"
run_stdout=/dev/full
for args in "--help" "-V" "-F $MI" "-J -F $MI" "-r -F $MI" "global" "global -J" \
	"set -v -F $MI /srv/data 1h" "reset -v -F $MI /srv/data" \
	"explain -F $T/mi-relatime $f" "explain -J -F $T/mi-relatime $f" \
	"apply -v -F $MI -O rw /srv/data"; do
	# shellcheck disable=SC2086
	run $args
	expect "/dev/full: $args" 1 "$full_err"
done
# apply flushes stdout itself, and the reason is gone by exit
run apply -F "$MI" -O x-relatime-interval=2h /srv/data
expect "/dev/full: apply" 1 "atimectl: write error on standard output"
run_stdout=

# ---------------------------------------------------------------- big table
if [ -n "${BIG_MOUNTINFO:-}" ] && [ -r "$BIG_MOUNTINFO" ]; then
	make_kernel
	run status --all --json -F "$BIG_MOUNTINFO"
	expect "big table" 0 ""
	check "big table: entries" "$(echo "$out" | jq '.filesystems | length')" 10000
	check "big table: 8:1 bind mounts share the override" \
		"$(echo "$out" | jq '[.filesystems[] | select(."maj:min" == "8:1")] | length')" 1000
	run status -F "$BIG_MOUNTINFO"
	expect "big table: default" 0 ""
	# ext4 1999 + xfs 999 + nfs4 999 + tmpfs 2001; not proc, cgroup2, nsfs, overlay, ...
	check "big table: default filter" "$(echo "$out" | tail -n +2 | wc -l)" 5998
fi

[ "$runs" -eq "$expects" ] ||
	fail "$runs runs of atimectl but $expects expects: every run needs one"
echo "$tests checks, $failures failed"
[ "$failures" -eq 0 ]
