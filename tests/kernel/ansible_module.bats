#!/usr/bin/env bats
# contrib/ansible's collection (netpolicy.netpolicy), its modules run for real
# by Debian's ansible-core against a veth pair in a private namespace
# (ansible_connection=local, netpolicy under `ip netns exec`): check mode
# changes nothing, says "changed" and shows the plan under --diff; the first
# run changes, the second does not; state=absent resets; a missing device
# fails the host unless fail_on_error is false; netpolicy_facts reports the
# policy applied.

load ../helpers

setup() {
	command -v ansible-playbook >/dev/null || skip "ansible-core not installed"
	np_veth_setup 4
	printf 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' \
		>"$NP_TMP/inventory"
}

teardown() {
	# every play's log, in the output bats shows for a failed test
	[ ! -f "${NP_TMP:-}/plays.log" ] || cat "$NP_TMP/plays.log"
	np_veth_teardown
}

# play TASKS [ansible-playbook options]: runs the tasks (YAML, indented for a
# play's task list) with the modules pointed at this test's namespace and
# state directory; prints the recap's "changed=N" (the log: $NP_TMP/play.log)
play() {
	local tasks=$1 common rc=0
	shift
	common="{state_dir: $STATE_DIR, netpolicy_bin: $NETPOLICY, command_prefix: [ip, netns, exec, $NS]}"
	cat >"$NP_TMP/play.yml" <<-EOF2
	- hosts: all
	  gather_facts: false
	  module_defaults:
	    netpolicy.netpolicy.netpolicy: $common
	    netpolicy.netpolicy.netpolicy_facts: $common
	  tasks:
	$tasks
	EOF2
	ANSIBLE_COLLECTIONS_PATH=$NP_SRCDIR/contrib/ansible/collections \
		ANSIBLE_LOCAL_TEMP=$NP_TMP/ansible ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
		ansible-playbook -i "$NP_TMP/inventory" "$@" "$NP_TMP/play.yml" \
		>"$NP_TMP/play.log" 2>&1 || rc=$?
	cat "$NP_TMP/play.log" >>"$NP_TMP/plays.log"	# teardown shows them
	grep -o 'changed=[0-9]*' "$NP_TMP/play.log" | tail -1
	return $rc
}

# The lines --diff must show for netpolicy's plan on stdin: "-KNOB WHAT: BEFORE"
# and "+KNOB WHAT: AFTER" for each change, the values as the module writes them.
diff_lines() {
	jq -r 'def v: if . == null then "(unknown)" elif . == "" then "(none)"
		elif type == "boolean" then (if . then "on" else "off" end)
		elif type == "array" then map(tostring) | join(" ") else tostring end;
		.steps[] | .knob as $k | .changes[] |
		"-\($k) \(.what): \(.before | v)", "+\($k) \(.what): \(.after | v)"'
}

# every line of $1 is a line of the play's log
log_has_lines() {
	local l
	[ -n "$1" ] || return 1
	while IFS= read -r l; do
		grep -qxF -- "$l" "$NP_TMP/play.log" || { echo "not in the diff: $l" >&2; return 1; }
	done <<<"$1"
}

@test "ansible module: check mode changes nothing and shows the diff, then changed once, absent resets" {
	set_tp='    - netpolicy.netpolicy.netpolicy: {device: v0, policy: throughput}'
	absent='    - netpolicy.netpolicy.netpolicy: {device: v0, state: absent}'
	want=$(npns v0 set throughput --dry-run --json | diff_lines)
	echo "$want" | grep -q '^-channels rx: 4$'	# the plan takes v0 from 4 queues

	run play "$set_tp" --check --diff
	[ "$status" -eq 0 ]
	[ "$output" = changed=1 ]
	log_has_lines "$want"
	grep -qxF -- '+++ after: v0 (throughput)' "$NP_TMP/play.log"
	[ "$(veth_snapshot)" = "$BEFORE" ]		# the preview changed nothing
	[ ! -e "$(np_rec v0 policy)" ]

	run play "$set_tp" --diff
	[ "$status" -eq 0 ]
	[ "$output" = changed=1 ]
	log_has_lines "$want"				# what was applied, as planned
	npns v0 check throughput
	after=$(veth_snapshot)
	[ "$after" != "$BEFORE" ]

	run play "$set_tp" --diff			# idempotent: nothing to do or show
	[ "$status" -eq 0 ]
	[ "$output" = changed=0 ]
	run grep -c '^+++ after' "$NP_TMP/play.log"
	[ "$output" = 0 ]
	run play "$set_tp" --check
	[ "$output" = changed=0 ]

	run play "$absent" --check --diff		# the reset previewed, not done
	[ "$status" -eq 0 ]
	[ "$output" = changed=1 ]
	grep -qxF -- '+channels rx: 4' "$NP_TMP/play.log"
	[ "$(veth_snapshot)" = "$after" ]

	run play "$absent"
	[ "$status" -eq 0 ]
	[ "$output" = changed=1 ]
	[ "$(veth_snapshot)" = "$BEFORE" ]
	[ ! -e "$(np_rec v0 policy)" ]
	run play "$absent"
	[ "$output" = changed=0 ]
}

