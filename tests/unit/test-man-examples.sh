#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The EXAMPLES of atimectl(8), as a reader sees them, work.
#
#   test-man-examples.sh ATIMECTL MANPAGE FIXTURES_DIR
#
# The page must render without warnings.  Each example is the tag of a .TP
# paragraph in the EXAMPLES section; they are taken from the rendered page
# (what a reader copies, with roff's quoting and escapes undone), and each
# must be plain ASCII (no typographic hyphen or quote that a shell would
# not take).  Every example runs in bash, with `atimectl` on $PATH, against
# fixtures: the mount table of $ATIMECTL_MOUNTINFO, a fake kernel in a
# temporary directory ($ATIMECTL_PROC_SYS_FS, $ATIMECTL_SYSFS_RELATIME),
# $LIBMOUNT_FSTAB, $HOME, $OPTIONS and a tmpfiles.d rule below
# $ATIMECTL_CONFIG_ROOT.  It must exit 0 with nothing on
# stderr; an example that pipes into jq must print JSON.
#
# Examples that change kernel state (set, reset, apply, global DURATION)
# need root and the patched kernel to do what they say; atimectl has no
# dry-run mode.  They are listed below with the reason, and run only
# against the fake kernel, whose files they must change.  An example that
# is neither read-only nor listed fails the test.
set -u

