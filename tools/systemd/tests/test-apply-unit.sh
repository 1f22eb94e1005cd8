#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# atimectl-apply-unit with a fake systemctl and a fake atimectl: which
# option string it hands to "atimectl apply".
#   test-apply-unit.sh atimectl-apply-unit.sh.in
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir "$tmp/bin" "$tmp/bindir"
printf '#!/bin/sh\nprintf "%%s\\n" "$FAKE_PROPS"\n' >"$tmp/bin/systemctl"
printf '#!/bin/sh\nprintf "[%%s]" "$@"\n' >"$tmp/bindir/atimectl"
chmod +x "$tmp/bin/systemctl" "$tmp/bindir/atimectl"
sed "s|@bindir@|$tmp/bindir|" "$1" >"$tmp/helper"

# case NAME PROPS WANT
case_() {
	local got
	got=$(FAKE_PROPS=$2 PATH=$tmp/bin:$PATH sh "$tmp/helper" srv-x.mount /srv/x)
	if [ "$got" != "$3" ]; then
		echo "FAIL: $1: got '$got', want '$3'" >&2
		fail=1
	fi
}
mnt() { echo "{ path=/bin/mount ; argv[]=/bin/mount /dev/vdb /srv/x -t ext4 -o $1 ; ignore_errors=no ; start_time=[n/a] ; stop_time=[n/a] ; pid=0 ; code=(null) ; status=0/0 }"; }

case_ "options of the mount" "Options=rw,relatime,x-relatime-interval=2h
ExecMount=$(mnt 'x-relatime-interval=2h')
ExecRemount=" "[apply][--if-mounted][--options=rw,relatime,x-relatime-interval=2h][--][/srv/x]"
case_ "a mount systemd did not make" "Options=rw,relatime,x-relatime-interval=20min
ExecMount=
ExecRemount=" "[apply][--if-mounted][--options=rw,relatime,x-relatime-interval=20min][--][/srv/x]"
case_ "no options" "Options=
ExecMount=
ExecRemount=" "[apply][--if-mounted][--options=][--][/srv/x]"
case_ "balanced quotes in the command" "Options=rw,x-relatime-interval=1h 2min
ExecMount=$(mnt 'x-relatime-interval="1h 2min"')
ExecRemount=" "[apply][--if-mounted][--options=rw,x-relatime-interval=1h 2min][--][/srv/x]"
case_ "unbalanced quote in the mount command" "Options=rw,relatime
ExecMount=$(mnt 'size=1m,x-relatime-interval="1h')
ExecRemount=" "[apply][--if-mounted][--options=size=1m,x-relatime-interval=\"1h][--][/srv/x]"
case_ "unbalanced quote in the remount command" "Options=rw,relatime
ExecMount=$(mnt 'rw')
ExecRemount=$(mnt 'remount,x-relatime-interval="2h')" "[apply][--if-mounted][--options=remount,x-relatime-interval=\"2h][--][/srv/x]"
exit $fail
