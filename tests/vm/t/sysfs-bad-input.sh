# Bad writes to relatime_interval fail with EINVAL and change nothing;
# unprivileged writes are refused; the range ends are accepted.
. /usr/lib/atimectl-tests/lib.sh
mnt=$(mount_scratch scratch1)
f=$(relatime_dir "$mnt")/relatime_interval
echo 1234 >"$f"
for bad in abc -2 -100 2147483648 99999999999 1.5 1x 0x ''; do
	if out=$(echo "$bad" 2>&1 >"$f"); then
		die "relatime_interval accepted '$bad'"
	fi
	case $out in *"Invalid argument"*) ;; *) die "'$bad': '$out', want EINVAL" ;; esac
	expect_eq "value after '$bad'" "$(cat "$f")" 1234
done
for good in 0 2147483647 -1 1234; do
	echo "$good" >"$f"
	expect_eq "value after '$good'" "$(cat "$f")" "$good"
done
if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 5 >$f" 2>/dev/null; then
	die "an unprivileged user wrote $f"
fi
expect_eq "value after an unprivileged write" "$(cat "$f")" 1234
for c in atime_updates relatime_skips; do
	if echo 0 2>/dev/null >"$(relatime_dir "$mnt")/$c"; then
		die "$c is writable"
	fi
done
