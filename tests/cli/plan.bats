#!/usr/bin/env bats
# netpolicy plan: every device of a configuration file to its policy, against
# a simulated machine with two NICs (ixgbe-16cpu's machine with its 82599 and
# virtio-4q's virtio_net added).

load ../helpers

setup() {
	np_tmpdir
	# --model takes one file: merge the device arrays, topology from ixgbe
	jq -s '.[0] * {devices: (.[0].devices + (.[1].devices | map(.ifindex = 3)))}' \
		"$FIXTURES/models/ixgbe-16cpu.json" "$FIXTURES/models/virtio-4q.json" >"$NP_TMP/two.json"
	MODEL=$NP_TMP/two.json
	CONF=$NP_TMP/netpolicy.conf
	cat >"$CONF" <<-EOF
	# two NICs
	[enp3s0f0]
	policy = throughput
	cpus = 0-7     # the first package's threads 0

	[enp0s3]
	policy = latency
	EOF
}
teardown() { np_cleanup_tmp; }

@test "the two-NIC model has both devices" {
	run npsim --json show
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.devices[].ifname]' <<<"$output")" = '["enp3s0f0","enp0s3"]' ]
}

@test "plan --dry-run: prints each device's plan, changes nothing" {
	cp "$MODEL" "$NP_TMP/orig.json"
	run npsim plan --config "$CONF" --dry-run
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "enp3s0f0: throughput: would change "*" values in "*" steps" ]]
	[[ "$output" == *$'\n'"enp0s3: latency: would change "*" values in "*" steps"* ]]
	run npsim --json plan --config "$CONF" --dry-run
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.dry_run, .changed, (.devices | length)]' <<<"$output")" = '[true,false,2]' ]
	[ "$(jq -c '[.devices[] | [.ifname, .policy, .dry_run, .changed, .exit, (.steps | length > 0)]]' <<<"$output")" = \
	  '[["enp3s0f0","throughput",true,false,0,true],["enp0s3","latency",true,false,0,true]]' ]
	cmp "$MODEL" "$NP_TMP/orig.json"
	[ ! -e "$STATE_DIR" ]
}

@test "plan prints each device as set does, text and JSON" {
	npsim enp3s0f0 set throughput --cpus 0-7 --dry-run >"$NP_TMP/want.txt"
	npsim enp0s3 set latency --dry-run >>"$NP_TMP/want.txt"
	npsim plan --config "$CONF" --dry-run >"$NP_TMP/got.txt"
	diff -u "$NP_TMP/want.txt" "$NP_TMP/got.txt"

	# the schema version is the document's, once at its top
	npsim --json enp3s0f0 set throughput --cpus 0-7 --dry-run | jq -S 'del(.schema)' >"$NP_TMP/want0.json"
	npsim --json plan --config "$CONF" --dry-run >"$NP_TMP/got.json"
	jq -S '.devices[0] | del(.exit)' "$NP_TMP/got.json" | diff -u "$NP_TMP/want0.json" -
	npsim --json enp0s3 set latency --dry-run | jq -S 'del(.schema)' >"$NP_TMP/want1.json"
	jq -S '.devices[1] | del(.exit)' "$NP_TMP/got.json" | diff -u "$NP_TMP/want1.json" -
}

@test "plan applies every device; a second plan changes nothing" {
	run npsim --json plan --config "$CONF"
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = true ]
	[ "$(jq -c '[.devices[] | [.ifname, .changed, .exit, .rolled_back]]' <<<"$output")" = \
	  '[["enp3s0f0",true,0,false],["enp0s3",true,0,false]]' ]
	# each device now matches its configured policy and CPUs
	run npsim enp3s0f0 check
	[ "$status" -eq 0 ]
	[[ "$output" == "enp3s0f0: matches policy throughput" ]]
	run npsim enp3s0f0 check throughput --cpus 0-7
	[ "$status" -eq 0 ]
	run npsim enp0s3 check
	[ "$status" -eq 0 ]
	[[ "$output" == "enp0s3: matches policy latency" ]]
	# one queue per configured CPU, each queue's IRQ on its own CPU
	run npsim --json enp3s0f0 show
	[ "$(jq .channels.combined <<<"$output")" = 8 ]
	[ "$(jq -r '[.irqs[] | select(.queue != null and .queue < 8) | .affinity] | sort | join(" ")' \
	     <<<"$output")" = "0 1 2 3 4 5 6 7" ]

	run npsim --json plan --config "$CONF"
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = false ]
	[ "$(jq -c '[.devices[] | [.changed, .writes, .exit]]' <<<"$output")" = '[[false,0,0],[false,0,0]]' ]
	run npsim plan --config "$CONF"
	[ "$status" -eq 0 ]
	[ "$output" = $'enp3s0f0: throughput: no changes\nenp0s3: latency: no changes' ]
}

