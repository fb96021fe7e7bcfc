#!/usr/bin/env bats
# Wake-up latency where the latency traffic lands (issue 38): the latency
# policies limit cpuN/power/pm_qos_resume_latency_us on the CPUs serving
# their queues, from the CPUs' own idle states, shared across devices;
# reset puts back exactly what was there; the simulator keeps the kernel's
# encoding of the file ("0" no limit, "n/a" 0 us, negative refused).

load ../helpers

setup() { np_tmpdir && mkdir -p "$NP_TMP/pol"; }
teardown() { np_cleanup_tmp; }

npp() { npsim --policy-dir "$NP_TMP/pol" "$@"; }
# "cpu:limit" of every CPU in the model
limits() { jq -r '[.pm_qos.cpus[] | "\(.cpu):\(.resume_latency_us)"] | join(" ")' "$MODEL"; }
# the model with a jq edit applied
edit() { jq "$1" "$MODEL" >"$NP_TMP/e.json" && mv "$NP_TMP/e.json" "$MODEL"; }

@test "pm-qos: latency limits the CPUs of its queues to C1's exit latency; check passes; reset restores" {
	np_sim_dev pmqos-skx
	before=$(limits)
	run npsim "$DEV" set latency --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" == *"pm-qos: cpu-0..7 0 -> 2"* ]]
	[[ "$output" == *"CPUs 0-7: resume latency limit 2 us: no idle state deeper than it (from C1E on)"* ]]
	[ "$(limits)" = "$before" ]
	run npsim "$DEV" set latency
	[ "$status" -eq 0 ]
	# C1 (2 us) stays allowed, C1E (10) and C6 (133) not; CPUs 8-15 serve no queue
	[ "$(limits)" = "0:2 1:2 2:2 3:2 4:2 5:2 6:2 7:2 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0" ]
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
	run npsim "$DEV" show
	[[ "$output" == *"pm-qos:        2 us on CPUs 0-7, no limit on 8-15"* ]]
	[[ "$output" == *"idle states: POLL 0, C1 2, C1E 10, C6 133 us (CPU 0)"* ]]
	npsim --json "$DEV" show | jq -e '.pm_qos.cpus[0] == {"cpu": 0, "resume_latency_us": "2",
		"idle_states": [{"name": "POLL", "latency": 0, "disable": false},
				{"name": "C1", "latency": 2, "disable": false},
				{"name": "C1E", "latency": 10, "disable": false},
				{"name": "C6", "latency": 133, "disable": false}]}'
	# someone lifts a limit: check finds the drift
	edit '.pm_qos.cpus[3].resume_latency_us = "0"'
	run npsim "$DEV" check
	[ "$status" -eq 5 ]
	[[ "$output" == *"pm-qos"* ]]
	run npsim "$DEV" reset
	[ "$status" -eq 0 ]
	[ "$(limits)" = "$before" ]
}

@test "pm-qos: throughput and cpu limit nothing; switching from latency puts the limits back" {
	np_sim_dev pmqos-skx
	before=$(limits)
	for p in throughput cpu; do
		run npsim "$DEV" set "$p" --dry-run
		[[ "$output" != *pm-qos* ]]
	done
	npsim "$DEV" set latency >/dev/null
	[ "$(limits)" != "$before" ]
	npsim "$DEV" set throughput >/dev/null
	[ "$(limits)" = "$before" ]
	[ ! -e "$STATE_DIR/$DEV.sysctl" ] || ! jq -e .pm_qos "$STATE_DIR/$DEV.sysctl"
}

@test "pm-qos: a VM without cpuidle gets no limit, and a note says why" {
	np_sim_dev pmqos-vm
	before=$(limits)
	run npsim "$DEV" set latency
	[ "$status" -eq 0 ]
	[[ "$output" == *"pm-qos: CPUs 0-3: no cpuidle (the kernel has no idle driver there): no wake-up latency limit"* ]]
	[ "$(limits)" = "$before" ]
	run npsim "$DEV" show
	[[ "$output" == *"no cpuidle: the limits have nothing to choose from"* ]]
}

