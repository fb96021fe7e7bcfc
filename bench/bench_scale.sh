#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# What a command costs as the machine grows: at 50 and at 5,000 processes
# (sleepers this script starts and kills) and at 1 and 200 devices (veths
# in this script's network namespace: v0 with 64 queues, then 199 more,
# their peers in a second namespace), in one run:
#   - wall time of `show --json` against `ethtool -l`, of `set` against the
#     sh script making the same changes (bench_apply.sh's), of `metrics`
#     (every device) against one `ethtool -l` process per device, each as a
#     ratio of medians over interleaved rounds;
#   - syscalls of each command and of watch's re-apply of a drifted v0
#     (strace -f -c), and how many of its opens are of a process's files
#     (/proc/PID/...) or of /proc's directory;
#   - watch idle: syscalls in 3 s with nothing changing (started once the
#     namespace has had no link event for 2 s; the events in the 3 s are
#     counted too).
# Prints one table and writes every figure as JSON.  See bench/README.md.
#
# Usage: bench_scale.sh [--netpolicy PATH] [--queue-files PATH] [--srcdir DIR]
#                       [--out FILE] [--runs N] [--procs "50 5000"]
#                       [--devices "1 200"]
# --queue-files: bench/np_bench_queue_files (built by make), the floor under
# show: a process reading v0's per-queue sysfs files and nothing else,
# timed against ethtool -l beside show (default: next to netpolicy's build).
# Root only.  Needs ip, ethtool, strace and jq.
set -euo pipefail

HERE=$(dirname "$(realpath "$0")")
# the environment's (the copy run inside gets them so), before the
# defaults of the functions' file
RUNS_GIVEN=${RUNS:-11}
# measure, gen_scripts, to_pristine, snapshot, align...
# shellcheck source=bench/bench_apply.sh
. "$HERE/bench_apply.sh" --library
# shellcheck source=bench/veth_pair.sh
. "$HERE/veth_pair.sh"

NP=${NP:-./netpolicy/netpolicy}
QF=${QF:-}
SRCDIR=${SRCDIR:-$HERE/..}
OUT=bench/scale.json
RUNS=$RUNS_GIVEN
PROCS=${PROCS:-"50 5000"}
DEVICES=${DEVICES:-"1 200"}
QUEUES=64
POLICY=throughput

# ---------------------------------------------------------------- inside

SLEEPERS=()

# sleepers N: exactly N sleepers of ours running
sleepers() {
	while [ "${#SLEEPERS[@]}" -lt "$1" ]; do
		sleep 3600 &
		SLEEPERS+=($!)
	done
	while [ "${#SLEEPERS[@]}" -gt "$1" ]; do
		kill "${SLEEPERS[-1]}"
		wait "${SLEEPERS[-1]}" 2>/dev/null || true
		unset 'SLEEPERS[-1]'
	done
}

# how many of the paths given exist (a glob's matches)
n_of() {
	local n=0 f

	for f in "$@"; do
		[ ! -e "$f" ] || n=$((n + 1))
	done
	echo "$n"
}

# devices N: v0 and N-1 more veths in this namespace
devices() {
	local i have

	have=$(n_of /sys/class/net/d[0-9]*)
	for ((i = have + 1; i < $1; i++)); do
		ip link add "d$i" type veth peer name "p$i" netns "$PEER"
		ip link set "d$i" up
	done
	for ((i = $1; i <= have; i++)); do
		ip link del "d$i"
	done
}

t_metrics() { np metrics; }
t_queue_files() { "$QF" v0; }
t_ethtool_each() {
	local d

	for d in /sys/class/net/*; do
		ethtool -l "${d##*/}" >/dev/null 2>&1 || true
	done
}

# count NAME CELL CMD...: syscalls of one run of CMD; the opens of a
# process's files and of /proc's directory
count() {
	local name=$1 cell=$2 total pid dir
	shift 2

	strace -f -C -o "trace.$name" "$@" >/dev/null 2>&1 || true
	total=$(awk '$NF == "total" { print $4 }' "trace.$name")
	pid=$(grep -cE 'open(at)?\(.*"/proc/[0-9]+/' "trace.$name" || true)
	dir=$(grep -cE 'open(at)?\(.*"/proc/?"' "trace.$name" || true)
	rec "{\"kind\":\"syscalls\",\"name\":\"$name\",\"cell\":\"$cell\",\"syscalls\":${total:-0},\"proc_pid_opens\":$pid,\"proc_dir_opens\":$dir}"
}

