#!/usr/bin/env bash
# Make the guest's test disks in DIR: 512 MB raw files that scripts/vm.sh
# and "mkosi qemu" (mkosi.conf, QemuArgs=) attach as virtio disks with the
# file name as serial.  mail and cache carry the ext4 filesystems (no
# journal) whose labels the image's /etc/fstab names; broken (with
# --broken) is the one whose fstab line has a malformed
# x-relatime-interval=; scratch1 and scratch2 are blank, for the tests'
# own filesystems.
#
#   scripts/make-disks.sh DIR [--broken] [--scratch-size SIZE]
#
# --scratch-size makes the two scratch disks SIZE (a number with an
# optional K, M or G suffix, as truncate(1) reads it; default 512M):
# fstests wants several GB for its test and scratch filesystems.  All the
# files are sparse, so a large one costs only what the guest writes.
set -euo pipefail
usage() { echo "scripts/make-disks.sh: $*" >&2; echo "usage: scripts/make-disks.sh DIR [--broken] [--scratch-size SIZE]" >&2; exit 2; }
[ $# -ge 1 ] || usage "no directory given"
dir=$1
shift
broken=0
scratch_size=512M
while [ $# -gt 0 ]; do
	case "$1" in
	--broken) broken=1 ;;
	--scratch-size)
		[ $# -ge 2 ] || usage "--scratch-size needs a size"
		scratch_size=$2; shift ;;
	*) usage "unknown argument '$1'" ;;
	esac
	shift
done
[[ $scratch_size =~ ^[1-9][0-9]*[KMG]?$ ]] ||
	usage "--scratch-size takes a size such as 512M or 8G, not '$scratch_size'"
mkdir -p "$dir"
make_disk() {
	local file=$dir/$1.img label=$2 size=${3:-512M}
	rm -f "$file"
	truncate -s "$size" "$file"
	[ -z "$label" ] || mkfs.ext4 -q -F -L "$label" -O ^has_journal "$file"
}
make_disk mail atime-mail
make_disk cache atime-cache
[ "$broken" = 0 ] || make_disk broken atime-broken
make_disk scratch1 "" "$scratch_size"
make_disk scratch2 "" "$scratch_size"
