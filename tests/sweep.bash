# The driver-behaviour sweep (issue 33): generic driver behaviours, chosen
# at random from a seed and combined, over the fixture models and every
# policy.  Each run must end either applied (exit 0) with only refused
# parts reported and `check` passing, or rolled back (exit 3) for a reason
# netpolicy(8) lists under "What rolls back"; `reset` must then bring the
# device back to its pristine state exactly.  Sourced by
# tests/cli/sweep.bats (a few hundred runs) and bench/sweep.sh (thousands).
#
# Needs NETPOLICY (the binary) and FIXTURES (tests/fixtures); sweep_run
# SEED N DIR [JOBS [FIRST]] prints one line per run that broke the rule
# and, last, "sweep: seed SEED runs N ok K exit3 E broken B".  Run I of a
# seed is seeded from SEED and I alone, so any run repeats by itself
# (sweep_run SEED 1 DIR 1 I) and JOBS shards (runs I, I+JOBS, ...) run in
# parallel.  What a run costs is process starts: two jq (about 35 ms each:
# jq 1.6 compiles its builtins at every start) and four or five netpolicy
# commands; DIR on a tmpfs spares the fsyncs of the journal and of the
# simulated driver's model saved after each operation (about 0.1 s a
# command on a disk).

SWEEP_MODELS=(mlx5-2s64c ixgbe-16cpu bnxt-8q ice-100g virtio-4q igc-4q ena-8q gve-8q iavf-4q
	      tg3-4q r8169-1q atlantic-8q be2net-8q cxgb4-8q hns3-8q mlx4-8q netvsc-4q nfp-8q
	      qede-8q vmxnet3-4q isolated few-msix epyc-4ccx vm-1cpu ice-mixed mlx5-mixed sfc-mixed)
SWEEP_POLICIES=(cpu latency throughput busy-poll mixed)
SWEEP_ERRNOS=(EPERM EBUSY EIO 524 EINVAL EOPNOTSUPP ERANGE EAGAIN)
SWEEP_OPS=(set_channels set_rings set_coalesce set_feature set_rss_indir write_attr set_napi
	   set_queue_coalesce rule_insert ctx_create)
SWEEP_ATTR_KNOBS=(irq-affinity xps rps rfs sysctl napi napi-threads)
SWEEP_COAL_FIELDS=(rx-usecs tx-usecs rx-frames tx-frames)

# pick ARRAY-NAME: one element into PICK, from bash's seeded RANDOM (never
# in a subshell: bash seeds those anew, and the sweep would not repeat)
pick() { local -n a=$1; PICK=${a[RANDOM % ${#a[@]}]}; }

# FILTER: the jq filter of one random behaviour ("refusal" ones go in .faults with
# "every"; reset runs without them: a knob refused both ways cannot be
# restored by anyone, netpolicy(8)); sets BEHAVIOUR to a short description.
sweep_behaviour() {
	local op e f
	case $((RANDOM % 9)) in
	0|1|2)
		pick SWEEP_OPS; op=$PICK
		pick SWEEP_ERRNOS; e=$PICK
		[ "$e" = 524 ] || e="\"$e\""
		if [ "$op" = write_attr ]; then
			pick SWEEP_ATTR_KNOBS; f=$PICK
			BEHAVIOUR="refuse $op $f $e"
			FILTER=".faults += [{op: \"$op\", knob: \"$f\", every: true, errno: $e, refusal: true}]"
		else
			BEHAVIOUR="refuse $op $e"
			FILTER=".faults += [{op: \"$op\", every: true, errno: $e, refusal: true}]"
		fi ;;
	3)
		pick SWEEP_COAL_FIELDS; f=$PICK
		BEHAVIOUR="keep $f"
		FILTER=".faults += [{op: \"set_coalesce\", mode: \"keep\", field: \"$f\"}]" ;;
	4)
		BEHAVIOUR="couple"
		# not on the drivers the table already pairs (igb, ixgbe, igc:
		# Tx follows Rx by their own rules, and a model with both would
		# hold a state they cannot be in)
		FILTER='if (.devices[0].driver | test("^(igb|ixgbe|igc)$")) then . else
		      .devices[0].coalesce.fields["tx-usecs"] = (.devices[0].coalesce.fields["rx-usecs"] // 0)
		      | .faults += [{op: "set_coalesce", mode: "couple"}] end' ;;
	5)
		BEHAVIOUR="adaptive_usecs"
		FILTER='.faults += [{op: "set_coalesce", mode: "adaptive_usecs"}]' ;;
	6)
		BEHAVIOUR="managed IRQs"
		FILTER='.managed_irqs += [.devices[0].irqs[]? | select(.queue != null) | .irq]' ;;
	7)
		BEHAVIOUR="tx ring max 0"
		FILTER='if .devices[0].rings.max_tx? then .devices[0].rings.max_tx = 0 | .devices[0].rings.tx = 0 else . end' ;;
	8)
		BEHAVIOUR="rx-hashing off fixed"
		FILTER='if .devices[0].features.list["rx-hashing"]? then .devices[0].features.list["rx-hashing"] = {active: false, wanted: false, fixed: true} else . end' ;;
	esac
}

