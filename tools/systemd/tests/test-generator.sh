#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# atimectl-generator reports each /etc/fstab line libmount cannot parse,
# exactly once, and writes nothing (x-relatime-interval= is applied by
# atimectl-apply@.service through the mount.d/ drop-in, not generated).
#   test-generator.sh GENERATOR
set -u
gen=$1
export SYSTEMD_LOG_TARGET=console
# meson test --setup valgrind: every generator run under valgrind
read -r -a wrapper <<<"${ATIMECTL_TEST_WRAPPER:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# run NAME FSTAB WANT-RC WANT-STDERR [ARGS...]: exact exit status and
# stderr, and nothing in any output directory.  ARGS default to the three
# directories; "-" means none at all.
run() {
	local name=$1 fstab=$2 want_rc=$3 want_err=$4 rc err d
	shift 4
	rm -rf "$tmp/out" "$tmp/early" "$tmp/late"
	mkdir "$tmp/out" "$tmp/early" "$tmp/late"
	if [ $# -eq 0 ]; then
		set -- "$tmp/out" "$tmp/early" "$tmp/late"
	elif [ "$1" = - ]; then
		set --
	fi
	SYSTEMD_FSTAB=$fstab "${wrapper[@]}" "$gen" "$@" 2>"$tmp/err"
	rc=$?
	err=$(cat "$tmp/err")
	[ "$rc" = "$want_rc" ] || bad "$name: exit status $rc, want $want_rc"
	[ "$err" = "$want_err" ] || bad "$name: stderr
  '$err'
want
  '$want_err'"
	for d in out early late; do
		[ -z "$(ls -A "$tmp/$d")" ] || bad "$name: wrote into $d: $(ls -A "$tmp/$d")"
	done
}

cat >"$tmp/fstab" <<'FSTAB'
# comment
LABEL=root   /            ext4  defaults,x-relatime-interval=1d   0 1
garbage
LABEL=cache  /srv/cache   ext4  nofail,x-relatime-interval=2h     0 0
LABEL=x      /srv/x       ext4  x-relatime-interval=1h            zero 0
LABEL=bad    /srv/bad     ext4  x-relatime-interval=fast          0 0
FSTAB
msg() { echo "atimectl-generator: $tmp/fstab:$1: libmount cannot parse this line; mount -a, findmnt and atimectl skip it, x-relatime-interval= in it included"; }
want="$(msg 3)
$(msg 5)"
run "unparsable lines" "$tmp/fstab" 0 "$want"
# Again over the same output: the same, exactly (daemon-reload).
run "rerun" "$tmp/fstab" 0 "$want"
# One output directory is what systemd may pass too.
run "one directory" "$tmp/fstab" 0 "$want" "$tmp/out"

# A clean fstab, an empty one and a missing one: silence.
grep -v -e garbage -e zero "$tmp/fstab" >"$tmp/clean"
run "clean fstab" "$tmp/clean" 0 ""
: >"$tmp/empty"
run "empty fstab" "$tmp/empty" 0 ""
run "missing fstab" "$tmp/none" 0 ""

# Wrong usage is an error.
run "no arguments" "$tmp/clean" 1 "atimectl-generator: expects one or three directory arguments" -
run "two arguments" "$tmp/clean" 1 "atimectl-generator: expects one or three directory arguments" a b

exit $fail
