# The lab itself works: the guest has the kernel, CPUs, drivers and tools the
# scenarios rely on, and the kernel views lib.sh parses read as expected.
# Runs with: -n virtio-rss:4 -n e1000e (netpolicy shipped or not).
. /lab/lib.sh

is "$(uname -r | cut -d. -f1,2)" 6.1 "guest kernel"
is "$(nproc)" 4 "guest CPUs"
V=$(nic virtio_net) && pass "virtio_net NIC $V" || fail "no virtio_net NIC"
E=$(nic e1000e) && pass "e1000e NIC $E" || fail "no e1000e NIC"
N=$(nsim_add 1 4) && pass "netdevsim NIC $N" || fail "netdevsim device"

is "$(ethtool_val "$V" -l cur Combined)" 4 "$V combined channels"
is "$(ethtool_val "$V" -l max RX)" 0 "$V max rx channels (n/a)"
is "$(rss_indir "$V" | wc -w)" 128 "$V RSS table size"
is "$(rss_key "$V" | wc -c)" 81 "$V RSS key is 40 bytes"
is "$(rss_hfunc "$V")" toeplitz "$V RSS hash function"
is "$(dev_irqs "$V" | wc -l)" 9 "$V MSI-X vectors"
is "$(irq_role "$(irq_name "$(dev_irqs "$V" | sed -n 2p)")")" "rx 0" "$V 2nd vector serves rx queue 0"
is "$(mask2list "$(cat /sys/class/net/"$V"/queues/tx-0/xps_cpus)")" 0 "$V tx-0 xps_cpus"

is "$(ethtool_val "$E" -g max RX)" 4096 "$E max rx ring"
is "$(coal_val "$E" rx-usecs)" 3 "$E rx-usecs"
is "$(coal_val "$E" tx-usecs)" n/a "$E tx-usecs"
is "$(coal_val "$E" adaptive-rx)" n/a "$E adaptive-rx"
is "$(rss_indir "$E")" "" "$E has no RSS table"
is "$(dev_irqs "$E" | wc -l)" 3 "$E MSI-X vectors"
if cat /sys/class/net/"$E"/queues/tx-0/xps_cpus >/dev/null 2>&1; then
	fail "$E tx-0 xps_cpus readable"
else
	pass "$E tx-0 xps_cpus unreadable (single queue)"
fi

ok "$N set coalesce" ethtool -C "$N" rx-usecs 17 adaptive-rx on
is "$(coal_val "$N" rx-usecs)" 17 "$N rx-usecs"
is "$(coal_val "$N" adaptive-rx)" 1 "$N adaptive-rx"
is "$(ethtool_val "$N" -l cur Combined)" 4 "$N combined channels"
is "$(dev_irqs "$N")" "" "$N has no IRQs"

if command -v netpolicy >/dev/null; then
	ok "netpolicy runs in the guest" netpolicy --version
else
	skip "netpolicy not shipped"
fi
finish