# The knob a behaviour may leave out (what `dropped` may name).
sweep_knobs_of() {
	case $1 in
	"refuse set_channels"*) echo channels ;;
	"refuse set_rings"*) echo rings ;;
	"refuse set_coalesce"*|keep*|couple|adaptive_usecs) echo coalesce ;;
	"refuse set_feature"*) echo features ;;
	"refuse set_rss_indir"*) echo rss ;;
	"refuse write_attr "*) set -- $1; echo "$3" ;;
	"refuse set_napi"*) echo napi-config ;;
	"refuse set_queue_coalesce"*) echo queue-coalesce ;;
	"refuse rule_insert"*) echo ntuple ;;
	"refuse ctx_create"*) echo rss-context ;;
	"managed IRQs") echo irq-affinity ;;
	esac
}

# sweep_dropped_ok DROPPED ALLOWED: whether every "KNOB<TAB>REASON" line of
# DROPPED names a knob a behaviour refuses (ALLOWED: " knob knob ... "), or
# the steering that needs a feature left out: a refused set_feature keeps
# rx-ntuple-filter off, and ntuple rules need it on (the plan says so)
sweep_dropped_ok() {
	local knob reason
	while IFS=$'\t' read -r knob reason; do
		[ -n "$knob" ] || continue
		[[ "$2" == *" $knob "* ]] && continue
		[[ "$knob" == ntuple && "$2" == *" features "* && "$reason" == *"rx-ntuple-filter is off"* ]] &&
			continue
		echo "$knob"
		return 1
	done <<<"$1"
}

sweep_np() { "$NETPOLICY" --state-dir "$SWEEP_DIR/state" --model "$SWEEP_DIR/m.json" "$@"; }

# sweep_same: the device as `show` says now (s1.json) is the pristine one
# (s0.json); the text is compared first, jq only when it differs
sweep_same() {
	sweep_np --json "$SWEEP_DEV" show >"$SWEEP_DIR/s1.json" 2>/dev/null
	cmp -s "$SWEEP_DIR/s0.json" "$SWEEP_DIR/s1.json" && return 0
	jq -en --slurpfile a "$SWEEP_DIR/s0.json" --slurpfile b "$SWEEP_DIR/s1.json" \
		'($a[0] | del(.policy, .policy_cpus, .drift)) == ($b[0] | del(.policy, .policy_cpus, .drift))' \
		>/dev/null
}

