# Shared by every bats file: where things are, temp dirs, namespaces.
NETPOLICY=${NETPOLICY:-$NP_BUILDDIR/netpolicy/netpolicy}
# the same CLI built with test hooks (make check builds it; never installed)
NETPOLICY_TEST_BIN=${NETPOLICY_TEST_BIN:-$NP_BUILDDIR/tests/netpolicy-test}
NP_SRCDIR=${NP_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
NP_CONFDIR=${NP_CONFDIR:-/etc/netpolicy}	# the build's (configure --with-confdir)
FIXTURES=$NP_SRCDIR/tests/fixtures

np_tmpdir() {
	NP_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/netpolicy.XXXXXX")
	STATE_DIR=$NP_TMP/state
}

np_cleanup_tmp() {
	# true when there is nothing to remove: a test that skipped in setup
	# before np_tmpdir must not fail in its teardown
	[ -z "${NP_TMP:-}" ] || rm -rf "$NP_TMP"
}

# A private copy of a fixture model (the sim backend saves changes into it).
np_model() {
	cp "$FIXTURES/models/$1.json" "$NP_TMP/$1.json"
	MODEL=$NP_TMP/$1.json
}

# "$@" (a netpolicy command line); with --json its standard output is also
# kept in $NP_JSON_CAPTURE (set by tests/run-bats), which validates every
# document against its schema in doc/schema/ when the file's tests are done.
# watch streams: its events are checked by the tests that run it; after
# "--" the words are another command's (exec, try --), not netpolicy's.
np_json_kept() {
	local a f rc
	if [ -n "${NP_JSON_CAPTURE:-}" ]; then
		for a in "$@"; do
			case $a in
			watch | --) break ;;
			--json | -j)
				f=$NP_JSON_CAPTURE/$BASHPID.$RANDOM$RANDOM
				printf '%s\n' "$@" >"$f.args"
				"$@" >"$f.out" && rc=0 || rc=$?
				cat "$f.out"
				return $rc
				;;
			esac
		done
	fi
	"$@"
}

# tests/json_schema.py ARGS... (doc/schema/ and a python3 with jsonschema):
# validate documents against netpolicy's JSON schemas (NP_SCHEMA_DIR: others).
np_json_validate() {
	local py=python3
	"$py" -c 'import jsonschema' 2>/dev/null || py=/usr/bin/python3
	"$py" "$NP_SRCDIR/tests/json_schema.py" "${NP_SCHEMA_DIR:-$NP_SRCDIR/doc/schema}" "$@"
}

# A model of two NICs, the second like the first: its own name, ifindex,
# bus address and IRQs.
np_two_nics() {
	np_model "$1"
	jq '.devices += [.devices[0] | .ifname = "np1" | .ifindex = 77 |
		.bus_info = "0000:99:00.0" |
		.irqs |= map(.irq += 500 | .name |= sub("^[a-z0-9]+"; "np1"))]' \
		"$MODEL" >"$NP_TMP/two.json"
	MODEL=$NP_TMP/two.json
}

# netpolicy against the simulated machine in $MODEL with a private state dir
npsim() {
	np_json_kept "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" "$@"
}

# The sim backend's operation that writes knob $1 (what a fault names).
op_of() {
	case $1 in
	channels) echo set_channels ;;
	rings) echo set_rings ;;
	coalesce) echo set_coalesce ;;
	queue-coalesce) echo set_queue_coalesce ;;
	features) echo set_feature ;;
	rss) echo set_rss_indir ;;
	ntuple) echo rule_insert ;;
	rss-context) echo ctx_create ;;
	*) echo write_attr ;;
	esac
}

# The model $1 (a private copy) and its first device: MODEL, DEV, and NP,
# netpolicy on it with this test's state directory.
np_sim_dev() {
	np_model "$1"
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
	NP=("$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL")
}

# np_sim_dev's device as JSON, without netpolicy's own bookkeeping (the
# policy record, drift): equal when the device is as it was.
np_sim_state() {
	"${NP[@]}" --json "$DEV" show | jq -S 'del(.policy, .policy_cpus, .drift)'
}

# The --confirm watchdogs of this test's state directory, by their pids
# (one waiting out a long deadline keeps bats' output open).
np_kill_watchdogs() {
	local pids
	[ -n "${STATE_DIR:-}" ] || return 0
	pids=$(ps -eo pid=,args= | awk -v d="$STATE_DIR" 'index($0, d) && /__revert/ { print $1 }')
	[ -z "$pids" ] || kill $pids 2>/dev/null || true
}

# The environment of a netpolicy run under strace: LeakSanitizer cannot run
# under ptrace; the rest of ASan and UBSan can.
NP_NO_LSAN="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# "$@" under strace tracing system calls $1 into $NP_TMP/trace, children
# followed (NP_STRACE_FOLLOW= for only the process itself: -f would follow
# a --confirm watchdog and wait out its deadline).
np_traced() {
	local sc=$1
	shift
	# shellcheck disable=SC2086
	env "$NP_NO_LSAN" strace ${NP_STRACE_FOLLOW--f} -qq -o "$NP_TMP/trace" -e trace="$sc" \
		"$@" >/dev/null 2>&1
}

# How often a clean run of "$@" makes system call $1.
np_count_calls() {
	np_traced "$@"
	grep -c "$1(" "$NP_TMP/trace" || true
}

# Run "$@" killed on entry to the Nth call of $1; what it said goes to
# $NP_TMP/kill.err (np_kill_fail shows it).
np_killed_at() {
	local sc=$1 n=$2
	shift 2
	# shellcheck disable=SC2086
	env "$NP_NO_LSAN" strace ${NP_STRACE_FOLLOW--f} -qq -o /dev/null -e trace="$sc" \
		-e inject="$sc":signal=KILL:when="$n" "$@" >/dev/null 2>"$NP_TMP/kill.err" || true
}

