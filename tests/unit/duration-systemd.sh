#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# duration-systemd.sh TEST_DURATION
#
# The table of test-duration.c says what systemd-analyze timespan answers
# for each input; check that it does, on a host with systemd 254 (the
# version the table was recorded with; other versions may differ in
# details, so elsewhere the test is skipped).
set -u

bin=${1:?usage: duration-systemd.sh TEST_DURATION}
if ! command -v systemd-analyze >/dev/null; then
	echo "no systemd-analyze: skipped"
	exit 77
fi
version=$(systemd-analyze --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
if [ "$version" != 254 ]; then
	echo "systemd $version, the table is from 254: skipped"
	exit 77
fi

n=0 failures=0
while IFS= read -r -d '' input && IFS= read -r -d '' want && IFS= read -r -d '' human; do
	n=$((n + 1))
	res=$(LC_ALL=C.UTF-8 systemd-analyze timespan -- "$input" 2>&1)
	case $res in
	*"Invalid argument"*) got=EINVAL got_human= ;;
	*"Numerical result out of range"*) got=ERANGE got_human= ;;
	*)
		got=$(printf '%s\n' "$res" | sed -n 's/^ *μs: //p')
		got_human=$(printf '%s\n' "$res" | sed -n 's/^ *Human: //p')
		[ -n "$human" ] || got_human=
		;;
	esac
	if [ "$got" != "$want" ] || [ "$got_human" != "$human" ]; then
		printf 'FAIL: %q: systemd-analyze says %s (%s), the table %s (%s)\n' \
			"$input" "$got" "$got_human" "$want" "$human" >&2
		failures=$((failures + 1))
	fi
done < <("$bin" --systemd-table)

if [ "$n" -lt 40 ]; then
	echo "FAIL: only $n rows read from $bin --systemd-table" >&2
	failures=$((failures + 1))
fi
echo "$n inputs compared with systemd-analyze $version, $failures failures"
[ "$failures" -eq 0 ]
