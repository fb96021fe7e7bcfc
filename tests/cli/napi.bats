#!/usr/bin/env bats
# Threaded NAPI on the simulated machines: the kthreads that run the NAPI
# polls (napi.rst, "Threaded NAPI") are placed with their NAPI's IRQ by
# every policy, in steps of their own, and reset puts them back.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

dev_of() { jq -r '.devices[0].ifname' "$MODEL"; }

# ixgbe, 16 queue vectors: each queue's NAPI as napi-get reports it (its
# IRQ, a kthread pid) with the kthreads on every CPU
threaded_model() {
	np_model ixgbe-16cpu
	jq '.devices[0] |= (.napi.threaded = 1
		| .napis = [.irqs[] | select(.queue != null)
			| { id: (100 + .queue), irq: .irq, pid: (4000 + .queue), rx_queue: .queue,
			    tx_queue: .queue, threaded: 1 }]
		| .napi_threads = [.napis[] | { pid: .pid, napi_id: .id, affinity: "0-15" }])' \
		"$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
}

# "napi_id affinity" of each thread, and "napi_id affinity-of-its-IRQ"
threads_of() { jq -r '.devices[0].napi_threads[] | "\(.napi_id) \(.affinity)"' "$MODEL"; }
irqs_of() {
	jq -r '.devices[0] | .irqs[] | select(.queue != null) | "\(100 + .queue) \(.affinity)"' "$MODEL"
}

@test "napi threads: every policy places each thread with its IRQ; check passes; reset restores" {
	for policy in cpu latency throughput busy-poll; do
		threaded_model
		before=$(threads_of)
		out=$(npsim --json "$(dev_of)" set "$policy" --dry-run)
		jq -e '[.steps[] | select(.knob == "napi-threads")] | length > 0' <<<"$out" >/dev/null
		jq -r '.notes[].note' <<<"$out" | grep -q 'napi.rst, "Threaded NAPI"'
		run npsim "$(dev_of)" set "$policy"
		[ "$status" -eq 0 ]
		# threads of the queues the policy keeps sit on their IRQ's CPUs
		nq=$(jq '.devices[0].channels.combined' "$MODEL")
		diff <(threads_of | awk -v n="$nq" '$1 < 100 + n') \
			<(irqs_of | awk -v n="$nq" '$1 < 100 + n') ||
			{ echo "$policy: threads not with their IRQs"; return 1; }
		run npsim "$(dev_of)" check
		[ "$status" -eq 0 ]
		run npsim "$(dev_of)" reset
		[ "$status" -eq 0 ]
		[ "$(threads_of)" = "$before" ]
	done
}

@test "napi threads: sched_setaffinity refused (the thread ended): left out, the rest applies" {
	threaded_model
	run npsim "$(dev_of)" set latency
	[ "$status" -eq 0 ]
	# someone moved the threads back; the next set has only them to move, and
	# its first sched_setaffinity finds the thread gone: a refusal like any
	# other (netpolicy(8), "What degrades"), not a reason to undo the rest
	jq '.devices[0].napi_threads[].affinity = "0-15"
		| .faults = [{op: "write_attr", after: 0, errno: "ESRCH"}]' \
		"$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	before=$(threads_of)
	run npsim --json "$(dev_of)" set latency
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.dropped[] | [.knob, .errno]]' <<<"$output")" = '[["napi-threads","ESRCH"]]' ]
	[ "$(threads_of)" = "$before" ]
	run npsim "$(dev_of)" check
	[ "$status" -eq 0 ]
}
