#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs atimectl-generator on a made-up fstab and unit directories and
# checks what it writes.
#   test-generator.sh GENERATOR TEMPLATE-PATH-IT-LINKS-TO
set -eu
gen=$1
unitdir=$2
export SYSTEMD_LOG_TARGET=console
# meson test --setup valgrind: every generator run under valgrind
read -r -a wrapper <<<"${ATIMECTL_TEST_WRAPPER:-}"
gen() { "${wrapper[@]}" "$gen" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

root=$tmp/root
out=$tmp/out
mkdir -p "$root/etc/systemd/system" "$root/run/systemd/system" \
	"$root/usr/local/lib/systemd/system" "$root/usr/lib/systemd/system" "$out" "$tmp/late" "$tmp/early"

cat >"$tmp/fstab" <<'FSTAB'
# comment
LABEL=root      /                ext4  defaults,x-relatime-interval=1d       0 1
LABEL=cache     /srv/cache       ext4  nofail,x-relatime-interval=2h         0 0
LABEL=cache2    /srv/cache       ext4  x-relatime-interval=5min              0 0
LABEL=plain     /srv/plain       ext4  defaults                              0 0
LABEL=broken    /srv/broken      ext4  nofail,x-relatime-interval=fast       0 0
LABEL=space     /srv/my\040data  ext4  x-relatime-interval=1h,comment="a%b"  0 0
LABEL=swap      none             swap  sw,x-relatime-interval=1h             0 0
LABEL=over      /srv/over        ext4  x-relatime-interval=1h                0 0
LABEL=dropped   /srv/dropped     ext4  defaults                              0 0
LABEL=dotted    //srv//.dot/     ext4  x-relatime-interval=30s               0 0
FSTAB

etc=$root/etc/systemd/system
run=$root/run/systemd/system
usr=$root/usr/lib/systemd/system
# /etc overrides the fstab line for /srv/over, without the option
printf '[Mount]\nWhat=/dev/x\nWhere=/srv/over\n' >"$etc/srv-over.mount"
# a drop-in adds the option to a fstab mount
mkdir -p "$etc/srv-dropped.mount.d"
printf '[Mount]\nOptions=x-relatime-interval=3h\n' >"$etc/srv-dropped.mount.d/10-atime.conf"
# unit files
cat >"$etc/mnt-a.mount" <<'UNIT'
[Unit]
Description=Options= in another section is ignored, \
  and this line continues
Options=x-relatime-interval=1s

[Mount]
What=/dev/vdb
Where=/mnt/a
# Options=commented out
Options=rw,x-relatime-interval=45min,x-note=100%%
Type=ext4
UNIT
printf '[Mount]\nWhere=/mnt/b\nOptions=x-relatime-interval=1h\n' >"$usr/mnt-b.mount"
ln -s /dev/null "$etc/mnt-b.mount"        # masked
printf '[Mount]\nWhere=/mnt/c\nOptions=rw\n' >"$run/mnt-c.mount"
mkdir -p "$usr/mnt-c.mount.d" "$etc/mnt-.mount.d"
printf '[Mount]\nOptions=x-relatime-interval=1h\n' >"$usr/mnt-c.mount.d/10-x.conf"
printf '[Mount]\nOptions=x-relatime-interval=2h\n' >"$etc/mnt-.mount.d/20-y.conf"
# same name in a lower directory: /run's wins
printf '[Mount]\nWhere=/mnt/c\nOptions=x-relatime-interval=9h\n' >"$usr/mnt-c.mount"
# Where= does not match the name: systemd refuses it, so do we
printf '[Mount]\nWhere=/mnt/other\nOptions=x-relatime-interval=1h\n' >"$usr/mnt-d.mount"
# no [Mount] options at all
printf '[Mount]\nWhere=/mnt/e\n' >"$usr/mnt-e.mount"
# "Options=" resets
printf '[Mount]\nWhere=/mnt/f\nOptions=x-relatime-interval=1h\nOptions=\n' >"$usr/mnt-f.mount"
# mnt-a and mnt-c get 20-y.conf from mnt-.mount.d too, which sorts last
# and sets 2h; so mnt-a's own options lose, as with systemd.

SYSTEMD_FSTAB=$tmp/fstab ATIMECTL_GENERATOR_ROOT=$root gen "$out" "$tmp/early" "$tmp/late" 2>"$tmp/log" ||
	bad "generator exited $?"
cat "$tmp/log" >&2

expect_unit() {	# expect_unit INSTANCE OPTIONS
	local l="$out/$1.mount.wants/atimectl-apply@$1.service"
	local d="$out/atimectl-apply@$1.service.d/50-options.conf"
	if [ ! -L "$l" ]; then
		bad "$1: no wants symlink"
	elif [ "$(readlink "$l")" != "$unitdir" ]; then
		bad "$1: symlink to $(readlink "$l")"
	fi
	if [ ! -f "$d" ]; then
		bad "$1: no drop-in"
	elif ! grep -qxF "Environment=$2" "$d" || ! grep -qx '\[Service\]' "$d"; then
		bad "$1: drop-in is: $(cat "$d")"
	fi
}
expect_none() {
	if [ -e "$out/$1.mount.wants" ] || [ -e "$out/atimectl-apply@$1.service.d" ]; then
		bad "$1: generated, should not be"
	fi
}

expect_unit - '"ATIMECTL_MOUNT_OPTIONS=defaults,x-relatime-interval=1d"'
[ -L "$out/local-fs.target.wants/atimectl-apply@-.service" ] || bad "root: no local-fs.target.wants link"
expect_unit srv-cache '"ATIMECTL_MOUNT_OPTIONS=nofail,x-relatime-interval=2h"'
expect_unit srv-broken '"ATIMECTL_MOUNT_OPTIONS=nofail,x-relatime-interval=fast"'
expect_unit 'srv-my\x20data' '"ATIMECTL_MOUNT_OPTIONS=x-relatime-interval=1h,comment=\"a%%b\""'
expect_unit srv-dropped '"ATIMECTL_MOUNT_OPTIONS=x-relatime-interval=3h"'
expect_unit 'srv-.dot' '"ATIMECTL_MOUNT_OPTIONS=x-relatime-interval=30s"'
expect_none srv-plain
expect_none srv-over
expect_unit mnt-a '"ATIMECTL_MOUNT_OPTIONS=x-relatime-interval=2h"'
expect_none mnt-b
expect_unit mnt-c '"ATIMECTL_MOUNT_OPTIONS=x-relatime-interval=2h"'
expect_none mnt-d
grep -q 'mnt-d.mount: Where=/mnt/other does not match' "$tmp/log" || bad "no message about mnt-d"
# the prefix drop-in reaches these too
expect_unit mnt-e '"ATIMECTL_MOUNT_OPTIONS=x-relatime-interval=2h"'
expect_unit mnt-f '"ATIMECTL_MOUNT_OPTIONS=x-relatime-interval=2h"'
n=$(find "$out" -name '*.service' | wc -l)
[ "$n" = 11 ] || bad "$n service links, want 11: $(find "$out" -name '*.service')"

# mnt-a without the prefix drop-in: its own options, %% unescaped and
# quoted again for Environment=.
rm -rf "$etc/mnt-.mount.d" "$out" && mkdir "$out"
SYSTEMD_FSTAB=$tmp/fstab ATIMECTL_GENERATOR_ROOT=$root gen "$out" 2>/dev/null || bad "second run failed"
expect_unit mnt-a '"ATIMECTL_MOUNT_OPTIONS=rw,x-relatime-interval=45min,x-note=100%%"'
expect_unit mnt-c '"ATIMECTL_MOUNT_OPTIONS=x-relatime-interval=1h"'
expect_none mnt-e
expect_none mnt-f

# Running again over existing output is fine (daemon-reload reuses nothing,
# but be idempotent anyway).
SYSTEMD_FSTAB=$tmp/fstab ATIMECTL_GENERATOR_ROOT=$root gen "$out" 2>/dev/null || bad "rerun failed"

# Missing fstab and unit directories: nothing, exit 0.
rm -rf "$out" && mkdir "$out"
SYSTEMD_FSTAB=$tmp/none ATIMECTL_GENERATOR_ROOT=$tmp/nothing gen "$out" || bad "empty config failed"
[ -z "$(ls -A "$out")" ] || bad "empty config generated: $(ls -A "$out")"

# Wrong usage is an error.
if gen 2>/dev/null; then bad "no arguments accepted"; fi

exit $fail
