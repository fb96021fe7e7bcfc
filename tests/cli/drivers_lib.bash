# Helpers of the driver-table suites (drivers*.bats): plans on a model,
# their coalescing values and notes, and a site policy written for a test.

dev_of() { jq -r '.devices[0].ifname' "$MODEL"; }

plan_json() {	# plan_json MODEL POLICY: the dry-run plan as JSON
	np_model "$1"
	npsim --json "$(dev_of)" set "$2" --dry-run
}

# site MODEL POLICY-TEXT: the dry-run plan (JSON) of a site policy "site"
site() {
	np_model "$1"
	mkdir -p "$NP_TMP/pol"
	printf '%b' "$2" >"$NP_TMP/pol/site.conf"
	npsim --policy-dir "$NP_TMP/pol" --json "$(dev_of)" set site --dry-run
}

# coal_after PLAN FIELD: the value the plan gives coalescing FIELD, or "none"
coal_after() {
	jq -r --arg f "$2" '[.steps[] | select(.knob == "coalesce") | .changes[]
		| select(.what == $f) | .after] | if length == 0 then "none" else .[-1] | tostring end' <<<"$1"
}

notes_of() { jq -r '.notes[] | "\(.knob): \(.note)"' <<<"$1"; }

# applies_clean MODEL: every policy applies without a refusal (nothing
# dropped) and check passes
applies_clean() {
	local policy
	for policy in cpu latency throughput; do
		np_model "$1"
		rm -rf "$STATE_DIR"
		run npsim --json "$(dev_of)" set "$policy"
		[ "$status" -eq 0 ] || { echo "$1 $policy: $output"; return 1; }
		[ "$(jq '.dropped | length' <<<"$output")" -eq 0 ] ||
			{ echo "$1 $policy dropped: $output"; return 1; }
		run npsim "$(dev_of)" check
		[ "$status" -eq 0 ] || { echo "$1 $policy check: $output"; return 1; }
	done
}

# set_cpu_until_channels: `set cpu` on $MODEL's device, stopped and killed
# right after its channel step, so that the model holds what the simulated
# driver left after the change; fails when the plan changes no channels
set_cpu_until_channels() {
	local dev k pid
	dev=$(dev_of)
	k=$(npsim --json "$dev" set cpu --dry-run | jq '[.steps[].knob] | index("channels")')
	[ "$k" != null ] || return 1
	NETPOLICY_TEST_STOP_AFTER_STEP=$k "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" \
		--model "$MODEL" "$dev" set cpu 2>/dev/null &
	pid=$!
	wait_stopped "$pid"
	kill -9 "$pid"; wait "$pid" 2>/dev/null || true
}
