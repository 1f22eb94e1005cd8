# mount(8) by hand, with no step by the user: "mount -o
# x-relatime-interval=..." (libmount keeps the x- option in utab, which
# atimectl-apply.path watches), "-o relatime_interval=" (the kernel's own,
# no window), remounts that change the value, one that does not, a value
# set with "atimectl set" that later utab changes leave alone, and an fstab
# filesystem unmounted and mounted again with plain umount/mount.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60
remount() { mountpoint -q /srv/cache || mount /srv/cache || true; restore_sysctls; cleanup_mounts; }
trap remount EXIT

# A tmpfs mounted by hand with the option.
t=/run/atimectl-tests/mnt-byhand
mkdir -p "$t"
mount -t tmpfs -o size=1m,x-relatime-interval=20min tmpfs "$t"
note "utab: $(grep -F "$t" /run/mount/utab || echo none)"
expect_interval "mount -o by hand" "$t" 1200

# Remounts by hand: a new value is applied, to the same superblock; a
# malformed one is reported and changes nothing.
mm=$(majmin "$t")
mount -o remount,x-relatime-interval=25min "$t"
expect_interval "remount -o x-relatime-interval=25min" "$t" 1500
expect_eq "superblock after remount" "$(majmin "$t")" "$mm"
apply_settled
since=$(journal_mark)
mount -o remount,x-relatime-interval=soon "$t"
lines=$(apply_lines "$since" "$t")
expect_eq "remount with a malformed value: the report" "$lines" \
	"atimectl: $t: invalid x-relatime-interval= value 'soon': not a duration (expected seconds or a time span such as 90s, 30min, 1h, 1d 12h)"
expect_eq "remount with a malformed value: the override" "$(cat "$(override_file "$t")")" 1500
# The kernel's option on a remount by hand: in force when mount returns.
mount -o remount,relatime_interval=700 "$t"
expect_eq "remount -o relatime_interval=700" "$(cat "$(override_file "$t")")" 700

# "atimectl set" wins over the declaration until the mount declares anew:
# another mount's utab change does not undo it.
atimectl set "$t" 33min >/dev/null
o=/run/atimectl-tests/mnt-other
mkdir -p "$o"
mount -t tmpfs -o size=1m,x-relatime-interval=1h tmpfs "$o"
expect_eq "the other mount" "$(wait_file "$(override_file "$o")" 3600)" 3600
apply_settled
expect_eq "atimectl set survives another mount" "$(cat "$(override_file "$t")")" 1980
umount "$o" "$t"

# By hand without the option: left alone.
mount -t tmpfs -o size=1m tmpfs "$t"
apply_settled
expect_no_override "mount by hand without the option" "$t"
umount "$t"

# "-o relatime_interval=" by hand: the kernel's option, no window.
mount -t tmpfs -o size=1m,relatime_interval=1234 tmpfs "$t"
expect_eq "mount -o relatime_interval=1234" "$(cat "$(override_file "$t")")" 1234
umount "$t"

# An fstab filesystem, by hand: mount(8) reads the x- option from fstab
# (the generator's drop-in is systemd's, not mount's), utab has it, and the
# service applies it.
wait_mounted /srv/cache
old=$(majmin /srv/cache)
umount /srv/cache
wait_gone "/sys/fs/relatime/$old" || die "/sys/fs/relatime/$old still there after umount"
mount /srv/cache
expect_interval "fstab mount by hand" /srv/cache 7200
