# An /etc/fstab line libmount cannot parse gets one line in the journal at
# boot and at every daemon-reload (atimectl-generator), naming the line.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
cp /etc/fstab /run/atimectl-tests/fstab.orig
cleanup() { cp /run/atimectl-tests/fstab.orig /etc/fstab; systemctl daemon-reload; }
trap cleanup EXIT
n=$(($(wc -l </etc/fstab) + 1))
echo "LABEL=nothing /srv/nothing ext4 x-relatime-interval=1h zero 0" >>/etc/fstab
since=$(journal_mark)
systemctl daemon-reload
lines=
for ((i = 0; i < wait_polls; i++)); do
	lines=$(journal_since "$since" -t atimectl-generator)
	[ -n "$lines" ] && break
	sleep 0.1
done
expect_eq "what atimectl-generator said" "$lines" \
	"/etc/fstab:$n: libmount cannot parse this line; mount -a, findmnt and atimectl skip it, x-relatime-interval= in it included"
