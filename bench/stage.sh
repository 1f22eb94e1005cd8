#!/usr/bin/env bash
# Called by mkosi.build.chroot, inside the image being built: put the
# benchmark's guest half into STAGE (mkosi's $DESTDIR): the programs (built
# with the image's compiler, static) in /usr/lib/atimectl-bench/, and the
# unit that runs them on a boot with atimebench= on the kernel command line,
# where the serial console then has no login.
#
#   bench/stage.sh STAGE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
stage=$1
dest=$stage/usr/lib/atimectl-bench
mkdir -p "$dest" "$stage/usr/lib/systemd/system" \
	"$stage/etc/systemd/system/multi-user.target.wants"
for prog in atime-workload atime-cost; do
	${CC:-cc} -O2 -Wall -static -o "$dest/$prog" "$here/guest/$prog.c"
done
install -m 0755 "$here/guest/run-guest" "$dest/run-guest"
for unit in "$here"/units/*.service; do
	cp "$unit" "$stage/usr/lib/systemd/system/"
	ln -sf "/usr/lib/systemd/system/$(basename "$unit")" \
		"$stage/etc/systemd/system/multi-user.target.wants/"
done
# No login on the console of a benchmark boot: the image's autologin
# (agetty, PAM, logind, root's user manager, the shell's profile) would
# run during part 2 and be counted as read-path cost.
getty=$stage/usr/lib/systemd/system/serial-getty@ttyS0.service.d
mkdir -p "$getty"
cp "$here/units/serial-getty-no-bench.conf" "$getty/50-atimectl-bench.conf"
