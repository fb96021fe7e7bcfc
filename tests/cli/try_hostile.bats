#!/usr/bin/env bats
# DEVICE try against a hostile workload, metric and log directory, on the
# simulated ixgbe: the --log files are opened as the state directory's are,
# a dry run creates nothing, the metric is a finite number found past NUL
# bytes by a pattern that cannot hang netpolicy, and the workload's whole
# process group ends with its run.  `timeout` only keeps a hang (the old
# behaviour) from hanging the suite.

load ../helpers

setup() {
	np_tmpdir
	np_sim_dev ixgbe-16cpu
}
teardown() { np_kill_watchdogs; np_cleanup_tmp; }

@test "try --log: a symlink in a directory of another owner is refused, its target untouched" {
	[ "$(id -u)" -eq 0 ] || skip "needs root (a directory of another user)"
	dir=$NP_TMP/log
	mkdir "$dir"
	echo precious >"$NP_TMP/target"
	ln -s "$NP_TMP/target" "$dir/01-baseline.log"
	chown -h nobody "$dir" "$dir/01-baseline.log"
	run "${NP[@]}" "$DEV" try --settle 0 --log "$dir" -- echo hi
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"--log $dir: not trusted: owned by uid $(id -u nobody), not by root"* ]]
	[ "$(cat "$NP_TMP/target")" = precious ]
	# ours, but the link is not followed and the run stops
	chown -h root "$dir"
	run "${NP[@]}" "$DEV" try --settle 0 --log "$dir" -- echo hi
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$(cat "$NP_TMP/target")" = precious ]
	# writable by others
	rm "$dir/01-baseline.log"
	chmod 0777 "$dir"
	run "${NP[@]}" "$DEV" try --settle 0 --log "$dir" -- echo hi
	[ "$status" -eq 1 ]
	[[ $output == *"not trusted: writable by others (mode 0777)"* ]]
	[ -z "$(ls "$dir")" ]
}

@test "try --log: an existing file of another owner is not emptied; our own is" {
	[ "$(id -u)" -eq 0 ] || skip "needs root (a file of another user)"
	dir=$NP_TMP/log
	mkdir "$dir"
	echo theirs >"$dir/01-baseline.log"
	chown nobody "$dir/01-baseline.log"
	run "${NP[@]}" "$DEV" try --settle 0 --log "$dir" -- echo hi
	[ "$status" -eq 1 ]
	[ "$(cat "$dir/01-baseline.log")" = theirs ]
	rm "$dir/01-baseline.log"
	echo "old old old old" >"$dir/01-baseline.log"
	run "${NP[@]}" -q "$DEV" try --settle 0 --log "$dir" -- echo hi
	[ "$status" -eq 0 ]
	[ "$(cat "$dir/01-baseline.log")" = hi ]
}

@test "try --dry-run --log DIR creates nothing" {
	run "${NP[@]}" "$DEV" try --dry-run --log "$NP_TMP/never" -- true
	[ "$status" -eq 0 ]
	[ ! -e "$NP_TMP/never" ]
}

@test "try: a metric that is not a finite number fails the run at once, device restored" {
	before=$(np_sim_state)
	for v in -nan nan inf -inf; do
		run timeout -k 5 60 "${NP[@]}" "$DEV" try --settle 0 --metric 'val=(.*)' -- echo "val=$v"
		echo "$output"
		[ "$status" -eq 10 ]
		[[ $output == *"captured a value that is not a finite number"* ]]
	done
	[ "$(np_sim_state)" = "$before" ]
}

@test "try: NUL bytes in the output do not hide the lines after them" {
	run "${NP[@]}" -q --json "$DEV" try --settle 0 --metric 'val=([0-9]+)' -- \
		printf 'a\0b\nval=5\0\nval=6\n'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.conditions[].runs[].metric] | unique' <<<"$output")" = "[6]" ]
}

