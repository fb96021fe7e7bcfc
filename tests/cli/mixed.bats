#!/usr/bin/env bats
# set mixed end to end on the simulated ice-like (ntuple, no RSS contexts)
# and mlx5-like (ntuple and contexts) NICs: the apply engine's rules hold
# (idempotence, rollback at every step, reset), the policy record says
# which rules and contexts netpolicy made, and only those are ever removed:
# the fixtures' foreign rule (and mlx5's foreign context 1) survive
# everything.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

dev_of() { jq -r '.devices[0].ifname' "$MODEL"; }

# rules and contexts as the device has them: "LOC:FLOW>TARGET" and "ctx N"
steering() {
	npsim --json "$1" show | jq -r '(.ntuple.rules[] | "\(.location):\(.flow)>\(.context // "q")/\(.queue)"),
		(.rss_contexts.contexts // [] | .[] | "ctx \(.context)")' | sort | tr '\n' ' '
}

state_of() {	# the device as JSON, without netpolicy's own bookkeeping
	npsim --json "$1" show | jq -S 'del(.policy, .policy_cpus, .drift, .mixed)'
}

FLOWS=(--flow latency:tcp:6379 --flow throughput:tcp:5201 --flow cpu:udp:53)

@test "mlx5: set mixed makes a context and rules per class, records them, keeps the foreign ones" {
	np_model mlx5-mixed
	dev=$(dev_of)
	before=$(steering "$dev")
	[ "$before" = "5:tcp4:dst-port=22>1/0 ctx 1 " ]
	run npsim --json "$dev" set mixed "${FLOWS[@]}"
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = true ]
	rec=$STATE_DIR/$dev.policy
	[ "$(jq .version "$rec")" -eq 3 ]
	[ "$(jq -c .mixed.flows "$rec")" = '["latency:tcp:6379","throughput:tcp:5201","cpu:udp:53"]' ]
	[ "$(jq -r .mixed.default "$rec")" = throughput ]
	# latency and cpu: a context each (not the foreign 1), two rules each (IPv4, IPv6)
	lat=$(jq .mixed.classes.latency.rss_context "$rec")
	cpu=$(jq .mixed.classes.cpu.rss_context "$rec")
	[ "$lat" -ge 2 ] && [ "$cpu" -ge 2 ] && [ "$lat" -ne "$cpu" ]
	[ "$(jq .mixed.classes.throughput.rss_context "$rec")" -eq 0 ]
	[ "$(jq '.mixed.classes.latency.rules | length' "$rec")" -eq 2 ]
	[ "$(jq '.mixed.classes.cpu.rules | length' "$rec")" -eq 2 ]
	[ "$(jq '.mixed.classes.throughput.rules | length' "$rec")" -eq 0 ]
	# the classes' queues are disjoint and cover the open channels in order
	[ "$(jq '[.mixed.classes[] | .queues] | sort_by(.first) | [.[0].first == 0,
		 .[1].first == .[0].first + .[0].count, .[2].first == .[1].first + .[1].count] | all' "$rec")" = true ]
	# and their CPUs too
	[ "$(jq -r '[.mixed.classes[].cpus] | join(",")' "$rec" | tr ',' '\n' | grep -c .)" -eq \
	  "$(jq -r '[.mixed.classes[].cpus] | join(",")' "$rec" | tr ',' '\n' | sort -u | grep -c .)" ]
	# every recorded rule is on the device, pointing at its class's context
	for c in latency cpu; do
		ctx=$(jq ".mixed.classes.$c.rss_context" "$rec")
		for loc in $(jq ".mixed.classes.$c.rules[]" "$rec"); do
			[ "$(npsim --json "$dev" show | jq ".ntuple.rules[] | select(.location == $loc) | .context")" -eq "$ctx" ]
		done
	done
	after=$(steering "$dev")
	[[ "$after" == *"5:tcp4:dst-port=22>1/0 "* && "$after" == *"ctx 1 "* ]]
}

