#!/usr/bin/env bats
# Fault injection through the simulated backend: for every policy and every
# step k of the apply, step k fails in a way that leaves the device's state
# unknown (ENOBUFS: netpolicy(8), "What rolls back"), or the device
# vanishes.  The device must end exactly as it was, with exit 3 and a
# message naming the step and the reason.  (A refusal with any other errno
# degrades: tests/cli/refuse.bats, degrade.bats.)

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }


state_of() {	# the device as JSON, without netpolicy's own bookkeeping
	npsim --json "$1" show | jq -S 'del(.policy, .policy_cpus, .drift)'
}

# For model $1 and policy $2: the knob of each step a clean apply writes.
steps_of() {
	np_model "$1"
	npsim -v "$(jq -r '.devices[0].ifname' "$MODEL")" set "$2" 2>&1 >/dev/null |
		sed -n 's/^netpolicy: [^:]*: step \([0-9]*\): \([a-z-]*\) .*/\1 \2/p'
}

with_fault() {	# with_fault MODEL FAULT-JSON: a fresh copy of MODEL with one fault
	np_model "$1"
	jq --argjson f "$2" '.faults = [$f]' "$MODEL" >"$NP_TMP/f.json" && mv "$NP_TMP/f.json" "$MODEL"
}

run_faults() {	# run_faults MODEL: every policy, every step, mode fail
	local model=$1 policy k knob op after dev
	for policy in cpu latency throughput; do
		declare -A seen=()
		local count=0
		while read -r k knob; do
			count=$((count + 1))
			op=$(op_of "$knob")
			after=${seen[$op]:-0}
			seen[$op]=$((after + 1))
			with_fault "$model" "{\"op\":\"$op\",\"after\":$after,\"errno\":\"ENOBUFS\",\"extack\":\"injected at step $k\"}"
			dev=$(jq -r '.devices[0].ifname' "$MODEL")
			before=$(state_of "$dev")
			run npsim "$dev" set "$policy"
			[ "$status" -eq 3 ] || { echo "$model $policy step $k ($knob): exit $status: $output"; return 1; }
			[[ "$output" == "netpolicy: $dev: step $k: $knob"*"injected at step $k"*"rolled back, the device is as it was" ]] ||
				{ echo "$model $policy step $k: message: $output"; return 1; }
			[ "${#lines[@]}" -eq 1 ]
			[ "$(state_of "$dev")" = "$before" ] || { echo "$model $policy step $k: not restored"; return 1; }
			[ ! -e "$STATE_DIR/$dev.journal" ]
			rm -rf "$STATE_DIR"
		done < <(steps_of "$model" "$policy")
		echo "# $model $policy: $count steps failed in turn" >&3
		# virtio-4q's cpu has 2 (no NOTF_COAL: no coalescing step)
		[ "$count" -ge 2 ]
		unset seen
	done
}

# The test build's `set latency` on $dev, stopped (SIGSTOP) by its step hook
# after step $1, as $pid; its output goes to $2 (default nowhere).
stopped_set() {
	NETPOLICY_TEST_STOP_AFTER_STEP=$1 "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" \
		--model "$MODEL" "$dev" set latency >"${2:-/dev/null}" 2>&1 &
	pid=$!
	wait_stopped "$pid"
}

# SIGKILL the stopped $pid and reap it.
kill_stopped() { kill -9 "$pid"; wait "$pid" 2>/dev/null || true; }

@test "virtio VM: a failure at every step of every policy rolls back exactly" {
	run_faults virtio-4q
}

@test "ixgbe 64 queues: a failure at every step of every policy rolls back exactly" {
	run_faults ixgbe-16cpu
}

@test "i40e with isolated CPUs: a failure at every step of every policy rolls back exactly" {
	run_faults isolated
}

