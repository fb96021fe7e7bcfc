#!/usr/bin/env bats
# The state store's records are read as strictly as models: a record that
# json-c alone would take (a key twice: it keeps the last without a word)
# is refused, naming the file and the key.

load ../helpers

setup() {
	np_tmpdir
	np_model virtio-4q
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
}
teardown() { np_cleanup_tmp; }

@test "a policy record with a key twice is refused, not read as its last value" {
	npsim "$DEV" set latency
	sed -i 's/"policy": *"latency"/"policy":"cpu","policy":"latency"/' "$STATE_DIR/$DEV.policy"
	grep -q '"policy":"cpu","policy":"latency"' "$STATE_DIR/$DEV.policy"
	run npsim "$DEV" check
	[ "$status" -eq 1 ]
	[[ "$output" == *"$DEV.policy: key \"policy\" appears twice"* ]]
}

@test "a journal whose header has a key twice is refused, not rolled back to its last copy" {
	npsim "$DEV" set latency
	npsim --json "$DEV" show >"$NP_TMP/before.json"
	# an interrupted run's journal (stopped after its first step)
	NETPOLICY_TEST_STOP_AFTER_STEP=0 "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" \
		--model "$MODEL" "$DEV" set cpu >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		[ "$(ps -o stat= -p $pid | cut -c1)" = T ] && break
		sleep 0.1
	done
	kill -KILL $pid; wait $pid || true
	[ -f "$STATE_DIR/$DEV.journal" ]
	sed -i '1s/"what":/"ifindex":999999,"what":/' "$STATE_DIR/$DEV.journal"
	run npsim "$DEV" reset
	[ "$status" -eq 1 ]
	[[ "$output" == *"$DEV.journal: key \"ifindex\" appears twice"* ]]
	# the journal is kept for a person to look at
	[ -f "$STATE_DIR/$DEV.journal" ]
}

# A policy record it cannot read may name rules netpolicy made: reset
# refuses it as it refuses a damaged snapshot or journal, and keeps it.
reset_refuses_record() {
	npsim "$DEV" set latency
	cp "$MODEL" "$NP_TMP/device"
	printf '%s' "$1" >"$STATE_DIR/$DEV.policy"
	cp "$STATE_DIR/$DEV.policy" "$NP_TMP/record"
	for dry in "" --dry-run; do
		run npsim $dry "$DEV" reset
		echo "$output"
		[ "$status" -eq 1 ]
		[[ "$output" == *"$DEV.policy"* ]]
		cmp "$STATE_DIR/$DEV.policy" "$NP_TMP/record"
		[ -e "$STATE_DIR/$DEV.pristine" ]
		# the simulated device (saved in the model) is as it was
		cmp "$MODEL" "$NP_TMP/device"
	done
}

@test "reset refuses a policy record of a newer version: exit 1 naming it, kept, nothing changed" {
	reset_refuses_record '{"format":"netpolicy-policy","version":99,"policy":"latency"}'
}

@test "reset refuses a policy record that is not JSON: exit 1 naming it, kept, nothing changed" {
	reset_refuses_record 'garbage'
}

@test "show refuses a policy record of a newer version: exit 1 naming it, not policy null" {
	npsim "$DEV" set latency
	printf '%s' '{"format":"netpolicy-policy","version":99,"policy":"latency"}' >"$STATE_DIR/$DEV.policy"
	for json in "" --json; do
		run npsim $json "$DEV" show
		echo "$output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *"$DEV.policy: version 99"* ]]
	done
	# set refuses it the same way
	run npsim "$DEV" set cpu
	[ "$status" -eq 1 ]
	[[ "$output" == *"$DEV.policy: version 99"* ]]
}
