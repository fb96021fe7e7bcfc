#!/usr/bin/env bats
# Staying applied without a network manager's help: `netpolicy watch` on a
# veth pair in a private namespace.  Another program's `ethtool -L` (an
# ethtool netlink CHANNELS_NTF) or a link coming up with its settings lost
# brings the device back to the policy netpolicy last applied to it.

load ../helpers

setup() {
	np_veth_setup 4
	WATCH_PID=
}

teardown() {
	[ -z "$WATCH_PID" ] || kill "$WATCH_PID" 2>/dev/null || true
	[ -z "$WATCH_PID" ] || wait "$WATCH_PID" 2>/dev/null || true
	np_netns_cleanup
	np_cleanup_tmp
}

start_watch() {	# start_watch [DEVICE...]: in the namespace, log in $NP_TMP/watch.log
	ip netns exec "$NS" "$NETPOLICY" --state-dir "$STATE_DIR" -v watch "$@" \
		>"$NP_TMP/watch.out" 2>"$NP_TMP/watch.log" &
	WATCH_PID=$!
	# subscribed once it says so (before that a notification would be missed)
	for _ in $(seq 50); do
		grep -q "watching" "$NP_TMP/watch.log" 2>/dev/null && return 0
		sleep 0.1
	done
	cat "$NP_TMP/watch.log"
	return 1
}

wait_for() {	# wait_for SECONDS CMD...: until CMD succeeds
	local t=$1; shift
	for _ in $(seq $((t * 10))); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

@test "watch: another program's ethtool -L is undone, the log says why, then it settles" {
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	start_watch
	ip netns exec "$NS" ethtool -L v0 rx 1 tx 1
	run npns v0 check throughput
	[ "$status" -eq 5 ]		# drifted: nothing else will bring it back
	wait_for 15 npns v0 check throughput
	grep -q "v0: channels changed; .* from policy throughput: applying it again" "$NP_TMP/watch.log"
	# our own apply's notifications lead to one check that finds nothing
	wait_for 10 grep -q "v0: .*still matches policy throughput" "$NP_TMP/watch.log"
	[ "$(grep -c 'applying it again' "$NP_TMP/watch.log")" -eq 1 ]
	kill -TERM "$WATCH_PID"
	st=0
	wait "$WATCH_PID" || st=$?
	WATCH_PID=
	[ "$st" -eq 0 ]
}

@test "watch --json: one line per re-apply (JSON Lines) with its time and trigger, valid against watch-event.json" {
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	start=$(date +%s)
	ip netns exec "$NS" "$NETPOLICY" --state-dir "$STATE_DIR" --json -v watch v0 \
		>"$NP_TMP/watch.jsonl" 2>"$NP_TMP/watch.log" &
	WATCH_PID=$!
	wait_for 5 grep -q "watching" "$NP_TMP/watch.log"
	ip netns exec "$NS" ethtool -L v0 rx 1 tx 1
	wait_for 15 npns v0 check throughput
	wait_for 10 grep -q "v0: .*still matches policy throughput" "$NP_TMP/watch.log"
	kill -TERM "$WATCH_PID"
	wait "$WATCH_PID" || true
	WATCH_PID=
	cat "$NP_TMP/watch.jsonl"
	# one line, one document: the re-apply
	[ "$(wc -l <"$NP_TMP/watch.jsonl")" -eq 1 ]
	[ "$(jq -c '[.event, .trigger, .ifname, .policy, .changed]' "$NP_TMP/watch.jsonl")" = \
	  '["reapply","channels","v0","throughput",true]' ]
	[ "$(jq .time "$NP_TMP/watch.jsonl")" -ge "$start" ]
	np_json_validate watch-event.json "$NP_TMP/watch.jsonl"
}

@test "watch: a link that comes up without its settings gets the policy back" {
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	start_watch v0
	ip -n "$NS" link set v0 down
	ip netns exec "$NS" sh -c 'for f in /sys/class/net/v0/queues/*/xps_cpus; do echo 0 >"$f"; done'
	ip -n "$NS" link set v0 up
	wait_for 15 grep -q "v0: link up changed" "$NP_TMP/watch.log"
	wait_for 10 npns v0 check throughput
}

@test "watch: a device without a policy record, or not named, is left alone" {
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	start_watch v0
	# v1 has no record and is not named: no check at all
	ip netns exec "$NS" ethtool -L v1 rx 1 tx 1
	sleep 2
	! grep -q "v1" "$NP_TMP/watch.log" || false
	run npns v1 show --json
	[ "$(jq '.channels.rx' <<<"$output")" -eq 1 ]
	kill "$WATCH_PID"; wait "$WATCH_PID" || true; WATCH_PID=
	# every device: v1 is checked, but has no record
	start_watch
	ip netns exec "$NS" ethtool -L v1 rx 2 tx 2
	wait_for 10 grep -q "v1: channels; no policy applied by netpolicy: left alone" "$NP_TMP/watch.log"
}

@test "watch: a change awaiting confirm is left to its watchdog" {
	run npns --confirm 60 v0 set throughput
	[ "$status" -eq 0 ]
	start_watch v0
	ip netns exec "$NS" ethtool -L v0 rx 1 tx 1
	wait_for 10 grep -q "v0: channels; a change awaits 'confirm': left to it" "$NP_TMP/watch.log"
	run npns v0 reset
}

@test "watch: refused on the simulated backend, and for a bad device name" {
	run npsim watch
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"watch: the simulated backend sends no change notifications"* ]]
	run "$NETPOLICY" --state-dir "$STATE_DIR" watch 'bad/name'
	[ "$status" -eq 2 ]
}

