# virtio-net, 4 queue pairs with RSS (QEMU's software RSS), 4 vCPUs:
# `netpolicy show --json` agrees with ethtool, /proc/irq and sysfs, before and
# after the state is changed behind its back.  9 MSI-X vectors: config plus
# one per rx and per tx queue.
. /lab/lib.sh

IF=$(nic virtio_net) || { fail "no virtio_net NIC"; finish; }
ip link set "$IF" up

check_show "$IF"
is "$(jv .channels.combined)/$(jv .channels.max_combined)" 4/4 "$IF combined channels/max"
is "$(jv .rss.indir_size)" 128 "$IF RSS table size"
is "$(jv '.irqs | length')" 9 "$IF IRQs"
is "$(jv '[.irqs[] | select(.kind == "rx")] | length')" 4 "$IF rx IRQs"

diag "changing $IF with ethtool, /proc/irq and sysfs"
# virtio_net resets IRQ affinity and XPS on channel changes: those go after
ok "ethtool -L combined 3" ethtool -L "$IF" combined 3
ok "ethtool -G rx 128" ethtool -G "$IF" rx 128
ok "ethtool -X equal 2" ethtool -X "$IF" equal 2
RXIRQ=$(jv '.irqs[] | select(.kind == "rx" and .queue == 1) | .irq')
put /proc/irq/"$RXIRQ"/smp_affinity_list 2
put /sys/class/net/"$IF"/queues/rx-0/rps_cpus f
put /sys/class/net/"$IF"/queues/rx-0/rps_flow_cnt 256
put /sys/class/net/"$IF"/queues/tx-2/xps_cpus c

check_show "$IF"
is "$(jv .channels.combined)" 3 "$IF has 3 combined channels"
is "$(jv '.rss.indir | unique | map(tostring) | join(",")')" 0,1 "$IF RSS spreads over queues 0-1"
is "$(jv ".irqs[] | select(.irq == $RXIRQ) | .affinity")" 2 "$IF rx-1 IRQ $RXIRQ on CPU 2"
finish
