# igb (6.12, QEMU 10) with 8 vCPUs (lab612.bats -c 8): the policies that
# want a queue per core grow igb from 4 channels to its maximum of 8, and
# that pairs its vectors (above half the maximum Rx and Tx share TxRx
# vectors, and any tx-usecs is refused).  The other direction of
# igb-report.sh: the plan must foresee the pairing before it happens.  From
# 4 channels with a user's tx-usecs 50, for latency and throughput: the dry
# run plans 8 channels, says coalescing is planned for paired vectors, and
# plans no tx-usecs; the set's report is what the kernel shows changed, the
# vectors are 8 TxRx ones, check passes, a second set changes nothing.
# Reset goes back to 4 unpaired channels, and since a paired igb takes the
# Tx rate from rx-usecs, the user's tx-usecs 50 is gone until reset writes
# it again after the channel change: every reading and the ethtool -l/-g/-c
# text as before.
. /lab/lib.sh

IF=$(nic igb) && pass "igb NIC $IF" || { fail "no igb NIC"; finish; }
is "$(nproc)" 8 "guest CPUs"
ip link set "$IF" up
ethtool -L "$IF" combined 4 || fail "ethtool -L $IF combined 4"
carrier "$IF"
ok "$IF: a user's tx-usecs 50 at 4 unpaired channels" ethtool -C "$IF" tx-usecs 50
snapshot "$IF" /tmp/pristine
ethtool_text "$IF" >/tmp/ethtool.pristine
for P in latency throughput; do
	diag "$IF from 4 channels at 8 CPUs: set $P --dry-run"
	run_np /tmp/np-dry.json 0 "$NP" --json "$IF" set "$P" --dry-run
	is "$(jq -r '[.steps[] | select(.knob == "channels") | .changes[] | select(.what == "combined") | .after] | join(" ")' /tmp/np-dry.json)" 8 \
		"$IF $P: the dry run grows the channels to 8"
	is "$(jq '[.notes[].note | select(test("planned for paired vectors after the channel change"))] | length' /tmp/np-dry.json)" 1 \
		"$IF $P: the dry run says coalescing is planned for paired vectors"
	is "$(jq '[.steps[] | select(.knob == "coalesce") | .changes[] | select(.what == "tx-usecs")] | length' /tmp/np-dry.json)" 0 \
		"$IF $P: no tx-usecs planned for paired vectors"
	is "$(jq '[.notes[].note | select(test("tx-usecs 50 becomes 0 with the channel change"))] | length' /tmp/np-dry.json)" 1 \
		"$IF $P: the dry run says the pairing zeroes tx-usecs"
	diag "$IF: set $P"
	set_reported "$IF" "$P" /tmp/pristine
	kernel_view "$IF" >"$KERNEL_VIEW"
	is "$(grep -c ' txrx [0-7]$' "$KERNEL_VIEW")" 8 "$IF $P: 8 paired TxRx vectors"
	is "$(jq '.rolled_back' "$PLAN_JSON")" false "$IF $P: nothing refused, nothing rolled back"
	is "$(jq '[.dropped[]?] | length' "$PLAN_JSON")" 0 "$IF $P: no knob dropped"
	is "$(jq -r '[.steps[] | select(.by == "driver") | .changes[] | "\(.what)=\(.after | if type == "object" then .queues else . end)"] | join(" ")' "$PLAN_JSON")" \
		"indir=8 tx-usecs=0" "$IF $P: the report marks what igb changed itself (its table, tx-usecs) as the driver's"
	is "$(jq '[.steps[] | select(.by == null) | .changes[] | select(.what == "tx-usecs")] | length' "$PLAN_JSON")" 0 \
		"$IF $P: no tx-usecs written"
	reset_bounced "$IF" /tmp/pristine /tmp/ethtool.pristine
	is "$(ethval "$IF" -c tx-usecs:)" 50 "$IF $P: reset wrote the user's tx-usecs back after unpairing"
done
finish
