#!/usr/bin/env bats
# The throughput and mixed policies' host-side ceilings on simulated
# machines: socket buffer ceilings sized to the link (twice the
# bandwidth-delay product over rtt-us, 250 us by default), the RPS backlog,
# shared across devices like the other machine-wide sysctls
# (netpolicy-policies(7)).

load ../helpers

setup() {
	np_tmpdir
	POL=$NP_TMP/policies.d
	mkdir -p "$POL"
}
teardown() { np_cleanup_tmp; }

npp() { npsim --policy-dir "$POL" "$@"; }

sys() {
	npsim --json "$1" show | jq -c ".sysctl.$2"
}

@test "10 Gb/s: rmem_max/wmem_max to 2 x BDP at 250 us; the higher tcp maxima kept; reset exact" {
	np_model ixgbe-16cpu
	cp "$MODEL" "$NP_TMP/orig.json"
	run npsim enp3s0f0 set throughput
	[ "$status" -eq 0 ]
	# 10000 Mb/s x 250 us / 8 = 312500 bytes, twice, in whole pages
	[ "$(sys enp3s0f0 rmem_max)" = 626688 ]
	[ "$(sys enp3s0f0 wmem_max)" = 626688 ]
	[ "$(sys enp3s0f0 tcp_rmem)" = "[4096,131072,6291456]" ]
	[ "$(sys enp3s0f0 tcp_wmem)" = "[4096,16384,4194304]" ]
	run npsim enp3s0f0 check
	[ "$status" -eq 0 ]
	run npsim enp3s0f0 set throughput --dry-run
	[[ "$output" == "enp3s0f0: throughput: no changes"* ]]
	npsim enp3s0f0 reset >/dev/null
	[ "$(jq -S .sysctl "$MODEL")" = "$(jq -S .sysctl "$NP_TMP/orig.json")" ]
}

@test "100 Gb/s: tcp_wmem's max raised (min and default as they were), tcp_rmem's higher max kept" {
	np_model ice-100g
	npsim ens801f0 set throughput >/dev/null
	[ "$(sys ens801f0 rmem_max)" = 6250496 ]
	[ "$(sys ens801f0 wmem_max)" = 6250496 ]
	[ "$(sys ens801f0 tcp_wmem)" = "[4096,16384,6250496]" ]
	[ "$(sys ens801f0 tcp_rmem)" = "[4096,131072,6291456]" ]
	run npsim ens801f0 show
	[[ "$output" == *"  sysctl:        rps_sock_flow_entries 32768, busy_poll 0, busy_read 0"$'\n'"                 rmem_max 6250496, wmem_max 6250496, netdev_max_backlog 1000"$'\n'"                 tcp_rmem 4096 131072 6291456, tcp_wmem 4096 16384 6250496"* ]]
	npsim ens801f0 check >/dev/null
	npsim ens801f0 reset >/dev/null
	[ "$(sys ens801f0 tcp_wmem)" = "[4096,16384,4194304]" ]
	[ "$(sys ens801f0 rmem_max)" = 212992 ]
}

@test "RPS planned: netdev_max_backlog sized to one queue's share of the link over 2 ms; none without RPS" {
	np_model epyc-4ccx
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npsim "$dev" set throughput --dry-run
	[[ "$output" == *"  rps: rx-0..7 none -> "* ]]
	# 100000 Mb/s / (8 x 1538 bytes) / 8 queues x 2 ms = 2031.9 packets
	[[ "$output" == *"net.core.netdev_max_backlog 1000 -> 2032"* ]]
	npsim "$dev" set throughput >/dev/null
	[ "$(sys "$dev" netdev_max_backlog)" = 2032 ]
	npsim "$dev" reset >/dev/null
	[ "$(sys "$dev" netdev_max_backlog)" = 1000 ]
	np_model ice-100g
	run npsim ens801f0 set throughput --dry-run
	[[ "$output" != *"  rps: rx-"* && "$output" != *netdev_max_backlog* ]]
}

