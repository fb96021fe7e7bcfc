#!/usr/bin/env bats
# An unconfirmed `set --confirm` is reverted whole: the device, the policy
# record and the machine-wide sysctl record (IFNAME.sysctl, what this
# device's policy needs of net.core.*, which every other device's plan
# reads) all as they were before it.  On the simulated backend; the
# watchdog reverts after a 4 s deadline (short ones raced the checks
# made before it under load).

load ../helpers

setup() {
	np_tmpdir
	np_sim_dev virtio-4q
	# the model as the sim writes it back, no records
	npsim "$DEV" set latency >/dev/null
	npsim "$DEV" reset >/dev/null
}

teardown() {
	np_kill_watchdogs
	np_cleanup_tmp
}

# Wait (up to 20 s) until the watchdog reverted: the marker is gone.
reverted() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ ! -e "$STATE_DIR/$DEV.tentative" ] && return 0
		sleep 0.1
	done
	return 1
}

@test "reverted --confirm on a device without records: no sysctl record is left" {
	cp "$MODEL" "$NP_TMP/before"
	npsim "$DEV" set latency --confirm 4 >/dev/null
	# latency needs net.core.rps_sock_flow_entries: the record of it
	[ "$(jq '.sysctls["net.core.rps_sock_flow_entries"].need' "$STATE_DIR/$DEV.sysctl")" -gt 0 ]
	reverted
	cmp "$MODEL" "$NP_TMP/before"
	[ ! -e "$STATE_DIR/$DEV.policy" ]
	[ ! -e "$STATE_DIR/$DEV.sysctl" ]
}

@test "reverted --confirm after a confirmed policy: its sysctl record as it was" {
	npsim "$DEV" set latency >/dev/null
	cp "$MODEL" "$NP_TMP/before"
	cp "$STATE_DIR/$DEV.sysctl" "$NP_TMP/sysctl"
	cp "$STATE_DIR/$DEV.policy" "$NP_TMP/policy"
	# busy-poll needs net.core.busy_poll and busy_read besides
	npsim "$DEV" set busy-poll --confirm 4 >/dev/null
	! cmp -s "$STATE_DIR/$DEV.sysctl" "$NP_TMP/sysctl" || false
	reverted
	cmp "$MODEL" "$NP_TMP/before"
	cmp "$STATE_DIR/$DEV.policy" "$NP_TMP/policy"
	cmp "$STATE_DIR/$DEV.sysctl" "$NP_TMP/sysctl"
	# and reset still returns to the values before any policy
	run npsim "$DEV" reset
	[ "$status" -eq 0 ]
	[ ! -e "$STATE_DIR/$DEV.sysctl" ]
}

@test "a second --confirm, reverted, returns to the records before the first" {
	npsim "$DEV" set cpu >/dev/null
	cp "$STATE_DIR/$DEV.policy" "$NP_TMP/policy"
	[ ! -e "$STATE_DIR/$DEV.sysctl" ]
	npsim "$DEV" set latency --confirm 600 >/dev/null 2>&1
	npsim "$DEV" set busy-poll --confirm 4 >/dev/null
	reverted
	cmp "$STATE_DIR/$DEV.policy" "$NP_TMP/policy"
	[ ! -e "$STATE_DIR/$DEV.sysctl" ]
}

# The watchdogs of pending --confirm TOKEN, by their pids (not the awk
# whose own command line has the token).
watchdogs_of() {
	ps -eo pid=,comm=,args= | awk -v t="__revert $1 " '$2 != "awk" && index($0 " ", t) { print $1 }'
}