@test "mlx5: a class's RSS context and the main table are shown over the queues they hold" {
	np_model mlx5-mixed
	dev=$(dev_of)
	STATE_DIR=$NP_TMP/state
	run npsim "$dev" set mixed --flow latency:tcp:6379 --dry-run
	[ "$status" -eq 0 ]
	plan_text=$output
	run npsim --json "$dev" set mixed --flow latency:tcp:6379 --dry-run
	[ "$status" -eq 0 ]
	plan_json=$output
	run npsim "$dev" set mixed --flow latency:tcp:6379
	[ "$status" -eq 0 ]
	# the classes' queues as recorded, against what the plan said of them
	run npsim --json "$dev" show
	lat=$(jq -r '.mixed.classes.latency.queues | "\(.first)-\(.first + .count - 1)"' <<<"$output")
	bulk=$(jq -r '.mixed.classes.throughput.queues | "\(.first)-\(.first + .count - 1)"' <<<"$output")
	ctx=$(jq -r '.mixed.classes.latency.rss_context' <<<"$output")
	[ "${lat%-*}" = 0 ] && [ "${bulk%-*}" -gt 0 ]
	[[ "$plan_text" == *"rss-context: context $ctx (none) -> custom over queues $lat"* ]]
	[[ "$plan_text" == *"rss: indir even over "*" queues -> custom over queues $bulk"* ]]
	[ "$(jq -c --arg w "context $ctx" '[.steps[].changes[] | select(.what == $w) | .after]' \
		<<<"$plan_json")" = "[{\"spread\":\"custom\",\"min_queue\":${lat%-*},\"max_queue\":${lat#*-}}]" ]
}

@test "ice: without RSS contexts each rule names a queue of its class, with a note" {
	np_model ice-mixed
	dev=$(dev_of)
	run npsim --json "$dev" set mixed --flow latency:tcp:6379
	[ "$status" -eq 0 ]
	[[ "$(jq -r '.notes[].note' <<<"$output")" == *"has no RSS contexts"* ]]
	rec=$STATE_DIR/$dev.policy
	first=$(jq .mixed.classes.latency.queues.first "$rec")
	count=$(jq .mixed.classes.latency.queues.count "$rec")
	[ "$(jq .mixed.classes.latency.rss_context "$rec")" -eq 0 ]
	for loc in $(jq '.mixed.classes.latency.rules[]' "$rec"); do
		q=$(npsim --json "$dev" show | jq ".ntuple.rules[] | select(.location == $loc) | .queue")
		[ "$q" -ge "$first" ] && [ "$q" -lt $((first + count)) ]
	done
	[[ "$(steering "$dev")" == *"0:udp4:dst-port=4789>q/0 "* ]]
}

@test "set mixed twice: the second writes nothing; check matches, with the recorded flows" {
	for m in ice-mixed mlx5-mixed; do
		np_model $m
		dev=$(dev_of)
		npsim "$dev" set mixed "${FLOWS[@]}" --weight latency=2
		rec=$(cat "$STATE_DIR/$dev.policy")
		run npsim --json "$dev" set mixed "${FLOWS[@]}" --weight latency=2
		[ "$status" -eq 0 ]
		[ "$(jq .changed <<<"$output")" = false ]
		[ "$(jq .n_steps <<<"$output")" -eq 0 ]
		[ "$(cat "$STATE_DIR/$dev.policy")" = "$rec" ]
		run npsim "$dev" check
		[ "$status" -eq 0 ]
		[ "$output" = "$dev: matches policy mixed" ]
		[ "$(npsim --json "$dev" show | jq .drift)" -eq 0 ]
		rm -rf "$STATE_DIR"
	done
}

