# Arbitrary bytes written to relatime_interval (sysfs), fs.relatime_interval
# and fs.default_relatime: embedded NULs, more than a page, several write
# calls on one open file, writes at an offset (pwrite, dd seek=).  A write
# the kernel refuses leaves the value as it was, an accepted one sets the
# value its bytes spell, and thousands of random non-integers change
# nothing.  On the debug kernel the runner's log check adds "and nothing in
# the kernel complained".
. /usr/lib/atimectl-tests/lib.sh
bb=/usr/lib/atimectl-tests/helpers/badbytes
w=/run/atimectl-tests/bad-bytes
mkdir -p "$w"
mnt=$(mount_scratch scratch1)
sys=$(relatime_dir "$mnt")/relatime_interval
ri=/proc/sys/fs/relatime_interval
dr=/proc/sys/fs/default_relatime
sysctl_set fs.relatime_interval 4242
sysctl_set fs.default_relatime 1
echo 1234 >"$sys"

# try FILE START WANT OFFSET CHUNK FORMAT [ARG...]: set FILE to START, write
# the bytes printf FORMAT ARG... makes with badbytes (OFFSET -1: write(2)
# from the file position 0, else pwrite(2) at OFFSET; CHUNK 0: one call),
# and check that FILE then reads WANT.  When WANT is START every call must
# have failed or written nothing; otherwise one must have written.  WANT
# "ignored": the value stays, whatever the calls returned.  A case
# that goes wrong is noted and the others still run; the test fails at the
# end with all of them.
ncase=0
fails=()
try() {
	local f=$1 start=$2 want=$3 off=$4 chunk=$5 fmt=$6 got c calls wrote=0 what
	shift 6
	ncase=$((ncase + 1))
	# shellcheck disable=SC2059
	printf -- "$fmt" "$@" >"$w/payload"
	echo "$start" >"$f"
	# One line per call, "RETURN ERRNO".  The shell itself reads it and
	# the value: on the debug kernel every process costs most of a second.
	"$bb" write "$f" "$off" "$w/payload" "$chunk" >"$w/calls"
	mapfile -t calls <"$w/calls"
	# Did a call write (return more than 0)?
	for c in "${calls[@]}"; do
		[ "${c%% *}" -gt 0 ] && wrote=$((wrote + 1))
	done
	got=
	IFS= read -r got <"$f" || true
	if [ "$want" = ignored ]; then
		want=$start wrote=0
	fi
	# Right: the value reads WANT, and a call wrote exactly when WANT
	# differs from START.
	if [ "$got" = "$want" ]; then
		if [ "$want" = "$start" ]; then
			[ "$wrote" = 0 ] && return 0
		else
			[ "$wrote" != 0 ] && return 0
		fi
	fi
	what="$f: $(od -An -c "$w/payload" | tr -s ' \n' ' ' | cut -c1-60)($(stat -c %s "$w/payload") bytes, offset $off, chunk $chunk; calls returned: $(IFS=,; echo "${calls[*]}"))"
	if [ "$got" != "$want" ]; then
		fails+=("$what: got '$got', want '$want'")
	elif [ "$want" = "$start" ]; then
		fails+=("$what: a call wrote bytes but the value stayed")
	else
		fails+=("$what: no call wrote, yet the value changed")
	fi
	return 0
}
zeros() { head -c "$1" /dev/zero | tr '\0' "${2:-0}"; }

