#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Check kernel/build.sh --deb on one base without building a kernel:
#  - every bad use of --deb and --config is refused with a clear message
#    and leaves the packages it already made alone;
#  - Debian's own configuration of that base (linux-config-<base>, what
#    /boot/config-* holds on a Debian machine) comes out of the configure
#    step with the series' option, the -atime release, no debug
#    information and no Debian certificate paths;
#  - the guest package (kernel/build.sh --deb --config guest, which the
#    test image installs) holds the kernel, its configuration and
#    System.map under /boot, its vmlinuz is the guest bzImage, and
#    linux-libc-dev was not kept, and lintian finds nothing wrong with it.
# Prints TAP-like lines and "N passed, N failed"; exits non-zero on any
# failure.
#
#   tests/kernel-deb.sh [--base 6.1|6.12|7.3]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
base=${ATIMECTL_BASE:-6.1}
case "${1:-}" in
--base) base=${2:-} ;;
"") ;;
*) echo "tests/kernel-deb.sh: unknown argument '$1'" >&2; exit 2 ;;
esac
. "$top/kernel/bases.sh"
check_base tests/kernel-deb.sh "$base"

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; [ -z "${2:-}" ] || echo "$2" | sed 's/^/#   /'; }
check() {	# check WHAT GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got '$2', want '$3'"; fi
}

debdir=$top/build/kernel/$base/deb-guest
before=$(ls -l --time-style=+%s.%N "$debdir" 2>/dev/null || true)

# refused ARGS... -- MESSAGE: kernel/build.sh exits non-zero at once and
# says MESSAGE.
refused() {
	local args=() out rc
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	set +e
	out=$(timeout 60 bash "$top/kernel/build.sh" --base "$base" "${args[@]}" 2>&1)
	rc=$?
	set -e
	if [ $rc -ne 0 ] && [ $rc -ne 124 ] && echo "$out" | grep -qF -- "$1"; then
		ok "kernel/build.sh ${args[*]}: refused ($1)"
	else
		not_ok "kernel/build.sh ${args[*]}: want a refusal saying '$1'" "exit $rc: $out"
	fi
}
refused --config guest -- "--config names the configuration of a --deb build"
refused --deb --stock -- "--deb packages the patched kernel, not the stock one"
refused --deb --debug -- "--deb packages the patched kernel, not the debug one"
refused --deb --config /nonexistent/config -- "no configuration file '/nonexistent/config'"
refused --deb --config /etc/passwd -- "'/etc/passwd' is not a kernel configuration"
refused --deb --config "$top/build" -- "no configuration file '$top/build'"
refused --deb --config -- "--config needs a value"
if [ ! -e "/boot/config-$(uname -r)" ]; then
	refused --deb -- "the running kernel's configuration /boot/config-$(uname -r) is not there"
	refused --deb --config localmod -- "localmod starts from the running kernel's /boot/config-$(uname -r)"
fi
check "refused calls left build/kernel/$base/deb-guest alone" \
	"$(ls -l --time-style=+%s.%N "$debdir" 2>/dev/null || true)" "$before"

# Debian's configuration, configured only.
debconf=/usr/src/linux-config-$base/config.amd64_none_amd64.xz
if [ -f "$debconf" ]; then
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	xz -dc "$debconf" >"$tmp"
	if out=$(bash "$top/kernel/build.sh" --base "$base" --deb --config "$tmp" --configure-only 2>&1); then
		cfg=$top/build/obj-$base-deb-config/.config
		for want in 'CONFIG_DEFAULT_RELATIME=y' 'CONFIG_LOCALVERSION="-atime"' \
			'CONFIG_DEBUG_INFO_NONE=y' 'CONFIG_SYSTEM_TRUSTED_KEYS=""' 'CONFIG_MODULES=y'; do
			if grep -qxF "$want" "$cfg"; then
				ok "Debian's $base configuration: $want"
			else
				not_ok "Debian's $base configuration: $want" "$(grep "^${want%%=*}=" "$cfg" || echo unset)"
			fi
		done
		if grep -q 'debian/certs' "$cfg"; then
			not_ok "Debian's $base configuration names no debian/certs path" "$(grep 'debian/certs' "$cfg")"
		else
			ok "Debian's $base configuration names no debian/certs path"
		fi
		release=$(LOCALVERSION= make -s -C "$top/build/linux-$base" O="$top/build/obj-$base-deb-config" kernelrelease)
		case $release in
		"$base".*-atime) ok "Debian's $base configuration: release $release" ;;
		*) not_ok "Debian's $base configuration: release $release, want $base.N-atime" ;;
		esac
	else
		not_ok "kernel/build.sh --deb --config <Debian's $base configuration> --configure-only" "$out"
	fi
else
	not_ok "Debian's $base configuration: $debconf missing (scripts/host-deps.sh installs linux-config-$base)"
fi

# The guest package.
release=$(cat "$top/build/kernel/$base/bzImage.release" 2>/dev/null || echo none)
debs=("$debdir"/*.deb)
check "build/kernel/$base/deb-guest holds only the linux-image package" \
	"$(cd "$debdir" 2>/dev/null && ls ./*.deb 2>/dev/null | sed 's|^\./||' | tr '\n' ' ')" \
	"linux-image-${release}_$release-1_amd64.deb "
deb=${debs[0]}
if [ -f "$deb" ]; then
	check "package name" "$(dpkg-deb -f "$deb" Package)" "linux-image-$release"
	check "package version" "$(dpkg-deb -f "$deb" Version)" "$release-1"
	files=$(dpkg-deb -c "$deb" | awk '{ print $NF }' | grep '^\./boot/' | sort | tr '\n' ' ')
	check "package's /boot" "$files" "./boot/ ./boot/System.map-$release ./boot/config-$release ./boot/vmlinuz-$release "
	if dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/vmlinuz-$release" |
		cmp -s - "$top/build/kernel/$base/bzImage"; then
		ok "packaged vmlinuz-$release is build/kernel/$base/bzImage"
	else
		not_ok "packaged vmlinuz-$release is build/kernel/$base/bzImage"
	fi
	if dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/config-$release" |
		cmp -s - "$top/build/kernel/$base/bzImage.config"; then
		ok "packaged config-$release is the guest configuration"
	else
		not_ok "packaged config-$release is the guest configuration"
	fi
fi

# lintian: initial-upload-closes-no-bugs is the kernel's own changelog
# template ("Custom built Linux kernel.", no bug closed), a tag about
# uploads to Debian's archive, which this package never is.
if [ -f "$deb" ]; then
	tags=$(lintian --tag-display-limit 0 "$deb" 2>&1 |
		grep -E '^[EW]: ' | grep -v ' initial-upload-closes-no-bugs ' || true)
	if [ -z "$tags" ]; then
		ok "lintian: no error or warning on linux-image-$release"
	else
		not_ok "lintian: no error or warning on linux-image-$release" "$tags"
	fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
