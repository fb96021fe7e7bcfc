#!/usr/bin/env bats
# set mixed on a driver that places ntuple rules itself (sfc-mixed: the
# sim's sfc takes only RX_CLS_LOC_ANY, like efx_ethtool_set_class_rule(),
# and puts a rule where the hash of its match says): the record names the
# locations the driver chose, so set again, check, reset and rollback find
# netpolicy's rules by where they really are and never touch a foreign
# rule, even one with the same content; a SIGKILL between the insert and
# the journal line naming the location leaves nothing behind; foreign rules
# that overlap a flow are a warning, one with the same match an error.

load ../helpers

setup() { np_tmpdir; np_sim_dev sfc-mixed; }
teardown() { np_cleanup_tmp; }

FLOWS=(--flow latency:tcp:6379 --flow throughput:tcp:5201 --flow cpu:udp:53)
FOREIGN="300:udp4:dst-port=4789>q/0 "

# rules as the device has them: "LOC:FLOW>CONTEXT/QUEUE", sorted
steering() {
	"${NP[@]}" --json "$DEV" show | jq -r '.ntuple.rules[] |
		"\(.location):\(.flow)>\(.context // "q")/\(.queue)"' | sort | tr '\n' ' '
}

# the device's rules without their locations, and its contexts
content() {
	"${NP[@]}" --json "$DEV" show | jq -c '([.ntuple.rules[] | del(.location)] | sort_by(.flow)),
		[.rss_contexts.contexts // [] | .[] | .context]'
}

state_of() {	# the device as JSON, without netpolicy's own bookkeeping
	"${NP[@]}" --json "$DEV" show | jq -S 'del(.policy, .policy_cpus, .drift, .mixed)'
}

add_rule() {	# a rule someone else adds: location, flow, queue
	jq ".devices[0].ntuple.rules += [{\"location\": $1, \"flow\": \"$2\", \"queue\": $3}]" \
		"$MODEL" >"$NP_TMP/x" && mv "$NP_TMP/x" "$MODEL"
}

rec_locations() {
	jq -r '[.mixed.classes[].rules[]] | sort | map(tostring) | join(" ")' "$STATE_DIR/$DEV.policy"
}

@test "sfc: the rules go where the driver put them, and the record says where" {
	[ "$(jq .devices[0].ntuple.special "$MODEL")" = true ]
	run "${NP[@]}" --json "$DEV" set mixed "${FLOWS[@]}"
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = true ]
	# two rules per class with flows (IPv4 and IPv6), the foreign one kept
	after=$(steering)
	[ "$(wc -w <<<"$after")" -eq 5 ]
	[[ "$after" == *"$FOREIGN"* ]]
	# the record names exactly the rules that are not foreign, none at RX_CLS_LOC_ANY
	locs=$(rec_locations)
	[ "$locs" = "$("${NP[@]}" --json "$DEV" show | jq -r '[.ntuple.rules[] | select(.location != 300) |
		.location] | sort | map(tostring) | join(" ")')" ]
	[[ "$locs" != *4294967295* ]]
	# each points at its class's context
	for c in latency cpu; do
		ctx=$(jq ".mixed.classes.$c.rss_context" "$STATE_DIR/$DEV.policy")
		[ "$ctx" -ge 1 ]
		for loc in $(jq ".mixed.classes.$c.rules[]" "$STATE_DIR/$DEV.policy"); do
			[ "$("${NP[@]}" --json "$DEV" show | jq ".ntuple.rules[] | select(.location == $loc) | .context")" -eq "$ctx" ]
		done
	done
	# the driver's choice is its own: not the highest free location, which
	# netpolicy picks for drivers that take locations
	[[ " $locs " != *" 511 "* ]]
}

@test "sfc: set again writes nothing, check matches, the record stays" {
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	rec=$(cat "$STATE_DIR/$DEV.policy")
	state=$(state_of)
	run "${NP[@]}" --json "$DEV" set mixed "${FLOWS[@]}"
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = false ]
	[ "$(jq .writes <<<"$output")" -eq 0 ]
	[ "$(state_of)" = "$state" ]
	[ "$(cat "$STATE_DIR/$DEV.policy")" = "$rec" ]
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 0 ]
	# verify compares by content: a rule of netpolicy's gone is drift
	loc=$(jq '.mixed.classes.latency.rules[0]' "$STATE_DIR/$DEV.policy")
	jq "del(.devices[0].ntuple.rules[] | select(.location == $loc))" "$MODEL" >"$NP_TMP/x" &&
		mv "$NP_TMP/x" "$MODEL"
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 5 ]
	# and the next set puts it back wherever the driver says, recorded so
	run "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	[ "$status" -eq 0 ]
	[ "$(rec_locations)" = "$("${NP[@]}" --json "$DEV" show | jq -r '[.ntuple.rules[] |
		select(.location != 300) | .location] | sort | map(tostring) | join(" ")')" ]
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 0 ]
}

