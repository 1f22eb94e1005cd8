# Allocation failures on the registration path (debug kernel: failslab,
# fail_page_alloc, /proc/thread-self/fail-nth).  For N = 1, 2, ... the Nth
# allocation of one mount(2) fails, until a mount makes fewer than N:
#
#   - "registration": only allocations made under relatime_sb_register()
#     count (the fault-injection stack-trace filter; 6.12 only): the
#     directory's kobject, its name, its kernfs nodes and attribute files.
#     Every mount must succeed (docs/interface.md: failing to create the
#     directory does not fail the mount) with either its directory, or no
#     directory and exactly one "cannot create sysfs directory" warning;
#   - "mount path": every allocation of mount(2) counts, on tmpfs.  A
#     mount may then fail, with ENOMEM (or ENOSPC: tmpfs reports a failed
#     inode allocation as a full filesystem, mm/shmem.c) and no directory
#     left behind; one that succeeds is held to the rule above.
#
# Each mounted filesystem is shown cleanly by atimectl (counters null where
# there is no directory) and unmounts cleanly, taking its directory along.
# Then kmemleak must find nothing.  The per-CPU counters (alloc_percpu() in
# alloc_super()) cannot be failed: the percpu allocator has no
# fault-injection hook, and its chunk's pages are rarely allocated on the
# spot.
. /usr/lib/atimectl-tests/lib.sh
fm=/usr/lib/atimectl-tests/helpers/failmount
dbg=/sys/kernel/debug
# Only the stress suite runs this, on the debug kernel: a missing facility
# is a regression of its configuration, not a reason to skip.
[ -e /proc/thread-self/fail-nth ] ||
	die "no fault injection (fail-nth) in the debug kernel (kernel/config/debug.config)"
mountpoint -q "$dbg" || mount -t debugfs debugfs "$dbg"
[ -d "$dbg/failslab" ] && [ -d "$dbg/fail_page_alloc" ] ||
	die "no failslab and fail_page_alloc in the debug kernel (kernel/config/debug.config)"
[ -e "$dbg/kmemleak" ] || die "no kmemleak in the debug kernel (kernel/config/debug.config)"
t=/run/atimectl-tests/mnt-fault
mkdir -p "$t"