@test "mixed: the socket buffer ceilings for its bulk class as throughput, the backlog left; check; reset exact" {
	np_model mlx5-mixed
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	cp "$MODEL" "$NP_TMP/orig.json"
	run npsim "$dev" set mixed --flow latency:tcp:6379 --flow throughput:tcp:5201
	[ "$status" -eq 0 ]
	# 100 Gb/s: as throughput (one bulk flow may run at the link's speed)
	[ "$(sys "$dev" rmem_max)" = 6250496 ]
	[ "$(sys "$dev" wmem_max)" = 6250496 ]
	[ "$(sys "$dev" tcp_wmem)" = "[4096,16384,6250496]" ]
	[ "$(sys "$dev" tcp_rmem)" = "[4096,131072,6291456]" ]
	# no RPS in mixed: the backlog as it was
	[ "$(sys "$dev" netdev_max_backlog)" = 1000 ]
	run npsim "$dev" check
	[ "$status" -eq 0 ]
	npsim "$dev" reset >/dev/null
	[ "$(jq -S .sysctl "$MODEL")" = "$(jq -S .sysctl "$NP_TMP/orig.json")" ]
}

@test "mixed without a throughput class: a note, and no ceiling changes" {
	np_model mlx5-mixed
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npsim "$dev" set mixed --flow latency:tcp:6379 --default latency --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" == *"buffers: no throughput class: socket buffer ceilings stay as they are"* ]]
	[[ "$output" != *rmem* && "$output" != *wmem* ]]
}

@test "link speed unknown: a note, and no ceiling changes" {
	np_model virtio-4q
	run npsim enp0s3 set throughput --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" == *"buffers: link speed unknown: socket buffer ceilings stay as they are"* ]]
	[[ "$output" != *rmem* && "$output" != *wmem* ]]
}

@test "an admin's higher rmem_max is never lowered, and kept after reset" {
	np_model ice-100g
	jq '.sysctl.rmem_max = 16777216 | .sysctl.tcp_wmem = [4096, 65536, 16777216]' \
		"$MODEL" >"$NP_TMP/m.json"
	MODEL=$NP_TMP/m.json
	npsim ens801f0 set throughput >/dev/null
	[ "$(sys ens801f0 rmem_max)" = 16777216 ]
	[ "$(sys ens801f0 wmem_max)" = 6250496 ]
	[ "$(sys ens801f0 tcp_wmem)" = "[4096,65536,16777216]" ]
	npsim ens801f0 reset >/dev/null
	[ "$(sys ens801f0 rmem_max)" = 16777216 ]
	[ "$(sys ens801f0 wmem_max)" = 212992 ]
}

@test "two devices: the largest need wins; a reset keeps what the other needs" {
	np_two_nics ixgbe-16cpu
	printf 'base = throughput\nrtt-us = 1000\n' >"$POL/far.conf"
	npp np1 set far >/dev/null
	# 10000 Mb/s x 1000 us / 8 x 2 = 2500000 -> 2502656
	[ "$(sys np1 rmem_max)" = 2502656 ]
	npp enp3s0f0 set throughput >/dev/null
	[ "$(sys np1 rmem_max)" = 2502656 ]
	npp enp3s0f0 check >/dev/null
	npp np1 reset >/dev/null
	[ "$(sys np1 rmem_max)" = 626688 ]
	[ "$(sys np1 wmem_max)" = 626688 ]
	npp enp3s0f0 check >/dev/null
	npp enp3s0f0 reset >/dev/null
	[ "$(sys np1 rmem_max)" = 212992 ]
	[ "$(sys np1 wmem_max)" = 212992 ]
}

