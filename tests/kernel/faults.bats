#!/usr/bin/env bats
# The atomic promise under signals, another writer and a device that moves,
# on a veth pair with 8 queues in a private network namespace.

load ../helpers

setup() { np_veth_setup; }

teardown() { np_veth_teardown; }

# set throughput stopped by the test hook after step $1; sets PID
stopped_set() {
	NETPOLICY_TEST_STOP_AFTER_STEP=$1 ip netns exec "$NS" "$NETPOLICY_TEST_BIN" \
		--state-dir "$STATE_DIR" v0 set throughput >"$NP_TMP/out" 2>&1 &
	PID=$!
	wait_stopped "$PID"
}

finish() {	# let it run on; its exit status in ST
	kill -CONT "$PID"
	ST=0; wait "$PID" || ST=$?; PID=
}

@test "a closed pipe (| head) never kills an apply half-way" {
	run bash -c "ip netns exec $NS '$NETPOLICY' --state-dir '$STATE_DIR' -v v0 set throughput 2>&1 | head -2"
	[ ! -e "$(np_rec v0 journal)" ]
	run npns v0 check throughput
	[ "$status" -eq 0 ]
}

@test "SIGTERM, SIGINT, SIGHUP mid-apply: rolled back, exit 3, no journal" {
	for sig in TERM INT HUP; do
		stopped_set 0
		kill -"$sig" "$PID"
		finish
		[ "$ST" -eq 3 ] || { cat "$NP_TMP/out"; echo "SIG$sig: exit $ST"; return 1; }
		grep -q "interrupted by a signal" "$NP_TMP/out"
		[ "$(veth_snapshot)" = "$BEFORE" ]
		[ ! -e "$(np_rec v0 journal)" ]
	done
}

@test "another writer between two steps (ethtool -L) fails the apply and rolls back" {
	run npns --json v0 set throughput --dry-run
	[ "$(jq -r '.steps[0].knob' <<<"$output")" = channels ]
	stopped_set 0
	ip netns exec "$NS" ethtool -L v0 rx 3 tx 3
	finish
	[ "$ST" -eq 3 ]
	grep -q "by another writer during the run" "$NP_TMP/out"
	! grep -q "driver set" "$NP_TMP/out" || false
	[ ! -e "$(np_rec v0 journal)" ]
}

@test "renamed mid-apply: rolled back under its new name (the same ifindex), exit 3, no journal" {
	stopped_set 0
	ip -n "$NS" link set v0 name v9
	finish
	[ "$ST" -eq 3 ] || { cat "$NP_TMP/out"; false; }
	grep -q "v0: renamed to v9 during the run; rolling it back there" "$NP_TMP/out"
	grep -q "rolled back, the device is as it was" "$NP_TMP/out"
	[ ! -e "$(np_rec v0 journal)" ]
	# as it was before the apply (a name changes none of it)
	ip -n "$NS" link set v9 name v0
	[ "$(veth_snapshot)" = "$BEFORE" ]
	run npns v0 set throughput
	[ "$status" -eq 0 ]
}

@test "moved to another namespace mid-apply: exit 4, the journal kept" {
	stopped_set 0
	ip netns add "$NS-b"
	ip -n "$NS" link set v0 netns "$NS-b"
	finish
	ip netns del "$NS-b"
	[ "$ST" -eq 4 ]
	grep -q "left this network namespace" "$NP_TMP/out"
	[ -e "$(np_rec v0 journal)" ]
}

@test "--confirm: the deadline is on disk and show reports it; reset cancels it for good" {
	run npns --json v0 set throughput --confirm 3
	[ "$status" -eq 0 ]
	[ "$(jq -r .format "$(np_rec v0 tentative)")" = netpolicy-tentative ]
	out=$(npns --json v0 show 2>/dev/null)
	[ "$(jq '.confirm_deadline > 0' <<<"$out")" = true ]
	run npns v0 reset
	[ "$status" -eq 0 ]
	[ ! -e "$(np_rec v0 tentative)" ]
	sleep 4		# the watchdog wakes up: nothing of its change is left to revert
	[ "$(veth_snapshot)" = "$BEFORE" ]
	[ ! -e "$(np_rec v0 pristine)" ]
}

@test "--confirm: an expired deadline is reverted by the next change even without a watchdog; confirm then refuses" {
	# 8 s: finding the watchdog must not outlast the deadline on a loaded machine
	run npns v0 set throughput --confirm 8
	[ "$status" -eq 0 ]
	start=$SECONDS
	# kill this test's watchdog (its command line names our state dir)
	wd=
	for ((i = 0; i < 50 && !wd; i++)); do
		wd=$(pgrep -f -x -- "netpolicy --state-dir $STATE_DIR -- v0 __revert .*" | head -1)
		[ -n "$wd" ] || sleep 0.1
	done
	[ -n "$wd" ]
	kill -9 "$wd"
	((SECONDS - start >= 9)) || sleep $((9 - (SECONDS - start)))
	run npns v0 confirm
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"too late"* ]]
	[ "$(veth_snapshot)" = "$BEFORE" ]
	[ ! -e "$(np_rec v0 tentative)" ]
}

@test "a second set --confirm returns to the state before the first" {
	npns v0 set cpu --confirm 2
	npns v0 set throughput --confirm 2
	sleep 4
	for ((i = 0; i < 50; i++)); do [ ! -e "$(np_rec v0 tentative)" ] && break; sleep 0.1; done
	[ "$(veth_snapshot)" = "$BEFORE" ]
}