# start_watch NAME [ARG]: `watch v0` under strace (trace.NAME, NAME.out),
# back once it is watching; stop_watch ends it (SIGTERM, as a service
# manager would).  Its pid is its own: the script never kills by name.
start_watch() {
	local i

	local -a args=("$NP" --state-dir "$W/state" --verbose "${@:2}" watch v0)

	rm -f watch.pid
	# shellcheck disable=SC2016 # $$ is the traced shell's, exec'd into netpolicy
	strace -f -o "trace.$1" sh -c 'echo $$ >watch.pid; exec "$0" "$@"' "${args[@]}" \
		>"$1.out" 2>&1 &
	WATCH_STRACE=$!
	for ((i = 0; i < 200; i++)); do
		grep -q 'watching' "$1.out" && break
		sleep 0.05
	done
	grep -q 'watching' "$1.out" || die "watch did not start: $(cat "$1.out")"
	sleep 1.5	# its start check done, idle
}
stop_watch() {
	kill -TERM "$(cat watch.pid)" 2>/dev/null || true
	wait "$WATCH_STRACE" 2>/dev/null || true
}

# watch_reapply CELL: syscalls of `watch` from a drift of v0 (channels
# changed behind its back) to its re-apply
watch_reapply() {
	local cell=$1 mark total pid dir i

	to_np_set
	start_watch watch --json
	mark=$(wc -l <trace.watch)
	ethtool -L v0 rx "$QUEUES" tx "$QUEUES" >/dev/null
	for ((i = 0; i < 200; i++)); do
		grep -q '"trigger"' watch.out && break
		sleep 0.05
	done
	sleep 0.2
	stop_watch
	grep -q '"trigger"' watch.out || die "watch did not re-apply v0 ($cell)"
	total=$(tail -n +"$((mark + 1))" trace.watch | grep -cE '^[0-9]+ +[a-z_0-9]+\(' || true)
	pid=$(tail -n +"$((mark + 1))" trace.watch | grep -cE 'open(at)?\(.*"/proc/[0-9]+/' || true)
	dir=$(tail -n +"$((mark + 1))" trace.watch | grep -cE 'open(at)?\(.*"/proc/?"' || true)
	rec "{\"kind\":\"syscalls\",\"name\":\"watch_reapply\",\"cell\":\"$cell\",\"syscalls\":$total,\"proc_pid_opens\":$pid,\"proc_dir_opens\":$dir}"
	to_pristine
}

# link_quiet: back once this namespace has had no link event for 2 s (at
# most 20 s), as `ip monitor link` (running, writing monitor.out) sees
# them.  A channel change of a veth takes it down and up, and the kernel's
# link watcher may send the carrier events up to a second later: a watch
# started just after the scripts' runs would wake for them, which is work,
# not idleness.
link_quiet() {
	local i last=-1 now same=0

	for ((i = 0; i < 200 && same < 20; i++)); do
		now=$(wc -c <monitor.out)
		if [ "$now" = "$last" ]; then same=$((same + 1)); else same=0; fi
		last=$now
		sleep 0.1
	done
}

# watch_idle: syscalls of a watch with nothing to do, 3 s, and the link
# events of its namespace in those 3 s (a wake-up for one of them is not
# idle work)
watch_idle() {
	local mark total mon ev0 events

	ip monitor link >monitor.out 2>&1 &
	mon=$!
	link_quiet
	start_watch idle
	mark=$(wc -l <trace.idle)
	ev0=$(grep -cE '^(Deleted )?[0-9]+: ' monitor.out || true)
	sleep 3
	total=$(($(wc -l <trace.idle) - mark))
	events=$(($(grep -cE '^(Deleted )?[0-9]+: ' monitor.out || true) - ev0))
	stop_watch
	kill "$mon" 2>/dev/null || true
	wait "$mon" 2>/dev/null || true
	rec "{\"kind\":\"idle\",\"name\":\"watch_idle_3s\",\"syscalls\":$total,\"link_events\":$events}"
}

