#!/usr/bin/env bats
# The JSON contract made machine-checked: doc/schema/ has a JSON Schema per
# document of netpolicy-json(7); every document of every command validates
# against its schema (tests/json_schema.py, python3-jsonschema), the page
# and the schemas name the same members, and the drifts between the page and
# the output are gone.  (Every other test file's --json documents made
# through npsim and npns are validated too: tests/run-bats.)

load ../helpers

setup() {
	np_tmpdir
	mkdir -p "$NP_TMP/docs"
	N=0
}
teardown() {
	np_kill_watchdogs
	np_cleanup_tmp
}

# keep "$@"'s --json document (a netpolicy command line after npsim's
# options; DOCBIN: another netpolicy binary) in $NP_TMP/docs for one validation at the end; the document is
# also in $NP_TMP/last.json
doc() {
	N=$((N + 1))
	printf '%s\n' "$@" >"$NP_TMP/docs/$N.args"
	"${DOCBIN:-$NETPOLICY}" --state-dir "$STATE_DIR" --model "$MODEL" --json "$@" >"$NP_TMP/docs/$N.out" \
		2>/dev/null || true
	[ -s "$NP_TMP/docs/$N.out" ] || { echo "no document from: $*"; return 1; }
	cp "$NP_TMP/docs/$N.out" "$NP_TMP/last.json"
}