@test "set mixed again with other flows replaces only netpolicy's rules and contexts" {
	np_model mlx5-mixed
	dev=$(dev_of)
	npsim "$dev" set mixed "${FLOWS[@]}"
	old_rec=$(cat "$STATE_DIR/$dev.policy")
	run npsim "$dev" set mixed --flow latency:tcp:11211
	[ "$status" -eq 0 ]
	rec=$STATE_DIR/$dev.policy
	[ "$(jq -c .mixed.flows "$rec")" = '["latency:tcp:11211"]' ]
	[ "$(jq -r '.mixed.classes | keys | join(" ")' "$rec")" = "latency throughput" ]
	[ "$(steering "$dev" | grep -o 'dst-port=[0-9]*' | sort -u | tr '\n' ' ')" = "dst-port=11211 dst-port=22 " ]
	# the cpu class's context went, the foreign one stayed
	[ "$(npsim --json "$dev" show | jq '[.rss_contexts.contexts[].context] | length')" -eq 2 ]
	[[ "$(steering "$dev")" == *"5:tcp4:dst-port=22>1/0 "*"ctx 1 "* ]]
	# the cpu class's rules went; the latency class's were made again
	[ "$(jq -c '.mixed.classes.latency.rules' "$rec")" = \
	  "$(jq -c '.mixed.classes.latency.rules' <<<"$old_rec")" ]
}

@test "mixed -> throughput removes netpolicy's rules and contexts, nothing else" {
	for m in ice-mixed mlx5-mixed; do
		np_model $m
		dev=$(dev_of)
		before=$(steering "$dev")
		npsim "$dev" set mixed "${FLOWS[@]}"
		[ "$(steering "$dev")" != "$before" ]
		run npsim "$dev" set throughput
		[ "$status" -eq 0 ]
		[ "$(steering "$dev")" = "$before" ]
		[ "$(jq .mixed "$STATE_DIR/$dev.policy")" = null ]
		rm -rf "$STATE_DIR"
	done
}

@test "reset removes exactly what netpolicy made; a foreign rule made after it survives" {
	np_model mlx5-mixed
	dev=$(dev_of)
	state0=$(state_of "$dev")
	npsim "$dev" set mixed "${FLOWS[@]}"
	run npsim "$dev" reset
	[ "$status" -eq 0 ]
	[ "$(state_of "$dev")" = "$state0" ]
	# someone else adds a rule (at a location netpolicy did not use) while mixed is set
	npsim "$dev" set mixed "${FLOWS[@]}"
	jq '.devices[0].ntuple.rules += [{"location": 100, "flow": "udp4:dst-port=4789", "queue": 1}]' \
		"$MODEL" >"$NP_TMP/x" && mv "$NP_TMP/x" "$MODEL"
	run npsim "$dev" reset
	[ "$status" -eq 0 ]
	[ "$(steering "$dev")" = "100:udp4:dst-port=4789>q/1 5:tcp4:dst-port=22>1/0 ctx 1 " ]
}

# For model $1: the knob of each step a clean `set mixed` writes.
steps_of() {
	np_model "$1"
	npsim -v "$(dev_of)" set mixed "${FLOWS[@]}" 2>&1 >/dev/null |
		sed -n 's/^netpolicy: [^:]*: step \([0-9]*\): \([a-z-]*\) \(.*\)/\1 \2 \3/p'
}

