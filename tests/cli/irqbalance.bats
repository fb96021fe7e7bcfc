#!/usr/bin/env bats
# irqbalance: found through its socket (/run/irqbalance/irqbalance<PID>.sock)
# or its systemd unit's cgroup, and the process either names, below --root; a fake socket speaking irqbalance's protocol
# (tests/fake/irqbalance-socket.py) records what netpolicy asks of it.

load ../helpers
bats_require_minimum_version 1.5.0

setup() {
	np_tmpdir
	np_model ixgbe-16cpu
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
	QIRQS=$(jq -r '[.devices[0].irqs[] | select(.kind != "other") | .irq] | join(",")' "$MODEL")
	ROOT=$NP_TMP/root
	mkdir -p "$ROOT/run/irqbalance" "$ROOT/proc/4242"
	FAKE_PID=
}

teardown() {
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null
	np_cleanup_tmp
}

irqbalance_process() {	# a process named irqbalance, pid 4242
	echo irqbalance >"$ROOT/proc/4242/comm"
}

irqbalance_socket() {	# irqbalance_socket [BANNED...]: its control socket too
	irqbalance_process
	SOCK=$ROOT/run/irqbalance/irqbalance4242.sock
	python3 "$NP_SRCDIR/tests/fake/irqbalance-socket.py" "$SOCK" "$NP_TMP/requests" "$@" &
	FAKE_PID=$!
	for ((i = 0; i < 50; i++)); do [ -e "$SOCK.ready" ] && break; sleep 0.1; done
	[ -e "$SOCK.ready" ]
}

# --root is the test build's (tests/netpolicy-test): never the installed binary's
nproot() { "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" --model "$MODEL" --root "$ROOT" "$@"; }
npr() { nproot "$@"; }

@test "no irqbalance: no word about it" {
	run --separate-stderr npr "$DEV" set throughput --dry-run
	[ "$status" -eq 0 ]
	[[ "$stderr" != *irqbalance* ]]
}

@test "irqbalance running: the plan says it will move the IRQs back and what to do, and nothing is stopped" {
	require_root
	irqbalance_socket
	run --separate-stderr npr "$DEV" set throughput --dry-run
	[ "$status" -eq 0 ]
	echo "$stderr"
	[[ "$stderr" == *"irqbalance (pid 4242) is running and will move IRQs $QIRQS back"* ]]
	[[ "$stderr" == *"--irqbalance-ban"*"IRQBALANCE_ARGS=\"--banirq="*"/etc/default/irqbalance"* ]]
	[[ "$stderr" == *"netpolicy does not stop irqbalance"* ]]
	# it only asked (as root, which irqbalance requires)
	[ "$(cat "$NP_TMP/requests")" = "setup uid=0" ]
	kill -0 "$FAKE_PID"
}

@test "--irqbalance-ban: the device's queue IRQs join irqbalance's banned list, kept with the ones it had" {
	require_root
	irqbalance_socket 7
	run --separate-stderr npr "$DEV" set throughput --irqbalance-ban
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(tail -1 "$NP_TMP/requests")" = "settings ban irqs 7 ${QIRQS//,/ } uid=0" ]
	# banned now: the next plan has nothing to warn about
	run --separate-stderr npr "$DEV" set throughput --dry-run
	[[ "$stderr" != *"will move"* ]]
	run npr "$DEV" set latency --dry-run --irqbalance-ban
	[ "$status" -eq 0 ]
	run npr "$DEV" check --irqbalance-ban
	[ "$status" -eq 2 ]	# not an option of check
}

@test "check explains IRQ affinity drift by irqbalance" {
	require_root
	irqbalance_socket
	npr "$DEV" set throughput 2>/dev/null
	# what irqbalance does: every queue IRQ on CPU 0
	jq '.devices[0].irqs |= map(if .kind != "other" then .affinity = "0" | .effective = "0" else . end)' \
		"$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	run --separate-stderr npr "$DEV" check
	[ "$status" -eq 5 ]
	echo "$stderr"
	[[ "$stderr" == *"irqbalance (pid 4242) is running and moves IRQs $QIRQS"*"drift is likely its doing"* ]]
}

@test "irqbalance without a control socket: found by its systemd unit; --irqbalance-ban says where to ban instead" {
	irqbalance_process
	# not by a walk of /proc: only the process its unit's cgroup names
	run --separate-stderr npr "$DEV" set throughput --dry-run
	[[ "$stderr" != *irqbalance* ]]
	mkdir -p "$ROOT/sys/fs/cgroup/system.slice/irqbalance.service"
	echo 4242 >"$ROOT/sys/fs/cgroup/system.slice/irqbalance.service/cgroup.procs"
	run --separate-stderr npr "$DEV" set throughput --dry-run
	[[ "$stderr" == *"irqbalance (pid 4242) is running"* ]]
	run --separate-stderr npr "$DEV" set throughput --irqbalance-ban
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"has no control socket; ban the IRQs in /etc/default/irqbalance"* ]]
}

# A simulated machine (--model without --root) is not this host: an
# irqbalance running here (a package build on a machine with irqbalance)
# put its warning into every sim test's output.
@test "--model without --root: an irqbalance process of this host is not the model's" {
	cp "$(command -v sleep)" "$NP_TMP/irqbalance"
	"$NP_TMP/irqbalance" 60 &
	FAKE_PID=$!
	[ "$(cat "/proc/$FAKE_PID/comm")" = irqbalance ]
	run npsim "$DEV" set cpu
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *irqbalance* ]]
}
