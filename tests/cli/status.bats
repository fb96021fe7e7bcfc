#!/usr/bin/env bats
# netpolicy status: one line per device (policy, matches or drift, pending
# --confirm, interrupted run), and --json with the same facts.

load ../helpers

setup() {
	np_tmpdir
	np_sim_dev virtio-4q
}
teardown() { np_kill_watchdogs; np_cleanup_tmp; }

@test "status: one line per device, its policy and whether it matches" {
	run "${NP[@]}" status
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ ${lines[0]} =~ ^$DEV\ +none\ +-$ ]]
	"${NP[@]}" -q "$DEV" set throughput
	run "${NP[@]}" status
	[[ ${lines[0]} =~ ^$DEV\ +throughput\ +matches$ ]]
	# drift: an RFS table size changed behind netpolicy's back
	jq '.devices[0].queues.rx[0].rps_flow_cnt = 0' "$MODEL" >"$MODEL.new" && mv "$MODEL.new" "$MODEL"
	run "${NP[@]}" status
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} =~ ^$DEV\ +throughput\ +drift:\ [0-9]+\ steps?$ ]]
	out=$(np_json_kept "${NP[@]}" --json status)
	[ "$(jq -c '.devices[0] | [.ifname, .policy, .drift > 0, .try]' <<<"$out")" = \
		"[\"$DEV\",\"throughput\",true,null]" ]
}

@test "status: a pending --confirm is on its device's line" {
	"${NP[@]}" -q "$DEV" set --confirm 60 latency
	run "${NP[@]}" status
	echo "$output"
	[[ ${lines[0]} =~ ^$DEV\ +latency\ +matches\;\ --confirm\ pending\ \([0-9]+\ s\ left\)$ ]]
	run "${NP[@]}" "$DEV" status
	[ "$status" -eq 2 ]
}
