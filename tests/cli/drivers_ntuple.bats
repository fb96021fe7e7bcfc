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
