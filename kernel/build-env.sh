# Sourced by kernel/build.sh and kernel/check-bisect.sh: the environment
# every guest kernel build is made in.  The same variables give the same
# compiler command lines, so ccache finds the objects of one build from
# another whose tree is laid out alike under BUILD (CCACHE_BASEDIR turns
# the paths below it into relative ones).
# shellcheck shell=bash

# kernel_build_env BUILD: export the build environment; BUILD is the
# directory the source trees and object directories are in.
kernel_build_env() {
	export CCACHE_BASEDIR=$1
	export CCACHE_NOHASHDIR=1
	export CCACHE_SLOPPINESS=time_macros
	export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
	export KBUILD_BUILD_USER=atimectl
	export KBUILD_BUILD_HOST=build
	export LOCALVERSION=
	# "#1" in uname -v whatever the number of builds, so that "make
	# bindeb-pkg" (which passes its package revision, 1) relinks nothing.
	export KBUILD_BUILD_VERSION=1
}

# kernel_make_flags: the compiler settings, one per line (ccache if the
# host has it).
kernel_make_flags() {
	command -v ccache >/dev/null || return 0
	printf '%s\n' "CC=ccache gcc" "HOSTCC=ccache gcc"
}
