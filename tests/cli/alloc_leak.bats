#!/usr/bin/env bats
# Allocation failure leaks nothing: set, set --confirm and reset on the
# simulated backend, each with its Nth allocation failing
# (tests/failalloc/sweep.bash), run under valgrind's leak checker, which
# fails the run for any block definitely or indirectly lost (a json-c
# builder that left its values behind when an add failed, say).  valgrind
# makes a run some 20 times slower: fewer points than alloc.bats, spread
# over the whole run (NP_ALLOC_POINTS=200 NP_ALLOC_FIRST=40 by hand).
# LeakSanitizer cannot do this: the injector needs to own malloc.

load ../helpers
load ../failalloc/sweep

setup() {
	np_alloc_skip_unless_usable
	command -v valgrind >/dev/null || skip "valgrind not installed"
	np_tmpdir
	np_sim_dev virtio-4q
	# the injector fails nothing in valgrind's launchers, only in netpolicy;
	# valgrind must call the injector's malloc, not replace it
	VG=(env NP_FAIL_ALLOC_PROG=netpolicy valgrind -q --soname-synonyms=somalloc=nouserintercepts
	    --leak-check=full --show-leak-kinds=definite,indirect
	    --errors-for-leak-kinds=definite,indirect --error-exitcode=99)
	export NP_ALLOC_FIRST=${NP_ALLOC_FIRST:-0} NP_ALLOC_POINTS=${NP_ALLOC_POINTS:-10}
}

teardown() {
	np_kill_watchdogs
	np_cleanup_tmp
}

np_dev() { cat "$MODEL"; }

# Run the words after $1 with allocation $1 failing under valgrind.
leak_run() {
	local n=$1
	shift
	np_alloc_run "$n" "${VG[@]}" "${NP[@]}" "$@"
	if [ "$RC" -eq 99 ] || grep -q "definitely lost\|indirectly lost\|Invalid \(read\|write\|free\)" "$NP_TMP/alloc.err"; then
		echo "allocation $n of: $* -> exit $RC" >&2
		cat "$NP_TMP/alloc.err" >&2
		return 1
	fi
}

@test "set: no allocation failure leaks" {
	k=$(np_alloc_count "${NP[@]}" "$DEV" set latency)
	"${NP[@]}" "$DEV" reset >/dev/null
	for n in $(np_alloc_points "$k"); do
		leak_run "$n" "$DEV" set latency
		"${NP[@]}" "$DEV" reset >/dev/null
	done
}

@test "set --confirm: no allocation failure leaks" {
	k=$(np_alloc_count "${NP[@]}" "$DEV" set latency --confirm 600)
	np_kill_watchdogs
	"${NP[@]}" "$DEV" reset >/dev/null
	for n in $(np_alloc_points "$k"); do
		leak_run "$n" "$DEV" set latency --confirm 600
		np_kill_watchdogs
		"${NP[@]}" "$DEV" reset >/dev/null
	done
}

@test "reset: no allocation failure leaks" {
	"${NP[@]}" "$DEV" set latency >/dev/null
	k=$(np_alloc_count "${NP[@]}" "$DEV" reset)
	for n in $(np_alloc_points "$k"); do
		"${NP[@]}" "$DEV" set latency >/dev/null
		leak_run "$n" "$DEV" reset
	done
	"${NP[@]}" "$DEV" reset >/dev/null
}
