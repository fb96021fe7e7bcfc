#!/usr/bin/env bats
# The example programs (examples/) are built by `make check` against the
# public header only; run them so they cannot rot.

load ../helpers

setup() {
	np_tmpdir
	EXAMPLES=${NP_BUILDDIR:-$(dirname "$NETPOLICY")/..}/examples
	[ -x "$EXAMPLES/show_state" ] || skip "examples not built (make check builds them)"
}
teardown() { np_cleanup_tmp; }

@test "show_state: discovers a device and counts the throughput plan's steps" {
	np_model ixgbe-16cpu
	cp "$MODEL" "$NP_TMP/orig.json"
	run "$EXAMPLES/show_state" --model "$MODEL" enp3s0f0
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "enp3s0f0: driver ixgbe, 16 combined channels (max 63)" ]
	# the same plan the CLI makes
	steps=$(npsim --json enp3s0f0 set throughput --dry-run | jq '.steps | length')
	[ "${lines[1]}" = "throughput plan: $steps steps" ]
	cmp "$MODEL" "$NP_TMP/orig.json"
}

@test "show_state: errors are one line, exit 1; usage exit 2" {
	np_model virtio-4q
	run "$EXAMPLES/show_state" --model "$MODEL" npnosuch0
	[ "$status" -eq 1 ]
	[ "$output" = "npnosuch0: no such device" ]
	run "$EXAMPLES/show_state"
	[ "$status" -eq 2 ]
}
