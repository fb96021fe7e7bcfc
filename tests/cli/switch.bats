#!/usr/bin/env bats
# Policy switches and machine-wide sysctls on simulated machines: `set X`
# ends in the same state whatever ran before, and one device's reset or
# switch never takes away what another device's policy needs of the
# net.core sysctls (they exist only in the initial netns, so the sim).

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

POLICIES="cpu latency busy-poll throughput"

# The whole simulated machine as show sees it, without netpolicy's records.
state_of() {
	npsim --json "$1" show | jq -S 'del(.policy, .policy_cpus, .drift)'
}

sysctl_of() {
	npsim --json "$1" show | jq -r ".sysctl.$2"
}

@test "switching policies ends where setting the second from pristine does" {
	local model a b dev fail=0
	while read -r model; do
		for a in $POLICIES; do
			for b in $POLICIES; do
				[ "$a" = "$b" ] && continue
				np_model "$model"
				dev=$(jq -r '.devices[0].ifname' "$MODEL")
				rm -rf "$STATE_DIR"
				npsim "$dev" set "$b" >/dev/null
				state_of "$dev" >"$NP_TMP/direct"
				np_model "$model"
				rm -rf "$STATE_DIR"
				npsim "$dev" set "$a" >/dev/null
				npsim "$dev" set "$b" >/dev/null
				state_of "$dev" >"$NP_TMP/switched"
				if ! diff -u "$NP_TMP/direct" "$NP_TMP/switched"; then
					echo "# $model: $a then $b differs from $b alone"
					fail=1
				fi
			done
		done
	done <"$FIXTURES/golden/models.list"
	[ "$fail" -eq 0 ]
}

@test "latency then cpu turns RFS off; cpu then throughput turns NAPI deferral off" {
	np_model ixgbe-16cpu
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	npsim "$dev" set latency >/dev/null
	[ "$(sysctl_of "$dev" rps_sock_flow_entries)" = 32768 ]
	npsim "$dev" set cpu >/dev/null
	[ "$(sysctl_of "$dev" rps_sock_flow_entries)" = 0 ]
	[ "$(npsim --json "$dev" show | jq .napi.defer_hard_irqs)" = 2 ]
	npsim "$dev" set throughput >/dev/null
	[ "$(npsim --json "$dev" show | jq .napi.defer_hard_irqs)" = 0 ]
	[ "$(npsim --json "$dev" show | jq .napi.gro_flush_timeout)" = 0 ]
}

@test "two NICs on latency: resetting one leaves the other's sysctls, check passes" {
	np_two_nics ixgbe-16cpu
	a=$(jq -r '.devices[0].ifname' "$MODEL")
	npsim "$a" set latency >/dev/null
	npsim np1 set latency >/dev/null
	run npsim "$a" reset
	[ "$status" -eq 0 ]
	[ "$(sysctl_of np1 rps_sock_flow_entries)" = 32768 ]
	run npsim np1 check latency
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# the last one out restores the value from before any device needed it
	run npsim np1 reset
	[ "$status" -eq 0 ]
	[ "$(sysctl_of np1 rps_sock_flow_entries)" = 0 ]
	[ ! -e "$STATE_DIR/np1.sysctl" ]
}

@test "two NICs: the other's switch to cpu keeps what latency needs; reset order does not matter" {
	np_two_nics mlx5-2s64c
	a=$(jq -r '.devices[0].ifname' "$MODEL")
	npsim "$a" set busy-poll >/dev/null
	npsim np1 set latency >/dev/null
	[ "$(sysctl_of np1 busy_poll)" = 50 ]
	npsim "$a" set cpu >/dev/null
	# np1's latency needs RFS, nobody needs busy polling any more
	[ "$(sysctl_of np1 rps_sock_flow_entries)" = 32768 ]
	[ "$(sysctl_of np1 busy_poll)" = 0 ]
	run npsim np1 check latency
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	npsim np1 reset >/dev/null
	npsim "$a" reset >/dev/null
	[ "$(sysctl_of np1 rps_sock_flow_entries)" = 0 ]
}

@test "a reset dry run shows the sysctls another device still needs staying" {
	np_two_nics ixgbe-16cpu
	a=$(jq -r '.devices[0].ifname' "$MODEL")
	npsim "$a" set latency >/dev/null
	npsim np1 set latency >/dev/null
	run npsim "$a" reset --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" != *"rps_sock_flow_entries"* ]]
}

@test "an admin's larger rps_sock_flow_entries is kept, and kept after reset" {
	np_model ixgbe-16cpu
	jq '.sysctl.rps_sock_flow_entries = 65536' "$MODEL" >"$NP_TMP/m.json"
	MODEL=$NP_TMP/m.json
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	npsim "$dev" set latency >/dev/null
	[ "$(sysctl_of "$dev" rps_sock_flow_entries)" = 65536 ]
	npsim "$dev" reset >/dev/null
	[ "$(sysctl_of "$dev" rps_sock_flow_entries)" = 65536 ]
}

@test "busy-poll on a 1-CPU VM: no busy polling, a note says why" {
	np_model vm-1cpu
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npsim "$dev" set busy-poll --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" != *"busy_poll"* ]]
	[[ "$output" == *"busy-poll: not on a machine with one CPU"* ]]
}
