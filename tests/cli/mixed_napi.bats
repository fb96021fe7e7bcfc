#!/usr/bin/env bats
# set mixed and NAPI on the simulated ice-like and mlx5-like NICs with
# per-NAPI config (napi-get's defer-hard-irqs, 6.13) and threaded NAPI:
# each NAPI gets its class's policy's deferral (napi-set) and its kthread
# its class's CPUs, through the apply engine (set twice is a no-op, check
# sees drift, a failed napi-set or sched_setaffinity rolls back, reset puts
# everything back), and show lists them per class.  And set mixed under
# --cpus: every class, IRQ, XPS mask and kthread inside the list.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

FLOWS=(--flow latency:tcp:6379 --flow throughput:tcp:5201 --flow cpu:udp:53)

# $1's model with a NAPI per queue (id 100 + queue, its IRQ, deferral 7 /
# 12345 ns: no policy's values) and threaded NAPI, the kthreads on every CPU
napi_model() {
	np_sim_dev "$1"
	jq '.devices[0] |= (.napi.threaded = 1
		| .napis = [.irqs[] | select(.queue != null)
			| { id: (100 + .queue), irq: .irq, pid: (4000 + .queue), rx_queue: .queue,
			    tx_queue: .queue, threaded: 1, defer_hard_irqs: 7,
			    gro_flush_timeout: 12345 }]
		| .napi_threads = [.napis[] | { pid: .pid, napi_id: .id }])
		| .devices[0].napi_threads[].affinity = .topology.online' \
		"$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
}

napis_of() { jq -cS '.devices[0] | [.napis, .napi_threads]' "$MODEL"; }

# "id class defer gro thread-cpus" of each NAPI, its class by the record's
# queue ranges (rx queue, else the default class)
per_napi() {
	jq -r --slurpfile r "$STATE_DIR/$DEV.policy" '.devices[0] as $d | $r[0].mixed as $m
		| $d.napis[] | . as $n
		| ([$m.classes | to_entries[] | select($n.rx_queue >= .value.queues.first and
			$n.rx_queue < .value.queues.first + .value.queues.count) | .key][0]
		   // $m.default) as $c
		| "\(.id) \($c) \(.defer_hard_irqs) \(.gro_flush_timeout) \([$d.napi_threads[] |
			select(.napi_id == $n.id) | .affinity][0])"' "$MODEL"
}

# whether CPU list $1 is inside CPU list $2
inside() {
	local a b
	a=$(expand "$1")
	b=$(expand "$2")
	[ -z "$(comm -23 <(tr ' ' '\n' <<<"$a" | sort -u) <(tr ' ' '\n' <<<"$b" | sort -u))" ]
}
expand() {
	local part out=()
	IFS=, read -ra parts <<<"$1"
	for part in "${parts[@]}"; do
		if [[ $part == *-* ]]; then out+=($(seq "${part%-*}" "${part#*-}")); else out+=("$part"); fi
	done
	echo "${out[@]}"
}

@test "set mixed: each NAPI has its class's deferral and its kthread its class's CPUs" {
	for m in ice-mixed mlx5-mixed; do
		napi_model $m
		before=$(napis_of)
		run "${NP[@]}" --json "$DEV" set mixed "${FLOWS[@]}"
		[ "$status" -eq 0 ] || { echo "$m: $output"; return 1; }
		rec=$STATE_DIR/$DEV.policy
		seen=""
		while read -r id cls defer gro cpus; do
			case $cls in
			latency) want="0 0" ;;
			cpu) want="2 200000" ;;
			throughput) want="7 12345" ;;
			esac
			[ "$defer $gro" = "$want" ] || { echo "$m napi $id ($cls): $defer $gro, want $want"; return 1; }
			inside "$cpus" "$(jq -r ".mixed.classes.$cls.cpus" "$rec")" ||
				{ echo "$m napi $id ($cls): thread on $cpus"; return 1; }
			seen="$seen $cls"
		done < <(per_napi)
		[[ $seen == *latency* && $seen == *cpu* && $seen == *throughput* ]]
		run "${NP[@]}" "$DEV" check
		[ "$status" -eq 0 ] || { echo "$m check: $output"; return 1; }
		run "${NP[@]}" --json "$DEV" set mixed "${FLOWS[@]}"
		[ "$(jq .changed <<<"$output")" = false ] || { echo "$m: second set: $output"; return 1; }
		run "${NP[@]}" "$DEV" reset
		[ "$status" -eq 0 ]
		[ "$(napis_of)" = "$before" ] || { echo "$m: reset did not restore the NAPIs"; return 1; }
	done
}

@test "check: a class's NAPI value changed behind netpolicy's back is drift" {
	napi_model mlx5-mixed
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	jq '(.devices[0].napis[] | select(.id == 100)).defer_hard_irqs = 9' "$MODEL" >"$NP_TMP/m.json" &&
		mv "$NP_TMP/m.json" "$MODEL"
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 5 ]
	[[ "$output" == *"napi 100 defer-hard-irqs 9 -> 0"* ]]
	# a kthread moved off its class's CPUs
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	jq '(.devices[0].napi_threads[] | select(.napi_id == 100)).affinity = .topology.online' \
		"$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 5 ]
	[[ "$output" == *"napi/$DEV-100"* ]]
}

# "STEP KNOB" of a clean set mixed on the NAPI model $1, as -v reports them
napi_steps() {
	napi_model "$1"
	"${NP[@]}" -v "$DEV" set mixed "${FLOWS[@]}" 2>&1 >/dev/null |
		sed -n 's/^netpolicy: [^:]*: step \([0-9]*\): \([a-z-]*\) .*/\1 \2/p'
}