@test "ansible module: a missing device is skipped with fail_on_error false, fails the host by default" {
	run play '    - netpolicy.netpolicy.netpolicy: {device: nope0, policy: latency, fail_on_error: false}
      register: r
    - ansible.builtin.debug: {msg: "RESULT rc={{ r.rc }} failed={{ r.failed }} skipped={{ r.skipped }} {{ r.msg }}"}
    - netpolicy.netpolicy.netpolicy: {device: v0, policy: latency}'
	[ "$status" -eq 0 ]
	[ "$output" = changed=1 ]			# the play went on to v0
	grep -qF '"RESULT rc=1 failed=False skipped=True netpolicy: nope0: no such device"' "$NP_TMP/play.log"
	grep -q 'failed=0 .*skipped=1' "$NP_TMP/play.log"
	npns v0 check latency

	run play '    - netpolicy.netpolicy.netpolicy: {device: nope0, policy: latency}
    - netpolicy.netpolicy.netpolicy: {device: v0, state: absent}'
	[ "$status" -ne 0 ]
	[ "$output" = changed=0 ]			# the host stopped at nope0
	grep -q '"msg": "netpolicy: nope0: no such device"' "$NP_TMP/play.log"
	grep -q '"rc": 1' "$NP_TMP/play.log"
	grep -q 'failed=1' "$NP_TMP/play.log"
	npns v0 check latency				# v0 was not reset
}

@test "ansible module: netpolicy_facts returns the policy applied, never changed" {
	run play '    - netpolicy.netpolicy.netpolicy: {device: v0, policy: latency}
    - netpolicy.netpolicy.netpolicy_facts: {devices: [v0]}
    - ansible.builtin.debug: {msg: "ONE {{ ansible_facts.netpolicy | list | sort | join(\",\") }} {{ ansible_facts.netpolicy.v0.policy }} {{ ansible_facts.netpolicy.v0.driver }}"}
    - netpolicy.netpolicy.netpolicy_facts:
    - ansible.builtin.debug: {msg: "ALL {{ ansible_facts.netpolicy | list | sort | join(\",\") }} {{ ansible_facts.netpolicy.v0.policy }} {{ ansible_facts.netpolicy.v1.policy | to_json }}"}'
	[ "$status" -eq 0 ]
	[ "$output" = changed=1 ]			# the set alone: facts never change
	grep -qF '"ONE v0 latency veth"' "$NP_TMP/play.log"
	grep -qF '"ALL v0,v1 latency null"' "$NP_TMP/play.log"
}

# A module with "#!/usr/bin/python3" ran under that interpreter whatever
# ansible_python_interpreter said (Ansible rewrites only "#!/usr/bin/python"
# and "#!/usr/bin/env python").
@test "ansible module: run by the configured ansible_python_interpreter" {
	printf '#!/bin/sh\necho "$*" >>%s/interpreter.used\nexec /usr/bin/python3 "$@"\n' "$NP_TMP" >"$NP_TMP/py"
	chmod +x "$NP_TMP/py"
	printf 'localhost ansible_connection=local ansible_python_interpreter=%s\n' "$NP_TMP/py" \
		>"$NP_TMP/inventory"
	run play '    - netpolicy.netpolicy.netpolicy_facts: {devices: [v0]}
    - netpolicy.netpolicy.netpolicy: {device: v0, policy: latency}'
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$NP_TMP/interpreter.used")" -ge 2 ]	# both modules
}

# Without get_bin_path a missing netpolicy was "[Errno 2] No such file or
# directory" with rc 2, which reads as netpolicy's own usage error.
@test "ansible module: a missing netpolicy executable says so, rc 127 (not netpolicy's 2)" {
	for bin in /nonexistent/netpolicy netpolicy-not-installed; do
		run play "    - netpolicy.netpolicy.netpolicy: {device: v0, policy: latency, netpolicy_bin: $bin}"
		[ "$status" -ne 0 ]
		grep -q "\"msg\": \"netpolicy executable not found: $bin" "$NP_TMP/play.log"
		grep -q '"rc": 127' "$NP_TMP/play.log"
		run play "    - netpolicy.netpolicy.netpolicy_facts: {netpolicy_bin: $bin}"
		[ "$status" -ne 0 ]
		grep -q '"rc": 127' "$NP_TMP/play.log"
	done
}

# A custom policy with the settings of the one applied: the switch writes no
# value, but netpolicy's record (what check, plan, watch and reset go by)
# changes; it was reported changed=false with no diff.
@test "ansible module: switching to a policy of the same settings is changed, with the policy line in the diff" {
	mkdir -p "$NP_TMP/policies.d"
	printf 'base = latency\n' >"$NP_TMP/policies.d/lat2.conf"
	printf '#!/bin/sh\nexec %s --policy-dir %s "$@"\n' "$NETPOLICY" "$NP_TMP/policies.d" >"$NP_TMP/np"
	chmod +x "$NP_TMP/np"
	npns v0 set latency >/dev/null
	[ "$(npns --policy-dir "$NP_TMP/policies.d" v0 set lat2 --dry-run --json | jq .n_steps)" = 0 ]
	task="    - netpolicy.netpolicy.netpolicy: {device: v0, policy: lat2, netpolicy_bin: $NP_TMP/np}"
	run play "$task" --check --diff
	[ "$status" -eq 0 ]
	[ "$output" = changed=1 ]
	grep -qxF -- '-policy: latency' "$NP_TMP/play.log"
	grep -qxF -- '+policy: lat2' "$NP_TMP/play.log"
	[ "$(npns --json v0 show | jq -r .policy)" = latency ]	# check mode: not switched
	run play "$task" --diff
	[ "$status" -eq 0 ]
	[ "$output" = changed=1 ]
	grep -qxF -- '+policy: lat2' "$NP_TMP/play.log"
	[ "$(npns --policy-dir "$NP_TMP/policies.d" --json v0 show | jq -r .policy)" = lat2 ]
	run play "$task" --diff				# and then idempotent
	[ "$output" = changed=0 ]
}