@test "a failure at every step of set mixed rolls back exactly, the foreign rules kept" {
	local m k knob what op after n
	for m in ice-mixed mlx5-mixed; do
		declare -A seen=()
		n=0
		while read -r k knob what; do
			op=$(op_of "$knob")
			after=${seen[$op]:-0}
			seen[$op]=$((after + 1))
			np_model $m
			rm -rf "$STATE_DIR"	# steps_of's clean run
			jq --argjson f "{\"op\":\"$op\",\"after\":$after,\"errno\":\"ENOBUFS\",\"extack\":\"injected at step $k\"}" \
				'.faults = [$f]' "$MODEL" >"$NP_TMP/f" && mv "$NP_TMP/f" "$MODEL"
			dev=$(dev_of)
			before=$(state_of "$dev")
			run npsim "$dev" set mixed "${FLOWS[@]}"
			[ "$status" -eq 3 ] || { echo "$m step $k ($knob $what): exit $status: $output"; return 1; }
			[[ "$output" == *"injected at step $k"*"rolled back, the device is as it was" ]] ||
				{ echo "$m step $k: $output"; return 1; }
			[ "$(state_of "$dev")" = "$before" ] || { echo "$m step $k ($knob): not restored"; return 1; }
			[ ! -e "$STATE_DIR/$dev.journal" ] && [ ! -e "$STATE_DIR/$dev.policy" ] || { echo "$m step $k ($knob): $(ls $STATE_DIR)"; return 1; }
			rm -rf "$STATE_DIR"
			[[ $knob == ntuple || $knob == rss-context ]] && n=$((n + 1))
		done < <(steps_of $m)
		echo "# $m: ${#seen[@]} operations, $n steering steps failed in turn" >&3
		[ "$n" -ge 2 ]
		unset seen
	done
}

@test "a failure while replacing netpolicy's rules rolls back to the earlier classes" {
	np_model mlx5-mixed
	dev=$(dev_of)
	npsim "$dev" set mixed "${FLOWS[@]}"
	rec=$(cat "$STATE_DIR/$dev.policy")
	before=$(state_of "$dev")
	for op in rule_delete ctx_delete rule_insert; do
		jq --argjson f "{\"op\":\"$op\",\"after\":0,\"errno\":\"ENOBUFS\"}" '.faults = [$f]' \
			"$MODEL" >"$NP_TMP/f" && mv "$NP_TMP/f" "$MODEL"
		run npsim "$dev" set mixed --flow latency:tcp:11211
		[ "$status" -eq 3 ] || { echo "$op: exit $status: $output"; return 1; }
		[ "$(state_of "$dev")" = "$before" ]
		[ "$(cat "$STATE_DIR/$dev.policy")" = "$rec" ]
	done
}

@test "input errors: a malformed flow names its column; flows without mixed; a bad class or weight" {
	np_model ice-mixed
	dev=$(dev_of)
	run npsim "$dev" set mixed --flow latency:tcp:65536
	[ "$status" -eq 2 ]
	[ "$output" = "netpolicy: $dev: flow: flow \"latency:tcp:65536\": column 13: expected a port number (1-65535)" ]
	run npsim "$dev" set throughput --flow latency:tcp:6379
	[ "$status" -eq 2 ]
	[[ "$output" == *"are for the mixed policy"*"not for throughput" ]]
	run npsim "$dev" set mixed --default bulk
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown class 'bulk'"* ]]
	run npsim "$dev" set mixed --weight latency=0
	[ "$status" -eq 2 ]
	run npsim "$dev" show --flow latency:tcp:1
	[ "$status" -eq 2 ]
	[ ! -e "$STATE_DIR/$dev.pristine" ]
}

@test "--dry-run and --json: the plan of set mixed, nothing changed" {
	np_model mlx5-mixed
	dev=$(dev_of)
	before=$(state_of "$dev")
	run npsim --json "$dev" set mixed "${FLOWS[@]}" --dry-run
	[ "$status" -eq 0 ]
	[ "$(jq -r .policy <<<"$output")" = mixed ]
	[ "$(jq '[.steps[] | select(.knob == "ntuple")] | length' <<<"$output")" -eq 4 ]
	[ "$(jq '[.steps[] | select(.knob == "rss-context")] | length' <<<"$output")" -eq 2 ]
	[ "$(state_of "$dev")" = "$before" ]
	[ ! -e "$STATE_DIR/$dev.policy" ]
}

