#!/usr/bin/env bats
# SIGKILL at every bookkeeping step of set and reset (strace kills the
# process on entry to the Nth renameat, unlinkat or fdatasync: every state
# file replaced or removed, every journal mark made durable), on the
# simulated backend.  After each kill the device is as it was or at the
# target, and the next commands repair the rest: a clean set reaches the
# target and check agrees, no temp file is left, and reset returns the
# device exactly to its state before netpolicy (the records, machine-wide
# sysctl needs included, survived the kill).

load ../helpers

setup() {
	command -v strace >/dev/null || skip "strace not installed"
	np_tmpdir
	# the latency plan raises the machine-wide rps_sock_flow_entries
	np_sim_pristine_target virtio-4q latency
}

teardown() {
	np_kill_watchdogs
	np_cleanup_tmp
}

same() { cmp -s "$MODEL" "$1"; }

@test "set: SIGKILL at every bookkeeping step, then the next commands repair everything" {
	for sc in renameat unlinkat fdatasync; do
		k=$(np_count_calls "$sc" "${NP[@]}" "$DEV" set latency)
		"${NP[@]}" "$DEV" reset >/dev/null
		[ "$k" -ge 1 ]
		for ((n = 1; n <= k; n++)); do
			at="set, $sc #$n"
			np_killed_at "$sc" "$n" "${NP[@]}" "$DEV" set latency
			# half-way only with the journal that lets the next command roll back
			same "$NP_TMP/pristine" || same "$NP_TMP/target" ||
				[ -e "$STATE_DIR/$DEV.journal" ] || np_kill_fail "$at" "device mixed, no journal"
			"${NP[@]}" "$DEV" set latency >/dev/null 2>"$NP_TMP/kill.err" ||
				np_kill_fail "$at" "the next set failed"
			same "$NP_TMP/target" || np_kill_fail "$at" "the next set did not reach the target"
			! ls -A "$STATE_DIR" | grep -q '\.tmp$' || np_kill_fail "$at" "temp file left"
			"${NP[@]}" "$DEV" check >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "check fails"
			"${NP[@]}" "$DEV" reset >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "reset failed"
			same "$NP_TMP/pristine" || np_kill_fail "$at" "reset did not restore the device exactly"
			[ -z "$(ls -A "$STATE_DIR" | grep -v '\.lock$')" ] || np_kill_fail "$at" "records left after reset"
		done
	done
}

@test "reset: SIGKILL at every bookkeeping step, then the next reset completes it" {
	"${NP[@]}" "$DEV" set latency >/dev/null
	for sc in renameat unlinkat fdatasync; do
		k=$(np_count_calls "$sc" "${NP[@]}" "$DEV" reset)
		"${NP[@]}" "$DEV" set latency >/dev/null
		for ((n = 1; n <= k; n++)); do
			at="reset, $sc #$n"
			np_killed_at "$sc" "$n" "${NP[@]}" "$DEV" reset
			# half-way only with the journal that lets the next command roll back
			same "$NP_TMP/pristine" || same "$NP_TMP/target" ||
				[ -e "$STATE_DIR/$DEV.journal" ] || np_kill_fail "$at" "device mixed, no journal"
			"${NP[@]}" "$DEV" reset >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "the next reset failed"
			same "$NP_TMP/pristine" || np_kill_fail "$at" "the next reset did not restore the device"
			[ -z "$(ls -A "$STATE_DIR" | grep -v '\.lock$')" ] || np_kill_fail "$at" "records left after reset"
			"${NP[@]}" "$DEV" set latency >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "set failed"
			same "$NP_TMP/target" || np_kill_fail "$at" "set did not reach the target"
		done
	done
}

@test "set --confirm: SIGKILL at every bookkeeping step, then the next commands leave no stale marker" {
	for sc in renameat unlinkat fdatasync; do
		k=$(NP_STRACE_FOLLOW= np_count_calls "$sc" "${NP[@]}" "$DEV" set latency --confirm 600)
		np_kill_watchdogs
		"${NP[@]}" "$DEV" reset >/dev/null
		[ "$k" -ge 1 ]
		for ((n = 1; n <= k; n++)); do
			at="set --confirm, $sc #$n"
			NP_STRACE_FOLLOW= np_killed_at "$sc" "$n" "${NP[@]}" "$DEV" set latency --confirm 600
			np_kill_watchdogs
			same "$NP_TMP/pristine" || same "$NP_TMP/target" ||
				[ -e "$STATE_DIR/$DEV.journal" ] || np_kill_fail "$at" "device mixed, no journal"
			# a marker only for a change that is there to confirm
			if [ -e "$STATE_DIR/$DEV.tentative" ] && [ ! -e "$STATE_DIR/$DEV.journal" ]; then
				same "$NP_TMP/target" || np_kill_fail "$at" "a marker for a change that is not there"
			fi
			# a plain set keeps its change: it ends whatever confirm is pending
			"${NP[@]}" "$DEV" set latency >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "the next set failed"
			same "$NP_TMP/target" || np_kill_fail "$at" "the next set did not reach the target"
			[ ! -e "$STATE_DIR/$DEV.tentative" ] || np_kill_fail "$at" "a stale tentative marker survived set"
			! ls -A "$STATE_DIR" | grep -q '\.tmp$' || np_kill_fail "$at" "temp file left"
			run "${NP[@]}" "$DEV" confirm
			[ "$status" -ne 0 ] || np_kill_fail "$at" "confirm found a change to confirm after a plain set"
			"${NP[@]}" "$DEV" reset >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "reset failed"
			same "$NP_TMP/pristine" || np_kill_fail "$at" "reset did not restore the device exactly"
			[ -z "$(ls -A "$STATE_DIR" | grep -v '\.lock$')" ] || np_kill_fail "$at" "records left after reset"
		done
	done
}
