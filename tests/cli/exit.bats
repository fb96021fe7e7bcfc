#!/usr/bin/env bats
# Every exit status netpolicy(8) lists, one test each, on the simulated
# backend: the code the program returns is the one the page gives.

load ../helpers
bats_require_minimum_version 1.5.0

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

# EXIT STATUS of netpolicy(8): the codes it documents
documented_codes() {
	sed -n '/^\.SH EXIT STATUS/,/^\.SH [^E]/p' "$NP_SRCDIR/man/netpolicy.8" |
		awk '/^\.TP/ { getline; if ($1 == ".B" && $2 ~ /^[0-9]+$/) print $2 }'
}

with_fault() {	# a fresh copy of MODEL with these faults (JSON array)
	np_model "$1"
	jq --argjson f "$2" '.faults = $f' "$MODEL" >"$NP_TMP/f.json" && mv "$NP_TMP/f.json" "$MODEL"
}

@test "netpolicy(8) documents the codes tested here, and --help names the same" {
	[ "$(documented_codes | tr "\n" " ")" = "0 1 2 3 4 5 6 7 8 9 10 " ]
	for code in $(documented_codes); do
		"$NETPOLICY" --help | tr ',' '\n' | grep -q "\b$code [a-z]" || { echo "--help lacks $code"; false; }
	done
}

@test "exit 0: done (a dry run, an apply, a second apply with nothing to do)" {
	np_model few-msix
	run npsim eno1 set throughput --dry-run
	[ "$status" -eq 0 ]
	run npsim eno1 set throughput
	[ "$status" -eq 0 ]
	run npsim eno1 set throughput
	[ "$status" -eq 0 ]
	[ "$output" = "eno1: throughput: no changes" ]
}

@test "exit 1: an error, nothing changed (no such device; nothing to confirm)" {
	np_model few-msix
	cp "$MODEL" "$NP_TMP/orig.json"
	run npsim npnosuch0 set throughput
	[ "$status" -eq 1 ]
	# nothing pending is not a usage error
	run npsim eno1 confirm
	[ "$status" -eq 1 ]
	[[ "$output" == *"no tentative change to confirm"* ]]
	cmp "$MODEL" "$NP_TMP/orig.json"
}

@test "exit 1: output that could not be written, for every command that only prints" {
	np_model few-msix
	cp "$MODEL" "$NP_TMP/orig.json"
	local -a cmds=("--help" "--version" "policies" "--json policies" "show" "eno1 show"
		       "--json eno1 show" "eno1 set throughput --dry-run" "--json eno1 set latency --dry-run"
		       "plan --dry-run --config $NP_TMP/np.conf")
	printf '[eno1]\npolicy = throughput\n' >"$NP_TMP/np.conf"
	for c in "${cmds[@]}"; do
		# bats' run cannot redirect the command's own stdout: a shell does
		run --separate-stderr bash -c '"$0" --state-dir "$1" --model "$2" $3 >/dev/full' \
			"$NETPOLICY" "$STATE_DIR" "$MODEL" "$c"
		[ "$status" -eq 1 ] || { echo "$c: exit $status"; false; }
		[ "$stderr" = "netpolicy: cannot write output: No space left on device" ] ||
			{ echo "$c: $stderr"; false; }
	done
	cmp "$MODEL" "$NP_TMP/orig.json"
	[ ! -e "$STATE_DIR/eno1.pristine" ]
}

@test "exit 2: --root is the test build's option, not the installed binary's" {
	np_model few-msix
	run npsim --root "$NP_TMP" eno1 show
	[ "$status" -eq 2 ]
	[ "$output" = "netpolicy: unknown option '--root' (see 'netpolicy --help')" ]
	! "$NETPOLICY" --help | grep -q -- --root || false
	! grep -q -- '--root' "$NP_SRCDIR/completion/netpolicy" || false
	run "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" --model "$MODEL" --root "$NP_TMP" eno1 show
	[ "$status" -eq 0 ]
}

@test "exit 2: usage (option, command, policy, a mistake in a policy file)" {
	np_model few-msix
	run npsim --bogus eno1 show
	[ "$status" -eq 2 ]
	run npsim eno1 frobnicate
	[ "$status" -eq 2 ]
	run npsim eno1 set nosuch
	[ "$status" -eq 2 ]
	run npsim eno1 show --dry-run
	[ "$status" -eq 2 ]
	mkdir "$NP_TMP/pol"
	printf 'base = cpu\nrings = huge\n' >"$NP_TMP/pol/bad.conf"
	run npsim --policy-dir "$NP_TMP/pol" eno1 set bad --dry-run
	[ "$status" -eq 2 ]
}

