# e1000e (QEMU's 82574L): `netpolicy show --json` agrees with ethtool,
# /proc/irq and sysfs, before and after the state is changed behind its back.
# One queue pair; no channels, no RSS table; rings and rx-usecs only;
# 3 MSI-X vectors (rx, tx, other); xps_cpus unreadable on a single queue.
. /lab/lib.sh

IF=$(nic e1000e) || { fail "no e1000e NIC"; finish; }
ip link set "$IF" up

check_show "$IF"
is "$(jv .channels.supported)" false "$IF has no channels"
is "$(jv .rss.supported)" false "$IF has no RSS"
is "$(jv '.coalesce.fields | keys | join(" ")')" rx-usecs "$IF coalesce fields"
is "$(jv '[.irqs[].kind] | sort | join(" ")')" "other rx tx" "$IF IRQ kinds"

diag "changing $IF with ethtool, /proc/irq and sysfs"
ok "ethtool -G rx 512 tx 1024" ethtool -G "$IF" rx 512 tx 1024
ok "ethtool -C rx-usecs 50" ethtool -C "$IF" rx-usecs 50
RXIRQ=$(jv '.irqs[] | select(.kind == "rx") | .irq')
put /proc/irq/"$RXIRQ"/smp_affinity_list 3
put /sys/class/net/"$IF"/queues/rx-0/rps_cpus 3
put /sys/class/net/"$IF"/queues/tx-0/xps_rxqs 1

check_show "$IF"
is "$(jv .rings.rx)/$(jv .rings.tx)" 512/1024 "$IF rings rx/tx"
is "$(jv '.coalesce.fields["rx-usecs"]')" 50 "$IF rx-usecs"
is "$(jv ".irqs[] | select(.irq == $RXIRQ) | .affinity")" 3 "$IF rx IRQ $RXIRQ on CPU 3"
finish
