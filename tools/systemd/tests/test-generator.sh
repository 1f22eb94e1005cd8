#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# atimectl-generator reports each /etc/fstab line libmount cannot parse
# and each option string from which mount(8) would drop
# x-relatime-interval=, exactly once; on a kernel without relatime_interval=
# it writes nothing, on one with it a drop-in per line that can take it.
#   test-generator.sh GENERATOR
set -u
gen=$1
export SYSTEMD_LOG_TARGET=console
export ATIMECTL_GENERATOR_MOUNT_OPTION=no
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

# An unbalanced quote: mount(8) would drop the option without a word.
printf 'tmpfs /srv/q tmpfs size=1m,x-relatime-interval="1h 0 0\n' >"$tmp/quote"
run "unbalanced quote" "$tmp/quote" 0 "atimectl-generator: $tmp/quote: /srv/q: an unbalanced quote in the options 'size=1m,x-relatime-interval=\"1h': mount(8) drops the option it is in without a word, so x-relatime-interval= is not applied"

# On a kernel with relatime_interval=: one drop-in per line that can take
# it, with the line's Options= (as systemd-fstab-generator writes them)
# and the option in seconds; nothing for the lines left to
# atimectl-apply.service.
mkdir -p "$tmp/helpers"
printf '#!/bin/sh\n' >"$tmp/helpers/mount.nfs"
chmod +x "$tmp/helpers/mount.nfs"
cat >"$tmp/kernel" <<'FSTAB'
/dev/vdb       /srv/data   ext4   defaults,nofail,x-relatime-interval=1h,x-systemd.device-timeout=5s,x-systemd.wanted-by=dev-disk-by\x2dlabel-a.device 0 2
tmpfs          /srv/pct    tmpfs  size=1m,x-relatime-interval="36h",uid=%u  0 0
tmpfs          /srv/a\040b tmpfs  x-relatime-interval=90s  0 0
tmpfs          /srv/bad    tmpfs  x-relatime-interval=fast  0 0
tmpfs          /srv/none   tmpfs  size=1m  0 0
/srv/data      /srv/bind   none   bind,x-relatime-interval=1h  0 0
srv:/x         /srv/nfs    nfs    x-relatime-interval=1h  0 0
srv:/y         /srv/sshfs  fuse.sshfs x-relatime-interval=1h  0 0
/dev/vdc       /           ext4   x-relatime-interval=1h  0 1
tmpfs          /srv/twice  tmpfs  x-relatime-interval=1h  0 0
tmpfs          /srv/twice  tmpfs  x-relatime-interval=2h  0 0
tmpfs          /srv/native tmpfs  relatime_interval=60,x-relatime-interval=1h 0 0
/dev/vdd       none        swap   sw,x-relatime-interval=1h 0 0
FSTAB
rm -rf "$tmp/out"
mkdir "$tmp/out"
ATIMECTL_GENERATOR_MOUNT_OPTION=yes ATIMECTL_GENERATOR_HELPERS=$tmp/helpers \
	SYSTEMD_FSTAB=$tmp/kernel "${wrapper[@]}" "$gen" "$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] || bad "kernel option: exit status $rc"
[ ! -s "$tmp/err" ] || bad "kernel option: stderr: $(cat "$tmp/err")"
want='srv-a\x20b.mount.d
srv-data.mount.d
srv-pct.mount.d'
got=$(cd "$tmp/out" && ls)
[ "$got" = "$want" ] || bad "kernel option: drop-ins for
$got
want
$want"
options() { sed -n 's/^Options=//p' "$tmp/out/$1.mount.d/50-atimectl-relatime-interval.conf"; }
[ "$(options srv-data)" = "defaults,nofail,x-relatime-interval=1h,x-systemd.wanted-by=dev-disk-by\x2dlabel-a.device,relatime_interval=3600" ] ||
	bad "kernel option: srv-data Options=$(options srv-data)"
[ "$(options srv-pct)" = 'size=1m,x-relatime-interval="36h",uid=%%u,relatime_interval=129600' ] ||
	bad "kernel option: srv-pct Options=$(options srv-pct)"
[ "$(options 'srv-a\x20b')" = "x-relatime-interval=90s,relatime_interval=90" ] ||
	bad "kernel option: srv-a\\x20b Options=$(options 'srv-a\x20b')"
# Wrong usage is an error.
run "no arguments" "$tmp/clean" 1 "atimectl-generator: expects one or three directory arguments" -
run "two arguments" "$tmp/clean" 1 "atimectl-generator: expects one or three directory arguments" a b

exit $fail
