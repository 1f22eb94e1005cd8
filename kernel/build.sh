#!/usr/bin/env bash
# Build the guest kernel from Debian's linux-source-<base> with the
# project's patch series for that base applied.
#
#   kernel/build.sh            patched guest kernel -> build/kernel/<base>/bzImage
#   kernel/build.sh --debug    patched kernel with lockdep, KASAN and
#                              DEBUG_KOBJECT_RELEASE -> .../bzImage-debug
#   kernel/build.sh --stock    unpatched kernel, same config -> .../bzImage-stock
#   kernel/build.sh --deb [--config CONFIG]
#                              patched kernel as Debian packages (linux-image,
#                              and linux-headers when it has modules), made
#                              by the kernel's own "make bindeb-pkg", from
#                              CONFIG -> build/kernel/<base>/deb-<name>/:
#        /boot/config-$(uname -r)  (the default) the running Debian kernel's
#                              configuration, for a real machine (deb-config/)
#        FILE                  any other full configuration (deb-config/)
#        localmod              the running kernel's configuration reduced
#                              by "make localmodconfig" to the modules
#                              loaded now: a much shorter build (deb-localmod/)
#        guest                 the guest kernel's configuration, what the
#                              test images install (deb-guest/; its vmlinuz
#                              is the bzImage above, byte for byte)
#   --configure-only           write the configuration to
#                              build/obj-<base>-<variant>/.config and stop
#   --base 6.1|6.12|7.3        the kernel base (default: $ATIMECTL_BASE, else 6.1)
#
# The source tree lives in build/linux-<base>: a git repository whose first
# commit is the pristine Debian tree (tag "pristine").  The series in
# kernel/patches/<base>/series is applied with "git am" on top of it, and
# only re-applied when the patches change, so an unchanged series costs
# nothing and a changed one rebuilds only what it touches (ccache does the
# rest).  Objects go to build/obj-<base>-<variant>.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
variant=guest
base=${ATIMECTL_BASE:-6.1}
deb=0
config=
configure_only=0

while [ $# -gt 0 ]; do
	case "$1" in
	--debug) variant=debug ;;
	--stock) variant=stock ;;
	--deb) deb=1 ;;
	--configure-only) configure_only=1 ;;
	--config) [ $# -ge 2 ] || { echo "kernel/build.sh: --config needs a value" >&2; exit 2; }
		config=$2; shift ;;
	--config=*) config=${1#--config=} ;;
	--base) [ $# -ge 2 ] || { echo "kernel/build.sh: --base needs a value" >&2; exit 2; }
		base=$2; shift ;;
	--base=*) base=${1#--base=} ;;
	-h|--help) sed -n '2,36p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "kernel/build.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

. "$top/kernel/bases.sh"
. "$top/kernel/build-env.sh"
check_base kernel/build.sh "$base"
pkg=linux-source-$base
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/$pkg.tar.xz}
src=$build/linux-$base
patches=$top/kernel/patches/$base
out=$build/kernel/$base

log() { printf '[kernel] %s\n' "$*" >&2; }
die() { printf 'kernel/build.sh: %s\n' "$*" >&2; exit 1; }

git_k() {
	git -C "$src" -c user.name="atimectl build" \
		-c user.email="build@atimectl.invalid" \
		-c advice.detachedHead=false "$@"
}

unpack_pristine() {
	[ -f "$tarball" ] || die "$tarball not found (apt-get install $pkg)"
	log "unpacking $(basename "$tarball") into ${src#"$top"/}"
	rm -rf "$src" "$build/$pkg"
	mkdir -p "$build"
	tar -C "$build" -xf "$tarball"
	mv "$build/$pkg" "$src"
	git_k init -q -b debian
	# No automatic "git gc" after the commit and each "git am": packing
	# the tree's 80000 loose objects took a core for two minutes beside
	# every clean build (docs/testing.md, "Timings").
	git_k config gc.auto 0
	git_k config maintenance.auto false
	# Debian's .gitignore ignores every top-level path: force the add.
	git_k add -A -f
	git_k commit -q -m "Debian $pkg $(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo unknown)"
	git_k tag pristine
}

