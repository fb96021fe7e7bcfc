#!/bin/bash
# The driver-behaviour sweep at scale (tests/sweep.bash): RUNS random
# combinations of generic driver behaviours over the fixture models and
# every policy, from SEED, runs FIRST.. (0), in SWEEP_JOBS shards at once
# (default: the CPUs), on a tmpfs where there is one.  Prints the runs that
# broke the rule, the runs that ended in exit 3 (with the reason), and a
# summary line with the exit-3 share.
#   bench/sweep.sh [SEED [RUNS [FIRST]]]      (from the build directory)
#   bench/sweep.sh SEED 1 RUN                 repeats one run alone
set -u
seed=${1:-$(date +%s)}
runs=${2:-2000}
first=${3:-0}
src=$(cd "$(dirname "$0")/.." && pwd)
NETPOLICY=${NETPOLICY:-$PWD/netpolicy/netpolicy}
FIXTURES=$src/tests/fixtures
tmp=${TMPDIR:-/tmp}
[ -d /dev/shm ] && [ -w /dev/shm ] && tmp=/dev/shm
dir=$(mktemp -d "$tmp/np-sweep.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
# shellcheck source=../tests/sweep.bash
source "$src/tests/sweep.bash"
echo "sweep: seed $seed, $runs runs from run $first"
start=$(date +%s)
sweep_run "$seed" "$runs" "$dir" "${SWEEP_JOBS:-$(nproc 2>/dev/null || echo 1)}" "$first" |
	tee "$dir/summary"
cat "$dir/exit3"
e3=$(awk '/^sweep: seed .* runs /{print $9}' "$dir/summary")
echo "sweep: $((runs > 0 ? (e3 * 10000 / runs) : 0)) per 10000 runs in exit 3;" \
	"$(($(date +%s) - start)) s"
grep -q " broken 0$" "$dir/summary"