@test "pm-qos: the limit comes from the CPU's own states: disabled ones skipped, a C1 of 0 us gives 1 us" {
	np_sim_dev pmqos-skx
	# CPU 0: C1 disabled -> C1E is the shallowest enabled; CPU 1: C1 exits in 0 us
	# ("0" would lift every limit, "n/a" would forbid C1 too: 1 us it is);
	# CPU 2: only polling is enabled -> nothing to keep, no limit
	edit '.pm_qos.cpus[0].idle_states[1].disable = true
		| .pm_qos.cpus[1].idle_states[1].latency = 0
		| .pm_qos.cpus[2].idle_states[1:] |= map(.disable = true)'
	run npsim "$DEV" set latency
	[ "$status" -eq 0 ]
	[[ "$output" == *"CPUs 2: no enabled idle state but polling: no wake-up latency limit"* ]]
	[ "$(limits | cut -d' ' -f1-4)" = "0:10 1:1 2:0 3:2" ]
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
}

@test "pm-qos: a custom policy sets off, auto or N microseconds" {
	np_sim_dev pmqos-skx
	printf 'base = latency\npm-qos = 5\n' >"$NP_TMP/pol/five.conf"
	printf 'base = latency\npm-qos = off\n' >"$NP_TMP/pol/nolim.conf"
	printf 'base = throughput\npm-qos = auto\n' >"$NP_TMP/pol/tput.conf"
	run npp "$DEV" set five
	[ "$status" -eq 0 ]
	[ "$(limits | cut -d' ' -f1,8,9)" = "0:5 7:5 8:0" ]
	run npp "$DEV" set nolim
	[ "$status" -eq 0 ]
	[ "$(limits | cut -d' ' -f1)" = "0:0" ]
	run npp "$DEV" set tput --dry-run
	[[ "$output" == *"pm-qos: cpu-"*" 0 -> 2"* ]]
	npp --json policies | jq -e '.policies[] | select(.name == "five") | .values["pm-qos"] == 5'
	npp --json policies | jq -e '.policies[] | select(.name == "latency") | .values["pm-qos"] == "auto"'
	printf 'base = latency\npm-qos = soon\n' >"$NP_TMP/pol/bad.conf"
	run npp "$DEV" set bad --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"'soon' is not a value of pm-qos"* ]]
}

# pmqos-skx with a second ixgbe (enp3s0f1, IRQs 140..) on the same CPUs
two_devices() {
	np_sim_dev pmqos-skx
	edit '.devices += [.devices[0] | .ifname = "enp3s0f1" | .ifindex = 3
		| .bus_info = "0000:03:00.1"
		| .irqs |= map(.irq += 100 | .name |= sub("enp3s0f0"; "enp3s0f1"))]'
}

@test "pm-qos: two devices on the same CPUs: the strictest need wins, a reset keeps the other's need" {
	two_devices
	printf 'base = latency\npm-qos = 1\n' >"$NP_TMP/pol/tight.conf"
	npp enp3s0f0 set latency >/dev/null
	npp enp3s0f1 set tight >/dev/null
	[ "$(limits | cut -d' ' -f1,8,9)" = "0:1 7:1 8:0" ]
	npp enp3s0f0 check >/dev/null
	npp enp3s0f1 check >/dev/null
	# the stricter device goes: the other's 2 us stays
	run npp enp3s0f1 reset
	[ "$status" -eq 0 ]
	[ "$(limits | cut -d' ' -f1,8,9)" = "0:2 7:2 8:0" ]
	npp enp3s0f0 check >/dev/null
	# the other way round: the first device's reset keeps the second's need
	npp enp3s0f1 set tight >/dev/null
	run npp enp3s0f0 reset
	[ "$status" -eq 0 ]
	[ "$(limits | cut -d' ' -f1,8,9)" = "0:1 7:1 8:0" ]
	# the last one's reset: every CPU as before any device limited it
	npp enp3s0f1 reset >/dev/null
	[ "$(limits | tr ' ' '\n' | sort -u | cut -d: -f2 | sort -u)" = "0" ]
}

