#!/usr/bin/env bats
# netpolicy metrics on simulated machines: the policy, drift per knob, the
# refused knobs, a pending --confirm, and the other owners found below
# --root (a fake /proc and /etc); checked by Prometheus' own linter when it
# is installed, and --output replacing its file whole.

load ../helpers
bats_require_minimum_version 1.5.0

setup() {
	np_tmpdir
	np_model mlx5-2s64c
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
	ROOT=$NP_TMP/root
	mkdir -p "$ROOT/proc" "$ROOT/etc"
}
teardown() { np_cleanup_tmp; }

fault() {	# fault FAULT-JSON: the model's only injected fault
	jq --argjson f "$1" '.faults = [$f]' "$MODEL" >"$NP_TMP/f.json" && mv "$NP_TMP/f.json" "$MODEL"
}

# --root is the test build's (tests/netpolicy-test)
npr() { "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" --model "$MODEL" --root "$ROOT" "$@"; }

value() {	# value METRIC-WITH-LABELS: its sample's value, from $output
	awk -v m="$1" 'index($0, m " ") == 1 { print $NF }' <<<"$output"
}

lint() {	# the text as Prometheus reads it (promtool, when installed)
	command -v promtool >/dev/null || return 0
	promtool check metrics <<<"$output"
}

@test "metrics: before and after set, and drift counted per knob" {
	run npsim "$DEV" metrics
	[ "$status" -eq 0 ]
	lint
	[ "$(value "netpolicy_device_read_ok{device=\"$DEV\"}")" = 1 ]
	[ "$(value "netpolicy_policy_applied{device=\"$DEV\"}")" = 0 ]
	! grep -q '^netpolicy_policy_info{' <<<"$output" || false
	! grep -q '^netpolicy_policy_matches{' <<<"$output" || false

	npsim "$DEV" set latency --cpus 0-7 >/dev/null
	before=$(date +%s)
	run npsim "$DEV" metrics
	[ "$status" -eq 0 ]
	lint
	[ "$(value "netpolicy_policy_applied{device=\"$DEV\"}")" = 1 ]
	[ "$(value "netpolicy_policy_info{device=\"$DEV\",policy=\"latency\",cpus=\"0-7\"}")" = 1 ]
	[ "$(value "netpolicy_policy_matches{device=\"$DEV\"}")" = 1 ]
	t=$(value "netpolicy_policy_recorded_timestamp_seconds{device=\"$DEV\"}")
	[ "$t" -le "$before" ] && [ "$t" -ge $((before - 60)) ]
	[ "$(value "netpolicy_confirm_pending{device=\"$DEV\"}")" = 0 ]
	[ "$(value "netpolicy_interrupted_run{device=\"$DEV\"}")" = 0 ]
	! grep -q '^netpolicy_drift_settings{' <<<"$output" || false

	# another program changes two coalescing fields and the ring sizes
	jq '.devices[0].coalesce.fields["rx-usecs"] = 77 | .devices[0].coalesce.fields["tx-usecs"] = 77
		| .devices[0].rings.rx = 64' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	run npsim "$DEV" check
	[ "$status" -eq 5 ]
	run npsim "$DEV" metrics
	[ "$status" -eq 0 ]
	lint
	[ "$(value "netpolicy_policy_matches{device=\"$DEV\"}")" = 0 ]
	[ "$(value "netpolicy_drift_settings{device=\"$DEV\",knob=\"coalesce\"}")" = 2 ]
	[ "$(value "netpolicy_drift_settings{device=\"$DEV\",knob=\"rings\"}")" = 1 ]
	[ "$(grep -c '^netpolicy_drift_settings{' <<<"$output")" -eq 2 ]
}

@test "metrics: a knob the driver refused is reported, and is not drift" {
	fault '{"op":"set_coalesce","after":0,"errno":"EINVAL","extack":"rx-usecs out of range"}'
	jq '.faults += [(.faults[0] | .after = 1), (.faults[0] | .after = 2)]' "$MODEL" >"$NP_TMP/f.json" &&
		mv "$NP_TMP/f.json" "$MODEL"
	npsim "$DEV" set latency >/dev/null
	run npsim "$DEV" metrics
	[ "$status" -eq 0 ]
	lint
	[ "$(value "netpolicy_refused_knob{device=\"$DEV\",knob=\"coalesce\"}")" = 1 ]
	[ "$(value "netpolicy_policy_matches{device=\"$DEV\"}")" = 1 ]
}

@test "metrics: a pending --confirm and its deadline" {
	npsim "$DEV" set latency --confirm 600 >/dev/null
	now=$(date +%s)
	run npsim "$DEV" metrics
	[ "$status" -eq 0 ]
	lint
	[ "$(value "netpolicy_confirm_pending{device=\"$DEV\"}")" = 1 ]
	d=$(value "netpolicy_confirm_deadline_timestamp_seconds{device=\"$DEV\"}")
	[ "$d" -ge $((now + 590)) ] && [ "$d" -le $((now + 600)) ]
	npsim "$DEV" confirm >/dev/null
	run npsim "$DEV" metrics
	[ "$(value "netpolicy_confirm_pending{device=\"$DEV\"}")" = 0 ]
	! grep -q '^netpolicy_confirm_deadline_timestamp_seconds{' <<<"$output" || false
}

@test "metrics: other owners: NetworkManager's ethtool settings, the first matching .link, tuned's net plugin, irqbalance" {
	# nothing running, nothing configured: no owner
	run npr "$DEV" metrics
	[ "$status" -eq 0 ]
	! grep -q '^netpolicy_other_owner{' <<<"$output" || false

	mkdir -p "$ROOT/proc/100" "$ROOT/proc/200" "$ROOT/proc/300" \
		"$ROOT/etc/NetworkManager/system-connections" "$ROOT/etc/systemd/network" \
		"$ROOT/usr/lib/systemd/network" "$ROOT/usr/lib/tuned/base" "$ROOT/etc/tuned/mine"
	echo NetworkManager >"$ROOT/proc/100/comm"
	echo tuned >"$ROOT/proc/200/comm"
	echo irqbalance >"$ROOT/proc/300/comm"
	# each service found by what it publishes: NetworkManager and
	# irqbalance under systemd by their units' cgroups (a helper of
	# NetworkManager's listed first), tuned by its pid file
	mkdir -p "$ROOT/proc/99" "$ROOT/run/tuned" \
		"$ROOT/sys/fs/cgroup/system.slice/NetworkManager.service" \
		"$ROOT/sys/fs/cgroup/system.slice/irqbalance.service"
	echo dhclient >"$ROOT/proc/99/comm"
	printf '99\n100\n' >"$ROOT/sys/fs/cgroup/system.slice/NetworkManager.service/cgroup.procs"
	echo 300 >"$ROOT/sys/fs/cgroup/system.slice/irqbalance.service/cgroup.procs"
	echo 200 >"$ROOT/run/tuned/tuned.pid"
	# a connection of this device that sets ring sizes and an offload; one
	# of another device; one of this device without ethtool settings
	printf '[connection]\nid=a\ninterface-name=%s\n[ethtool]\nring-rx=1024\nfeature-gro=false\n' \
		"$DEV" >"$ROOT/etc/NetworkManager/system-connections/a.nmconnection"
	printf '[connection]\nid=b\ninterface-name=other0\n[ethtool]\nring-rx=1024\n' \
		>"$ROOT/etc/NetworkManager/system-connections/b.nmconnection"
	printf '[connection]\nid=c\ninterface-name=%s\n[ipv4]\nmethod=auto\n' \
		"$DEV" >"$ROOT/etc/NetworkManager/system-connections/c.nmconnection"
	# udev takes the first matching .link by name: 10- sets channels; 99-
	# (every device, naming only) comes later and sets nothing of ours
	printf '[Match]\nOriginalName=%s\n[Link]\nCombinedChannels=4\nRxCoalesceSec=10us\n' "$DEV" \
		>"$ROOT/usr/lib/systemd/network/10-nic.link"
	printf '[Match]\nOriginalName=*\n[Link]\nNamePolicy=keep kernel\n' \
		>"$ROOT/usr/lib/systemd/network/99-default.link"
	# tuned: the active profile includes one whose net plugin sets channels
	echo mine >"$ROOT/etc/tuned/active_profile"
	printf '[main]\ninclude=base\n[cpu]\ngovernor=performance\n' >"$ROOT/etc/tuned/mine/tuned.conf"
	printf '[my_net]\ntype=net\ndevices=other0,%s\nchannels=combined 8\n' "$DEV" \
		>"$ROOT/usr/lib/tuned/base/tuned.conf"

	run npr "$DEV" metrics
	[ "$status" -eq 0 ]
	lint
	echo "$output" | grep other_owner
	[ "$(value "netpolicy_other_owner{device=\"$DEV\",owner=\"irqbalance\",source=\"pid 300\",knobs=\"irq-affinity\"}")" = 1 ]
	[ "$(value "netpolicy_other_owner{device=\"$DEV\",owner=\"NetworkManager\",source=\"/etc/NetworkManager/system-connections/a.nmconnection\",knobs=\"rings, features\"}")" = 1 ]
	[ "$(value "netpolicy_other_owner{device=\"$DEV\",owner=\"systemd.link\",source=\"/usr/lib/systemd/network/10-nic.link\",knobs=\"channels, coalesce\"}")" = 1 ]
	[ "$(value "netpolicy_other_owner{device=\"$DEV\",owner=\"tuned\",source=\"/etc/tuned/active_profile\",knobs=\"channels\"}")" = 1 ]
	[ "$(grep -c '^netpolicy_other_owner{' <<<"$output")" -eq 4 ]
	# show has them too
	run npr --json "$DEV" show
	[ "$(jq -c '[.other_owners[] | [.owner, (.knobs | join(","))]]' <<<"$output")" = \
	  '[["irqbalance","irq-affinity"],["NetworkManager","rings,features"],["systemd.link","channels,coalesce"],["tuned","channels"]]' ]
	run npr "$DEV" show
	grep -qx "  also set by:   irqbalance (pid 300): irq-affinity" <<<"$output"
	grep -qx "                 tuned (/etc/tuned/active_profile): channels" <<<"$output"
	# set says so (irqbalance has a note of its own), and check on drift
	err=$(npr "$DEV" set throughput 2>&1 >/dev/null)
	grep -qx "netpolicy: $DEV: NetworkManager (/etc/NetworkManager/system-connections/a.nmconnection) also sets rings, features of this device: it may undo this policy when it applies them again" <<<"$err"
	grep -qx "netpolicy: $DEV: tuned (/etc/tuned/active_profile) also sets channels of this device: it may undo this policy when it applies them again" <<<"$err"
	jq '.devices[0].rings.rx = 64' "$MODEL" >"$NP_TMP/m.json" && mv "$NP_TMP/m.json" "$MODEL"
	err=$(npr "$DEV" check 2>&1 >/dev/null) || true
	grep -qx "netpolicy: $DEV: systemd.link (/usr/lib/systemd/network/10-nic.link) also sets channels, coalesce of this device: drift there may be its doing" <<<"$err"

	# an /etc file of the same name hides /usr/lib's: now it sets nothing
	printf '[Match]\nOriginalName=%s\n[Link]\nNamePolicy=kernel\n' "$DEV" \
		>"$ROOT/etc/systemd/network/10-nic.link"
	# tuned's net section for other devices only; NetworkManager not running
	printf '[my_net]\ntype=net\ndevices=other0\nchannels=combined 8\n' \
		>"$ROOT/usr/lib/tuned/base/tuned.conf"
	rm "$ROOT/proc/100/comm"
	run npr "$DEV" metrics
	[ "$status" -eq 0 ]
	[ "$(grep -c '^netpolicy_other_owner{' <<<"$output")" -eq 1 ]
	grep -q '^netpolicy_other_owner{.*owner="irqbalance"' <<<"$output"
}

@test "metrics: a simulated device has no other owner on this machine" {
	run npsim "$DEV" metrics
	[ "$status" -eq 0 ]
	! grep -q '^netpolicy_other_owner{' <<<"$output" || false
}

@test "metrics --output: the file is replaced whole, readable by the exporter; errors are one line" {
	mkdir -p "$NP_TMP/textfile"
	npsim "$DEV" set throughput >/dev/null
	run npsim metrics --output "$NP_TMP/textfile/netpolicy.prom"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(stat -c %a "$NP_TMP/textfile/netpolicy.prom")" = 644 ]
	grep -q "^netpolicy_policy_info{device=\"$DEV\",policy=\"throughput\",cpus=\"\"} 1$" \
		"$NP_TMP/textfile/netpolicy.prom"
	# nothing but the file is left in the directory
	[ "$(ls -A "$NP_TMP/textfile")" = netpolicy.prom ]
	run npsim metrics --output "$NP_TMP/nodir/netpolicy.prom"
	[ "$status" -eq 1 ]
	[ "$output" = "netpolicy: $NP_TMP/nodir/netpolicy.prom: No such file or directory" ]
	run npsim "$DEV" metrics --json
	[ "$status" -eq 2 ]
	run npsim "$DEV" show --output x
	[ "$status" -eq 2 ]
	run npsim nosuch0 metrics
	[ "$status" -ne 0 ]
	[[ "$output" == *nosuch0* ]]
}

@test "metrics: a NetworkManager keyfile name that is not UTF-8 leaves the file valid UTF-8, the byte replaced" {
	mkdir -p "$ROOT/proc/100" "$ROOT/run/NetworkManager" "$ROOT/etc/NetworkManager/system-connections"
	echo NetworkManager >"$ROOT/proc/100/comm"
	echo 100 >"$ROOT/run/NetworkManager/NetworkManager.pid"
	printf '[connection]\nid=a\ninterface-name=%s\n[ethtool]\nring-rx=1024\n' "$DEV" \
		>"$ROOT/etc/NetworkManager/system-connections/h"$'\xff'"i.nmconnection"
	npr "$DEV" metrics >"$NP_TMP/out"
	python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$NP_TMP/out"
	grep -q "^netpolicy_other_owner{device=\"$DEV\",owner=\"NetworkManager\",source=\"/etc/NetworkManager/system-connections/h"$'\uFFFD'"i.nmconnection\"" "$NP_TMP/out"
	output=$(cat "$NP_TMP/out")
	lint
}
