# noatime, strictatime and nodiratime behave exactly as upstream's.
. /usr/lib/atimectl-tests/lib.sh
sysctl_set fs.relatime_interval 3600

mnt=$(mount_scratch scratch1 -o noatime)
has_opt "$mnt" noatime || die "noatime mount lacks noatime: $(mount_opts "$mnt")"
echo x >"$mnt/f"; touch -a -d @1000000000 "$mnt/f"
read_file "$mnt/f"
expect_eq "noatime: atime after read" "$(atime "$mnt/f")" 1000000000
umount "$mnt"

mnt=$(mount_scratch scratch1 -o strictatime)
has_opt "$mnt" relatime && die "strictatime mount shows relatime: $(mount_opts "$mnt")"
has_opt "$mnt" noatime && die "strictatime mount shows noatime"
fresh_file "$mnt/f"
expect_read "strictatime, a read 5s later" "$mnt/f" $(( $(atime "$mnt/f") + 5 )) updates
umount "$mnt"

mnt=$(mount_scratch scratch1 -o nodiratime,strictatime)
mkdir "$mnt/d"; echo x >"$mnt/d/f"
touch -a -d @1000000000 "$mnt/d" "$mnt/d/f"
ls "$mnt/d" >/dev/null
read_file "$mnt/d/f"
expect_eq "nodiratime: directory atime after readdir" "$(atime "$mnt/d")" 1000000000
[ "$(atime "$mnt/d/f")" -gt 1000000000 ] || die "nodiratime: file atime not updated"