# --- /sys/fs/relatime/MAJ:MIN/relatime_interval: kstrtoint(), base 0, one
# trailing newline; sysfs hands each write(2) of up to a page to the store
# method on its own, wherever the file offset is.
f=$sys
try "$f" 1234 60 -1 0 '60\n'
try "$f" 1234 60 -1 0 '0x3c'
try "$f" 1234 -1 -1 0 '-1'
try "$f" 1234 5 -1 0 '+5'
try "$f" 1234 1234 -1 0 '\0'
try "$f" 1234 1234 -1 0 '\00060\n'
try "$f" 1234 1234 -1 0 ' 60'
try "$f" 1234 1234 -1 0 '60 '
try "$f" 1234 1234 -1 0 '60\n\n'
try "$f" 1234 1234 -1 0 '-2'
try "$f" 1234 1234 -1 0 '2147483648'
try "$f" 1234 1234 -1 0 '08'
# An integer followed by a NUL and more is not an integer.
try "$f" 1234 1234 -1 0 '60\000junk'
try "$f" 1234 1234 -1 0 '7\000'
# More than a page: the first page alone reaches the parser.
try "$f" 1234 1234 -1 0 "1$(zeros 4096)"
try "$f" 1234 1234 -1 0 "$(zeros 8192 9)"
# ... which makes 4096 zeros one write of 0 and the 7 a second one.
try "$f" 1234 7 -1 0 "$(zeros 4096)7"
# Partial writes: each write(2) is parsed alone.
try "$f" 1234 0 -1 1 '60\n'
try "$f" 1234 6 -1 1 '6x'
try "$f" 1234 1234 -1 2 'x60\n'
# The offset does not matter to sysfs.
try "$f" 1234 60 5 0 '60\n'
try "$f" 1234 1234 4096 0 'x\n'
echo 1234 >"$f"
printf 77 | dd of="$f" bs=2 seek=2 conv=notrunc status=none
expect_eq "$f after dd seek=2 bs=2 of '77'" "$(cat "$f")" 77

# --- the sysctls: proc_dointvec_minmax(); leading and trailing spaces are
# fine, the first page is all that is parsed, and with the default
# kernel.sysctl_writes_strict=1 a write at a non-zero offset is ignored
# (and reported as written).
try "$ri" 4242 60 -1 0 '60\n'
try "$ri" 4242 60 -1 0 ' 60 \n\n'
try "$ri" 4242 60 -1 0 '0x3c'
try "$ri" 4242 4242 -1 0 '\0'
try "$ri" 4242 4242 -1 0 '\00060'
try "$ri" 4242 4242 -1 0 '60\000junk'
try "$ri" 4242 4242 -1 0 '-1'
try "$ri" 4242 4242 -1 0 '+5'
try "$ri" 4242 4242 -1 0 '2147483648'
try "$ri" 4242 4242 -1 0 "1$(zeros 4096)"
try "$ri" 4242 4242 -1 0 "$(zeros 4096)7"
try "$ri" 4242 4242 -1 0 "$(zeros 8192 9)"
try "$ri" 4242 4242 -1 0 "$(zeros 5000 ' ')"
try "$ri" 4242 6 -1 1 '60\n'
try "$ri" 4242 ignored 5 0 '60\n'
echo 4242 >"$ri"
printf 77 | dd of="$ri" bs=2 seek=2 conv=notrunc status=none 2>/dev/null || true
expect_eq "$ri after dd seek=2 bs=2 of '77'" "$(cat "$ri")" 4242

try "$dr" 1 0 -1 0 '0\n'
try "$dr" 0 1 -1 0 '01'
try "$dr" 0 1 -1 0 '0x1\n'
try "$dr" 1 1 -1 0 '2'
try "$dr" 1 1 -1 0 '\0'
try "$dr" 1 1 -1 0 '0\000'
# Only the first page is parsed: what lies beyond it is never looked at,
# as for every integer sysctl.
try "$dr" 1 0 -1 0 "0$(zeros 5000 ' ')x"
try "$dr" 0 0 -1 0 "$(zeros 4096 ' ')1"
try "$dr" 0 1 -1 1 '1x'
try "$dr" 1 ignored 7 0 '0\n'
note "$ncase crafted writes, ${#fails[@]} wrong"

# Random bytes that are no integer: nothing may change, nothing is accepted.
echo 1234 >"$sys"
echo 4242 >"$ri"
echo 1 >"$dr"
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
for f in "$sys" "$ri" "$dr"; do
	out=$("$bb" fuzz "$f" "$seed" 2000) || die "fuzz $f (seed $seed): $out"
	note "$f (seed $seed): $out"
done
expect_eq "$sys" "$(cat "$sys")" 1234
expect_eq "$ri" "$(cat "$ri")" 4242
expect_eq "$dr" "$(cat "$dr")" 1
if [ ${#fails[@]} -gt 0 ]; then
	printf 'FAIL: %s\n' "${fails[@]}" >&2
	die "${#fails[@]} of $ncase crafted writes went wrong"
fi
