#!/usr/bin/env bash
# Build the guest image build/image-RELEASE/image.cpio with mkosi: Debian
# RELEASE with systemd (mkosi.conf, mkosi.conf.d/RELEASE/), the image's
# static configuration (mkosi.extra/), the project's Debian package, which
# mkosi.build.chroot builds inside the image (dpkg-buildpackage, against
# the release's own libmount and libsmartcols) and mkosi installs with apt,
# and the in-guest tests, built there too; and the patched guest kernel
# as Debian packages it (kernel/build.sh --deb --config guest), which
# mkosi installs with apt as well and copies out as image.vmlinuz, the
# kernel "mkosi qemu" boots.
#
#   scripts/build-image.sh [--release bookworm|trixie] [--fstests SRC]
#
# The release defaults to $ATIMECTL_RELEASE, else bookworm.  The installed
# OS, build packages included, is cached in $ATIMECTL_MKOSI_CACHE (default
# /var/cache/atimectl-mkosi), so a rebuild costs the package build, its
# installation and the archive.
#
# --fstests SRC builds the fstests image instead (mkosi's profile
# mkosi.profiles/fstests/): the same image with fstests built inside it
# from the fstests tree SRC (git clone
# https://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git, or its GitHub
# mirror kdave/xfstests) and installed in /var/lib/xfstests, as
# build/image-fstests-RELEASE/image.cpio, cached apart in
# $ATIMECTL_MKOSI_FSTESTS_CACHE (default /var/cache/atimectl-mkosi-fstests):
# it leaves the normal image and its cache alone.  tests/fstests/run.sh
# builds and boots it.  An fstests image is made again only when one of its
# inputs changed since it was made (recorded in its directory's "inputs"):
# the project's files outside bench/fstests/ (committed or not, as "git
# add -A" would see them), the fstests tree (the same way) and its
# commit, the kernel package, the release and mkosi's version.
# bench/fstests/ holds results that no image carries, and a resumed run
# commits there between its parts.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
release=${ATIMECTL_RELEASE:-bookworm}
cache=${ATIMECTL_MKOSI_CACHE:-/var/cache/atimectl-mkosi}
fstests=

while [ $# -gt 0 ]; do
	case "$1" in
	--release) release=$2; shift ;;
	--release=*) release=${1#*=} ;;
	--fstests)
		[ $# -ge 2 ] && [ -n "$2" ] || { echo "scripts/build-image.sh: --fstests needs the fstests source tree" >&2; exit 2; }
		fstests=$2; shift ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "scripts/build-image.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
if [ ! -d "mkosi.conf.d/$release" ]; then
	echo "scripts/build-image.sh: unknown release '$release' (have: $(ls mkosi.conf.d | tr '\n' ' '))" >&2
	exit 2
fi

# An fstests tree has the check script and the tests; refuse anything
# else before mkosi starts, whose build script would fail minutes later.
fargs=()
if [ -n "$fstests" ]; then
	if [ ! -x "$fstests/check" ] || [ ! -d "$fstests/tests" ]; then
		echo "scripts/build-image.sh: --fstests: '$fstests' is not an fstests tree (no check script and tests/ directory)" >&2
		exit 2
	fi
	fstests=$(cd "$fstests" && pwd)
	fcommit=$(git -C "$fstests" rev-parse HEAD 2>/dev/null || echo unknown)
	cache=${ATIMECTL_MKOSI_FSTESTS_CACHE:-/var/cache/atimectl-mkosi-fstests}
	# The profile names the repository as a build source; the tree
	# comes in addition, under build/ (ignored by git), where mkosi
	# makes its mount point.
	fargs=(--profile=fstests --build-sources="$fstests:build/fstests-src"
		--environment=ATIMECTL_FSTESTS_COMMIT="$fcommit")
fi

log() { printf '[image] %s\n' "$*" >&2; }
start=$(date +%s)
out=build/image-${fstests:+fstests-}$release
log=build/image-${fstests:+fstests-}$release.log

. kernel/bases.sh
base=$(release_base "$release")
kdir=build/kernel/$base/deb-guest
kdebs=("$kdir"/linux-image-*.deb)
kargs=()
kpkg=
if [ ${#kdebs[@]} -gt 1 ]; then
	echo "scripts/build-image.sh: more than one kernel package in $kdir: ${kdebs[*]}" >&2
	exit 1
elif [ -f "${kdebs[0]}" ]; then
	kpkg=$(dpkg-deb -f "${kdebs[0]}" Package)
	kargs=(--volatile-package-directory="$kdir" --volatile-package="$kpkg")
else
	log "WARNING: no kernel package in $kdir (kernel/build.sh --base $base --deb --config guest): the image carries no kernel, and 'mkosi qemu' cannot boot it"
fi

# worktree_id DIR: the id of the tree "git add -A" would commit in DIR's
# repository (its index left alone), or nothing outside a repository.
worktree_id() {
	local index id
	index=$(mktemp)
	# (No index to start from: git takes a missing one for an empty one.)
	cp "$(git -C "$1" rev-parse --path-format=absolute --git-path index)" "$index" 2>/dev/null ||
		rm -f "$index"
	id=$(GIT_INDEX_FILE=$index git -C "$1" add -A . 2>/dev/null &&
		GIT_INDEX_FILE=$index git -C "$1" write-tree 2>/dev/null) || id=
	rm -f "$index"
	echo "$id"
}
inputs=
if [ -n "$fstests" ]; then
	own=$(worktree_id "$top")
	ftree=$(worktree_id "$fstests")
	if [ -n "$own" ] && [ -n "$ftree" ]; then
		inputs="release $release
project $(git -C "$top" ls-tree -r "$own" | grep -v -P '\tbench/fstests/' | sha256sum | cut -d' ' -f1)
fstests $fcommit $ftree
kernel $( [ -n "$kpkg" ] && sha256sum "${kdebs[0]}" | cut -d' ' -f1)
mkosi $(mkosi --version 2>/dev/null)"
	fi
	if [ -n "$inputs" ] && [ -f "$out/image.cpio" ] && [ -f "$out/inputs" ] &&
		[ "$(cat "$out/inputs")" = "$inputs" ]; then
		bash scripts/make-disks.sh build/mkosi-disks
		log "$out/image.cpio: its inputs have not changed since it was made ($out/inputs); not made again"
		exit 0
	fi
fi

mkdir -p "$cache" "$out"
rm -f "$out/inputs"
mkosi --force --release="$release" --cache-dir="$cache" "${kargs[@]}" "${fargs[@]}" \
	build >"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	echo "scripts/build-image.sh: mkosi failed; full log in $log" >&2
	exit 1
}
# The test disks "mkosi qemu" attaches (mkosi.conf, QemuArgs=).
bash scripts/make-disks.sh build/mkosi-disks
[ -z "$inputs" ] || printf '%s\n' "$inputs" >"$out/inputs"
log "$out/image.cpio ($(du -h "$out/image.cpio" | cut -f1), with ${kpkg:-no kernel}${fstests:+, fstests $fcommit}) in $(( $(date +%s) - start ))s"
