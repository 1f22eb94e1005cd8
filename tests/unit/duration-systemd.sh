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

# One systemd-analyze for all the inputs: it answers them in order and
# stops at the first it cannot parse, naming the error; the next one
# starts after that input.  (One process per input took 20 s and more on a
# loaded machine.)
inputs=() wants=() humans=()
while IFS= read -r -d '' input && IFS= read -r -d '' want && IFS= read -r -d '' human; do
	inputs+=("$input") wants+=("$want") humans+=("$human")
done < <("$bin" --systemd-table)
n=${#inputs[@]} failures=0 runs=0
check() {	# check INDEX GOT GOT_HUMAN
	local human=${humans[$1]} got_human=$3
	[ -n "$human" ] || got_human=
	if [ "$2" != "${wants[$1]}" ] || [ "$got_human" != "$human" ]; then
		printf 'FAIL: %q: systemd-analyze says %s (%s), the table %s (%s)\n' \
			"${inputs[$1]}" "$2" "$got_human" "${wants[$1]}" "$human" >&2
		failures=$((failures + 1))
	fi
}
err=$(mktemp)
trap 'rm -f "$err"' EXIT
i=0
while [ "$i" -lt "$n" ]; do
	runs=$((runs + 1))
	res=$(LC_ALL=C.UTF-8 systemd-analyze timespan -- "${inputs[@]:i}" 2>"$err")
	mapfile -t us < <(printf '%s\n' "$res" | sed -n 's/^ *μs: //p')
	mapfile -t hs < <(printf '%s\n' "$res" | sed -n 's/^ *Human: //p')
	if [ "${#us[@]}" != "${#hs[@]}" ]; then
		echo "FAIL: ${#us[@]} μs: lines but ${#hs[@]} Human: lines from systemd-analyze:" >&2
		printf '%s\n' "$res" >&2
		exit 1
	fi
	for ((k = 0; k < ${#us[@]}; k++)); do
		check $((i + k)) "${us[k]}" "${hs[k]}"
	done
	i=$((i + ${#us[@]}))
	[ "$i" -lt "$n" ] || break
	# systemd-analyze stopped at input i.
	case $(cat "$err") in
	*"Invalid argument"*) check "$i" EINVAL "" ;;
	*"Numerical result out of range"*) check "$i" ERANGE "" ;;
	*)
		printf 'FAIL: systemd-analyze stopped at %q without an error: %s\n' \
			"${inputs[i]}" "$(cat "$err")" >&2
		failures=$((failures + 1))
		;;
	esac
	i=$((i + 1))
done

if [ "$n" -lt 40 ]; then
	echo "FAIL: only $n rows read from $bin --systemd-table" >&2
	failures=$((failures + 1))
fi
echo "$n inputs compared with systemd-analyze $version ($runs runs), $failures failures"
[ "$failures" -eq 0 ]