@test "sfc: reset and other flows remove only netpolicy's rules, not a foreign one of the same match" {
	state0=$(state_of)
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	run "${NP[@]}" "$DEV" reset
	[ "$status" -eq 0 ]
	[ "$(state_of)" = "$state0" ]
	# someone adds a rule with the match of one of netpolicy's (to a queue:
	# one naming netpolicy's context would keep the context from going)
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	rec=$(cat "$STATE_DIR/$DEV.policy")
	add_rule 7 tcp4:dst-port=6379 3
	run "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no changes"* ]]
	[ "$(cat "$STATE_DIR/$DEV.policy")" = "$rec" ]
	run "${NP[@]}" "$DEV" set mixed --flow latency:tcp:11211
	[ "$status" -eq 0 ]
	[[ "$(steering)" == *"7:tcp4:dst-port=6379>q/3 "* ]]
	[[ "$(steering)" != *"dst-port=53"* ]]
	run "${NP[@]}" "$DEV" reset
	[ "$status" -eq 0 ]
	[ "$(steering)" = "300:udp4:dst-port=4789>q/0 7:tcp4:dst-port=6379>q/3 " ]
}

@test "sfc: a failure at every step of set mixed rolls back exactly, the foreign rule kept" {
	local k knob what op after n=0
	declare -A seen=()
	while read -r k knob what; do
		op=$(op_of "$knob")
		after=${seen[$op]:-0}
		seen[$op]=$((after + 1))
		np_sim_dev sfc-mixed
		rm -rf "$STATE_DIR"
		jq --argjson f "{\"op\":\"$op\",\"after\":$after,\"errno\":\"ENOBUFS\",\"extack\":\"injected at step $k\"}" \
			'.faults = [$f]' "$MODEL" >"$NP_TMP/f" && mv "$NP_TMP/f" "$MODEL"
		before=$(state_of)
		run "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
		[ "$status" -eq 3 ] || { echo "step $k ($knob $what): exit $status: $output"; return 1; }
		[[ "$output" == *"injected at step $k"*"rolled back, the device is as it was" ]] ||
			{ echo "step $k: $output"; return 1; }
		[ "$(state_of)" = "$before" ] || { echo "step $k ($knob $what): not restored"; return 1; }
		[ ! -e "$STATE_DIR/$DEV.journal" ] && [ ! -e "$STATE_DIR/$DEV.policy" ]
		[ "$knob" = ntuple ] && n=$((n + 1))
	done < <("${NP[@]}" -v --state-dir "$NP_TMP/clean" "$DEV" set mixed "${FLOWS[@]}" 2>&1 >/dev/null |
		 sed -n 's/^netpolicy: [^:]*: step \([0-9]*\): \([a-z-]*\) \(.*\)/\1 \2 \3/p')
	echo "# ${#seen[@]} operations, $n ntuple inserts failed in turn" >&3
	[ "$n" -eq 4 ]
}

@test "sfc: SIGKILL at every journal sync and file rename of set mixed, the rule inserted but its location not journaled among them" {
	command -v strace >/dev/null || skip "strace not installed"
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}" >/dev/null
	"${NP[@]}" "$DEV" reset >/dev/null
	cp "$MODEL" "$NP_TMP/pristine"
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}" >/dev/null
	target=$(content)
	"${NP[@]}" "$DEV" reset >/dev/null
	cmp -s "$MODEL" "$NP_TMP/pristine"
	# the line naming the driver's locations is synced after the last
	# insert: a kill there has the rules on the device and not in a record
	np_traced fdatasync,write "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	grep -q 'write([0-9]*, "policy {' "$NP_TMP/trace"
	"${NP[@]}" "$DEV" reset >/dev/null
	local at killed_mixed=0
	for sc in fdatasync renameat; do
		k=$(np_count_calls "$sc" "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}")
		"${NP[@]}" "$DEV" reset >/dev/null
		[ "$k" -ge 3 ]
		for ((n = 1; n <= k; n++)); do
			at="set mixed, $sc #$n"
			np_killed_at "$sc" "$n" "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
			if ! cmp -s "$MODEL" "$NP_TMP/pristine" && [ "$(content)" != "$target" ]; then
				[ -e "$STATE_DIR/$DEV.journal" ] || np_kill_fail "$at" "device half-way, no journal"
				killed_mixed=$((killed_mixed + 1))
			fi
			# rules on the device the record does not name: only with a journal
			if [ "$(content)" = "$target" ] && [ ! -e "$STATE_DIR/$DEV.journal" ]; then
				[ "$(rec_locations)" = "$("${NP[@]}" --json "$DEV" show | jq -r '[.ntuple.rules[] |
					select(.location != 300) | .location] | sort | map(tostring) | join(" ")')" ] ||
					np_kill_fail "$at" "rules on the device that the record does not name"
			fi
			"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}" >/dev/null 2>"$NP_TMP/kill.err" ||
				np_kill_fail "$at" "the next set failed"
			[ "$(content)" = "$target" ] || np_kill_fail "$at" "the next set did not reach the target"
			"${NP[@]}" "$DEV" check >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "check fails"
			"${NP[@]}" "$DEV" reset >/dev/null 2>"$NP_TMP/kill.err" || np_kill_fail "$at" "reset failed"
			cmp -s "$MODEL" "$NP_TMP/pristine" || np_kill_fail "$at" "reset did not restore the device exactly"
			[ -z "$(ls -A "$STATE_DIR" | grep -v '\.lock$')" ] || np_kill_fail "$at" "records left after reset"
		done
	done
	echo "# $killed_mixed kills left the device half-way, each rolled back from its journal" >&3
	[ "$killed_mixed" -ge 1 ]
}

