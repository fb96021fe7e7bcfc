# Every policy on igb (82576 under QEMU 10, 6.12 guest, 4 vCPUs) from 4
# combined channels (a vector per Rx and per Tx queue) and from 8 (paired
# TxRx vectors, where igb refuses any tx-usecs): the kernel shows what the
# plan said, `check` passes, a second set changes nothing, reset brings every
# reading back and ethtool -l/-g/-c print what they did.  igb renumbers and
# renames its MSI-X vectors and re-spreads its RSS table on every channel
# change.  After reset, `ethtool -L IF combined 2` works as it did before
# netpolicy: reset must leave the kernel's "RSS table user-set" flag clear.
# First, `set cpu` right after a channel change (igb's carrier is down for a
# moment) plans with the link speed and `check` passes.
. /lab/lib.sh

IF=$(nic igb) && pass "igb NIC $IF" || { fail "no igb NIC"; finish; }
ip link set "$IF" up
# (d) igb drops carrier for a moment after a channel change: a set right
# then must not plan without the link speed (cpu's queue count follows it),
# or `check` a moment later calls the difference drift
diag "$IF: set cpu right after ethtool -L (carrier down for a moment)"
ethtool -L "$IF" combined 2 || fail "ethtool -L $IF combined 2"
run_np /tmp/np-cpu.json 0 "$NP" --json "$IF" set cpu
is "$(jq -r '[.notes[] | select(.note | test("link speed unknown"))] | length' /tmp/np-cpu.json)" 0 \
	"$IF: cpu planned with the link speed"
run_np /tmp/np-check.out 0 "$NP" "$IF" check
run_np /tmp/np-reset.out 0 "$NP" "$IF" reset
for Q in ${IGB_QUEUES:-4 8}; do
	ethtool -L "$IF" combined "$Q" || fail "ethtool -L $IF combined $Q"
	# the link drops for a moment after a channel change
	carrier "$IF"
	diag "$IF at $Q channels: $(grep "$IF" /proc/interrupts | awk '{ printf "%s%s ", $1, $NF }')"
	snapshot "$IF" /tmp/pristine
	ethtool_text "$IF" >/tmp/ethtool.pristine
	check_show "$IF"
	for P in ${IGB_POLICIES:-latency throughput cpu}; do
		diag "$IF from $Q channels: set $P"
		set_checked "$IF" "$P" /tmp/pristine
		diag "$IF from $Q channels: reset"
		reset_checked "$IF" /tmp/pristine /tmp/ethtool.pristine
		ok "$IF: ethtool -L combined 2 after reset" ethtool -L "$IF" combined 2
		ethtool -L "$IF" combined "$Q"
		carrier "$IF"
	done
done
finish
