#!/usr/bin/env bats
# DEVICE try on a veth pair in private network namespaces.  The workload
# tests/kernel/try_queues.sh prints the receive queues v0 has under each
# condition (baseline 8, cpu 1, latency 2), so the ranking is known and a
# harness that measured the wrong condition fails; iperf3 moves real
# traffic from v0's namespace to v1's.  After every outcome (success, a
# failed command, each of SIGINT/SIGTERM/SIGHUP, SIGKILL and the next
# command's recovery) the device is as it was, to the last sysfs file.

load ../helpers

WORK=$NP_SRCDIR/tests/kernel/try_queues.sh

setup() { np_veth_setup; }
teardown() {
	[ ! -s "${NP_TMP:-/nonexistent}/iperf3.pid" ] || kill "$(cat "$NP_TMP/iperf3.pid")" 2>/dev/null
	[ -z "${WORKPID:-}" ] || kill "$WORKPID" 2>/dev/null
	[ -z "${NS2:-}" ] || ip netns del "$NS2" 2>/dev/null
	np_veth_teardown
}

@test "try: the ranking the device's state makes, rotation, every run in JSON, restored exactly" {
	run npns -q --json v0 try cpu latency --rounds 5 --settle 0 --log "$NP_TMP/log" \
		--metric 'queues ([0-9]+)' -- "$WORK"
	[ "$status" -eq 0 ]
	doc=$output
	[ "$(veth_snapshot)" = "$BEFORE" ]
	[ ! -e "$(np_rec v0 journal)" ]
	[ "$(jq -c '[.conditions[].name]' <<<"$doc")" = '["baseline","cpu","latency"]' ]
	[ "$(jq -c '[.conditions[] | [.runs[].metric] | unique]' <<<"$doc")" = '[[8],[1],[2]]' ]
	# round r runs the conditions rotated by r-1
	[ "$(jq -c '[.conditions[0].runs[].position]' <<<"$doc")" = '[1,3,2,1,3]' ]
	[ "$(jq -r '.conditions[1].summary.metric.verdict' <<<"$doc")" = worse ]
	[ "$(jq -r '.conditions[2].summary.metric.ratio' <<<"$doc")" = 0.25 ]
	[ "$(jq .winner <<<"$doc")" = null ]
	[ "$(jq .changed <<<"$doc")" = false ]
	for m in wall_s child_cpu_s cpu_user_s cpu_system_s cpu_softirq_s rx_bytes tx_bytes \
		 rx_packets tx_packets drops errors cpu_s_per_gb; do
		[ "$(jq --arg m "$m" '[.conditions[].runs[] | .[$m] | type] | unique | .[]' <<<"$doc")" = '"number"' ]
		[ "$(jq --arg m "$m" '.conditions[1].summary[$m] | keys | length' <<<"$doc")" -eq 6 ]
	done
	[ "$(ls "$NP_TMP/log" | wc -l)" -eq 15 ]
	grep -qx 'queues 1' "$NP_TMP/log/01-cpu.log"
}

@test "try --keep best: the significant winner is applied as set, recorded, check passes" {
	run npns v0 try cpu latency --rounds 5 --settle 0 --metric 'queues ([0-9]+)' \
		--lower-is-better --keep best -- "$WORK"
	[ "$status" -eq 0 ]
	[[ $output == *"best: cpu (kept"* ]]
	[ "$(ip netns exec "$NS" ethtool -l v0 | sed -n '/Current/,$p' | awk '$1=="RX:"{print $2}')" = 1 ]
	run npns --json v0 show
	[ "$(jq -r .policy <<<"$output")" = cpu ]
	npns v0 check
	npns v0 reset
	[ "$(veth_snapshot)" = "$BEFORE" ]
	# with too few rounds to call it, nothing is kept
	run npns v0 try cpu --rounds 3 --settle 0 --metric 'queues ([0-9]+)' \
		--lower-is-better --keep best -- "$WORK"
	[ "$status" -eq 0 ]
	[[ $output == *"no policy beat the baseline measurably"* ]]
	[ "$(veth_snapshot)" = "$BEFORE" ]
}

@test "try: a failed command: exit 10, the baseline with its policy restored exactly" {
	npns v0 set latency
	base=$(veth_snapshot)
	run npns v0 try cpu --rounds 2 --settle 0 -- sh -c '[ "$(ls -d /sys/class/net/v0/queues/rx-* | wc -l)" != 1 ]'
	[ "$status" -eq 10 ]
	[[ $output == *"the command failed under cpu (round 1)"* ]]
	[ "$(veth_snapshot)" = "$base" ]
	npns v0 check
	[ ! -e "$(np_rec v0 journal)" ]
}

