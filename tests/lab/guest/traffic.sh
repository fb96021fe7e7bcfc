# Packets land where the plan says (issue 22 item 5).  On igb and on
# virtio-net with QEMU's RSS (6.12 stack), for each policy: set it, then the
# host side of the tap sends a bounded burst of UDP from 32 addresses (lab.sh
# -H host/send.sh); the per-queue Rx counters (ethtool -S) must grow only on
# the queues the RSS table names, on more than one when it names more than
# one, and each Rx queue's interrupts must fire on the CPU the plan pinned
# its IRQ to.  TRAFFIC_DRIVER (igb) and TRAFFIC_POLICIES (throughput
# latency cpu) are set by a wrapper that sources this (traffic-virtio.sh).
. /lab/lib.sh

DRV=${TRAFFIC_DRIVER:-igb}
IF=$(nic "$DRV") || { fail "no $DRV NIC"; finish; }

ip addr add 10.99.0.2/24 dev "$IF"
ip link set "$IF" up
# per-queue Rx packets "QUEUE COUNT": igb and 6.1's virtio_net print
# rx_queue_N_packets in ethtool -S (some kernels rxN_packets); 6.12's
# virtio_net reports them only through netlink qstats (the lab's qstats
# tool, lab.sh -b)
rxq_counts() {
	ethtool -S "$1" | awk '/^ *rx(_queue_)?[0-9]+_packets:/ { sub(/^ *rx(_queue_)?/, ""); sub(/_packets:/, ""); print $1, $2; n++ } END { exit !n }' ||
		qstats "$1"
}
# irq_total N: interrupts of IRQ N per CPU, "c0 c1 ..."
irq_cpus() { awk -v n="$1:" '$1 == n { for (i = 2; i <= 1 + nc; i++) printf "%s ", $i; print "" }' nc="$(nproc)" /proc/interrupts; }
round=0
for P in ${TRAFFIC_POLICIES:-throughput latency cpu}; do
	carrier "$IF"
	run_np /tmp/set.out 0 "$NP" "$IF" set "$P"
	carrier "$IF"
	kernel_view "$IF" >"$KERNEL_VIEW"
	table=$(rss_table "$IF")
	named=$(echo "$table" | tr ' ' '\n' | sort -un | xargs)
	rxq_counts "$IF" >/tmp/q.before
	for q in $named; do
		irq=$(irq_of rx "$q" "$KERNEL_VIEW"); [ -n "$irq" ] || irq=$(irq_of txrx "$q" "$KERNEL_VIEW")
		[ -n "$irq" ] && echo "$q $irq $(irq_cpus "$irq")" >>/tmp/irq.before.$P
	done
	round=$((round + 1))
	echo "NPLAB-SEND $round"
	i=0 total=0
	while [ $i -lt 40 ]; do
		usleep 500000
		i=$((i + 1))
		total=$(rxq_counts "$IF" | awk 'NR == FNR { b[$1] = $2; next } { t += $2 - b[$1] } END { print t + 0 }' /tmp/q.before -)
		[ "$total" -ge 1900 ] && break
	done
	rxq_counts "$IF" >/tmp/q.after
	ok "$IF $P: at least 500 of 2000 datagrams counted on Rx queues (got $total)" [ "$total" -ge 500 ]
	got=$(awk 'NR == FNR { b[$1] = $2; next } $2 - b[$1] > 0 { print $1 }' /tmp/q.before /tmp/q.after | sort -n | xargs)
	diag "$IF $P: RSS table names queues '$named'; traffic on '$got'"
	for q in $got; do
		case " $named " in
		*" $q "*) pass "$IF $P: rx queue $q got traffic and the table names it" ;;
		*) fail "$IF $P: rx queue $q got traffic but the table does not name it" ;;
		esac
	done
	[ "$(echo "$named" | wc -w)" -lt 2 ] || ok "$IF $P: more than one queue got traffic ('$got')" [ "$(echo "$got" | wc -w)" -ge 2 ]
	while read -r q irq before; do
		case " $got " in *" $q "*) ;; *) continue ;; esac
		want=$(cat /proc/irq/$irq/smp_affinity_list)
		after=$(irq_cpus "$irq")
		d=$(echo "$before | $after" | awk -F'|' '{ n = split($1, a, " "); split($2, b, " "); for (i = 1; i <= n; i++) printf "%d ", b[i] - a[i] }')
		on=$(echo "$d" | awk -v w="$want" '{ t = 0; for (i = 1; i <= NF; i++) t += $i; print (t && w ~ /^[0-9]+$/ ? $(w + 1) * 100 / t : -1) }')
		diag "$IF $P: rx queue $q IRQ $irq pinned to $want, interrupts per CPU: $d"
		ok "$IF $P: rx queue $q's IRQ $irq fired on its CPU $want (${on%.*}% of its interrupts)" [ "${on%.*}" -ge 90 ]
	done </tmp/irq.before.$P
	run_np /tmp/reset.out 0 "$NP" "$IF" reset
done
finish
