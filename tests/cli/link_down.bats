#!/usr/bin/env bats
# A link that is down for a moment is not drift.  igb drops carrier for
# ~200 ms after every channel change, netpolicy's own included, and a
# device with no carrier reports no speed: a `check` in that moment planned
# the speed-less defaults (up to 8 queues for cpu, instead of one per 10
# Gb/s) and called the difference drift (issue 22 (d), seen in the 6.12 lab).
# The policy record keeps the speed the plan was made for, and plans stand
# on it while the device reports none.

load ../helpers

setup() {
	np_tmpdir
	np_model ixgbe-16cpu
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
}
teardown() { np_cleanup_tmp; }

# link_down: the simulated device keeps its admin state, loses carrier and
# with it the speed (ethtool's SPEED_UNKNOWN)
link_down() {
	jq '.devices[0].link.carrier = false | .devices[0].link.speed = 4294967295 |
	    .devices[0].link.duplex = "unknown"' "$MODEL" >"$MODEL.new"
	mv "$MODEL.new" "$MODEL"
}

@test "link down after a set: check, show and set again plan for the recorded speed, no drift" {
	npsim "$DEV" set cpu
	[ "$(jq -r .link_speed "$STATE_DIR/$DEV.policy")" = 10000 ]
	channels=$(jq -c '.devices[0].channels' "$MODEL")
	link_down
	run npsim "$DEV" check
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"matches policy cpu"* ]]
	run npsim --json "$DEV" check
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '[.notes[].note | select(test("planning for 10000 Mb/s"))] | length == 1'
	run npsim --json "$DEV" show
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq .drift)" = 0 ]
	# a set again waits for carrier (it does not come: the sim's cable is
	# out), then plans for the recorded speed: nothing to write
	run npsim --json "$DEV" set cpu
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq .n_steps)" = 0 ]
	[ "$(jq -c '.devices[0].channels' "$MODEL")" = "$channels" ]
}

@test "link down and no record: check plans the speed-less defaults and says the speed is unknown" {
	npsim "$DEV" set cpu
	npsim "$DEV" reset
	link_down
	run npsim --json "$DEV" check cpu
	[ "$status" -eq 5 ]
	echo "$output" | jq -e '[.notes[].note | select(test("link speed unknown .*kernel.s default"))] | length == 1'
}

@test "a version 2 policy record (no link_speed) is still read; a bad link_speed is refused naming it" {
	npsim "$DEV" set cpu
	jq -c '.version = 2 | del(.link_speed)' "$STATE_DIR/$DEV.policy" >"$NP_TMP/v2"
	cp "$NP_TMP/v2" "$STATE_DIR/$DEV.policy"
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
	link_down
	# no speed recorded: the link down is drift, as before records kept it
	run npsim "$DEV" check
	[ "$status" -eq 5 ]
	jq -c '.version = 3 | .link_speed = -1' "$NP_TMP/v2" >"$STATE_DIR/$DEV.policy"
	run npsim "$DEV" check
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$DEV.policy: link_speed: -1 out of range"* ]]
}