@test "netpolicy.conf: flow, default-class and weight keys plan a mixed device" {
	np_model ice-mixed
	dev=$(dev_of)
	printf '[%s]\npolicy = mixed\nflow = latency:tcp:6379\ndefault-class = throughput\nweight = latency=2\n' \
		"$dev" >"$NP_TMP/c.conf"
	run npsim plan --config "$NP_TMP/c.conf"
	[ "$status" -eq 0 ]
	rec=$STATE_DIR/$dev.policy
	[ "$(jq -c .mixed.flows "$rec")" = '["latency:tcp:6379"]' ]
	[ "$(jq .mixed.classes.latency.weight "$rec")" -eq 2 ]
	run npsim --json plan --config "$NP_TMP/c.conf"
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = false ]
}

@test "a version 1 policy record (before mixed) is still read" {
	np_model ice-mixed
	dev=$(dev_of)
	npsim "$dev" set throughput
	jq -c '.version = 1 | del(.mixed)' "$STATE_DIR/$dev.policy" >"$NP_TMP/r"
	cp "$NP_TMP/r" "$STATE_DIR/$dev.policy"
	run npsim "$dev" check
	[ "$status" -eq 0 ]
	[ "$output" = "$dev: matches policy throughput" ]
	# and a damaged mixed part is refused, not half-read
	npsim "$dev" set mixed --flow latency:tcp:6379
	jq -c '.mixed.flows = ["latency:tcp:0"]' "$STATE_DIR/$dev.policy" >"$NP_TMP/r"
	cp "$NP_TMP/r" "$STATE_DIR/$dev.policy"
	run npsim "$dev" check
	[ "$status" -ne 0 ]
	[[ "$output" == *"mixed: flows"* ]]
}

@test "show: the classes with their queues, CPUs, context, rules and coalescing" {
	np_model mlx5-mixed
	dev=$(dev_of)
	run npsim --json "$dev" show
	[ "$(jq .mixed <<<"$output")" = null ]
	npsim "$dev" set mixed "${FLOWS[@]}"
	run npsim --json "$dev" show
	[ "$status" -eq 0 ]
	# what the record says, as the record says it
	[ "$(jq -c '.mixed.classes' <<<"$output")" = "$(jq -c '.mixed.classes' "$STATE_DIR/$dev.policy")" ]
	[ "$(jq -c '.mixed.flows' <<<"$output")" = '["latency:tcp:6379","throughput:tcp:5201","cpu:udp:53"]' ]
	[ "$(jq -r '.mixed.default, .mixed.coalesce' <<<"$output" | tr '\n' ' ')" = "throughput device " ]
	run npsim "$dev" show
	[ "$status" -eq 0 ]
	lat=$(jq -r .mixed.classes.latency.cpus "$STATE_DIR/$dev.policy")
	ctx=$(jq -r .mixed.classes.latency.rss_context "$STATE_DIR/$dev.policy")
	# long lines wrap at 80 columns: compare with the wraps undone
	flat=$(tr -s ' \n' '  ' <<<"$output")
	[[ "$flat" == *"flows: latency:tcp:6379, throughput:tcp:5201, cpu:udp:53; default class throughput"* ]]
	[[ "$flat" == *"latency: queues 0-"*", cpus $lat, weight 1, rss context $ctx, coalescing device-wide"* ]]
	[[ "$flat" == *"throughput: queues "*"main rss table"* ]]
	[ "$(grep -c '^ *rule [0-9]*: tcp[46]:dst-port=6379$' <<<"$output")" -eq 2 ]
}

