#!/usr/bin/env bats
# Ordering on a driver whose ntuple rules block channel changes (ice:
# ice_set_channels() refuses any change while Flow Director filters exist,
# EOPNOTSUPP).  netpolicy deletes its own rules, changes the channels and
# inserts them again in one journaled transaction; a rule that is not
# netpolicy's keeps the channel count, with a note.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

dev_of() { jq -r '.devices[0].ifname' "$MODEL"; }

state_of() {	# the device as JSON, without netpolicy's own bookkeeping
	npsim --json "$1" show | jq -S 'del(.policy, .policy_cpus, .drift, .mixed)'
}

# ice without the fixture's foreign rule, set mixed once: 16 -> 8 channels
# and netpolicy's two rules on the device
ice_owned() {
	np_model ice-mixed
	jq '.devices[0].ntuple.rules = []' "$MODEL" >"$NP_TMP/m" && mv "$NP_TMP/m" "$MODEL"
	DEV=$(dev_of)
	npsim "$DEV" set mixed --flow latency:tcp:6379 >/dev/null
	[ "$(npsim --json "$DEV" show | jq -c '[.channels.combined, (.ntuple.rules | length)]')" = '[8,2]' ]
}

AGAIN=(set mixed --flow latency:tcp:6379 --cpus 0-3)

@test "ice: reset with a rule made later by another: rules out, channels back, that rule back" {
	ice_owned
	jq '.devices[0].ntuple.rules += [{"location": 0, "flow": "udp4:dst-port=4789", "queue": 0}]' \
		"$MODEL" >"$NP_TMP/m" && mv "$NP_TMP/m" "$MODEL"
	run npsim --json "$DEV" reset --dry-run
	[ "$(jq -c '[.steps[] | select(.knob == "ntuple" or .knob == "channels") |
		if .knob == "channels" then "channels" elif .changes[0].after == null then "del \(.changes[0].what)"
		else "ins \(.changes[0].what)" end]' <<<"$output")" = \
	  '["del rule 126 queue","del rule 127 queue","del rule 0 queue","channels","ins rule 0 queue"]' ]
	run npsim "$DEV" reset
	[ "$status" -eq 0 ]
	[ "$(npsim --json "$DEV" show | jq -c '[.channels.combined, .ntuple.rules]')" = \
	  '[16,[{"location":0,"flow":"udp4:dst-port=4789","queue":0}]]' ]
}

@test "ice: channels 8 -> 4 with netpolicy's rules: delete, change, insert again; check passes" {
	ice_owned
	out=$(npsim --json "$DEV" "${AGAIN[@]}" --dry-run)
	# the order of the plan: both rules out, the channels, both rules back
	[ "$(jq -c '[.steps[] | select(.knob == "ntuple" or .knob == "channels") |
		if .knob == "channels" then "channels" elif .changes[0].after == null then "del"
		else "ins" end]' <<<"$out")" = '["del","del","channels","ins","ins"]' ]
	run npsim --json "$DEV" "${AGAIN[@]}"
	[ "$status" -eq 0 ]
	[ "$(jq '.rolled_back' <<<"$output")" = false ]
	[ "$(npsim --json "$DEV" show | jq -c '[.channels.combined, (.ntuple.rules | length)]')" = '[4,2]' ]
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
	run npsim --json "$DEV" "${AGAIN[@]}"
	[ "$(jq '.writes' <<<"$output")" -eq 0 ]
}

@test "ice: a rule that is not netpolicy's keeps the channel count, with a note" {
	np_model ice-mixed
	dev=$(dev_of)
	run npsim --json "$dev" set mixed --flow latency:tcp:6379
	[ "$status" -eq 0 ]
	[[ "$(jq -r '.notes[].note' <<<"$output")" == *"ntuple rules that are not netpolicy's block a channel change in driver ice: keeping 16 rx / 16 tx queues"* ]]
	[ "$(jq '[.steps[] | select(.knob == "channels")] | length' <<<"$output")" -eq 0 ]
	# the foreign rule was never touched
	[ "$(npsim --json "$dev" show | jq -c '[.channels.combined, [.ntuple.rules[] | select(.location == 0) | .flow]]')" = \
	  '[16,["udp4:dst-port=4789"]]' ]
	run npsim "$dev" check
	[ "$status" -eq 0 ]
}

@test "ice --strict: a channel change a foreign rule blocks fails the plan, exit 1, nothing changed" {
	np_model ice-mixed
	dev=$(dev_of)
	cp "$MODEL" "$NP_TMP/before.json"
	run npsim "$dev" set mixed --flow latency:tcp:6379 --strict
	[ "$status" -eq 1 ]
	[ "$output" = "netpolicy: $dev: channels: ntuple rules that are not netpolicy's block the change to 8 queues in driver ice (--strict: nothing applied; without it the channel count is kept)" ]
	cmp "$MODEL" "$NP_TMP/before.json"
	[ ! -e "$STATE_DIR/$dev.policy" ]
	# a dry run says the same
	run npsim "$dev" set mixed --flow latency:tcp:6379 --strict --dry-run
	[ "$status" -eq 1 ]
	[[ "$output" == *"block the change to 8 queues in driver ice (--strict"* ]]
	# without a foreign rule, --strict changes the channels as set does
	ice_owned
	run npsim --json "$DEV" "${AGAIN[@]}" --strict
	[ "$status" -eq 0 ]
	[ "$(npsim --json "$DEV" show | jq -c '[.channels.combined, (.ntuple.rules | length)]')" = '[4,2]' ]
}

@test "ice: a failure at every step of delete, change, insert rolls back exactly" {
	local k knob op after n=0
	ice_owned
	cp "$MODEL" "$NP_TMP/owned.json"
	cp -r "$STATE_DIR" "$NP_TMP/owned.state"
	declare -A seen=()
	while read -r k op; do
		after=${seen[$op]:-0}
		seen[$op]=$((after + 1))
		cp "$NP_TMP/owned.json" "$MODEL"
		rm -rf "$STATE_DIR" && cp -r "$NP_TMP/owned.state" "$STATE_DIR"
		before=$(state_of "$DEV")
		jq --argjson f "{\"op\":\"$op\",\"after\":$after,\"errno\":\"ENOBUFS\",\"extack\":\"injected at step $k\"}" \
			'.faults = [$f]' "$MODEL" >"$NP_TMP/f" && mv "$NP_TMP/f" "$MODEL"
		run npsim "$DEV" "${AGAIN[@]}"
		[ "$status" -eq 3 ] || { echo "step $k ($op): exit $status: $output"; return 1; }
		[[ "$output" == *"injected at step $k"*"rolled back, the device is as it was" ]] ||
			{ echo "step $k: $output"; return 1; }
		[ "$(state_of "$DEV")" = "$before" ] || { echo "step $k ($op): not restored"; return 1; }
		[ ! -e "$STATE_DIR/$DEV.journal" ] || { echo "step $k: journal left"; return 1; }
		n=$((n + 1))
	done < <(npsim --json "$DEV" "${AGAIN[@]}" --dry-run | jq -r '.steps[] |
		select(.knob == "ntuple" or .knob == "channels" or .knob == "rss") |
		"\(.step) \(if .knob == "channels" then "set_channels" elif .knob == "rss" then "set_rss_indir"
			elif .changes[0].after == null then "rule_delete" else "rule_insert" end)"')
	[ "$n" -eq 6 ]
}
