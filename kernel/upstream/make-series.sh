#!/bin/bash
# kernel/upstream/make-series.sh: make what a kernel maintainer receives
# for the upstream (7.3) version of the series: the cover letter, the
# numbered patches and the list of people and lists to send them to.
#
# Usage: kernel/upstream/make-series.sh [--src DIR] [--out DIR]
#
#   --src DIR   kernel git tree whose tag "pristine" is the unpatched tree
#               and whose HEAD has the series applied as commits (default:
#               build/linux-7.3, the tree kernel/build.sh --base 7.3
#               prepares)
#   --out DIR   where to write the mails (default: build/upstream-7.3);
#               the numbered *.patch files and maintainers.txt an earlier
#               run left there are replaced
#   -h, --help  show this help
#
# Default paths are relative to the top of the atimectl tree, paths given
# on the command line to the current directory.
#
# It runs, in SRC:
#
#   git format-patch --cover-letter --numbered -o OUT pristine..HEAD
#
# with the author of HEAD as the sender of every mail, the cover letter
# included, so that the result does not depend on who runs it; puts the subject and the body of
# kernel/upstream/cover-letter.txt (first line "Subject: [PATCH 00/NN]
# ...", a blank line, the body) in place of "*** SUBJECT HERE ***" and
# "*** BLURB HERE ***" of OUT/0000-cover-letter.patch, keeping git's
# shortlog and diffstat; runs SRC's scripts/checkpatch.pl --strict --quiet
# on the patches (not the cover letter) and fails if it reports anything;
# and runs SRC's scripts/get_maintainer.pl --no-rolestats on the patches,
# writing its output to OUT/maintainers.txt and printing it.
#
# get_maintainer.pl also gets --nogit-fallback: SRC's history is a single
# commit importing the Debian source, so the git fallback would only name
# whoever made that commit.
#
# Exit status: 0 on success, 1 on a failure (no "pristine" tag, checkpatch
# findings, a malformed cover-letter.txt, ...), 2 on a usage error.
set -euo pipefail

prog=kernel/upstream/make-series.sh
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
letter=$here/cover-letter.txt

src=$top/build/linux-7.3
out=$top/build/upstream-7.3

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
usage_error() { printf '%s: %s\n' "$prog" "$*" >&2; printf "Try '%s --help'.\n" "$prog" >&2; exit 2; }
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	case $1 in
	--src|--out)
		if [ $# -lt 2 ] || [ -z "$2" ] || [[ $2 == --* ]]; then
			usage_error "$1 needs a value"
		fi
		if [ "$1" = --src ]; then src=$2; else out=$2; fi
		shift ;;
	--src=*) src=${1#--src=}; [ -n "$src" ] || usage_error "--src needs a value" ;;
	--out=*) out=${1#--out=}; [ -n "$out" ] || usage_error "--out needs a value" ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
	shift
done

# The kernel tree.
[ -d "$src" ] || die "$src: no such directory (kernel/build.sh --base 7.3 prepares build/linux-7.3)"
src=$(cd "$src" && pwd -P)
git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	die "$src is not a git tree"
[ "$(git -C "$src" rev-parse --show-toplevel)" = "$src" ] ||
	die "$src is not the top of a git tree"
git -C "$src" rev-parse -q --verify 'refs/tags/pristine^{commit}' >/dev/null ||
	die "$src has no tag 'pristine' (the unpatched tree); is it a tree kernel/build.sh prepared?"
for s in checkpatch.pl get_maintainer.pl; do
	[ -f "$src/scripts/$s" ] || die "$src/scripts/$s not found: is $src a kernel tree?"
done
n=$(git -C "$src" rev-list --count pristine..HEAD)
[ "$n" -gt 0 ] || die "$src: HEAD has no commits on top of 'pristine'"

# The cover letter text: "Subject: [PATCH 00/NN] TEXT", a blank line, the body.
[ -f "$letter" ] || die "$letter not found"
first=$(sed -n 1p "$letter")
case $first in
'Subject: '?*) ;;
*) die "$letter: the first line must be 'Subject: ...'" ;;
esac
[ -z "$(sed -n 2p "$letter")" ] || die "$letter: the second line must be empty"
subject=${first#Subject: }
if [[ $subject =~ ^\[([^]]*)\]\ +(.*)$ ]]; then
	tag=${BASH_REMATCH[1]}
	subject=${BASH_REMATCH[2]}
	want=$(printf '%02d/%02d' 0 "$n")
	[[ $tag == *" $want" || $tag == "$want" ]] ||
		die "$letter: the subject says [$tag], but pristine..HEAD has $n patches ($want)"