@test "custom policies: socket-buffers off or a number, rtt-us, backlog a number" {
	np_model ixgbe-16cpu
	printf 'base = throughput\nsocket-buffers = off\n' >"$POL/nobuf.conf"
	run npp enp3s0f0 set nobuf --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" != *rmem_max* ]]
	printf 'base = throughput\nrtt-us = 500\n' >"$POL/rtt.conf"
	run npp enp3s0f0 set rtt --dry-run
	[[ "$output" == *"net.core.rmem_max 212992 -> 1253376"* ]]
	printf 'base = cpu\nsocket-buffers = 8388608\nbacklog = 5000\n' >"$POL/fixed.conf"
	npp enp3s0f0 set fixed >/dev/null
	[ "$(sys enp3s0f0 rmem_max)" = 8388608 ]
	[ "$(sys enp3s0f0 tcp_rmem)" = "[4096,131072,8388608]" ]
	[ "$(sys enp3s0f0 netdev_max_backlog)" = 5000 ]
	npp enp3s0f0 check >/dev/null
	npp enp3s0f0 reset >/dev/null
	[ "$(sys enp3s0f0 netdev_max_backlog)" = 1000 ]
	[ "$(sys enp3s0f0 tcp_rmem)" = "[4096,131072,6291456]" ]
	run "$NETPOLICY" --policy-dir "$POL" --json policies
	[ "$(jq -r '.policies[] | select(.name == "rtt") | .values["rtt-us"]' <<<"$output")" = 500 ]
	[ "$(jq -r '.policies[] | select(.name == "throughput") | .values["socket-buffers"]' <<<"$output")" = auto ]
	[ "$(jq -r '.policies[] | select(.name == "fixed") | .values.backlog' <<<"$output")" = 5000 ]
	printf 'base = throughput\nsocket-buffers = lots\n' >"$POL/bad.conf"
	run npp enp3s0f0 set bad --dry-run
	[ "$status" -ne 0 ]
	[[ "$output" == *"'lots' is not a value of socket-buffers"* ]]
}

@test "a child namespace's view: read-only rmem_max is a note, tcp_rmem/wmem still planned" {
	np_model epyc-4ccx
	jq '.sysctl.rmem_max = null | .sysctl.rmem_max_error = "Permission denied" |
	    .sysctl.rmem_max_errno = "EACCES" | del(.sysctl.netdev_max_backlog)' \
		"$MODEL" >"$NP_TMP/m.json"
	MODEL=$NP_TMP/m.json
	run npsim ens1f0np0 set throughput --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" == *"net.core.rmem_max/wmem_max: read-only in this network namespace"* ]]
	[[ "$output" == *"net.core.netdev_max_backlog: not in this network namespace"* ]]
	[[ "$output" == *"net.ipv4.tcp_wmem max 4194304 -> 6250496"* ]]
	[[ "$output" != *"net.core.wmem_max"*"->"* ]]
}

@test "the simulator refuses what the kernel refuses: a tcp_rmem value under 4096, a short rmem_max" {
	np_model ixgbe-16cpu
	printf 'base = cpu\nsocket-buffers = 2048\n' >"$POL/tiny.conf"
	jq '.sysctl.rmem_max = 1024 | .sysctl.tcp_rmem = [4096, 4096, 1024]' "$MODEL" >"$NP_TMP/m.json"
	MODEL=$NP_TMP/m.json
	# rmem_max 2048 is under SOCK_MIN_RCVBUF, tcp_rmem's max under 4096:
	# refused, so dropped (not a core knob), the rest applied
	run npp enp3s0f0 set tiny
	[ "$status" -eq 0 ]
	[[ "$output" == *"dropped sysctl (the driver refused it: sysctl: /proc/sys/net/core/rmem_max: Invalid argument)"* ]]
	[ "$(sys enp3s0f0 rmem_max)" = 1024 ]
	[ "$(sys enp3s0f0 tcp_rmem)" = "[4096,4096,1024]" ]
}

@test "a sysctl record from before the ceilings: read, its pristine ceilings the live ones" {
	np_model ixgbe-16cpu
	npsim enp3s0f0 set latency >/dev/null
	rec=$(ls "$STATE_DIR"/*enp3s0f0*.sysctl)
	jq '.sysctls |= with_entries(select(.key | test("rmem|wmem|backlog") | not))' "$rec" \
		>"$NP_TMP/old" && cp "$NP_TMP/old" "$rec"
	[ "$(jq '.sysctls | length' "$rec")" = 3 ]
	npsim enp3s0f0 set throughput >/dev/null
	[ "$(sys enp3s0f0 rmem_max)" = 626688 ]
	npsim enp3s0f0 reset >/dev/null
	[ "$(sys enp3s0f0 rmem_max)" = 212992 ]
	[ "$(sys enp3s0f0 rps_sock_flow_entries)" = 0 ]
}
