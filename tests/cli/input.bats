#!/usr/bin/env bats
# Hostile input against the simulated backend: models, configuration files
# and arguments that once hung, crashed or passed silently.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

dev_of() { jq -r '.devices[0].ifname' "$MODEL"; }

# A copy of $MODEL with a jq edit applied.
model_edit() {
	jq "$1" "$MODEL" >"$NP_TMP/edited.json"
	MODEL=$NP_TMP/edited.json
}

# run npsim with the other arguments on a fresh virtio-4q with jq edit $1
run_edited() {
	np_model virtio-4q
	model_edit "$1"
	shift
	run npsim "$@"
}

@test "a FIFO as the model is refused at once (it hung waiting for a writer)" {
	mkfifo "$NP_TMP/fifo"
	MODEL=$NP_TMP/fifo
	run timeout 20 "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" eth0 set latency
	[ "$status" -eq 2 ]
	[[ "$output" == *"not a regular file"* ]]
}

@test "/dev/zero as the model is refused, not read for ever" {
	MODEL=/dev/zero
	run timeout 20 "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" show
	[ "$status" -eq 2 ]
	[[ "$output" == *"not a regular file"* ]]
}

@test "a model with text after the document is refused" {
	np_model virtio-4q
	echo '{"junk": 1}' >>"$MODEL"
	run npsim show
	[ "$status" -eq 2 ]
	[[ "$output" == *"not valid JSON"* ]]
}

@test "a model with a key twice is refused naming the key" {
	np_model virtio-4q
	sed -i '0,/"nr_cpus": *[0-9]*/s//"nr_cpus": 4, "nr_cpus": 4/' "$MODEL"
	grep -q '"nr_cpus": 4, "nr_cpus": 4' "$MODEL"
	run npsim show
	[ "$status" -eq 2 ]
	[[ "$output" == *'key "nr_cpus" appears twice'* ]]
}

@test "a huge topology.cores is refused (it overflowed the planner's heap)" {
	np_model virtio-4q
	local dev; dev=$(dev_of)
	run_edited '.topology.cores = 4294967292' "$dev" set latency --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"topology.cores: 4294967292 is out of range"* ]]
	run_edited '.topology.cores = 4000000000' "$dev" set latency --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"topology.cores"* ]]
}

@test "zero CPUs, more channels than queues, an IRQ of a missing queue: refused" {
	np_model virtio-4q
	local dev; dev=$(dev_of)
	run_edited '.topology.nr_cpus = 0 | .topology.cpus = [] | .topology.online = ""' "$dev" show
	[ "$status" -eq 2 ]
	[[ "$output" == *"topology.nr_cpus: 0 is out of range"* ]]

	run_edited '.devices[0].channels.max_combined = 70000 | .devices[0].channels.combined = 70000' "$dev" set latency --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"devices[0].channels: rx 0, tx 0, combined 70000: more than"* ]]

	run_edited '(.devices[0].irqs[] | select(.queue != null) | .queue) |= . + 1000' "$dev" show
	[ "$status" -eq 2 ]
	[[ "$output" == *"queue 1000 does not exist"* ]]
}

@test "set and check without a device: a usage error, never '(null)'" {
	np_model virtio-4q
	run npsim set latency
	[ "$status" -eq 2 ]
	[[ "$output" == *"set: which device?"* ]]
	[[ "$output" != *"(null)"* ]]
	run npsim check latency
	[ "$status" -eq 2 ]
	[[ "$output" == *"check: which device?"* ]]
	[[ "$output" != *"(null)"* ]]
}

@test "--cpus '' (or blanks only) says the list is empty" {
	np_model virtio-4q
	for cpus in '' ' ' $'\t '; do
		run npsim --cpus "$cpus" "$(dev_of)" set latency
		[ "$status" -eq 2 ]
		[[ "$output" == *"--cpus: empty"* ]]
		[[ "$output" != *"isolated"* ]]
	done
}

@test "names with escape sequences and newlines are escaped in every message" {
	np_model virtio-4q
	run npsim $'a\e[31mb' show
	[ "$status" -eq 2 ]
	[[ "$output" != *$'\e'* ]]
	[[ "$output" == *'a\x1b[31mb'* ]]
	run npsim $'x\nnetpolicy: forged' show
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *'x\nnetpolicy: forged'* ]]
	run npsim "$(dev_of)" set $'fast\e]0;pwned\a'
	[ "$status" -eq 2 ]
	[[ "$output" != *$'\e'* ]]
	[[ "$output" != *$'\a'* ]]
	run npsim "$(dev_of)" bogus $'\e[2J'
	[ "$status" -eq 2 ]
	[[ "$output" != *$'\e'* ]]
}
