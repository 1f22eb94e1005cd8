# The kernel the image boots is the patched kernel's Debian package
# (kernel/build.sh --deb --config guest, installed by mkosi with apt), and
# "dpkg --purge" removes it cleanly.  The host checks that the package's
# vmlinuz is, byte for byte, the bzImage scripts/vm.sh boots; here the
# package must be installed as dpkg sees it, own /boot's files, carry the
# running kernel's build (the version string in the bzImage header equals
# /proc/version's), and leave none of its files behind when purged.
#
# Last in its suite: the package cannot be installed again in the guest.
. /usr/lib/atimectl-tests/lib.sh
r=$(uname -r)
pkg=linux-image-$r
installed=$(dpkg-query -W -f='${Package} ${Status}\n' 'linux-image-*' 2>/dev/null |
	awk '$NF == "installed" { print $1 }')
[ -n "$installed" ] || die "no linux-image package is installed in the image"
if grep -qw 'atimetest.kernel=other' /proc/cmdline; then
	skip "booted $r with --kernel, not the image's $installed"
fi
expect_eq "installed kernel packages" "$installed" "$pkg"
expect_eq "$pkg version" "$(dpkg-query -W -f='${Version}' "$pkg")" "$r-1"
expect_eq "$pkg section" "$(dpkg-query -W -f='${Section}' "$pkg")" kernel

for f in "/boot/vmlinuz-$r" "/boot/config-$r" "/boot/System.map-$r"; do
	[ -s "$f" ] || die "$f is missing or empty"
	expect_eq "owner of $f" "$(dpkg-query -S "$f" | cut -d: -f1)" "$pkg"
done
grep -qx 'CONFIG_DEFAULT_RELATIME=y' "/boot/config-$r" ||
	die "/boot/config-$r has no CONFIG_DEFAULT_RELATIME=y"
# mkosi.postinst.chroot's link, from which mkosi copied image.vmlinuz.
expect_eq "/usr/lib/modules/$r/vmlinuz" "$(readlink -f "/usr/lib/modules/$r/vmlinuz")" "/boot/vmlinuz-$r"

# The x86 boot header's kernel_version (a pointer at 0x20e, relative to
# 0x200) is "RELEASE (USER@HOST) #N ...DATE", the same text /proc/version
# carries around the compiler.
off=$(( $(od -An -tu2 -j $((0x20e)) -N2 "/boot/vmlinuz-$r") + 0x200 ))
hdr=$(dd if="/boot/vmlinuz-$r" bs=1 skip="$off" count=256 status=none | tr '\0' '\n' | head -n 1)
proc=$(cat /proc/version)
expect_eq "vmlinuz release and builder" "${hdr%% #*}" "$(echo "$proc" | sed 's/^Linux version \([^ ]* ([^)]*)\).*/\1/')"
expect_eq "vmlinuz build" "#${hdr#* #}" "#${proc##*) #}"
note "vmlinuz-$r: $hdr"

# What the image build, not the package, put in the package's
# /lib/modules/$r: mkosi.postinst.chroot's vmlinuz link and mkosi's depmod
# output.  Removed first, so that dpkg can remove the directory, which
# must be gone after the purge.
owned=$(dpkg-query -L "$pkg")
for f in "/usr/lib/modules/$r"/*; do
	echo "$owned" | grep -qx "/lib/modules/$r/${f##*/}" && continue
	case ${f##*/} in
	vmlinuz|modules.*) rm -f "$f" ;;
	*) die "$f: neither $pkg's nor what the image build adds" ;;
	esac
done
# 6.12's package has the directory (modules.builtin), 6.1's none: then it
# is the image build's too.
echo "$owned" | grep -qx "/lib/modules/$r" || rmdir "/usr/lib/modules/$r"

files=$(dpkg-query -L "$pkg" | while read -r f; do [ -d "$f" ] || echo "$f"; done)
[ -n "$files" ] || die "dpkg -L $pkg lists no files"
out=$(dpkg --purge "$pkg" 2>&1) || die "dpkg --purge $pkg failed: $out"
if echo "$out" | grep -qiE 'warning|error'; then
	die "dpkg --purge $pkg said: $out"
fi
left=$(for f in $files "/usr/lib/modules/$r"; do [ -e "$f" ] && echo "$f"; done || true)
[ -z "$left" ] || die "left after the purge: $(echo $left)"
state=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || echo "not known")
case $state in
*installed*) [ "$state" = "unknown ok not-installed" ] || die "$pkg after the purge: $state" ;;
esac
note "purged $pkg: $(echo "$files" | wc -l) files removed"