@test "a missing device is reported; the others are still done (exit 8: some changed, one failed)" {
	cat >"$CONF" <<-EOF
	[enp3s0f0]
	policy = cpu
	[npnosuch0]
	policy = latency
	[enp0s3]
	policy = throughput
	EOF
	# exit 1 would say nothing was changed (netpolicy(8)): 8 says part was
	run npsim --json plan --config "$CONF"
	[ "$status" -eq 8 ]
	[[ "$output" == *"netpolicy: npnosuch0: no such device"* ]]
	# the second run changes nothing: the failure alone, exit 1
	run npsim --json plan --config "$CONF"
	[ "$status" -eq 1 ]
	npsim --json plan --config "$CONF" 2>/dev/null >"$NP_TMP/out.json" || true
	[ "$(jq .changed "$NP_TMP/out.json")" = false ]	# the first run changed them
	[ "$(jq -c '[.devices[] | [.ifname, .exit]]' "$NP_TMP/out.json")" = \
	  '[["enp3s0f0",0],["npnosuch0",1],["enp0s3",0]]' ]
	[ "$(jq -r '.devices[1].error' "$NP_TMP/out.json")" = "no such device" ]
	run npsim enp3s0f0 check
	[ "$status" -eq 0 ]
	run npsim enp0s3 check
	[ "$status" -eq 0 ]
	run npsim enp0s3 check throughput
	[ "$status" -eq 0 ]
}

@test "an apply that fails on one device: rolled back there, the other done (exit 8)" {
	jq '.faults = [{"op": "set_channels", "errno": "ENOBUFS", "extack": "injected", "device": "enp3s0f0"}]' \
		"$MODEL" >"$NP_TMP/f.json" && mv "$NP_TMP/f.json" "$MODEL"
	# the global sysctls belong to both devices: enp0s3's apply changes them
	dev_state() { npsim --json enp3s0f0 show | jq -S 'del(.policy, .policy_cpus, .drift, .sysctl)'; }
	before=$(dev_state)
	# exit 3 would say the device(s) are as they were: enp0s3 changed
	run npsim plan --config "$CONF"
	[ "$status" -eq 8 ]
	[[ "$output" == *"netpolicy: enp3s0f0: step "*": channels: "*"injected"*"rolled back, the device is as it was"* ]]
	[[ "$output" == *"enp0s3: latency: "* ]]
	[ "$(dev_state)" = "$before" ]
	run npsim enp0s3 check
	[ "$status" -eq 0 ]
	# the fault fired once: now the whole configuration applies
	run npsim --json plan --config "$CONF"
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.devices[].changed]' <<<"$output")" = '[true,false]' ]
}

@test "malformed configuration: exit 2, one line naming FILE:LINE, nothing done" {
	cp "$MODEL" "$NP_TMP/orig.json"
	check_bad() {	# check_bad TEXT LINE MESSAGE
		printf '%b' "$1" >"$NP_TMP/bad.conf"
		run npsim --json plan --config "$NP_TMP/bad.conf"
		[ "$status" -eq 2 ] || { echo "exit $status for: $1"; return 1; }
		[ "${#lines[@]}" -eq 1 ] || { echo "not one line: $output"; return 1; }
		[ "$output" = "netpolicy: $NP_TMP/bad.conf:$2: $3" ] || { echo "got: $output"; return 1; }
	}
	check_bad '[enp0s3]\npolicy = cpu\nqueues = 4\n' 3 "unknown key 'queues' (valid: policy, cpus, flow, default-class, weight)"
	check_bad '[enp0s3]\npolicy = fast\n' 2 "unknown policy 'fast' (valid: cpu, latency, busy-poll, throughput, mixed)"
	check_bad '[enp0s3]\ncpus = 0-1\n' 1 "[enp0s3]: no policy (add 'policy = NAME')"
	check_bad '[enp0s3]\npolicy = cpu\n\n[enp0s3]\npolicy = cpu\n' 4 "duplicate section [enp0s3] (first at line 1)"
	check_bad '[enp0s3]\npolicy = cpu\ncpus = 0..3\n' 3 "cpus: '0..3' is not a CPU list (like 0-3,8)"
	check_bad '[../etc]\npolicy = cpu\n' 1 "invalid device name '../etc'"
	# an error late in the file: the devices before it are not touched either
	check_bad '[enp3s0f0]\npolicy = cpu\n[enp0s3]\npolicy = cpu\nbogus\n' 5 \
		"expected 'KEY = VALUE' or '[DEVICE]', got 'bogus'"
	cmp "$MODEL" "$NP_TMP/orig.json"
	[ ! -e "$STATE_DIR" ]
}

@test "a missing configuration file is a usage error (exit 2) naming it" {
	run npsim plan --config "$NP_TMP/none.conf"
	[ "$status" -eq 2 ]
	[ "$output" = "netpolicy: $NP_TMP/none.conf: No such file or directory" ]
}

