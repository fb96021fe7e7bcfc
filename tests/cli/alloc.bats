#!/usr/bin/env bats
# Allocation failure is an error, never a crash: set, show --json, check,
# reset, set --confirm and confirm on the simulated backend, each with its
# Nth allocation failing (tests/failalloc/sweep.bash says what is checked).

load ../helpers
load ../failalloc/sweep

setup() {
	np_alloc_skip_unless_usable
	np_tmpdir
	np_sim_pristine_target virtio-4q latency
}

teardown() {
	np_kill_watchdogs
	np_cleanup_tmp
}

np_dev() { cat "$MODEL"; }

fail_at() {
	echo "allocation $1: $2 (exit $RC)" >&2
	cat "$NP_TMP/alloc.err" >&2
	return 1
}

# After any run: the next clean set applies and check agrees with it, the
# records hold nothing stale, and reset brings the device back.
clean_cycle() {
	"${NP[@]}" "$DEV" set latency >/dev/null 2>"$NP_TMP/clean.err" || { cat "$NP_TMP/clean.err" >&2; fail_at "$1" "clean set failed after it"; }
	np_dev_is "$NP_TMP/target" || fail_at "$1" "clean set did not reach the target after it"
	np_no_temp_files || fail_at "$1" "temp files left"
	"${NP[@]}" "$DEV" check >/dev/null 2>&1 || fail_at "$1" "check fails after a clean set"
	"${NP[@]}" "$DEV" reset >/dev/null 2>&1 || fail_at "$1" "clean reset failed"
	np_dev_is "$NP_TMP/pristine" || fail_at "$1" "reset did not restore the device"
	[ ! -e "$STATE_DIR/$DEV.tentative" ] || fail_at "$1" "a tentative marker survived reset"
}

@test "set: an allocation failure at any point is an error, the device all or nothing" {
	k=$(np_alloc_count "${NP[@]}" "$DEV" set latency)
	"${NP[@]}" "$DEV" reset >/dev/null
	[ "$k" -gt 1000 ]
	for n in $(np_alloc_points "$k"); do
		np_alloc_run "$n" "${NP[@]}" "$DEV" set latency
		case $RC in
		0|6) np_dev_is "$NP_TMP/target" || fail_at "$n" "exit $RC but not at the target" ;;
		1|3) np_dev_is "$NP_TMP/pristine" || fail_at "$n" "exit $RC but the device changed" ;;
		4) [ -e "$STATE_DIR/$DEV.journal" ] || fail_at "$n" "exit 4 without a journal" ;;
		*) fail_at "$n" "unexpected exit" ;;
		esac
		clean_cycle "$n"
	done
}

@test "reset: an allocation failure at any point is an error, the device all or nothing" {
	"${NP[@]}" "$DEV" set latency >/dev/null
	k=$(np_alloc_count "${NP[@]}" "$DEV" reset)
	for n in $(np_alloc_points "$k"); do
		"${NP[@]}" "$DEV" set latency >/dev/null
		np_alloc_run "$n" "${NP[@]}" "$DEV" reset
		case $RC in
		0|6) np_dev_is "$NP_TMP/pristine" || fail_at "$n" "exit $RC but not reset" ;;
		1|3) np_dev_is "$NP_TMP/target" || fail_at "$n" "exit $RC but the device changed" ;;
		4) [ -e "$STATE_DIR/$DEV.journal" ] || fail_at "$n" "exit 4 without a journal" ;;
		*) fail_at "$n" "unexpected exit" ;;
		esac
		"${NP[@]}" "$DEV" reset >/dev/null 2>&1 || fail_at "$n" "clean reset failed after it"
		np_dev_is "$NP_TMP/pristine" || fail_at "$n" "clean reset did not restore the device"
		np_no_temp_files || fail_at "$n" "temp files left"
	done
}