cell() {	# cell DEVICES PROCS: every figure at that size
	local d=$1 p=$2 c="d$1p$2" nps=("$NP" --state-dir "$W/state")

	devices "$d"
	sleepers "$p"
	rec "{\"kind\":\"cell\",\"name\":\"$c\",\"devices\":$(($(n_of /sys/class/net/*) - 1)),\"processes\":$(n_of /proc/[0-9]*),\"sleepers\":$p}"
	measure "show_json@$c : t_show" "ethtool_l@$c : t_ethtool_l" "queue_files@$c : t_queue_files" \
		"metrics@$c : t_metrics" "ethtool_each@$c : t_ethtool_each"
	measure "set@$c to_pristine t_set" "script_apply@$c to_pristine t_script_apply"
	to_pristine
	count show "$c" "${nps[@]}" --json v0 show
	count metrics "$c" "${nps[@]}" metrics
	count set "$c" "${nps[@]}" v0 set "$POLICY"
	to_pristine
	watch_reapply "$c"
}

inside() {
	local d p

	cd "$W"
	mkdir state disk-state
	mount -t tmpfs -o mode=0700,size=64m np-bench "$W/state"
	snapshot >pristine.snap
	np --json v0 set "$POLICY" --dry-run >plan.json
	gen_scripts
	t_script_apply >/dev/null
	np v0 check "$POLICY" >/dev/null || die "apply.sh does not reach the $POLICY plan"
	t_script_restore >/dev/null
	snapshot | cmp -s - pristine.snap || die "restore.sh does not restore v0"
	trap 'sleepers 0' EXIT
	rec "$(jq -nc --arg l "$(cut -d' ' -f1-3 /proc/loadavg)" '{kind: "note", name: "loadavg_before", text: $l}')"
	watch_idle
	# growing processes first, then devices, then processes going away:
	# no size is measured twice in a row with the same sleepers
	for d in $DEVICES; do
		for p in $PROCS; do
			cell "$d" "$p"
		done
		PROCS=$(tr ' ' '\n' <<<"$PROCS" | tac | tr '\n' ' ')
	done
	rec "$(jq -nc --arg l "$(cut -d' ' -f1-3 /proc/loadavg)" '{kind: "note", name: "loadavg_after", text: $l}')"
	sleepers 0
	snapshot | cmp -s - pristine.snap || die "v0 was left changed"
}

# --------------------------------------------------------------- outside

scale_report() {
	jq -s '
		def by(k): map(select(.kind == k));
		(by("time") | map({key: .name, value: .median_us}) | from_entries) as $t |
		(by("time") | map({key: .name, value: .min_us}) | from_entries) as $m |
		{cells: (by("cell") | map({key: .name, value: del(.kind, .name)}) | from_entries),
		 time_median_us: $t, time_min_us: $m,
		 syscalls: (by("syscalls") | map({key: "\(.name)@\(.cell)", value: del(.kind, .name, .cell)})
			    | from_entries),
		 watch_idle_3s_syscalls: (by("idle")[0].syscalls),
		 watch_idle_3s_link_events: (by("idle")[0].link_events),
		 notes: (by("note") | map({key: .name, value: .text}) | from_entries)}' \
		"$W/records.jsonl" >"$OUT"
}