@test "exit 3: the apply failed and was rolled back" {
	with_fault ixgbe-16cpu '[{"op":"set_channels","errno":"ENOBUFS"}]'
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npsim "$dev" set throughput
	[ "$status" -eq 3 ]
	[[ "$output" == *"rolled back, the device is as it was"* ]]
}

@test "exit 4: the rollback is incomplete" {
	with_fault ixgbe-16cpu '[{"op":"write_attr","after":2,"errno":"ENOBUFS"},
				{"op":"set_channels","after":1,"errno":"ENOBUFS"}]'
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	run npsim "$dev" set throughput
	[ "$status" -eq 4 ]
	[[ "$output" == *"rollback INCOMPLETE"* ]]
}

# an interrupted set throughput (killed at its 6th journal sync: its
# channels changed) whose journal's state is changed by jq filter $1
interrupted_journal() {
	command -v strace >/dev/null || skip "strace not installed"
	np_model ixgbe-16cpu
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	np_killed_at fdatasync 6 "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" "$dev" set throughput
	[ -e "$STATE_DIR/$dev.journal" ]
	{ head -1 "$STATE_DIR/$dev.journal" | jq -c "$1"
	  tail -n +2 "$STATE_DIR/$dev.journal"; } >"$NP_TMP/j" && mv "$NP_TMP/j" "$STATE_DIR/$dev.journal"
	cp "$MODEL" "$NP_TMP/killed.json"
}

@test "exit 4: the rollback of an interrupted run wrote part of it back and failed" {
	# rings beyond what the device takes: the channels go back first
	interrupted_journal '.before.rings.rx = 8192 | .before.rings.max_rx = 8192'
	[ "$(jq .devices[0].channels.combined "$MODEL")" -eq 8 ]
	run npsim "$dev" reset
	[ "$status" -eq 4 ]
	[[ "$output" == *"rolling back an interrupted earlier run: rings: "*"; rollback INCOMPLETE; the journal is kept"* ]]
	[ -e "$STATE_DIR/$dev.journal" ]
	[ "$(jq .devices[0].channels.combined "$MODEL")" -eq 16 ]
	run npsim "$dev" set throughput
	[ "$status" -eq 4 ]
	[ -e "$STATE_DIR/$dev.journal" ]
}

@test "exit 1: a journal or pristine snapshot that cannot be of this device is a damaged record, not a usage error" {
	# 100: more than the device's 64 queues
	interrupted_journal '.before.channels.combined = 100'
	run npsim "$dev" reset
	[ "$status" -eq 1 ]
	[[ "$output" == *"$STATE_DIR/$dev.journal: channels: rx 0, tx 0, combined 100: more than the device's 64 rx and 64 tx queues"* ]]
	cmp "$MODEL" "$NP_TMP/killed.json"
	[ -e "$STATE_DIR/$dev.journal" ]
	# the same in the pristine snapshot: reset fails, nothing changed
	rm -rf "$STATE_DIR"
	np_model ixgbe-16cpu
	npsim "$dev" set throughput >/dev/null
	jq -c '.state.channels.combined = 100' "$STATE_DIR/$dev.pristine" >"$NP_TMP/p" &&
		mv "$NP_TMP/p" "$STATE_DIR/$dev.pristine"
	cp "$MODEL" "$NP_TMP/set.json"
	for dry in "" --dry-run; do
		run npsim "$dev" reset $dry
		[ "$status" -eq 1 ]
		[[ "$output" == *"$STATE_DIR/$dev.pristine: channels: rx 0, tx 0, combined 100: more than"* ]]
		cmp "$MODEL" "$NP_TMP/set.json"
	done
}

@test "exit 3: a pristine snapshot with values the driver refuses is a reset that failed and was rolled back" {
	np_model ixgbe-16cpu
	dev=$(jq -r '.devices[0].ifname' "$MODEL")
	npsim "$dev" set throughput >/dev/null
	jq -c '.state.channels.combined = 64' "$STATE_DIR/$dev.pristine" >"$NP_TMP/p" &&
		mv "$NP_TMP/p" "$STATE_DIR/$dev.pristine"
	cp "$MODEL" "$NP_TMP/set.json"
	run npsim "$dev" reset
	[ "$status" -eq 3 ]
	[[ "$output" == *"channels: requested channel count exceeds maximum; rolled back, the device is as it was"* ]]
	cmp "$MODEL" "$NP_TMP/set.json"
	[ -e "$STATE_DIR/$dev.pristine" ]
}

@test "exit 5: check found drift" {
	np_model few-msix
	npsim eno1 set throughput >/dev/null
	jq '.devices[0].coalesce.fields["rx-usecs"] = 7' "$MODEL" >"$NP_TMP/m" && mv "$NP_TMP/m" "$MODEL"
	run npsim eno1 check
	[ "$status" -eq 5 ]
}

