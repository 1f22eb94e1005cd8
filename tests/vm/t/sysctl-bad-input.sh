# Bad writes to both sysctls fail with EINVAL and change nothing; only
# root may write; the range ends are accepted.
. /usr/lib/atimectl-tests/lib.sh
ri=/proc/sys/fs/relatime_interval
dr=/proc/sys/fs/default_relatime
sysctl_set fs.relatime_interval 4242
sysctl_set fs.default_relatime 1

for bad in abc -1 -100 2147483648 99999999999 1.5 1x 0x ''; do
	if out=$(echo "$bad" 2>&1 >$ri); then
		die "relatime_interval accepted '$bad'"
	fi
	case $out in *"Invalid argument"*) ;; *) die "relatime_interval '$bad': '$out', want EINVAL" ;; esac
	expect_eq "relatime_interval after '$bad'" "$(cat $ri)" 4242
done
for bad in 2 -1 abc 10 1x; do
	if out=$(echo "$bad" 2>&1 >$dr); then
		die "default_relatime accepted '$bad'"
	fi
	case $out in *"Invalid argument"*) ;; *) die "default_relatime '$bad': '$out', want EINVAL" ;; esac
	expect_eq "default_relatime after '$bad'" "$(cat $dr)" 1
done

for good in 0 2147483647 86400; do
	echo "$good" >$ri
	expect_eq "relatime_interval = $good" "$(cat $ri)" "$good"
done
echo 0 >$dr; expect_eq "default_relatime = 0" "$(cat $dr)" 0
echo 1 >$dr; expect_eq "default_relatime = 1" "$(cat $dr)" 1

# Unprivileged writers are refused.
echo 4242 >$ri
for f in $ri $dr; do
	if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 0 >$f" 2>/dev/null; then
		die "an unprivileged user wrote $f"
	fi
done
expect_eq "relatime_interval after unprivileged write" "$(cat $ri)" 4242
expect_eq "default_relatime after unprivileged write" "$(cat $dr)" 1