# Fail exactly what fail-nth says, silently (verbose=2 would dump a stack
# for every failure, which the runner counts as a kernel report), and
# allocations that may sleep too (failslab ignores those by default).
restore=()
set_saved() {	# set_saved FILE VALUE: fi_restore puts the old value back
	restore+=("$(cat "$1") $1")
	echo "$2" >"$1"
}
fi_set() {	# fi_set ATTRIBUTE VALUE, for failslab and fail_page_alloc
	set_saved "$dbg/failslab/$1" "$2"
	set_saved "$dbg/fail_page_alloc/$1" "$2"
}
fi_defaults() {
	fi_set verbose 0
	fi_set ignore-gfp-wait N
	fi_set probability 0
	set_saved "$dbg/fail_page_alloc/min-order" 0
	set_saved "$dbg/fail_page_alloc/ignore-gfp-highmem" N
}
fi_restore() {
	local i
	for ((i = ${#restore[@]} - 1; i >= 0; i--)); do
		echo "${restore[i]%% *}" >"${restore[i]#* }"
	done
	restore=()
}
trap 'fi_restore; cleanup_mounts' EXIT
fi_defaults

# A sweep makes a few hundred mounts, and every process the shell starts
# costs a good part of a second on the debug kernel under TCG: what runs
# once per mount starts none but failmount (which also counts the
# warnings its mount logged) and umount, and for a mount without a
# directory atimectl twice and jq.
list_dirs() {	# the directories in /sys/fs/relatime, sorted, in $dirs
	local a
	a=(/sys/fs/relatime/*)
	dirs="${a[*]##*/}"
}
mount_dev() {	# MAJ:MIN of the filesystem mounted last on $t, in $mm
	local _id _parent dev _root point _rest
	mm=
	while read -r _id _parent dev _root point _rest; do
		[ "$point" != "$t" ] || mm=$dev
	done </proc/self/mountinfo
}
usecs() { now=${EPOCHREALTIME//[!0-9]/}; }	# the time in microseconds, in $now

# The rule for a mount that succeeded: atimectl shows it, the directory
# exists or exactly one warning says why not, the unmount takes it away.
# (Called from sweep: the warning's text is its $lastwarn.)
check_mounted() {	# check_mounted WHAT NEW-WARNINGS
	local what=$1 new=$2 j err
	mount_dev
	[ -n "$mm" ] || die "$what: mount(2) succeeded but $t is no mount point"
	if [ -d "/sys/fs/relatime/$mm" ]; then
		expect_eq "$what: warnings while the directory was created" "$new" 0
		with_dir=$((with_dir + 1))
	else
		expect_eq "$what: warnings for a mount without a directory" "$new" 1
		[[ $lastwarn == *"($mm): -12" ]] ||
			die "$what: the warning does not name $mm and -ENOMEM: $lastwarn"
		without_dir=$((without_dir + 1))
		j=$(atimectl status --json "$t" 2>"$w/err") || die "$what: atimectl status failed: $(<"$w/err")"
		err=$(<"$w/err")
		expect_eq "$what: atimectl stderr" "$err" ""
		expect_eq "$what: status maj:min, updates, skips, override, mode" \
			"$(jq -r '.filesystems[0] | "\(."maj:min") \(.updates) \(.skips) \(.override) \(.mode)"' <<<"$j")" \
			"$mm null null null relatime"
		atimectl status "$t" >/dev/null 2>"$w/err" || die "$what: atimectl status (table) failed: $(<"$w/err")"
		expect_eq "$what: atimectl (table) stderr" "$(<"$w/err")" ""
	fi
	umount "$t" || die "$what: umount failed"
	[ ! -d "/sys/fs/relatime/$mm" ] || die "$what: /sys/fs/relatime/$mm outlived the unmount"
}

# sweep NAME SOURCE FSTYPE [DATA]: N = 1, 2, ... until mount(2) makes fewer
# than N counted allocations.
w=/run/atimectl-tests/fault
mkdir -p "$w"
sweep() {
	local name=$1 n=0 ret err injected new lastwarn d0 t0
	shift
	failed_mounts=0 with_dir=0 without_dir=0
	while :; do
		n=$((n + 1))
		[ "$n" -le 2000 ] || die "$name: still injecting at N=$n"
		usecs
		t0=$now
		list_dirs
		d0=$dirs
		"$fm" "$n" "$1" "$t" "$2" ${3:+"$3"} >"$w/failmount.out" ||
			die "$name, allocation $n: failmount failed"
		{ read -r ret err injected new && IFS= read -r lastwarn; } <"$w/failmount.out" ||
			die "$name, allocation $n: failmount printed $(<"$w/failmount.out")"
		# Progress on the console, which scripts/vm.sh watches.
		echo "$name: allocation $n: mount returned $ret (errno $err), injected $injected"
		if [ "$ret" = 0 ]; then
			check_mounted "$name, allocation $n failed=$injected" "$new"
		else
			case $err in
			12) ;;
			28) [ "$2" = tmpfs ] || die "$name, allocation $n: mount failed with ENOSPC" ;;
			*) die "$name, allocation $n: errno of the failed mount: got '$err', want 12 (ENOMEM)" ;;
			esac
			expect_eq "$name, allocation $n: mount failed without an injected fault" "$injected" 1
			list_dirs
			expect_eq "$name, allocation $n: directories after a failed mount" "$dirs" "$d0"
			expect_eq "$name, allocation $n: warnings after a failed mount" "$new" 0
			failed_mounts=$((failed_mounts + 1))
		fi
		[ "$injected" = 1 ] || break
		faults=$((faults + 1))
		# pr_warn_ratelimited() lets 10 through in 5 s: stay below.
		usecs
		while [ $(( (now - t0) / 1000 )) -lt 550 ]; do
			sleep 0.1
			usecs
		done
	done
	[ "$with_dir" -ge 1 ] || die "$name: no mount got its directory"
	note "$name: $((n - 1)) allocations failed in turn: $failed_mounts mounts failed," \
		"$without_dir mounted without a directory (one warning each), $with_dir with one"
}

faults=0
if [ -e "$dbg/failslab/require-start" ]; then
	start=$(awk '$3 == "relatime_sb_register" { print $1 }' /proc/kallsyms)
	[ -n "$start" ] && [ "$start" != 0000000000000000 ] || die "relatime_sb_register not in /proc/kallsyms"
	# The end is the next symbol's address.
	# (awk reads to the end: sort must not die of SIGPIPE.)
	end=$(sort /proc/kallsyms | awk -v a="$start" \
		'found && !e && $1 != a { e = $1 } $1 == a { found = 1 } END { print e }')
	fi_set require-start "0x$start"
	fi_set require-end "0x$end"
	fi_set stacktrace-depth 32
	sweep "registration (tmpfs)" tmpfs tmpfs
	dev=$(mkfs_scratch scratch1)
	sweep "registration (ext4)" "$dev" ext4
	[ "$without_dir" -ge 1 ] || die "registration (ext4): no failure kept the directory from being created"
	fi_restore
	fi_defaults
else
	note "no fault-injection stack-trace filter on this kernel: the whole mount path only"
fi
sweep "mount path (tmpfs)" tmpfs tmpfs
[ "$failed_mounts" -ge 1 ] || die "mount path (tmpfs): no injected failure failed a mount"
fi_restore
note "faults injected: $faults"

# Leaks: kobject releases are delayed by up to 4 s (DEBUG_KOBJECT_RELEASE)
# and kmemleak ignores objects younger than 5 s.
sleep 6
echo scan >"$dbg/kmemleak"
sleep 1
echo scan >"$dbg/kmemleak"
if grep -q 'unreferenced object' "$dbg/kmemleak"; then
	head -n 60 "$dbg/kmemleak"
	die "kmemleak reports leaks"
fi
dmesg | grep -q 'callbacks suppressed' && die "the kernel suppressed messages: $(dmesg | grep 'callbacks suppressed')"
exit 0