# sweep_one SEED I: run I of SEED; prints a line and returns 1 when it
# broke the rule; SWEEP_RC: the set's exit status
sweep_one() {
	local model policy n filter="." desc="" allowed=" " flows=() mjson behaviours dropped knob
	RANDOM=$(($1 * 100003 + $2))
	pick SWEEP_MODELS; model=$PICK
	pick SWEEP_POLICIES; policy=$PICK
	case $model in *-mixed) ;; *) [ "$policy" != mixed ] || policy=throughput ;; esac
	[ "$policy" != mixed ] || flows=(--flow latency:tcp:11211 --flow cpu:udp:5353)
	n=$((1 + RANDOM % 3))
	for ((k = 0; k < n; k++)); do
		sweep_behaviour
		filter="$filter | $FILTER"
		desc="$desc; $BEHAVIOUR"
		allowed="$allowed$(sweep_knobs_of "$BEHAVIOUR") "
	done
	SWEEP_DESC="seed $1 run $2: $model $policy${desc}"
	rm -rf "$SWEEP_DIR/state"
	# one jq: the model with the faults, the behaviours reset keeps (the
	# faults that are no refusal), the device's name
	{ IFS= read -r mjson && IFS= read -r behaviours && IFS= read -r SWEEP_DEV; } < <(
		jq -cr "(.faults = [] | $filter) as \$m |
			(\$m | .faults |= map(del(.refusal))),
			[\$m.faults[] | select(.refusal | not)], \$m.devices[0].ifname" \
			"$FIXTURES/models/$model.json") ||
		{ echo "sweep: bad filter: $SWEEP_DESC"; return 1; }
	printf '%s\n' "$mjson" >"$SWEEP_DIR/m.json"
	sweep_np --json "$SWEEP_DEV" show >"$SWEEP_DIR/s0.json" 2>/dev/null
	sweep_np --json "$SWEEP_DEV" set "$policy" "${flows[@]}" >"$SWEEP_DIR/set.json" 2>"$SWEEP_DIR/err"
	SWEEP_RC=$?
	# one jq: the model for reset (the driver's behaviours, without the
	# injected refusals: a knob refused both ways cannot be restored by
	# anyone, netpolicy(8)), then what the set left out
	jq -cr --argjson b "$behaviours" --slurpfile s "$SWEEP_DIR/set.json" \
		'(.faults = $b), ($s[0].dropped // [] | .[] | "\(.knob)\t\(.reason)")' \
		"$SWEEP_DIR/m.json" >"$SWEEP_DIR/m2.json" 2>/dev/null ||
		jq -c --argjson b "$behaviours" '.faults = $b' "$SWEEP_DIR/m.json" >"$SWEEP_DIR/m2.json"
	dropped=$(tail -n +2 "$SWEEP_DIR/m2.json")
	case $SWEEP_RC in
	0)
		knob=$(sweep_dropped_ok "$dropped" "$allowed") ||
			{ echo "sweep: $SWEEP_DESC: dropped $knob, which no behaviour refuses"; return 1; }
		sweep_np "$SWEEP_DEV" check >"$SWEEP_DIR/check" 2>&1 ||
			{ echo "sweep: $SWEEP_DESC: check after set: $(head -c 400 "$SWEEP_DIR/check")"; return 1; } ;;
	3)
		# documented: a failure that leaves the state unknown (none is
		# injected here), a knob refused again after it was left out
		# whole, more refusals than the result holds
		echo "sweep: $SWEEP_DESC: exit 3: $(head -c 300 "$SWEEP_DIR/err")" >>"$SWEEP_DIR/exit3" ;;
	*)
		echo "sweep: $SWEEP_DESC: set exit $SWEEP_RC: $(head -c 400 "$SWEEP_DIR/err")"
		return 1 ;;
	esac
	head -n 1 "$SWEEP_DIR/m2.json" >"$SWEEP_DIR/m.json"
	sweep_np "$SWEEP_DEV" reset >"$SWEEP_DIR/reset" 2>&1 ||
		{ echo "sweep: $SWEEP_DESC: reset: $(head -c 400 "$SWEEP_DIR/reset")"; return 1; }
	sweep_same || { echo "sweep: $SWEEP_DESC: reset did not restore pristine"; return 1; }
	return 0
}

# sweep_shard SEED N DIR JOBS FIRST J: runs FIRST+J, FIRST+J+JOBS, ... below
# FIRST+N in DIR/jJ; its counts in DIR/jJ/counts, its exit 3 in .../exit3
sweep_shard() {
	local seed=$1 n=$2 jobs=$4 first=$5 j=$6 ok=0 e3=0 broken=0
	SWEEP_DIR=$3/j$j
	mkdir -p "$SWEEP_DIR" && : >"$SWEEP_DIR/exit3"
	for ((i = first + j; i < first + n; i += jobs)); do
		if sweep_one "$seed" "$i"; then
			if [ "$SWEEP_RC" -eq 0 ]; then ok=$((ok + 1)); else e3=$((e3 + 1)); fi
		else
			broken=$((broken + 1))
		fi
	done
	echo "$ok $e3 $broken" >"$SWEEP_DIR/counts"
}

# sweep_run SEED N DIR [JOBS [FIRST]]: N runs from run FIRST (0), in JOBS
# shards at once (default: the CPUs); DIR/exit3 lists the runs in exit 3
sweep_run() {
	local seed=$1 n=$2 dir=$3 jobs=${4:-$(nproc 2>/dev/null || echo 1)} first=${5:-0}
	local ok=0 e3=0 broken=0 a b c j
	[ "$jobs" -le "$n" ] || jobs=$n
	[ "$jobs" -ge 1 ] || jobs=1
	for ((j = 0; j < jobs; j++)); do
		sweep_shard "$seed" "$n" "$dir" "$jobs" "$first" "$j" >"$dir/out$j" &
	done
	wait
	: >"$dir/exit3"
	for ((j = 0; j < jobs; j++)); do
		cat "$dir/out$j"
		cat "$dir/j$j/exit3" >>"$dir/exit3"
		read -r a b c <"$dir/j$j/counts" || { echo "sweep: shard $j did not finish"; broken=$((broken + 1)); continue; }
		ok=$((ok + a)) e3=$((e3 + b)) broken=$((broken + c))
	done
	echo "sweep: seed $seed runs $n ok $ok exit3 $e3 broken $broken"
}
