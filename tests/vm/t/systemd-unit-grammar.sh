# Unit files are read by systemd alone: the options atimectl-apply.service
# applies are those systemd resolved and mount(8) kept in utab, in the
# cases where a parser of our own got it wrong (a UTF-8 BOM, a comment line
# inside a continuation, a line ending in an escaped backslash), with
# drop-ins and /etc over /run.
. /usr/lib/atimectl-tests/lib.sh
. /usr/lib/atimectl-tests/t/systemd-lib.sh
sysctl_set fs.relatime_interval 60
run=/run/systemd/system
etc=/etc/systemd/system
base=/run/atimectl-tests/grammar
units=()
cleanup() {
	local u
	for u in "${units[@]}"; do
		systemctl stop "$u" 2>/dev/null || true
		rm -rf "$run/$u" "$etc/$u" "$run/$u.d" "$etc/$u.d"
	done
	systemctl daemon-reload
	restore_sysctls
	cleanup_mounts
}
trap cleanup EXIT

# unit NAME BODY-OF-[Mount]-AFTER-What/Where/Type: writes $run/UNIT for a
# tmpfs on $base/NAME and prints the unit name.
unit() {
	local where=$base/$1 u
	u=$(systemd-escape -p --suffix=mount "$where")
	units+=("$u")
	printf '[Mount]\nWhat=tmpfs\nWhere=%s\nType=tmpfs\n%b' "$where" "$2" >"$run/$u"
	echo "$u"
}

bom=$(unit bom 'Options=size=1m,x-relatime-interval=5min\n')
# the BOM before "[Mount]"
printf '\xef\xbb\xbf%s' "$(cat "$run/$bom")" >"$run/$bom"
cont=$(unit cont 'Options=\\\n# a comment inside the continuation\nsize=1m,x-relatime-interval=7min\n')
bs=$(unit backslash 'Options=size=1m,x-relatime-interval=8min\n')
# [Unit] comes first, and its Description ends in an escaped backslash:
# no continuation, so [Mount] is a section of its own.
printf '[Unit]\nDescription=ends in a backslash \\\\\n%s\n' "$(cat "$run/$bs")" >"$run/$bs"
# /etc over /run: the /etc unit has no option.
over=$(unit over 'Options=size=1m,x-relatime-interval=9min\n')
printf '[Mount]\nWhat=tmpfs\nWhere=%s\nType=tmpfs\nOptions=size=1m\n' "$base/over" >"$etc/$over"
units+=("$over")
# A drop-in adds the option.
dropin=$(unit dropin 'Options=size=1m\n')
mkdir -p "$run/$dropin.d"
printf '[Mount]\nOptions=size=1m,x-relatime-interval=11min\n' >"$run/$dropin.d/10-atime.conf"
systemctl daemon-reload

for u in "$bom" "$cont" "$bs" "$over" "$dropin"; do
	note "$u: Options=$(systemctl show -P Options "$u")"
	systemctl start "$u" || die "$u did not start"
done
expect_interval "UTF-8 BOM" "$base/bom" 300
expect_interval "comment inside a continuation" "$base/cont" 420
expect_interval "line ending in an escaped backslash" "$base/backslash" 480
expect_no_override "/etc over /run" "$base/over"
expect_interval "drop-in" "$base/dropin" 660
