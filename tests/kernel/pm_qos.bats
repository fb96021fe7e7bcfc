#!/usr/bin/env bats
# The per-CPU wake-up latency limit on this machine's kernel: a veth pair
# in its own namespace, set latency, the CPUs serving its queues get the
# limit of their shallowest non-polling idle state in
# /sys/devices/system/cpu/cpuN/power/pm_qos_resume_latency_us, check
# passes, reset puts every file back exactly.  The files are the machine's:
# each test saves them first and its teardown (bats' exit trap of the test,
# run on a failure or an interrupt too) writes every saved value back.

load ../helpers

PMQ=/sys/devices/system/cpu

# "cpuN value" of every online CPU that has the file
pm_files() {
	local f c
	for f in "$PMQ"/cpu[0-9]*/power/pm_qos_resume_latency_us; do
		[ -e "$f" ] || continue
		c=${f#"$PMQ"/cpu}
		echo "cpu${c%%/*} $(cat "$f")"
	done
}

pm_restore() {
	local cpu v
	[ -s "${PM_SAVED:-}" ] || return 0
	while read -r cpu v; do
		echo "$v" >"$PMQ/$cpu/power/pm_qos_resume_latency_us" 2>/dev/null || true
	done <"$PM_SAVED"
}

setup() {
	require_root
	ls "$PMQ"/cpu0/power/pm_qos_resume_latency_us >/dev/null 2>&1 ||
		skip "no per-CPU resume-latency file"
	[ -e "$PMQ"/cpu0/cpuidle/state0/latency ] || skip "this kernel has no cpuidle"
	PM_SAVED=$(mktemp "${BATS_TMPDIR:-/tmp}/np-pmqos.XXXXXX")
	pm_files >"$PM_SAVED"
	# from no limit anywhere, whatever an earlier run left (a limit already
	# in place would make the plan's step a no-op); teardown writes the
	# saved values back
	pm_unlimit
	np_veth_setup 8
}

pm_unlimit() {
	local f
	for f in "$PMQ"/cpu[0-9]*/power/pm_qos_resume_latency_us; do
		[ -e "$f" ] && echo 0 >"$f"
	done
}

teardown() {
	pm_restore
	[ -z "${PM_SAVED:-}" ] || rm -f "$PM_SAVED"
	np_veth_teardown
}

# What the rule gives CPU $1, read independently of netpolicy: the exit
# latency of its shallowest enabled state that is not POLL, at least 1.
expected_limit() {
	local s lat
	for s in "$PMQ/cpu$1"/cpuidle/state*; do
		[ "$(cat "$s/name")" = POLL ] && continue
		[ "$(cat "$s/disable")" = 0 ] || continue
		lat=$(cat "$s/latency")
		[ "$lat" -ge 1 ] && echo "$lat" || echo 1
		return
	done
	echo 0
}

@test "pm-qos kernel: set latency limits the veth's queue CPUs, check passes, reset restores every file" {
	before=$(pm_files)
	run npns v0 set latency
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"pm-qos: cpu-"* ]]
	# the queues' CPUs: a veth has no IRQs, its queues' XPS masks say where
	cpus=$(ip netns exec "$NS" sh -c 'cat /sys/class/net/v0/queues/tx-*/xps_cpus' |
		while read -r m; do hex2list "$m"; done | tr ',' '\n' | sort -un)
	[ -n "$cpus" ]
	for c in $(seq 0 $(($(nproc --all) - 1))); do
		[ -e "$PMQ/cpu$c/power/pm_qos_resume_latency_us" ] || continue
		got=$(cat "$PMQ/cpu$c/power/pm_qos_resume_latency_us")
		if grep -qx "$c" <<<"$cpus"; then
			want=$(expected_limit "$c")
			was=$(awk -v c="cpu$c" '$1 == c { print $2 }' <<<"$before")
			# the strictest wins: a stricter limit that was there stays
			if [ "$was" != 0 ] && [ "$was" != n/a ] && [ "$was" -lt "$want" ]; then want=$was; fi
			[ "$was" != n/a ] || want=n/a
			echo "cpu$c: $got, want $want"
			[ "$got" = "$want" ]
		else
			[ "$got" = "$(awk -v c="cpu$c" '$1 == c { print $2 }' <<<"$before")" ]
		fi
	done
	run npns v0 check
	[ "$status" -eq 0 ]
	npns --json v0 show | jq -e '.pm_qos.cpus | length > 0'
	run npns v0 show
	[[ "$output" == *"pm-qos:"*" us on CPUs "* ]]
	# someone lifts the limit: check sees it
	c=$(head -1 <<<"$cpus")
	echo 0 >"$PMQ/cpu$c/power/pm_qos_resume_latency_us"
	run npns v0 check
	[ "$status" -eq 5 ]
	run npns v0 reset
	[ "$status" -eq 0 ]
	[ "$(pm_files)" = "$before" ]
}

