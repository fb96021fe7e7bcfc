# The 6.12 stack works (NP_LAB_STACK=6.12: bookworm-backports' kernel under
# QEMU 10): the guest has its kernel, CPUs, tools, igb, virtio-net, e1000e
# and netdevsim, and kernel_view reads igb's known facts (README.md's
# table).  Runs with -n igb -n virtio-rss:4 -n e1000e.
. /lab/lib.sh

is "$(uname -r | cut -d. -f1,2)" 6.12 "guest kernel"
is "$(nproc)" 4 "guest CPUs"
G=$(nic igb) && pass "igb NIC $G" || fail "no igb NIC"
V=$(nic virtio_net) && pass "virtio_net NIC $V" || fail "no virtio_net NIC"
E=$(nic e1000e) && pass "e1000e NIC $E" || fail "no e1000e NIC"
N=$(nsim_add 1 4) && pass "netdevsim NIC $N" || fail "no netdevsim NIC"
is "$(jq -n '[1, 2] | add')" 3 "jq runs"
for i in "$G" "$V" "$E" "$N"; do ip link set "$i" up; done	# drivers request IRQs on open

kernel_view "$G" >"$KERNEL_VIEW"
is "$(kval channels.combined)/$(kval channels.max_combined)/$(kval channels.other)" 4/8/1 "$G channels"
is "$(kval rss.indir_size)" 128 "$G RSS table size"
is "$(kval irqs | wc -w)" 9 "$G MSI-X vectors: link + 4 rx + 4 tx"
is "$(grep -c ' rx [0-3]$' "$KERNEL_VIEW")/$(grep -c ' tx [0-3]$' "$KERNEL_VIEW")" 4/4 "$G rx/tx IRQs"
ok "$G ethtool -L combined 8" ethtool -L "$G" combined 8
kernel_view "$G" >"$KERNEL_VIEW"
is "$(grep -c ' txrx [0-7]$' "$KERNEL_VIEW")" 8 "$G at 8 channels: paired TxRx vectors"
if ethtool -C "$G" tx-usecs 10 2>/dev/null; then fail "$G paired refuses tx-usecs"; else pass "$G paired refuses tx-usecs"; fi
kernel_view "$V" >"$KERNEL_VIEW"
is "$(kval channels.combined)/$(kval channels.max_combined)" 4/4 "$V channels"
is "$(kval rss.indir_size)" 128 "$V RSS table size"
kernel_view "$E" >"$KERNEL_VIEW"
is "$(kval irqs | wc -w)" 3 "$E MSI-X vectors"
kernel_view "$N" >"$KERNEL_VIEW"
is "$(kval channels.combined)" 4 "$N channels"
finish
