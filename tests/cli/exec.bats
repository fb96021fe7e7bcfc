#!/usr/bin/env bats
# DEVICE exec CLASS -- CMD: a real child process pinned to the CPUs of a
# class of a (simulated) device in mixed mode, read back from the child's
# own /proc/self/status; the command's arguments are its own, its exit
# status is exec's, and every refusal runs nothing.

load ../helpers

setup() { np_tmpdir; np_sim_dev ice-mixed; }
teardown() { np_cleanup_tmp; }

# the CPUs a child of `exec CLASS` may run on
allowed() {
	npsim "$DEV" exec "$1" -- sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status
}

# the queue the ntuple rule for flow $1 (e.g. tcp4:dst-port=6379) steers to
rule_queue() {
	npsim --json "$DEV" show | jq -r --arg f "$1" '.ntuple.rules[] | select(.flow == $f) | .queue'
}

@test "exec runs the command on its class's CPUs: where the class's queues send and interrupt" {
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	# CPUs 0 and 1 are two cores of the model: latency gets one, throughput the other
	run npsim "$DEV" set mixed --cpus 0-1 --flow latency:tcp:6379
	[ "$status" -eq 0 ]
	lat=$(allowed latency)
	bulk=$(allowed throughput)
	[ -n "$lat" ] && [ -n "$bulk" ] && [ "$lat" != "$bulk" ]
	# the latency flow's queue: its IRQ and its XPS CPUs are the latency CPUs
	q=$(rule_queue tcp4:dst-port=6379)
	[ -n "$q" ]
	[ "$(npsim --json "$DEV" show | jq -r --argjson q "$q" '.irqs[] | select(.queue == $q) | .affinity')" = "$lat" ]
	[ "$(npsim --json "$DEV" show | jq -r --argjson q "$q" '.queues.tx[] | select(.queue == $q) | .xps_cpus')" = "$lat" ]
	# and the CPUs the policy record gives the class
	[ "$(jq -r .mixed.classes.latency.cpus "$STATE_DIR/$DEV.policy")" = "$lat" ]
}

@test "exec: the command's options and exit status are its own" {
	run npsim "$DEV" set mixed --cpus 0-1 --flow latency:tcp:6379
	[ "$status" -eq 0 ]
	run npsim "$DEV" exec latency -- sh -c 'echo "$*"; exit 42' sh -v --json --state-dir=x
	[ "$status" -eq 42 ]
	[ "$output" = "-v --json --state-dir=x" ]
}

@test "exec refuses a device netpolicy did not set to mixed, and runs nothing" {
	run npsim "$DEV" exec latency -- touch "$NP_TMP/ran"
	[ "$status" -eq 1 ]
	[[ $output == *"$DEV: not in mixed mode (no policy set)"* ]]
	run npsim "$DEV" set throughput
	[ "$status" -eq 0 ]
	run npsim "$DEV" exec latency -- touch "$NP_TMP/ran"
	[ "$status" -eq 1 ]
	[[ $output == *"not in mixed mode (policy throughput)"* ]]
	run npsim "$DEV" set mixed --flow latency:tcp:6379
	run npsim "$DEV" reset
	[ "$status" -eq 0 ]
	run npsim "$DEV" exec latency -- touch "$NP_TMP/ran"
	[ "$status" -eq 1 ]
	[ ! -e "$NP_TMP/ran" ]
}

@test "exec: a class without flows, an unknown class, no command: errors, nothing run" {
	run npsim "$DEV" set mixed --flow latency:tcp:6379
	[ "$status" -eq 0 ]
	run npsim "$DEV" exec cpu -- touch "$NP_TMP/ran"
	[ "$status" -eq 1 ]
	[[ $output == *"class cpu has no flows"* ]]
	run npsim "$DEV" exec bulk -- touch "$NP_TMP/ran"
	[ "$status" -eq 2 ]
	[[ $output == *"unknown class 'bulk'"* ]]
	run npsim "$DEV" exec latency
	[ "$status" -eq 2 ]
	[[ $output == *"which command?"* ]]
	run npsim "$DEV" exec
	[ "$status" -eq 2 ]
	[ ! -e "$NP_TMP/ran" ]
}

@test "exec: a command not found exits 127, one that cannot run 126" {
	run npsim "$DEV" set mixed --flow latency:tcp:6379
	[ "$status" -eq 0 ]
	run npsim "$DEV" exec latency -- "$NP_TMP/no-such-command"
	[ "$status" -eq 127 ]
	[[ $output == *"no-such-command: No such file or directory"* ]]
	printf 'not a program\n' >"$NP_TMP/text"
	chmod -x "$NP_TMP/text"
	run npsim "$DEV" exec latency -- "$NP_TMP/text"
	[ "$status" -eq 126 ]
}

@test "exec: the command starts with the signal dispositions and mask netpolicy was started with" {
	run npsim "$DEV" set mixed --cpus 0-1 --flow latency:tcp:6379
	[ "$status" -eq 0 ]
	# netpolicy ignores SIGPIPE and catches SIGINT/TERM/HUP for itself; an
	# ignored SIGPIPE survives execve and `yes` would die of EPIPE, loudly
	run npsim "$DEV" exec latency -- sh -c 'yes | head -1'
	[ "$status" -eq 0 ]
	[ "$output" = "y" ]
	want=$(sh -c 'grep -E "^Sig(Ign|Blk)" /proc/self/status')
	run npsim "$DEV" exec latency -- sh -c 'grep -E "^Sig(Ign|Blk)" /proc/self/status'
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	# a signal ignored by whoever started netpolicy (nohup) stays ignored
	want=$(nohup sh -c 'grep -E "^SigIgn" /proc/self/status' 2>/dev/null)
	run nohup "$NETPOLICY" --model "$MODEL" --state-dir "$STATE_DIR" "$DEV" exec latency -- sh -c 'grep -E "^SigIgn" /proc/self/status'
	[ "$status" -eq 0 ]
	[[ $output == *"$want"* ]]
}
