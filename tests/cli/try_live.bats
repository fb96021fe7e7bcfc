#!/usr/bin/env bats
# While a try holds the device, show, check and metrics say "try in
# progress" (pid, condition, round), not drift nor an interrupted run; a
# try whose process is gone (killed) is the interrupted run it is.  The
# workload waits on files, so each look is taken while the run is in a
# known condition (no timing).

load ../helpers

setup() {
	np_tmpdir
	np_sim_dev ixgbe-16cpu
	"${NP[@]}" -q "$DEV" set throughput
}
teardown() {
	touch "$NP_TMP/go"
	[ -z "${TRY_PID:-}" ] || wait "$TRY_PID" || true
	np_kill_watchdogs
	np_cleanup_tmp
}

# A try of cpu (round 1: baseline, then cpu) whose workload holds its
# second run (the cpu condition) until $NP_TMP/go exists.
start_try() {
	"${NP[@]}" "$DEV" try --settle 0 cpu -- sh -c '
		n=$(cat "$0/n" 2>/dev/null || echo 0); echo $((n + 1)) >"$0/n"
		[ "$n" -eq 1 ] || exit 0
		touch "$0/in"
		while [ ! -e "$0/go" ]; do sleep 0.05; done' "$NP_TMP" \
		>"$NP_TMP/try.out" 2>&1 3>&- &
	TRY_PID=$!
	while [ ! -e "$NP_TMP/in" ]; do
		kill -0 "$TRY_PID" 2>/dev/null || { cat "$NP_TMP/try.out"; return 1; }
		sleep 0.05
	done
}

# The try killed where start_try holds it; its workload let go.
kill_try() {
	kill -KILL "$TRY_PID"
	wait "$TRY_PID" || true
	TRY_PID=
	touch "$NP_TMP/go"
}

metric() { awk -v k="$1" '$1 == k { print $2 }' <<<"$2"; }

@test "a live try: check exits 0 and says so, show and metrics say try in progress" {
	start_try
	run "${NP[@]}" "$DEV" check
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"try in progress (pid $TRY_PID, condition cpu, round 1)"* ]]
	[[ $output == *"$DEV: not checked while a try is in progress"* ]]
	[[ $output != *"interrupted"* ]]
	[[ $output != *"differs"* ]]
	out=$(np_json_kept "${NP[@]}" --json "$DEV" check 2>/dev/null)
	[ "$(jq -c '[.drift, .interrupted_run, .try]' <<<"$out")" = \
		"[false,false,{\"pid\":$TRY_PID,\"condition\":\"cpu\",\"round\":1}]" ]
	run "${NP[@]}" "$DEV" show
	[ "$status" -eq 0 ]
	[[ $output == *"throughput (try in progress: condition cpu, round 1)"* ]]
	[[ $output != *"interrupted"* ]]
	out=$(np_json_kept "${NP[@]}" --json "$DEV" show 2>/dev/null)
	[ "$(jq -c '[.drift, .interrupted_run, .try.condition]' <<<"$out")" = '[null,false,"cpu"]' ]
	run "${NP[@]}" "$DEV" metrics
	[ "$status" -eq 0 ]
	[ "$(metric "netpolicy_try_in_progress{device=\"$DEV\"}" "$output")" = 1 ]
	[ "$(metric "netpolicy_interrupted_run{device=\"$DEV\"}" "$output")" = 0 ]
	[[ $output != *"netpolicy_policy_matches{device=\"$DEV\"}"* ]]
	run "${NP[@]}" status
	[[ ${lines[0]} == *"throughput   try in progress (pid $TRY_PID, cpu, round 1)" ]]
	touch "$NP_TMP/go"
	wait "$TRY_PID"
	TRY_PID=
	# ended: at its policy again, no marker left
	run "${NP[@]}" --json "$DEV" check
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.drift, .try]' <<<"$output")" = '[false,null]' ]
	[ -z "$(ls "$STATE_DIR" | grep '\.try$')" ]
}

@test "a try whose process was killed is an interrupted run" {
	start_try
	kill_try
	run "${NP[@]}" "$DEV" check
	echo "$output"
	[ "$status" -eq 5 ]
	[[ $output == *"an earlier run was interrupted"* ]]
	[[ $output != *"try in progress"* ]]
	run "${NP[@]}" "$DEV" metrics
	[ "$(metric "netpolicy_interrupted_run{device=\"$DEV\"}" "$output")" = 1 ]
	[ "$(metric "netpolicy_try_in_progress{device=\"$DEV\"}" "$output")" = 0 ]
	# the next change rolls it back, and the device is at its policy again
	"${NP[@]}" -q "$DEV" set throughput
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 0 ]
	[ -z "$(ls "$STATE_DIR" | grep '\.try$')" ]
}

@test "reset after a killed try on a device with no policy says it rolled the run back" {
	"${NP[@]}" -q "$DEV" reset
	before=$("${NP[@]}" --json "$DEV" show | jq -S 'del(.policy, .drift)')
	start_try
	kill_try
	run "${NP[@]}" "$DEV" reset
	echo "$output"
	[ "$status" -eq 0 ]
	# not "no changes": the reset did change the device back
	[[ $output == *"$DEV: rolled back the interrupted run; the device is as netpolicy found it"* ]]
	[[ $output != *"no changes"* ]]
	[ "$("${NP[@]}" --json "$DEV" show | jq -S 'del(.policy, .drift)')" = "$before" ]
	rm -f "$NP_TMP/n" "$NP_TMP/in" "$NP_TMP/go"
	start_try
	kill_try
	"${NP[@]}" --json "$DEV" reset >"$NP_TMP/reset.json"
	[ "$(jq -c '[.changed, .steps]' "$NP_TMP/reset.json")" = '[true,[]]' ]
	run "${NP[@]}" "$DEV" reset
	[ "$output" = "$DEV: no changes (netpolicy has not changed this device)" ]
}

@test "a marker whose pid is another process (reused) is no live try" {
	start_try
	kill_try
	# the marker names a live process (this shell) with another start time
	marker=$(ls "$STATE_DIR"/*.try)
	read -r _ start rest <"$marker"
	echo "$$ $start $rest" >"$marker"
	run "${NP[@]}" "$DEV" check
	echo "$output"
	[ "$status" -eq 5 ]
	[[ $output == *"an earlier run was interrupted"* ]]
}
