# Allocation-failure sweeps, sourced by tests/cli/alloc.bats and
# tests/kernel/alloc.bats: run one netpolicy command with its Nth allocation
# failing (tests/failalloc/np_failalloc.so), for N from 1 to the number a
# clean run makes, and check after each that
#   - it did not crash, abort or trip a sanitizer, and its exit code is
#     netpolicy(8)'s for what happened (never 2, a usage error);
#   - the device is exactly as it was or exactly at the target, as the exit
#     code says (0/6: changed, 1/3: as it was, 4: a journal kept);
#   - the next clean command leaves the records consistent with the device
#     (check passes) and no temp file behind.
# The caller defines np_dev (prints the device's state: equal text = equal
# device) and runs commands through "$@" (the netpolicy words to prefix).
# Every N up to NP_ALLOC_FIRST (default 40) and then every STRIDE-th,
# STRIDE = K / NP_ALLOC_POINTS (default 60); NP_ALLOC_STRIDE=1 sweeps every allocation (by hand: a
# `set` makes about 7000).

FAILALLOC=${FAILALLOC:-$NP_BUILDDIR/tests/failalloc/np_failalloc.so}

np_alloc_skip_unless_usable() {
	[ -f "$FAILALLOC" ] || skip "no $FAILALLOC (make check builds it)"
	# ASan replaces malloc itself and refuses a preloaded one before it
	if ldd "$NETPOLICY" 2>/dev/null | grep -q libasan; then
		skip "a sanitizer build: allocation failures are injected in the plain build"
	fi
}

# The allocations a clean run of "$@" makes.
np_alloc_count() {
	rm -f "$NP_TMP/alloc.count"
	NP_FAIL_ALLOC_COUNT=$NP_TMP/alloc.count LD_PRELOAD=$FAILALLOC "$@" >/dev/null 2>&1 || true
	read -r calls _ <"$NP_TMP/alloc.count"
	echo "$calls"
}

np_alloc_points() {
	local k=$1 stride n
	stride=${NP_ALLOC_STRIDE:-$(( k / ${NP_ALLOC_POINTS:-60} ))}
	[ "$stride" -ge 1 ] || stride=1
	for ((n = 1; n <= k + 1; n++)); do
		if [ "$n" -le "${NP_ALLOC_FIRST:-40}" ] || [ $(( n % stride )) -eq 0 ] || [ "$n" -ge "$k" ]; then
			echo "$n"
		fi
	done
}

# Run "$@" with allocation N failing: sets RC; stdout in $NP_TMP/alloc.out,
# stderr in $NP_TMP/alloc.err.  Fails the test on a crash or a usage error.
np_alloc_run() {
	local n=$1
	shift
	RC=0
	NP_FAIL_ALLOC=$n LD_PRELOAD=$FAILALLOC "$@" >"$NP_TMP/alloc.out" 2>"$NP_TMP/alloc.err" || RC=$?
	if [ "$RC" -ge 128 ] || [ "$RC" -eq 2 ] ||
	   grep -qE 'Assertion|Sanitizer|runtime error|\(null\)' "$NP_TMP/alloc.err"; then
		echo "allocation $n of: $* -> exit $RC" >&2
		cat "$NP_TMP/alloc.err" >&2
		return 1
	fi
}

# The device equals the state saved in file $1.
np_dev_is() {
	np_dev >"$NP_TMP/dev.now"
	cmp -s "$NP_TMP/dev.now" "$1"
}

np_no_temp_files() {
	! ls -A "$STATE_DIR" 2>/dev/null | grep -q '\.tmp$'
}