# A failed check after a SIGKILL test's kill at $1: what the killed or next
# run said ($NP_TMP/kill.err) and the state directory.
np_kill_fail() {
	echo "$1: $2" >&2
	cat "$NP_TMP/kill.err" >&2
	ls -la "$STATE_DIR" >&2
	return 1
}

# A private copy of model $1, DEV its first device and NP netpolicy's
# command line for it; $NP_TMP/pristine and $NP_TMP/target hold the model
# as the sim writes it back before and after policy $2 (reset after each
# run, so the records are as a first set finds them).  Fails when the
# policy changes nothing: a test comparing the two would prove nothing.
np_sim_pristine_target() {
	np_sim_dev "$1"
	"${NP[@]}" "$DEV" set "$2" >/dev/null
	"${NP[@]}" "$DEV" reset >/dev/null
	cp "$MODEL" "$NP_TMP/pristine"
	"${NP[@]}" "$DEV" set "$2" >/dev/null
	cp "$MODEL" "$NP_TMP/target"
	"${NP[@]}" "$DEV" reset >/dev/null
	! cmp -s "$NP_TMP/pristine" "$NP_TMP/target"
}

require_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces)"
}

# A veth pair v0/v1 with $2 queues in a fresh namespace; sets NS.
np_netns_veth() {
	local q=${1:-8}
	require_root
	command -v ip >/dev/null || skip "iproute2 not installed"
	NS=np-test-$$-$RANDOM
	ip netns add "$NS" || skip "cannot create a network namespace"
	ip -n "$NS" link add v0 numtxqueues "$q" numrxqueues "$q" type veth \
		peer name v1 numtxqueues "$q" numrxqueues "$q"
	ip -n "$NS" link set v0 up
	ip -n "$NS" link set v1 up
}

np_netns_cleanup() {
	[ -n "${NS:-}" ] && ip netns del "$NS" 2>/dev/null
	NS=
}

# setup and teardown of the tests on a veth pair: a temp dir, the pair
# with $1 queues (8) in a fresh namespace and v0 as it was (BEFORE, to
# compare a later veth_snapshot with); then a netpolicy a test left
# stopped ($PID), the namespace and the temp dir go.
np_veth_setup() {
	np_tmpdir
	np_netns_veth "${1:-8}"
	BEFORE=$(veth_snapshot)
}

# np_veth_setup, and TARGET: the veth after `set POLICY` ($2), which
# differs from BEFORE; the device is back at BEFORE.
np_veth_pristine_target() {
	np_veth_setup "$1"
	npns v0 set "$2" >/dev/null
	TARGET=$(veth_snapshot)
	npns v0 reset >/dev/null
	[ "$TARGET" != "$BEFORE" ]
}

np_veth_teardown() {
	[ -z "${PID:-}" ] || kill -9 "$PID" 2>/dev/null
	np_netns_cleanup
	np_cleanup_tmp
}

# netpolicy inside the namespace (its own /sys), private state dir
npns() {
	np_json_kept ip netns exec "$NS" "$NETPOLICY" --state-dir "$STATE_DIR" "$@"
}

# "00000000,0000000f" (a sysfs mask) -> "0-3" (a cpulist), independently of
# netpolicy's own parser, so tests compare against the kernel's words.
hex2list() {
	local hex=${1//,/} bits=() i n c out="" start=-1 prev=-1
	hex=${hex,,}
	n=${#hex}
	for ((i = 0; i < n; i++)); do
		c=$((16#${hex:n-1-i:1}))
		bits+=($((c & 1)) $(((c >> 1) & 1)) $(((c >> 2) & 1)) $(((c >> 3) & 1)))
	done
	for ((i = 0; i <= ${#bits[@]}; i++)); do
		if [ "${bits[i]:-0}" = 1 ]; then
			[ $start -lt 0 ] && start=$i
			prev=$i
		elif [ $start -ge 0 ]; then
			out+="${out:+,}$start"
			[ $prev -gt $start ] && out+="-$prev"
			start=-1
		fi
	done
	echo "$out"
}

# Everything an apply can change on a veth, as the kernel's tools print it:
# channel counts and every queue's steering files.  Two snapshots compare
# equal only if the device is as it was.
veth_snapshot() {
	ip netns exec "$NS" sh -c '
		ethtool -l v0 | sed -n "/Current/,\$p"
		cd /sys/class/net/v0
		for f in queues/*/rps_cpus queues/*/rps_flow_cnt queues/*/xps_cpus queues/*/xps_rxqs \
			 napi_defer_hard_irqs gro_flush_timeout; do
			[ -e "$f" ] && echo "$f $(cat "$f" 2>&1)"
		done' 2>&1
}

# Wait (up to 10 s) until process $1 is stopped by the test hook.
wait_stopped() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ "$(awk '{print $3}' /proc/"$1"/stat 2>/dev/null)" = T ] && return 0
		sleep 0.1
	done
	return 1
}

# The path of netpolicy's record KIND ($2: policy, pristine, journal,
# tentative, lock, sysctl) of device $1 in the namespace $NS (${3:-$NS}):
# records are keyed by the device's name and its network namespace
# (np_store.h), the nsfs device and inode `stat -L` reads of /run/netns/NAME.
np_rec() {
	echo "$STATE_DIR/$1@netns-$(stat -L -c '%d-%i' "/run/netns/${3:-$NS}").$2"
}
