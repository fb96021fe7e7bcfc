#!/usr/bin/env bats
# Other-owner detection costs the same whatever the machine runs: each
# service is found by what it publishes under /run (irqbalance's socket,
# NetworkManager's and tuned's pid files) and the one process named there,
# whose comm is read once per command; /proc is never walked.  Services
# are copies of sleep under the services' names; /run is a tmpfs in the
# command's private mount namespace (the host's is not touched).

load ../helpers

setup() {
	np_veth_setup 4
	mkdir -p "$NP_TMP/bin" "$NP_TMP/run/irqbalance" "$NP_TMP/run/NetworkManager" \
		"$NP_TMP/run/tuned"
	PIDS=()
	for s in irqbalance NetworkManager tuned; do
		cp /bin/sleep "$NP_TMP/bin/$s"
		"$NP_TMP/bin/$s" 600 &
		PIDS+=($!)
	done
	IB=${PIDS[0]} NMP=${PIDS[1]} TD=${PIDS[2]}
	# each running as its service (exec'd) before a test stops it: on a
	# loaded machine test 3's kill of a copy just started did not end it,
	# and its `wait` waited for the sleep's 600 s
	local i n=0
	for s in irqbalance NetworkManager tuned; do
		for ((i = 0; i < 500; i++)); do
			[ "$(cat "/proc/${PIDS[n]}/comm")" != "$s" ] || break
			sleep 0.01
		done
		n=$((n + 1))
	done
	touch "$NP_TMP/run/irqbalance/irqbalance$IB.sock"
	echo "$NMP" >"$NP_TMP/run/NetworkManager/NetworkManager.pid"
	echo "$TD" >"$NP_TMP/run/tuned/tuned.pid"
	TRACE=$NP_TMP/trace
}

teardown() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	np_veth_teardown
}

# traced ARGS...: netpolicy ARGS in the namespace, with $NP_TMP/run as its
# /run, its opens and directory reads in $TRACE.  LeakSanitizer cannot run
# under ptrace: leaks are checked by every other test.
traced() {
	ASAN_OPTIONS=detect_leaks=0 TRACE=$TRACE ip netns exec "$NS" unshare -m sh -c '
		mount -t tmpfs np-run /run && cp -a "$0"/. /run/ &&
		exec strace -f -e trace=open,openat,getdents64 -o "$TRACE" "$@"' \
		"$NP_TMP/run" "$NETPOLICY" --state-dir "$STATE_DIR" "$@"
}

# No read of /proc's directory, no process's files but the services', and
# each service's at most $1 times (1: found, 0: not looked for).
proc_opens() {
	! grep -E '"/proc/?"' "$TRACE" || false
	! grep -oE '"/proc/[0-9]+/[^"]*"' "$TRACE" | grep -vE "^\"/proc/($IB|$NMP|$TD)/comm\"$" || false
	for p in "$IB" "$NMP" "$TD"; do
		[ "$(grep -c "\"/proc/$p/" "$TRACE")" -eq "$1" ]
	done
}

@test "show and metrics: each service's process read once, /proc never walked, whatever the devices" {
	run traced --json v0 show
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.other_owners[] | .owner + " " + .source]' <<<"$output")" = "[\"irqbalance pid $IB\"]" ]
	proc_opens 1
	# every device of the namespace (v0, v1, lo): still once
	run traced metrics
	[ "$status" -eq 0 ]
	grep -q "^netpolicy_other_owner{device=\"v1\",owner=\"irqbalance\",source=\"pid $IB\"" <<<"$output"
	grep -q "^netpolicy_other_owner{device=\"v0\",owner=\"irqbalance\",source=\"pid $IB\"" <<<"$output"
	proc_opens 1
}

@test "set looks once; reset and a quiet dry run do not look" {
	run traced v0 set throughput
	[ "$status" -eq 0 ]
	proc_opens 1
	run traced --quiet v0 set latency --dry-run
	[ "$status" -eq 0 ]
	proc_opens 0
	run traced v0 reset
	[ "$status" -eq 0 ]
	proc_opens 0
	! grep -q '"/run/irqbalance"' "$TRACE" || false
}

@test "services that are gone: a stale pid file or socket names no process" {
	for p in "${PIDS[@]}"; do kill "$p"; wait "$p" 2>/dev/null || true; done
	run traced --json v0 show
	[ "$status" -eq 0 ]
	[ "$(jq -c .other_owners <<<"$output")" = '[]' ]
	proc_opens 1
}
