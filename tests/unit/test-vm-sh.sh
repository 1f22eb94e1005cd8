#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Bad input to scripts/vm.sh: each call is refused with a message naming
# scripts/vm.sh and what was wrong, before any guest is started or any
# file written.  The script runs in a copy of the tree whose QEMU is a
# stub that records that it was called; nothing is booted.
#
#   test-vm-sh.sh SOURCE_ROOT
set -u
src=${1:?usage: test-vm-sh.sh SOURCE_ROOT}
unset ATIMECTL_BASE ATIMECTL_RELEASE ATIMECTL_ACCEL ATIMECTL_TCG_THREAD ATIMECTL_VM_VERBOSE
T=$(mktemp -d /tmp/atimectl-vm-sh-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/tap.sh"
tap_diagnose() { sed 's/^/#   /' "$T/out"; }

tree=$T/tree
mkdir -p "$tree/scripts" "$tree/kernel" "$tree/build/kernel/6.1" "$tree/build/image-bookworm" "$T/bin"
cp "$src/scripts/vm.sh" "$src/scripts/make-disks.sh" "$tree/scripts/"
cp "$src/kernel/bases.sh" "$tree/kernel/"
: >"$tree/build/kernel/6.1/bzImage"
: >"$tree/build/image-bookworm/image.cpio"
printf '#!/bin/sh\ntouch %s/qemu-ran\nexit 0\n' "$T" >"$T/bin/qemu-system-x86_64"
chmod +x "$T/bin/qemu-system-x86_64"

# refused WANT [VAR=VALUE] -- ARGS...: vm.sh fails, says WANT, starts no
# guest and leaves build/ as it was.
refused() {
	local want=$1 before after rc
	shift
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	before=$(cd "$tree" && find build | sort)
	env PATH="$T/bin:$PATH" "${env[@]}" bash "$tree/scripts/vm.sh" "$@" >"$T/out" 2>&1 </dev/null
	rc=$?
	after=$(cd "$tree" && find build | sort)
	[ $rc -ne 0 ] && grep -q -F -- "scripts/vm.sh: $want" "$T/out" &&
		[ ! -e "$T/qemu-ran" ] && [ "$before" = "$after" ]
}

check "an unknown argument is refused" refused "unknown argument '--smpp'" -- --smpp 2
check "--smp must be a number" refused "--smp needs a number of CPUs from 1 to 99, not 'two'" -- --smp two
check "--smp 0 is refused" refused "--smp needs a number of CPUs from 1 to 99, not '0'" -- --smp 0
check "an unknown base is refused" refused "unknown base '6.2'" -- --base 6.2 --suite main
check "ATIMECTL_TCG_THREAD must be single or multi" \
	refused "ATIMECTL_TCG_THREAD must be single or multi, not 'many'" ATIMECTL_TCG_THREAD=many -- --suite main
check "--scratch-size needs a size" refused "--scratch-size needs a size" -- --suite main --scratch-size
check "--scratch-size takes K, M or G" \
	refused "--scratch-size takes a size such as 512M or 8G, not '8T'" -- --suite main --scratch-size 8T
check "--scratch-size takes whole numbers" \
	refused "--scratch-size takes a size such as 512M or 8G, not '1.5G'" -- --suite main --scratch-size 1.5G
check "--scratch-size 0 is refused" \
	refused "--scratch-size takes a size such as 512M or 8G, not '0'" -- --suite main --scratch-size 0
check "an empty ATIMECTL_TCG_THREAD is the default, not refused" \
	bash -c "! grep -q ATIMECTL_TCG_THREAD <(ATIMECTL_TCG_THREAD= bash '$tree/scripts/vm.sh' --smp x 2>&1)"
tap_end