@test "pm-qos: reset restores exactly what was there, also \"n/a\" and a number" {
	np_sim_dev pmqos-skx
	edit '.pm_qos.cpus[0].resume_latency_us = "n/a" | .pm_qos.cpus[1].resume_latency_us = "50"
		| .pm_qos.cpus[2].resume_latency_us = "1"'
	before=$(limits)
	run npsim "$DEV" set latency
	[ "$status" -eq 0 ]
	# the strictest wins: what was stricter stays
	[ "$(limits | cut -d' ' -f1-4)" = "0:n/a 1:2 2:1 3:2" ]
	npsim "$DEV" reset >/dev/null
	[ "$(limits)" = "$before" ]
}

@test "pm-qos: the simulator refuses what the kernel refuses; a refused write degrades softly" {
	np_sim_dev pmqos-skx
	# the model reader takes only the file's own words
	for bad in '"-1"' '"2147483647"' '"abc"' '" 5"' '7'; do
		edit ".pm_qos.cpus[0].resume_latency_us = $bad"
		run npsim "$DEV" show
		[ "$status" -ne 0 ]
		[[ "$output" == *"pm_qos.cpus[0]"* ]]
		np_sim_dev pmqos-skx
	done
	# the file is absent on CPU 4: the others are limited, CPU 4 is a note
	edit '.pm_qos.cpus[4] = {"cpu": 4, "resume_latency_us": null,
		"resume_latency_us_errno": "ENOENT", "idle_states": .pm_qos.cpus[4].idle_states}'
	run npsim "$DEV" set latency
	[ "$status" -eq 0 ]
	[[ "$output" == *"CPUs 4: no pm_qos_resume_latency_us file: no wake-up latency limit"* ]]
	[ "$(limits | cut -d' ' -f4-6)" = "3:2 4:null 5:2" ]
	# the kernel refuses the write (EACCES on every CPU): the rest applies
	np_sim_dev pmqos-skx
	edit '.faults = [{"op": "write_attr", "knob": "pm-qos", "errno": "EACCES", "every": true}]'
	run npsim "$DEV" set latency
	[ "$status" -eq 0 ]
	[[ "$output" == *"pm-qos"*"left out"* || "$output" == *"pm-qos"*"refused"* ]]
	[ "$(limits | cut -d' ' -f1)" = "0:0" ]
	npsim "$DEV" check >/dev/null
}

@test "pm-qos: mixed limits only the latency class's CPUs" {
	np_sim_dev ice-mixed
	edit '.pm_qos = {cpus: [range(0; .topology.nr_cpus) as $c | {cpu: $c, resume_latency_us: "0",
		idle_states: [{name: "POLL", latency: 0, disable: false},
			      {name: "C1", latency: 2, disable: false},
			      {name: "C6", latency: 133, disable: false}]}]}'
	run npsim "$DEV" set mixed --flow latency:tcp:dst-port=5000
	[ "$status" -eq 0 ]
	# the CPUs of the latency class's queues' IRQs, as show says
	irqs=$(npsim --json "$DEV" show | jq -r '.mixed.classes.latency.queues as $q
		| [.irqs[] | select(.queue != null and .queue >= $q.first
			and .queue < $q.first + $q.count) | .affinity] | join(",")')
	[ -n "$irqs" ]
	limited=$(jq -r '[.pm_qos.cpus[] | select(.resume_latency_us != "0") | .cpu] | join(",")' "$MODEL")
	echo "irqs $irqs limited $limited"
	[ -n "$limited" ]
	[ "$limited" != "$(jq -r '[.pm_qos.cpus[].cpu] | join(",")' "$MODEL")" ]
	for c in ${limited//,/ }; do [[ ",$irqs," == *",$c,"* ]]; done
	run npsim "$DEV" check
	[ "$status" -eq 0 ]
	npsim "$DEV" reset >/dev/null
	[ -z "$(jq -r '[.pm_qos.cpus[] | select(.resume_latency_us != "0")] | .[]' "$MODEL")" ]
}
