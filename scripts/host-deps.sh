#!/usr/bin/env bash
# Install the Debian 12 packages the build, image and tests need.
# Idempotent: a second run only checks that everything is present.
set -euo pipefail

packages=(
	# kernel build
	# the kernel bases (6.12 from bookworm-security, 7.3 from
	# experimental: see the note on experimental below)
	linux-source-6.1 linux-source-6.12 linux-source-7.3
	# "make bindeb-pkg" (kernel/build.sh --deb): dpkg-buildpackage, and
	# the dh_* tools 6.12's debian/rules runs
	dpkg-dev debhelper lintian
	# Debian's own kernel configurations, which tests/kernel-deb.sh
	# configures the series with
	linux-config-6.1 linux-config-6.12 linux-config-7.3
	build-essential bc bison flex libelf-dev libssl-dev
	ccache cpio xz-utils zstd git rsync kmod python3
	# scripts/checkpatch.pl --strict (its SPDX check)
	python3-ply python3-git
	# image and VM
	qemu-system-x86 qemu-utils e2fsprogs dosfstools
	# mkosi makes the apt repository of the package the image build
	# script makes (VolatilePackages=) with it
	reprepro
	# userspace
	meson ninja-build pkg-config libmount-dev libsmartcols-dev libblkid-dev
	libcmocka-dev clang libclang-rt-14-dev valgrind jq bash-completion
	# the man page's examples are tested as it renders
	man-db
	# "atimectl check" is tested against systemd-tmpfiles --cat-config
	systemd
)
backports=(mkosi)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
mkosi_ok=0
if command -v mkosi >/dev/null 2>&1; then
	v=$(mkosi --version 2>/dev/null | awk '{print $2}')
	[ "${v%%.*}" -ge 24 ] 2>/dev/null && mkosi_ok=1
fi

if [ ${#missing[@]} -eq 0 ] && [ $mkosi_ok -eq 1 ]; then
	exit 0
fi

src=/etc/apt/sources.list.d/bookworm-backports.sources
if ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/; then
	cat > "$src" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
# linux-source-7.3 is in experimental only (trixie-backports carries 7.2
# as of 2026-12; docs/kernel.md).  Experimental is NotAutomatic, so apt
# takes from it only what no other suite has: the 7.3 packages.
exp=/etc/apt/sources.list.d/atimectl-experimental.sources
if ! grep -rqs 'Suites: experimental' /etc/apt/sources.list.d/; then
	cat > "$exp" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: experimental
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
if [ ${#missing[@]} -gt 0 ]; then
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ $mkosi_ok -eq 0 ]; then
	apt-get install -y -q -t bookworm-backports "${backports[@]}"
fi