@test "show --json: all of the document or an error, never a silently shorter one" {
	"${NP[@]}" "$DEV" set latency >/dev/null
	"${NP[@]}" --json "$DEV" show >"$NP_TMP/show.json"
	k=$(np_alloc_count "${NP[@]}" --json "$DEV" show)
	for n in $(np_alloc_points "$k"); do
		np_alloc_run "$n" "${NP[@]}" --json "$DEV" show
		case $RC in
		0) cmp -s "$NP_TMP/alloc.out" "$NP_TMP/show.json" ||
			fail_at "$n" "exit 0 with another document: $(diff "$NP_TMP/show.json" "$NP_TMP/alloc.out" | head -5)" ;;
		1) [ -s "$NP_TMP/alloc.err" ] || fail_at "$n" "exit 1 without a word" ;;
		*) fail_at "$n" "unexpected exit" ;;
		esac
		np_dev_is "$NP_TMP/target" || fail_at "$n" "show changed the device"
	done
}

@test "check: exit 0 or 1 under allocation failures, never drift that is not there" {
	"${NP[@]}" "$DEV" set latency >/dev/null
	k=$(np_alloc_count "${NP[@]}" "$DEV" check)
	for n in $(np_alloc_points "$k"); do
		np_alloc_run "$n" "${NP[@]}" "$DEV" check
		case $RC in
		0|1) ;;
		*) fail_at "$n" "unexpected exit" ;;
		esac
		np_dev_is "$NP_TMP/target" || fail_at "$n" "check changed the device"
	done
}

@test "set --confirm: an allocation failure leaves no change without its marker and watchdog" {
	k=$(np_alloc_count "${NP[@]}" "$DEV" set latency --confirm 600)
	np_kill_watchdogs
	"${NP[@]}" "$DEV" reset >/dev/null
	for n in $(np_alloc_points "$k"); do
		np_alloc_run "$n" "${NP[@]}" "$DEV" set latency --confirm 600
		case $RC in
		0|6)
			np_dev_is "$NP_TMP/target" || fail_at "$n" "exit $RC but not at the target"
			# the marker, or a committed journal the next command completes it from
			[ -e "$STATE_DIR/$DEV.tentative" ] || [ -e "$STATE_DIR/$DEV.journal" ] ||
				fail_at "$n" "a tentative change without its marker"
			;;
		1|3)
			np_dev_is "$NP_TMP/pristine" || fail_at "$n" "exit $RC but the device changed"
			[ ! -e "$STATE_DIR/$DEV.tentative" ] || fail_at "$n" "a marker for no change"
			;;
		*) fail_at "$n" "unexpected exit" ;;
		esac
		np_kill_watchdogs
		clean_cycle "$n"
	done
}

@test "confirm: an allocation failure confirms or leaves the change pending, nothing else" {
	"${NP[@]}" "$DEV" set latency --confirm 600 >/dev/null
	k=$(np_alloc_count "${NP[@]}" "$DEV" confirm)
	"${NP[@]}" "$DEV" reset >/dev/null
	np_kill_watchdogs
	for n in $(np_alloc_points "$k"); do
		"${NP[@]}" "$DEV" set latency --confirm 600 >/dev/null
		np_alloc_run "$n" "${NP[@]}" "$DEV" confirm
		case $RC in
		0) [ ! -e "$STATE_DIR/$DEV.tentative" ] || fail_at "$n" "confirmed, marker still there" ;;
		1) [ -e "$STATE_DIR/$DEV.tentative" ] || fail_at "$n" "exit 1, but the marker is gone" ;;
		*) fail_at "$n" "unexpected exit" ;;
		esac
		np_dev_is "$NP_TMP/target" || fail_at "$n" "confirm changed the device"
		np_kill_watchdogs
		"${NP[@]}" "$DEV" reset >/dev/null 2>&1 || fail_at "$n" "clean reset failed"
		np_dev_is "$NP_TMP/pristine" || fail_at "$n" "reset did not restore the device"
	done
}
