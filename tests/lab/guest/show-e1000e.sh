# e1000e (QEMU's 82574L): `netpolicy show --json` agrees with ethtool,
# /proc/irq and sysfs, before and after the state is changed behind its back.
# One queue pair; no channels, no RSS table; rings and rx-usecs only;
# 3 MSI-X vectors (rx, tx, other); xps_cpus unreadable on a single queue.
. /lab/lib.sh

IF=$(nic e1000e) || { fail "no e1000e NIC"; finish; }
ip link set "$IF" up

check_show "$IF"
is "$(val channels.supported)" false "$IF has no channels"
is "$(val rss.supported)" false "$IF has no RSS"
is "$(grep '^coalesce\.' "$NP_VIEW" | cut -d' ' -f1 | sort | xargs)" "coalesce.rx-usecs coalesce.supported" \
	"$IF coalesce fields"
is "$(grep '\.role ' "$NP_VIEW" | cut -d' ' -f2 | sort | xargs)" "other rx tx" "$IF IRQ kinds"

diag "changing $IF with ethtool, /proc/irq and sysfs"
ok "ethtool -G rx 512 tx 1024" ethtool -G "$IF" rx 512 tx 1024
ok "ethtool -C rx-usecs 50" ethtool -C "$IF" rx-usecs 50
RXIRQ=$(irq_of rx 0)
put /proc/irq/"$RXIRQ"/smp_affinity_list 3
put /sys/class/net/"$IF"/queues/rx-0/rps_cpus 3
put /sys/class/net/"$IF"/queues/tx-0/xps_rxqs 1

check_show "$IF"
is "$(val rings.rx)/$(val rings.tx)" 512/1024 "$IF rings rx/tx"
is "$(val coalesce.rx-usecs)" 50 "$IF rx-usecs"
is "$(val irq."$RXIRQ".affinity)" 3 "$IF rx IRQ $RXIRQ on CPU 3"
finish