@test "a driver that ignores a value: its answer, left out and reported; --strict rolls back" {
	with_fault ixgbe-16cpu '{"op":"set_rings","mode":"ignore","every":true}'
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	before=$(state_of "$dev")
	# cpu raises ixgbe's 512-descriptor rings (heavy moderation)
	run npsim "$dev" set cpu --strict
	[ "$status" -eq 3 ]
	[[ "$output" == *"rings"*"the driver kept"* ]]
	[ "$(state_of "$dev")" = "$before" ]
	# what the driver kept is its refusal, not another writer's change
	run npsim --json "$dev" set cpu
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.dropped[] | [.knob, has("errno")]] | unique' <<<"$output")" = '[["rings",false]]' ]
	[[ "$(jq -r '.dropped[0].reason' <<<"$output")" == *"the driver kept 512, wanted"* ]]
	run npsim "$dev" check
	[ "$status" -eq 0 ]
}

@test "a driver that rounds a value: applied, and the rounding reported" {
	# (ixgbe takes its adaptive rx-usecs 1 for throughput: a fixed value
	# is planned by latency on mlx5)
	with_fault mlx5-2s64c '{"op":"set_coalesce","mode":"round","every":true}'
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npsim --json "$dev" set latency
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = true ]
	[[ "$(jq -r .rounded <<<"$output")" == *"coalesce rx-frames: driver set 0 for 1"* ]]
}

@test "the device vanishes mid-apply: exit 4 (it may live on elsewhere, half-changed), one line, journal kept" {
	with_fault ixgbe-16cpu '{"op":"write_attr","after":3,"mode":"vanish"}'
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npsim "$dev" set throughput
	[ "$status" -eq 4 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"left this network namespace"*"its journal is kept"* ]]
	[ -e "$STATE_DIR/$dev.journal" ]
}

@test "rollback that itself fails: exit 4, the journal kept, a later reset finishes it" {
	# the forward write fails at the 3rd IRQ write, and the rollback's
	# first channel change fails too
	with_fault ixgbe-16cpu '{"op":"write_attr","after":2,"errno":"ENOBUFS"}'
	jq '.faults += [{"op":"set_channels","after":1,"errno":"ENOBUFS","extack":"busy during rollback"}]' \
		"$MODEL" >"$NP_TMP/f.json" && mv "$NP_TMP/f.json" "$MODEL"
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	before=$(state_of "$dev")
	run npsim "$dev" set throughput
	[ "$status" -eq 4 ]
	[[ "$output" == *"rollback INCOMPLETE"*"reset' retries"* ]]
	[ -e "$STATE_DIR/$dev.journal" ]
	run npsim "$dev" reset
	[ "$status" -eq 0 ]
	[ "$(state_of "$dev")" = "$before" ]
	[ ! -e "$STATE_DIR/$dev.journal" ]
}

@test "a set that first rolls back an interrupted run says changed, though its own plan is empty" {
	np_model virtio-4q
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	npsim "$dev" set cpu >/dev/null
	at_cpu=$(state_of "$dev")
	stopped_set 2
	kill_stopped
	[ "$(state_of "$dev" 2>/dev/null)" != "$at_cpu" ]
	# the rollback returns it to cpu: the set itself has nothing to write
	out=$(npsim --json "$dev" set cpu 2>"$NP_TMP/err")
	grep -q "interrupted" "$NP_TMP/err"
	[ "$(jq .writes <<<"$out")" -gt 0 ]
	[ "$(jq .changed <<<"$out")" = true ]
	[ "$(state_of "$dev")" = "$at_cpu" ]
}

@test "killed after step k on a model: the next command restores it" {
	np_model virtio-4q
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	before=$(state_of "$dev")
	stopped_set 2
	kill_stopped
	# show only reads: it says what is pending and changes nothing
	run npsim "$dev" show
	[ "$status" -eq 0 ]
	[[ "$output" == *"an earlier run was interrupted"* ]]
	[ -e "$STATE_DIR/$dev.journal" ]
	[ "$(state_of "$dev" 2>/dev/null)" != "$before" ]
	run npsim "$dev" reset
	[ "$status" -eq 0 ]
	[[ "$output" == *"rolled back an interrupted earlier run"* ]]
	[ "$(state_of "$dev")" = "$before" ]
	[ ! -e "$STATE_DIR/$dev.journal" ]
}

