# Filesystems whose stored atime is coarser than the interval: vfat keeps
# only the date, so reads within one day store nothing new.  With
# intervals of 1 min, 1 h and 1 d, five reads a minute apart (each
# followed by sync) cause no device writes and no counted updates.
# exFAT stores atime to 2 seconds and keeps the interval: 1 min updates
# on each of those reads, 1 h and 1 d on none.
. /usr/lib/atimectl-tests/lib.sh
dev=$(scratch_dev scratch1)
m=/run/atimectl-tests/mnt-coarse
mkdir -p "$m"
day=$(date -d 'today 02:00' +%s)

# run FS INTERVAL: prints "WRITES UPDATES SKIPS" for five reads of f.
run() {
	local fs=$1 interval=$2 t w0 s0 u0 s1 u1 k
	clock_set "$day"
	case $fs in
	vfat) mkfs.vfat "$dev" >/dev/null ;;
	exfat) mkfs.exfat "$dev" >/dev/null ;;
	esac
	mount "$dev" "$m"
	echo data >"$m/f"
	sleep 0.05
	read_once "$m/f"
	sync
	echo "$interval" >"$(relatime_dir "$m")/relatime_interval"
	read -r s0 u0 < <(counters "$m")
	w0=$(writes "$dev")
	# The clock ran on through mkfs and mount (seconds on a loaded
	# host): step from now, not from $day, so that each read comes 61 s
	# after the one before it.
	t=$(date +%s)
	for k in 1 2 3 4 5; do
		t=$((t + 61))
		clock_set "$t"
		read_once "$m/f"
		sync
	done
	read -r s1 u1 < <(counters "$m")
	echo "$(( $(writes "$dev") - w0 )) $((u1 - u0)) $((s1 - s0))"
	umount "$m"
}

for interval in 60 3600 86400; do
	got=$(run vfat "$interval")
	note "table: vfat interval=$interval writes,updates,skips=${got// /,}"
	set -- $got
	expect_eq "vfat, interval $interval: device writes for 5 reads" "$1" 0
	expect_eq "vfat, interval $interval: counted updates" "$2" 0
done

for interval in 60 3600 86400; do
	got=$(run exfat "$interval")
	note "table: exfat interval=$interval writes,updates,skips=${got// /,}"
	set -- $got
	if [ "$interval" = 60 ]; then
		expect_eq "exfat, interval 60: counted updates" "$2" 5
		[ "$1" -ge 5 ] || die "exfat, interval 60: $1 device writes for 5 updates"
	else
		expect_eq "exfat, interval $interval: device writes, updates, skips" "$got" "0 0 5"
	fi
done

# What atimectl shows for vfat with a 1 h override: the day it keeps, not
# the hour it cannot, and that a read later today stores nothing.
clock_set "$day"
mkfs.vfat "$dev" >/dev/null
mount "$dev" "$m"
echo data >"$m/f"
sleep 0.05
read_once "$m/f"
atimectl set "$m" 1h
clock_set $((day + 3600))
expect_eq "atimectl status on vfat, 1h override" \
	"$(atimectl status -r -n -o INTERVAL,ORIGIN,OVERRIDE "$m")" "1d granularity 1h"
expect_eq "atimectl status --json on vfat" \
	"$(atimectl status --json "$m" | jq -c '.filesystems[0] | [.interval, .override]')" "[86400,3600]"
expect_eq "atimectl explain on vfat, an hour later" \
	"$(atimectl explain --json "$m/f" | jq -c '.files[0] | [.interval, .rule_interval, .update, .next_update_sec - .atime_sec]')" \
	"[86400,3600,false,86400]"
read -r s0 u0 < <(counters "$m")
read_once "$m/f"
read -r s1 u1 < <(counters "$m")
expect_eq "vfat: the read explain predicted stored nothing" "$((u1 - u0))" 0
clock_set $((day + 86400 + 60))
expect_eq "atimectl explain on vfat, the next day" \
	"$(atimectl explain --json "$m/f" | jq -c '.files[0].update')" true
read_once "$m/f"
read -r s2 u2 < <(counters "$m")
expect_eq "vfat: the read the next day is one update" "$((u2 - u1))" 1
umount "$m"
