# x-relatime-interval= in Options= of .mount units: applied on every start
# (mount(8) keeps it in utab, atimectl-apply.service applies it), gone with
# the superblock on stop, applied again by "systemctl reload" after the
# option changed (a remount that rewrites utab), and applied when an
# automount mounts.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh

dir=/run/systemd/system
# Names with "-" in them: systemd's own unit names.
where=/run/atimectl-tests/sd-unit
unit=$(systemd-escape -p --suffix=mount "$where")
where2=/run/atimectl-tests/sd-auto
unit2=$(systemd-escape -p --suffix=mount "$where2")
auto2=${unit2%.mount}.automount

sysctl_set fs.relatime_interval 60
cleanup() {
	systemctl stop "$auto2" "$unit2" "$unit" 2>/dev/null || true
	rm -f "$dir/$unit" "$dir/$unit2" "$dir/$auto2"
	systemctl daemon-reload || true
	restore_sysctls
	cleanup_mounts
}
trap cleanup EXIT

dev=$(scratch_dev scratch1)
mkfs.ext4 -q -F "$dev"
write_unit() {	# write_unit OPTIONS
	cat >"$dir/$unit" <<UNIT
[Unit]
Description=atimectl test mount

[Mount]
What=$dev
Where=$where
Type=ext4
Options=$1
UNIT
}
write_unit x-relatime-interval=45min
systemctl daemon-reload

# Start: 45min.
systemctl start "$unit"
mountpoint -q "$where" || die "$unit started but $where is not mounted"
mm=$(majmin "$where")
expect_interval "after start" "$where" 2700

# Stop: the superblock and its directory go.
systemctl stop "$unit"
wait_gone "/sys/fs/relatime/$mm" || die "/sys/fs/relatime/$mm still there after stop"

# Start again: a new superblock (starting at -1) gets 45min again.
systemctl start "$unit"
mm=$(majmin "$where")
expect_eq "override after the second start" "$(wait_file "/sys/fs/relatime/$mm/relatime_interval" 2700)" 2700

# Change the option; daemon-reload; a reload (remount) of the mount
# rewrites utab, and the service applies the new value to the same
# superblock.
write_unit x-relatime-interval=20min
systemctl daemon-reload
systemctl reload "$unit"
expect_eq "superblock after reload" "$(majmin "$where")" "$mm"
expect_eq "override after reload" "$(wait_file "/sys/fs/relatime/$mm/relatime_interval" 1200)" 1200
systemctl stop "$unit"

# An automount: the mount it triggers is applied like any other.
dev2=$(scratch_dev scratch2)
mkfs.ext4 -q -F "$dev2"
cat >"$dir/$unit2" <<UNIT
[Unit]
Description=atimectl test automounted mount

[Mount]
What=$dev2
Where=$where2
Type=ext4
Options=x-relatime-interval=1h
UNIT
cat >"$dir/$auto2" <<UNIT
[Unit]
Description=atimectl test automount

[Automount]
Where=$where2
UNIT
systemctl daemon-reload
systemctl start "$auto2"
expect_eq "$unit2 before access" "$(systemctl show -P ActiveState "$unit2")" inactive
ls "$where2" >/dev/null
expect_eq "$unit2 after access" "$(wait_state "$unit2" active)" active
expect_eq "automounted filesystem" "$(findmnt -n -o FSTYPE --mountpoint "$where2" | tail -n 1)" ext4
expect_interval "after automount" "$where2" 3600
