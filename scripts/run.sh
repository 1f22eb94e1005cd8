#!/usr/bin/env bash
# Build the patched kernel and the image, then boot them in QEMU: an
# interactive root shell with atimectl when stdin is a terminal (leave with
# "poweroff", or Ctrl-a x), otherwise a short demo that prints
# "atimectl status" and powers off.
# ATIMECTL_KERNEL=FILE boots FILE instead of building the kernel;
# ATIMECTL_BASE=6.1|6.12 picks the kernel base (default 6.1).
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
bash scripts/build-image.sh
if [ -t 0 ]; then
	exec bash scripts/vm.sh "${kernel[@]}" "$@"
fi
exec bash scripts/vm.sh --demo "${kernel[@]}" "$@"