@test "check: a deleted rule of netpolicy's is drift (exit 5), a deleted foreign rule is not" {
	np_model mlx5-mixed
	dev=$(dev_of)
	npsim "$dev" set mixed "${FLOWS[@]}"
	loc=$(jq '.mixed.classes.latency.rules[0]' "$STATE_DIR/$dev.policy")
	cp "$MODEL" "$NP_TMP/set.json"
	jq --argjson l "$loc" '.devices[0].ntuple.rules |= map(select(.location != $l))' \
		"$NP_TMP/set.json" >"$MODEL"
	run npsim "$dev" check
	[ "$status" -eq 5 ]
	[[ "$output" == *"ntuple: rule $loc context (none) -> "* ]]
	run npsim --json "$dev" show
	[ "$(jq .drift <<<"$output")" -ge 1 ]
	# set again puts it back
	npsim "$dev" set mixed "${FLOWS[@]}"
	run npsim "$dev" check
	[ "$status" -eq 0 ]
	# the foreign rule is not netpolicy's to check
	jq '.devices[0].ntuple.rules |= map(select(.location != 5))' "$NP_TMP/set.json" >"$MODEL"
	run npsim "$dev" check
	[ "$status" -eq 0 ]
	# a context of netpolicy's deleted (with its rules) is drift
	cpu=$(jq '.mixed.classes.cpu.rss_context' "$STATE_DIR/$dev.policy")
	jq --argjson c "$cpu" '.devices[0].ntuple.rules |= map(select(.context != $c)) |
		.devices[0].rss_contexts.contexts |= map(select(.context != $c))' "$NP_TMP/set.json" >"$MODEL"
	run npsim "$dev" check
	[ "$status" -eq 5 ]
	[[ "$output" == *"rss-context: context $cpu (none) -> "* ]]
}

@test "input errors: two flows with the same match, a flow twice, a malformed weight list: exit 2, nothing changed" {
	np_model ice-mixed
	dev=$(dev_of)
	cp "$MODEL" "$NP_TMP/orig.json"
	run npsim "$dev" set mixed --flow latency:tcp:6379 --flow cpu:tcp:6379
	[ "$status" -eq 2 ]
	[ "$output" = "netpolicy: $dev: flow: flows 'latency:tcp:6379' and 'cpu:tcp:6379' have the same match (tcp4:dst-port=6379)" ]
	# in one class, and a rule shared by two specs (tcp is tcp4 and tcp6)
	run npsim "$dev" set mixed --flow latency:tcp:6379 --flow latency:tcp6:dst-port=6379
	[ "$status" -eq 2 ]
	[[ $output == *"flows 'latency:tcp:6379' and 'latency:tcp6:dst-port=6379' have the same match (tcp6:dst-port=6379)" ]]
	run npsim "$dev" set mixed --flow latency:tcp:6379 --flow latency:tcp:6379
	[ "$status" -eq 2 ]
	[[ $output == *"flow 'latency:tcp:6379' given twice" ]]
	# different matches are fine: ports, protocols, an address
	run npsim "$dev" set mixed --flow latency:tcp:6379 --flow cpu:udp:6379 --flow cpu:tcp:6380 --dry-run
	[ "$status" -eq 0 ]
	for w in 'latency=1,,cpu=1' 'latency=1,' ',latency=1'; do
		run npsim "$dev" set mixed --flow latency:tcp:6379 --weight "$w"
		[ "$status" -eq 2 ]
		[[ $output == *"weight '$w': item "[0-9]" is empty; expected CLASS=N[,CLASS=N]" ]]
	done
	run npsim "$dev" set mixed --flow latency:tcp:6379 --weight latency=1 --weight latency=2
	[ "$status" -eq 2 ]
	[[ $output == *"weight 'latency=1,latency=2': latency given twice" ]]
	# netpolicy.conf: on the second flow's line
	printf '[%s]\npolicy = mixed\nflow = latency:tcp:6379\nflow = throughput:tcp4:6379\n' "$dev" >"$NP_TMP/c.conf"
	run npsim plan --config "$NP_TMP/c.conf"
	[ "$status" -eq 2 ]
	[[ $output == *"$NP_TMP/c.conf:4: flows 'latency:tcp:6379' and 'throughput:tcp4:6379' have the same match (tcp4:dst-port=6379)"* ]]
	printf '[%s]\npolicy = mixed\nflow = latency:tcp:6379\nweight = latency=1,,cpu=1\n' "$dev" >"$NP_TMP/c.conf"
	run npsim plan --config "$NP_TMP/c.conf"
	[ "$status" -eq 2 ]
	[[ $output == *"$NP_TMP/c.conf:4: weight 'latency=1,,cpu=1': item 2 is empty"* ]]
	# a policy file
	mkdir -m 0755 "$NP_TMP/pol"
	printf 'base = mixed\nflow = latency:udp:53\nflow = cpu:udp:53\n' >"$NP_TMP/pol/web.conf"
	run npsim --policy-dir "$NP_TMP/pol" "$dev" set web
	[ "$status" -eq 2 ]
	[[ $output == *"$NP_TMP/pol/web.conf:3:8: flows 'latency:udp:53' and 'cpu:udp:53' have the same match (udp4:dst-port=53)" ]]
	printf 'base = mixed\nweight = cpu=2,\n' >"$NP_TMP/pol/web.conf"
	run npsim --policy-dir "$NP_TMP/pol" "$dev" set web
	[ "$status" -eq 2 ]
	[[ $output == *"$NP_TMP/pol/web.conf:2:10: weight 'cpu=2,': item 2 is empty"* ]]
	cmp "$MODEL" "$NP_TMP/orig.json"
	[ ! -e "$STATE_DIR/$dev.policy" ]
}

