#!/usr/bin/env bats
# set / reset / rollback / crash recovery / --confirm through the real
# kernel, on a veth pair with 8 queues in a private network namespace.

load ../helpers

setup() { np_veth_setup; }

# a test may leave a stopped netpolicy behind: np_veth_teardown kills it
teardown() { np_veth_teardown; }

@test "set throughput applies the plan: ethtool and sysfs show the planned values" {
	run npns --json v0 set throughput --dry-run
	[ "$status" -eq 0 ]
	plan=$output
	rx=$(jq -r '.steps[] | select(.knob=="channels") | .changes[] | select(.what=="rx") | .after' <<<"$plan")
	[ -n "$rx" ]
	[ "$(veth_snapshot)" = "$BEFORE" ]	# dry run changed nothing

	run npns --json v0 set throughput
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = true ]
	[ "$(ip netns exec "$NS" ethtool -l v0 | sed -n '/Current/,$p' | awk '$1=="RX:"{print $2}')" = "$rx" ]
	# every XPS change of the plan is in sysfs
	while read -r q cpus; do
		[ "$(hex2list "$(ip netns exec "$NS" cat /sys/class/net/v0/queues/$q/xps_cpus)")" = "${cpus/#-/}" ]
	done < <(jq -r '.steps[] | select(.knob=="xps") | .changes[] | "\(.what) \(.after)"' <<<"$plan")
	# and the device now matches its policy
	run npns v0 check
	[ "$status" -eq 0 ]
}

@test "a second set writes nothing: no changes, zero writes, no file opened for writing" {
	npns v0 set throughput
	# LeakSanitizer cannot run under ptrace: leaks are checked by every other test
	ASAN_OPTIONS=detect_leaks=0 run strace -f -e trace=openat -o "$NP_TMP/trace" ip netns exec "$NS" "$NETPOLICY" \
		--state-dir "$STATE_DIR" --json v0 set throughput
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = false ]
	[ "$(jq .writes <<<"$output")" = 0 ]
	! grep -E 'openat\(.*"/(sys|proc)/.*O_(WRONLY|RDWR)' "$NP_TMP/trace" | grep -v '"/proc/self/' || false
	run npns v0 set throughput
	[ "$output" = "v0: throughput: no changes" ]
}

@test "set reads the device once to plan and once to verify, on one socket of each kind" {
	run npns --json v0 set throughput --dry-run
	[ "$status" -eq 0 ]
	# the plan reopens queues: what that changes is read again, not the device
	[ "$(jq '[.steps[] | select(.knob=="channels")] | length' <<<"$output")" -ge 1 ]
	# strace inside the namespace: only netpolicy is traced, not ip
	ASAN_OPTIONS=detect_leaks=0 run ip netns exec "$NS" strace -f -e trace=socket,sendto,sendmsg,openat \
		-o "$NP_TMP/trace" "$NETPOLICY" --state-dir "$STATE_DIR" --json v0 set throughput
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = true ]
	# every discovery starts with one RTM_GETLINK; the re-read after the
	# channel change has none (ethtool channels, queue files, IRQs)
	[ "$(grep -c 'nlmsg_type=RTM_GETLINK' "$NP_TMP/trace")" -eq 2 ]
	# queue 0's files: before, after the channel change, to verify
	[ "$(grep -c '"rx-0/rps_cpus"' "$NP_TMP/trace")" -eq 3 ]
	[ "$(grep -c 'NETLINK_ROUTE) = ' "$NP_TMP/trace")" -eq 1 ]
	[ "$(grep -c 'NETLINK_GENERIC) = ' "$NP_TMP/trace")" -eq 1 ]
	# the ethtool and netdev families are resolved once each, the topology read once
	[ "$(grep -c 'nlmsg_type=nlctrl' "$NP_TMP/trace")" -eq 2 ]
	[ "$(grep -c '/cpu0/topology/core_id"' "$NP_TMP/trace")" -eq 1 ]

	# a no-op set: one read, the plan from it, nothing more
	ASAN_OPTIONS=detect_leaks=0 run ip netns exec "$NS" strace -f -e trace=sendmsg \
		-o "$NP_TMP/trace" "$NETPOLICY" --state-dir "$STATE_DIR" --json v0 set throughput
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = false ]
	[ "$(grep -c 'nlmsg_type=RTM_GETLINK' "$NP_TMP/trace")" -eq 1 ]
}