@test "the state directory emptied while a --confirm is pending: the watchdog reverts from its own copy" {
	cp "$MODEL" "$NP_TMP/before"
	npsim "$DEV" set latency --confirm 4 >/dev/null
	! cmp -s "$MODEL" "$NP_TMP/before" || false
	rm -f "$STATE_DIR"/*
	local i
	for ((i = 0; i < 200; i++)); do
		cmp -s "$MODEL" "$NP_TMP/before" && break
		sleep 0.1
	done
	cmp "$MODEL" "$NP_TMP/before"
	[ ! -e "$STATE_DIR/$DEV.tentative" ] && [ ! -e "$STATE_DIR/$DEV.journal" ]
}

@test "a --confirm ended by confirm, reset or another set stops its watchdog: an emptied directory then reverts nothing" {
	cp "$MODEL" "$NP_TMP/pristine"
	for end in confirm reset "set cpu"; do
		cp "$NP_TMP/pristine" "$MODEL"
		rm -rf "$STATE_DIR"
		npsim "$DEV" set latency --confirm 4 >/dev/null
		token=$(jq .token "$STATE_DIR/$DEV.tentative")
		[ -n "$(watchdogs_of "$token")" ]
		npsim "$DEV" $end >/dev/null
		cp "$MODEL" "$NP_TMP/ended"
		rm -f "$STATE_DIR"/*
		for ((i = 0; i < 50; i++)); do
			[ -z "$(watchdogs_of "$token")" ] && break
			sleep 0.1
		done
		[ -z "$(watchdogs_of "$token")" ] || { echo "$end: its watchdog still runs"; false; }
		cmp "$MODEL" "$NP_TMP/ended"
	done
}

# The watchdogs of this test's state directory still running (an exited one
# may wait as a zombie for a parent that does not reap: not running).
watchdogs() {
	ps -eo pid=,stat=,args= | awk -v d="$STATE_DIR" 'index($0, d) && /[_]_revert/ && $2 !~ /^Z/ { print $1 }'
}

# Wait (up to 5 s) until no watchdog of this state directory runs.
watchdogs_gone() {
	local i
	for ((i = 0; i < 50; i++)); do
		[ -z "$(watchdogs)" ] && return 0
		sleep 0.1
	done
	watchdogs
	return 1
}

@test "confirm, reset and a later set each end the pending watchdog: none outlives its change" {
	for end in confirm reset "set cpu" "set --confirm 60 cpu"; do
		npsim "$DEV" set latency --confirm 60 >/dev/null
		[ -n "$(watchdogs)" ]
		first=$(watchdogs)
		npsim "$DEV" $end >/dev/null
		if [ "$end" = "set --confirm 60 cpu" ]; then
			# the new change has its own watchdog; the first one ended
			for ((i = 0; i < 50; i++)); do
				[ "$(watchdogs)" != "$first" ] && break
				sleep 0.1
			done
			[ -n "$(watchdogs)" ] && [ "$(watchdogs)" != "$first" ]
			npsim "$DEV" confirm >/dev/null
		fi
		watchdogs_gone || { echo "after $end"; return 1; }
		npsim "$DEV" reset >/dev/null
	done
}

@test "confirm after the watchdog reverted at the deadline: exit 3, too late; once, and not after a later set" {
	cp "$MODEL" "$NP_TMP/before"
	npsim "$DEV" set latency --confirm 4 >/dev/null
	reverted
	cmp "$MODEL" "$NP_TMP/before"
	# it said "no tentative change to confirm", exit 1, as if never asked
	run npsim "$DEV" confirm
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"too late: the deadline passed"* ]]
	cmp "$MODEL" "$NP_TMP/before"
	run npsim "$DEV" confirm			# said once
	[ "$status" -eq 1 ]
	[[ "$output" == *"no tentative change to confirm"* ]]

	# a set after the revert starts anew: nothing was late for it
	npsim "$DEV" set latency --confirm 4 >/dev/null
	reverted
	npsim "$DEV" set cpu >/dev/null
	run npsim "$DEV" confirm
	[ "$status" -eq 1 ]
	[[ "$output" == *"no tentative change to confirm"* ]]
	npsim "$DEV" reset >/dev/null
	[ -z "$(ls "$STATE_DIR" | grep -v '\.lock$')" ]
}