@test "the installed binary has no test hook: NETPOLICY_TEST_STOP_AFTER_STEP is ignored" {
	np_model virtio-4q
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	NETPOLICY_TEST_STOP_AFTER_STEP=0 "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" \
		"$dev" set latency >/dev/null 2>&1 &
	pid=$!
	for ((i = 0; i < 50; i++)); do	# it finishes; the hooked build would stop itself
		[ "$(awk '{print $3}' /proc/"$pid"/stat 2>/dev/null)" = T ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	stopped=$(awk '{print $3}' /proc/"$pid"/stat 2>/dev/null || true)
	[ "$stopped" = T ] && kill -9 "$pid"
	st=0; wait "$pid" || st=$?
	[ "$stopped" != T ]
	[ "$st" -eq 0 ]
	! grep -q NETPOLICY_TEST_STOP_AFTER_STEP "$NETPOLICY" || false
	grep -q NETPOLICY_TEST_STOP_AFTER_STEP "$NETPOLICY_TEST_BIN"	# the test build keeps it
}

@test "a journal in a read-only state directory: exit 9 before any write, the directory named, journal kept" {
	[ "$(id -u)" -eq 0 ] || skip "needs root for a read-only bind mount in its own mount namespace"
	np_model virtio-4q
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	before=$(state_of "$dev")
	stopped_set 2
	kill_stopped
	mid=$(state_of "$dev" 2>/dev/null)
	[ "$mid" != "$before" ]
	# the state directory read-only in this command's own mount namespace
	for cmd in "set throughput" "reset"; do
		run unshare -m sh -c "mount --bind -o ro '$STATE_DIR' '$STATE_DIR' &&
			exec '$NETPOLICY' --state-dir '$STATE_DIR' --model '$MODEL' $dev $cmd"
		[ "$status" -eq 9 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *"state directory $STATE_DIR cannot be written (Read-only file system)"* ]]
		[ "$(state_of "$dev" 2>/dev/null)" = "$mid" ]
		[ -e "$STATE_DIR/$dev.journal" ]
	done
	# writable again: the next command rolls the interrupted run back
	run npsim "$dev" reset
	[ "$status" -eq 0 ]
	[ "$(state_of "$dev")" = "$before" ]
	[ ! -e "$STATE_DIR/$dev.journal" ]
}

@test "another writer during the rollback: exit 4, says so, the device left as that writer set it" {
	np_model virtio-4q
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	# virtio-4q as a device with VIRTIO_NET_F_NOTF_COAL (its coalescing not
	# fixed): latency is step 0 coalesce tx-usecs, steps 1-4 rfs, 5 the
	# sysctl; the second write_attr (step 2) fails, so the rollback's first
	# step (numbered 2: the numbers go on) restores tx-usecs, and the test
	# hook stops it there
	jq '(.devices[0].coalesce) |= del(.fixed) | .faults = [{"op": "write_attr", "after": 1}]' \
		"$MODEL" >"$NP_TMP/f.json" && mv "$NP_TMP/f.json" "$MODEL"
	stopped_set 2 "$NP_TMP/out"
	grep -q "stopped after step 2 (coalesce tx-usecs)" "$NP_TMP/out"
	# another writer sets tx-usecs under the rollback, after it was restored
	jq --arg d "$dev" '(.devices[] | select(.ifname == $d) | .coalesce.fields["tx-usecs"]) = 50' \
		"$MODEL" >"$NP_TMP/f.json" && mv "$NP_TMP/f.json" "$MODEL"
	kill -CONT "$pid"
	st=0; wait "$pid" || st=$?
	[ "$st" -eq 4 ]
	grep -q "rollback INCOMPLETE: coalesce tx-usecs is 50, want 0; the journal is kept" "$NP_TMP/out"
	[ "$(jq --arg d "$dev" '.devices[] | select(.ifname == $d) | .coalesce.fields["tx-usecs"]' "$MODEL")" -eq 50 ]
	[ -e "$STATE_DIR/$dev.journal" ]
}
