#!/usr/bin/env bats
# DEVICE try on the simulated ixgbe: argument errors (exit 2, nothing run),
# the dry run's rotated schedule, and the device restored exactly after a
# run, a failed command (exit 10), a condition the driver refuses (exit 3),
# with the runs and summaries in --json.  The veth tests (tests/kernel/try.bats)
# measure real traffic.

load ../helpers

setup() {
	np_tmpdir
	np_sim_dev ixgbe-16cpu
}
teardown() { np_kill_watchdogs; np_cleanup_tmp; }

@test "try: argument errors are usage errors, one line, nothing run" {
	before=$(np_sim_state)
	run "${NP[@]}" "$DEV" try throughput
	[ "$status" -eq 2 ]
	[[ $output == *"try: which command?"* ]]
	run "${NP[@]}" "$DEV" try --keep all -- true
	[ "$status" -eq 2 ]
	[[ $output == *"--keep: 'all' is neither 'best' nor 'none'"* ]]
	run "${NP[@]}" "$DEV" try --metric 'Gbits' -- true
	[ "$status" -eq 2 ]
	[[ $output == *"has no group"* ]]
	run "${NP[@]}" "$DEV" try --metric '([0-9]' -- true
	[ "$status" -eq 2 ]
	[[ $output == *"is not an extended regular expression"* ]]
	run "${NP[@]}" "$DEV" try --rounds 0 -- true
	[ "$status" -eq 2 ]
	run "${NP[@]}" "$DEV" try --rounds 101 -- true
	[ "$status" -eq 2 ]
	run "${NP[@]}" "$DEV" try --settle x -- true
	[ "$status" -eq 2 ]
	run "${NP[@]}" "$DEV" try mixed -- true
	[ "$status" -eq 2 ]
	[[ $output == *"mixed policy cannot be tried"* ]]
	run "${NP[@]}" "$DEV" try nosuchpolicy -- true
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$(np_sim_state)" = "$before" ]
	[ ! -e "$STATE_DIR" ] || [ -z "$(ls "$STATE_DIR" | grep -v lock)" ]
}

@test "try --dry-run: the schedule rotates each round, nothing changes" {
	before=$(np_sim_state)
	run "${NP[@]}" "$DEV" try --dry-run --rounds 3 throughput latency -- false
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "round 1: baseline, throughput, latency" ]
	[ "${lines[2]}" = "round 2: throughput, latency, baseline" ]
	[ "${lines[3]}" = "round 3: latency, baseline, throughput" ]
	run "${NP[@]}" --json "$DEV" try -n --rounds 2 -- false
	[ "$status" -eq 0 ]
	[ "$(jq -c .conditions <<<"$output")" = '["baseline","cpu","latency","busy-poll","throughput"]' ]
	[ "$(jq -c '.schedule[1]' <<<"$output")" = '["cpu","latency","busy-poll","throughput","baseline"]' ]
	[ "$(jq .changed <<<"$output")" = false ]
	[ "$(np_sim_state)" = "$before" ]
}

@test "try: every run recorded, the device exactly as before, its policy record kept" {
	"${NP[@]}" "$DEV" set latency
	before=$(np_sim_state)
	run "${NP[@]}" -q --json "$DEV" try --rounds 3 --settle 0 throughput cpu \
		--metric 'value ([0-9]+)' -- sh -c 'echo value 7'
	[ "$status" -eq 0 ]
	doc=$output
	[ "$(jq '.conditions | length' <<<"$doc")" -eq 3 ]
	[ "$(jq '[.conditions[].runs | length] | add' <<<"$doc")" -eq 9 ]
	[ "$(jq '[.conditions[].runs[].metric] | unique' -c <<<"$doc")" = "[7]" ]
	# the positions rotate: baseline runs first, then last, then second
	[ "$(jq -c '[.conditions[0].runs[].position]' <<<"$doc")" = "[1,3,2]" ]
	[ "$(jq -r '.conditions[1].summary.metric.verdict' <<<"$doc")" = "no measurable difference" ]
	[ "$(jq .winner <<<"$doc")" = null ]
	[ "$(jq .changed <<<"$doc")" = false ]
	[ "$(np_sim_state)" = "$before" ]
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 0 ]
	run "${NP[@]}" --json "$DEV" show
	[ "$(jq -r .policy <<<"$output")" = latency ]
}

