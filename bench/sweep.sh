#!/bin/bash
# The driver-behaviour sweep at scale (tests/sweep.bash): RUNS random
# combinations of generic driver behaviours over the fixture models and
# every policy, from SEED.  Prints the runs that broke the rule, the runs
# that ended in exit 3 (with the reason), and a summary line.
#   bench/sweep.sh [SEED [RUNS]]      (from the build directory)
set -u
seed=${1:-$(date +%s)}
runs=${2:-2000}
src=$(cd "$(dirname "$0")/.." && pwd)
NETPOLICY=${NETPOLICY:-$PWD/netpolicy/netpolicy}
FIXTURES=$src/tests/fixtures
dir=$(mktemp -d "${TMPDIR:-/tmp}/np-sweep.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
# shellcheck source=../tests/sweep.bash
source "$src/tests/sweep.bash"
echo "sweep: seed $seed, $runs runs"
sweep_run "$seed" "$runs" "$dir" | tee "$dir/summary"
cat "$dir/exit3"
grep -q " broken 0$" "$dir/summary"
