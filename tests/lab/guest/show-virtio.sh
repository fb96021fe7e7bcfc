# virtio-net, 4 queue pairs with RSS (QEMU's software RSS), 4 vCPUs:
# `netpolicy show --json` agrees with ethtool, /proc/irq and sysfs, before and
# after the state is changed behind its back.  9 MSI-X vectors: config plus
# one per rx and per tx queue.
. /lab/lib.sh

IF=$(nic virtio_net) || { fail "no virtio_net NIC"; finish; }
ip link set "$IF" up

check_show "$IF"
is "$(val channels.combined)/$(val channels.max_combined)" 4/4 "$IF combined channels/max"
is "$(val rss.indir_size)" 128 "$IF RSS table size"
is "$(val irqs | wc -w)" 9 "$IF IRQs"
is "$(grep -c '\.role rx ' "$NP_VIEW")" 4 "$IF rx IRQs"

diag "changing $IF with ethtool, /proc/irq and sysfs"
# virtio_net resets IRQ affinity and XPS on channel changes: those go after
ok "ethtool -L combined 3" ethtool -L "$IF" combined 3
ok "ethtool -G rx 128" ethtool -G "$IF" rx 128
ok "ethtool -X equal 2" ethtool -X "$IF" equal 2
RXIRQ=$(irq_of rx 1)
put /proc/irq/"$RXIRQ"/smp_affinity_list 2
put /sys/class/net/"$IF"/queues/rx-0/rps_cpus f
put /sys/class/net/"$IF"/queues/rx-0/rps_flow_cnt 256
put /sys/class/net/"$IF"/queues/tx-2/xps_cpus c

check_show "$IF"
is "$(val channels.combined)/$(val rxqs)" 3/3 "$IF has 3 combined channels and rx queues"
is "$(val rss.indir | tr ' ' '\n' | sort -u | xargs)" "0 1" "$IF RSS spreads over queues 0-1"
is "$(val irq."$RXIRQ".affinity)" 2 "$IF rx-1 IRQ $RXIRQ on CPU 2"
is "$(val rings.rx)" 128 "$IF rx ring"
finish
