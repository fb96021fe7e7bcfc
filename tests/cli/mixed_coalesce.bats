#!/usr/bin/env bats
# Per-queue coalescing per class (set mixed) on the simulated ice-like NIC,
# which has it (ice_get_per_q_coalesce() / ice_set_per_q_coalesce(),
# ETHTOOL_PERQUEUE), and the mlx5-like one, which does not: each class's
# queues get its own policy's coalescing, the device-wide value is the
# default class's; apply, rollback at every per-queue step, reset, check and
# idempotence hold for the per-queue values too.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

FLOWS=(--flow latency:tcp:6379 --flow throughput:tcp:5201 --flow cpu:udp:53)

dev_of() { jq -r '.devices[0].ifname' "$MODEL"; }

# "adaptive-rx/rx-usecs/tx-usecs" of rx queue $1 as the device has it
qcoal() {
	jq -r ".devices[0].queues.rx[$1].coalesce | \"\(.[\"adaptive-rx\"])/\(.[\"rx-usecs\"])/\(.[\"tx-usecs\"])\"" "$MODEL"
}

state_of() {	# the device as JSON, without netpolicy's own bookkeeping
	npsim --json "$1" show | jq -S 'del(.policy, .policy_cpus, .drift, .mixed)'
}

# The ice-like model with pristine per-queue values that differ from the
# device-wide ones (someone tuned queue 3 and 9 by hand).
ice_tuned() {
	np_model ice-mixed
	jq '.devices[0].queues.rx[3].coalesce = {"adaptive-rx": false, "adaptive-tx": true,
		"rx-usecs": 20, "tx-usecs": 50, "rx-usecs-high": 0}
	    | .devices[0].queues.rx[9].coalesce = {"adaptive-rx": false, "adaptive-tx": false,
		"rx-usecs": 100, "tx-usecs": 100, "rx-usecs-high": 10}' \
		"$MODEL" >"$NP_TMP/x" && mv "$NP_TMP/x" "$MODEL"
}

@test "ice: each class's queues get its policy's coalescing, the device-wide value the default class's" {
	np_model ice-mixed
	dev=$(dev_of)
	run npsim --json "$dev" set mixed "${FLOWS[@]}"
	[ "$status" -eq 0 ]
	notes=$(jq -r '.notes[].note' <<<"$output")
	[[ "$notes" == *"per-queue coalescing per class"* ]]
	[[ "$notes" != *"does not set yet"* ]]
	rec=$STATE_DIR/$dev.policy
	for c in latency throughput cpu; do
		first=$(jq ".mixed.classes.$c.queues.first" "$rec")
		count=$(jq ".mixed.classes.$c.queues.count" "$rec")
		# latency: adaptive off, rx-usecs 0, tx-usecs 8 (the latency
		# policy); throughput and cpu: ice's adaptive moderation, the
		# usecs left as they were (their policies on ice)
		case $c in
		latency) want=false/0/8 ;;
		*) want=true/50/50 ;;
		esac
		for ((q = first; q < first + count; q++)); do
			[ "$(qcoal $q)" = "$want" ] || { echo "$c rx-$q: $(qcoal $q), want $want"; return 1; }
		done
	done
	# the device-wide value: the default class's (throughput)
	[ "$(jq -c '.devices[0].coalesce.fields | [.["adaptive-rx"], .["rx-usecs"]]' "$MODEL")" = '[true,50]' ]
	# show lists each class's queues' values, text and JSON
	run npsim --json "$dev" show
	[ "$(jq -r .mixed.coalesce <<<"$output")" = queue ]
	[ "$(jq -c '[.mixed.classes.latency.coalesce[] | .["rx-usecs"]] | unique' <<<"$output")" = '[0]' ]
	[ "$(jq '.mixed.classes.latency.coalesce | length' <<<"$output")" -eq "$(jq .mixed.classes.latency.queues.count "$rec")" ]
	run npsim "$dev" show
	# long lines wrap at 80 columns: compare with the wraps undone
	flat=$(tr -s ' \n' '  ' <<<"$output")
	[[ "$flat" == *"latency: queues 0-"*"coalescing per queue: rx-usecs 0, tx-usecs 8, adaptive-rx off, adaptive-tx off, rx-usecs-high 0"* ]]
}

@test "ice: --default latency makes the device-wide value the latency class's" {
	np_model ice-mixed
	dev=$(dev_of)
	npsim "$dev" set mixed --flow throughput:tcp:5201 --default latency
	[ "$(jq -c '.devices[0].coalesce.fields | [.["adaptive-rx"], .["rx-usecs"], .["tx-usecs"]]' "$MODEL")" = '[false,0,8]' ]
	# the throughput queues still get their own policy's values
	first=$(jq .mixed.classes.throughput.queues.first "$STATE_DIR/$dev.policy")
	[ "$(qcoal "$first")" = true/50/50 ]
	[ "$(qcoal 0)" = false/0/8 ]
}

@test "ice: set mixed twice writes nothing; check matches; a changed queue value is drift" {
	np_model ice-mixed
	dev=$(dev_of)
	npsim "$dev" set mixed "${FLOWS[@]}"
	run npsim --json "$dev" set mixed "${FLOWS[@]}"
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = false ]
	[ "$(jq .n_steps <<<"$output")" -eq 0 ]
	run npsim "$dev" check
	[ "$status" -eq 0 ]
	# someone sets rx-usecs of a latency queue
	jq '.devices[0].queues.rx[0].coalesce["rx-usecs"] = 30' "$MODEL" >"$NP_TMP/x" && mv "$NP_TMP/x" "$MODEL"
	run npsim "$dev" check
	[ "$status" -eq 5 ]
	[[ "$output" == *"queue-coalesce: rx-0 rx-usecs 30 -> 0"* ]]
	run npsim --json "$dev" set mixed "${FLOWS[@]}"
	[ "$status" -eq 0 ]
	[ "$(jq .n_steps <<<"$output")" -eq 1 ]
	[ "$(qcoal 0)" = false/0/8 ]
}

