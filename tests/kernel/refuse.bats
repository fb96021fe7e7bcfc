#!/usr/bin/env bats
# Graceful refusal through the real kernel paths, on a veth pair in a
# private network namespace.  veth has no coalescing or rings (their
# requests never reach it), so the field-by-field retry cannot be driven
# here: the refusal is a whole refinement, XPS, whose sysfs write strace
# makes fail with EOPNOTSUPP (what a device without XPS support answers).
# The field-level retry is tested on the simulator (tests/cli/refuse.bats).

load ../helpers

setup() {
	command -v strace >/dev/null || skip "strace not installed"
	np_veth_setup
}

teardown() { np_veth_teardown; }

# netpolicy in the namespace with every write to tx-0's xps_cpus refused
# with errno $ERRNO (EOPNOTSUPP unless set)
refusing_xps() {
	ip netns exec "$NS" env "$NP_NO_LSAN" strace -f -qq -o "$NP_TMP/trace" \
		-P /sys/devices/virtual/net/v0/queues/tx-0/xps_cpus \
		-e trace=write,pwrite64 -e inject=write,pwrite64:error="${ERRNO:-EOPNOTSUPP}" \
		"$NETPOLICY" --state-dir "$STATE_DIR" "$@"
}

@test "veth: a refused XPS write is dropped with errno and reason, the rest applies, check passes" {
	run refusing_xps --json v0 set latency
	[ "$status" -eq 0 ]
	grep -q INJECTED "$NP_TMP/trace"
	[ "$(jq -c '[.dropped[] | [.knob, .errno]]' <<<"$output")" = '[["xps","EOPNOTSUPP"]]' ]
	[[ "$(jq -r '.dropped[0].reason' <<<"$output")" == *"xps_cpus: Operation not supported"* ]]
	[ "$(jq '.rolled_back' <<<"$output")" = false ]
	# channels changed through ethtool netlink, XPS left as it was
	[ "$(ip netns exec "$NS" cat /sys/class/net/v0/queues/tx-0/xps_cpus | tr -d 0,)" = "" ]
	[ "$(veth_snapshot)" != "$BEFORE" ]
	[ "$(jq -r .drop "$(np_rec v0 policy)")" = xps ]
	run npns v0 check
	[ "$status" -eq 0 ]
	run npns v0 reset
	[ "$status" -eq 0 ]
	[ "$(veth_snapshot)" = "$BEFORE" ]
}

@test "veth: --strict with a refused XPS write rolls everything back (exit 3)" {
	run refusing_xps v0 set latency --strict
	[ "$status" -eq 3 ]
	[[ "$output" == *"xps_cpus: Operation not supported"*"rolled back, the device is as it was"* ]]
	[[ "$output" != *dropped* ]]
	[ "$(veth_snapshot)" = "$BEFORE" ]
	[ ! -e "$(np_rec v0 policy)" ]
}

# The degrade rule (netpolicy(8) "What degrades"): a refusal is any errno the
# kernel gives for one knob, not only "not supported".  EIO is what sysfs
# answers for a write the device cannot take and EBUSY one it cannot take
# now; before the rule each rolled the whole policy back (exit 3).
@test "veth: XPS refused with EIO or EBUSY is left out and reported, the rest applies; reset is exact" {
	for e in EIO EBUSY; do
		ERRNO=$e run refusing_xps --json v0 set latency
		[ "$status" -eq 0 ]
		grep -q INJECTED "$NP_TMP/trace"
		[ "$(jq -c '[.dropped[] | [.knob, .errno]]' <<<"$output")" = "[[\"xps\",\"$e\"]]" ]
		[ "$(jq '.rolled_back' <<<"$output")" = false ]
		[ "$(veth_snapshot)" != "$BEFORE" ]
		[ "$(ip netns exec "$NS" cat /sys/class/net/v0/queues/tx-0/xps_cpus | tr -d 0,)" = "" ]
		run npns v0 check
		[ "$status" -eq 0 ]
		run npns v0 reset
		[ "$status" -eq 0 ]
		[ "$(veth_snapshot)" = "$BEFORE" ]
	done
}

@test "veth: XPS refused with EIO under --strict rolls everything back (exit 3)" {
	ERRNO=EIO run refusing_xps v0 set latency --strict
	[ "$status" -eq 3 ]
	[[ "$output" == *"xps_cpus: Input/output error"*"rolled back, the device is as it was"* ]]
	[ "$(veth_snapshot)" = "$BEFORE" ]
}
