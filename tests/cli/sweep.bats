#!/usr/bin/env bats
# The driver-behaviour sweep (tests/sweep.bash): generic driver behaviours
# combined at random over the fixture models and every policy, mixed
# included.  Each run ends applied with only refused parts reported and
# `check` passing, or rolled back for a reason netpolicy(8) lists; `reset`
# restores pristine.  The seed is printed: SWEEP_SEED=N repeats a run.
# bench/sweep.sh runs thousands.

load ../helpers
source "$NP_SRCDIR/tests/sweep.bash"

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

@test "driver-behaviour sweep: degrade or a documented rollback, then reset to pristine" {
	seed=${SWEEP_SEED:-33}
	echo "# sweep seed $seed (SWEEP_SEED=$seed repeats it)" >&3
	run sweep_run "$seed" "${SWEEP_RUNS:-24}" "$NP_TMP"
	echo "$output"
	cat "$NP_TMP/exit3"
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == *" broken 0" ]]
}
