#!/usr/bin/env bats
# A transient netlink socket error (strace makes the Nth sendto or recvmsg
# fail once with ENOBUFS, the receive queue overrun a netlink socket
# reports, without making the call: the request is not sent, or its reply
# stays queued) fails at most the request it hit.  Every later request of
# the command works, the rollback's first: the device ends exactly as it
# was (exit 1 or 3) or exactly at the target (exit 0), never half-way with
# "rollback INCOMPLETE" (exit 4).  On a veth pair in a private namespace;
# the ethtool generic netlink socket and the rtnetlink one both.

load ../helpers

setup() {
	command -v strace >/dev/null || skip "strace not installed"
	np_veth_pristine_target 8 throughput
}

teardown() { np_veth_teardown; }

# How often a clean `set throughput` makes system call $1.
count_calls() {
	ip netns exec "$NS" env "$NP_NO_LSAN" strace -f -qq -o "$NP_TMP/trace" -e trace="$1" \
		"$NETPOLICY" --state-dir "$STATE_DIR" v0 set throughput >/dev/null 2>&1
	npns v0 reset >/dev/null
	grep -c "^[0-9]* *$1(" "$NP_TMP/trace" || true
}

fail_at() {
	echo "$1: $2 (exit $RC)" >&2
	cat "$NP_TMP/err" >&2
	return 1
}

sweep() {
	local sc=$1 k n at
	k=$(count_calls "$sc")
	[ "$k" -ge 10 ]
	for ((n = 1; n <= k; n++)); do
		at="$sc #$n of $k"
		RC=0
		ip netns exec "$NS" env "$NP_NO_LSAN" strace -f -qq -o /dev/null -e trace="$sc" \
			-e inject="$sc":error=ENOBUFS:when="$n" \
			"$NETPOLICY" --state-dir "$STATE_DIR" v0 set throughput >/dev/null 2>"$NP_TMP/err" || RC=$?
		case $RC in
		0) [ "$(veth_snapshot)" = "$TARGET" ] || fail_at "$at" "exit 0 but not at the target" ;;
		1|3) [ "$(veth_snapshot)" = "$BEFORE" ] || fail_at "$at" "exit $RC but the device changed" ;;
		*) fail_at "$at" "one failed request failed the rest" ;;
		esac
		[ ! -e "$(np_rec v0 journal)" ] || fail_at "$at" "journal left"
		npns v0 reset >/dev/null 2>"$NP_TMP/err" || fail_at "$at" "the next reset failed"
		[ "$(veth_snapshot)" = "$BEFORE" ] || fail_at "$at" "reset did not restore the device"
	done
	echo "# $sc: $k calls failed in turn" >&3
}

@test "set: a one-shot error at any netlink receive fails no later request" {
	sweep recvmsg
}

@test "set: a one-shot error at any netlink send fails no later request" {
	sweep sendto
}
