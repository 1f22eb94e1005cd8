#!/usr/bin/env bash
# Build the guest kernel from Debian's linux-source-<base> with the
# project's patch series for that base applied.
#
#   kernel/build.sh            patched guest kernel -> build/kernel/<base>/bzImage
#   kernel/build.sh --debug    patched kernel with lockdep, KASAN and
#                              DEBUG_KOBJECT_RELEASE -> .../bzImage-debug
#   kernel/build.sh --stock    unpatched kernel, same config -> .../bzImage-stock
#   --base 6.1|6.12            the kernel base (default: $ATIMECTL_BASE, else 6.1)
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

while [ $# -gt 0 ]; do
	case "$1" in
	--debug) variant=debug ;;
	--stock) variant=stock ;;
	--base) [ $# -ge 2 ] || { echo "kernel/build.sh: --base needs a value" >&2; exit 2; }
		base=$2; shift ;;
	--base=*) base=${1#--base=} ;;
	-h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "kernel/build.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

. "$top/kernel/bases.sh"
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

configure() {
	local ksrc=$1 obj=$2
	shift 2
	local frags=("$@") f line sym want got
	mkdir -p "$obj"
	make -s -C "$ksrc" O="$obj" "${makeflags[@]}" tinyconfig >/dev/null
	KCONFIG_CONFIG="$obj/.config" "$ksrc/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
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

export CCACHE_BASEDIR=$build
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=atimectl
export KBUILD_BUILD_HOST=build
export LOCALVERSION=
makeflags=(CC="ccache gcc" HOSTCC="ccache gcc")
command -v ccache >/dev/null || makeflags=()
jobs=$(nproc)

# guest.config is shared; guest-<base>.config only holds the symbols that
# exist on one base and not the other.
frags=("$top/kernel/config/guest.config")
[ -f "$top/kernel/config/guest-$base.config" ] &&
	frags+=("$top/kernel/config/guest-$base.config")
case $variant in
guest)
	prepare_source
	ksrc=$src
	image=$out/bzImage
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
[ "$variant" = stock ] || frags+=("$top/kernel/config/atime.config")
obj=$build/obj-$base-$variant

start=$(date +%s)
configure "$ksrc" "$obj" "${frags[@]}"
log "building the $variant kernel ($(git -C "$ksrc" log --oneline pristine..HEAD | wc -l) patches, -j$jobs)"
if ! make -s -C "$ksrc" O="$obj" "${makeflags[@]}" -j"$jobs" bzImage >"$obj/build.log" 2>&1; then
	grep -E -B2 -A8 'error|Error' "$obj/build.log" | tail -n 40 >&2
	die "kernel build failed; full log in ${obj#"$top"/}/build.log"
fi
grep -E 'warning:' "$obj/build.log" >&2 || true
mkdir -p "$out"
cp "$obj/arch/x86/boot/bzImage" "$image"
cp "$obj/.config" "$image.config"
release=$(cat "$obj/include/config/kernel.release")
echo "$release" > "$image.release"
log "$release -> ${image#"$top"/} in $(( $(date +%s) - start ))s"
