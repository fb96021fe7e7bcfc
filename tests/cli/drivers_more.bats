#!/usr/bin/env bats
# The driver table's second part (drivers_more.c: mlx4_en, nfp, qede, hns3,
# hv_netvsc on their models; their IRQ names in tests/unit/test_irq.c): what
# a plan sends is what the driver takes, with the note saying why, and the
# simulator refuses what the driver refuses (tests/unit/test_sim_drivers.c sends it the requests no plan would).

load ../helpers
load drivers_lib

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

@test "mlx4_en: usecs stop below 65535 (the driver default's value), tx-frames-irq is never planned" {
	out=$(site mlx4-8q 'base = latency\ncoalesce.rx-usecs = 70000\ncoalesce.tx-frames-irq = 0\n')
	[ "$(coal_after "$out" rx-usecs)" = 65534 ]
	notes_of "$out" | grep -q "coalesce: rx-usecs 70000 is not a value mlx4_en takes .*: 65534 used"
	# tx-frames-irq is mlx4's Tx budget: 0 would be -EINVAL, any value no moderation
	[ "$(coal_after "$out" tx-frames-irq)" = none ]
	notes_of "$out" | grep -q "mlx4_en uses tx-frames-irq as its Tx completion budget"
	applies_clean mlx4-8q
}

@test "mlx4_en: the completion EQs are the device's, not a queue's: no affinity is planned by number" {
	np_model mlx4-8q
	out=$(npsim --json "$(dev_of)" set cpu --dry-run)
	[ "$(jq '[.steps[] | select(.knob == "irq-affinity")] | length' <<<"$out")" -eq 0 ]
	notes_of "$out" | grep -q "irq-affinity: no per-queue IRQs recognised among 9 IRQs"
}

@test "qede: usecs above 511 are not planned; the note says why" {
	out=$(site qede-8q 'base = latency\ncoalesce.rx-usecs = 1000\n')
	[ "$(coal_after "$out" rx-usecs)" = 511 ]
	notes_of "$out" | grep -q "coalesce: rx-usecs 1000 is not a value qede takes .*: 511 used"
	applies_clean qede-8q
}

@test "hns3: rx-usecs-high above 236 is not planned; the note says why" {
	out=$(site hns3-8q 'base = latency\ncoalesce.rx-usecs-high = 300\n')
	[ "$(coal_after "$out" rx-usecs-high)" = 236 ]
	notes_of "$out" | grep -q "coalesce: rx-usecs-high 300 is not a value hns3 takes .*: 236 used"
	applies_clean hns3-8q
}

@test "nfp: a direction without a delay gets a frame count (1), never usecs 0 with frames 0" {
	out=$(site nfp-8q 'base = latency\ncoalesce.rx-frames = 0\ncoalesce.tx-frames = 0\n')
	[ "$(coal_after "$out" rx-usecs)" = 0 ]
	[ "$(coal_after "$out" rx-frames)" = 1 ]
	notes_of "$out" | grep -q "coalesce: rx-frames 0 with rx-usecs 0: nfp needs a delay or a frame count .*: rx-frames 1"
	# tx keeps its delay: frames 0 beside it is taken
	[ "$(coal_after "$out" tx-frames)" = 0 ]
	applies_clean nfp-8q
}

@test "hns3: one interrupt rate limit: a planned rx-usecs-high is tx-usecs-high too" {
	out=$(site hns3-8q 'base = throughput\ncoalesce.rx-usecs-high = 200\n')
	[ "$(coal_after "$out" rx-usecs-high)" = 200 ]
	[ "$(coal_after "$out" tx-usecs-high)" = 200 ]
	notes_of "$out" | grep -q "tx-usecs-high 0: hns3 takes one value for both directions .*: rx-usecs-high's 200"
	np_model hns3-8q
	mkdir -p "$NP_TMP/pol"
	printf 'base = throughput\ncoalesce.rx-usecs-high = 200\n' >"$NP_TMP/pol/site.conf"
	run npsim --policy-dir "$NP_TMP/pol" --json "$(dev_of)" set site
	[ "$status" -eq 0 ]
	[ "$(jq '.dropped | length' <<<"$output")" -eq 0 ]
	[ "$(jq '.devices[0].coalesce.fields["tx-usecs-high"]' "$MODEL")" = 200 ]
}

@test "hv_netvsc: the plan says the VF of Accelerated Networking carries the traffic" {
	np_model netvsc-4q
	for policy in cpu latency throughput; do
		out=$(npsim --json "$(dev_of)" set "$policy" --dry-run)
		notes_of "$out" | grep -q "channels: hv_netvsc eth0: under Accelerated Networking the VF .*mlx4_en, mlx5_core or mana (MANA).* tune it too" ||
			{ echo "$policy"; return 1; }
	done
	applies_clean netvsc-4q
}

@test "mlx4_en and qede: the flows their rules take; others refused at plan time, naming the flow" {
	# ice's model (no RSS contexts either) under their names
	np_sim_dev ice-mixed
	jq '.devices[0].driver = "mlx4_en"' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	run "${NP[@]}" "$DEV" set mixed --flow latency:tcp6:dst-port=9899 --dry-run
	[ "$status" -ne 0 ]
	[[ "$output" == *"flow tcp6:dst-port=9899: driver mlx4_en takes no rules of flow type"* ]]
	run "${NP[@]}" "$DEV" set mixed --flow latency:tcp4:dst-ip=10.1.0.0/16 --dry-run
	[ "$status" -ne 0 ]
	[[ "$output" == *"driver mlx4_en takes an address or port mask only whole or empty"* ]]
	run "${NP[@]}" "$DEV" set mixed --flow latency:tcp4:dst-port=9899 --dry-run
	[ "$status" -eq 0 ]
	np_sim_dev ice-mixed
	jq '.devices[0].driver = "qede"' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	run "${NP[@]}" "$DEV" set mixed --flow latency:sctp4:dst-port=9899 --dry-run
	[ "$status" -ne 0 ]
	[[ "$output" == *"flow sctp4:dst-port=9899: driver qede takes no rules of flow type"* ]]
	run "${NP[@]}" "$DEV" set mixed --flow latency:udp6:dst-port=4789 --dry-run
	[ "$status" -eq 0 ]
}
