# atimectl end to end on the patched kernel: status (table and JSON, read
# back with jq), set by every kind of TARGET, a read proving the interval
# is in force, reset, global, apply, explain; refused and bad input change
# nothing.
. /usr/lib/atimectl-tests/lib.sh
command -v atimectl >/dev/null || die "atimectl is not installed in the image"
dev=$(mkfs_scratch scratch1 -L atime-verbs -E lazy_itable_init=0)
mnt=/run/atimectl-tests/mnt-verbs
mkdir -p "$mnt"
mount "$dev" "$mnt"
mm=$(majmin "$mnt")
sysf=/sys/fs/relatime/$mm/relatime_interval
override() { cat "$sysf"; }
js() { atimectl status --json "$mnt" | jq -r ".filesystems[0].$1"; }

# status: the table names the mount; JSON has the contract's keys and types.
atimectl status | grep -q "^$mnt " || die "status table lacks $mnt: $(atimectl status)"
atimectl status --json | jq -e '.filesystems | type == "array"' >/dev/null ||
	die "status --json is not {\"filesystems\": [...]}"
expect_eq "json target" "$(js target)" "$mnt"
expect_eq "json source" "$(js source)" "$dev"
expect_eq "json fstype" "$(js fstype)" ext4
expect_eq "json maj:min" "$(js '"maj:min"')" "$mm"
expect_eq "json mode" "$(js mode)" relatime
expect_eq "json interval" "$(js interval)" 86400
expect_eq "json override" "$(js override)" null
expect_eq "json updates type" "$(atimectl status --json "$mnt" | jq -r '.filesystems[0].updates | type')" number
expect_eq "json skips type" "$(atimectl status --json "$mnt" | jq -r '.filesystems[0].skips | type')" number

# set by mount point, then a read proves the interval is in force.
atimectl set "$mnt" 30min
expect_eq "override after set 30min" "$(override)" 1800
expect_eq "json interval after set" "$(js interval)" 1800
expect_eq "json override after set" "$(js override)" 1800
atimectl status "$mnt" | grep -q "30min.*override" || die "table: $(atimectl status "$mnt")"
fresh_file "$mnt/f"
t=$(atime "$mnt/f")
expect_read "read at +20min under 30min" "$mnt/f" $((t + 1200)) keeps
expect_read "read at +31min under 30min" "$mnt/f" $((t + 1860)) updates

# Every kind of TARGET reaches the same superblock.
atimectl set "$mnt/f" 1h;           expect_eq "set via a file path" "$(override)" 3600
atimectl set "$dev" 2h;             expect_eq "set via the device" "$(override)" 7200
atimectl set LABEL=atime-verbs 3h;  expect_eq "set via LABEL=" "$(override)" 10800
uuid=$(blkid -s UUID -o value "$dev")
atimectl set "UUID=$uuid" '1d 12h'; expect_eq "set via UUID=" "$(override)" 129600
atimectl set "$mm" 90s;             expect_eq "set via MAJ:MIN" "$(override)" 90
atimectl set "$mnt" 0;              expect_eq "set 0" "$(override)" 0

# reset returns to the global value.
atimectl reset "$mnt"
expect_eq "override after reset" "$(override)" -1
expect_eq "json override after reset" "$(js override)" null

# global shows and sets fs.relatime_interval.
expect_eq "global" "$(atimectl global)" 1d
atimectl global 2h
trap 'echo 86400 >/proc/sys/fs/relatime_interval; cleanup_mounts' EXIT
expect_eq "fs.relatime_interval after global 2h" "$(cat /proc/sys/fs/relatime_interval)" 7200
expect_eq "json interval follows global" "$(js interval)" 7200
atimectl global 1d

# apply takes x-relatime-interval= from the options it is given.
atimectl apply --options "rw,x-relatime-interval=5min,noexec" "$mnt"
expect_eq "override after apply" "$(override)" 300

# explain tells where the interval comes from and when the next update is.
fresh_file "$mnt/g"
out=$(atimectl explain "$mnt/g")
echo "$out"
grep -q 'Mode: relatime' <<<"$out" || die "explain: no mode"
grep -qi 'override' <<<"$out" || die "explain does not name the override"
grep -qi 'next read' <<<"$out" || die "explain says nothing about the next read"

# Bad input: clear error, right exit status, nothing changed.
atimectl set "$mnt" 300
check_refused() {	# check_refused STATUS COMMAND...
	local want=$1 rc=0 err
	shift
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	expect_eq "exit status of '$*'" "$rc" "$want"
	[ "$(echo "$err" | wc -l)" -eq 1 ] || die "'$*': want one line on stderr, got: $err"
	case $err in atimectl:*) ;; *) die "'$*': message lacks the program name: $err" ;; esac
	expect_eq "override after '$*'" "$(override)" 300
}
check_refused 2 atimectl set "$mnt" banana
check_refused 2 atimectl set "$mnt" -5
check_refused 2 atimectl set "$mnt" 99999999999
check_refused 2 atimectl set "$mnt"
check_refused 1 atimectl set /no/such/path 1h
check_refused 1 atimectl apply --options x-relatime-interval=soon "$mnt"
check_refused 1 atimectl reset "$mnt" /no/such/path
check_refused 2 atimectl global often
expect_eq "global after a bad global" "$(cat /proc/sys/fs/relatime_interval)" 86400
# Not root: refused with a clear line, nothing changed.
rc=0
err=$(setpriv --reuid=65534 --regid=65534 --clear-groups atimectl set "$mnt" 1h 2>&1) || rc=$?
expect_eq "exit status of an unprivileged set" "$rc" 1
case $err in *ermission*) ;; *) die "unprivileged set: '$err' does not say permission" ;; esac
expect_eq "override after an unprivileged set" "$(override)" 300
