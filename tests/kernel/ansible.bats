#!/usr/bin/env bats
# contrib/ansible's role, run for real by Debian's ansible-core against a
# veth pair in a private namespace (ansible_connection=local, netpolicy under
# `ip netns exec`): check mode changes nothing and says "changed", the first
# run changes, the second does not, and a device dropped from the list is
# reset.

load ../helpers

setup() {
	command -v ansible-playbook >/dev/null || skip "ansible-core not installed"
	np_veth_setup 4
	V1_BEFORE=$(v1_snapshot)
	CONF=$NP_TMP/etc/netpolicy.conf
	mkdir -p "$NP_TMP/etc" "$STATE_DIR"
	printf 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' \
		>"$NP_TMP/inventory"
	cat >"$NP_TMP/play.yml" <<-EOF2
	- hosts: all
	  gather_facts: false
	  roles:
	    - $NP_SRCDIR/contrib/ansible/roles/netpolicy
	EOF2
}

v1_snapshot() {
	ip netns exec "$NS" sh -c 'ethtool -l v1 | sed -n "/Current/,\$p"; cd /sys/class/net/v1 &&
		grep . queues/*/rps_cpus queues/*/xps_cpus queues/*/rps_flow_cnt' 2>&1
}

teardown() { np_veth_teardown; }

play() {	# play DEVICES-JSON [ansible-playbook options]: prints "changed=N"
	local devs=$1; shift
	jq -n --arg ns "$NS" --arg bin "$NETPOLICY" --arg conf "$CONF" --arg sd "$STATE_DIR" \
		--argjson devs "$devs" '{netpolicy_devices: $devs, netpolicy_conf: $conf,
		netpolicy_state_dir: $sd, netpolicy_bin: $bin,
		netpolicy_command_prefix: ["ip", "netns", "exec", $ns]}' >"$NP_TMP/vars.json"
	ANSIBLE_LOCAL_TEMP=$NP_TMP/ansible ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
		ansible-playbook -i "$NP_TMP/inventory" -e "@$NP_TMP/vars.json" "$@" \
		"$NP_TMP/play.yml" >"$NP_TMP/play.log" 2>&1 || { cat "$NP_TMP/play.log"; return 1; }
	grep -o 'changed=[0-9]*' "$NP_TMP/play.log" | tail -1
}

@test "ansible: check mode changes nothing, first run changed, second not, dropped device reset" {
	both='[{"name": "v0", "policy": "throughput"}, {"name": "v1", "policy": "latency"}]'
	run play "$both" --check --diff
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = changed=2 ]			# the file would be written, the preview has steps
	grep -qxF -- '+[v0]' "$NP_TMP/play.log"		# the file's diff
	[ "$(veth_snapshot)" = "$BEFORE" ]		# and nothing changed
	[ ! -e "$CONF" ]

	run play "$both"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" != changed=0 ]
	npns v0 check throughput
	npns v1 check latency

	run play "$both"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = changed=0 ]
	run play "$both" --check
	[ "$output" = changed=0 ]			# nothing to preview either

	# v1 dropped from the list: reset to how it was before netpolicy
	[ "$(v1_snapshot)" != "$V1_BEFORE" ]
	run play '[{"name": "v0", "policy": "throughput"}]'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" != changed=0 ]
	[ ! -e "$(np_rec v1 policy)" ]
	[ "$(v1_snapshot)" = "$V1_BEFORE" ]
	npns v0 check throughput
	run play '[{"name": "v0", "policy": "throughput"}]'
	[ "$output" = changed=0 ]
}

# Check mode skipped the file task: an edit of netpolicy.conf (here by hand)
# that the devices do not see was previewed as changed=0 with no diff, and
# the real run then rewrote the file.
@test "ansible: check mode shows the file the run would write (changed, with its diff), and writes nothing" {
	one='[{"name": "v0", "policy": "throughput"}]'
	run play "$one"
	[ "$status" -eq 0 ]
	printf '# edited by hand\n' >>"$CONF"
	edited=$(cat "$CONF")
	run play "$one" --check --diff
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = changed=1 ]			# the file, not the device
	grep -qxF -- '-# edited by hand' "$NP_TMP/play.log"
	[ "$(cat "$CONF")" = "$edited" ]		# not written
	run play "$one"
	[ "$output" = changed=1 ]			# as the preview said
	! grep -q 'edited' "$CONF" || false
}
