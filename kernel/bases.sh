# Sourced by the kernel scripts: the kernel bases the project supports,
# one directory of kernel/patches/ each.
# shellcheck shell=bash
ATIMECTL_BASES="6.1 6.12"

# check_base PROGRAM BASE: exit 2 with a usage error unless BASE is one.
check_base() {
	local b
	for b in $ATIMECTL_BASES; do
		[ "$2" = "$b" ] && return 0
	done
	echo "$1: unknown base '$2' (${ATIMECTL_BASES// / or })" >&2
	exit 2
}
