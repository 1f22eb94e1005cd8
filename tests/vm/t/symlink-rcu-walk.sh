# Following a symlink is one relatime decision per walk that reaches it:
# a lookup whose RCU walk has to start again in ref-walk mode (mounts and
# unmounts elsewhere make RCU walks fail to leave RCU mode) follows the
# same symlink a second time, and decides again.  So n lookups count at
# least n skips and no update, and each skip beyond n is a restart.
#
# That restarts happened is shown, not assumed: the link is a slow symlink
# (its target is in a block), and ext4 reads that block through
# ext4_map_blocks() each time the link is followed, in RCU mode
# (EXT4_GET_BLOCKS_CACHED_NOWAIT) and in ref-walk mode alike; the extent
# cache lookup there is the tracepoint ext4:ext4_es_lookup_extent_enter.
# Walks without the churn measure how many events one follow makes; with
# the churn, events beyond that times the number of walks are links
# followed again by restarted walks.  The target, ~2000 "./" components
# before "dir", keeps each walk in RCU mode long enough after the link for
# a mount or unmount to land in it.
. /usr/lib/atimectl-tests/lib.sh
mnt=$(mount_scratch scratch1)
mkdir "$mnt/dir"
echo x >"$mnt/dir/target"
ln -s "$(printf '%1990s' '' | sed 's| |./|g')dir" "$mnt/link"
[ "$(stat -c %b "$mnt/link")" -gt 0 ] || die "$mnt/link is a fast symlink ($(stat -c %s "$mnt/link") bytes)"
sleep 0.05
"$access" readlink "$mnt/link"
echo 3600 >"$(relatime_dir "$mnt")/relatime_interval"
w=/run/atimectl-tests
mkdir -p "$w/churn"
n=5000

# The tracepoint, in a tracing instance of this test's own, for the
# link's inode only.
tr=/sys/kernel/tracing
[ -d "$tr/events" ] || mount -t tracefs tracefs "$tr" ||
	die "no tracefs (the guest kernel has event tracing: kernel/config/guest.config)"
ti=$tr/instances/atimectl-symlink-rcu
ev=events/ext4/ext4_es_lookup_extent_enter
rmdir "$ti" 2>/dev/null || true
mkdir "$ti"
trap 'rmdir "$ti" 2>/dev/null; cleanup_mounts' EXIT
[ -d "$ti/$ev" ] || die "no tracepoint $ev"
ino=$(stat -c %i "$mnt/link")
echo "ino == $ino" >"$ti/$ev/filter"
echo 1 >"$ti/$ev/enable"
follows() {	# follows: tracepoint events since the last call
	local e
	e=$(grep -c " ino $ino " "$ti/trace" || true)
	echo >"$ti/trace"
	echo "$e"
}
echo 4096 >"$ti/buffer_size_kb"
follows >/dev/null
for ((i = 0; i < 200; i++)); do : <"$mnt/link/target"; done
e0=$(follows)
per=$((e0 / 200))
[ "$per" -ge 1 ] || die "200 walks through $mnt/link made $e0 $ev events for its inode"
[ "$e0" -eq $((200 * per)) ] || note "200 walks without the churn: $e0 events, not a multiple of 200"

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
overruns=$(cat "$ti"/per_cpu/cpu*/stats | awk '/^overrun:/ { s += $2 } END { print s + 0 }')
[ "$overruns" -eq 0 ] || die "the trace buffer overran ($overruns events lost)"
e=$(follows)
again=$((e - n * per))
note "$n walks: $e $ev events for the link, $per per follow: $again extra (walks that restarted after following it)"
[ "$again" -ge 1 ] || die "no walk followed $mnt/link twice: no restart happened, the test shows nothing"
expect_eq "updates after $n lookups through a symlink" "$((u1 - u0))" 0
[ "$((s1 - s0))" -ge "$n" ] ||
	die "$n lookups through a symlink counted $((s1 - s0)) skips, fewer than one each"
note "$n lookups through a symlink: $((s1 - s0)) skips, $((s1 - s0 - n)) from restarted walks"