@test "exit 6: applied and kept, but the output could not be written" {
	np_model few-msix
	# bats' run cannot redirect the command's own stdout: a shell does
	run bash -c '"$0" --state-dir "$1" --model "$2" eno1 set throughput >/dev/full' \
		"$NETPOLICY" "$STATE_DIR" "$MODEL"
	[ "$status" -eq 6 ]
	[[ "$output" == *"the change itself was applied"* ]]
	# the change stands and is recorded: check knows the policy without being told
	run npsim eno1 check
	[ "$status" -eq 0 ]
	[ "$output" = "eno1: matches policy throughput" ]
}

@test "exit 7: the device is busy past --wait; the wait is announced" {
	np_model few-msix
	cp "$MODEL" "$NP_TMP/orig.json"
	mkdir -m 0700 "$STATE_DIR"
	: >"$STATE_DIR/eno1.lock"
	# another netpolicy (flock(1) here) holds the device's lock
	flock "$STATE_DIR/eno1.lock" sleep 10 &
	holder=$!
	sleep 0.3
	start=$(date +%s%N)
	run npsim --wait 1 eno1 set throughput
	end=$(date +%s%N)
	kill "$holder"
	[ "$status" -eq 7 ]
	[[ "${lines[0]}" == "netpolicy: eno1: waiting up to 1 s for another netpolicy working on it" ]]
	[[ "$output" == *"another netpolicy is working on the device"* ]]
	# it waited, and gave up long before the holder let go
	[ $(( (end - start) / 1000000 )) -ge 900 ] && [ $(( (end - start) / 1000000 )) -lt 8000 ]
	cmp "$MODEL" "$NP_TMP/orig.json"
}

@test "a wait without --wait is announced, then the command goes on" {
	np_model few-msix
	mkdir -m 0700 "$STATE_DIR"
	: >"$STATE_DIR/eno1.lock"
	flock "$STATE_DIR/eno1.lock" sleep 1 &
	sleep 0.3
	run npsim eno1 set throughput
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "netpolicy: eno1: waiting for another netpolicy working on it" ]
	[[ "${lines[1]}" == "eno1: throughput: changed "* ]]
}

@test "exit 8: plan changed one device and failed on another" {
	np_model few-msix
	cat >"$NP_TMP/c.conf" <<-EOF
	[eno1]
	policy = throughput
	[npnosuch0]
	policy = cpu
	EOF
	run --separate-stderr npsim --json plan --config "$NP_TMP/c.conf"
	[ "$status" -eq 8 ]
	[ "$(jq -c '[.changed, [.devices[] | .exit]]' <<<"$output")" = '[true,[0,1]]' ]
	# a second run changes nothing: only the failure is left
	run npsim plan --config "$NP_TMP/c.conf"
	[ "$status" -eq 1 ]
}

@test "exit 9: an interrupted run's journal in a state directory that cannot be written, nothing changed" {
	[ "$(id -u)" -eq 0 ] || skip "needs root for a read-only bind mount in its own mount namespace"
	np_model few-msix
	NETPOLICY_TEST_STOP_AFTER_STEP=0 "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" --model "$MODEL" \
		eno1 set throughput 2>/dev/null &
	pid=$!
	wait_stopped "$pid"
	kill -9 "$pid"; wait "$pid" 2>/dev/null || true
	cp "$MODEL" "$NP_TMP/mid.json"
	run unshare -m sh -c "mount --bind -o ro '$STATE_DIR' '$STATE_DIR' &&
		exec '$NETPOLICY' --state-dir '$STATE_DIR' --model '$MODEL' eno1 set cpu"
	[ "$status" -eq 9 ]
	[ "$output" = "netpolicy: eno1: state directory $STATE_DIR cannot be written (Read-only file system): an interrupted run's journal there is kept and the device left as it is; make it writable and run netpolicy again" ]
	cmp "$MODEL" "$NP_TMP/mid.json"
}

@test "exit 0, no journal left: EINTR on the record's rename after a successful apply is retried" {
	command -v strace >/dev/null || skip "strace not installed"
	np_sim_dev virtio-4q
	# the first rename of the policy record into place is interrupted
	run env "$NP_NO_LSAN" strace -f -qq -o /dev/null -P "$DEV.policy" -e trace=renameat,renameat2 \
		-e inject=renameat,renameat2:error=EINTR:when=1 "$NETPOLICY" --state-dir "$STATE_DIR" \
		--model "$MODEL" "$DEV" set latency
	[ "$status" -eq 0 ]
	[ ! -e "$STATE_DIR/$DEV.journal" ]
	[ "$(jq -r .policy "$STATE_DIR/$DEV.policy")" = latency ]
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
}