series_hash() {
	(cd "$patches" && cat series $(grep -v '^#' series)) |
		sha256sum | cut -d' ' -f1
}

# Bring the tree to "pristine + series" for the patched variants, or to the
# pristine tree in a separate worktree for the stock kernel.
prepare_source() {
	if ! git -C "$src" rev-parse -q --verify pristine >/dev/null 2>&1; then
		unpack_pristine
	fi

	local want have
	want=$(series_hash)
	have=$(cat "$src/.git/atime-series" 2>/dev/null || true)
	if [ "$want" = "$have" ] && git_k diff --quiet HEAD; then
		return
	fi

	log "applying kernel/patches/$base/series"
	# Remember each patched file's content and mtime: a file that comes
	# out of the new series unchanged gets its old mtime back, so that a
	# one-line change to one patch rebuilds only what depends on it.
	local keep=$src/.git/atime-mtimes f blob mtime
	: >"$keep"
	if git_k rev-parse -q --verify atime >/dev/null; then
		git_k diff --name-only pristine HEAD | while read -r f; do
			[ -f "$src/$f" ] || continue
			printf '%s %s %s\n' "$(git_k rev-parse "HEAD:$f")" \
				"$(stat -c %Y "$src/$f")" "$f"
		done >"$keep"
	fi
	git_k am --abort >/dev/null 2>&1 || true
	git_k checkout -q -B atime pristine
	git_k reset -q --hard pristine
	rm -f "$src/.git/atime-series"
	local p
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$patches/$p" ] || die "series names $p, which is not in kernel/patches/$base/"
		if ! git_k am -q --whitespace=nowarn "$patches/$p"; then
			git_k am --abort >/dev/null 2>&1 || true
			die "patch $p does not apply to the pristine $base tree; fix it in kernel/patches/$base/"
		fi
	done < "$patches/series"
	while read -r blob mtime f; do
		if [ -f "$src/$f" ] && [ "$(git_k rev-parse "HEAD:$f" 2>/dev/null)" = "$blob" ]; then
			touch -d "@$mtime" "$src/$f"
		fi
	done <"$keep"
	echo "$want" > "$src/.git/atime-series"
}

prepare_stock_source() {
	local stock=$build/linux-$base-stock
	if [ ! -d "$stock" ]; then
		log "creating the stock worktree ${stock#"$top"/}"
		git_k worktree add -q --detach "$stock" pristine
	fi
	echo "$stock"
}

# configure SRC OBJ START FRAGMENT...: START is "tinyconfig", a full
# configuration file, or "localmod:FILE" (FILE reduced to the modules
# loaded now); the fragments are merged over it and must all take effect.
configure() {
	local ksrc=$1 obj=$2 start=$3
	shift 3
	local frags=("$@") f line sym want got
	mkdir -p "$obj"
	case $start in
	tinyconfig)
		make -s -C "$ksrc" O="$obj" "${makeflags[@]}" tinyconfig >/dev/null ;;
	localmod:*)
		cp "${start#localmod:}" "$obj/.config"
		lsmod >"$obj/lsmod.txt" || die "lsmod failed: localmod needs the modules of the running kernel"
		make -s -C "$ksrc" O="$obj" "${makeflags[@]}" LSMOD="$obj/lsmod.txt" \
			localmodconfig </dev/null >"$obj/localmodconfig.log" 2>&1 ||
			die "make localmodconfig failed; see ${obj#"$top"/}/localmodconfig.log"
		;;
	*)
		cp "$start" "$obj/.config" ;;
	esac
	if [ "$start" != tinyconfig ]; then
		# Debian's configuration names its signing certificates
		# (debian/certs/), which linux-source does not carry: trust
		# only the key the build generates for its own modules.
		"$ksrc/scripts/config" --file "$obj/.config" \
			--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS ""
	fi
	KCONFIG_CONFIG="$obj/.config" "$ksrc/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" "${frags[@]}" >"$obj/merge_config.log" 2>&1 ||
		die "merging the configuration failed; see ${obj#"$top"/}/merge_config.log"
	make -s -C "$ksrc" O="$obj" "${makeflags[@]}" olddefconfig >/dev/null
	# merge_config only warns when a symbol cannot be set: refuse instead.
	for f in "${frags[@]}"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*) sym=${line%%=*}; want=$line ;;
			'# CONFIG_'*' is not set') sym=${line#\# }; sym=${sym%% *}; want="" ;;
			*) continue ;;
			esac
			got=$(grep -E "^$sym=|^# $sym is not set" "$obj/.config" || true)
			case "$got" in "# "*) got="" ;; esac
			[ "$got" = "$want" ] ||
				die "config: ${want:-$sym unset} requested by $(basename "$f"), got '${got:-unset}'"
		done < "$f"
	done
}