@test "sfc: killed after the inserts, before the locations are journaled: recovery removes netpolicy's rules, not ones added since" {
	command -v strace >/dev/null || skip "strace not installed"
	state0=$(state_of)
	np_traced fdatasync,write "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	# the sync of the line naming the driver's locations
	n=$(awk '/write\([0-9]+, "policy \{/ { p = c + 1 } /fdatasync\(/ { c++ } END { print p }' "$NP_TMP/trace")
	[ "$n" -ge 1 ]
	"${NP[@]}" "$DEV" reset >/dev/null
	[ "$(state_of)" = "$state0" ]
	np_killed_at fdatasync "$n" "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	[ -e "$STATE_DIR/$DEV.journal" ]
	[ ! -e "$STATE_DIR/$DEV.policy" ]
	[ "$(steering | wc -w)" -eq 5 ]		# netpolicy's 4 and the fixture's foreign one
	# someone else adds two rules before the next netpolicy command: one
	# with the match of one of netpolicy's, one at a location it would take
	add_rule 7 tcp4:dst-port=6379 3
	loc=$("${NP[@]}" --json "$DEV" show | jq '[.ntuple.rules[] | select(.location != 300) | .location] | max + 1')
	add_rule "$loc" udp4:dst-port=123 1
	run "${NP[@]}" "$DEV" reset
	[ "$status" -eq 0 ]
	[[ "$output" == *"rolled back an interrupted earlier run"* ]]
	[ "$(steering)" = "$(echo "300:udp4:dst-port=4789>q/0 7:tcp4:dst-port=6379>q/3 $loc:udp4:dst-port=123>q/1" |
		tr ' ' '\n' | sort | tr '\n' ' ')" ]
	# the rest of the device is as it was
	[ "$(state_of | jq 'del(.ntuple)')" = "$(jq 'del(.ntuple)' <<<"$state0")" ]
	[ -z "$(ls -A "$STATE_DIR" | grep -v '\.lock$')" ]
}

@test "conflicts: an overlapping foreign rule is a warning on stderr, in --json and in the plan" {
	add_rule 9 tcp6 4
	run "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}" --dry-run
	[ "$status" -eq 0 ]
	# sfc inserts every ethtool rule at one priority: which of the two
	# takes a packet is the firmware's, not the rules' locations
	[[ "$output" == *"warning: ntuple: conflict: flow tcp6:dst-port=6379 overlaps the foreign rule at location 9 (tcp6), which may match first (driver sfc gives every rule one priority; the NIC's firmware orders them, drivers/net/ethernet/sfc/ethtool_common.c)"* ]]
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}" >"$NP_TMP/out" 2>"$NP_TMP/err"
	grep -q "^netpolicy: $DEV: warning: ntuple: conflict: flow tcp6:dst-port=6379 overlaps the foreign rule at location 9" "$NP_TMP/err"
	# a set again changes nothing and still says it
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}" >"$NP_TMP/out" 2>"$NP_TMP/err"
	grep -q "no changes" "$NP_TMP/out"
	grep -q "warning: ntuple: conflict" "$NP_TMP/err"
	run "${NP[@]}" --json "$DEV" set mixed "${FLOWS[@]}"
	[ "$status" -eq 0 ]
	# one warning: the IPv6 rule of latency:tcp:6379 (throughput is the
	# default class, without rules; cpu:udp:53's are UDP)
	[ "$(jq -c '[.notes[] | select(.warning) | .note]' <<<"$output")" = \
	  '["conflict: flow tcp6:dst-port=6379 overlaps the foreign rule at location 9 (tcp6), which may match first (driver sfc gives every rule one priority; the NIC'"'"'s firmware orders them, drivers/net/ethernet/sfc/ethtool_common.c); netpolicy leaves it as it is"]' ]
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 0 ]
	[[ "$(steering)" == *"9:tcp6>q/4 "* ]]
}

@test "conflicts: a foreign rule with the same match is an error, nothing changed" {
	add_rule 7 tcp4:dst-port=6379 3
	before=$(state_of)
	run "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	[ "$status" -eq 1 ]
	[[ "$output" == *"flow tcp4:dst-port=6379: the foreign rule at location 7 has the same match"*"ethtool -N $DEV delete 7"* ]]
	[ "$(state_of)" = "$before" ]
	[ ! -e "$STATE_DIR/$DEV.policy" ]
	# one that came after netpolicy's own rule: set again and check keep working
	jq 'del(.devices[0].ntuple.rules[] | select(.location == 7))' "$MODEL" >"$NP_TMP/x" && mv "$NP_TMP/x" "$MODEL"
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	add_rule 7 tcp4:dst-port=6379 3
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 0 ]
	run "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: ntuple: conflict: flow tcp4:dst-port=6379 overlaps the foreign rule at location 7"* ]]
}