@test "without --config, plan reads /etc/netpolicy/netpolicy.conf" {
	[ ! -e "$NP_CONFDIR/netpolicy.conf" ] || skip "this machine has an $NP_CONFDIR/netpolicy.conf"
	run npsim plan
	[ "$status" -eq 2 ]
	[[ "$output" == "netpolicy: no $NP_CONFDIR/netpolicy.conf: write it ("* ]]
	[ "$(wc -l <<<"$output")" -eq 1 ]
}

@test "CPUs the machine does not have are found before any device is changed" {
	printf '[enp0s3]\npolicy = cpu\n[enp3s0f0]\npolicy = cpu\ncpus = 8-31\n' >"$CONF"
	cp "$MODEL" "$NP_TMP/orig.json"
	run npsim --json plan --config "$CONF"
	[ "$status" -eq 2 ]	# found before any device was changed: not 8
	[[ "$output" == *"netpolicy: enp3s0f0: "*"CPU 16-31 not online"* ]]
	[[ "$output" == *"$CONF: line 3; no device was changed"* ]]
	cmp "$MODEL" "$NP_TMP/orig.json"
}

@test "a cpus value too long for the policy record is refused with the file, not per device" {
	local long
	long=$(seq -s, 0 15 | sed 's/.*/&,&,&,&,&,&,&,&,&,&/')
	[ "${#long}" -gt 255 ]
	printf '[enp0s3]\npolicy = cpu\n[enp3s0f0]\npolicy = cpu\ncpus = %s\n' "$long" >"$CONF"
	cp "$MODEL" "$NP_TMP/orig.json"
	run npsim plan --config "$CONF"
	[ "$status" -eq 2 ]
	[[ "$output" == *"$CONF:5: cpus: longer than 255 characters"* ]]
	cmp "$MODEL" "$NP_TMP/orig.json"
}

@test "--config: /dev/zero and a FIFO are refused at once, a huge file by its size" {
	run timeout 20 "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" plan --config /dev/zero
	[ "$status" -eq 2 ]
	[[ "$output" == *"/dev/zero: not a regular file"* ]]
	mkfifo "$NP_TMP/fifo"
	run timeout 20 "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" plan --config "$NP_TMP/fifo"
	[ "$status" -eq 2 ]
	[[ "$output" == *"not a regular file"* ]]
	truncate -s 2M "$NP_TMP/big.conf"
	run npsim plan --config "$NP_TMP/big.conf"
	[ "$status" -eq 2 ]
	[[ "$output" == *"file too large"* ]]
}

@test "plan DEVICE: only that device" {
	run npsim --json plan --config "$CONF" enp0s3
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.changed, [.devices[].ifname]]' <<<"$output")" = '[true,["enp0s3"]]' ]
	run npsim enp3s0f0 check throughput --cpus 0-7
	[ "$status" -eq 5 ]
}

@test "plan DEVICE for a device not configured: nothing to do, exit 0" {
	cp "$MODEL" "$NP_TMP/orig.json"
	run npsim plan --config "$CONF" eth9
	[ "$status" -eq 0 ]
	[ "$output" = "netpolicy: eth9: not configured in $CONF; nothing to do" ]
	run npsim --quiet --json plan --config "$CONF" eth9
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.changed, .devices]' <<<"$output")" = '[false,[]]' ]
	cmp "$MODEL" "$NP_TMP/orig.json"
	run npsim plan --config "$CONF" ../x
	[ "$status" -eq 2 ]
	run npsim plan --config "$CONF" enp0s3 enp3s0f0
	[ "$status" -eq 2 ]
}

@test "plan refuses options it does not take; others refuse --config" {
	run npsim plan --config "$CONF" --cpus 0-3
	[ "$status" -eq 2 ]
	[[ "$output" == *"plan: option --cpus does not apply"* ]]
	run npsim enp0s3 set cpu --config "$CONF"
	[ "$status" -eq 2 ]
	[[ "$output" == *"set: option --config does not apply"* ]]
	run npsim enp0s3 plan --config "$CONF"
	[ "$status" -eq 2 ]
}

@test "a device whose earlier apply was interrupted is recovered first" {
	NETPOLICY_TEST_STOP_AFTER_STEP=1 "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" --model "$MODEL" \
		enp3s0f0 set cpu >/dev/null 2>&1 &
	pid=$!
	wait_stopped "$pid"
	kill -KILL "$pid"
	wait "$pid" || true
	[ -e "$STATE_DIR/enp3s0f0.journal" ]
	run npsim plan --config "$CONF"
	[ "$status" -eq 0 ]
	[[ "$output" == *"enp3s0f0: rolled back an interrupted earlier run"* ]]
	[ ! -e "$STATE_DIR/enp3s0f0.journal" ]
	run npsim enp3s0f0 check
	[ "$status" -eq 0 ]
}
