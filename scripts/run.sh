#!/usr/bin/env bash
# Build the patched kernel, its Debian package and the image that installs
# it, then boot them in QEMU: an
# interactive root shell with atimectl when stdin is a terminal (leave with
# "poweroff", or Ctrl-a x), otherwise a short demo that prints
# "atimectl status" and powers off.
# ATIMECTL_KERNEL=FILE boots FILE instead of building the kernel;
# ATIMECTL_BASE=6.1|6.12|7.3 picks the kernel base (default 6.1), which boots
# its own release's image (bookworm for 6.1, trixie for 6.12) unless
# ATIMECTL_RELEASE=bookworm|trixie names another.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/host-deps.sh
kernel=()
if [ -n "${ATIMECTL_KERNEL:-}" ]; then
	kernel=(--kernel "$ATIMECTL_KERNEL")
else
	# the kernel and its package, which the image installs
	bash kernel/build.sh --deb --config guest
fi
. kernel/bases.sh
base=${ATIMECTL_BASE:-6.1}
check_base scripts/run.sh "$base"
export ATIMECTL_BASE=$base
release=${ATIMECTL_RELEASE:-$(base_release "$base")}
bash scripts/build-image.sh --release "$release"
if [ -t 0 ]; then
	exec bash scripts/vm.sh --release "$release" "${kernel[@]}" "$@"
fi
exec bash scripts/vm.sh --demo --release "$release" "${kernel[@]}" "$@"
