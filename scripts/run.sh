#!/usr/bin/env bash
# Build the patched kernel and the image, then boot them in QEMU: an
# interactive root shell with atimectl when stdin is a terminal (leave with
# "poweroff", or Ctrl-a x), otherwise a short demo that prints
# "atimectl status" and powers off.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/host-deps.sh
bash kernel/build.sh
bash scripts/build-image.sh
if [ -t 0 ]; then
	exec bash scripts/vm.sh "$@"
fi
exec bash scripts/vm.sh --demo "$@"