@test "a failed napi-set or sched_setaffinity in set mixed rolls back exactly" {
	local m k knob op after tried steps
	for m in ice-mixed mlx5-mixed; do
		declare -A seen=() first=()
		tried=0
		steps=$(napi_steps $m)
		rm -rf "$STATE_DIR"
		while read -r k knob; do
			case $knob in napi-config) op=set_napi ;; *) op=$(op_of "$knob") ;; esac
			after=${seen[$op]:-0}
			seen[$op]=$((after + 1))
			# the first napi-set and the first and second kthread moves
			[[ $knob == napi-config || $knob == napi-threads ]] || continue
			first[$knob]=$((${first[$knob]:-0} + 1))
			[ "${first[$knob]}" -le 2 ] || continue
			[[ $knob == napi-config && ${first[$knob]} -eq 2 ]] && continue
			napi_model $m
			rm -rf "$STATE_DIR"
			jq --argjson f "{\"op\":\"$op\",\"after\":$after,\"errno\":\"ENOBUFS\",\"extack\":\"injected at step $k\"}" \
				'.faults = [$f]' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
			before=$(napis_of)
			run "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
			[ "$status" -eq 3 ] || { echo "$m step $k ($knob): exit $status: $output"; return 1; }
			[[ "$output" == *"injected at step $k"*"rolled back"* ]] || { echo "$m step $k: $output"; return 1; }
			[ "$(napis_of)" = "$before" ] || { echo "$m step $k ($knob): NAPIs not restored"; return 1; }
			[ ! -e "$STATE_DIR/$DEV.policy" ]
			rm -rf "$STATE_DIR"
			tried=$((tried + 1))
		done <<<"$steps"
		[ "$tried" -eq 3 ] || { echo "$m: $tried NAPI steps failed in turn"; return 1; }
		unset seen first
	done
}

@test "show: each class with its NAPI instances' deferral and kthread CPUs" {
	napi_model ice-mixed
	"${NP[@]}" "$DEV" set mixed "${FLOWS[@]}"
	run "${NP[@]}" --json "$DEV" show
	[ "$status" -eq 0 ]
	[ "$(jq -c '.mixed.napi.latency | [.defer_hard_irqs, .gro_flush_timeout]' <<<"$output")" = '[[0],[0]]' ]
	[ "$(jq -c '.mixed.napi.cpu | [.defer_hard_irqs, .gro_flush_timeout]' <<<"$output")" = '[[2],[200000]]' ]
	[ "$(jq -c '.mixed.napi.throughput | [.defer_hard_irqs, .gro_flush_timeout]' <<<"$output")" = '[[7],[12345]]' ]
	n=$(jq '[.mixed.napi[].instances[]] | length' <<<"$output")
	[ "$n" -eq "$(jq '.devices[0].napis | length' "$MODEL")" ]
	lat=$(jq -r .mixed.classes.latency.cpus "$STATE_DIR/$DEV.policy")
	for cpus in $(jq -r '.mixed.napi.latency.thread_cpus[]' <<<"$output"); do
		inside "$cpus" "$lat"
	done
	run "${NP[@]}" "$DEV" show
	# long lines wrap at 80 columns: compare with the wraps undone
	flat=$(tr -s ' \n' '  ' <<<"$output")
	[[ "$flat" == *"latency: queues 0-"*"napi: "*" instances, defer-hard-irqs 0, gro-flush-timeout 0 ns, threads on cpus "* ]]
	[[ "$flat" == *"defer-hard-irqs 2, gro-flush-timeout 200000 ns"* ]]
}

@test "set mixed --cpus: classes, queue IRQs, XPS and kthreads inside the list; set twice is a no-op" {
	for mc in "ice-mixed 2-5,10-13" "mlx5-mixed 8-11,24-27" "mlx5-mixed 0-3,16-19"; do
		m=${mc% *} cpus=${mc#* }
		napi_model $m
		run "${NP[@]}" "$DEV" set mixed "${FLOWS[@]}" --cpus "$cpus"
		[ "$status" -eq 0 ] || { echo "$m $cpus: $output"; return 1; }
		rec=$STATE_DIR/$DEV.policy
		all=""
		for c in $(jq -r '.mixed.classes | keys[]' "$rec"); do
			k=$(jq -r ".mixed.classes.$c.cpus" "$rec")
			inside "$k" "$cpus" || { echo "$m: class $c on $k"; return 1; }
			all="$all,$k"
		done
		# disjoint: no CPU in two classes
		[ -z "$(expand "${all#,}" | tr ' ' '\n' | sort | uniq -d)" ]
		nq=$(jq '.devices[0].channels.combined' "$MODEL")
		for a in $(jq -r --argjson n "$nq" '.devices[0].irqs[] | select(.queue != null and .queue < $n) | .affinity' "$MODEL") \
			 $(jq -r '.devices[0].queues.tx[] | .xps_cpus // empty' "$MODEL") \
			 $(jq -r '.devices[0].queues.rx[] | .rps_cpus // empty' "$MODEL") \
			 $(jq -r '.devices[0].napi_threads[].affinity' "$MODEL"); do
			[ -z "$a" ] || inside "$a" "$cpus" || { echo "$m $cpus: mask $a"; return 1; }
		done
		run "${NP[@]}" "$DEV" check
		[ "$status" -eq 0 ]
		run "${NP[@]}" --json "$DEV" set mixed "${FLOWS[@]}" --cpus "$cpus"
		[ "$(jq .changed <<<"$output")" = false ]
	done
}