ATIMECTL=${1:?usage: test-man-examples.sh ATIMECTL MANPAGE FIXTURES_DIR}
MANPAGE=${2:?usage: test-man-examples.sh ATIMECTL MANPAGE FIXTURES_DIR}
FIXTURES=${3:?usage: test-man-examples.sh ATIMECTL MANPAGE FIXTURES_DIR}
case $ATIMECTL in /*) ;; *) ATIMECTL=$PWD/$ATIMECTL ;; esac
case $MANPAGE in /*) ;; *) MANPAGE=$PWD/$MANPAGE ;; esac
case $FIXTURES in /*) ;; *) FIXTURES=$PWD/$FIXTURES ;; esac

for tool in man jq; do
	if ! command -v "$tool" >/dev/null; then
		echo "FAIL: no $tool: the examples cannot be checked" >&2
		exit 1
	fi
done

T=$(mktemp -d /tmp/atimectl-man-XXXXXX)
trap 'rm -rf "$T"' EXIT

failures=0
tests=0
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}
ok() {
	tests=$((tests + 1))
}

# Verbs that write the kernel's files, and why they are not run for real.
declare -A needs_kernel=(
	[set]="writes /sys/fs/relatime/MAJ:MIN/relatime_interval: needs root and the patched kernel"
	[reset]="writes -1 to /sys/fs/relatime/MAJ:MIN/relatime_interval: needs root and the patched kernel"
	[apply]="writes the overrides that x-relatime-interval= options ask for: needs root and the patched kernel"
	[global]="with a DURATION, writes /proc/sys/fs/relatime_interval: needs root and the patched kernel"
)

# ---------------------------------------------------------------- rendering
ok
warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$MANPAGE" 2>&1 >/dev/null)
[ -z "$warnings" ] || fail "man --warnings -l atimectl.8:
$warnings"

# Wide enough that no tag wraps; a .TP tag stands at the page's indent
# (7 columns), its text and nested blocks further in.
LC_ALL=C.UTF-8 MANWIDTH=250 man -l "$MANPAGE" 2>/dev/null >"$T/page"
examples=()
while IFS= read -r line; do
	examples+=("$line")
done < <(sed -n '/^EXAMPLES$/,/^[A-Z]/{/^       [^ ]/s/^       //p}' "$T/page")

ok
tags=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$MANPAGE" | grep -c '^\.TP')
if [ "${#examples[@]}" -eq 0 ] || [ "${#examples[@]}" -ne "$tags" ]; then
	fail "${#examples[@]} examples read from the rendered page, $tags .TP in EXAMPLES"
fi

# ---------------------------------------------------------------- fixtures
# the devices of mountinfo-basic; global 10min, 8:16 overridden to 2h
mkdir -p "$T/proc" "$T/sys" "$T/bin" "$T/home"
echo 600 >"$T/proc/relatime_interval"
for d in 8:1 0:25 8:16 8:32 8:48 8:64 8:80; do
	mkdir "$T/sys/$d"
	echo -1 >"$T/sys/$d/relatime_interval"
	echo 100 >"$T/sys/$d/atime_updates"
	echo 200 >"$T/sys/$d/relatime_skips"
done
echo 7200 >"$T/sys/8:16/relatime_interval"
echo notes >"$T/home/notes.txt"
# check's consumers: the 10-day /tmp rule of systemd
mkdir -p "$T/root/usr/lib/tmpfiles.d"
echo "q /tmp 1777 root root 10d" >"$T/root/usr/lib/tmpfiles.d/tmp.conf"
snapshot() {
	(cd "$T" && find proc sys -type f -exec md5sum {} + | sort)
}

# `atimectl` on $PATH, run under $ATIMECTL_TEST_WRAPPER (valgrind)
read -r -a wrapper <<<"${ATIMECTL_TEST_WRAPPER:-}"
{
	echo '#!/usr/bin/env bash'
	printf 'exec'
	printf ' %q' "${wrapper[@]}" "$ATIMECTL"
	printf ' "$@"\n'
} >"$T/bin/atimectl"
chmod +x "$T/bin/atimectl"

export PATH="$T/bin:$PATH" HOME="$T/home"
export ATIMECTL_MOUNTINFO="$FIXTURES/mountinfo-basic"
export ATIMECTL_PROC_SYS_FS="$T/proc" ATIMECTL_SYSFS_RELATIME="$T/sys"
export LIBMOUNT_FSTAB="$FIXTURES/fstab-basic" LIBMOUNT_UTAB="$T/utab"
export OPTIONS="rw,x-relatime-interval=30min"
export ATIMECTL_CONFIG_ROOT="$T/root"

# ---------------------------------------------------------------- examples
for cmd in "${examples[@]}"; do
	ok
	if LC_ALL=C grep -q '[^ -~]' <<<"$cmd"; then
		fail "example is not plain ASCII (a roff hyphen or quote?): $cmd"
		continue
	fi
	read -r -a words <<<"${cmd%%|*}"
	if [ "${words[0]}" != atimectl ]; then
		fail "example does not start with atimectl: $cmd"
		continue
	fi
	# the first word that is no option is the verb; count the rest
	verb=
	nargs=0
	for w in "${words[@]:1}"; do
		case $w in
		-*) ;;
		*) [ -z "$verb" ] && verb=$w || nargs=$((nargs + 1)) ;;
		esac
	done
	changes=0
	case ${verb:-status} in
	status | explain | check) ;;
	global) [ "$nargs" -eq 0 ] || changes=1 ;;
	*)
		if [ -z "${needs_kernel[$verb]:-}" ]; then
			fail "example neither read-only nor listed as needing the kernel: $cmd"
			continue
		fi
		changes=1
		;;
	esac
	if [ $changes = 1 ]; then
		echo "# $cmd: ${needs_kernel[$verb]}; run against the fake kernel only"
		# never against the real files
		case $ATIMECTL_PROC_SYS_FS:$ATIMECTL_SYSFS_RELATIME in
		"$T"/*:"$T"/*) ;;
		*) fail "the fake kernel is not in place"; exit 1 ;;
		esac
	fi

	before=$(snapshot)
	(cd "$T/home" && bash -o pipefail -c "$cmd") >"$T/out" 2>"$T/err"
	rc=$?
	after=$(snapshot)
	if [ $rc -ne 0 ] || [ -s "$T/err" ]; then
		fail "$cmd: exit status $rc, stderr: $(cat "$T/err")"
		continue
	fi
	if [ $changes = 1 ] && [ "$before" = "$after" ]; then
		fail "$cmd: changed nothing in the fake kernel"
	elif [ $changes = 0 ] && [ "$before" != "$after" ]; then
		fail "$cmd: a read-only example changed the fake kernel"
	fi
	if [ $changes = 0 ] && [ ! -s "$T/out" ]; then
		fail "$cmd: printed nothing"
	fi
	case $cmd in
	*"| jq "*)
		n=$(jq -s length <"$T/out") || n=
		[ "${n:-0}" -gt 0 ] 2>/dev/null || fail "$cmd: its output is no JSON"
		;;
	esac
done

echo "${#examples[@]} examples; $tests checks, $failures failed"
[ "$failures" -eq 0 ]
