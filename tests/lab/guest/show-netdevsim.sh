# netdevsim, 4 combined channels: `netpolicy show --json` agrees with ethtool
# and sysfs, before and after the state is changed behind its back.  It has
# channels, rings and coalescing, but no RSS and no IRQs.
. /lab/lib.sh

IF=$(nsim_add 1 4) || { fail "create a netdevsim device"; finish; }
ip link set "$IF" up

check_show "$IF"
is "$(val channels.combined)" 4 "$IF has 4 combined channels"
is "$(val rss.supported)" false "$IF has no RSS"
is "$(val irqs)" "" "$IF has no IRQs"

diag "changing $IF with ethtool and sysfs"
ok "ethtool -L combined 2" ethtool -L "$IF" combined 2
ok "ethtool -G rx 512 tx 256" ethtool -G "$IF" rx 512 tx 256
ok "ethtool -C" ethtool -C "$IF" rx-usecs 17 tx-frames 9 adaptive-rx on
put /sys/class/net/"$IF"/queues/rx-1/rps_cpus 6
put /sys/class/net/"$IF"/queues/rx-1/rps_flow_cnt 128
put /sys/class/net/"$IF"/queues/tx-0/xps_cpus 9
put /sys/class/net/"$IF"/queues/tx-1/xps_rxqs 2

check_show "$IF"
is "$(val channels.combined)/$(val rxqs)" 2/2 "$IF has 2 combined channels and rx queues"
is "$(val rxq.1.rps_cpus)" 1-2 "$IF rx-1 RPS on CPUs 1-2"
is "$(val coalesce.adaptive-rx)" 1 "$IF adaptive-rx on"
finish
