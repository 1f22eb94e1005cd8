# atimectl check against the release's own systemd-tmpfiles (252 on
# bookworm, 257 on trixie) and systemctl: a 10-day rule on a filesystem at
# 30 days is critical and at 1 day ok; a rule that ages by mtime only is
# no finding; a rule on a btrfs subvolume maps to the btrfs superblock;
# a find -atime in an enabled unit and in /etc/cron.d is found; --interval
# changes nothing; bad input is named with its cause; set warns unless -q.
. /usr/lib/atimectl-tests/lib.sh
command -v atimectl >/dev/null || die "atimectl is not installed in the image"

conf=/etc/tmpfiles.d/atimectl-check-test.conf
cron=/etc/cron.d/atimectl-check-test
crondir=/etc/cron.d/atimectl-check-dir
unit=atimectl-check-sweep.service
cleanup() {
	rm -f "$conf" "$cron"
	rmdir "$crondir" 2>/dev/null || true
	systemctl disable "$unit" >/dev/null 2>&1 || true
	rm -f "/etc/systemd/system/$unit"
	systemctl daemon-reload || true
	cleanup_mounts
}
trap cleanup EXIT

m=$(mount_scratch scratch1)
mm=$(findmnt -n -o MAJ:MIN --target "$m" | tr -d ' ')
b=/run/atimectl-tests/mnt-scratch2
mkdir -p "$b"
mkfs.btrfs -q -f "$(scratch_dev scratch2)" >/dev/null
mount "$(scratch_dev scratch2)" "$b"
btrfs subvolume create "$b/sub" >/dev/null
bmm=$(findmnt -n -o MAJ:MIN --target "$b" | tr -d ' ')
[ "$(stat -c '%Hd:%Ld' "$b/sub")" != "$bmm" ] ||
	die "the btrfs subvolume has the superblock's device number: the test proves nothing"

cat >"$conf" <<EOF
q $m/tenday 1777 root root 10d
d $m/mtime - - - m:1h
q $b/sub/tenday - - - 10d
EOF
# run_check ARGS...: atimectl check --json ARGS; sets $rc, $out, $err
run_check() {
	rc=0
	out=$(atimectl check --json "$@" 2>"/run/atimectl-tests/check.err") || rc=$?
	err=$(cat /run/atimectl-tests/check.err)
	echo "# atimectl check --json $* -> $rc; stderr: $err"
}
finding() {	# finding PATH: "verdict interval age maj:min target" of PATH
	jq -r --arg p "$1" '.findings[] | select(.path == $p) |
		"\(.verdict) \(.interval) \(.age) \(."maj:min") \(.target)"' <<<"$out"
}

# The 10-day rule: critical at 30 days, ok at 1 day; exit 3 and 0.
atimectl set -q "$m" 30d
run_check "$m"
expect_eq "10d rule at 30d" "$(finding "$m/tenday")" "critical 2592000 864000 $mm $m"
expect_eq "exit status with a critical finding" "$rc" 3
expect_eq "mtime-only rule: no finding" "$(finding "$m/mtime")" ""
expect_eq "findings on $m" "$(jq '.findings | length' <<<"$out")" 1
atimectl set -q "$m" 1d
run_check "$m"
expect_eq "10d rule at 1d" "$(finding "$m/tenday")" "ok 86400 864000 $mm $m"
expect_eq "exit status when all is ok" "$rc" 0

# --interval asks "what if" and changes nothing.
run_check --interval 30d "$m"
expect_eq "--interval 30d" "$(finding "$m/tenday")" "critical 2592000 864000 $mm $m"
expect_eq "--interval: origin" "$(jq -r '.findings[0].origin' <<<"$out")" planned
expect_eq "--interval changed nothing" "$(cat "/sys/fs/relatime/$mm/relatime_interval")" 86400

# A rule on a btrfs subvolume is judged by the btrfs superblock's interval.
atimectl set -q "$b" 3d
run_check "$b"
expect_eq "btrfs subvolume rule" "$(finding "$b/sub/tenday")" "warn 259200 864000 $bmm $b"
expect_eq "exit status with a warning" "$rc" 1

# find -atime in an enabled unit (as systemctl shows it) and in cron.d.
cat >"/etc/systemd/system/$unit" <<EOF
[Unit]
Description=atimectl check test: never started

[Service]
Type=oneshot
ExecStart=/usr/bin/find $m/unit -type f -atime +2 -delete

[Install]
WantedBy=multi-user.target
EOF
systemctl daemon-reload
systemctl enable "$unit" 2>/dev/null
mkdir -p /etc/cron.d
echo "0 4 * * * root find $m/cron -amin +90 -delete" >"$cron"
run_check "$m"
expect_eq "a unit's find -atime +2 at 1d: warn" "$(finding "$m/unit")" "warn 86400 259200 $mm $m"
expect_eq "the unit named" "$(jq -r --arg p "$m/unit" '.findings[] | select(.path == $p) | .source' <<<"$out")" "$unit"
expect_eq "cron's find -amin +90" "$(finding "$m/cron")" "critical 86400 5400 $mm $m"
expect_eq "exit status" "$rc" 3

# set warns in one line when it makes a known consumer critical; -q not.
rc=0
err=$(atimectl set "$m" 30d 2>&1) || rc=$?
expect_eq "set with a warning: exit status" "$rc" 0
case $err in
"atimectl: warning: with 4w 2d on $m, "*" is critical, and "*" more (see atimectl check)") ;;
*) die "set 30d: want one warning line, got: $err" ;;
esac
err=$(atimectl set -q "$m" 1h 2>&1)
expect_eq "set -q: no warning" "$err" ""
expect_eq "set -q: set" "$(cat "/sys/fs/relatime/$mm/relatime_interval")" 3600

# Bad input, each named with its cause, the rest checked.
echo "q $m/bad - - - banana" >>"$conf"
mkdir -p "$crondir"
run_check "$m"
# at 1h, cron's 90 minutes is a warning, the rest ok
expect_eq "bad input: exit status" "$rc" 1
grep -qx "atimectl: $conf:4: invalid age 'banana': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)" <<<"$err" ||
	die "the garbage rule is not reported as such: $err"
grep -qx "atimectl: cron: cannot read $crondir: Is a directory" <<<"$err" ||
	die "the unreadable cron file is not reported: $err"
expect_eq "bad input: the good rule still checked" "$(finding "$m/tenday")" "ok 3600 864000 $mm $m"
# a consumer on no mounted filesystem: a mount table without it
echo "999999 0 0:1 / /nowhere rw,relatime - tmpfs tmpfs rw" >/run/atimectl-tests/mi-nowhere
rc=0
err=$(atimectl -F /run/atimectl-tests/mi-nowhere check 2>&1 >/dev/null) || rc=$?
expect_eq "no mounted filesystem: exit status" "$rc" 1
grep -qx "atimectl: $conf:1: tmpfiles $m/tenday: on no mounted filesystem (not in the mount table)" <<<"$err" ||
	die "a consumer on no mounted filesystem is not reported: $err"
# usage errors
rc=0
err=$(atimectl check --interval banana 2>&1) || rc=$?
expect_eq "--interval banana" "$rc $err" \
	"2 atimectl: check: invalid --interval 'banana': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
expect_eq "nothing changed" "$(cat "/sys/fs/relatime/$mm/relatime_interval")" 3600
