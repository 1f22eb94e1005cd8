#!/usr/bin/env bash
# Build the patched kernel and the image, then boot them in QEMU: an
# interactive root shell with atimectl when stdin is a terminal (leave with
# "poweroff", or Ctrl-a x), otherwise a short demo that prints
# "atimectl status" and powers off.
# ATIMECTL_KERNEL=FILE boots FILE instead of building the kernel;
# ATIMECTL_BASE=6.1|6.12 picks the kernel base (default 6.1).
# ATIMECTL_RELEASE=trixie the Debian 13 image instead of the bookworm one.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/host-deps.sh
kernel=()
if [ -n "${ATIMECTL_KERNEL:-}" ]; then
	kernel=(--kernel "$ATIMECTL_KERNEL")
else
	bash kernel/build.sh
fi
release=${ATIMECTL_RELEASE:-bookworm}
bash scripts/build-image.sh --release "$release"
if [ -t 0 ]; then
	exec bash scripts/vm.sh --release "$release" "${kernel[@]}" "$@"
fi
exec bash scripts/vm.sh --demo --release "$release" "${kernel[@]}" "$@"
