#!/usr/bin/env bash
# Make the guest's test disks in DIR: 512 MB raw files that scripts/vm.sh
# and "mkosi qemu" (mkosi.conf, QemuArgs=) attach as virtio disks with the
# file name as serial.  mail and cache carry the ext4 filesystems (no
# journal) whose labels the image's /etc/fstab names; broken (with
# --broken) is the one whose fstab line has a malformed
# x-relatime-interval=; scratch1 and scratch2 are blank, for the tests'
# own filesystems.
#
#   scripts/make-disks.sh DIR [--broken]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/make-disks.sh DIR [--broken]" >&2; exit 2; }
dir=$1
broken=0
case "${2:-}" in
--broken) broken=1 ;;
"") ;;
*) echo "scripts/make-disks.sh: unknown argument '$2'" >&2; exit 2 ;;
esac
mkdir -p "$dir"
make_disk() {
	local file=$dir/$1.img label=$2
	rm -f "$file"
	truncate -s 512M "$file"
	[ -z "$label" ] || mkfs.ext4 -q -F -L "$label" -O ^has_journal "$file"
}
make_disk mail atime-mail
make_disk cache atime-cache
[ "$broken" = 0 ] || make_disk broken atime-broken
make_disk scratch1 ""
make_disk scratch2 ""