rx_queues() { ip netns exec "$NS" sh -c 'ls -d /sys/class/net/v0/queues/rx-* | wc -l'; }

try_signal() {	# try_signal SIG: the signal while the workload runs under cpu
	rm -f "$NP_TMP/running"
	ip netns exec "$NS" "$NETPOLICY" --state-dir "$STATE_DIR" v0 try cpu --rounds 2 --settle 0 \
		-- "$WORK" "$NP_TMP/running" 30 >"$NP_TMP/out" 2>&1 &
	PID=$!
	for ((i = 0; i < 200; i++)); do
		[ -e "$NP_TMP/running" ] && break
		sleep 0.1
	done
	[ -e "$NP_TMP/running" ]
	WORKPID=$(cat "$NP_TMP/running")
	[ "$(rx_queues)" -eq 1 ]
	kill -"$1" "$PID"
	wait "$PID" && status=0 || status=$?
	PID=
}

@test "try: SIGINT, SIGTERM and SIGHUP stop the workload, report the runs so far and restore the device (exit 3)" {
	for sig in INT TERM HUP; do
		try_signal "$sig"
		[ "$status" -eq 3 ] || { echo "$sig: exit $status"; cat "$NP_TMP/out"; false; }
		# the runs so far (cpu was stopped in its first), then the restore verified
		grep -q '^baseline  *1 ' "$NP_TMP/out"
		grep -q '^cpu  *0 .*not measured$' "$NP_TMP/out"
		grep -qx "stopped by SIG$sig: no policy is kept; the device is back at the baseline (verified)" "$NP_TMP/out"
		[ "$(veth_snapshot)" = "$BEFORE" ] || { echo "$sig: not restored"; false; }
		[ ! -e "$(np_rec v0 journal)" ]
		# the workload was stopped with it, not left behind
		! kill -0 "$WORKPID" 2>/dev/null || false
	done
}

@test "try: a device renamed during a run goes back to the baseline under its new name (exit 3)" {
	# the workload renames v0 to vx while it is under cpu (1 rx queue)
	run npns v0 try cpu --rounds 2 --settle 0 -- sh -c '[ ! -e /sys/class/net/v0 ] ||
		[ "$(ls -d /sys/class/net/v0/queues/rx-* | wc -l)" != 1 ] || ip link set v0 name vx'
	[ "$status" -eq 3 ] || { echo "exit $status: $output"; false; }
	[[ $output == *"renamed to vx during the run; returning it to the baseline there"* ]]
	[ ! -e "$(np_rec v0 journal)" ]
	ip -n "$NS" link set vx name v0
	[ "$(veth_snapshot)" = "$BEFORE" ]
}

@test "try: SIGKILL leaves a journal; the next command returns the device to the baseline" {
	npns v0 set latency
	base=$(veth_snapshot)
	try_signal KILL
	[ "$status" -eq 137 ]
	kill "$WORKPID" 2>/dev/null || true
	[ "$(veth_snapshot)" != "$base" ]
	[ -e "$(np_rec v0 journal)" ]
	run npns v0 set latency
	[ "$status" -eq 0 ]
	[[ $output == *"interrupted"* ]]
	[ "$(veth_snapshot)" = "$base" ]
	[ ! -e "$(np_rec v0 journal)" ]
	npns v0 check
}

@test "try with iperf3 from v0's namespace to v1's: bytes and CPU measured, restored" {
	command -v iperf3 >/dev/null || skip "iperf3 not installed"
	NS2=np-test2-$$-$RANDOM
	ip netns add "$NS2"
	ip -n "$NS" link set v1 netns "$NS2"
	ip -n "$NS" addr add 10.99.0.1/24 dev v0
	ip -n "$NS2" addr add 10.99.0.2/24 dev v1
	ip -n "$NS2" link set v1 up
	ip -n "$NS2" link set lo up
	ip netns exec "$NS2" iperf3 -s -D -I "$NP_TMP/iperf3.pid"
	sleep 0.5
	BEFORE=$(veth_snapshot)
	run npns -q --json v0 try throughput --rounds 2 --settle 0 \
		--metric '([0-9.]+) Gbits/sec.*receiver' -- iperf3 -c 10.99.0.2 -t 1 -f g
	kill "$(cat "$NP_TMP/iperf3.pid")" || true
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(veth_snapshot)" = "$BEFORE" ]
	[ "$(jq '[.conditions[].runs[].tx_bytes > 1000000] | all' <<<"$output")" = true ]
	[ "$(jq '[.conditions[].runs[].metric > 0] | all' <<<"$output")" = true ]
	[ "$(jq '[.conditions[].runs[].cpu_s_per_gb > 0] | all' <<<"$output")" = true ]
}
