#!/usr/bin/env bats
# What a command prints where nobody reads it: a closed pipe ends a command
# that only prints as it ends ip(8) and ethtool(8), killed by SIGPIPE
# without a word; a full disk is still an error (exit.bats).

load ../helpers
bats_require_minimum_version 1.5.0

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

# Run netpolicy with stdout a pipe whose read end is already closed (a
# reader that went away, without the race of `| head -1`); prints the
# exit status (negative: the signal) and then stderr.  $1: "ign" to start
# it with SIGPIPE ignored.
closed_pipe() {
	local ign=$1
	shift
	python3 - "$ign" "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" "$@" <<-'PY'
	import os, subprocess, sys
	r, w = os.pipe()
	os.close(r)
	p = subprocess.run(sys.argv[2:], stdout=w, stderr=subprocess.PIPE,
	                   restore_signals=(sys.argv[1] != "ign"))
	print(p.returncode)
	sys.stdout.write(p.stderr.decode())
	PY
}

@test "a closed pipe: print-only commands end silently, as ip and ethtool do (SIGPIPE)" {
	np_model mlx5-2s64c
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	for c in "$dev show" "--json $dev show" "show" "policies" "--help" "$dev set throughput --dry-run" \
		 "$dev check throughput"; do
		# shellcheck disable=SC2086
		run closed_pipe dfl $c
		[ "$output" = "-13" ] || { echo "$c: $output"; false; }
	done
	# started with SIGPIPE ignored: no signal to die of, still no message
	run closed_pipe ign "$dev" show
	[ "$output" = "0" ]
}

@test "a closed pipe under a command that changed the device still says so" {
	np_model mlx5-2s64c
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run closed_pipe dfl "$dev" set throughput
	[ "${lines[0]}" = "6" ]
	[[ "${lines[1]}" == "netpolicy: cannot write output: Broken pipe (the change itself was applied)" ]]
}

@test "80 columns: every --help line, and show and dry runs of a 64-queue NIC" {
	np_model ixgbe-16cpu
	[ "$(jq '.devices[0].num_rx_queues' "$MODEL")" -ge 64 ]
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	{
		"$NETPOLICY" --help
		for c in show set reset check confirm plan exec policies try metrics watch; do
			"$NETPOLICY" help "$c"
		done
		npsim "$dev" show
		npsim show
	} >"$NP_TMP/out"
	# --help names the configured directories: measured as the packaged
	# /etc, not as a build's prefix (distcheck's is a long _inst path)
	sed -Ei 's#[^ (]*/etc/netpolicy#/etc/netpolicy#g' "$NP_TMP/out"
	run awk 'length > 80 { print length ": " $0; n++ } END { exit n > 0 }' "$NP_TMP/out"
	echo "$output"
	[ "$status" -eq 0 ]
	# the try line is whole, its description under it
	grep -q '^  DEVICE try \[POLICY\.\.\.\] -- COMMAND \[ARG\.\.\.\]$' "$NP_TMP/out"
	# a 63-queue change in one line per knob; --json and -v keep every queue
	np_model mlx5-2s64c
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npsim "$dev" set throughput --dry-run
	[[ "$output" == *"  xps: tx-0..31 32 -> 0,32,64,96 ... 63 -> 31,63,95,127 (32 queues)"* ]]
	[[ "$output" == *"  rfs: rx-0..31 flow-cnt 0 -> 1024"* ]]
	[ "${#lines[@]}" -lt 20 ]
	[ "$(npsim -v "$dev" set throughput --dry-run 2>/dev/null | grep -c '^  xps: tx-[0-9]* ')" -eq 32 ]
	[ "$(npsim --json "$dev" set throughput --dry-run | jq '[.steps[] | select(.knob == "xps")] | length')" -eq 32 ]
	run npsim "$dev" show
	[[ "$output" == *"  rss:           512-entry table, hash toeplitz, key set; queues 0-62,"* ]]
}

@test "80 columns: a plan's notes wrap on a terminal, and stay one line each in a pipe" {
	np_model mlx5-2s64c
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	npsim "$dev" set latency --dry-run >"$NP_TMP/pipe"
	# some note is longer than a line, else this test shows nothing
	[ -n "$(awk '/^notes:/ { n = 1; next } n && length > 80' "$NP_TMP/pipe")" ]
	# the same command with its stdout a terminal (script(1) gives it one)
	script -qec "$(printf '%q ' "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" \
		"$dev" set latency --dry-run)" /dev/null | tr -d '\r' >"$NP_TMP/tty"
	run awk 'length > 80 { print length ": " $0; n++ } END { exit n > 0 }' "$NP_TMP/tty"
	echo "$output"
	[ "$status" -eq 0 ]
	# the same words: continuation lines joined back give the piped text
	awk '/^    [^ ]/ { sub(/^    /, ""); prev = prev " " $0; next }
	     { if (NR > 1) print prev; prev = $0 } END { print prev }' "$NP_TMP/tty" >"$NP_TMP/joined"
	diff "$NP_TMP/pipe" "$NP_TMP/joined"
}

@test "the man pages render without words run together (a quoted macro argument past its closing quote)" {
	command -v groff >/dev/null || skip "no groff"
	for f in "$NP_SRCDIR"/man/*.[0-9]; do
		groff -man -Tutf8 -P-cbu -rLL=80n "$f" 2>/dev/null | grep -oE "[A-Za-z]{32,}" |
			sed "s|^|$f: |"
	done >"$NP_TMP/long"
	cat "$NP_TMP/long"
	[ ! -s "$NP_TMP/long" ]
}
