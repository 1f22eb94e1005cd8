#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# "atimectl check" and the warning of "set" and "global", against fixture
# trees: tmpfiles.d in /usr/lib, /etc (a mask) and /run (an override),
# read by the host's own systemd-tmpfiles --cat-config; a tmpreaper.conf;
# crontabs and cron scripts; units from a stand-in systemctl; a fake
# mount table and sysfs.  Prints TAP.
#
#   test-check.sh ATIMECTL
set -u
ATIMECTL=${1:?usage: test-check.sh ATIMECTL}
case $ATIMECTL in /*) ;; *) ATIMECTL=$PWD/$ATIMECTL ;; esac
. "$(dirname "$0")/tap.sh"
read -r -a wrapper <<<"${ATIMECTL_TEST_WRAPPER:-}"

T=$(mktemp -d /tmp/atimectl-check-XXXXXX)
trap 'rm -rf "$T"' EXIT
R=$T/root	# the configuration root
mkdir -p "$R"/{etc,run,usr/lib}/tmpfiles.d "$R"/etc/{cron.d,cron.daily,default} \
	"$R"/var/spool/cron/crontabs "$T"/{d30,d1,noatime,strict}

# run ARGS...: atimectl with the fixtures; sets $rc, $out, $err
run() {
	ATIMECTL_CONFIG_ROOT=$R ATIMECTL_SYSTEMCTL=${systemctl:-$T/systemctl} \
	ATIMECTL_PROC_SYS_FS=$T/proc ATIMECTL_SYSFS_RELATIME=$T/sys \
		"${wrapper[@]}" "$ATIMECTL" -F "${mi:-$T/mi}" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	out=$(cat "$T/out")
	err=$(cat "$T/err")
}
tap_diagnose() {
	echo "# exit status $rc"
	sed 's/^/# stdout: /' "$T/out"
	sed 's/^/# stderr: /' "$T/err"
}
# findings PATH: "verdict interval age" of the findings on PATH, one a line
findings() { jq -r --arg p "$1" '.findings[] | select(.path == $p) | "\(.verdict) \(.interval) \(.age)"' <<<"$out"; }
is() { [ "$1" == "$2" ] || { echo "# got '$1', want '$2'"; return 1; }; }

# The kernel: global 1d; /tmp (8:16) and $T/d30 (8:17) at 30 days, $T/d1
# (8:32) at 1 day, $T/noatime (8:48) and $T/strict (8:64) without.
mkdir -p "$T/proc"
echo 86400 >"$T/proc/relatime_interval"
for d in 8:1 8:16 8:17 8:32 8:48 8:64; do
	mkdir -p "$T/sys/$d"
	echo -1 >"$T/sys/$d/relatime_interval"
done
echo 2592000 >"$T/sys/8:16/relatime_interval"
echo 2592000 >"$T/sys/8:17/relatime_interval"
echo 86400 >"$T/sys/8:32/relatime_interval"
# IDs no mount of this machine has: each path is mapped by its mount
# point (the fallback when statx's mount ID is not in the table)
cat >"$T/mi" <<EOF
90001 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw
90002 90001 8:16 / /tmp rw,relatime - ext4 /dev/sdb rw
90003 90001 8:17 / $T/d30 rw,relatime - ext4 /dev/sdb2 rw
90004 90001 8:32 / $T/d1 rw,relatime - ext4 /dev/sdc rw
90005 90001 8:48 / $T/noatime rw,noatime - ext4 /dev/sdd rw
90006 90001 8:64 / $T/strict rw - ext4 /dev/sde rw
EOF

# ------------------------------------------------------------ tmpfiles.d
# /usr/lib has the rules, /etc masks one, /run overrides one: which
# apply is systemd-tmpfiles' to say
cat >"$R/usr/lib/tmpfiles.d/tmp.conf" <<EOF
# the 10-day /tmp rule of systemd
q /tmp 1777 root root 10d
EOF
echo "d $T/d1/masked - - - 1h" >"$R/usr/lib/tmpfiles.d/masked.conf"
ln -s /dev/null "$R/etc/tmpfiles.d/masked.conf"
echo "d $T/d1/over - - - 1h" >"$R/usr/lib/tmpfiles.d/over.conf"
echo "d $T/d1/over - - - 10d" >"$R/run/tmpfiles.d/over.conf"
cat >"$R/usr/lib/tmpfiles.d/ages.conf" <<EOF
d $T/d1/mtime - - - m:1h
d $T/d1/bydir - - - ~bA:2d
D! $T/d1/boot - - - 1h
d $T/d1/zero - - - 0
d $T/d1/none - - - -
d $T/d1/five - - -
z $T/d1/z - - - 1h
e "$T/d1/with space" - - - 3d
d %t/spec - - - 1h
x $T/d1/x - - - 1h
d $T/d1/forever - - - infinity
EOF
: >"$T/systemctl.list"
cat >"$T/systemctl" <<'EOF'
#!/bin/sh
# a stand-in systemctl: what "list-unit-files" and "show" print
d=$(dirname "$0")
case $1 in
list-unit-files) cat "$d/systemctl.list" ;;
show)
	while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
	shift
	for u; do cat "$d/systemctl.show.$u" 2>/dev/null; echo; done ;;
*) exit 1 ;;
esac
EOF
chmod +x "$T/systemctl"

run check --json
check "tmpfiles: exit status 3, one critical" is "$rc" 3
check "tmpfiles: nothing on stderr" is "$err" ""
check "tmpfiles: JSON has filesystems and findings" \
	is "$(jq -c 'keys' <<<"$out")" '["filesystems","findings"]'
check "tmpfiles: the keys of a finding" \
	is "$(jq -c '.findings[0] | keys_unsorted' <<<"$out")" \
	'["verdict","consumer","source","path","age","target","maj:min","mode","interval","origin","window"]'
check "tmpfiles: the keys of a filesystem" \
	is "$(jq -c '.filesystems[0] | keys_unsorted' <<<"$out")" \
	'["target","source","fstype","maj:min","mode","interval","origin","override","verdict"]'
check "10-day /tmp rule on a 30-day filesystem: critical" is "$(findings /tmp)" "critical 2592000 864000"
check "10-day /tmp rule: the window in words" \
	is "$(jq -r '.findings[] | select(.path == "/tmp") | .window' <<<"$out")" \
	"a file read just now can look unread for up to 4w 2d, longer than 1w 3d: systemd-tmpfiles would remove it"
check "10-day /tmp rule: where it is" \
	is "$(jq -r '.findings[] | select(.path == "/tmp") | .source' <<<"$out")" "$R/usr/lib/tmpfiles.d/tmp.conf:2"
check "a masked file is no consumer" is "$(findings "$T/d1/masked")" ""
check "the override in /run wins" is "$(findings "$T/d1/over")" "ok 86400 864000"
check "m: ages by mtime only: no finding" is "$(findings "$T/d1/mtime")" ""
check "~bA: directories by atime: a finding, warn at 1d of 2d" is "$(findings "$T/d1/bydir")" "warn 86400 172800"
check "a boot-time rule, age 0, no age (- or none), z and x: no finding" \
	is "$(jq '[.findings[] | select(.path | test("/(boot|zero|none|five|z|x)$"))] | length' <<<"$out")" 0
check "an age of infinity: no finding" is "$(findings "$T/d1/forever")" ""
check "a quoted path" is "$(findings "$T/d1/with space")" "warn 86400 259200"
check "%t is /run, on /" is "$(jq -r '.findings[] | select(.path == "%t/spec") | .target' <<<"$out")" /
check "the filesystem's verdict is its worst" \
	is "$(jq -r '.filesystems[] | select(.target == "'"$T/d1"'") | .verdict' <<<"$out")" warn

echo 86400 >"$T/sys/8:16/relatime_interval"
run check --json /tmp
check "10-day /tmp rule on a 1-day filesystem: ok, exit 0" is "$rc $(findings /tmp)" "0 ok 86400 864000"
check "TARGET: only its filesystem's findings" is "$(jq '.findings | length' <<<"$out")" 1
run check --json --interval 30d /tmp
check "--interval 30d on /tmp: critical, planned" \
	is "$rc $(jq -r '.findings[0] | "\(.verdict) \(.origin)"' <<<"$out")" "3 critical planned"
check "--interval changes nothing" is "$(cat "$T/sys/8:16/relatime_interval")" 86400
run check --json --interval 3d
check "--interval without TARGET: as global, overrides kept" \
	is "$(findings /tmp) / $(findings / | head -1)" "ok 86400 864000 / "
check "--interval without TARGET: / would be at 3d" \
	is "$(jq -r '.filesystems[] | select(.target == "/") | "\(.interval) \(.origin)"' <<<"$out")" "259200 planned"

# the table for people
run check "$T/d1"
check "table: exit 1 for a warning" is "$rc" 1
check "table: headings" is "$(head -1 <<<"$out" | tr -s ' ')" \
	"VERDICT CONSUMER SOURCE PATH AGE TARGET MODE INTERVAL WINDOW"
check "table: the warn line" is "$(grep "$T/d1/bydir" <<<"$out" | tr -s ' ')" \
	"warn tmpfiles $R/usr/lib/tmpfiles.d/ages.conf:2 $T/d1/bydir 2d $T/d1 relatime 1d a file read 1d ago can look unread for up to 2d: systemd-tmpfiles would remove it"

# -v says what is not a consumer, and why
run check -v "$T/d1"
check "-v: the mtime rule" grep -qx "atimectl: $R/usr/lib/tmpfiles.d/ages.conf:1: $T/d1/mtime: ages by other times than atime" "$T/err"
check "-v: the boot-time rule" grep -qx "atimectl: $R/usr/lib/tmpfiles.d/ages.conf:3: $T/d1/boot: a boot-time rule: cleaning does not run it" "$T/err"

# noatime and strictatime are verdicts of their own
rm "$R/usr/lib/tmpfiles.d/"{ages,over,tmp}.conf "$R/run/tmpfiles.d/over.conf"
echo "q $T/noatime/q - - - 30d" >"$R/usr/lib/tmpfiles.d/modes.conf"
echo "q $T/strict/q - - - 1h" >>"$R/usr/lib/tmpfiles.d/modes.conf"
echo "q $T/d1/equal - - - 1d" >>"$R/usr/lib/tmpfiles.d/modes.conf"
run check --json
check "noatime under a cleaner: critical" is "$rc $(findings "$T/noatime/q")" "3 critical null 2592000"
check "noatime: the window" \
	is "$(jq -r '.findings[0].window' <<<"$out")" \
	"noatime: reads never update atime, a file read just now looks unread since it was created: systemd-tmpfiles would remove it 4w 2d after that"
check "strictatime: ok" is "$(findings "$T/strict/q")" "ok null 3600"
check "an interval equal to the age: critical" is "$(findings "$T/d1/equal")" "critical 86400 86400"
rm "$R/usr/lib/tmpfiles.d/modes.conf"

# ------------------------------------------------------------ tmpreaper
cat >"$R/etc/tmpreaper.conf" <<EOF
SHOWWARNING=true
TMPREAPER_DIRS='$T/d1/reap/. $T/d30/reap'
EOF
echo "TMPTIME=3" >"$R/etc/default/rcS"
run check --json -v
check "tmpreaper with SHOWWARNING=true: no finding" is "$rc $(jq '.findings | length' <<<"$out")" "0 0"
check "tmpreaper with SHOWWARNING=true: -v says why" \
	is "$err" "atimectl: $R/etc/tmpreaper.conf:1: SHOWWARNING=true: tmpreaper removes nothing"
sed -i 's/^SHOWWARNING=true/SHOWWARNING=false/' "$R/etc/tmpreaper.conf"
run check --json
check "tmpreaper: TMPTIME days from rcS, each directory" \
	is "$(findings "$T/d1/reap/.") / $(findings "$T/d30/reap")" "warn 86400 259200 / critical 2592000 259200"
echo "TMPREAPER_TIME=36" >>"$R/etc/tmpreaper.conf"
echo "TMPREAPER_ADDITIONALOPTIONS='--ctime'" >>"$R/etc/tmpreaper.conf"
run check --json
check "tmpreaper: TMPREAPER_TIME in hours, --ctime still by atime" \
	is "$(findings "$T/d1/reap/.") $(jq -r '.findings[0].source' <<<"$out")" "warn 86400 129600 $R/etc/tmpreaper.conf:3"
echo "TMPREAPER_ADDITIONALOPTIONS='-s --mtime'" >>"$R/etc/tmpreaper.conf"
run check --json
check "tmpreaper --mtime: no finding" is "$rc $(jq '.findings | length' <<<"$out")" "0 0"
rm "$R/etc/tmpreaper.conf" "$R/etc/default/rcS"

# ------------------------------------------------------------ cron
cat >"$R/etc/crontab" <<EOF
SHELL=/bin/sh
# m h dom mon dow user command
17 * * * * root cd / && run-parts --report /etc/cron.hourly
30 3 * * * root find $T/d1/crontab -type f -atime +6 -delete
EOF
echo "*/5 * * * * root nice find -L $T/d1/cron.d '$T/d1/q x' -amin +60 -exec rm {} \\;" >"$R/etc/cron.d/sweep"
echo "find $T/d1/ignored -atime +1 -delete" >"$R/etc/cron.d/sweep.dpkg-old"
cat >"$R/etc/cron.daily/man-db" <<EOF
#!/bin/sh
# find /commented -atime +1
find $T/d1/man -type f -name '*.gz' \\
	-atime +6 -print0 | xargs -r0 rm -f
