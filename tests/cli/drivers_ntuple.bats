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
