#!/usr/bin/env bash
# Build the Debian packages of the userspace (debian/) from this tree and
# check them with lintian and tests/deb-contents.sh.  The tree is copied to
# build/deb/src (tracked files and untracked ones git does not ignore, so
# uncommitted changes count), where dpkg-buildpackage -us -uc runs: the
# source tree stays clean.  build/deb/ gets the .deb, the native source
# package (.dsc, .tar.xz), .buildinfo and .changes, build.log and
# lintian.txt.
#
#   scripts/build-deb.sh [--binary-only] [--no-lintian]
#
# --binary-only builds the binary package only (dpkg-buildpackage -b).
# Fails when the build, lintian (errors or warnings; info and pedantic
# tags are shown, not fatal) or the contents check fails.  Run as root, it
# first installs what is missing (dpkg-dev, debhelper, lintian, and the
# build dependencies of debian/control) from Debian's archive, and runs
# lintian as nobody.  DEB_BUILD_OPTIONS and DEB_BUILD_PROFILES are passed
# on (nocheck skips the unit tests; parallel=N).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
run_lintian=1
build_opts=()

while [ $# -gt 0 ]; do
	case "$1" in
	--binary-only) build_opts=(-b) ;;
	--no-lintian) run_lintian=0 ;;
	-h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "scripts/build-deb.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

log() { printf '[deb] %s\n' "$*" >&2; }
start=$(date +%s)
out=build/deb
src=$out/src
mkdir -p "$out"

# tools first: dpkg-checkbuilddeps is in dpkg-dev
need=(dpkg-dev debhelper)
[ $run_lintian -eq 1 ] && need+=(lintian)
missing=()
for p in "${need[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
install_ok=0
[ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null && install_ok=1
apt_updated=0
apt_install() {
	export DEBIAN_FRONTEND=noninteractive
	if [ $apt_updated -eq 0 ]; then
		apt-get update -q >/dev/null
		apt_updated=1
	fi
	"$@"
}
if [ ${#missing[@]} -gt 0 ]; then
	if [ $install_ok -eq 0 ]; then
		echo "scripts/build-deb.sh: missing ${missing[*]}; install them as root" >&2
		exit 1
	fi
	log "installing ${missing[*]}"
	apt_install apt-get install -y -q --no-install-recommends "${missing[@]}" >"$out/apt.log" 2>&1 ||
		{ cat "$out/apt.log" >&2; exit 1; }
fi

# A fresh copy of the tree; previous packages go.
rm -rf "$src"
rm -f "$out"/atimectl_* "$out"/atimectl-dbgsym_* "$out"/build.log "$out"/lintian.txt "$out"/apt.log
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do
		# tracked files deleted in the work tree are left out
		[ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"
	done |
	tar -c --null -T - -f - | tar -x -C "$src" -f -

if ! (cd "$src" && dpkg-checkbuilddeps) 2>/dev/null; then
	if [ $install_ok -eq 0 ]; then
		(cd "$src" && dpkg-checkbuilddeps) || true
		echo "scripts/build-deb.sh: install the build dependencies above as root" >&2
		exit 1
	fi
	log "installing the build dependencies"
	apt_install apt-get build-dep -y -q --no-install-recommends "./$src" >"$out/apt.log" 2>&1 ||
		{ cat "$out/apt.log" >&2; exit 1; }
fi

log "dpkg-buildpackage -us -uc${build_opts[*]:+ ${build_opts[*]}} in $src (log: $out/build.log)"
if ! (cd "$src" && dpkg-buildpackage -us -uc "${build_opts[@]}") >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	echo "scripts/build-deb.sh: dpkg-buildpackage failed; full log in $out/build.log" >&2
	exit 1
fi
# debhelper's systemd handling saw the units: dh only runs
# dh_installsystemd when the package has the unit directory that
# release's debhelper reads (debian/rules).
if ! grep -q '^   dh_installsystemd' "$out/build.log"; then
	echo "scripts/build-deb.sh: dh_installsystemd did not run (units outside the directory debhelper reads?); see $out/build.log" >&2
	exit 1
fi
changes=$(ls "$out"/atimectl_*.changes)
debs=("$out"/atimectl_*.deb)
log "built ${debs[*]} in $(( $(date +%s) - start ))s"

status=0
if [ $run_lintian -eq 1 ]; then
	# --fail-on: errors and warnings fail; info (--display-info) and
	# pedantic tags are shown, each explained (--info).
	# Not as root, which lintian advises against, when nobody can read the
	# packages.
	as=()
	if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null &&
		runuser -u nobody -- test -r "$changes" 2>/dev/null; then
		as=(runuser -u nobody -- env HOME=/nonexistent)
	fi
	if "${as[@]}" lintian --display-info --pedantic --info --fail-on error,warning "$changes" >"$out/lintian.txt" 2>&1; then
		log "lintian: no errors or warnings ($(grep -c '^[IP]: ' "$out/lintian.txt" || true) info/pedantic tags, $out/lintian.txt)"
	else
		log "lintian failed:"
		status=1
	fi
	if [ -s "$out/lintian.txt" ]; then cat "$out/lintian.txt" >&2; fi
fi

bash tests/deb-contents.sh "${debs[@]}" || status=1
log "done in $(( $(date +%s) - start ))s"
exit $status