@test "the schemas are valid JSON Schemas and netpolicy-json(7) documents exactly their members" {
	run np_json_validate --man "$NP_SRCDIR/man/netpolicy-json.7" "$NP_SRCDIR/man/netpolicy-model.5"
	echo "$output"
	[ "$status" -eq 0 ]
	# the check has teeth: a member the page does not name is found
	jq '.properties.bogus_member = {"type": "string"}' "$NP_SRCDIR/doc/schema/confirm.json" \
		>"$NP_TMP/confirm.json"
	cp "$NP_SRCDIR"/doc/schema/*.json "$NP_TMP/docs/"
	cp "$NP_TMP/confirm.json" "$NP_TMP/docs/confirm.json"
	NP_SCHEMA_DIR=$NP_TMP/docs run np_json_validate --man "$NP_SRCDIR/man/netpolicy-json.7" \
		"$NP_SRCDIR/man/netpolicy-model.5"
	[ "$status" -eq 1 ]
	[[ "$output" == *"member bogus_member (confirm.json) is not documented"* ]]
}

@test "every command's document validates against its schema: show, set, reset, check, confirm, policies, plan" {
	np_sim_dev ice-mixed
	doc "$DEV" show
	doc show
	doc "$DEV" check throughput
	doc "$DEV" set throughput --dry-run
	doc "$DEV" reset --dry-run		# never changed: the short document
	doc "$DEV" reset
	doc "$DEV" set throughput
	doc "$DEV" show
	doc "$DEV" check
	doc "$DEV" set latency --confirm 60
	doc "$DEV" set cpu --dry-run
	doc "$DEV" reset --dry-run
	doc "$DEV" show
	doc "$DEV" confirm
	doc "$DEV" set mixed --flow latency:tcp:6379 --flow cpu:udp:53 --dry-run
	doc "$DEV" set mixed --flow latency:tcp:6379 --flow cpu:udp:53
	doc "$DEV" show
	doc "$DEV" reset
	doc policies
	printf '[%s]\npolicy = latency\n' "$DEV" >"$NP_TMP/np.conf"
	doc plan --config "$NP_TMP/np.conf" --dry-run
	doc plan --config "$NP_TMP/np.conf"
	# no configuration: the default policy's plan (--root: the test build's)
	mkdir -p "$NP_TMP/root"
	DOCBIN=$NETPOLICY_TEST_BIN doc --root "$NP_TMP/root" plan --dry-run
	run np_json_validate --captured "$NP_TMP/docs"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# json schema: $N documents validated, 0 failed"* ]]
}

@test "a document that breaks its schema is refused: the validation has teeth" {
	np_sim_dev few-msix
	doc eno1 set throughput --dry-run
	jq 'del(.interrupted_run)' "$NP_TMP/last.json" >"$NP_TMP/docs/$N.out"
	doc eno1 show
	jq '.mtu = "1500" | .undocumented = 1' "$NP_TMP/last.json" >"$NP_TMP/docs/$N.out"
	run np_json_validate --captured "$NP_TMP/docs"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not valid against dry-run.json"* ]]
	[[ "$output" == *"'interrupted_run' is a required property"* ]]
	[[ "$output" == *"not valid against show.json"* ]]
	[[ "$output" == *"2 documents validated, 2 failed"* ]]
}

@test "dry runs say what the next change would find, as show and check do: a pending --confirm's deadline" {
	np_sim_dev few-msix
	doc eno1 set throughput --dry-run
	[ "$(jq -c '[.interrupted_run, .confirm_deadline]' "$NP_TMP/last.json")" = '[false,null]' ]
	npsim eno1 set latency --confirm 60 >/dev/null 2>&1
	doc eno1 show
	want=$(jq .confirm_deadline "$NP_TMP/last.json")
	[ "$want" -gt 0 ]
	for cmd in "set cpu --dry-run" "reset --dry-run" "check"; do
		# shellcheck disable=SC2086
		doc eno1 $cmd
		[ "$(jq -c '[.interrupted_run, .confirm_deadline]' "$NP_TMP/last.json")" = "[false,$want]" ] ||
			{ echo "$cmd: $(cat "$NP_TMP/last.json")"; false; }
	done
	printf '[eno1]\npolicy = cpu\n' >"$NP_TMP/np.conf"
	doc plan --config "$NP_TMP/np.conf" --dry-run
	[ "$(jq -c '.devices[0] | [.interrupted_run, .confirm_deadline]' "$NP_TMP/last.json")" = "[false,$want]" ]
}

@test "show: a device never set has policy_cpus null, its members in the order of a set one" {
	np_sim_dev few-msix
	doc eno1 show
	[ "$(jq -c '[.policy, .policy_cpus, .mixed, .drift]' "$NP_TMP/last.json")" = '[null,null,null,null]' ]
	never=$(jq -c 'keys_unsorted' "$NP_TMP/last.json")
	npsim eno1 set throughput >/dev/null
	doc eno1 show
	[ "$(jq -c 'keys_unsorted' "$NP_TMP/last.json")" = "$never" ]
}

@test "set: dropped only when the driver refused something; the page's jq example works on a mixed plan" {
	np_sim_dev few-msix
	doc eno1 set throughput
	[ "$(jq 'has("dropped")' "$NP_TMP/last.json")" = false ]
	np_sim_dev ice-mixed
	doc "$DEV" set mixed --flow latency:tcp:6379 --dry-run
	# ntuple rules the plan creates: typed changes with before null
	[ "$(jq '[.steps[] | select(.knob == "ntuple") | .changes[] | select(.before == null)] | length' \
		"$NP_TMP/last.json")" -gt 0 ]
	# the example of netpolicy-json(7), EXAMPLES
	jq '.steps[].changes[] | select(.type == "uint" and .before != null) | .after - .before' \
		"$NP_TMP/last.json" >/dev/null
}

@test "plan --dry-run without a configuration: config null and the default policy, as documented" {
	np_sim_dev few-msix
	mkdir -p "$NP_TMP/root"
	DOCBIN=$NETPOLICY_TEST_BIN doc --root "$NP_TMP/root" plan --dry-run
	[ "$(jq -c '[.config, .default_policy, .dry_run]' "$NP_TMP/last.json")" = '[null,"throughput",true]' ]
	run np_json_validate plan.json "$NP_TMP/last.json"
	[ "$status" -eq 0 ]
}

# show without a device left out what show DEVICE has: a consumer of the
# whole list could not see a pending --confirm or an interrupted run.
@test "show without a device: each device's interrupted_run and confirm_deadline, as show DEVICE" {
	np_sim_dev few-msix
	npsim eno1 set latency --confirm 60 >/dev/null 2>&1
	doc eno1 show
	want=$(jq .confirm_deadline "$NP_TMP/last.json")
	[ "$want" -gt 0 ]
	doc show
	[ "$(jq -c '.devices[] | select(.ifname == "eno1") | [.interrupted_run, .confirm_deadline]' \
		"$NP_TMP/last.json")" = "[false,$want]" ]
	[ "$(jq '[.devices[] | has("interrupted_run") and has("confirm_deadline")] | all' "$NP_TMP/last.json")" = true ]
	run np_json_validate --captured "$NP_TMP/docs"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the schemas: absolute \$ids (where the package installs them), try.json refuses unknown members" {
	for f in "$NP_SRCDIR"/doc/schema/*.json; do
		[ "$(jq -r '."$id"' "$f")" = "file:///usr/share/netpolicy/schema/$(basename "$f")" ]
	done
	printf '{"schema": 1, "device": "eno1", "changed": false, "command": ["true"], "rounds": 1,
		"conditions": [], "undocumented": 1}\n' >"$NP_TMP/try.json"
	run np_json_validate try.json "$NP_TMP/try.json"
	echo "$output"
	[ "$status" -ne 0 ]
	jq 'del(.undocumented)' "$NP_TMP/try.json" >"$NP_TMP/try2.json"
	np_json_validate try.json "$NP_TMP/try2.json"
}

# The device's knobs were untyped objects: a string for a count, a duplex no
# kernel reports or a member nobody documents went through.
@test "show --json of every fixture model validates against the typed device schema" {
	for m in "$NP_SRCDIR"/tests/fixtures/models/*.json; do
		np_model "$(basename "$m" .json)"
		for dev in $(jq -r '.devices[].ifname' "$MODEL"); do
			doc "$dev" show
		done
	done
	[ "$N" -ge 28 ]
	run np_json_validate --captured "$NP_TMP/docs"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# json schema: $N documents validated, 0 failed"* ]]
}

@test "a drift inside link, channels, rings, coalesce, features or rss is refused by show.json" {
	np_sim_dev ice-mixed
	doc "$DEV" show
	cp "$NP_TMP/last.json" "$NP_TMP/good.json"
	run np_json_validate show.json "$NP_TMP/good.json"
	[ "$status" -eq 0 ]
	bad=0
	while read -r edit; do
		bad=$((bad + 1))
		jq "$edit" "$NP_TMP/good.json" >"$NP_TMP/bad.json"
		run np_json_validate show.json "$NP_TMP/bad.json"
		[ "$status" -ne 0 ] || { echo "valid with $edit"; false; }
	done <<-'EDITS'
	.link.speed = "25000"
	.link.duplex = "fullish"
	.link.speed = 4294967296
	.link.lanes = 4
	.channels.combined = "8"
	.channels.max_combined = 4294967296
	del(.channels.max_rx)
	.channels.settable = "yes"
	.rings.rx = -1
	.rings.rx_big = 8
	.coalesce.fields["rx-usecs"] = true
	.coalesce.fields["adaptive-rx"] = 1
	.coalesce.fields["rx-usec"] = 3
	.coalesce.fixed = ["not-a-field"]
	del(.coalesce.fields)
	.features.list["rx-gro"].active = "on"
	.features.list["rx-gro"] |= del(.wanted)
	.rss.key = ""
	.rss.key = "6d:5a:5"
	.rss.indir = ["0"]
	.rss.hfunc = "toeplitz2"
	del(.rss.rx_rings)
	.rss = {"supported": false, "error": "x", "errno": 0}
	.rss = {"supported": false, "indir_size": 8}
	.rss.supported = "true"
	EDITS
	[ "$bad" -eq 25 ]
}

# igb and vmxnet3 have no get_rxfh_key_size: Linux 6.12 reports no key and
# show printed "key": "", where absent values are null (netpolicy-json(7)).
@test "an RSS table without a key (vmxnet3): key null in JSON, none in text; \"\" from older documents reads as none" {
	np_sim_dev vmxnet3-4q
	doc "$DEV" show
	[ "$(jq -c '.rss.key' "$NP_TMP/last.json")" = null ]
	[ "$(jq '.rss.indir_size' "$NP_TMP/last.json")" -eq 128 ]
	run "${NP[@]}" "$DEV" show
	[ "$status" -eq 0 ]
	[[ "$output" == *"128-entry table, hash toeplitz,"* ]]
	[[ "$output" == *"key none;"* ]]
	# a keyed device keeps its key
	np_sim_dev ixgbe-16cpu
	doc "$DEV" show
	[[ "$(jq -r '.rss.key' "$NP_TMP/last.json")" =~ ^[0-9a-f]{2}(:[0-9a-f]{2})+$ ]]
	# a model (or journal) written before: "" is no key, and comes back null
	np_sim_dev vmxnet3-4q
	jq '.devices[0].rss.key = ""' "$FIXTURES/models/vmxnet3-4q.json" >"$MODEL"
	doc "$DEV" show
	[ "$(jq -c '.rss.key' "$NP_TMP/last.json")" = null ]
	jq '.devices[0].rss.key = 5' "$FIXTURES/models/vmxnet3-4q.json" >"$MODEL"
	run "${NP[@]}" "$DEV" show
	[ "$status" -ne 0 ]
	[[ "$output" == *"rss.key"* ]]
	run np_json_validate --captured "$NP_TMP/docs"
	echo "$output"
	[ "$status" -eq 0 ]
}
