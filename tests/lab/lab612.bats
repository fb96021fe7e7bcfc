#!/usr/bin/env bats
# Real drivers in a QEMU guest, the 6.12 stack (tests/lab/README.md): each
# test boots bookworm-backports' 6.12 kernel under its QEMU 10 (TCG, 8-17 s to
# a shell), which emulates igb, and runs one script of tests/lab/guest/ there; the guest's TAP lines are shown when a test fails.  Needs root and the
# lab (`lab.sh can-run`); skips with the reason otherwise.

NP_SRCDIR=${NP_SRCDIR:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
NETPOLICY=${NETPOLICY:-${NP_BUILDDIR:-$NP_SRCDIR}/netpolicy/netpolicy}
LAB=$NP_SRCDIR/tests/lab/lab.sh
export NP_LAB_STACK=6.12
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

@test "6.12 lab: the guest has its kernel, igb, virtio-net, e1000e, netdevsim and tools" {
	guest smoke612.sh -n igb -n virtio-rss:4 -n e1000e
}

# issue 22 (c): igb's own table is blocks; rewriting it, then writing it
# back on reset, left the kernel's "user-set" flag on and `ethtool -L
# combined 2` refused afterwards
@test "igb, 4 channels: latency and throughput set, check, set again, reset; channels shrink after reset as before" {
	need_netpolicy
	guest igb4.sh -n igb -c 4
}

# issue 22 (a), (b): from 8 paired channels to 4 the engine plans coalescing
# and IRQs again; the report must be what was written, its IRQs named as
# they were at the write
@test "igb, from 8 and 4 channels: set and reset report what was applied, IRQs by their names at the write" {
	need_netpolicy
	guest igb-report.sh -n igb -c 4
}

# issue 22 item 5: the host side of the tap sends a bounded UDP burst
@test "igb: packets land on the queues the RSS table names, their interrupts on the CPUs the plan pinned" {
	need_netpolicy
	guest traffic.sh -n igb -c 4 -H "$NP_SRCDIR/tests/lab/host/send.sh"
}

# issue 22 item 5 on virtio-net: 6.12's virtio_net counts per-queue packets
# only in netlink qstats, which the guest reads with tests/lab/qstats.c
@test "virtio-net with RSS: packets land on the queues the RSS table names, their interrupts on the CPUs the plan pinned" {
	need_netpolicy
	cc -O2 -static -o "$BATS_FILE_TMPDIR/qstats" "$NP_SRCDIR/tests/lab/qstats.c"
	guest traffic-virtio.sh -n virtio-rss:4 -c 4 -b "$BATS_FILE_TMPDIR/qstats" -H "$NP_SRCDIR/tests/lab/host/send.sh"
}

# issue 22 item 2: custom policies (tests/lab/policies/*.conf) with
# coalescing values igb refuses; the plan rounds them, --strict as well
@test "igb, from 4 and 8 channels: custom policies with rx/tx-usecs igb refuses (5, 2, 20000) planned as values it takes with a note, applied, checked, reset; --strict the same" {
	need_netpolicy
	guest igb-custom.sh -n igb -c 4 -f "$NP_SRCDIR/tests/lab/policies/coarse.conf" -f "$NP_SRCDIR/tests/lab/policies/edges.conf"
}

# issue 22 item 2: from a user-set table the flag stays the user's; cpu must
# make the table fit before it shrinks the channels
@test "igb, 4 channels, user table over 0-2: every policy set, reported, checked; reset writes the user's table back and the kernel refuses -L 2 as before" {
	need_netpolicy
	guest igb-usertable.sh -n igb -c 4
}

# issue 22 item 1: every driver of the 6.12 stack, vmxnet3 included
@test "6.12: every policy on every emulated driver (igb, virtio-net, e1000e, vmxnet3, netdevsim): applied without rollback, check passes" {
	need_netpolicy
	guest every-policy.sh -n igb -n virtio-rss:4 -n e1000e -n vmxnet3:2
}

# issue 22 item 2, the growing direction: with 8 CPUs latency and
# throughput take igb from 4 to 8 channels, which pairs its vectors
@test "igb, 8 CPUs, from 4 channels and a user's tx-usecs: growing to 8 pairs the vectors, planned ahead; reset unpairs and writes tx-usecs back" {
	need_netpolicy
	guest igb8.sh -n igb -c 8
}
