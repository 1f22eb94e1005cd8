#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Check a built atimectl .deb: it holds exactly the expected files (no
# more, no fewer), executables are executable, the paths the files name
# (ExecStart= of the template, the atimectl the helper runs) are in the
# package, the maintainer scripts reload systemd, and the packaged
# atimectl runs and reports the package's version.  Prints TAP-like lines
# and "N passed, N failed"; exits non-zero on any failure.
#
#   tests/deb-contents.sh build/deb/atimectl_VERSION_ARCH.deb
#
# scripts/build-deb.sh runs it on the package it built.
set -euo pipefail

if [ $# -ne 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
	sed -n '4,12p' "$0" | sed 's/^# \{0,1\}//'
	[ $# -eq 1 ] && exit 0
	exit 2
fi
deb=$1
[ -f "$deb" ] || { echo "tests/deb-contents.sh: no such file: $deb" >&2; exit 2; }

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() {
	failed=$((failed + 1))
	echo "not ok - $1"
	shift
	[ $# -eq 0 ] || printf '#   %s\n' "$@"
}

# Units and the generator are where the building machine's systemd.pc
# says (debian/rules): /lib/systemd/... on Debian 12, /usr/lib/systemd/...
# on Debian 13, the directories each release's dh_installsystemd reads.
pc() { pkg-config --variable="$1" systemd 2>/dev/null || true; }
unitdir=$(pc systemdsystemunitdir)
generatordir=$(pc systemdsystemgeneratordir)
if [ -z "$unitdir" ] || [ -z "$generatordir" ]; then
	echo "tests/deb-contents.sh: no systemd.pc here (install systemd-dev, or systemd on Debian 12)" >&2
	exit 2
fi

# every regular file and symlink of the package, and its mode; the
# lintian override is for a generator in /usr/lib only
expected_files=$(LC_ALL=C sort <<EOF_FILES
/usr/bin/atimectl
$generatordir/atimectl-generator
$unitdir/atimectl-apply.path
$unitdir/atimectl-apply.service
/usr/share/bash-completion/completions/atimectl
/usr/share/doc/atimectl/changelog.gz
/usr/share/doc/atimectl/copyright
/usr/share/doc/atimectl/examples/50-relatime.conf
$(case $generatordir in /usr/lib/*) echo /usr/share/lintian/overrides/atimectl ;; esac)
/usr/share/man/man8/atimectl-apply.service.8.gz
/usr/share/man/man8/atimectl.8.gz
EOF_FILES
)
expected_files=$(grep -v '^$' <<<"$expected_files")
executables="/usr/bin/atimectl
$generatordir/atimectl-generator"

# dpkg-deb -c: "-rw-r--r-- root/root 1234 2026-12-03 23:00 ./usr/..."
listing=$(dpkg-deb -c "$deb")
files=$(awk '$1 !~ /^d/ { p = $6; sub(/^\./, "", p); print p }' <<<"$listing" | LC_ALL=C sort)
if [ "$files" = "$expected_files" ]; then
	ok "files: the $(wc -l <<<"$files") expected"
else
	not_ok "files: not the expected ones" \
		"missing: $(LC_ALL=C comm -13 <(echo "$files") <(echo "$expected_files") | tr '\n' ' ')" \
		"unexpected: $(LC_ALL=C comm -23 <(echo "$files") <(echo "$expected_files") | tr '\n' ' ')"
fi

bad_modes=()
while IFS= read -r f; do
	mode=$(awk -v p=".$f" '$6 == p { print $1 }' <<<"$listing")
	[ "$mode" = "-rwxr-xr-x" ] || bad_modes+=("$f ${mode:-absent}")
done <<<"$executables"
while IFS= read -r line; do
	read -r mode owner _ _ _ path _ <<<"$line"
	case "$mode" in d*) continue ;; esac
	grep -qxF "${path#.}" <<<"$executables" && continue
	[ "$mode" = "-rw-r--r--" ] || bad_modes+=("${path#.} $mode")
	[ "$owner" = "root/root" ] || bad_modes+=("${path#.} $owner")
done <<<"$listing"
if [ ${#bad_modes[@]} -eq 0 ]; then
	ok "modes: executables 0755, the rest 0644, all root/root"
else
	not_ok "modes" "${bad_modes[@]}"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp/root"
dpkg-deb -e "$deb" "$tmp/DEBIAN"

# paths named inside the package resolve inside it
exec_start=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$tmp/root$unitdir/atimectl-apply.service" 2>/dev/null || true)
if [ "$exec_start" = /usr/bin/atimectl ] && [ -x "$tmp/root$exec_start" ]; then
	ok "atimectl-apply.service: ExecStart=$exec_start is in the package"
else
	not_ok "atimectl-apply.service: ExecStart=${exec_start:-(none)} is not /usr/bin/atimectl in the package"
fi
if grep -qx 'PathChanged=/run/mount/utab' "$tmp/root$unitdir/atimectl-apply.path"; then
	ok "atimectl-apply.path watches /run/mount/utab"
else
	not_ok "atimectl-apply.path does not watch /run/mount/utab"
fi

# maintainer scripts, debhelper's own: systemd reloads on configure and
# remove, the path and the service are enabled, the path (only) started
# on installation, nothing stopped or restarted on upgrade, nothing left
# to purge
if grep -q 'systemctl --system daemon-reload' "$tmp/DEBIAN/postinst" 2>/dev/null &&
	grep -q 'systemctl --system daemon-reload' "$tmp/DEBIAN/postrm" 2>/dev/null; then
	ok "postinst and postrm reload systemd"
else
	not_ok "postinst or postrm does not reload systemd"
fi
for unit in atimectl-apply.path atimectl-apply.service; do
	if grep -q "deb-systemd-helper .*enable '$unit'\|deb-systemd-helper .*enable $unit" "$tmp/DEBIAN/postinst"; then
		ok "postinst enables $unit"
	else
		not_ok "postinst does not enable $unit"
	fi
done
# every stop in the prerm is in a block for "remove" alone (debhelper's
# snippet for a unit it may stop on upgrade has no such condition)
stops=$(grep -c 'deb-systemd-invoke stop' "$tmp/DEBIAN/prerm" || true)
guarded=$(grep -B1 'deb-systemd-invoke stop' "$tmp/DEBIAN/prerm" | grep -c '"$1" = remove' || true)
if [ "$stops" -gt 0 ] && [ "$stops" = "$guarded" ]; then
	ok "prerm stops the units on removal only"
else
	not_ok "prerm stops a unit on upgrade" "$(grep -B3 'deb-systemd-invoke' "$tmp/DEBIAN/prerm")"
fi
# (try-restart is the postinst's own, for a service that follows utab
# already: it starts nothing)
if grep -q "deb-systemd-invoke \(.* \)\?start .*'\?atimectl-apply.path" "$tmp/DEBIAN/postinst" &&
	! grep -q "deb-systemd-invoke \(.* \)\?start .*'\?atimectl-apply.service" "$tmp/DEBIAN/postinst"; then
	ok "postinst starts the path, not the service"
else
	not_ok "postinst does not start the path alone" "$(grep deb-systemd-invoke "$tmp/DEBIAN/postinst")"
fi
# install and upgrade leave the kernel's relatime settings alone: no
# maintainer script applies sysctls (nor does a file in /usr/lib/sysctl.d,
# whose dpkg trigger on Debian 13 restarts systemd-sysctl: see the file
# list); a first installation applies fstab's intervals to mounted
# filesystems
sysctl_lines=$(cat "$tmp"/DEBIAN/*inst "$tmp"/DEBIAN/*rm 2>/dev/null | grep -v '^[[:space:]]*#' | grep sysctl || true)
if [ -z "$sysctl_lines" ]; then
	ok "no maintainer script applies sysctls"
else
	not_ok "a maintainer script applies sysctls:" "$sysctl_lines"
fi
if grep -q '^[[:space:]]*atimectl apply --changes || true$' "$tmp/DEBIAN/postinst" &&
	grep -q '^[[:space:]]*atimectl apply --changes --record-only || true$' "$tmp/DEBIAN/postinst"; then
	ok "postinst applies on a first installation, records on an upgrade"
else
	not_ok "postinst does not run atimectl apply --changes (--record-only)"
fi
if [ ! -e "$tmp/DEBIAN/conffiles" ]; then
	ok "no conffiles"
else
	not_ok "conffiles: $(tr '\n' ' ' <"$tmp/DEBIAN/conffiles")"
fi

# the packaged binary runs (against this machine's libmount) and is the
# package's version
want=$(dpkg-deb -f "$deb" Version)
got=$("$tmp/root/usr/bin/atimectl" --version 2>&1 || true)
if [[ "$got" == *"$want"* ]]; then
	ok "atimectl --version: $got"
else
	not_ok "atimectl --version says '$got', the package is $want"
fi

echo "deb-contents: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
