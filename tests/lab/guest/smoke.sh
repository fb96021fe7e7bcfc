# The lab itself works: the guest has the kernel, CPUs, drivers and tools the
# scenarios rely on, and lib.sh's kernel_view reads the known facts of each
# driver (README.md's table).  Runs with -n virtio-rss:4 -n e1000e.
. /lab/lib.sh

is "$(uname -r | cut -d. -f1,2)" 6.1 "guest kernel"
is "$(nproc)" 4 "guest CPUs"
V=$(nic virtio_net) && pass "virtio_net NIC $V" || fail "no virtio_net NIC"
E=$(nic e1000e) && pass "e1000e NIC $E" || fail "no e1000e NIC"
N=$(nsim_add 1 4) && pass "netdevsim NIC $N" || fail "no netdevsim NIC"
is "$(jq -n '[1, 2] | add')" 3 "jq runs"
for i in "$V" "$E" "$N"; do ip link set "$i" up; done	# drivers request IRQs on open

kernel_view "$V" >"$KERNEL_VIEW"
is "$(kval channels.combined)/$(kval channels.max_combined)/$(kval channels.max_rx)" 4/4/0 "$V channels"
is "$(kval rings.max_rx)" 256 "$V max rx ring"
# reported but not settable without VIRTIO_NET_F_NOTF_COAL (netpolicy's quirk)
is "$(grep '^coalesce' "$KERNEL_VIEW" | xargs)" \
	"coalesce.supported true coalesce-fixed.rx-frames 1 coalesce-fixed.rx-usecs 0 coalesce-fixed.tx-frames 1 coalesce-fixed.tx-usecs 0" \
	"$V coalesce"
is "$(cut -c53-54 /sys/class/net/"$V"/device/features)" 00 "$V lacks VIRTIO_NET_F_VQ_NOTF_COAL and _NOTF_COAL"
if ethtool -C "$V" rx-usecs 8 2>/dev/null; then fail "$V refuses rx-usecs 8"; else pass "$V refuses rx-usecs 8"; fi
if ethtool -C "$V" tx-frames 2 2>/dev/null; then fail "$V refuses tx-frames 2"; else pass "$V refuses tx-frames 2"; fi
is "$(kval rss.indir_size)" 128 "$V RSS table size"
is "$(kval rss.key | wc -c)" 81 "$V RSS key of 40 bytes"
is "$(kval rss.hfunc)" toeplitz "$V RSS hash function"
is "$(kval irqs | wc -w)" 9 "$V MSI-X vectors"
is "$(grep -c ' rx [0-3]$' "$KERNEL_VIEW")" 4 "$V rx IRQs"
is "$(kval txq.1.xps_cpus)" 1 "$V tx-1 XPS"
is "$(kval rxqs)/$(kval txqs)" 4/4 "$V queues"

kernel_view "$E" >"$KERNEL_VIEW"
is "$(kval channels.supported)" false "$E channels"
is "$(kval rings.max_rx)" 4096 "$E max rx ring"
is "$(grep '^coalesce\.' "$KERNEL_VIEW" | xargs)" "coalesce.supported true coalesce.rx-usecs 3" "$E coalesce"
is "$(kval rss.supported)" false "$E RSS"
is "$(grep '\.role ' "$KERNEL_VIEW" | cut -d' ' -f2- | sort | xargs)" "other -1 rx 0 tx 0" "$E IRQs"
is "$(grep -c xps_cpus "$KERNEL_VIEW")" 0 "$E xps_cpus unreadable (single queue)"

snapshot "$N" /tmp/nsim.saved
ok "$N ethtool -C" ethtool -C "$N" rx-usecs 17 adaptive-rx on
kernel_view "$N" >"$KERNEL_VIEW"
is "$(kval channels.combined)" 4 "$N combined channels"
is "$(kval coalesce.rx-usecs)/$(kval coalesce.adaptive-rx)" 17/1 "$N coalesce"
is "$(grep -c '^coalesce\.' "$KERNEL_VIEW")" 25 "$N coalesce fields (all 24)"
is "$(kval rings.max_rx_mini)" 4096 "$N max rx-mini ring"
is "$(kval rss.supported)" false "$N RSS"
is "$(kval irqs)" "" "$N IRQs"
ok "$N ethtool -C back" ethtool -C "$N" rx-usecs 0 adaptive-rx off
check_restored "$N" /tmp/nsim.saved

if command -v netpolicy >/dev/null; then
	ok "netpolicy runs in the guest" netpolicy --version
else
	diag "netpolicy not shipped"
fi
finish
