# Sourced by the kernel, test and VM scripts: the kernel bases the project
# supports, one directory of kernel/patches/ each, and the Debian release
# whose userspace each is tested with (the release that ships that kernel).
# shellcheck shell=bash
ATIMECTL_BASES="6.1 6.12 7.3"

# check_base PROGRAM BASE: exit 2 with a usage error unless BASE is one.
check_base() {
	local b
	for b in $ATIMECTL_BASES; do
		[ "$2" = "$b" ] && return 0
	done
	echo "$1: unknown base '$2' (${ATIMECTL_BASES// / or })" >&2
	exit 2
}

# base_release BASE: the Debian release whose image BASE boots by default
# (Debian 12 ships 6.1, Debian 13 ships 6.12).
base_release() {
	case $1 in
	6.1) echo bookworm ;;
	6.12 | 7.3) echo trixie ;;
	esac
}

# release_base RELEASE: the kernel base whose guest kernel package the
# image of RELEASE installs (the inverse of base_release).
release_base() {
	case $1 in
	bookworm) echo 6.1 ;;
	trixie) echo 6.12 ;;
	esac
}
