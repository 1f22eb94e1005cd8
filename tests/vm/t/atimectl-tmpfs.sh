# status of a fresh tmpfs: its own directory, zero counters, no override.
. /usr/lib/atimectl-tests/lib.sh
t=/run/atimectl-tests/mnt-tmpfs
mkdir -p "$t"
mount -t tmpfs tmpfs "$t"
j=$(atimectl status --json "$t")
echo "$j"
expect_eq "fstype" "$(jq -r '.filesystems[0].fstype' <<<"$j")" tmpfs
expect_eq "maj:min" "$(jq -r '.filesystems[0]."maj:min"' <<<"$j")" "$(majmin "$t")"
expect_eq "updates" "$(jq -r '.filesystems[0].updates' <<<"$j")" 0
expect_eq "skips" "$(jq -r '.filesystems[0].skips' <<<"$j")" 0
expect_eq "override" "$(jq -r '.filesystems[0].override' <<<"$j")" null
expect_eq "interval" "$(jq -r '.filesystems[0].interval' <<<"$j")" 86400
# Counters move with reads: one read after the file's creation updates
# atime (atime <= mtime), the next is a relatime skip.
echo x >"$t/f"
sleep 0.05
read_once "$t/f"
read_once "$t/f"
j=$(atimectl status --json "$t")
expect_eq "updates after two reads" "$(jq -r '.filesystems[0].updates' <<<"$j")" 1
expect_eq "skips after two reads" "$(jq -r '.filesystems[0].skips' <<<"$j")" 1
umount "$t"
