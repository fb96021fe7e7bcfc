#!/usr/bin/env bats
# NAPI through the real kernel's netdev generic netlink family (netdev.yaml:
# napi-get, queue-get, napi-set) on a veth pair in a private namespace.  veth
# has NAPI instances only with GRO/XDP or threaded NAPI (drivers/net/veth.c
# veth_napi_add / veth_set_threaded): threaded mode gives each rx queue a
# NAPI and a kthread "napi/<ifname>-<napi id>" (Documentation/networking/
# napi.rst, "Threaded NAPI").

load ../helpers

setup() { np_veth_setup 2; }

teardown() { np_veth_teardown; }

# napi-get exists since 6.8; the kernel here is checked, not assumed
needs_napi_get() {
	local v
	v=$(uname -r | awk -F. '{ printf "%d%03d", $1, $2 }')
	[ "$v" -ge 6008 ] || skip "kernel $(uname -r) has no napi-get"
}

@test "napi: a veth without GRO, XDP or threads has no NAPI instance" {
	needs_napi_get
	run npns --json v0 show
	[ "$status" -eq 0 ]
	[ "$(jq -c .napis <<<"$output")" = "[]" ]
	[ "$(jq -r .napi.threaded <<<"$output")" = 0 ]
}

# veth makes its NAPIs when GRO goes on (drivers/net/veth.c veth_set_features());
# threaded on a veth without them: EOPNOTSUPP (dev_set_threaded)
# Its kthreads are the napi/v0-* that appear: other namespaces may have a v0.
veth_threaded() {
	pgrep '^napi/v0-' | sort >"$NP_TMP/others" || true
	ip netns exec "$NS" ethtool -K v0 gro on
	ip netns exec "$NS" sh -c 'echo 1 > /sys/class/net/v0/threaded'
	pgrep '^napi/v0-' | sort | comm -13 "$NP_TMP/others" - >"$NP_TMP/ours"
}

@test "napi: threaded NAPI: every instance with its kthread, as /proc names it" {
	needs_napi_get
	veth_threaded
	run npns --json v0 show
	[ "$status" -eq 0 ]
	echo "$output" >"$NP_TMP/show.json"
	[ "$(jq -r .napi.threaded "$NP_TMP/show.json")" = 1 ]
	# one NAPI per rx queue (veth_napi_add_range)
	[ "$(jq '.napis | length' "$NP_TMP/show.json")" = 2 ]
	for row in $(jq -r '.napis[] | "\(.id):\(.pid)"' "$NP_TMP/show.json"); do
		id=${row%%:*} pid=${row#*:}
		[ "$pid" != null ]
		[ "$(cat "/proc/$pid/comm")" = "napi/v0-$id" ]
		grep -qx "$pid" "$NP_TMP/ours"
	done
	# veth's NAPIs have no IRQ
	[ "$(jq '[.napis[] | select(.irq != null)] | length' "$NP_TMP/show.json")" = 0 ]
	# the text says the same
	run npns v0 show
	# long lines wrap at 80 columns: compare with the wraps undone
	flat=$(tr -s ' \n' '  ' <<<"$output")
	[[ "$flat" == *"threaded (NAPI kthreads)"* ]]
	[[ "$flat" == *"2 NAPI instances, per-NAPI config settable (napi-set), 2 kthreads"* ]]
}

# "comm cpulist" of this namespace's v0 NAPI kthreads (a channel change
# ends and starts threads: the ones now there that no other v0 has)
napi_threads() {
	local p
	for p in $(pgrep '^napi/v0-' | sort | comm -13 "$NP_TMP/others" -); do
		printf '%s %s\n' "$(cat /proc/$p/comm)" \
			"$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/$p/status)"
	done | sort
}

@test "napi threads: set moves them with the policy's CPUs, check agrees, reset puts them back" {
	needs_napi_get
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	veth_threaded
	before=$(napi_threads)
	[ "$(wc -l <<<"$before")" = 2 ]
	run npns --json v0 set latency --cpus 1
	[ "$status" -eq 0 ]
	[ "$(jq '[.steps[] | select(.knob == "napi-threads")] | length' <<<"$output")" -ge 1 ]
	# veth's NAPIs have no IRQ: the threads go to the policy's queue CPUs
	[ "$(napi_threads | awk '{ print $2 }' | sort -u)" = 1 ]
	run npns v0 check
	[ "$status" -eq 0 ]
	run npns v0 reset
	[ "$status" -eq 0 ]
	[ "$(napi_threads)" = "$before" ]
}

@test "napi threads: killed right after placing them, the next command rolls them back" {
	needs_napi_get
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	veth_threaded
	before=$(napi_threads)
	run npns --json v0 set latency --cpus 1 --dry-run
	k=$(jq '[.steps[].knob] | index("napi-threads")' <<<"$output")
	[ "$k" != null ]
	NETPOLICY_TEST_STOP_AFTER_STEP=$((k + 1)) ip netns exec "$NS" "$NETPOLICY_TEST_BIN" \
		--state-dir "$STATE_DIR" v0 set latency --cpus 1 2>/dev/null &
	PID=$!
	wait_stopped "$PID"
	kill -9 "$PID"; wait "$PID" 2>/dev/null || true; PID=
	[ "$(napi_threads)" != "$before" ]
	run npns v0 reset
	[ "$status" -eq 0 ]
	[[ "$output" == *"rolled back an interrupted earlier run"* ]]
	[ "$(napi_threads)" = "$before" ]
}

napi_get() {	# "id defer-hard-irqs gro-flush-timeout" per NAPI of v0, from the kernel
	ip netns exec "$NS" python3 "$BATS_TEST_DIRNAME/napi_get.py" \
		"$(ip netns exec "$NS" cat /sys/class/net/v0/ifindex)"
}

@test "napi config: cpu's deferral goes to each NAPI with napi-set, sysfs untouched; reset" {
	needs_napi_get
	command -v python3 >/dev/null || skip "python3 not installed"
	ip netns exec "$NS" ethtool -K v0 gro on
	before=$(napi_get)
	[ -n "$before" ]
	[ "$(awk '{ print $2 }' <<<"$before" | sort -u)" != - ] || skip "no per-NAPI config (6.13)"
	run npns v0 set cpu
	[ "$status" -eq 0 ]
	[[ "$output" == *"set on each of"*"NAPI instances (napi-set"* ]]
	# every NAPI the device has now, as the kernel reports it
	[ "$(napi_get | awk '{ print $2, $3 }' | sort -u)" = "2 200000" ]
	# the device-wide files keep their values (a write would set every NAPI)
	[ "$(ip netns exec "$NS" cat /sys/class/net/v0/napi_defer_hard_irqs)" = 0 ]
	[ "$(ip netns exec "$NS" cat /sys/class/net/v0/gro_flush_timeout)" = 0 ]
	run npns v0 check
	[ "$status" -eq 0 ]
	run npns v0 reset
	[ "$status" -eq 0 ]
	[ "$(napi_get | awk '{ print $2, $3 }' | sort -u)" = "0 0" ]
}
