#!/usr/bin/env bash
# Build the guest image build/image/image.cpio with mkosi: Debian bookworm
# with systemd (mkosi.conf), the image's static configuration (mkosi.extra/),
# the project's userspace as "meson install" puts it, and the in-guest tests.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
stage=$top/build/stage
cache=${ATIMECTL_MKOSI_CACHE:-/var/cache/atimectl-mkosi}

log() { printf '[image] %s\n' "$*" >&2; }
start=$(date +%s)

# The userspace, installed the way a distribution package would.
if [ ! -f meson.build ]; then
	echo "[image] no meson.build yet: image without the userspace" >&2
	mkdir -p "$stage"
elif [ ! -f build/meson/build.ninja ]; then
	meson setup --prefix=/usr --buildtype=debugoptimized build/meson >/dev/null
fi
rm -rf "$stage"
if [ -f build/meson/build.ninja ]; then
	meson compile -C build/meson >/dev/null
	DESTDIR=$stage meson install -C build/meson --quiet >/dev/null
fi

# The in-guest test suite and the unit that runs it when the kernel
# command line says atimetest.suite=NAME.
tests=$stage/usr/lib/atimectl-tests
mkdir -p "$tests" "$stage/usr/lib/systemd/system"
cp -r tests/vm/. "$tests/"
rm -rf "$tests/units" "$tests/helpers" "$tests/generators"
mkdir -p "$tests/helpers"
for src in tests/vm/helpers/*.c; do
	cc -O2 -Wall -Wextra -Werror -o "$tests/helpers/$(basename "$src" .c)" "$src"
done
for unit in tests/vm/units/*.service; do
	cp "$unit" "$stage/usr/lib/systemd/system/"
	target=$(sed -n 's/^WantedBy=//p' "$unit")
	mkdir -p "$stage/etc/systemd/system/${target:-multi-user.target}.wants"
	ln -sf "/usr/lib/systemd/system/$(basename "$unit")" \
		"$stage/etc/systemd/system/${target:-multi-user.target}.wants/"
done

# Test-only generators (each does nothing unless an atimetest. kernel
# parameter asks for it).
mkdir -p "$stage/usr/lib/systemd/system-generators"
cp tests/vm/generators/* "$stage/usr/lib/systemd/system-generators/"

# The benchmark's guest half (bench/run.sh), run on atimebench= boots only.
[ -x bench/stage.sh ] && bench/stage.sh "$stage"

mkdir -p "$cache"
mkosi --force --cache-dir="$cache" --extra-tree="$stage" build >build/image.log 2>&1 || {
	tail -n 30 build/image.log >&2
	echo "scripts/build-image.sh: mkosi failed; full log in build/image.log" >&2
	exit 1
}
log "build/image/image.cpio ($(du -h build/image/image.cpio | cut -f1)) in $(( $(date +%s) - start ))s"
