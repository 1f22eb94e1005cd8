#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Make "the previous version" of a built atimectl .deb, for the in-guest
# upgrade test (tests/vm/t/deb-upgrade.sh): the same package with the
# version VERSION~prev, which dpkg orders before VERSION, and the layout
# of 0.1.0, the version before the paths changed: atimectl in /usr/sbin
# (the service runs it there), and the units and the generator in
# /usr/lib/systemd/, which on Debian 12 the new package ships
# in /lib/systemd/ (the same directory on a merged /usr: an upgrade must
# not lose the files that move between the two names).  Prints the path
# of the new .deb.
#
#   tests/deb-prev.sh atimectl_VERSION_ARCH.deb OUTDIR
#
# mkosi.build.chroot runs it on the package it built.
set -euo pipefail

if [ $# -ne 2 ]; then
	sed -n '4,15p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
deb=$1 out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
dpkg-deb -R "$deb" "$root"

version=$(dpkg-deb -f "$deb" Version)~prev
sed -i "s/^Version: .*/Version: $version/" "$root/DEBIAN/control"

mkdir -p "$root/usr/sbin"
mv "$root/usr/bin/atimectl" "$root/usr/sbin/atimectl"
rmdir --ignore-fail-on-non-empty "$root/usr/bin"
service=$(find "$root" -name atimectl-apply.service -path '*/system/*')
sed -i 's|^ExecStart=/usr/bin/atimectl |ExecStart=/usr/sbin/atimectl |' "$service"
grep -q '^ExecStart=/usr/sbin/atimectl ' "$service" || {
	echo "tests/deb-prev.sh: atimectl-apply.service does not run /usr/sbin/atimectl" >&2
	exit 1
}
if [ -d "$root/lib/systemd" ]; then
	mkdir -p "$root/usr/lib"
	cp -a "$root/lib/systemd" "$root/usr/lib/"
	rm -r "$root/lib"
fi

# md5sums for the moved paths
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
	LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
arch=$(dpkg-deb -f "$deb" Architecture)
mkdir -p "$out"
dpkg-deb --root-owner-group -b "$root" "$out/atimectl_${version}_$arch.deb" >/dev/null
echo "$out/atimectl_${version}_$arch.deb"
