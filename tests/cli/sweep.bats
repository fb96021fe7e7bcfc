#!/usr/bin/env bats
# The driver-behaviour sweep (tests/sweep.bash): generic driver behaviours
# combined at random over the fixture models and every policy, mixed
# included.  Each run ends applied with only refused parts reported and
# `check` passing, or rolled back for a reason netpolicy(8) lists; `reset`
# restores pristine.  300 runs, in one shard per CPU, on a tmpfs where
# there is one (each command syncs its journal and the simulated model):
# about 40 s on a loaded 2-core machine.  The seed is printed:
# SWEEP_SEED=N repeats the set; a broken run's line names its seed and
# run number, and bench/sweep.sh SEED 1 RUN repeats that run alone.
# bench/sweep.sh runs thousands.

load ../helpers
source "$NP_SRCDIR/tests/sweep.bash"

setup() {
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		NP_TMP=$(mktemp -d /dev/shm/netpolicy.XXXXXX)
		STATE_DIR=$NP_TMP/state
	else
		np_tmpdir
	fi
}
teardown() { np_cleanup_tmp; }

@test "driver-behaviour sweep: degrade or a documented rollback, then reset to pristine" {
	seed=${SWEEP_SEED:-33}
	echo "# sweep seed $seed (SWEEP_SEED=$seed repeats it)" >&3
	run sweep_run "$seed" "${SWEEP_RUNS:-300}" "$NP_TMP"
	echo "$output"
	cat "$NP_TMP/exit3"
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == *" broken 0" ]]
}

# A refused set_feature keeps rx-ntuple-filter off, and the plan then
# leaves out the ntuple rules that need it: a dependent knob's drop, which
# the sweep takes (found at sfc-mixed mixed, features refused EINVAL).  Any
# other knob dropped, or ntuple dropped for another reason, still breaks
# the rule.
@test "sweep rule: a refused feature may cost the ntuple rules that need it, nothing else" {
	np_sim_dev sfc-mixed
	jq '.faults = [{op: "set_feature", every: true, errno: "EINVAL"}]' "$MODEL" >"$NP_TMP/m" &&
		mv "$NP_TMP/m" "$MODEL"
	run "${NP[@]}" --json "$DEV" set mixed --flow latency:tcp:11211 --flow cpu:udp:5353
	[ "$status" -eq 0 ]
	dropped=$(jq -r '.dropped[] | "\(.knob)\t\(.reason)"' <<<"$output")
	[ "$(cut -f1 <<<"$dropped" | tr '\n' ' ')" = "features ntuple " ]
	sweep_dropped_ok "$dropped" " features "
	run sweep_dropped_ok "$dropped" " coalesce "
	[ "$status" -eq 1 ] && [ "$output" = features ]
	run sweep_dropped_ok "$(printf 'ntuple\tntuple: Invalid argument')" " features "
	[ "$status" -eq 1 ] && [ "$output" = ntuple ]
	run sweep_dropped_ok "$(printf 'rss\trx-ntuple-filter is off')" " features "
	[ "$status" -eq 1 ]
}