# Reset compares what is at a recorded location with what netpolicy made
# there (its flow, its context or queue), as recovery compares a journal's
# intended rules: another admin's rule put where netpolicy's was is theirs.
foreign_at_recorded() {
	np_model "$1"
	dev=$(dev_of)
	npsim "$dev" set mixed "${FLOWS[@]}" >/dev/null
	loc=$(jq -r '.mixed.classes.latency.rules[0]' "$STATE_DIR/$dev.policy")
	[ "$loc" -ge 0 ]
	jq --argjson l "$loc" '.devices[0].ntuple.rules |= map(if .location == $l then
		{"location": $l, "flow": "udp4:dst-port=4789", "queue": 1} else . end)' \
		"$MODEL" >"$NP_TMP/x" && mv "$NP_TMP/x" "$MODEL"
	run npsim "$dev" reset
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ntuple rule at location $loc is not the one netpolicy made there: left as it is"* ]]
	npsim --json "$dev" show | jq -e --argjson l "$loc" \
		'.ntuple.rules[] | select(.location == $l and .flow == "udp4:dst-port=4789")'
	# netpolicy's other rules went
	[ "$(npsim --json "$dev" show | jq '[.ntuple.rules[] | select(.flow | test("6379|:53$"))] | length')" -eq 0 ]
}

@test "mlx5: reset keeps a foreign rule put at the location of netpolicy's rule" {
	foreign_at_recorded mlx5-mixed
}

@test "ice: reset keeps a foreign rule put at the location of netpolicy's rule" {
	foreign_at_recorded ice-mixed
}

@test "mlx5: reset keeps an RSS context whose table is not the one netpolicy made" {
	np_model mlx5-mixed
	dev=$(dev_of)
	npsim "$dev" set mixed "${FLOWS[@]}" >/dev/null
	id=$(jq -r '.mixed.classes.latency.rss_context' "$STATE_DIR/$dev.policy")
	other=$(jq -r '.mixed.classes.cpu.rss_context' "$STATE_DIR/$dev.policy")
	[ "$id" -gt 0 ] && [ "$other" -gt 0 ]
	jq --argjson c "$id" '.devices[0].rss_contexts.contexts |= map(if .context == $c then
		.indir |= map(7) else . end)' "$MODEL" >"$NP_TMP/x" && mv "$NP_TMP/x" "$MODEL"
	run npsim "$dev" reset
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"RSS context $id is not the one netpolicy made: left as it is"* ]]
	npsim --json "$dev" show | jq -e --argjson c "$id" '.rss_contexts.contexts[] | select(.context == $c)'
	# the context netpolicy made for the other class went
	[ "$(npsim --json "$dev" show | jq --argjson c "$other" '[.rss_contexts.contexts[] | select(.context == $c)] | length')" -eq 0 ]
}
