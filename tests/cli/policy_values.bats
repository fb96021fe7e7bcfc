#!/usr/bin/env bats
# Plain values in custom policies (netpolicy-policy(5)): channels and rings
# as numbers or max, offload features on or off, each clamped to the device
# with a note; fixed coalescing values that the base's adaptive moderation
# would ignore.

load ../helpers
bats_require_minimum_version 1.5.0

setup() { np_tmpdir && mkdir -p "$NP_TMP/pol"; }
teardown() { np_cleanup_tmp; }

npp() { npsim --policy-dir "$NP_TMP/pol" "$@"; }

# The dry run of policy $2 on model $1's first device into $output.
dry() {
	np_model "$1"
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npp "$dev" set "$2" --dry-run
	[ "$status" -eq 0 ]
}

# The man page's own example.
bulk() {
	cat >"$NP_TMP/pol/bulk.conf" <<-EOF
	base = throughput
	summary = bulk transfers: throughput with heavier moderation
	coalesce.rx-usecs = 100
	coalesce.tx-usecs = 100
	rfs-entries = 65536
	EOF
}

@test "the man page's bulk.conf sets rx-usecs 100 on mlx5: adaptive moderation off, with a note" {
	bulk
	dry mlx5-2s64c bulk
	[[ "$output" == *"  coalesce: rx-usecs 8 -> 100"* ]]
	[[ "$output" == *"  coalesce: tx-usecs 16 -> 100"* ]]
	[[ "$output" == *"  coalesce: adaptive-rx on -> off"* ]]
	[[ "$output" == *"  coalesce: adaptive-tx on -> off"* ]]
	[[ "$output" == *"adaptive moderation off: $NP_TMP/pol/bulk.conf:3 asks for a fixed value"* ]]
	run npp "$dev" set bulk
	[ "$status" -eq 0 ]
	[ "$(jq -c '.devices[0].coalesce.fields | [.["rx-usecs"], .["adaptive-rx"]]' "$MODEL")" = '[100,false]' ]
	run npp "$dev" check
	[ "$status" -eq 0 ]
}

@test "the man page's bulk.conf on ixgbe: a fixed rx-usecs instead of the dynamic ITR" {
	bulk
	dry ixgbe-16cpu bulk
	[[ "$output" == *"  coalesce: rx-usecs 1 -> 100"* ]]
	[[ "$output" == *"adaptive moderation off: $NP_TMP/pol/bulk.conf:3"* ]]
}

@test "a file that sets adaptive = yes keeps adaptive moderation: the fixed value is for drivers without it" {
	np_model mlx5-2s64c
	printf 'base = throughput\nadaptive = yes\ncoalesce.rx-usecs = 100\n' >"$NP_TMP/pol/a.conf"
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npp "$dev" set a --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" != *"rx-usecs 8 -> 100"* ]]
	[[ "$output" != *"adaptive-rx on -> off"* ]]
	[[ "$output" != *"adaptive moderation off"* ]]
}

@test "channels and rings take numbers and max, clamped to the driver's maxima with a note" {
	printf 'base = throughput\nchannels = 8\nrings = max\nrings.tx = 2048\n' >"$NP_TMP/pol/n.conf"
	dry mlx5-2s64c n
	[[ "$output" == *"  channels: combined 63 -> 8"* ]]
	[[ "$output" == *"  rings: rx 1024 -> 8192"* ]]
	[[ "$output" == *"  rings: tx 1024 -> 2048"* ]]
	printf 'base = cpu\nchannels = max\nrings = 100000\n' >"$NP_TMP/pol/big.conf"
	run npp "$dev" set big --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" != *"  channels: combined"* ]]
	[[ "$output" == *"  rings: rx 1024 -> 8192"* ]]
	[[ "$output" == *"rings: rx ring 100000 asked, the driver's maximum is 8192: 8192 used"* ]]
	printf 'base = cpu\nchannels = 100\n' >"$NP_TMP/pol/c.conf"
	run npp "$dev" set c --dry-run
	[[ "$output" == *"channels: 100 combined queues wanted, driver maximum is 63"* ]]
	run npp "$dev" set n
	[ "$status" -eq 0 ]
	[ "$(jq -c '.devices[0] | [.channels.combined, .rings.rx, .rings.tx]' "$MODEL")" = '[8,8192,2048]' ]
	run npp "$dev" check
	[ "$status" -eq 0 ]
}

@test "features.NAME = on|off: ethtool's short names and the kernel's, fixed ones noted, put back on reset" {
	printf 'base = throughput\nfeatures.gro = off\nfeatures.rx-lro = on\nfeatures.rxhash = on\n' >"$NP_TMP/pol/f.conf"
	dry mlx5-2s64c f
	[[ "$output" == *"  features: rx-gro on -> off"* ]]
	[[ "$output" == *"  features: rx-lro off -> on"* ]]
	run npp "$dev" set f
	[ "$status" -eq 0 ]
	[ "$(jq -c '.devices[0].features.list["rx-gro"].wanted' "$MODEL")" = false ]
	# another policy puts the offload back as it was
	run npp "$dev" set throughput --dry-run
	[[ "$output" == *"  features: rx-gro off -> on"* ]]
	run npp "$dev" reset
	[ "$status" -eq 0 ]
	[ "$(jq -c '.devices[0].features.list["rx-gro"].wanted' "$MODEL")" = true ]
	# a fixed feature is not planned, and the plan says so
	jq '.devices[0].features.list["rx-gro"].fixed = true' "$MODEL" >"$NP_TMP/m" && cp "$NP_TMP/m" "$MODEL"
	run npp "$dev" set f --dry-run
	[[ "$output" == *"features: gro (rx-gro) is on and fixed by driver mlx5_core"* ]]
}

@test "plain values: mistakes name the valid words, and policies --json round-trips them" {
	np_model mlx5-2s64c
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	printf 'base = throughput\nchannels = 0\n' >"$NP_TMP/pol/z.conf"
	run npp "$dev" set z --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"z.conf:2:12: '0' is not a value of channels (valid: a number from 1, link-speed local-cores max)"* ]]
	printf 'base = throughput\nfeatures.tx-checksum-ip-generic = off\n' >"$NP_TMP/pol/z.conf"
	run npp "$dev" set z --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"z.conf:2:1: features.tx-checksum-ip-generic: not a feature a policy sets (valid: gro lro"* ]]
	rm "$NP_TMP/pol/z.conf"
	printf 'base = throughput\nchannels = 8\nrings.rx = 4096\nfeatures.gro = off\ncoalesce.rx-usecs = 100\n' >"$NP_TMP/pol/r.conf"
	run "$NETPOLICY" --policy-dir "$NP_TMP/pol" --json policies
	[ "$(jq -c '.policies[] | select(.name == "r") | .values | [.channels, .["rings.rx"], .["features.gro"], .adaptive]' <<<"$output")" = '[8,4096,false,false]' ]
	mkdir -p "$NP_TMP/p2"
	jq -r '.policies[] | select(.name == "r") | "base = \(.base)", (.values | to_entries[] | select(.key != "core") | "\(.key) = \(.value)")' <<<"$output" >"$NP_TMP/p2/r.conf"
	npp "$dev" set r --dry-run | grep -v "^notes:\|adaptive moderation off" >"$NP_TMP/a"
	npsim --policy-dir "$NP_TMP/p2" "$dev" set r --dry-run | grep -v "^notes:\|adaptive moderation off" | diff "$NP_TMP/a" -
}
