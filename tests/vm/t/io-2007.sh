# The 2007 experiment: on ext4 without a journal, reads inside the interval
# cause no block-device writes beyond what a bare sync causes, and the
# first read after the interval causes exactly one more write request.
. /usr/lib/atimectl-tests/lib.sh
sysctl_set fs.relatime_interval 3600
mnt=$(mount_scratch scratch2)
dev=$(findmnt -n -o SOURCE "$mnt")
for i in $(seq 1 40); do fresh_file "$mnt/f$i"; done
sync; sleep 0.2; sync
t0=$(atime "$mnt/f1")

# What does a sync with nothing dirty cost?
w0=$(writes "$dev"); sync; w1=$(writes "$dev")
base=$((w1 - w0))
note "a bare sync: $base write requests"

clock_set $((t0 + 1800))
for i in $(seq 1 40); do read_file "$mnt/f$i"; done
sync
w2=$(writes "$dev")
expect_eq "writes for 40 reads inside the interval, then sync" $((w2 - w1)) "$base"

clock_set $((t0 + 3700))
read_file "$mnt/f1"
sync
w3=$(writes "$dev")
expect_eq "writes for one read after the interval, then sync" $((w3 - w2)) $((base + 1))
expect_atime_set "the file read after the interval" "$mnt/f1" $((t0 + 3700))
