# Following a symlink counts once per path walk, also when the walk starts
# in RCU mode and has to start again in ref-walk mode: mounts and unmounts
# elsewhere make RCU walks fail to leave RCU mode and restart, following
# the same symlink a second time.
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
expect_eq "skips and updates after $n walks through a symlink" \
	"$((s1 - s0)) $((u1 - u0))" "$n 0"
