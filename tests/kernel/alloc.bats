#!/usr/bin/env bats
# tests/cli/alloc.bats on a real device: `set throughput` on a veth pair in a
# private namespace with its Nth allocation failing (tests/failalloc, whose
# sweep.bash says what is checked), for every N up to NP_ALLOC_FIRST and
# then every stride-th up to the count of a clean run (NP_ALLOC_STRIDE=1:
# every one).  After each: no crash and a documented exit code, the device
# exactly as it was or exactly at the target as that code says (a journal
# for 4), then the next clean set reaches the target with records check
# agrees with, no temp file is left, and reset restores the device exactly.

load ../helpers
load ../failalloc/sweep

setup() {
	np_alloc_skip_unless_usable
	np_veth_pristine_target 8 throughput
	printf '%s\n' "$BEFORE" >"$NP_TMP/pristine"
	printf '%s\n' "$TARGET" >"$NP_TMP/target"
	# the injector fails allocations of netpolicy only, not of ip
	export NP_FAIL_ALLOC_PROG=netpolicy
	NP=(ip netns exec "$NS" "$NETPOLICY" --state-dir "$STATE_DIR")
}

teardown() { np_veth_teardown; }

np_dev() { printf '%s\n' "$(veth_snapshot)"; }

fail_at() {
	echo "allocation $1: $2 (exit $RC)" >&2
	cat "$NP_TMP/alloc.err" >&2
	return 1
}

@test "set on a veth: an allocation failure at any point is an error, the device all or nothing" {
	k=$(np_alloc_count "${NP[@]}" v0 set throughput)
	"${NP[@]}" v0 reset >/dev/null
	np_dev_is "$NP_TMP/pristine"
	[ "$k" -gt 1000 ]
	for n in $(np_alloc_points "$k"); do
		np_alloc_run "$n" "${NP[@]}" v0 set throughput
		case $RC in
		0|6) np_dev_is "$NP_TMP/target" || fail_at "$n" "exit $RC but not at the target" ;;
		1|3) np_dev_is "$NP_TMP/pristine" || fail_at "$n" "exit $RC but the device changed" ;;
		4) [ -e "$(np_rec v0 journal)" ] || fail_at "$n" "exit 4 without a journal" ;;
		*) fail_at "$n" "unexpected exit" ;;
		esac
		# the next clean commands: target, records that agree, nothing stale
		"${NP[@]}" v0 set throughput >/dev/null 2>"$NP_TMP/clean.err" ||
			{ cat "$NP_TMP/clean.err" >&2; fail_at "$n" "clean set failed after it"; }
		np_dev_is "$NP_TMP/target" || fail_at "$n" "clean set did not reach the target after it"
		np_no_temp_files || fail_at "$n" "temp files left"
		[ ! -e "$(np_rec v0 journal)" ] || fail_at "$n" "a journal survived a clean set"
		"${NP[@]}" v0 check throughput >/dev/null 2>&1 || fail_at "$n" "check fails after a clean set"
		"${NP[@]}" v0 reset >/dev/null 2>&1 || fail_at "$n" "clean reset failed"
		np_dev_is "$NP_TMP/pristine" || fail_at "$n" "reset did not restore the device"
		[ ! -e "$(np_rec v0 policy)" ] || fail_at "$n" "a policy record survived reset"
	done
}
