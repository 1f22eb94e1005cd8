# atimectl is in the image as a user has it after "apt install
# ./atimectl_VERSION_ARCH.deb" (mkosi.build.chroot builds the package,
# mkosi installs it with apt): dpkg knows it, its files are all there and
# unmodified, and each lands where the program that uses it looks: systemd
# runs the generator and loads atimectl-apply.path and .service from the
# package's paths (enabled by the package), man finds and renders both pages, a user's PATH
# finds atimectl; the sysctl.d file is an example that systemd-sysctl
# does not read.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh

# dpkg: installed, and the atimectl on PATH is the package's own, of its
# version.
expect_eq "dpkg status of atimectl" "$(dpkg-query -W -f='${Status}' atimectl 2>&1)" \
	"install ok installed"
version=$(dpkg-query -W -f='${Version}' atimectl)
expect_eq "atimectl on PATH" "$(command -v atimectl)" /usr/bin/atimectl
expect_eq "owner of /usr/bin/atimectl" "$(dpkg-query -S /usr/bin/atimectl 2>&1)" \
	"atimectl: /usr/bin/atimectl"
expect_eq "atimectl --version" "$(atimectl --version)" "atimectl $version"

# status and explain are for every user: a user's login shell finds
# atimectl on the PATH Debian gives users (on Debian 12, /etc/profile's
# has no sbin) and runs them.
# (su's complaint that nobody's home does not exist goes to stderr.)
user_sh() { su -l nobody -s /bin/sh -c "$1" 2>/run/atimectl-tests/su.err; }
expect_eq "atimectl on a user's PATH" "$(user_sh 'command -v atimectl' || true)" /usr/bin/atimectl
out=$(user_sh 'atimectl status / && atimectl explain /etc/fstab') ||
	die "atimectl status and explain as a user failed: $out $(cat /run/atimectl-tests/su.err)"
note "as nobody: $(head -n 1 <<<"$out")"

# Every path dpkg lists exists, and no packaged file was changed after
# installation (dpkg --verify compares each with the package's md5sums):
# the build script's own files, copied in after the package, must not
# shadow it.
expect_package_files "installed"
files=$(dpkg-query -L atimectl)

# Units and the generator are where the release's systemd.pc says, which
# is where its dh_installsystemd reads them: /lib/systemd on Debian 12,
# /usr/lib/systemd on 13 (the same directory on a merged-/usr system,
# but dpkg knows the package's files by the path it shipped).
case $(. /etc/os-release && echo "$VERSION_CODENAME") in
bookworm) sd=/lib/systemd ;;
*) sd=/usr/lib/systemd ;;
esac
for f in /usr/bin/atimectl $sd/system-generators/atimectl-generator \
	$sd/system/atimectl-apply.service $sd/system/atimectl-apply.path \
	/usr/share/doc/atimectl/examples/50-relatime.conf /usr/share/man/man8/atimectl.8.gz \
	/usr/share/man/man8/atimectl-apply.service.8.gz; do
	grep -qxF "$f" <<<"$files" || die "dpkg -L atimectl does not list $f"
done
note "dpkg -L atimectl: $(wc -l <<<"$files") paths, all present"

# The .deb kept for t/deb-remove.sh and t/deb-purge.sh is the package that is installed.
debs=(/usr/lib/atimectl-tests/deb/atimectl_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] ||
	die "want one atimectl_*.deb in /usr/lib/atimectl-tests/deb, have: ${debs[*]}"
expect_eq "version of ${debs[0]}" "$(dpkg-deb -f "${debs[0]}" Version)" "$version"
expect_eq "md5sums of ${debs[0]} and of the installed package" \
	"$(dpkg-deb -I "${debs[0]}" md5sums | md5sum)" \
	"$(md5sum </var/lib/dpkg/info/atimectl.md5sums)"