# opens of the device's snapshot and policy record in a trace (not the
# ENOENT of a missing one)
record_opens() {
	grep -E "openat\([0-9]+, \"v0@netns-[0-9]+-[0-9]+\.$1\"" "$NP_TMP/trace" | grep -vc ENOENT
}

@test "a managed device's records are read at most twice by show and by a no-op set" {
	npns v0 set throughput
	# whose namespace the records are is checked once per command, not at
	# each of its looks at them (each read and parsed every record: the
	# snapshot four times for show, twelve for a no-op set)
	for cmd in show "set throughput"; do
		# shellcheck disable=SC2086 # the command's words
		ASAN_OPTIONS=detect_leaks=0 run ip netns exec "$NS" strace -f -e trace=openat \
			-o "$NP_TMP/trace" "$NETPOLICY" --state-dir "$STATE_DIR" --json v0 $cmd
		[ "$status" -eq 0 ]
		# once to check whose it is, once to use it
		[ "$(record_opens pristine)" -le 2 ]
		[ "$(record_opens policy)" -le 4 ]
	done
}

@test "reset restores exactly what ethtool and sysfs showed before" {
	npns v0 set throughput
	[ "$(veth_snapshot)" != "$BEFORE" ]
	run npns --json v0 reset
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = true ]
	[ "$(veth_snapshot)" = "$BEFORE" ]
	# and the device is forgotten: a second reset does nothing
	run npns --json v0 reset
	[ "$(jq .changed <<<"$output")" = false ]
}

@test "switching policies, then reset, returns to the pristine state" {
	npns v0 set throughput
	npns v0 set cpu
	npns v0 set latency
	npns v0 reset
	[ "$(veth_snapshot)" = "$BEFORE" ]
}

@test "a write the kernel refuses mid-apply under --strict rolls everything back (exit 3)" {
	# A read-only bind mount over one XPS file makes that write fail with
	# EROFS after the channel change has already been made.  Without
	# --strict that is a refusal like any other (netpolicy(8), What
	# degrades: tests/kernel/refuse.bats); --strict keeps all or nothing.
	printf '0\n' >"$NP_TMP/ro"
	run ip netns exec "$NS" sh -c "
		mount --bind -o ro '$NP_TMP/ro' /sys/class/net/v0/queues/tx-1/xps_cpus &&
		'$NETPOLICY' --state-dir '$STATE_DIR' v0 set throughput --strict"
	[ "$status" -eq 3 ] || { echo "$output"; false; }
	[[ "$output" == *"step "*"xps"*"Read-only file system"* ]]
	[[ "$output" == *"rolled back, the device is as it was"* ]]
	[ "$(veth_snapshot)" = "$BEFORE" ]
	[ ! -e "$(np_rec v0 journal)" ]
}

@test "killed after any step: the next command rolls the device back" {
	run npns --json v0 set throughput --dry-run
	n=$(jq .n_steps <<<"$output")
	[ "$n" -ge 3 ]
	for ((k = 0; k < n; k++)); do
		NETPOLICY_TEST_STOP_AFTER_STEP=$k ip netns exec "$NS" "$NETPOLICY_TEST_BIN" \
			--state-dir "$STATE_DIR" v0 set throughput 2>/dev/null &
		PID=$!
		wait_stopped "$PID"
		kill -9 "$PID"; wait "$PID" 2>/dev/null || true; PID=
		[ -e "$(np_rec v0 journal)" ]
		mid=$(veth_snapshot)
		[ "$mid" != "$BEFORE" ]
		# show only reads: it says so and writes nothing
		run npns v0 show
		[ "$status" -eq 0 ]
		[[ "$output" == *"an earlier run was interrupted"* ]]
		[ "$(veth_snapshot)" = "$mid" ]
		run npns v0 reset
		[ "$status" -eq 0 ]
		[[ "$output" == *"rolled back an interrupted earlier run"* ]]
		[ "$(veth_snapshot)" = "$BEFORE" ] || { echo "not restored after step $k"; return 1; }
		[ ! -e "$(np_rec v0 journal)" ]
	done
}

