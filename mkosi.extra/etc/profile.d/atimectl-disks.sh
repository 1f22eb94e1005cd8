# At login in scripts/run.sh's VM: say so if a demo filesystem the README
# promises is not mounted (its disk has not appeared, or was unmounted).
for atimectl_m in /srv/mail /srv/cache; do
	if ! mountpoint -q "$atimectl_m"; then
		echo "atimectl VM: $atimectl_m is not mounted: its disk LABEL=atime-${atimectl_m#/srv/} has not appeared (it is mounted when it does), or it was unmounted; see: systemctl status $(systemd-escape -p --suffix=mount "$atimectl_m")" >&2
	fi
done
unset atimectl_m
