#!/usr/bin/env bats
# Mistyped words get a suggestion (commands, options, policies, devices),
# `help` is --help, and `show DEVICE` is taken as `DEVICE show`.

load ../helpers
bats_require_minimum_version 1.5.0

setup() { np_tmpdir; np_model few-msix; }
teardown() { np_cleanup_tmp; }

@test "typos: commands, options, policies and devices get 'did you mean'" {
	run npsim eno1 sett latency
	[ "$status" -eq 2 ]
	[ "$output" = "netpolicy: unknown command 'sett' (did you mean 'set'?) (see 'netpolicy --help')" ]
	run npsim --dryrun eno1 set latency
	[ "$status" -eq 2 ]
	[ "$output" = "netpolicy: unknown option '--dryrun' (did you mean '--dry-run'?) (see 'netpolicy --help')" ]
	run npsim eno1 set throughputt --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == "netpolicy: eno1: unknown policy 'throughputt' (did you mean 'throughput'? valid: cpu,"* ]]
	run npsim eno2 show
	[ "$status" -eq 1 ]
	[ "$output" = "netpolicy: eno2: no such device (did you mean 'eno1'?)" ]
	# nothing close: no guess
	run npsim eno1 frobnicate
	[ "$output" = "netpolicy: unknown command 'frobnicate' (see 'netpolicy --help')" ]
	run npsim zzzzzz9 show
	[ "$output" = "netpolicy: zzzzzz9: no such device" ]
}

@test "help is --help; help COMMAND prints that command's lines" {
	run npsim help
	[ "$status" -eq 0 ]
	[ "$output" = "$(npsim --help)" ]
	run npsim help set
	[ "$status" -eq 0 ]
	[[ "$output" == *"  DEVICE set POLICY"* ]]
	[[ "$output" == *"--confirm SECS"* ]]
	[[ "$output" != *"DEVICE reset"* ]]
	run npsim help sett
	[ "$status" -eq 2 ]
	[[ "$output" == *"help: unknown command 'sett' (did you mean 'set'?)"* ]]
}

@test "show DEVICE is DEVICE show; set POLICY DEVICE names the right order" {
	run npsim show eno1
	[ "$status" -eq 0 ]
	[ "$output" = "$(npsim eno1 show)" ]
	run npsim metrics eno1
	[ "$status" -eq 0 ]
	[ "$output" = "$(npsim eno1 metrics)" ]
	run npsim set throughput eno1
	[ "$status" -eq 2 ]
	[[ "$output" == *"set: which device? the device comes first: 'netpolicy eno1 set throughput'"* ]]
	run npsim set eno1 throughput
	[[ "$output" == *"'netpolicy eno1 set throughput'"* ]]
	run npsim reset eno1
	[[ "$output" == *"'netpolicy eno1 reset'"* ]]
	run npsim set latency
	[[ "$output" == *"set: which device? ('netpolicy DEVICE set latency')"* ]]
}