find \$CACHE -atime +1
EOF
echo "0 4 * * * find $T/d30/user -atime 20 -delete" >"$R/var/spool/cron/crontabs/root"
run check --json -v
check "cron: exit 3" is "$rc" 3
check "cron: /etc/crontab, -atime +6 is 7 days" is "$(findings "$T/d1/crontab")" "ok 86400 604800"
check "cron: /etc/cron.d, -amin +60, two start points" \
	is "$(findings "$T/d1/cron.d") / $(findings "$T/d1/q x")" "critical 86400 3600 / critical 86400 3600"
check "cron: a run-parts leftover is not read" is "$(findings "$T/d1/ignored")" ""
check "cron: a continued line, from its first line" \
	is "$(jq -r --arg p "$T/d1/man" '.findings[] | select(.path == $p) | "\(.age) \(.source)"' <<<"$out")" \
	"604800 $R/etc/cron.daily/man-db:3"
check "cron: a user crontab, -atime 20" is "$(findings "$T/d30/user")" "critical 2592000 1728000"
check "cron: a variable start point is noted, not judged" \
	grep -qx "atimectl: $R/etc/cron.daily/man-db:5: find start point '\$CACHE' is not a literal absolute path" "$T/err"
check "cron: nothing else on stderr" is "$(wc -l <"$T/err")" 1
rm -r "$R/etc/crontab" "$R"/etc/cron.d/* "$R"/etc/cron.daily/* "$R"/var/spool/cron/crontabs/*

# ------------------------------------------------------------ units
printf 'man-db.timer enabled enabled\nsweep.service enabled enabled\ngetty@.service enabled enabled\n' >"$T/systemctl.list"
printf 'Id=man-db.timer\nUnit=man-db.service\n' >"$T/systemctl.show.man-db.timer"
cat >"$T/systemctl.show.man-db.service" <<EOF
Id=man-db.service
ExecStart={ path=/usr/bin/find ; argv[]=/usr/bin/find $T/d1/mancache -type f -name *.gz -atime +6 -delete ; ignore_errors=no ; start_time=[n/a] ; stop_time=[n/a] ; pid=0 ; code=(null) ; status=0/0 }
ExecStart={ path=/usr/bin/mandb ; argv[]=/usr/bin/mandb --quiet ; ignore_errors=no ; start_time=[n/a] ; stop_time=[n/a] ; pid=0 ; code=(null) ; status=0/0 }
EOF
# systemctl prints Id= after ExecStart=
cat >"$T/systemctl.show.sweep.service" <<EOF
Type=oneshot
ExecStart={ path=/bin/sh ; argv[]=/bin/sh -c find $T/d30/sweep -atime +2 -delete ; ignore_errors=no ; start_time=[n/a] ; stop_time=[n/a] ; pid=0 ; code=(null) ; status=0/0 }
Id=sweep.service
EOF
run check --json
check "units: exit 3" is "$rc" 3
check "units: the service of an enabled timer" \
	is "$(jq -r --arg p "$T/d1/mancache" '.findings[] | select(.path == $p) | "\(.verdict) \(.age) \(.consumer) \(.source)"' <<<"$out")" \
	"ok 604800 unit man-db.service"
check "units: an enabled service, through sh -c" is "$(findings "$T/d30/sweep")" "critical 2592000 259200"
check "units: named by its Id= that follows ExecStart=" \
	is "$(jq -r --arg p "$T/d30/sweep" '.findings[] | select(.path == $p) | .source' <<<"$out")" sweep.service
check "units: nothing else" is "$(jq '.findings | length' <<<"$out") $err" "2 "
: >"$T/systemctl.list"

# ------------------------------------------------------------ statx's mount ID
# A path is mapped by the mount ID statx gives, not by st_dev: a mount
# whose device number is not the file's (as on btrfs and overlayfs)
# with the real ID wins over one with the file's device number and a
# longer mount point.
exec 3<"$T"
id=$(awk '/^mnt_id:/ { print $2 }' /proc/self/fdinfo/3)
exec 3<&-
dev=$(stat -c '%Hd:%Ld' "$T")
cat >"$T/mi-id" <<EOF
$id 1 0:77 / / rw,relatime - btrfs /dev/sdx rw,subvol=/a
90010 1 $dev / $T rw,relatime - ext4 /dev/sdy rw
EOF
mkdir -p "$T/sys/0:77"
echo 3600 >"$T/sys/0:77/relatime_interval"
echo "q $T/d1/statx - - - 1d" >"$R/usr/lib/tmpfiles.d/statx.conf"
mi=$T/mi-id run check --json
check "statx: the mount of the mount ID" \
	is "$(jq -r '.findings[0] | "\(."maj:min") \(.target) \(.interval) \(.verdict)"' <<<"$out")" "0:77 / 3600 ok"
# ... but only the mount that holds the path: in a table of another
# system, an ID means nothing here
sed -i "s|^$id 1 0:77 / / |$id 1 0:77 / /elsewhere |" "$T/mi-id"
mi=$T/mi-id run check --json
check "statx: an ID whose mount does not hold the path is not used" \
	is "$(jq -r '.findings[0] | "\(."maj:min") \(.target)"' <<<"$out")" "$dev $T"
rm "$R/usr/lib/tmpfiles.d/statx.conf"

# ------------------------------------------------------------ bad input
# Each is reported with its cause (file, line, why), the rest is checked,
# and the exit status says something was wrong; nothing crashes.
cat >"$R/usr/lib/tmpfiles.d/bad.conf" <<EOF
q $T/d1/a - - - banana
q $T/d1/b - - - z:1d
q "$T/d1/c - - - 1d
q relative/path - - - 1d
q
q $T/d1/good - - - 10d
EOF
run check --json
check "garbage rules: exit 1" is "$rc" 1
check "garbage rules: each reported" is "$err" \
"atimectl: $R/usr/lib/tmpfiles.d/bad.conf:1: invalid age 'banana': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)
atimectl: $R/usr/lib/tmpfiles.d/bad.conf:2: invalid age 'z:1d': age-by letters are a, b, c, m, A, B, C, M
atimectl: $R/usr/lib/tmpfiles.d/bad.conf:3: unbalanced quote in 'q \"$T/d1/c - - - 1d'
atimectl: $R/usr/lib/tmpfiles.d/bad.conf:4: path 'relative/path': not absolute
atimectl: $R/usr/lib/tmpfiles.d/bad.conf:5: no path in rule 'q'"
check "garbage rules: the good rule still checked" is "$(findings "$T/d1/good")" "ok 86400 864000"
rm "$R/usr/lib/tmpfiles.d/bad.conf"

printf 'SHOWWARNING=false\nTMPREAPER_TIME=soon\n' >"$R/etc/tmpreaper.conf"
echo "q $T/d1/after - - - 10d" >"$R/usr/lib/tmpfiles.d/after.conf"
run check --json
check "an invalid TMPREAPER_TIME: reported, exit 1" is "$rc $err" \
	"1 atimectl: $R/etc/tmpreaper.conf:2: invalid TMPREAPER_TIME 'soon': expected a number of hours, or a number and s, m, h or d"
check "an invalid TMPREAPER_TIME: the rest checked" is "$(findings "$T/d1/after")" "ok 86400 864000"
rm "$R/etc/tmpreaper.conf" "$R/usr/lib/tmpfiles.d/after.conf"

mkdir "$R/etc/cron.d/adir"
mkdir "$R/etc/tmpreaper.conf"
run check --json
check "unreadable files: exit 1, each named with why" is "$rc $err" "1 atimectl: tmpreaper: cannot read $R/etc/tmpreaper.conf: Is a directory
atimectl: cron: cannot read $R/etc/cron.d/adir: Is a directory"
rmdir "$R/etc/cron.d/adir" "$R/etc/tmpreaper.conf"

echo "q $T/d1/nomount - - - 1d" >"$R/usr/lib/tmpfiles.d/nomount.conf"
printf '90020 1 8:1 / /elsewhere rw,relatime - ext4 /dev/sda1 rw\n' >"$T/mi-none"
mi=$T/mi-none run check --json
check "a consumer path on no mounted filesystem: exit 1, reported" is "$rc $err" \
	"1 atimectl: $R/usr/lib/tmpfiles.d/nomount.conf:1: tmpfiles $T/d1/nomount: on no mounted filesystem (not in the mount table)"
check "a consumer path on no mounted filesystem: no finding" is "$(jq -c .findings <<<"$out")" "[]"
rm "$R/usr/lib/tmpfiles.d/nomount.conf"

# a line of nothing but a carriage return (which systemd-tmpfiles itself
# ends lines at, but another's output may hold): no rule, no crash
printf '#!/bin/sh\nprintf "# /x.conf\\n\\r\\n"\n' >"$T/tmpfiles-cr"
chmod +x "$T/tmpfiles-cr"
ATIMECTL_SYSTEMD_TMPFILES=$T/tmpfiles-cr run check --json
check "a line of a carriage return: no rule, no crash" is "$rc $err $(jq -c .findings <<<"$out")" "0  []"
ATIMECTL_SYSTEMD_TMPFILES=false run check --json
check "systemd-tmpfiles fails: said, exit 1" is "$rc $err" \
	"1 atimectl: tmpfiles: false --cat-config: exited with status 1; its rules are not checked"
ATIMECTL_SYSTEMD_TMPFILES=$T/no-such-program run check
check "systemd-tmpfiles missing: said, exit 1" is "$rc $err" \
	"1 atimectl: tmpfiles: $T/no-such-program --cat-config: not found; its rules are not checked"
echo "sweep.service enabled enabled" >"$T/systemctl.list"
printf '#!/bin/sh\n[ "$1" = show ] && exit 3\ncat %s\n' "$T/systemctl.list" >"$T/systemctl-bad"
chmod +x "$T/systemctl-bad"
systemctl=$T/systemctl-bad run check
check "systemctl show fails: said, exit 1" is "$rc $err" \
	"1 atimectl: units: $T/systemctl-bad show: exited with status 3; unit commands are not checked"
: >"$T/systemctl.list"

# usage errors: exit 2, one line, nothing done
run check --interval banana
check "--interval banana: usage error" is "$rc $err" \
	"2 atimectl: check: invalid --interval 'banana': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
run check --interval 0.5s
check "--interval 0.5s: usage error" is "$rc $err" "2 atimectl: check: invalid --interval '0.5s': not a whole number of seconds"
run check --interval
check "--interval without value: usage error" is "$rc $err" "2 atimectl: option '--interval' needs an argument (see atimectl --help)"
run status --interval 1h
check "--interval on status: usage error" is "$rc $err" "2 atimectl: --interval only applies to the check verb"
run check -q
check "--quiet on check: usage error" is "$rc $err" "2 atimectl: --quiet only applies to set and global DURATION"
run global -q
check "--quiet on global without DURATION: usage error" is "$rc $err" "2 atimectl: --quiet only applies to set and global DURATION"
run check -o TARGET
check "--output on check: usage error" is "$rc $err" "2 atimectl: --output does not apply to check (only to status)"
run check -r
check "--raw on check: usage error" is "$rc $err" "2 atimectl: --raw does not apply to check (only to status and global without DURATION)"
run check /no/such/path
check "an unknown TARGET: exit 1" is "$rc $err" "1 atimectl: /no/such/path: no such file or directory"

# ------------------------------------------------------------ set, global
echo "q /tmp 1777 root root 10d" >"$R/usr/lib/tmpfiles.d/tmp.conf"
echo 86400 >"$T/sys/8:16/relatime_interval"
run set /tmp 30d
check "set to critical: exit 0, done" is "$rc $(cat "$T/sys/8:16/relatime_interval")" "0 2592000"
check "set to critical: one warning line" is "$err" \
	"atimectl: warning: with 4w 2d on /tmp, tmpfiles /tmp (age 1w 3d, $R/usr/lib/tmpfiles.d/tmp.conf:1) is critical (see atimectl check)"
run set -q /tmp 20d
check "set -q: no warning, done" is "$rc $err $(cat "$T/sys/8:16/relatime_interval")" "0  1728000"
run set /tmp 1d
check "set to ok: no warning" is "$rc $err" "0 "
echo "q $T/d1/more - - - 10d" >>"$R/usr/lib/tmpfiles.d/tmp.conf"
echo "q /srv/x - - - 1d" >>"$R/usr/lib/tmpfiles.d/tmp.conf"
run global 30d
check "global to critical: a warning for what has no override" is "$rc $err" \
	"0 atimectl: warning: with 4w 2d on /, tmpfiles /srv/x (age 1d, $R/usr/lib/tmpfiles.d/tmp.conf:3) is critical (see atimectl check)"
echo -1 >"$T/sys/8:16/relatime_interval"
run global 30d
check "global: the others counted" is "$err" \
	"atimectl: warning: with 4w 2d on /tmp, tmpfiles /tmp (age 1w 3d, $R/usr/lib/tmpfiles.d/tmp.conf:1) is critical, and 1 more (see atimectl check)"
check "global: written" is "$(cat "$T/proc/relatime_interval")" 2592000
run global --quiet 40d
check "global --quiet: no warning" is "$rc $err $(cat "$T/proc/relatime_interval")" "0  3456000"

tap_end
