#!/usr/bin/env bats
# Cache domains (doc/kernel.md, "Cache domains"): on a machine with an L3 per
# CCX (epyc-4ccx: 16 cores with SMT in 4 CCX of 4, one NUMA node, 8 queues)
# queue IRQs go one per L3 before a second in any, and each queue's RPS and
# XPS CPUs stay in its IRQ CPU's L3.  Without llc in the model the plan is
# the one the planner made before it knew caches.

load ../helpers

setup() {
	np_tmpdir
	np_model epyc-4ccx
	DEV=ens1f0np0
}
teardown() { np_cleanup_tmp; }

# jq: a cpulist ("2-3,16") as an array of numbers
CPULIST='def cpus: [split(",")[] | select(length > 0) | split("-") | map(tonumber)
	| if length == 2 then range(.[0]; .[1] + 1) else .[0] end];'

# the CPUs of queues 0.. in queue order ("0 4 8 ...")
irq_cpus() {
	jq -r '[.irqs[] | select(.kind == "txrx")] | sort_by(.queue) | map(.affinity) | join(" ")' \
		"$1"
}

@test "throughput: one IRQ per L3 first, then a second core in each" {
	npsim "$DEV" set throughput >/dev/null
	npsim --json "$DEV" show >"$NP_TMP/show.json"
	[ "$(irq_cpus "$NP_TMP/show.json")" = "0 4 8 12 1 5 9 13" ]
	# the first four in four different L3s (by the model's llc, not by CPU numbers)
	run jq -r '(.topology.cpus | map(.llc)) as $llc
		| [.irqs[] | select(.kind == "txrx" and .queue < 4) | $llc[.affinity | tonumber]]
		| unique | length' "$NP_TMP/show.json"
	[ "$output" = 4 ]
}

@test "throughput: every queue's RPS and XPS CPUs are in its IRQ CPU's L3" {
	npsim "$DEV" set throughput >/dev/null
	npsim --json "$DEV" show >"$NP_TMP/show.json"
	run jq -r "$CPULIST"'
		(.topology.cpus | map(.llc)) as $llc
		| (.irqs | map(select(.kind == "txrx") | {key: (.queue | tostring),
			value: $llc[.affinity | tonumber]}) | from_entries) as $ql
		| [(.queues.rx[] | . as $q | (.rps_cpus | cpus[]) | {q: $q.queue, l: $llc[.]}),
		   (.queues.tx[] | . as $q | (.xps_cpus | cpus[]) | {q: $q.queue, l: $llc[.]})]
		| (map(select(.l != $ql[.q | tostring])) | length), length' "$NP_TMP/show.json"
	[ "$status" -eq 0 ]
	# none outside; 24 RPS CPUs (the 32 less the 8 IRQ CPUs) and 32 XPS CPUs checked
	[ "${lines[0]}" = 0 ]
	[ "${lines[1]}" = 56 ]
}

@test "without llc in the model the IRQs are planned as before caches were known" {
	jq 'del(.topology.cpus[].llc)' "$MODEL" >"$NP_TMP/nollc.json"
	MODEL=$NP_TMP/nollc.json
	npsim "$DEV" set throughput >/dev/null
	npsim --json "$DEV" show >"$NP_TMP/show.json"
	[ "$(irq_cpus "$NP_TMP/show.json")" = "0 1 2 3 4 5 6 7" ]
	run jq -r '.topology.cpus[0] | has("llc")' "$NP_TMP/show.json"
	[ "$output" = false ]
}

# clusters (topology/cluster_cpus_list): cores sharing an L2 or L3 tags
# within one LLC.  with_clusters JQ: the model with each CPU's cluster and
# llc set by JQ (`.llc` is its CCX), then the throughput IRQs' CPUs
with_clusters() {
	jq ".topology.cpus |= map($1)" "$MODEL" >"$NP_TMP/cl.json"
	MODEL=$NP_TMP/cl.json
	npsim "$DEV" set throughput >/dev/null
	npsim --json "$DEV" show >"$NP_TMP/show.json"
	irq_cpus "$NP_TMP/show.json"
}

@test "throughput: one IRQ per cluster first within an L3" {
	# the CCXs as clusters of one L3
	[ "$(with_clusters '.cluster = .llc | .llc = 0')" = "0 4 8 12 1 5 9 13" ]
	[ "$(jq -c '[.topology.cpus[0, 4, 16, 20] | .cluster]' "$NP_TMP/show.json")" = "[0,1,0,1]" ]
}

@test "throughput: round robin over the L3s, and within each over its clusters" {
	# two L3s of two clusters each
	[ "$(with_clusters '.cluster = .llc | .llc = (.llc / 2 | floor)')" = "0 8 4 12 1 9 5 13" ]
}

@test "throughput: a cluster per core (most x86 servers) orders as the L3s alone" {
	[ "$(with_clusters '.cluster = .core')" = "0 4 8 12 1 5 9 13" ]
}

@test "show --json gives each CPU's llc as the model has it" {
	run npsim --json "$DEV" show
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.topology.cpus[] | .llc] | unique' <<<"$output")" = "[0,1,2,3]" ]
	[ "$(jq -c '[.topology.cpus[0, 4, 16, 20] | .llc]' <<<"$output")" = "[0,1,0,1]" ]
}

@test "a model with llc on some online CPUs but not all is refused, naming the CPU" {
	jq 'del(.topology.cpus[5].llc)' "$MODEL" >"$NP_TMP/partial.json"
	MODEL=$NP_TMP/partial.json
	run npsim "$DEV" show
	[ "$status" -ne 0 ]
	[[ "$output" == *"cpus[5].llc"*"missing"* ]]
}