@test "try: a failed command stops the run with exit 10 and the device restored" {
	before=$(np_sim_state)
	run "${NP[@]}" "$DEV" try --rounds 2 --settle 0 throughput -- sh -c '[ ! -e "$0" ] || exit 3; touch "$0"' "$NP_TMP/once"
	[ "$status" -eq 10 ]
	[[ $output == *"the command failed under throughput (round 1); the device is back at its baseline"* ]]
	[ "$(np_sim_state)" = "$before" ]
	[ ! -e "$STATE_DIR/$DEV.journal" ]
	run "${NP[@]}" "$DEV" try --settle 0 --metric 'x=([0-9]+)' -- echo nothing
	[ "$status" -eq 10 ]
	[[ $output == *"--metric pattern matched nothing"* ]]
	run "${NP[@]}" "$DEV" try --settle 0 -- /nonexistent/command
	[ "$status" -eq 10 ]
	[ "$(np_sim_state)" = "$before" ]
}

@test "try: a condition the driver refuses is rolled back: exit 3, the device restored" {
	jq '.faults = [{"op":"set_channels","after":0,"errno":"ENOBUFS","extack":"injected"}]' \
		"$MODEL" >"$NP_TMP/f.json" && mv "$NP_TMP/f.json" "$MODEL"
	before=$(np_sim_state)
	run "${NP[@]}" "$DEV" try --rounds 2 --settle 0 throughput -- true
	[ "$status" -eq 3 ]
	[[ $output == *"injected"* ]]
	[ "$(np_sim_state)" = "$before" ]
	[ ! -e "$STATE_DIR/$DEV.journal" ]
}

@test "try: refused while a --confirm is pending (exit 1, nothing changed)" {
	"${NP[@]}" "$DEV" set throughput --confirm 60
	before=$(np_sim_state)
	run "${NP[@]}" "$DEV" try --settle 0 -- true
	[ "$status" -eq 1 ]
	[[ $output == *"a --confirm is pending"* ]]
	[ "$(np_sim_state)" = "$before" ]
	"${NP[@]}" "$DEV" confirm
}

@test "try --keep best with an unreadable policy record: the report, then the error, exit 1" {
	mkdir -p "$STATE_DIR"
	printf 'garbage' >"$STATE_DIR/$DEV.policy"
	# the simulated device's queues as the metric: cpu has fewer
	work=(sh -c "echo q \$(jq .devices[0].channels.combined '$MODEL')")
	for json in "" --json; do
		run "${NP[@]}" $json "$DEV" try cpu --rounds 5 --settle 0 --metric 'q ([0-9]+)' \
			--lower-is-better --keep best -- "${work[@]}"
		echo "$output"
		[ "$status" -eq 1 ]
		[[ $output == *"$DEV.policy"* ]]
		if [ -n "$json" ]; then
			doc=$(sed -n '/^{/,/^}/p' <<<"$output")
			[ "$(jq -r .winner <<<"$doc")" = cpu ]
			[ "$(jq .kept <<<"$doc")" = null ]
		else
			[[ $output == *"best: cpu (the device is back at its baseline"* ]]
		fi
	done
}

# SIGTERM delivered by strace on netpolicy's 4th renameat: the try marker's
# rename as throughput's run begins (1 marker and 2 journal at the start,
# 3 the baseline's run, 4 throughput's), so the signal is there before that
# condition's first write.  The guards below fail if it lands elsewhere:
# "throughput (2/2)" and the engine's "interrupted by a signal" place it in
# that condition's apply, and a model the simulator never saved (any write
# saves it) places it before the first write.
@test "try: SIGTERM before a condition's first write: exit 3 as set, nothing written" {
	before=$(np_sim_state)
	cp "$MODEL" "$NP_TMP/model.before"
	run env "$NP_NO_LSAN" strace -qq -o /dev/null -e trace=renameat \
		-e inject=renameat:signal=TERM:when=4 \
		"${NP[@]}" "$DEV" try --settle 0 --rounds 1 throughput -- true
	echo "$output"
	[[ $output == *"round 1/1, throughput (2/2)"* ]]
	[[ $output == *"interrupted by a signal"* ]]
	cmp "$MODEL" "$NP_TMP/model.before"
	[ "$status" -eq 3 ]
	[ ! -e "$STATE_DIR/$DEV.journal" ] && [ ! -e "$STATE_DIR/$DEV.try" ]
	[ "$(np_sim_state)" = "$before" ]
}