fi
[ -n "$subject" ] || die "$letter: the subject is empty"
body=$(mktemp)
trap 'rm -f "$body"' EXIT
sed -n '3,$p' "$letter" >"$body"
grep -q '[^[:space:]]' "$body" || die "$letter: the body is empty"

# The mails.
mkdir -p "$out"
out=$(cd "$out" && pwd)
find "$out" -maxdepth 1 -type f \( -name '[0-9][0-9][0-9][0-9]-*.patch' \
	-o -name maintainers.txt \) -delete
# The cover letter's From: is the committer identity of whoever runs git:
# make it the author of HEAD, as --from does for the patches.
name=$(git -C "$src" log -1 --format=%an HEAD)
email=$(git -C "$src" log -1 --format=%ae HEAD)
GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email \
	git -C "$src" format-patch -q --cover-letter --numbered \
	--from="$name <$email>" -o "$out" pristine..HEAD

cover=$out/0000-cover-letter.patch
[ -f "$cover" ] || die "git format-patch wrote no $cover"
[ "$(grep -c '^Subject: .*\*\*\* SUBJECT HERE \*\*\*$' "$cover")" = 1 ] ||
	die "$cover: no single '*** SUBJECT HERE ***' line"
[ "$(grep -cx '\*\*\* BLURB HERE \*\*\*' "$cover")" = 1 ] ||
	die "$cover: no single '*** BLURB HERE ***' line"

# Put the subject (folded at 78 columns as git folds long subjects) and the
# body in place of the placeholders.
awk -v subject="$subject" -v bodyfile="$body" '
function fold(s,   out, line, n, i, w) {
	n = split(s, w, " ")
	line = w[1]
	for (i = 2; i <= n; i++) {
		if (length(line) + 1 + length(w[i]) > 78) {
			out = out line "\n"
			line = " " w[i]
		} else
			line = line " " w[i]
	}
	return out line
}
header && /^Subject: .*\*\*\* SUBJECT HERE \*\*\*$/ {
	sub(/\*\*\* SUBJECT HERE \*\*\*$/, "")
	print fold($0 subject)
	next
}
header && /^$/ { header = 0 }
!header && $0 == "*** BLURB HERE ***" {
	while ((getline l < bodyfile) > 0)
		print l
	close(bodyfile)
	next
}
{ print }
' header=1 "$cover" >"$cover.new"
mv "$cover.new" "$cover"
! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$cover" ||
	die "$cover: a placeholder is left"

patches=()
for f in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ "$f" = "$cover" ] || patches+=("$f")
done
[ "${#patches[@]}" -eq "$n" ] ||
	die "expected $n patches in $out, found ${#patches[@]}"

# checkpatch: any output is a finding.
rc=0
# Debian's python3 (with python3-ply, for the SPDX check), not another
# one earlier on PATH.
report=$(cd "$src" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --quiet "${patches[@]}" 2>&1) || rc=$?
if [ "$rc" -ne 0 ] || [ -n "$report" ]; then
	printf '%s\n' "$report" >&2
	die "checkpatch.pl --strict reported problems in the patches (status $rc)"
fi
echo "checkpatch.pl --strict: $n patches, nothing to report"

# Who receives them.
(cd "$src" && perl scripts/get_maintainer.pl --no-rolestats --nogit-fallback \
	"${patches[@]}") >"$out/maintainers.txt" ||
	die "get_maintainer.pl failed"
echo "get_maintainer.pl ($out/maintainers.txt):"
cat "$out/maintainers.txt"
echo "wrote $out: 0000-cover-letter.patch, $n patches, maintainers.txt"
