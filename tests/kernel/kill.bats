#!/usr/bin/env bats
# tests/cli/kill.bats on a real device: SIGKILL (strace) on entry to each
# renameat, unlinkat and fdatasync of set, reset and set --confirm (every
# state file replaced or removed, every journal mark made durable), and to
# each write and sendto of set and set --confirm (every sysfs write and
# every ethtool netlink request, the settings among them), on a veth pair
# in a private namespace.  After each kill the device is as it
# was, at the target, or half-way with the journal the next command rolls
# back from; the next commands reach the target with records that agree
# (check), leave no temp file and no stale tentative marker, and reset
# returns the device exactly to its state before netpolicy.

load ../helpers

setup() {
	command -v strace >/dev/null || skip "strace not installed"
	np_veth_pristine_target 8 throughput
}

teardown() {
	np_kill_watchdogs
	np_veth_teardown
}

# How often a clean run of netpolicy "$@" (in the namespace) makes system
# call $1; not following children (the --confirm watchdog).
count_calls() {
	local sc=$1
	shift
	ip netns exec "$NS" env "$NP_NO_LSAN" strace -qq -o "$NP_TMP/trace" -e trace="$sc" \
		"$NETPOLICY" --state-dir "$STATE_DIR" "$@" >/dev/null 2>&1
	grep -c "^$sc(" "$NP_TMP/trace" || true
}

killed_at() {
	local sc=$1 n=$2
	shift 2
	# in a subshell whose stderr takes the shell's "Killed"
	(ip netns exec "$NS" env "$NP_NO_LSAN" strace -qq -o /dev/null -e trace="$sc" \
		-e inject="$sc":signal=KILL:when="$n" \
		"$NETPOLICY" --state-dir "$STATE_DIR" "$@" >/dev/null 2>"$NP_TMP/kill.err") 2>/dev/null || true
}

now_is() { [ "$(veth_snapshot)" = "$1" ]; }

# After a kill: as it was, at the target, or a journal; then the next
# commands repair everything.
after_kill() {
	local at=$1
	now_is "$BEFORE" || now_is "$TARGET" ||
		[ -e "$(np_rec v0 journal)" ] || np_kill_fail "$at" "device mixed, no journal"
	npns v0 set throughput >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "the next set failed"
	now_is "$TARGET" || np_kill_fail "$at" "the next set did not reach the target"
	[ ! -e "$(np_rec v0 tentative)" ] || np_kill_fail "$at" "a stale tentative marker survived set"
	! ls -A "$STATE_DIR" | grep -q '\.tmp$' || np_kill_fail "$at" "temp file left"
	npns v0 check >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "check fails"
	npns v0 reset >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "reset failed"
	now_is "$BEFORE" || np_kill_fail "$at" "reset did not restore the device exactly"
	[ -z "$(ls -A "$STATE_DIR" | grep -v '\.lock$')" ] || np_kill_fail "$at" "records left after reset"
}

sweep() {	# sweep PREPARE "SYSCALLS" WORDS...: kill "WORDS" at each call
	local prepare=$1 calls=$2 sc k n
	shift 2
	for sc in $calls; do
		$prepare
		k=$(count_calls "$sc" v0 "$@")
		np_kill_watchdogs
		npns v0 reset >/dev/null
		# every run replaces a state file and makes a journal mark durable
		[ "$k" -ge 1 ] || { [ "$sc" != renameat ] && [ "$sc" != fdatasync ]; }
		for ((n = 1; n <= k; n++)); do
			$prepare
			killed_at "$sc" "$n" v0 "$@"
			np_kill_watchdogs
			after_kill "$* , $sc #$n of $k"
		done
		echo "# $*: $sc: $k kills" >&3
	done
}

nothing() { :; }
set_first() { npns v0 set throughput >/dev/null; }

@test "veth set: SIGKILL at every bookkeeping step, then the next commands repair everything" {
	sweep nothing "renameat unlinkat fdatasync write sendto" set throughput
}

@test "veth reset: SIGKILL at every bookkeeping step, then the next commands repair everything" {
	sweep set_first "renameat unlinkat fdatasync" reset
}

@test "veth set --confirm: SIGKILL at every bookkeeping step, no stale marker after the next set" {
	sweep nothing "renameat unlinkat fdatasync write sendto" set throughput --confirm 600
}
