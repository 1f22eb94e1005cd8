# ext4 on a virtio disk mounts with relatime by default and records an
# atime on read.
. /usr/lib/atimectl-tests/lib.sh
mnt=$(mount_scratch scratch1)
has_opt "$mnt" relatime || die "mount options '$(mount_opts "$mnt")' lack relatime"

echo data >"$mnt/f"
touch -a -d '@1000000000' "$mnt/f"
expect_eq "atime set back" "$(atime "$mnt/f")" 1000000000
before=$(date +%s)
read_file "$mnt/f"
got=$(atime "$mnt/f")
[ "$got" -ge "$before" ] || die "read did not update an old atime: atime $got, read at $before"