@test "pm-qos kernel: the kernel's encoding: \"n/a\" read and written back exactly by reset" {
	c=0
	echo n/a >"$PMQ/cpu$c/power/pm_qos_resume_latency_us"
	[ "$(cat "$PMQ/cpu$c/power/pm_qos_resume_latency_us")" = n/a ]
	before=$(pm_files)
	run npns v0 set latency
	[ "$status" -eq 0 ]
	# 0 us is stricter than any limit the policy asks for: it stays, and
	# netpolicy reads it as the kernel wrote it
	[ "$(cat "$PMQ/cpu$c/power/pm_qos_resume_latency_us")" = n/a ]
	npns --json v0 show | jq -e '.pm_qos.cpus[0].resume_latency_us == "n/a"'
	run npns v0 check
	[ "$status" -eq 0 ]
	run npns v0 reset
	[ "$status" -eq 0 ]
	[ "$(pm_files)" = "$before" ]
	# and the kernel refuses what the simulator refuses
	! echo -1 >"$PMQ/cpu$c/power/pm_qos_resume_latency_us" 2>/dev/null
	! echo 2147483647 >"$PMQ/cpu$c/power/pm_qos_resume_latency_us" 2>/dev/null
}

@test "pm-qos kernel: a test file that leaves a limit behind (its namespace deleted, no reset) gets the machine's values back from run-bats" {
	pm_unlimit
	before=$(pm_files)
	# (bats would count a test line written here literally as one of ours)
	{
		printf '@%s "leak" {\n' test
		printf '\tip netns exec %s %s --state-dir %s v0 set latency\n' \
			"$NS" "$NETPOLICY" "$NP_TMP/leak-state"
		printf '\t[ "$(cat %s)" != 0 ]\n}\n' "$PMQ/cpu0/power/pm_qos_resume_latency_us"
	} >"$NP_TMP/leak.bats"
	# a bats of its own, not this one's environment
	run env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		NP_SRCDIR="$NP_SRCDIR" TMPDIR="$NP_TMP" \
		"$NP_SRCDIR/tests/run-bats" "$NP_TMP/leak.bats"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(pm_files)" = "$before" ]
}

@test "pm-qos kernel: a command over several devices reads the CPUs' idle states once, their limits per device" {
	ip -n "$NS" link add w0 type veth peer name w1
	ip -n "$NS" link set w0 up
	ip -n "$NS" link set w1 up
	env "$NP_NO_LSAN" strace -f -e trace=openat -o "$NP_TMP/trace" \
		ip netns exec "$NS" "$NETPOLICY" --state-dir "$STATE_DIR" metrics >/dev/null
	states=$(ls -d "$PMQ"/cpu[0-9]*/cpuidle/state[0-9]* | wc -l)
	cpus=$(ls "$PMQ"/cpu[0-9]*/power/pm_qos_resume_latency_us | wc -l)
	# 4 devices (v0, v1, w0, w1): the states' names once (and one look
	# past each CPU's last state), a limit each
	[ "$(grep -c 'cpuidle/state[0-9]*/name"' "$NP_TMP/trace")" -eq $((states + cpus)) ]
	[ "$(grep -c 'pm_qos_resume_latency_us"' "$NP_TMP/trace")" -eq $((4 * cpus)) ]
}