@test "ice: reset restores the pristine per-queue values, hand-tuned queues included" {
	ice_tuned
	dev=$(dev_of)
	state0=$(state_of "$dev")
	npsim "$dev" set mixed "${FLOWS[@]}"
	[ "$(qcoal 3)" != false/20/50 ] || [ "$(qcoal 9)" != false/100/100 ]
	run npsim "$dev" reset
	[ "$status" -eq 0 ]
	[ "$(state_of "$dev")" = "$state0" ]
	[ "$(qcoal 3)" = false/20/50 ]
	[ "$(qcoal 9)" = false/100/100 ]
}

@test "ice: a failure at every per-queue coalescing step rolls back exactly" {
	local k knob what n=0
	ice_tuned
	while read -r k knob what; do
		[ "$knob" = queue-coalesce ] || continue
		ice_tuned
		rm -rf "$STATE_DIR"
		jq --argjson f "{\"op\":\"set_queue_coalesce\",\"after\":$n,\"errno\":\"ENOBUFS\",\"extack\":\"injected at step $k\"}" \
			'.faults = [$f]' "$MODEL" >"$NP_TMP/f" && mv "$NP_TMP/f" "$MODEL"
		dev=$(dev_of)
		before=$(state_of "$dev")
		run npsim "$dev" set mixed "${FLOWS[@]}"
		[ "$status" -eq 3 ] || { echo "step $k ($what): exit $status: $output"; return 1; }
		[[ "$output" == *"injected at step $k"*"rolled back, the device is as it was" ]] ||
			{ echo "step $k: $output"; return 1; }
		[ "$(state_of "$dev")" = "$before" ] || { echo "step $k ($what): not restored"; return 1; }
		[ "$(qcoal 3)" = false/20/50 ] && [ "$(qcoal 9)" = false/100/100 ]
		[ ! -e "$STATE_DIR/$dev.journal" ] && [ ! -e "$STATE_DIR/$dev.policy" ]
		n=$((n + 1))
	done < <(ice_tuned; npsim -v "$(dev_of)" set mixed "${FLOWS[@]}" 2>&1 >/dev/null |
		 sed -n 's/^netpolicy: [^:]*: step \([0-9]*\): \([a-z-]*\) \(.*\)/\1 \2 \3/p')
	echo "# $n per-queue coalescing steps failed in turn" >&3
	[ "$n" -ge 2 ]
}

@test "model: a queue's coalescing may name only the device's per-queue fields" {
	np_model ice-mixed
	dev=$(dev_of)
	jq '.devices[0].queues.rx[2].coalesce = {"rx-frames": 5}' "$MODEL" >"$NP_TMP/bad.json"
	run "$NETPOLICY" --state-dir "$STATE_DIR" --model "$NP_TMP/bad.json" "$dev" show
	[ "$status" -ne 0 ]
	[[ "$output" == *"rx-frames"*"not a per-queue field"* ]]
}

@test "mlx5 (no per-queue coalescing): one device-wide value and a note naming the class it favours" {
	np_model mlx5-mixed
	dev=$(dev_of)
	run npsim --json "$dev" set mixed "${FLOWS[@]}" --default latency
	[ "$status" -eq 0 ]
	[[ "$(jq -r '.notes[].note' <<<"$output")" == *"driver mlx5_core has no per-queue coalescing: one device-wide value, which favours the default class (latency)"* ]]
	[ "$(jq '[.steps[] | select(.knob == "queue-coalesce")] | length' <<<"$output")" -eq 0 ]
	[ "$(jq '.devices[0].queues.rx[0] | has("coalesce")' "$MODEL")" = false ]
	[ "$(jq -c '.devices[0].coalesce.fields | [.["adaptive-rx"], .["rx-usecs"]]' "$MODEL")" = '[false,0]' ]
	[ "$(npsim --json "$dev" show | jq -r .mixed.coalesce)" = device ]
}

@test "ice: SIGKILL at every journal mark of set mixed: reset restores the pristine per-queue values" {
	command -v strace >/dev/null || skip "strace not installed"
	local n i
	ice_tuned
	dev=$(dev_of)
	state0=$(state_of "$dev")
	cp "$MODEL" "$NP_TMP/pristine.json"
	n=$(np_count_calls fdatasync "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" \
		"$dev" set mixed "${FLOWS[@]}")
	[ "$n" -ge 10 ]
	for ((i = 1; i <= n; i++)); do
		cp "$NP_TMP/pristine.json" "$MODEL"
		rm -rf "$STATE_DIR"
		np_killed_at fdatasync "$i" "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" \
			"$dev" set mixed "${FLOWS[@]}"
		# the next command recovers (an interrupted apply is rolled back
		# first), and reset leaves the device as it was before netpolicy
		run npsim "$dev" reset
		[ "$status" -eq 0 ] || { echo "kill at fdatasync $i: reset: $output"; return 1; }
		[ "$(state_of "$dev")" = "$state0" ] || { echo "kill at fdatasync $i: not pristine"; return 1; }
		[ "$(qcoal 3)" = false/20/50 ] && [ "$(qcoal 9)" = false/100/100 ]
	done
	echo "# killed at each of $n fdatasync calls" >&3
}