@test "try: a catastrophic --metric pattern is bounded: a clear error, device restored" {
	before=$(np_sim_state)
	run timeout -k 5 60 "${NP[@]}" "$DEV" try --settle 0 --metric '(.*)(.*)(.*)\3\2x' -- \
		sh -c 'i=0; while [ $i -lt 3000 ]; do printf ab; i=$((i + 1)); done; echo'
	echo "$output"
	[ "$status" -eq 10 ]
	[[ $output == *"took too long to match"* ]]
	[ "$(np_sim_state)" = "$before" ]
}

# The workload's pid file $1 names a background process; it must be gone.
gone() {
	local pid st
	pid=$(cat "$1")
	st=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || return 0
	[ "$st" = Z ]
}

@test "try --timeout reaches the whole process group of the workload" {
	run timeout -k 5 60 "${NP[@]}" "$DEV" try --settle 0 --timeout 1 -- \
		sh -c 'sleep 60 & echo $! >"$0"; wait' "$NP_TMP/pid"
	echo "$output"
	[ "$status" -eq 10 ]
	gone "$NP_TMP/pid"
}

@test "try: nothing of a run outlives it (a background process of a workload that ended)" {
	run timeout -k 5 60 "${NP[@]}" -q "$DEV" try --settle 0 -- \
		sh -c 'sleep 60 >/dev/null 2>&1 & echo $! >"$0"' "$NP_TMP/pid"
	echo "$output"
	[ "$status" -eq 0 ]
	gone "$NP_TMP/pid"
}

@test "try --dry-run of a device that does not exist: exit 1, as set --dry-run" {
	run "${NP[@]}" nosuch0 try --dry-run -- true
	echo "$output"
	[ "$status" -eq 1 ]
	run "${NP[@]}" nosuch0 set --dry-run throughput
	[ "$status" -eq 1 ]
}

# SIGTERM delivered by strace on netpolicy's 4th clone: the child matching
# throughput's output (1 and 3 are the workloads, 2 the baseline's match).
# The pattern takes val=1 from the baseline's output at once and would take
# far longer than the 5 s bound on throughput's (its back references): the
# signal must end the match and the run (exit 3), not wait for the bound
# ("took too long") or for the pattern (the old in-process match never
# returned: `timeout` ends it, 124).
@test "try: SIGTERM during a catastrophic --metric match: exit 3 at once, device restored" {
	before=$(np_sim_state)
	run timeout -k 5 60 env "$NP_NO_LSAN" strace -qq -o /dev/null -e trace=clone,clone3 \
		-e inject=clone,clone3:signal=TERM:when=4 \
		"${NP[@]}" "$DEV" try --settle 0 --rounds 1 --metric 'val=([0-9]+)|(.*)(.*)(.*)\4\3x' throughput -- \
		sh -c 'if [ -e "$0" ]; then i=0; while [ $i -lt 3000 ]; do printf ab; i=$((i + 1)); done
			echo; else touch "$0"; echo val=1; fi' "$NP_TMP/once"
	echo "$output"
	[[ $output == *"round 1/1, throughput (2/2)"* ]]
	[[ $output != *"took too long"* ]]
	[ "$status" -eq 3 ]
	[ "$(np_sim_state)" = "$before" ]
}

@test "try: a signal passed on reaches the workload's whole process group (exit 3)" {
	before=$(np_sim_state)
	# A background subshell of the workload traps SIGTERM (it writes .got);
	# once it is ready, the workload's first process signals netpolicy (its
	# parent), ignoring SIGTERM itself, and waits for the subshell: .got
	# is there only if netpolicy passed the signal on to the whole group
	# (the SIGKILL at the end of the run, after the wait, would not write it).
	run timeout -k 5 60 "${NP[@]}" "$DEV" try --settle 0 -- sh -c '
		(trap "echo got >\"$0.got\"; exit 0" TERM; touch "$0.ready"; while :; do :; done) &
		trap "" TERM
		while [ ! -e "$0.ready" ]; do :; done
		kill -TERM $PPID
		wait' "$NP_TMP/w"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ $output == *"stopped by SIGTERM"* ]]
	[ "$(cat "$NP_TMP/w.got")" = got ]
	[ "$(np_sim_state)" = "$before" ]
}
