# Following a symlink is one relatime decision per walk that reaches it:
# a lookup whose RCU walk has to start again in ref-walk mode (mounts and
# unmounts elsewhere make RCU walks fail to leave RCU mode) follows the
# same symlink a second time, and decides again.  So n lookups count at
# least n skips and no update, and each skip beyond n is a restart.
. /usr/lib/atimectl-tests/lib.sh
mnt=$(mount_scratch scratch1)
mkdir "$mnt/dir"
echo x >"$mnt/dir/target"
ln -s dir "$mnt/link"
sleep 0.05
"$access" readlink "$mnt/link"
echo 3600 >"$(relatime_dir "$mnt")/relatime_interval"
w=/run/atimectl-tests
mkdir -p "$w/churn"
n=5000

read -r s0 u0 < <(counters "$mnt")
rm -f "$w/churn-stop"
( while [ ! -e "$w/churn-stop" ]; do
	mount -t tmpfs none "$w/churn" && umount "$w/churn"
done ) &
churn=$!
# Each redirection opens target through link: one walk, one traversal.
for ((i = 0; i < n; i++)); do : <"$mnt/link/target"; done
touch "$w/churn-stop"
wait $churn
read -r s1 u1 < <(counters "$mnt")
expect_eq "updates after $n lookups through a symlink" "$((u1 - u0))" 0
[ "$((s1 - s0))" -ge "$n" ] ||
	die "$n lookups through a symlink counted $((s1 - s0)) skips, fewer than one each"
note "$n lookups through a symlink: $((s1 - s0)) skips, $((s1 - s0 - n)) from restarted walks"