@test "watch: a device another netpolicy holds is checked after it, against the policy it recorded" {
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	start_watch v0
	# an admin's 'set cpu', stopped after its first step: it holds v0's lock
	NETPOLICY_TEST_STOP_AFTER_STEP=1 ip netns exec "$NS" "$NETPOLICY_TEST_BIN" \
		--state-dir "$STATE_DIR" v0 set cpu >"$NP_TMP/admin.out" 2>&1 &
	PID=$!
	wait_stopped "$PID"
	# the watcher sees the change and cannot take the lock: it does not wait
	# for it with the policy it read before (throughput)
	wait_for 15 grep -q "v0: .*applying it again" "$NP_TMP/watch.log"
	wait_for 10 grep -q "held by\|another netpolicy\|busy\|lock" "$NP_TMP/watch.log"
	kill -CONT "$PID"
	ST=0; wait "$PID" || ST=$?
	[ "$ST" -eq 0 ]
	# then it reads the record the admin's set wrote, and keeps cpu
	wait_for 15 grep -q "v0: .*still matches policy cpu" "$NP_TMP/watch.log"
	run npns v0 check cpu
	[ "$status" -eq 0 ]
}

@test "watch: SIGTERM or SIGHUP during a re-apply rolls it back and exits 3" {
	for sig in HUP TERM; do
	run npns v0 reset
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	# the watcher's own re-apply stops itself after its first step (step 0,
	# the channels: in a child netns RFS plans no per-queue step to stop at)
	NETPOLICY_TEST_STOP_AFTER_STEP=0 ip netns exec "$NS" "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" \
		-v watch v0 >"$NP_TMP/watch.out" 2>"$NP_TMP/watch.log" &
	WATCH_PID=$!
	wait_for 5 grep -q "watching" "$NP_TMP/watch.log"
	ip netns exec "$NS" ethtool -L v0 rx 1 tx 1
	wait_stopped "$WATCH_PID"
	kill -"$sig" "$WATCH_PID"
	kill -CONT "$WATCH_PID"
	st=0
	wait "$WATCH_PID" || st=$?
	WATCH_PID=
	cat "$NP_TMP/watch.log"
	[ "$st" -eq 3 ]
	grep -q "rolled back" "$NP_TMP/watch.log"
	# as the other program left it
	[ "$(npns --json v0 show | jq '.channels.rx')" -eq 1 ]
	done
}

@test "watch: a program that keeps restoring its own value: watch backs off and says who fights over what" {
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	start_watch v0
	# the other writer: puts its channel count back whenever it changes
	ip netns exec "$NS" sh -c 'while :; do
		[ "$(ethtool -l v0 | awk "/^Current/ {c=1} c && /^RX:/ {print \$2; exit}")" = 1 ] ||
			ethtool -L v0 rx 1 tx 1 2>/dev/null; sleep 0.2; done' &
	FIGHTER=$!
	sleep 14
	kill "$FIGHTER"; wait "$FIGHTER" 2>/dev/null || true
	n=$(grep -c 'applying it again' "$NP_TMP/watch.log")
	cat "$NP_TMP/watch.log"
	# without a back-off: one every ~1.3 s (10 or more); with it 3, then 2 s, 4 s, 8 s apart
	[ "$n" -ge 3 ] && [ "$n" -le 6 ]
	[ "$(grep -c 'v0: channels re-applied 3 times in' "$NP_TMP/watch.log")" -eq 1 ]
	grep -q "another program keeps changing channels; backing off: next check in" "$NP_TMP/watch.log"
}

@test "watch: follows a device by ifindex: the policy is never applied to another device that took the name" {
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	start_watch
	# v0 is renamed, v1 (no policy) takes its name
	ip -n "$NS" link set v0 down
	ip -n "$NS" link set v0 name x0
	ip -n "$NS" link set v1 name v0
	ip netns exec "$NS" ethtool -L v0 rx 1 tx 1
	wait_for 10 grep -q "v0: .*is another device" "$NP_TMP/watch.log"
	sleep 2
	cat "$NP_TMP/watch.log"
	! grep -q "v0: .*applying it again" "$NP_TMP/watch.log" || false
	[ "$(npns --json v0 show | jq '.channels.rx')" -eq 1 ]
}