scale_table() {
	jq -r '"load average \(.notes.loadavg_before) before, \(.notes.loadavg_after) after; " +
		"medians (ratio of medians; of minimums in brackets)"' "$OUT"
	jq -r -f /dev/stdin "$OUT" <<'EOF' | align
. as $r | ($r.cells | keys_unsorted) as $cs |
def ms(us): (us / 10 | round / 100 | tostring);
def ratio(a; b; c): ($r.time_median_us["\(a)@\(c)"] / $r.time_median_us["\(b)@\(c)"] * 100 | round / 100);
def mratio(a; b; c): ($r.time_min_us["\(a)@\(c)"] / $r.time_min_us["\(b)@\(c)"] * 100 | round / 100);
def tcell(a; b; c): "\(ratio(a; b; c)) (\(mratio(a; b; c))): \(ms($r.time_median_us["\(a)@\(c)"]))/\(ms($r.time_median_us["\(b)@\(c)"])) ms";
def scell(n; c): $r.syscalls["\(n)@\(c)"] as $s | "\($s.syscalls), /proc: \($s.proc_pid_opens)+\($s.proc_dir_opens)";
def allmet(f): [$cs[] | f] | all;
(["measure"] + [$cs[] | "\($r.cells[.].devices) dev, \($r.cells[.].processes) procs"] + ["target", "met"] | @tsv),
(["show --json / ethtool -l"] + [$cs[] | tcell("show_json"; "ethtool_l"; .)] + ["<= 1.5",
  (if allmet(ratio("show_json"; "ethtool_l"; .) <= 1.5) then "yes" else "NO" end)] | @tsv),
(["queue files alone / ethtool -l"] + [$cs[] | tcell("queue_files"; "ethtool_l"; .)] + ["floor", "-"] | @tsv),
(["set / sh script"] + [$cs[] | tcell("set"; "script_apply"; .)] + ["<= 1.3",
  (if allmet(ratio("set"; "script_apply"; .) <= 1.3) then "yes" else "NO" end)] | @tsv),
(["metrics / ethtool -l each dev"] + [$cs[] | tcell("metrics"; "ethtool_each"; .)] + ["-", "-"] | @tsv),
(["syscalls, /proc/PID+/proc opens"] + [$cs[] | ""] + ["", ""] | @tsv),
(("show", "set", "metrics", "watch_reapply") as $n |
  ["  " + $n] + [$cs[] | scell($n; .)] + ["/proc: 0+0",
  (if allmet($r.syscalls["\($n)@\(.)"] | .proc_pid_opens == 0 and .proc_dir_opens == 0) then "yes" else "NO" end)] | @tsv),
(["watch idle, 3 s", "\($r.watch_idle_3s_syscalls) syscalls, \($r.watch_idle_3s_link_events) link events"] + [$cs[1:][] | ""] + ["0",
  (if $r.watch_idle_3s_syscalls == 0 then "yes" else "NO" end)] | @tsv)
EOF
}

main() {
	while [ $# -gt 0 ]; do
		case $1 in
		--netpolicy) NP=$2; shift ;;
		--queue-files) QF=$2; shift ;;
		--srcdir) SRCDIR=$2; shift ;;
		--out) OUT=$2; shift ;;
		--runs) RUNS=$2; shift ;;
		--procs) PROCS=$2; shift ;;
		--devices) DEVICES=$2; shift ;;
		*) die "unknown argument '$1' (see the top of $0)" ;;
		esac
		shift
	done
	[ "$(id -u)" = 0 ] || die "needs root (it makes network namespaces)"
	for tool in ip ethtool strace jq; do
		command -v "$tool" >/dev/null || die "needs $tool"
	done
	NP=$(realpath "$NP")
	QF=$(realpath "${QF:-$(dirname "$NP")/../bench/np_bench_queue_files}")
	[ -x "$QF" ] || die "no $QF (make builds it)"
	SRCDIR=$(realpath "$SRCDIR")
	mkdir -p "$(dirname "$OUT")"
	OUT=$(realpath "$OUT")
	W=$(mktemp -d /tmp/np-scale.XXXXXX)
	NS=npscale-$$
	PEER=npscale-peer-$$
	trap 'ip netns del "$NS" 2>/dev/null || true; ip netns del "$PEER" 2>/dev/null || true; rm -rf "$W"' EXIT
	trap 'exit 130' INT TERM
	touch "$W/records.jsonl"
	veth_pair_up "$NS" "$PEER" "$QUEUES"
	export NP QF SRCDIR RUNS W POLICY QUEUES PROCS DEVICES PEER
	ip netns exec "$NS" "$BASH" "$0" --inside
	scale_report
	scale_table
	echo "JSON: $OUT"
}

if [ "${1:-}" = --inside ]; then
	inside
else
	main "$@"
fi
