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
	run "${NP[@]}" -q "$DEV" try --dry-run --rounds 3 throughput latency -- false
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
	[[ $output == *"the command failed under throughput (round 1): exit status 3"* ]]
	[[ $output == *"stopped before the last run: no policy is kept; the device is back at the baseline (verified)"* ]]
	[ "$(np_sim_state)" = "$before" ]
	[ ! -e "$STATE_DIR/$DEV.journal" ]
	run "${NP[@]}" "$DEV" try --settle 0 --metric 'x=([0-9]+)' -- echo nothing
	[ "$status" -eq 10 ]
	[[ $output == *"--metric pattern matched nothing"* ]]
	run "${NP[@]}" "$DEV" try --settle 0 -- /nonexistent/command
	[ "$status" -eq 10 ]
	[ "$(np_sim_state)" = "$before" ]
}

@test "try: a failed run says why: its status, signal or timeout and its output's last lines" {
	before=$(np_sim_state)
	run "${NP[@]}" "$DEV" try --settle 0 cpu -- /nonexistent/command
	[ "$status" -eq 10 ]
	[[ $output == *"the command failed under baseline (round 1): exit status 127"* ]]
	[[ $output == *"  | netpolicy: try: /nonexistent/command: No such file or directory"* ]]
	# no run of cpu completed: no verdict is computed for it
	[[ $output == *"cpu           0 "*"not measured"* ]]
	[[ $output != *"no measurable difference"* ]]
	# six lines of output, an escape among them: the last five, the escape as '?'
	run "${NP[@]}" -q --json "$DEV" try --settle 0 cpu -- \
		sh -c 'for i in 1 2 3 4 5; do echo "line $i"; done; printf "\033[2Jgone\n"; exit 4'
	[ "$status" -eq 10 ]
	output=$(sed -n '/^{/,/^}/p' <<<"$output")
	[ "$(jq -c '.conditions[0].runs | map({completed, exit, signal, timed_out, output_tail})' <<<"$output")" = \
		'[{"completed":false,"exit":4,"signal":null,"timed_out":false,"output_tail":["line 2","line 3","line 4","line 5","?[2Jgone"]}]' ]
	[ "$(jq -r '.conditions[1].summary.wall_s.verdict' <<<"$output")" = "not measured" ]
	[ "$(jq -c '[.completed, .restored, .stopped_by]' <<<"$output")" = '[false,true,null]' ]
	# killed by a signal; stopped by the timeout
	run "${NP[@]}" "$DEV" try --settle 0 cpu -- sh -c 'echo dying; kill -KILL $$'
	[ "$status" -eq 10 ]
	[[ $output == *"the command was killed under baseline (round 1): killed by signal 9 (Killed)"* ]]
	[[ $output == *"  | dying"* ]]
	run "${NP[@]}" --json "$DEV" try --settle 0 --timeout 1 cpu -- sh -c 'echo waiting; exec sleep 30'
	[ "$status" -eq 10 ]
	output=$(sed -n '/^{/,/^}/p' <<<"$output")
	[ "$(jq -c '.conditions[0].runs[0] | [.timed_out, .exit, .signal, .output_tail]' <<<"$output")" = '[true,-1,15,["waiting"]]' ]
	[ "$(np_sim_state)" = "$before" ]
}

@test "try: SIGINT prints the runs so far and the device back at the baseline (verified), exit 3" {
	before=$(np_sim_state)
	# the third run (round 2, cpu) waits for the signal
	"${NP[@]}" "$DEV" try --settle 0 --rounds 3 cpu -- sh -c '
		n=$(cat "$0/n" 2>/dev/null || echo 0); echo $((n + 1)) >"$0/n"
		[ "$n" -eq 2 ] || exit 0
		touch "$0/in"
		while :; do sleep 0.05; done' "$NP_TMP" >"$NP_TMP/out" 2>&1 3>&- &
	pid=$!
	while [ ! -e "$NP_TMP/in" ]; do
		kill -0 "$pid" 2>/dev/null || { cat "$NP_TMP/out"; false; }
		sleep 0.05
	done
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	cat "$NP_TMP/out"
	[ "$rc" -eq 3 ]
	grep -q '^baseline  *1 ' "$NP_TMP/out"
	grep -q '^cpu  *1 ' "$NP_TMP/out"
	grep -qx 'stopped by SIGINT: no policy is kept; the device is back at the baseline (verified)' "$NP_TMP/out"
	! grep -q 'stopped after the current run' "$NP_TMP/out"
	[ "$(np_sim_state)" = "$before" ]
}

@test "try: rounds that cannot reach the threshold are said before the first run, with the least that can" {
	# four policies: p must be below 0.05/4; the exact test's floor with
	# n runs a side is 2/C(2n,n): 0.1 at 3, 0.029 at 4, 0.0079 at 5
	run "${NP[@]}" "$DEV" try --dry-run --rounds 3 -- true
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == *"warning: with 3 rounds no difference can be called: the rank test's smallest p is 0.1, not below 0.0125 (0.05 over 4 policies); 5 rounds can" ]]
	run "${NP[@]}" "$DEV" try --dry-run --rounds 5 -- true
	[[ $output != *warning* ]]
	run "${NP[@]}" --json "$DEV" try --dry-run --rounds 4 -- true
	[ "$(jq -r '.warnings[0]' <<<"$output")" = "with 4 rounds no difference can be called: the rank test's smallest p is 0.0286, not below 0.0125 (0.05 over 4 policies); 5 rounds can" ]
	run "${NP[@]}" "$DEV" try --dry-run --rounds 3 cpu -- true
	[[ $output == *"not below 0.05 (0.05 over 1 policy); 4 rounds can"* ]]
	run "${NP[@]}" -q --json "$DEV" try --rounds 2 --settle 0 cpu -- true
	[ "$status" -eq 0 ]
	[[ $output != *"netpolicy: "* ]]
	[ "$(jq -r '.warnings[0]' <<<"$output")" = "with 2 rounds no difference can be called: the rank test's smallest p is 0.333, not below 0.05 (0.05 over 1 policy); 4 rounds can" ]
}