kernel_build_env "$build"
export DEBEMAIL=build@atimectl.invalid DEBFULLNAME="atimectl build"
mapfile -t makeflags < <(kernel_make_flags)
jobs=$(nproc)

# package_deb OBJ DEST: "make bindeb-pkg" on the kernel built in OBJ; the
# linux-image (and linux-headers) packages go to DEST.  The kernel is
# already built, so this only installs and archives it.
package_deb() {
	local obj=$1 dest=$2 release parent pkglog f
	release=$(cat "$obj/include/config/kernel.release")
	parent=$(dirname "$obj")	# where dpkg-buildpackage leaves them
	pkglog=$obj/bindeb-pkg.log
	rm -f "$parent"/linux-*_"$release"-1_* "$parent"/linux-upstream_"$release"-1_*
	# -d: Debian 12 has no gcc-x86-64-linux-gnu, which 6.12's generated
	# Build-Depends names; scripts/host-deps.sh installs the real needs.
	if ! make -C "$ksrc" O="$obj" "${makeflags[@]}" -j"$jobs" \
		KDEB_PKGVERSION="$release-1" KDEB_CHANGELOG_DIST="$(base_release "$base")" \
		DPKG_FLAGS=-d bindeb-pkg >"$pkglog" 2>&1; then
		tail -n 30 "$pkglog" >&2
		die "make bindeb-pkg failed; full log in ${pkglog#"$top"/}"
	fi
	rm -rf "$dest"
	mkdir -p "$dest"
	for f in "$parent"/linux-image-"$release"_*.deb "$parent"/linux-headers-"$release"_*.deb; do
		[ -f "$f" ] && mv "$f" "$dest/"
	done
	# linux-libc-dev would replace Debian's own; the .changes and
	# .buildinfo describe an upload that does not happen.
	rm -f "$parent"/linux-*_"$release"-1_* "$parent"/linux-upstream_"$release"-1_*
	ls "$dest"/linux-image-"$release"_*.deb >/dev/null 2>&1 ||
		die "make bindeb-pkg made no linux-image package; see ${pkglog#"$top"/}"
	log "$(cd "$dest" && echo *.deb) -> ${dest#"$top"/}"
}

# guest.config is shared; guest-<base>.config only holds the symbols that
# exist on one base and not the other.
frags=("$top/kernel/config/guest.config")
[ -f "$top/kernel/config/guest-$base.config" ] &&
	frags+=("$top/kernel/config/guest-$base.config")
