# Every policy on every emulated driver the lab offers (issue 9): the set
# exits 0 without a rollback (a refinement the driver refuses is dropped and
# reported, never fatal), `check` passes after it, a second set writes
# nothing, and a reset exits 0.  vmxnet3 reports channels and has no setter:
# `show` says so and `set cpu` plans no channel change.  Runs with
# -n virtio-rss:4 -n e1000e -n vmxnet3:2 (and a netdevsim device it makes);
# on the 6.12 stack with -n igb as well (lab612.bats).
. /lab/lib.sh

V=$(nic virtio_net) && pass "virtio_net NIC $V" || fail "no virtio_net NIC"
E=$(nic e1000e) && pass "e1000e NIC $E" || fail "no e1000e NIC"
X=$(nic vmxnet3) && pass "vmxnet3 NIC $X" || fail "no vmxnet3 NIC"
N=$(nsim_add 1 4) && pass "netdevsim NIC $N" || fail "no netdevsim NIC"
G=
case $(uname -r) in
6.1.*) ;;	# QEMU 7.2 has no igb
*) G=$(nic igb) && pass "igb NIC $G" || fail "no igb NIC on the 6.12 stack" ;;
esac
for i in $V $E $X $N $G; do ip link set "$i" up; done	# drivers request IRQs on open

# the probe: vmxnet3's channels are reported but read-only, virtio's settable
show "$X" && is "$(jv .channels.settable)" false "$X channels settable (vmxnet3: no set_channels)"
show "$V" && is "$(jv .channels.settable)" true "$V channels settable"
"$NP" "$X" show >/tmp/x.txt 2>&1
ok "$X show marks channels read-only" grep -q 'read-only: the driver has no setter' /tmp/x.txt
"$NP" "$X" set cpu --dry-run --json >/tmp/x.json 2>&1
is "$(jq '[.steps[] | select(.knob == "channels")] | length' /tmp/x.json)" 0 "$X cpu plans no channel change"
is "$(jq -r '.notes[] | select(.knob == "channels") | .note' /tmp/x.json | grep -c 'no channel setter')" 1 \
	"$X cpu says why the channels stay"

for i in $V $E $X $N $G; do
	for p in cpu latency throughput; do
		run_np /tmp/set.json 0 "$NP" --json "$i" set "$p"
		is "$(jq .rolled_back /tmp/set.json)" false "$i $p: no rollback"
		dropped=$(jq -r '.dropped[]? | "\(.knob): \(.reason)"' /tmp/set.json)
		[ -n "$dropped" ] && diag "$i $p dropped: $dropped"
		run_np /tmp/check.txt 0 "$NP" "$i" check
		run_np /tmp/again.json 0 "$NP" --json "$i" set "$p"
		is "$(jq .changed /tmp/again.json)" false "$i $p: a second set changes nothing"
	done
	run_np /tmp/reset.txt 0 "$NP" "$i" reset
done
finish
