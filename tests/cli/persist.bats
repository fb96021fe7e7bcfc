#!/usr/bin/env bats
# Persistence in view: a set on a terminal says once how to keep the
# policy after a reboot (not with -q, --json, --dry-run, --confirm, nor
# when stdout is not a terminal); a plain set that ends a pending --confirm
# says so.  The terminal is script(1)'s pseudo-terminal.

load ../helpers

setup() {
	np_tmpdir
	np_sim_dev virtio-4q
}
teardown() { np_kill_watchdogs; np_cleanup_tmp; }

# "$@" (a netpolicy command line) with stdout on a pseudo-terminal.
on_tty() {
	local cmd
	printf -v cmd '%q ' "$@"
	script -qec "$cmd" /dev/null
}

@test "set on a terminal names netpolicy.conf and the boot service, once" {
	run on_tty "${NP[@]}" "$DEV" set throughput
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c "kept until reboot" <<<"$output")" -eq 1 ]
	[[ $output == *"'[$DEV] policy = throughput'"* ]]
	[[ $output == *"/etc/netpolicy/netpolicy.conf"* ]]
	[[ $output == *"systemctl enable netpolicy.service"* ]]
	for args in "-q $DEV set latency" "--json $DEV set cpu" "$DEV set latency --dry-run"; do
		# shellcheck disable=SC2086
		run on_tty "${NP[@]}" $args
		[ "$status" -eq 0 ]
		[[ $output != *"kept until reboot"* ]]
	done
	run "${NP[@]}" "$DEV" set latency
	[ "$status" -eq 0 ]
	[[ $output != *"kept until reboot"* ]]
}

@test "a plain set that ends a pending --confirm says so" {
	"${NP[@]}" -q "$DEV" set --confirm 60 latency
	run "${NP[@]}" "$DEV" set throughput
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"$DEV: ended the pending --confirm"* ]]
	run "${NP[@]}" "$DEV" confirm
	[[ $output == *"no tentative change to confirm"* ]]
	# with nothing pending, nothing is said
	run "${NP[@]}" "$DEV" set latency
	[[ $output != *"ended the pending"* ]]
}
