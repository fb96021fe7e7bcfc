# virtio-net, 4 queue pairs with RSS, 4 vCPUs, started at 2 channels, so that
# every policy changes channels: each grows them to 4 (cpu too: the link
# speed is unknown).  virtio_net rewrites the IRQ affinity and XPS of its
# queues on every `ethtool -L`; netpolicy must write them again afterwards,
# on set, on reset and on rollback.  Every value is read from ethtool, /proc
# and sysfs: after a set the kernel shows the plan (taken with --dry-run
# before) and nothing else moved; after a reset or a failed apply, the state
# from before.
. /lab/lib.sh

IF=$(nic virtio_net) || { fail "no virtio_net NIC"; finish; }
ip link set "$IF" up
Q=/sys/class/net/$IF/queues

# The starting point: 2 channels, a user-set RSS table over those 2 queues,
# and queue 0's IRQs and XPS on CPU 0, where virtio_net puts them at 4
# channels, but not at 2 (0-1) or 1 (0-3).  No plan writes those (they are
# what the plans want already), yet every channel change moves them: only
# re-reading the device after it keeps them right.
ok "ethtool -L combined 2" ethtool -L "$IF" combined 2
ok "ethtool -X equal 2" ethtool -X "$IF" equal 2
kernel_view "$IF" >"$KERNEL_VIEW"
RX0=$(irq_of rx 0 "$KERNEL_VIEW") TX0=$(irq_of tx 0 "$KERNEL_VIEW")
put /proc/irq/"$RX0"/smp_affinity_list 0
put /proc/irq/"$TX0"/smp_affinity_list 0
put "$Q"/tx-0/xps_cpus 1
snapshot "$IF" /tmp/pristine
ethtool_text "$IF" >/tmp/ethtool.pristine
is "$(kval channels.combined)/$(kval channels.max_combined)" 2/4 "$IF starts with 2 of 4 channels"

# the state from before, read back from the kernel
pristine_back() {
	is "$(ethval "$IF" -l Combined:)" 2 "ethtool -l: 2 combined channels again"
	is "$(rss_table "$IF")" "$(spread 128 2)" "ethtool -x: the table over queues 0-1 again"
	is "$(cat /proc/irq/"$RX0"/smp_affinity_list)/$(cat /proc/irq/"$TX0"/smp_affinity_list)" 0/0 \
		"queue 0's IRQs $RX0/$TX0 on CPU 0 again (virtio_net set 0-1)"
	is "$(mask2list "$(cat "$Q"/tx-0/xps_cpus)")" 0 "tx-0 XPS on CPU 0 again (virtio_net set 0-1)"
	is "$(mask2list "$(cat "$Q"/tx-1/xps_cpus)")" 2-3 "tx-1 XPS on CPUs 2-3 (virtio_net's)"
}

# The policies put each queue's IRQs on a core of their own and its XPS on
# the CPUs of those IRQs (netpolicy-policies(7)): 4 queues on 4 single-thread cores of one
# node is queue q on CPU q.  The dry-run cannot list the IRQ affinity of
# queues 2-3 (the engine plans them once they exist): check_applied holds
# them to their value from before, and this to the policy.
for P in throughput latency; do
	diag "$IF: set $P from 2 channels"
	set_checked "$IF" "$P" /tmp/pristine
	is "$(pval channels.combined)" 4 "the $P plan grows channels to 4"
	is "$(pval rss.indir)" "even over 4 queues" "the $P plan spreads RSS over 4 queues"
	is "$(ethval "$IF" -l Combined:)" 4 "ethtool -l: 4 combined channels"
	is "$(rss_table "$IF")" "$(spread 128 4)" "ethtool -x: 128 entries even over queues 0-3"
	for q in 0 1 2 3; do
		for k in rx tx; do
			n=$(irq_of "$k" "$q" /tmp/applied.saved)
			is "$(cat /proc/irq/"$n"/smp_affinity_list)" "$q" "IRQ $n ($(irq_name "$n")) on CPU $q"
			w=$(pval irq."$n".affinity)
			[ -z "$w" ] || is "$w" "$q" "the plan puts IRQ $n on CPU $q"
		done
		is "$(mask2list "$(cat "$Q"/tx-$q/xps_cpus)")" "$q" "tx-$q XPS on CPU $q"
		w=$(pval txq.$q.xps_cpus)
		[ -z "$w" ] || is "$w" "$q" "the plan puts tx-$q XPS on CPU $q"
		is "$(mask2list "$(cat "$Q"/rx-$q/rps_cpus)")" "" "rx-$q RPS off (a queue per core)"
		is "$(cat "$Q"/rx-$q/rps_flow_cnt)" "$(pval rxq.$q.rps_flow_cnt)" "rx-$q RFS flow count as planned"
	done
	diag "$IF: reset"
	reset_checked "$IF" /tmp/pristine /tmp/ethtool.pristine
	pristine_back
done

diag "$IF: set cpu from 2 channels"
set_checked "$IF" cpu /tmp/pristine
# QEMU's virtio-net offers no link speed here (no VIRTIO_NET_F_SPEED_DUPLEX),
# so cpu cannot size channels from the link: it plans min(8, local cores,
# driver maximum) = 4 with a note (plan/planner.c), and set_checked holds
# every other value to the plan or to what it was before.
case $(jq -r '[.notes[].note] | join("; ")' "$PLAN_JSON") in
*"link speed unknown"*) pass "the cpu plan notes the unknown link speed" ;;
*) fail "the cpu plan notes the unknown link speed" ;;
esac
is "$(pval channels.combined)" 4 "the cpu plan, link speed unknown, grows channels to 4"
is "$(ethval "$IF" -l Combined:)" 4 "ethtool -l: 4 combined channels"
is "$(rss_table "$IF")" "$(spread 128 4)" "ethtool -x: 128 entries even over queues 0-3"
for q in 0 1 2 3; do
	w=$(pval txq.$q.xps_cpus)
	[ -z "$w" ] || is "$(mask2list "$(cat "$Q"/tx-$q/xps_cpus)")" "$w" "tx-$q XPS as planned"
done
diag "$IF: reset"
reset_checked "$IF" /tmp/pristine /tmp/ethtool.pristine
pristine_back

# A step that fails after the channel change, RSS and IRQ affinity were
# written: tx-1's xps_cpus, made read-only.  The rollback shrinks channels
# again, which rewrites queue 0's IRQs and XPS: those must be put back too.
# steps go features, RSS, channels, RSS, ..., XPS
xps_rollback_checked "$IF" 2 "the channel change"
pristine_back
finish
