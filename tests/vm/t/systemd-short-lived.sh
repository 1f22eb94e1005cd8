# Short-lived mounts leave no failed atimectl-apply@ instance.  A mount that
# is gone before or while its instance runs has nothing to apply: systemd
# stops the instance (BindsTo=), killing it with SIGTERM if it is still
# running, or atimectl finds the mount point unmounted; neither is a failure.
# A real failure on a mount that is still there still fails the instance.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh

# No dashes in the names, so that the unit names need no escaping.
top=/run/shortlived
dropins=
cleanup() {
	local m d
	for m in "$top"/*; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	rm -rf "$top"
	for d in $dropins; do
		rm -rf "$d"
	done
	[ -n "$dropins" ] && systemctl daemon-reload
	cleanup_mounts
}
trap cleanup EXIT
mkdir -p "$top"
libexec=/usr/libexec/atimectl/atimectl-apply-unit
[ -x "$libexec" ] || die "$libexec missing"
run_override=$(cat "$(override_file /run)")

svc_of() { echo "atimectl-apply@$(systemd-escape -p "$1").service"; }

# wait_started FILE UNIT: a held ExecStart= or ExecReload= of UNIT has
# created FILE (up to 60s, wait_polls).
wait_started() {
	local i
	for ((i = 0; i < wait_polls; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	show_unit "$2"
	die "$2: the held command did not start"
}

# settle PATTERN: wait up to 60s (wait_polls) until no instance matching
# PATTERN is starting or stopping, or has a job queued.
settle() {
	local i busy
	for ((i = 0; i < wait_polls; i++)); do
		busy=$(systemctl list-units --all --plain --no-legend "$1" |
			awk '$3 == "activating" || $3 == "deactivating" || $3 == "reloading"')
		[ -z "$busy" ] && [ -z "$(systemctl list-jobs --plain --no-legend "$1" 2>/dev/null)" ] &&
			return 0
		sleep 0.1
	done
	die "instances still busy after 60s: $busy"
}

# no_failed WHAT PATTERN: no instance matching PATTERN is failed; for any
# that is, its result and log.
no_failed() {
	local u bad
	bad=$(systemctl list-units --all --failed --plain --no-legend "$2" | awk '{ print $1 }')
	[ -z "$bad" ] && return 0
	for u in $bad; do
		echo "$u: Result=$(systemctl show -P Result "$u")" \
			"ExecMainCode=$(systemctl show -P ExecMainCode "$u")" \
			"ExecMainStatus=$(systemctl show -P ExecMainStatus "$u")"
		journalctl -b --no-pager -u "$u" | tail -n 6
	done
	die "$1: $(wc -w <<<"$bad") failed atimectl-apply@ instance(s): $(tr "\n" " " <<<"$bad")"
}

# hold SVC DIRECTIVE NAME: a drop-in makes SVC's DIRECTIVE (ExecStart or
# ExecReload) create $top/NAME.started and wait for $top/NAME.go before it
# runs what the instance runs.
hold() {
	local dropin=/run/systemd/system/$1.d
	dropins+=" $dropin"
	mkdir -p "$dropin"
	cat >"$dropin/hold.conf" <<EOT
[Service]
$2=
$2=/bin/sh -c 'touch $top/$3.started; while [ ! -e $top/$3.go ]; do sleep 0.1; done; exec $libexec "\$@"' sh %i.mount %f
EOT
	systemctl daemon-reload
}

# umount_held DIR SVC WHILE: unmount DIR under SVC's held command; SVC
# must end inactive with Result=success.
umount_held() {
	local state
	umount "$1"
	state=$(wait_state "$2" inactive failed)
	if [ "$state" != inactive ]; then
		show_unit "$2"
		die "$2 unmounted while it $3: $state (Result=$(systemctl show -P Result "$2")), want inactive"
	fi
	expect_eq "$2 Result" "$(systemctl show -P Result "$2")" success
}

# 1. Unmounted while its instance runs, deterministically: a drop-in for
# one instance holds its main process until the test lets it go, and the
# test unmounts first.  systemd stops the instance because its mount went
# away, and SIGTERM is how it stops a running process.
d=$top/held
mkdir -p "$d"
svc=$(svc_of "$d")
hold "$svc" ExecStart held
mount -t tmpfs -o size=1m,x-relatime-interval=1h tmpfs "$d"
wait_started "$top/held.started" "$svc"
expect_eq "$svc while held" "$(systemctl show -P ActiveState "$svc")" activating
umount_held "$d" "$svc" ran
touch "$top/held.go"

# The same while a reload of the instance runs (a remount of its mount,
# "systemctl reload" of the mount unit, reloads it): ExecReload= is held.
d=$top/reloading
mkdir -p "$d"
svc=$(svc_of "$d")
hold "$svc" ExecReload reloading
mount -t tmpfs -o size=1m,x-relatime-interval=1h tmpfs "$d"
expect_eq "$svc" "$(wait_state "$svc" active failed)" active
systemctl reload --no-block "$svc"
wait_started "$top/reloading.started" "$svc"
expect_eq "$svc while its reload is held" "$(systemctl show -P ActiveState "$svc")" reloading
umount_held "$d" "$svc" reloaded
touch "$top/reloading.go"

# 2. What the instance runs, when the mount point is no longer mounted by
# the time it looks (the instance was not stopped yet): nothing to apply,
# and above all not the filesystem that holds the mount point.
d=$top/gone
mkdir -p "$d"
unit=$(systemd-escape -p --suffix=mount "$d")
mount -t tmpfs -o size=1m,x-relatime-interval=1h tmpfs "$d"
umount "$d"
# as an fstab unit would still report them
out=$(atimectl apply --if-mounted --options=x-relatime-interval=1h -- "$d" 2>&1) ||
	die "apply --if-mounted on an unmounted mount point failed: $out"
note "apply --if-mounted, unmounted: $out"
expect_eq "/run override after apply on the unmounted $d" "$(cat "$(override_file /run)")" "$run_override"
out=$("$libexec" "$unit" "$d" 2>&1) || die "atimectl-apply-unit on an unmounted mount point failed: $out"
rmdir "$d"
out=$(atimectl apply --if-mounted --options=x-relatime-interval=1h -- "$d" 2>&1) ||
	die "apply --if-mounted on a removed mount point failed: $out"
out=$("$libexec" "$unit" "$d" 2>&1) || die "atimectl-apply-unit on a removed mount point failed: $out"
note "atimectl-apply-unit, removed: $out"

# 3. Mount and unmount in a tight loop, as tests do, with and without the
# option, removing the mount point or not: no instance fails.  Some must
# have started, or the check says nothing: systemd handles mountinfo
# changes in order, so once a mount made after the loop has its instance
# active, it has seen every mount of the loop.
mark=$(journal_mark)
n=20
for ((i = 0; i < n; i++)); do
	d=$top/loop$i
	mkdir -p "$d"
	if ((i % 2)); then
		mount -t tmpfs -o size=1m,x-relatime-interval=1h tmpfs "$d"
	else
		mount -t tmpfs -o size=1m tmpfs "$d"
	fi
	umount "$d"
	if ((i % 4 < 2)); then
		rmdir "$d"
	fi
done
# the same mount point again and again
d=$top/again
mkdir -p "$d"
for ((i = 0; i < n; i++)); do
	mount -t tmpfs -o size=1m,x-relatime-interval=1h tmpfs "$d"
	umount "$d"
done
d=$top/after
mkdir -p "$d"
svc=$(svc_of "$d")
mount -t tmpfs -o size=1m,x-relatime-interval=1h tmpfs "$d"
state=$(wait_state "$svc" active failed)
[ "$state" = active ] || { show_unit "$svc"; die "$svc of the mount after the loop: $state, want active"; }
umount "$d"
settle 'atimectl-apply@run-shortlived-*'
ran=$(journal_since "$mark" _PID=1 |
	grep -c -E '^Starting .*Relatime interval for /run/shortlived/(loop[0-9]+|again)(\.\.\.)?$' || true)
note "$((2 * n)) short-lived mounts, instances started: $ran"
[ "$ran" -ge 1 ] || die "no atimectl-apply@ instance started for the $((2 * n)) short-lived mounts: nothing was tested"
no_failed "short-lived mounts" 'atimectl-apply@run-shortlived-*'
expect_eq "/run override after the loop" "$(cat "$(override_file /run)")" "$run_override"

# 4. A mount that stays, with a value that is not a duration: its instance
# still fails (with its exit code, one line naming the mount point).
d=$top/bad
mkdir -p "$d"
svc=$(svc_of "$d")
mount -t tmpfs -o size=1m,x-relatime-interval=fast tmpfs "$d"
state=$(wait_state "$svc" failed active)
[ "$state" = failed ] || { show_unit "$svc"; die "$svc with x-relatime-interval=fast: $state, want failed"; }
expect_eq "$svc Result" "$(systemctl show -P Result "$svc")" exit-code
log=$(apply_log "$svc")
case $log in
*"$d"*fast*) ;;
*) die "$svc log does not name $d and 'fast': $log" ;;
esac
expect_fail "apply --if-mounted with a bad value on a mounted $d" \
	atimectl apply --if-mounted --options=x-relatime-interval=fast -- "$d"
umount "$d"
systemctl reset-failed "$svc"
