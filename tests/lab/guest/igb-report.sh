# igb (6.12, QEMU 10, 4 vCPUs): reports are what was applied.  igb renumbers
# and renames its MSI-X vectors on every channel change, and from 8 channels
# (paired TxRx vectors, tx-usecs refused) to 4 it unpairs them, so the
# engine plans coalescing and IRQs again after the change.  For each policy
# from 8 channels and cpu from 4: the `set --json` report's changes are the
# kernel's (no unreported change), every IRQ it names had that name, check
# passes, a second set changes nothing; reset brings every reading back and
# its report names each IRQ as it was when written.  A dry run first plans
# the coalescing that set then writes (igb pairs above 4 of its 8 queues:
# the prediction from the driver table) and says the IRQs are planned
# again after the channel change.
. /lab/lib.sh

IF=$(nic igb) && pass "igb NIC $IF" || { fail "no igb NIC"; finish; }
ip link set "$IF" up
for QP in 8:latency 8:throughput 8:cpu 4:cpu; do
	Q=${QP%:*} P=${QP#*:}
	ethtool -L "$IF" combined "$Q" || fail "ethtool -L $IF combined $Q"
	carrier "$IF"
	snapshot "$IF" /tmp/pristine
	ethtool_text "$IF" >/tmp/ethtool.pristine
	diag "$IF from $Q channels: set $P --dry-run"
	run_np /tmp/np-dry.json 0 "$NP" --json "$IF" set "$P" --dry-run
	coal='[.steps[] | select(.knob == "coalesce") | .changes[] | "\(.what)=\(.after)"] | join(" ")'
	dry=$(jq -r "$coal" /tmp/np-dry.json)
	if jq -e '.steps[] | select(.knob == "channels")' /tmp/np-dry.json >/dev/null; then
		is "$(jq '[.notes[].note | select(test("IRQs are planned again after it"))] | length' \
			/tmp/np-dry.json)" 1 "$IF from $Q: the dry run says the IRQs are planned after the channel change"
	fi
	diag "$IF from $Q channels: set $P"
	set_reported "$IF" "$P" /tmp/pristine
	is "$(jq -r "$coal" "$PLAN_JSON")" "$dry" "$IF from $Q: set $P wrote the coalescing its dry run planned"
	reports_irqs_as "$IF" "$PLAN_JSON" /tmp/applied.saved
	carrier "$IF"
	diag "$IF from $Q channels: reset"
	run_np /tmp/np-reset.json 0 "$NP" --json "$IF" reset
	check_restored "$IF" /tmp/pristine
	same_ethtool "$IF" /tmp/ethtool.pristine
	snapshot "$IF" /tmp/after-reset
	reports_irqs_as "$IF" /tmp/np-reset.json /tmp/after-reset
	carrier "$IF"
done
finish
