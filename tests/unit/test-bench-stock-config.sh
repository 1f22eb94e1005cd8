#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/run.sh compares instructions counted on the patched and the stock
# kernel: that says something about the series only if both were built
# with one configuration.  The stock kernels of 2026-12-05 lacked
# CONFIG_USER_NS, which the guest configuration had gained after they were
# built, and the benchmark compared them all the same.  A stock kernel whose
# configuration differs in anything but the series' own symbols must be
# refused before anything boots.  Run on a copy of the tree with stubs for
# what the run would start, so that a run the check fails to stop boots
# nothing.
#
#   test-bench-stock-config.sh SOURCE_ROOT
set -u
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

tree=$tmp/tree
kdir=$tree/build/kernel/6.1
mkdir -p "$tree/bench" "$tree/kernel/config" "$tree/scripts" "$kdir" "$tmp/bin"
cp "$src/bench/run.sh" "$tree/bench/"
cp "$src/kernel/bases.sh" "$tree/kernel/"
cp "$src/kernel/config/atime.config" "$tree/kernel/config/"
for c in apt-get hyperfine; do
	printf '#!/bin/sh\nexit 1\n' > "$tmp/bin/$c"
	chmod +x "$tmp/bin/$c"
done
# QEMU answers --version (the run records it) and notes any boot.
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "QEMU stub"; exit 0; }\necho "$*" >> "%s"\nexit 1\n' \
	"$tmp/started" > "$tmp/bin/qemu-system-x86_64"
chmod +x "$tmp/bin/qemu-system-x86_64"
echo kernel > "$kdir/bzImage"
echo kernel > "$kdir/bzImage-stock"

# The guest configuration, and the patched kernel's: the series' symbols
# on top.
base_config() {
	printf '%s\n' 'CONFIG_64BIT=y' 'CONFIG_EXT4_FS=y' '# CONFIG_NFS_FS is not set'
}
{ base_config; echo 'CONFIG_USER_NS=y'; cat "$src/kernel/config/atime.config"; } > "$kdir/bzImage.config"

run() {	# run ARGS...: the benchmark on base 6.1, output in $tmp/err
	rm -f "$tmp/started"
	PATH=$tmp/bin:$PATH ATIMECTL_BASE=6.1 timeout 20 bash "$tree/bench/run.sh" \
		--quick --skip-build "$@" > "$tmp/out" 2> "$tmp/err"
}

# A stock kernel without a symbol the patched one has.
{ base_config; } > "$kdir/bzImage-stock.config"
run --stock
rc=$?
check "another configuration: exit 1 (got $rc)" test "$rc" = 1
check "it names the symbol" grep -q 'another configuration (CONFIG_USER_NS)' "$tmp/err"
check "it says how to rebuild" grep -q 'kernel/build.sh --base 6.1 --stock' "$tmp/err"
check "nothing booted" test ! -e "$tmp/started"
run
rc=$?
check "found by default too: exit 1 (got $rc)" test "$rc" = 1
check "found by default too: the symbol" grep -q 'CONFIG_USER_NS' "$tmp/err"

# A symbol set differently, not absent.
{ base_config; echo 'CONFIG_USER_NS=y'; } | sed 's/^CONFIG_EXT4_FS=y/CONFIG_EXT4_FS=m/' \
	> "$kdir/bzImage-stock.config"
run --stock
check "a value that differs is named" grep -q 'another configuration (CONFIG_EXT4_FS)' "$tmp/err"

# Without its configuration, the stock kernel cannot be compared.
rm "$kdir/bzImage-stock.config"
run --stock
rc=$?
check "no stock configuration: exit 1 (got $rc)" test "$rc" = 1
check "no stock configuration: said" grep -q 'bzImage-stock has no .*bzImage-stock.config to compare' "$tmp/err"

# Only the series' own symbols differ: the run goes on (to the next
# missing piece of this stub tree, the image).
{ base_config; echo 'CONFIG_USER_NS=y'; } > "$kdir/bzImage-stock.config"
run --stock
check "the series' symbols alone: no complaint" sh -c "! grep -q 'configuration' '$tmp/err'"
check "the series' symbols alone: the run goes on" grep -q 'no build/image-bookworm/image.cpio' "$tmp/err"

# --no-stock: the stock kernel is not looked at.
{ base_config; } > "$kdir/bzImage-stock.config"
run --no-stock
check "--no-stock: no complaint" sh -c "! grep -q 'configuration' '$tmp/err'"
tap_end
