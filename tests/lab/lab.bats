#!/usr/bin/env bats
# Real drivers in a QEMU guest (tests/lab/README.md).  Each test boots Debian's
# 6.1 kernel under TCG (~5 s to a shell) and runs one script of tests/lab/guest/
# there; the guest's TAP lines are shown when a test fails.  Needs root and the
# lab (`lab.sh can-run`); skips with the reason otherwise.

NP_SRCDIR=${NP_SRCDIR:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
NETPOLICY=${NETPOLICY:-${NP_BUILDDIR:-$NP_SRCDIR}/netpolicy/netpolicy}
LAB=$NP_SRCDIR/tests/lab/lab.sh
GUEST=$NP_SRCDIR/tests/lab/guest

# bats 1.8 cannot skip from setup_file: it leaves the reason for setup()
setup_file() {
	export LAB_SKIP= LAB_BROKEN=
	if [ "$(id -u)" != 0 ]; then
		LAB_SKIP="lab tests need root"
	elif ! LAB_SKIP=$("$LAB" can-run); then
		:
	elif ! LAB_BROKEN=$("$LAB" build 2>&1); then
		LAB_SKIP= LAB_BROKEN="lab.sh build failed: $LAB_BROKEN"
	else
		LAB_SKIP= LAB_BROKEN=
	fi
}

setup() {
	[ -z "$LAB_SKIP" ] || skip "$LAB_SKIP"
	if [ -n "$LAB_BROKEN" ]; then
		echo "$LAB_BROKEN"
		return 1
	fi
}

need_netpolicy() {
	[ -x "$NETPOLICY" ] || skip "$NETPOLICY not built"
}

# guest SCRIPT LAB-RUN-OPTIONS...: boot, run tests/lab/guest/SCRIPT, pass if it
# does; a failure shows the guest's output without its passing checks
# (NP_LAB_VERBOSE=1: with them)
guest() {
	local script=$1 bin=()
	shift
	[ -x "$NETPOLICY" ] && bin=(-b "$NETPOLICY")
	run "$LAB" run -t "${NP_LAB_TIMEOUT:-300}" "${bin[@]}" "$@" "$GUEST/$script"
	if [ "${NP_LAB_VERBOSE:-0}" = 1 ]; then
		echo "$output"
	else
		echo "$output" | grep -v '^ok '
	fi
	[ "$status" -eq 0 ]
}

@test "lab: the guest has its kernel, drivers and tools" {
	guest smoke.sh -n virtio-rss:4 -n e1000e
}

@test "netdevsim: show --json agrees with ethtool and sysfs" {
	need_netpolicy
	guest show-netdevsim.sh
}

@test "virtio-net mq+RSS: show --json agrees with ethtool, /proc/irq and sysfs" {
	need_netpolicy
	guest show-virtio.sh -n virtio-rss:4
}

@test "e1000e: show --json agrees with ethtool, /proc/irq and sysfs" {
	need_netpolicy
	guest show-e1000e.sh -n e1000e
}

@test "netdevsim, 2 of 4 channels: set changes channels, rings, coalescing as planned; reset; rollback; bad --cpus" {
	need_netpolicy
	guest netdevsim.sh
}

@test "e1000e: set and reset each policy, what it lacks noted, rings and rx-usecs as planned" {
	need_netpolicy
	guest set-reset.sh -n e1000e
}

@test "virtio-net mq+RSS: set and reset each policy at 4 of 4 channels" {
	need_netpolicy
	guest set-reset.sh -n virtio-rss:4
}

# expectations assume 4 vCPUs: queue q on CPU q
@test "virtio-net mq+RSS, 2 of 4 channels: channel changes, IRQ affinity and XPS re-applied on set, reset, rollback" {
	need_netpolicy
	guest virtio-channels.sh -n virtio-rss:4 -c 4
}

@test "every policy on every emulated driver (virtio-net, e1000e, vmxnet3, netdevsim): applied without rollback, check passes" {
	need_netpolicy
	guest every-policy.sh -n virtio-rss:4 -n e1000e -n vmxnet3:2
}

# A stand-in for QEMU (first on PATH; the 6.1 stack runs the PATH's): its
# Nth boot, while N <= FAKE_QEMU_STALLS, has the guest up and then its
# timers stalled, as the 6.12 guest's console once showed; later boots pass.
fake_qemu() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/qemu-system-x86_64" <<'FAKE'
#!/bin/bash
n=$(($(cat "$FAKE_QEMU_COUNT" 2>/dev/null || echo 0) + 1))
echo "$n" >"$FAKE_QEMU_COUNT"
serial=() prev=
for a in "$@"; do
	[ "$prev" = -serial ] && serial+=("${a#file:}")
	prev=$a
done
echo "NPLAB-READY uptime=4.74" >>"${serial[1]}"
if [ "$n" -le "$FAKE_QEMU_STALLS" ]; then
	echo "rcu: rcu_preempt kthread timer wakeup didn't happen for 5251 jiffies!" >>"${serial[0]}"
	exec sleep 60
fi
echo "NPLAB-EXIT rc=0" >>"${serial[1]}"
FAKE
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
}

@test "lab.sh: a guest whose timers stall is started once more; a second stall is the result" {
	fake_qemu
	export FAKE_QEMU_COUNT=$BATS_TEST_TMPDIR/count FAKE_QEMU_STALLS=1
	PATH=$BATS_TEST_TMPDIR/bin:$PATH NP_LAB_STACK=6.1 run "$LAB" run -t 3 "$GUEST/igb.sh"
	[ "$status" -eq 0 ]
	[ "$(cat "$FAKE_QEMU_COUNT")" = 2 ]
	[[ $output == *"the guest's timers stopped firing"* ]]
	rm "$FAKE_QEMU_COUNT"
	FAKE_QEMU_STALLS=2
	PATH=$BATS_TEST_TMPDIR/bin:$PATH NP_LAB_STACK=6.1 run "$LAB" run -t 3 "$GUEST/igb.sh"
	[ "$status" -eq 124 ]
	[ "$(cat "$FAKE_QEMU_COUNT")" = 2 ]
}