@test "try: a metric that is a fixed-time command's duration, or that never varies, is warned of" {
	run "${NP[@]}" "$DEV" try --rounds 4 --settle 0 cpu -- sleep 1
	[ "$status" -eq 0 ]
	[[ $output == *"warning: the metric, 1."*" is the run's wall time, 1."*" s: a command that runs for a fixed time"* ]]
	[ "$(grep -c warning <<<"$output")" -eq 1 ]
	# a --metric that captures the same setting every time
	run "${NP[@]}" "$DEV" try --rounds 4 --settle 0 cpu --metric 'window ([0-9]+)' -- echo window 128
	[ "$status" -eq 0 ]
	[[ $output == *"warning: the metric was 128 in each of the 2 baseline runs"* ]]
	[ "$(grep -c warning <<<"$output")" -eq 1 ]
	# one that varies: no warning
	run "${NP[@]}" "$DEV" try --rounds 4 --settle 0 cpu --metric 'v ([0-9]+)' -- \
		sh -c 'echo v $(( $(date +%N | sed "s/^0*//;s/^$/0/") % 1000 ))'
	[ "$status" -eq 0 ]
	[[ $output != *warning* ]]
}

@test "try --metric-json: the number at a path of the command's JSON output, higher is better" {
	# an iperf3 -J-like document, its rate counting up from run to run, after a line on stderr
	work=(sh -c 'n=$(cat "$0/n" 2>/dev/null || echo 0); echo $((n + 1)) >"$0/n"
		echo "iperf3: warning" >&2
		printf "{\"end\":{\"streams\":[{}],\"sum_received\":{\"bits_per_second\":%d.5}}}\n" $((n * 1000))' "$NP_TMP")
	run "${NP[@]}" -q --json "$DEV" try --rounds 4 --settle 0 cpu \
		--metric-json end.sum_received.bits_per_second -- "${work[@]}"
	[ "$status" -eq 0 ]
	[ "$(jq -c '.metric' <<<"$output")" = '{"pattern":null,"json_path":"end.sum_received.bits_per_second","name":"metric","lower_is_better":false}' ]
	[ "$(jq -c '[.conditions[].runs[].metric] | sort' <<<"$output")" = '[0.5,1000.5,2000.5,3000.5,4000.5,5000.5,6000.5,7000.5]' ]
	# an array element by its index; a path with nothing there fails the run
	run "${NP[@]}" "$DEV" try --rounds 1 --settle 0 cpu --metric-json end.streams.0.x -- "${work[@]}"
	[ "$status" -eq 10 ]
	[[ $output == *"--metric-json end.streams.0.x: no value there in the command's output under baseline (round 1)"* ]]
	run "${NP[@]}" "$DEV" try --rounds 1 --settle 0 cpu --metric-json a.b -- echo not json
	[ "$status" -eq 10 ]
	[[ $output == *"no JSON document"* ]]
	# a NUL byte printed before the document does not hide it
	run "${NP[@]}" "$DEV" try --rounds 1 --settle 0 cpu --metric-json a -- printf 'x\0y\n{"a": 7}\n'
	[ "$status" -eq 0 ]
	run "${NP[@]}" "$DEV" try --metric-json 'end..x' -- true
	[ "$status" -eq 2 ]
	run "${NP[@]}" "$DEV" try --metric-json a --metric '(x)' -- true
	[ "$status" -eq 2 ]
	[[ $output == *"one measure, not both"* ]]
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

@test "try's table header names the metric (a JSON path by its path) within 80 columns" {
	work=(sh -c 'printf "{\"end\":{\"sum_received\":{\"bits_per_second\":%d}}}\n" $$' )
	run "${NP[@]}" "$DEV" try --rounds 1 --settle 0 cpu \
		--metric-json end.sum_received.bits_per_second -- "${work[@]}"
	[ "$status" -eq 0 ]
	[[ $output == *"try $DEV: higher is better; a difference is called at p < 0.05"* ]]
	[[ $output == *"metric: end.sum_received.bits_per_second in the command's JSON output"* ]]
	"${NP[@]}" "$DEV" try --rounds 2 --settle 0 throughput cpu --lower-is-better -- true \
		>"$NP_TMP/out" 2>/dev/null
	grep -qx "try $DEV: lower is better; a difference is called at p < 0.025" "$NP_TMP/out"
	grep -qx "metric: the command's wall time (s)" "$NP_TMP/out"
	# the table: "no difference" (JSON: "no measurable difference")
	grep -q "^throughput    2 .*  no difference (p=" "$NP_TMP/out"
	[ -z "$(awk 'length > 80' "$NP_TMP/out")" ]
}
