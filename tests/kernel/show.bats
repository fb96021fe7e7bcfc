#!/usr/bin/env bats
# Discovery through the real kernel: a veth pair with 8 queues in a private
# network namespace, every figure checked against ethtool and sysfs.

load ../helpers

setup() {
	np_veth_setup
	run npns --json v0 show
	[ "$status" -eq 0 ]
	echo "$output" >"$NP_TMP/show.json"
	J=$NP_TMP/show.json
}

teardown() { np_veth_teardown; }

ethtool_l() {	# field of `ethtool -l`: "Current" or "Pre-set" section, RX/TX/Other/Combined
	ip netns exec "$NS" ethtool -l v0 | awk -v sec="$1" -v key="$2:" '
		$0 ~ sec { insec = 1; next } insec && $1 == key { print $2; exit }'
}

@test "identity: name, driver, ifindex, mtu, queue allocation" {
	[ "$(jq -r .ifname "$J")" = v0 ]
	[ "$(jq -r .driver "$J")" = veth ]
	[ "$(jq -r .ifindex "$J")" = "$(ip netns exec "$NS" cat /sys/class/net/v0/ifindex)" ]
	[ "$(jq -r .mtu "$J")" = "$(ip netns exec "$NS" cat /sys/class/net/v0/mtu)" ]
	[ "$(jq -r .num_rx_queues "$J")" = 8 ]
	[ "$(jq -r .num_tx_queues "$J")" = 8 ]
	[ "$(jq -r .operstate "$J")" = "$(ip netns exec "$NS" cat /sys/class/net/v0/operstate)" ]
}

@test "channels agree with ethtool -l" {
	[ "$(jq -r .channels.supported "$J")" = true ]
	[ "$(jq -r .channels.rx "$J")" = "$(ethtool_l Current RX)" ]
	[ "$(jq -r .channels.tx "$J")" = "$(ethtool_l Current TX)" ]
	[ "$(jq -r .channels.max_rx "$J")" = "$(ethtool_l Pre-set RX)" ]
	[ "$(jq -r .channels.max_tx "$J")" = "$(ethtool_l Pre-set TX)" ]
	[ "$(jq -r .channels.max_rx "$J")" = 8 ]
}

@test "channels follow a change made by ethtool -L" {
	ip netns exec "$NS" ethtool -L v0 rx 3 tx 5
	run npns --json v0 show
	[ "$(jq -r .channels.rx <<<"$output")" = 3 ]
	[ "$(jq -r .channels.tx <<<"$output")" = 5 ]
	[ "$(jq -r '.queues.rx | length' <<<"$output")" = 3 ]
	[ "$(jq -r '.queues.tx | length' <<<"$output")" = 5 ]
}

@test "veth lacks rings, coalescing and RSS: reported unsupported, with the errno" {
	for k in rings coalesce rss; do
		[ "$(jq -r ".$k.supported" "$J")" = false ]
		[ "$(jq -r ".$k.errno" "$J")" = 95 ]
	done
	# and ethtool agrees
	! ip netns exec "$NS" ethtool -g v0 2>/dev/null || false
	! ip netns exec "$NS" ethtool -c v0 2>/dev/null || false
}

@test "text output says what the driver does not support" {
	run npns v0 show
	[ "$status" -eq 0 ]
	[[ "$output" == *"rings:"*"not supported by driver veth"* ]]
	[[ "$output" == *"coalesce:"*"not supported by driver veth"* ]]
	[[ "$output" == *"channels:"*"rx 8 (max 8)"* ]]
}

@test "per-queue RPS, flow counts and XPS agree with sysfs" {
	local q
	for q in 0 1 2 3 4 5 6 7; do
		local base=/sys/class/net/v0/queues
		[ "$(jq -r ".queues.rx[$q].rps_cpus" "$J")" = \
		  "$(hex2list "$(ip netns exec "$NS" cat $base/rx-$q/rps_cpus)")" ]
		[ "$(jq -r ".queues.rx[$q].rps_flow_cnt" "$J")" = \
		  "$(ip netns exec "$NS" cat $base/rx-$q/rps_flow_cnt)" ]
		[ "$(jq -r ".queues.tx[$q].xps_cpus" "$J")" = \
		  "$(hex2list "$(ip netns exec "$NS" cat $base/tx-$q/xps_cpus)")" ]
		[ "$(jq -r ".queues.tx[$q].xps_rxqs" "$J")" = \
		  "$(hex2list "$(ip netns exec "$NS" cat $base/tx-$q/xps_rxqs)")" ]
	done
}

@test "masks written with the kernel's tools are read back exactly" {
	local base=/sys/class/net/v0/queues
	ip netns exec "$NS" sh -c "echo 2 > $base/rx-1/rps_cpus; echo 4096 > $base/rx-1/rps_flow_cnt; echo 1 > $base/tx-3/xps_cpus"
	run npns --json v0 show
	[ "$(jq -r '.queues.rx[1].rps_cpus' <<<"$output")" = 1 ]
	[ "$(jq -r '.queues.rx[1].rps_flow_cnt' <<<"$output")" = 4096 ]
	[ "$(jq -r '.queues.tx[3].xps_cpus' <<<"$output")" = 0 ]
}

