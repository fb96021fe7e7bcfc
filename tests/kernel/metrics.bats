#!/usr/bin/env bats
# netpolicy metrics on a veth pair in a private namespace, written where
# Debian's prometheus-node-exporter reads its textfile collector, and
# scraped from that exporter (started inside the namespace, on its own
# loopback): the policy, drift after another program's `ethtool -L`, and
# no textfile parse error.

load ../helpers

setup() {
	np_veth_setup 4
	EXPORTER=$(command -v prometheus-node-exporter || true)
	TEXTFILE=$NP_TMP/textfile
	mkdir -p "$TEXTFILE" "$STATE_DIR"
	EPID=
}

teardown() {
	[ -z "$EPID" ] || kill "$EPID" 2>/dev/null || true
	np_veth_teardown
}

start_exporter() {	# the exporter on the namespace's 127.0.0.1:PORT, textfile only
	[ -n "$EXPORTER" ] || skip "prometheus-node-exporter not installed"
	ip -n "$NS" link set lo up
	PORT=$((20000 + RANDOM % 20000))
	ip netns exec "$NS" "$EXPORTER" --web.listen-address="127.0.0.1:$PORT" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$TEXTFILE" >"$NP_TMP/exporter.log" 2>&1 &
	EPID=$!
	for _ in $(seq 50); do
		scrape >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	cat "$NP_TMP/exporter.log"
	return 1
}

scrape() {
	ip netns exec "$NS" python3 -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=5).read().decode())' "$PORT"
}

@test "metrics: a real node exporter scrapes the policy, then the drift another program made" {
	start_exporter
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	run npns metrics --output "$TEXTFILE/netpolicy.prom"
	[ "$status" -eq 0 ]
	out=$(scrape)
	grep -qx 'node_textfile_scrape_error 0' <<<"$out"
	grep -qx 'netpolicy_policy_info{cpus="",device="v0",policy="throughput"} 1' <<<"$out"
	grep -qx 'netpolicy_policy_matches{device="v0"} 1' <<<"$out"
	# v1, the peer, has no policy
	grep -qx 'netpolicy_policy_applied{device="v1"} 0' <<<"$out"

	# another program changes the channels: drift, counted for that knob
	ip netns exec "$NS" ethtool -L v0 rx 1 tx 1
	run npns metrics --output "$TEXTFILE/netpolicy.prom"
	[ "$status" -eq 0 ]
	out=$(scrape)
	grep -qx 'node_textfile_scrape_error 0' <<<"$out"
	grep -qx 'netpolicy_policy_matches{device="v0"} 0' <<<"$out"
	grep -q '^netpolicy_drift_settings{device="v0",knob="channels"} [1-9]' <<<"$out"
	if command -v promtool >/dev/null; then
		promtool check metrics <"$TEXTFILE/netpolicy.prom"
	fi
	# and back after reset: no policy, no record time
	npns v0 reset >/dev/null
	run npns v0 metrics
	[ "$status" -eq 0 ]
	grep -qx 'netpolicy_policy_applied{device="v0"} 0' <<<"$output"
	! grep -q '^netpolicy_policy_recorded_timestamp_seconds{' <<<"$output" || false
}

@test "metrics: a device name that is not UTF-8 leaves the file valid UTF-8, the byte replaced" {
	ip -n "$NS" link add $'h\xffi' type veth peer name $'h\xfei'
	run ip netns exec "$NS" "$NETPOLICY" --state-dir "$STATE_DIR" metrics
	echo "$output"
	[ "$status" -eq 0 ]
	# every byte of the output decodes as UTF-8; the device is still there
	python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8")' <<<"$output"
	[[ "$output" == *$'device="h\xef\xbf\xbdi"'* ]]
}
