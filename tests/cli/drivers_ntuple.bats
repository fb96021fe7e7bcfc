#!/usr/bin/env bats
# ntuple facts of the driver table (np_drivers.h): masks ice and sfc refuse,
# checked when the mixed policy plans, naming the flow (the simulator refuses
# the same: tests/unit/test_sim_drivers.c).

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

@test "ice and sfc: a prefix or a partial mask is refused at plan time, naming the flow" {
	np_sim_dev ice-mixed
	run "${NP[@]}" "$DEV" set mixed --flow latency:tcp4:dst-ip=10.1.0.0/16 --dry-run
	[ "$status" -ne 0 ]
	[[ "$output" == *"flow tcp4:dst-ip=10.1.0.0/16: driver ice takes an address or port mask only whole or empty"* ]]
	# a whole address is taken
	run "${NP[@]}" "$DEV" set mixed --flow latency:tcp4:dst-ip=10.1.2.3 --dry-run
	[ "$status" -eq 0 ]
	np_sim_dev sfc-mixed
	run "${NP[@]}" "$DEV" set mixed --flow latency:udp6:src-ip=fd00::/64 --dry-run
	[ "$status" -ne 0 ]
	[[ "$output" == *"flow udp6:src-ip=fd00::/64: driver sfc takes an address or port mask only whole or empty"* ]]
	# nothing was changed
	run "${NP[@]}" "$DEV" set mixed --flow latency:udp6:src-ip=fd00::/64
	[ "$status" -ne 0 ]
	cmp -s "$MODEL" "$FIXTURES/models/sfc-mixed.json"
}

@test "bnxt_en: only TCP and UDP rules; an sctp flow is refused at plan time" {
	np_sim_dev mlx5-mixed
	jq '.devices[0].driver = "bnxt_en"' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	run "${NP[@]}" "$DEV" set mixed --flow latency:sctp4:dst-port=9899 --dry-run
	[ "$status" -ne 0 ]
	[[ "$output" == *"flow sctp4:dst-port=9899: driver bnxt_en takes no rules of flow type"* ]]
	run "${NP[@]}" "$DEV" set mixed --flow latency:tcp4:dst-port=9899 --dry-run
	[ "$status" -eq 0 ]
}

@test "ice: rules of one flow type on different fields are refused at plan time, naming both" {
	np_sim_dev ice-mixed
	cp "$MODEL" "$NP_TMP/orig.json"
	# two of netpolicy's flows: a port, then an address and a port, both tcp4
	run "${NP[@]}" "$DEV" set mixed --flow latency:tcp4:dst-port=6379 --flow cpu:tcp:dst=10.1.2.3:443
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"flows tcp4:dst-port=6379 and tcp4:dst-ip=10.1.2.3,dst-port=443 match different fields: driver ice takes one set of matched fields per flow type"* ]]
	cmp -s "$MODEL" "$NP_TMP/orig.json"
	# the fixture's foreign rule is udp4 on a destination port
	run "${NP[@]}" "$DEV" set mixed --flow latency:udp4:dst-ip=10.1.2.3 --dry-run
	[ "$status" -ne 0 ]
	[[ "$output" == *"flow udp4:dst-ip=10.1.2.3 matches other fields than the foreign rule at location 0 (udp4:dst-port=4789)"* ]]
	# the same fields, or another flow type: taken by the simulated ice
	# (which refuses the others: test_sim_drivers), checked and reset
	run "${NP[@]}" "$DEV" set mixed --flow latency:tcp4:dst-port=6379 --flow cpu:tcp4:dst-port=5201 \
		--flow cpu:udp:53 --flow latency:tcp6:dst=[fd00::5]:443
	echo "$output"
	[ "$status" -eq 0 ]
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 0 ]
	run "${NP[@]}" "$DEV" reset
	[ "$status" -eq 0 ]
	[ "$(jq -c '.devices[0].ntuple.rules' "$MODEL")" = "$(jq -c '.devices[0].ntuple.rules' "$NP_TMP/orig.json")" ]
}

@test "overlap warnings say which rule the driver tries first: mlx5 by matched fields, sfc by firmware, others unknown" {
	warning() {	# the plan's one conflict warning with foreign rule $1 at location 5
		jq --arg f "$1" '.devices[0].ntuple.rules = [{"location": 5, "flow": $f, "queue": 0}]' \
			"$MODEL" >"$NP_TMP/m" && mv "$NP_TMP/m" "$MODEL"
		"${NP[@]}" --json "$DEV" set mixed --flow latency:tcp4:dst-port=6379 --dry-run |
			jq -r '.notes[] | select(.warning) | .note'
	}
	np_sim_dev mlx5-mixed
	# mlx5 puts a rule in the flow table of its field count: more fields,
	# higher priority, whatever the locations
	[[ "$(warning tcp4:dst-port=6379,dst-ip=10.0.0.1)" == *"(tcp4:dst-ip=10.0.0.1,dst-port=6379), which matches first (driver mlx5_core tries a rule matching more fields first, drivers/net/ethernet/mellanox/mlx5/core/en_fs_ethtool.c)"* ]]
	[[ "$(warning tcp4)" == *"(tcp4), which matches after ours (driver mlx5_core tries a rule matching more fields first"* ]]
	[[ "$(warning tcp4:src-port=1234)" == *"which may match first (driver mlx5_core orders rules matching as many fields in its hardware"* ]]
	# rules of other flow types overlap too, and mlx5 counts a TCP rule's
	# protocol and an IP rule's family as one field each, an Ethernet rule's
	# none: ip4 with one address is 2 fields like tcp4 with a port
	[[ "$(warning ip4:dst-ip=10.0.0.1)" == *"overlaps the foreign rule at location 5 (ip4:dst-ip=10.0.0.1), which may match first (driver mlx5_core orders rules matching as many fields"* ]]
	[[ "$(warning ip4:dst-ip=10.0.0.1,src-ip=10.1.0.0/16)" == *"(ip4:src-ip=10.1.0.0/16,dst-ip=10.0.0.1), which matches first"* ]]
	[[ "$(warning ether:vlan=100)" == *"(ether:vlan=100), which matches after ours"* ]]
	# and those that cannot take a packet of ours are no warning
	[ -z "$(warning udp4:dst-port=6379)" ]
	[ -z "$(warning ip6:dst-ip=fd00::1)" ]
	np_sim_dev sfc-mixed
	[[ "$(warning tcp4)" == *"(tcp4), which may match first (driver sfc gives every rule one priority; the NIC's firmware orders them"* ]]
	# a driver the table does not know (ice's rules could not overlap:
	# one set of fields per flow type, each matched whole)
	np_sim_dev ice-mixed
	jq '.devices[0].driver = "acme_nic"' "$MODEL" >"$NP_TMP/m" && mv "$NP_TMP/m" "$MODEL"
	[[ "$(warning tcp4:dst-port=6379,dst-ip=10.0.0.1)" == *"which may match first (the order between overlapping rules is driver acme_nic's)"* ]]
}