@test "a journal in a read-only state directory: exit 9 before any write, the device left as it was found" {
	NETPOLICY_TEST_STOP_AFTER_STEP=1 ip netns exec "$NS" "$NETPOLICY_TEST_BIN" \
		--state-dir "$STATE_DIR" v0 set throughput 2>/dev/null &
	PID=$!
	wait_stopped "$PID"
	kill -9 "$PID"; wait "$PID" 2>/dev/null || true; PID=
	mid=$(veth_snapshot)
	[ "$mid" != "$BEFORE" ]
	# read-only in the command's own mount namespace (never /run/netpolicy)
	run ip netns exec "$NS" unshare -m sh -c "
		mount --bind -o ro '$STATE_DIR' '$STATE_DIR' &&
		exec '$NETPOLICY' --state-dir '$STATE_DIR' v0 set latency"
	[ "$status" -eq 9 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"state directory $STATE_DIR cannot be written (Read-only file system)"* ]]
	[ "$(veth_snapshot)" = "$mid" ]
	[ -e "$(np_rec v0 journal)" ]
	run npns v0 reset
	[ "$status" -eq 0 ]
	[ "$(veth_snapshot)" = "$BEFORE" ]
	[ ! -e "$(np_rec v0 journal)" ]
}

@test "two sets at once: the second waits for the first, no mixed state" {
	NETPOLICY_TEST_STOP_AFTER_STEP=0 ip netns exec "$NS" "$NETPOLICY_TEST_BIN" \
		--state-dir "$STATE_DIR" v0 set throughput 2>/dev/null &
	PID=$!
	wait_stopped "$PID"
	ip netns exec "$NS" "$NETPOLICY" --state-dir "$STATE_DIR" v0 set cpu >"$NP_TMP/second" 2>&1 &
	second=$!
	sleep 1
	kill -0 "$second"		# still waiting on the lock
	kill -CONT "$PID"
	wait "$PID"; PID=
	wait "$second"
	run npns v0 check cpu
	[ "$status" -eq 0 ]
}

@test "the device deleted mid-apply: a clear error, exit 4, the journal kept (it may live on elsewhere)" {
	NETPOLICY_TEST_STOP_AFTER_STEP=0 ip netns exec "$NS" "$NETPOLICY_TEST_BIN" \
		--state-dir "$STATE_DIR" v0 set throughput >"$NP_TMP/out" 2>&1 &
	PID=$!
	wait_stopped "$PID"
	ip -n "$NS" link del v1
	kill -CONT "$PID"
	st=0; wait "$PID" || st=$?; PID=
	[ "$st" -eq 4 ]
	grep -q "left this network namespace (deleted, or moved to another one)" "$NP_TMP/out"
	[ "$(grep -c netpolicy: "$NP_TMP/out")" -eq 2 ]	# the test hook's line and one error line
	[ -e "$(np_rec v0 journal)" ]
	# a new v0 is another device: the journal is not applied to it
	ip -n "$NS" link add v0 type veth peer name v1
	run npns v0 set throughput
	[ "$status" -eq 0 ]
	[[ "$output" == *"device is gone; dropping its journal"* ]]
	[ ! -e "$(np_rec v0 journal)" ]
}

@test "--confirm: without confirm the change is rolled back even when the shell dies" {
	setsid bash -c "ip netns exec $NS '$NETPOLICY' --state-dir '$STATE_DIR' v0 set throughput --confirm 2; sleep 60" \
		>/dev/null 2>&1 &
	shell=$!
	for ((i = 0; i < 50; i++)); do [ -e "$(np_rec v0 tentative)" ] && break; sleep 0.1; done
	[ -e "$(np_rec v0 tentative)" ]
	[ "$(veth_snapshot)" != "$BEFORE" ]
	kill -9 -- -"$shell" 2>/dev/null || kill -9 "$shell"
	for ((i = 0; i < 80; i++)); do [ ! -e "$(np_rec v0 tentative)" ] && break; sleep 0.1; done
	[ "$(veth_snapshot)" = "$BEFORE" ]
}

@test "--confirm then confirm keeps the change" {
	run npns v0 set throughput --confirm 2
	[ "$status" -eq 0 ]
	[[ "$output" == *"confirm"* ]]
	run npns v0 confirm
	[ "$status" -eq 0 ]
	sleep 3
	run npns v0 check throughput
	[ "$status" -eq 0 ]
}