# systemd runs the packaged generator: at a daemon-reload, an fstab line
# libmount cannot parse gets its line in the journal.  (A generator
# installed anywhere systemd does not look would say nothing.)
cp /etc/fstab /run/atimectl-tests/fstab.orig
trap 'cp /run/atimectl-tests/fstab.orig /etc/fstab; systemctl daemon-reload; cleanup_mounts' EXIT
echo "LABEL=nothing /srv/nothing ext4 defaults zero 0" >>/etc/fstab
since=$(journal_mark)
systemctl daemon-reload
said=
for ((i = 0; i < wait_polls; i++)); do
	said=$(journal_since "$since" -t atimectl-generator)
	[ -n "$said" ] && break
	sleep 0.1
done
case $said in
"/etc/fstab:$(wc -l </etc/fstab): libmount cannot parse this line"*) ;;
*) die "atimectl-generator said nothing at daemon-reload about a bad fstab line (said: '$said')" ;;
esac
cp /run/atimectl-tests/fstab.orig /etc/fstab
systemctl daemon-reload
trap cleanup_mounts EXIT

# The package's units are loaded from its files and enabled: the path
# watches utab from before local-fs-pre.target, the service ran at boot.
# The generator gave srv-mail.mount (from fstab) its drop-in, so /srv/mail
# has its interval as a mount option.  (Paths are compared as files:
# bookworm's systemd names /lib/systemd/system first, the same directory
# as /usr/lib/systemd/system on a merged-/usr system.)
for u in atimectl-apply.path atimectl-apply.service; do
	fragment=$(systemctl show -P FragmentPath "$u")
	[ "$fragment" -ef "/usr/lib/systemd/system/$u" ] ||
		die "$u: unit file '$fragment', not the package's /usr/lib/systemd/system/$u"
	expect_eq "$u enabled" "$(systemctl is-enabled "$u" 2>&1)" enabled
done
expect_eq "atimectl-apply.path" "$(systemctl show -P ActiveState atimectl-apply.path)" active
apply_settled
expect_eq "atimectl-apply.service result" "$(systemctl show -P Result atimectl-apply.service)" success
wait_mounted /srv/mail
case ,$(super_opts /srv/mail), in
*,relatime_interval=600,*) ;;
*) die "/srv/mail: super options '$(super_opts /srv/mail)' lack relatime_interval=600" ;;
esac
expect_eq "/srv/mail override (x-relatime-interval=10min)" \
	"$(wait_file "$(override_file /srv/mail)" 600)" 600

# man finds the packaged pages (no others) and renders them without a
# warning.
for page in atimectl atimectl-apply.service; do
	expect_eq "man -w $page" "$(man -w "$page" 2>&1)" "/usr/share/man/man8/$page.8.gz"
	out=$(MANWIDTH=80 man "$page" 2>/run/atimectl-tests/man.err) ||
		die "man $page failed: $(cat /run/atimectl-tests/man.err)"
	[ ! -s /run/atimectl-tests/man.err ] ||
		die "man $page warned: $(cat /run/atimectl-tests/man.err)"
	grep -q "^NAME" <<<"$out" || die "man $page has no NAME section: $(head -n 5 <<<"$out")"
	grep -qF "atimectl" <<<"$(sed -n '/^NAME/,/^SYNOPSIS/p' <<<"$out")" ||
		die "man $page: NAME does not name atimectl: $(head -n 8 <<<"$out")"
done

# The sysctl.d file is an example, not in a directory systemd-sysctl
# reads: on Debian 13 a package's file there makes systemd's dpkg trigger
# re-apply every sysctl.d setting at each install, upgrade and removal.
cat_config=$(systemd-analyze cat-config sysctl.d 2>&1) ||
	die "systemd-analyze cat-config sysctl.d failed: $cat_config"
if grep -q '^# /.*relatime' <<<"$cat_config"; then
	die "systemd-sysctl reads a relatime file: $(grep '^# /' <<<"$cat_config" | tr '\n' ' ')"
fi
grep -qx '#fs.relatime_interval = 3600' /usr/share/doc/atimectl/examples/50-relatime.conf ||
	die "the example sysctl.d file does not show fs.relatime_interval"
