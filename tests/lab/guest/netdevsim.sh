# netdevsim with 4 queues, started at 2 channels: each policy's set changes
# channels, rings and coalescing as its dry-run planned (read back with
# ethtool -l/-g/-c, and nothing else moves), a second set changes nothing,
# reset brings back what ethtool printed before.  Then the failures: a step
# failing after channels, rings and coalescing were written (a read-only
# xps_cpus) rolls all of it back, exit 3; --cpus naming a CPU that does not
# exist or is offline is refused, exit 2, nothing written.
. /lab/lib.sh

IF=$(nsim_add 1 4) || { fail "create a netdevsim device"; finish; }
ip link set "$IF" up
Q=/sys/class/net/$IF/queues
ok "ethtool -L combined 2" ethtool -L "$IF" combined 2
snapshot "$IF" /tmp/pristine
ethtool_text "$IF" >/tmp/ethtool.pristine

# plan_touches DESC PREFIX: the last plan changes some PREFIX* key
plan_touches() {
	if grep -q "^$2" "$PLAN_VIEW"; then pass "the plan changes $1"; else fail "the plan changes $1"; fi
}

# ethtool's own words for every channel, ring and coalescing change planned
ethtool_has_plan() {
	while read -r k v; do
		case $k in
		channels.combined) is "$(ethval "$IF" -l Combined:)" "$v" "ethtool -l: Combined as planned" ;;
		rings.rx) is "$(ethval "$IF" -g RX:)" "$v" "ethtool -g: RX as planned" ;;
		rings.tx) is "$(ethval "$IF" -g TX:)" "$v" "ethtool -g: TX as planned" ;;
		coalesce.adaptive-*)
			f=${k#coalesce.adaptive-}	# "Adaptive RX: on  TX: off"
			is "$(ethtool -c "$IF" | awk -v f="$f" '/^Adaptive RX:/ { print (f == "rx" ? $3 : $5) }')" \
				"$([ "$v" = 1 ] && echo on || echo off)" "ethtool -c: adaptive-$f as planned" ;;
		coalesce.*) is "$(ethval "$IF" -c "${k#coalesce.}:")" "$v" "ethtool -c: ${k#coalesce.} as planned" ;;
		esac
	done <"$PLAN_VIEW"
}

for P in throughput latency cpu; do
	diag "$IF: set $P from 2 channels"
	set_checked "$IF" "$P" /tmp/pristine
	plan_touches channels channels.
	plan_touches coalescing coalesce.
	[ "$P" = latency ] || plan_touches rings rings.
	ethtool_has_plan
	diag "$IF: reset"
	reset_checked "$IF" /tmp/pristine /tmp/ethtool.pristine
done

# the order is channels, rings, coalescing, ..., XPS
xps_rollback_checked "$IF" 3 "channels, rings and coalescing"

diag "$IF: --cpus with a CPU that does not exist, then with an offline one"
run_np /tmp/np-cpus.out 2 "$NP" "$IF" set throughput --cpus 7
grep -q 'CPU 7' /tmp/np-cpus.out.err && pass "the error names CPU 7: $(cat /tmp/np-cpus.out.err)" ||
	fail "the error names CPU 7: $(cat /tmp/np-cpus.out.err)"
check_restored "$IF" /tmp/pristine
put /sys/devices/system/cpu/cpu3/online 0
run_np /tmp/np-cpus.out 2 "$NP" "$IF" set throughput --cpus 2-3
grep -q 'CPU 3' /tmp/np-cpus.out.err && pass "the error names CPU 3: $(cat /tmp/np-cpus.out.err)" ||
	fail "the error names CPU 3: $(cat /tmp/np-cpus.out.err)"
check_restored "$IF" /tmp/pristine
same_ethtool "$IF" /tmp/ethtool.pristine
put /sys/devices/system/cpu/cpu3/online 1
finish