start_config=tinyconfig
target=bzImage
debdir=
if [ "$deb" = 1 ]; then
	[ "$variant" = guest ] || die "--deb packages the patched kernel, not the $variant one"
	if [ -z "$config" ]; then
		config=/boot/config-$(uname -r)
		[ -f "$config" ] || die "the running kernel's configuration $config is not there: name one with --config FILE, localmod or guest"
	fi
	case $config in
	guest)
		debdir=$out/deb-guest ;;
	localmod)
		running=/boot/config-$(uname -r)
		[ -r "$running" ] || die "localmod starts from the running kernel's $running, which is not there"
		start_config=localmod:$running
		variant="deb-localmod"
		debdir=$out/deb-localmod ;;
	*)
		[ -f "$config" ] && [ -r "$config" ] ||
			die "no configuration file '$config' (name one with --config FILE, or --config guest)"
		grep -q '^CONFIG_' "$config" || die "'$config' is not a kernel configuration"
		start_config=$config
		variant="deb-config"
		debdir=$out/deb-config ;;
	esac
	if [ "$start_config" != tinyconfig ]; then
		frags=("$top/kernel/config/deb.config")
		target=all
	fi
elif [ -n "$config" ]; then
	die "--config names the configuration of a --deb build"
fi
case $variant in
guest|deb-*)
	prepare_source
	ksrc=$src
	image=$out/bzImage
	[ "$variant" = guest ] || image=
	;;
debug)
	prepare_source
	ksrc=$src
	frags+=("$top/kernel/config/debug.config")
	[ -f "$top/kernel/config/debug-$base.config" ] &&
		frags+=("$top/kernel/config/debug-$base.config")
	image=$out/bzImage-debug
	;;
stock)
	[ -d "$src/.git" ] || unpack_pristine
	ksrc=$(prepare_stock_source)
	image=$out/bzImage-stock
	;;
esac
[ "$variant" = stock ] || [ "$start_config" != tinyconfig ] ||
	frags+=("$top/kernel/config/atime.config")
obj=$build/obj-$base-$variant

start=$(date +%s)
configure "$ksrc" "$obj" "$start_config" "${frags[@]}"
if [ "$configure_only" = 1 ]; then
	log "configuration: ${obj#"$top"/}/.config ($(make -s -C "$ksrc" O="$obj" kernelrelease))"
	exit 0
fi
log "building the $variant kernel ($(git -C "$ksrc" log --oneline pristine..HEAD | wc -l) patches, -j$jobs)"
if ! make -s -C "$ksrc" O="$obj" "${makeflags[@]}" -j"$jobs" "$target" >"$obj/build.log" 2>&1; then
	grep -E -B2 -A8 'error|Error' "$obj/build.log" | tail -n 40 >&2
	die "kernel build failed; full log in ${obj#"$top"/}/build.log"
fi
grep -E 'warning:' "$obj/build.log" >&2 || true
release=$(cat "$obj/include/config/kernel.release")
if [ -n "$image" ]; then
	mkdir -p "$out"
	cp "$obj/arch/x86/boot/bzImage" "$image"
	cp "$obj/.config" "$image.config"
	echo "$release" > "$image.release"
	log "$release -> ${image#"$top"/} in $(( $(date +%s) - start ))s"
fi
# The guest kernel has no modules: when its bzImage, System.map and
# configuration are those already packaged, the package stands.
stamp() { (cd "$obj" && sha256sum arch/x86/boot/bzImage System.map .config); }
if [ -n "$debdir" ] && [ "$config" = guest ] && [ -f "$debdir/.packaged" ] &&
	[ "$(stamp)" = "$(cat "$debdir/.packaged")" ] &&
	ls "$debdir"/linux-image-"$release"_*.deb >/dev/null 2>&1; then
	log "$(cd "$debdir" && echo *.deb) in ${debdir#"$top"/} is up to date"
elif [ -n "$debdir" ]; then
	package_deb "$obj" "$debdir"
	if [ "$config" = guest ]; then
		# What the test images install is what the tests boot.
		dpkg-deb --fsys-tarfile "$debdir"/linux-image-"$release"_*.deb |
			tar -xO "./boot/vmlinuz-$release" | cmp -s - "$image" ||
			die "the packaged vmlinuz-$release differs from ${image#"$top"/}"
	fi
	[ "$config" != guest ] || stamp >"$debdir/.packaged"
	log "packaged in $(( $(date +%s) - start ))s"
fi
