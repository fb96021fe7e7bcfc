#!/usr/bin/env bats
# Coalescing facts of the drivers on desktops and small servers (r8169,
# atlantic, tg3, igc; np_drivers.h): what each policy plans is a request the
# driver takes, the plan's notes say what was brought into range and why, and
# the simulator refuses what the driver refuses with the driver's errno
# (tests/unit/test_sim_drivers.c sends it the requests no plan would).

load ../helpers
load drivers_lib

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

# after MODEL POLICY FIELD: the value the plan gives FIELD, or "none"
after() {
	jq -r --arg f "$3" '[.steps[] | select(.knob == "coalesce") | .changes[]
		| select(.what == $f) | .after] | if length == 0 then "none" else .[-1] | tostring end' <<<"$2"
}

@test "r8169: no plan counts more than 60 frames; the note says why" {
	for policy in cpu throughput; do
		out=$(plan_json r8169-1q "$policy")
		for f in rx-frames tx-frames; do
			v=$(after r8169-1q "$out" "$f")
			[ "$v" != none ] && [ "$v" -le 60 ] || { echo "$policy $f $v"; return 1; }
		done
	done
	out=$(plan_json r8169-1q cpu)
	notes_of "$out" | grep -q "coalesce: rx-frames 128 is not a value r8169 takes .*: 60 used"
	applies_clean r8169-1q
}

@test "r8169: a frame count is planned only with a delay of its direction" {
	# a site policy asking for frames alone: r8169 counts frames only with
	# a time limit, so the plan sends no count (frames 1 means none)
	np_model r8169-1q
	mkdir -p "$NP_TMP/pol"
	printf 'base = latency\ncoalesce.rx-usecs = 0\ncoalesce.rx-frames = 32\n' >"$NP_TMP/pol/frames.conf"
	out=$(npsim --policy-dir "$NP_TMP/pol" --json "$(dev_of)" set frames --dry-run)
	[ "$(after r8169-1q "$out" rx-frames)" = none ]
	notes_of "$out" | grep -q "rx-frames 32: r8169 counts frames only with a delay"
}

@test "atlantic: no frame counting; frames follow the delay, every policy applies" {
	for policy in cpu throughput; do
		out=$(plan_json atlantic-8q "$policy")
		# the device reports frames 0 with moderation on: no frames sent
		[ "$(after atlantic-8q "$out" rx-frames)" = none ] || { echo "$policy"; return 1; }
		[ "$(after atlantic-8q "$out" tx-frames)" = none ]
	done
	out=$(plan_json atlantic-8q cpu)
	notes_of "$out" | grep -q "coalesce: rx-frames 128: atlantic counts no frames .*: 0, as rx-usecs 200 asks"
	# latency: rx-usecs 0 needs rx-frames 1 with it
	out=$(plan_json atlantic-8q latency)
	[ "$(after atlantic-8q "$out" rx-usecs)" = 0 ]
	[ "$(after atlantic-8q "$out" rx-frames)" = 1 ]
	[ "$(after atlantic-8q "$out" tx-frames)" = none ]
	applies_clean atlantic-8q
}

@test "tg3: latency plans the smallest delay tg3 takes (1 us), not 0" {
	out=$(plan_json tg3-4q latency)
	[ "$(after tg3-4q "$out" rx-usecs)" = 1 ]
	notes_of "$out" | grep -q "coalesce: rx-usecs 0 is not a value tg3 takes .*: 1 used"
	applies_clean tg3-4q
}

@test "igc: igb's rules: adaptive is rx-usecs 3, no tx-usecs while paired, no 'no adaptive' note" {
	for policy in cpu throughput; do
		out=$(plan_json igc-4q "$policy")
		[ "$(after igc-4q "$out" rx-usecs)" = none ] || { echo "$policy overwrites ITR"; return 1; }
		notes_of "$out" | grep -q "rx-usecs 3 selects igc's dynamic conservative ITR"
		! notes_of "$out" | grep -q "has no adaptive moderation" || false
	done
	out=$(plan_json igc-4q latency)
	[ "$(after igc-4q "$out" tx-usecs)" = none ]
	notes_of "$out" | grep -q "tx-usecs left alone: igc refuses it while Rx and Tx share a vector"
	applies_clean igc-4q
	# the simulated igc makes tx-usecs follow rx-usecs while paired
	np_model igc-4q
	npsim "$(dev_of)" set latency >/dev/null
	[ "$(jq '.devices[0].coalesce.fields["tx-usecs"]' "$MODEL")" = 0 ]
}

@test "virtio_net without VIRTIO_NET_F_NOTF_COAL: no policy plans a delay, the notes say so" {
	for policy in cpu latency throughput busy-poll; do
		out=$(plan_json virtio-4q "$policy")
		[ "$(jq '[.steps[] | select(.knob == "coalesce")] | length' <<<"$out")" -eq 0 ] ||
			{ echo "$policy plans coalescing"; return 1; }
	done
	out=$(plan_json virtio-4q throughput)
	notes_of "$out" | grep -q "coalesce: rx-usecs, tx-usecs not supported by driver virtio_net on this device"
	notes_of "$out" | grep -q "no adaptive moderation here, nor a delay to set: coalescing stays"
	! notes_of "$out" | grep -q "fixed values used" || false
}