@test "features agree with ethtool -k" {
	local name state key
	[ "$(jq -r .features.supported "$J")" = true ]
	[ "$(jq -r '.features.list | length' "$J")" -ge 30 ]
	n=0
	while read -r name state; do
		name=${name%:}
		# ethtool -k prints a few features under their old ioctl-era names
		# (the ones that stand for several bits are skipped)
		case $name in
		generic-receive-offload) key=rx-gro ;;
		generic-segmentation-offload) key=tx-generic-segmentation ;;
		large-receive-offload) key=rx-lro ;;
		rx-checksumming) key=rx-checksum ;;
		rx-vlan-offload) key=rx-vlan-hw-parse ;;
		tx-vlan-offload) key=tx-vlan-hw-insert ;;
		ntuple-filters) key=rx-ntuple-filter ;;
		receive-hashing) key=rx-hashing ;;
		scatter-gather|tcp-segmentation-offload|tx-checksumming) continue ;;
		*) key=$name ;;
		esac
		[ "$(jq -r ".features.list[\"$key\"].active" "$J")" = "$([ "$state" = on ] && echo true || echo false)" ] ||
			{ echo "feature $name differs"; return 1; }
		n=$((n + 1))
	done < <(ip netns exec "$NS" ethtool -k v0 | awk 'NR > 1 && $1 ~ /^[a-z0-9-]+:$/ && ($2 == "on" || $2 == "off") {print $1, $2}')
	[ "$n" -ge 30 ]
}

@test "topology agrees with sysfs" {
	[ "$(jq -r .topology.online "$J")" = "$(cat /sys/devices/system/cpu/online)" ]
	[ "$(jq -r .topology.nr_cpus "$J")" -ge "$(nproc)" ]
	[ "$(jq -r '.topology.cpus | map(select(.online)) | length' "$J")" = "$(nproc)" ]
}

@test "veth has no IRQs: none reported, not an error" {
	[ "$(jq -r '.irqs | length' "$J")" = 0 ]
	[ "$(jq -r .numa_node "$J")" = -1 ]
}

@test "show of every device lists both ends of the pair" {
	run npns --json show
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.devices[].ifname] | sort | join(" ")' <<<"$output")" = "v0 v1" ]
}

@test "a device deleted before show: exit 1, one line" {
	ip -n "$NS" link del v0
	run npns v0 show
	[ "$status" -eq 1 ]
	[ "$output" = "netpolicy: v0: no such device" ]
}

@test "show opens each queue file once, and no file twice" {
	# strace inside the namespace: only netpolicy is traced, not ip
	ASAN_OPTIONS=detect_leaks=0 run ip netns exec "$NS" strace -f -e trace=openat \
		-o "$NP_TMP/trace" "$NETPOLICY" --state-dir "$STATE_DIR" --json v0 show
	[ "$status" -eq 0 ]
	# rps_cpus, rps_flow_cnt, xps_cpus, xps_rxqs of 8 queue pairs, opened
	# relative to one fd of queues/
	[ "$(grep -cE 'openat\([0-9]+, "[rt]x-[0-9]+/' "$NP_TMP/trace")" -eq 32 ]
	# the device's own files: the three NAPI files and queues/ (a veth has
	# no device/ link, so nothing below it is looked for)
	[ "$(grep -c 'openat([0-9]*, "sys/class/net/v0/' "$NP_TMP/trace")" -eq 4 ]
	# nothing under /sys or /proc read twice (the topology's cpu/online
	# and cpu/isolated once, for its key and its reading)
	! grep -oE 'openat\([0-9]+, "(sys|proc)/[^"]*"' "$NP_TMP/trace" | sort | uniq -d | grep . || false
}

@test "show maps the heap it fills in one madvise, before reading the device" {
	# page faults are a tenth of a show under a hypervisor's paging
	# (netpolicy/heap.c, bench/README.md)
	ASAN_OPTIONS=detect_leaks=0 run ip netns exec "$NS" strace -f -e trace=madvise,socket \
		-o "$NP_TMP/trace" "$NETPOLICY" --state-dir "$STATE_DIR" --json v0 show
	[ "$status" -eq 0 ]
	if grep -q 'MADV_POPULATE_WRITE) = -1 EINVAL' "$NP_TMP/trace"; then
		skip "this kernel has no MADV_POPULATE_WRITE (Linux 5.14)"
	fi
	[ "$(grep -c 'MADV_POPULATE_WRITE) = 0' "$NP_TMP/trace")" -eq 1 ]
	# before the first netlink socket: the mapping is for what discovery fills
	first=$(grep -nE 'MADV_POPULATE_WRITE|socket\(' "$NP_TMP/trace" | head -1)
	[[ $first == *MADV_POPULATE_WRITE* ]]
}
