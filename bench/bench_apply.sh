#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# What an apply costs, against what admins use today.  On a veth pair with
# 64 rx/tx queues in a private network namespace (made here, deleted on
# exit), in one run:
#   - syscalls of `set` from the pristine state, of a no-op `set` and of
#     `reset`, and how many of them change state;
#   - wall time of `show --json` against `ethtool -l`, of `set` against a sh
#     script making the same changes (generated from the dry-run plan), of a
#     no-op `set`, of `reset` against the reverse script, and of tuned's
#     one-shot mode applying an equivalent profile (when tuned is installed);
#   - peak RSS of the CLI, on the veth and on the largest simulated machine.
# Prints one table (with the planning benchmark's headline when given its
# JSON) and writes every figure as JSON.  See bench/README.md.
#
# Usage: bench_apply.sh [--netpolicy PATH] [--srcdir DIR] [--out FILE]
#                       [--plan-json FILE] [--runs N] [--json]
# Root only (without root it reports only the planning headline).  Needs ip,
# ethtool, strace, jq and /usr/bin/time (Debian: time).
set -euo pipefail

# defaults; the copy run inside the namespace gets the real values from
# the environment
NP=${NP:-./netpolicy/netpolicy}
SRCDIR=${SRCDIR:-$(dirname "$0")/..}
OUT=bench/results.json
PLAN_JSON=
RUNS=${RUNS:-21}
QUEUES=64
POLICY=throughput
TUNED_RUNS=7		# ~0.2 s a run for tuned: fewer runs

die() {
	echo "bench_apply: $*" >&2
	exit 1
}

# ETHTOOL_MSG_*_SET and *_ACT: the requests of the ethtool genetlink family
# that change a device (uapi enum, user to kernel; values are ABI).
ETHTOOL_SET_CMDS="3 5 8 10 12 14 16 18 20 22 24 26 27 30 35 37 40 43 44 47 48 49 50"

# Reads `strace -f -C -y -x [-k]` output; prints one JSON object.
#   sysfs_procfs_writes  write-family calls on an fd that is a /sys or /proc file
#   ethtool_set_msgs     ethtool genetlink requests whose command is a SET/ACT
#                        (the command is the first payload byte, after nlmsghdr)
#                        and that carry more than the request header
#   ethtool_probe_msgs   SETs with only the request header: the settability
#                        probes (backend/ethnl/probe.c), which the kernel
#                        answers before it looks for a change (KERNEL.md)
#   ethtool_ioctls_set   SIOCETHTOOL ioctls made from an np_ioctl_set_*
#                        function (from the -k stack; an upper bound: those
#                        functions read before they write)
#   rtnl_set_msgs        rtnetlink RTM_NEW*/RTM_DEL*/RTM_SET* requests
AWK_SYSCALLS='
function hexval(h,   i, v) {
	v = 0
	for (i = 1; i <= length(h); i++)
		v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return v
}
function end_ioctl() {
	if (!in_ioctl)
		return
	if (fn ~ /_set_/)
		ioctl_set++
	else if (fn == "")
		ioctl_unknown++
	in_ioctl = 0
}
BEGIN {
	# the genl header and the first attribute header of a request: 8 bytes
	# as strace -x prints them
	byte = "\\\\x[0-9a-f][0-9a-f]"
	hdr8 = "^[^}]*}, \"" byte byte byte byte byte byte byte byte
	n = split(setcmds, a, " ")
	for (i = 1; i <= n; i++)
		ethset[a[i]] = 1
}
/^ > / {
	if (in_ioctl && fn == "" && match($0, /np_ioctl_[a-z_]+/))
		fn = substr($0, RSTART, RLENGTH)
	next
}
{ end_ioctl() }
/ total$/ { total = $4 }
/^[0-9]+ +openat\(/ { opens++ }
/^[0-9]+ +(fsync|fdatasync)\(/ { syncs++ }
/^[0-9]+ +(write|pwrite64|writev|pwritev|pwritev2)\(/ {
	if ($0 ~ /\([0-9]+<\/(sys|proc)\//)
		sysfs++
	else if (index($0, "<" statedir "/"))
		statewr++
}
/^[0-9]+ +ioctl\([0-9]+<[^>]*>, SIOCETHTOOL/ { ioctls++; in_ioctl = 1; fn = "" }
/^[0-9]+ +(sendto|sendmsg)\(/ {
	sends++
	line = $0
	while (match(line, /nlmsg_len=[0-9]+, nlmsg_type=[A-Za-z_0-9]+/)) {
		split(substr(line, RSTART, RLENGTH), kv, /[=,]/)
		len = kv[2] + 0
		type = kv[4]
		line = substr(line, RSTART + RLENGTH)
		if (type == "ethtool") {
			ethmsgs++
			# genl header (cmd, version, 2 reserved), then the first
			# attribute: nla_len (le16) and type 0x8001 (nested HEADER)
			if (match(line, hdr8) &&
			    (hexval(substr(line, RSTART + RLENGTH - 30, 2)) in ethset)) {
				h = substr(line, RSTART + RLENGTH - 32, 32)
				nla = hexval(substr(h, 19, 2)) + 256 * hexval(substr(h, 23, 2))
				if (substr(h, 27, 6) == "01\\x80" && 16 + 4 + nla == len)
					ethprobe_n++
				else
					ethset_n++
			}
		} else if (type ~ /^RTM_(NEW|DEL|SET)/) {
			rtnlset++
		}
	}
}
END {
	end_ioctl()
	printf "{\"syscalls\":%d,\"openat\":%d,\"netlink_sends\":%d,\"ethtool_msgs\":%d,", \
		total, opens, sends, ethmsgs
	printf "\"ethtool_ioctls\":%d,\"ethtool_ioctls_unclassified\":%d,", ioctls, ioctl_unknown
	printf "\"sysfs_procfs_writes\":%d,\"ethtool_set_msgs\":%d,\"ethtool_ioctls_set\":%d,", \
		sysfs, ethset_n, ioctl_set
	printf "\"ethtool_probe_msgs\":%d,", ethprobe_n
	printf "\"rtnl_set_msgs\":%d,\"state_changing\":%d,", rtnlset, sysfs + ethset_n + ioctl_set + rtnlset
	printf "\"state_dir_writes\":%d,\"fsyncs\":%d}\n", statewr, syncs
}'

# ---------------------------------------------------------------- inside

rec() {
	printf '%s\n' "$1" >>"$W/records.jsonl"
}

np() {
	"$NP" --state-dir "$W/state" "$@"
}

# the same with a state dir on disk, to see what the journal's syncs cost
np_disk() {
	"$NP" --state-dir "$W/disk-state" "$@"
}

# What ethtool and sysfs show of v0: compared before/after the scripts.
snapshot() {
	ethtool -l v0 | sed -n '/Current/,$p'
	grep -H . /sys/class/net/v0/queues/*/rps_cpus /sys/class/net/v0/queues/*/rps_flow_cnt \
		/sys/class/net/v0/queues/*/xps_cpus 2>/dev/null | sort || true
}

# A kernel CPU list ("0-3,8", "-" for none) as the hex mask sysfs takes.
list2hex() {
	local part lo hi i top=0 out
	local -a words=(0)

	if [ "$1" != - ]; then
		IFS=, read -ra parts <<<"$1"
		for part in "${parts[@]}"; do
			lo=${part%-*}
			hi=${part#*-}
			for ((i = lo; i <= hi; i++)); do
				words[i / 32]=$((${words[i / 32]:-0} | 1 << (i % 32)))
				((i / 32 > top)) && top=$((i / 32))
			done
		done
	fi
	out=$(printf %x "${words[top]}")
	for ((i = top - 1; i >= 0; i--)); do
		out+=,$(printf %08x "${words[i]:-0}")
	done
	echo "$out"
}

# One plan change as a shell command: knob, what, value.
change_cmd() {
	local knob=$1 what=$2 val=$3 q=/sys/class/net/v0/queues

	case $knob in
	xps) echo "echo $(list2hex "$val") > $q/$what/xps_cpus" ;;
	rps) echo "echo $(list2hex "$val") > $q/$what/rps_cpus" ;;
	rfs) echo "echo $val > $q/${what% flow-cnt}/rps_flow_cnt" ;;
	irq-affinity) echo "echo $val > /proc/irq/${what%% *}/smp_affinity_list" ;;
	sysctl) echo "echo $val > /proc/sys/${what//.//}" ;;
	*) die "the script generator knows no '$knob' change" ;;
	esac
}

# From the dry-run plan: apply.sh (what an admin would type), restore.sh
# (the same, backwards, to the before values) and a tuned profile.
gen_scripts() {
	local knob rest fwd back val i
	local -a f apply=() restore=() tuned_sysfs=() tuned_script=()

	while IFS=$'\t' read -r knob rest; do
		IFS=$'\t' read -ra f <<<"$rest"	# what, before, after, what, ...
		if [ "$knob" = channels ]; then
			fwd="ethtool -L v0"
			back="ethtool -L v0"
			for ((i = 0; i < ${#f[@]}; i += 3)); do
				fwd+=" ${f[i]} ${f[i + 2]}"
				back+=" ${f[i]} ${f[i + 1]}"
			done
			tuned_script+=("$fwd")
		else
			fwd=$(change_cmd "$knob" "${f[0]}" "${f[2]}")
			back=
			[ "${f[1]}" = "(new queue)" ] || back=$(change_cmd "$knob" "${f[0]}" "${f[1]}")
			# tuned's net plugin skips virtual devices and has no
			# per-queue options: its sysfs plugin writes the files
			val=${fwd#echo }
			case $fwd in
			"echo "*" > /sys/"*) tuned_sysfs+=("${fwd#* > }=${val% > *}") ;;
			*) tuned_script+=("$fwd") ;;
			esac
		fi
		apply+=("$fwd")
		[ -z "$back" ] || restore=("$back" "${restore[@]}")
	done < <(jq -r 'def text: if type == "null" then "(new queue)" elif . == "" then "-" elif type == "boolean" then (if . then "on" else "off" end) elif type == "object" then (if .spread == "even" then "even over \(.queues) queues" else "custom over queues 0-\(.max_queue)" end) else tostring end; .steps[] | [.knob] + [.changes[] | .what, (.before | text), (.after | text)] | @tsv' plan.json)

	printf '%s\n' "${apply[@]}" >apply.sh
	printf '%s\n' "${restore[@]}" >restore.sh
	{
		printf '#!/bin/sh\n[ "$1" = start ] || exit 0\n'
		printf '%s\n' "${tuned_script[@]}"
	} >tuned-start.sh
	chmod +x tuned-start.sh
	{
		printf '[main]\nsummary=netpolicy bench: the %s plan of v0\n' "$POLICY"
		printf '[script]\nscript=%s\n[sysfs]\n' "$W/tuned-start.sh"
		printf '%s\n' "${tuned_sysfs[@]}"
	} >tuned.conf
}

# measure [RUNS] "NAME PREP CMD"...: median and min wall time (us) of each
# CMD (a shell function) over RUNS rounds after 2 warm-up rounds.  A round
# runs every CMD once, each after its PREP (untimed), so load that comes and
# goes on the machine hits the commands compared alike.
measure() {
	local runs=$RUNS spec name prep cmd i s e
	local -A t=()
	local -a v

	if [[ $1 =~ ^[0-9]+$ ]]; then
		runs=$1
		shift
	fi
	for ((i = 0; i < runs + 2; i++)); do
		for spec in "$@"; do
			read -r name prep cmd <<<"$spec"
			$prep >/dev/null 2>&1 || die "$name: '$prep' failed"
			s=${EPOCHREALTIME/./}
			$cmd >/dev/null 2>"$W/err" || die "$name: '$cmd' failed: $(cat "$W/err")"
			e=${EPOCHREALTIME/./}
			((i < 2)) || t[$name]+="$((e - s)) "
		done
	done
	for spec in "$@"; do
		read -r name _ <<<"$spec"
		# shellcheck disable=SC2086
		mapfile -t v < <(printf '%s\n' ${t[$name]} | sort -n)
		rec "{\"kind\":\"time\",\"name\":\"$name\",\"runs\":$runs,\"median_us\":${v[runs / 2]},\"min_us\":${v[0]}}"
	done
}

# trace NAME CMD...: syscall figures of one run of CMD, with the
# n_changes and writes of its --json output when it has them.
trace() {
	local name=$1 counts out
	shift

	# shellcheck disable=SC2086
	strace -f -C -y -x -s 64 $STRACE_K -o "trace.$name" "$@" >"out.$name"
	counts=$(awk -v setcmds="$ETHTOOL_SET_CMDS" -v statedir="$W/state" "$AWK_SYSCALLS" \
		"trace.$name")
	out=$(jq -c '{n_changes: (.n_changes // null), writes: (.writes // null)}' "out.$name" \
		2>/dev/null || echo '{}')
	rec "$(jq -nc --arg name "$name" --argjson c "$counts" --argjson o "$out" \
		'{kind: "syscalls", name: $name} + $c + $o')"
}

# rss NAME CMD...: peak resident set of one run, KiB.
rss() {
	local name=$1
	shift

	/usr/bin/time -f %M -o "rss.$name" "$@" >/dev/null
	rec "{\"kind\":\"rss\",\"name\":\"$name\",\"kib\":$(tail -n1 "rss.$name")}"
}

# What is timed.
t_show() { np --json v0 show; }
t_show_8q() { np --json v2 show; }
t_ethtool_l() { ethtool -l v0; }
t_np_version() { "$NP" --version; }
t_ethtool_version() { ethtool --version; }
t_set() { np v0 set "$POLICY"; }
t_set_disk() { np_disk v0 set "$POLICY"; }
t_reset() { np v0 reset; }
t_script_apply() { sh apply.sh; }
t_script_restore() { sh restore.sh; }
t_tuned() { tuned -p np-bench --pid "$W/tuned.pid" -l "$W/tuned.log"; }

# What comes before: v0 pristine and netpolicy holding no state for it, or
# v0 changed by netpolicy, or by the script.
to_pristine() {
	[ ! -e "$W/state/v0.pristine" ] || t_reset >/dev/null
	[ ! -e "$W/disk-state/v0.pristine" ] || np_disk v0 reset >/dev/null
	snapshot | cmp -s - pristine.snap || t_script_restore >/dev/null
}
to_np_set() {
	to_pristine
	t_set >/dev/null
}
to_script_set() {
	to_pristine
	t_script_apply >/dev/null
}
to_np_set_once() {
	[ -e "$W/state/v0.pristine" ] || to_np_set
}

# tuned's one-shot mode (daemon = 0 in tuned-main.conf): apply a profile
# and exit, without D-Bus or systemd.  /etc/tuned is a copy bind-mounted in
# this mount namespace only, so the host's configuration is never touched.
tuned_bench() {
	local why=

	if ! command -v tuned >/dev/null || [ ! -f /etc/tuned/tuned-main.conf ]; then
		why="tuned is not installed"
	else
		cp -a /etc/tuned/. tuned-etc/
		sed -i 's/^daemon *=.*/daemon = 0/' tuned-etc/tuned-main.conf
		mkdir -p tuned-etc/np-bench
		cp tuned.conf tuned-etc/np-bench/tuned.conf
		mount --bind tuned-etc /etc/tuned
		if ! tuned -p np-bench --pid "$W/tuned.pid" -l "$W/tuned.log" >/dev/null 2>&1; then
			why="tuned -p np-bench failed: $(tail -n1 tuned.log 2>/dev/null)"
		elif ! np v0 check "$POLICY" >/dev/null; then
			why="tuned's profile did not bring v0 to the $POLICY plan"
		fi
		to_pristine
	fi
	if [ -n "$why" ]; then
		rec "$(jq -nc --arg w "$why" '{kind: "note", name: "tuned", text: $w}')"
		return
	fi
	measure "$TUNED_RUNS" "tuned_oneshot to_pristine t_tuned" "set_vs_tuned to_pristine t_set"
	to_pristine
	rec "$(jq -nc --arg v "$(tuned --version 2>&1)" '{kind: "note", name: "tuned_version", text: $v}')"
}

inside() {
	local model ifname
	local -a nps

	cd "$W"
	# the default state dir, /run/netpolicy, is on tmpfs on most systems
	mkdir state disk-state
	mount -t tmpfs -o mode=0700,size=16m np-bench "$W/state"
	ip link add v2 numtxqueues 8 numrxqueues 8 type veth peer name v3 numtxqueues 8 numrxqueues 8
	ip link set v2 up

	snapshot >pristine.snap
	np --json v0 set "$POLICY" --dry-run >plan.json
	gen_scripts

	# the equivalents must really be equivalent
	t_script_apply >/dev/null
	np v0 check "$POLICY" >/dev/null || die "apply.sh does not reach the $POLICY plan"
	t_script_restore >/dev/null
	snapshot | cmp -s - pristine.snap || die "restore.sh does not restore v0"

	# syscalls: pristine -> set -> no-op set -> reset -> pristine
	STRACE_K=
	strace -k -e trace=none true 2>/dev/null && STRACE_K=-k
	# strace and /usr/bin/time run programs, not shell functions
	nps=("$NP" --state-dir "$W/state")
	trace set "${nps[@]}" --json v0 set "$POLICY"
	trace noop "${nps[@]}" --json v0 set "$POLICY"
	trace reset "${nps[@]}" --json v0 reset
	trace show "${nps[@]}" --json v0 show
	trace ethtool_l ethtool -l v0
	snapshot | cmp -s - pristine.snap || die "reset did not restore v0"

	rec "$(jq -nc --arg l "$(cut -d' ' -f1-3 /proc/loadavg)" '{kind: "note", name: "loadavg_before", text: $l}')"
	measure "show_json : t_show" "show_json_8q : t_show_8q" "ethtool_l : t_ethtool_l" \
		"np_version : t_np_version" "ethtool_version : t_ethtool_version"
	measure "set to_pristine t_set" "script_apply to_pristine t_script_apply" \
		"set_disk_state to_pristine t_set_disk"
	measure "reset to_np_set t_reset" "script_restore to_script_set t_script_restore"
	measure "noop to_np_set_once t_set"
	to_pristine
	rec "$(jq -nc --arg l "$(cut -d' ' -f1-3 /proc/loadavg)" '{kind: "note", name: "loadavg_after", text: $l}')"

	rss show_json "${nps[@]}" --json v0 show
	rss set "${nps[@]}" --json v0 set "$POLICY"
	to_pristine
	rss ethtool_l ethtool -l v0
	model=$W/model.json
	cp "$SRCDIR/tests/fixtures/models/mlx5-2s64c.json" "$model"
	ifname=$(jq -r '.devices[0].ifname' "$model")
	mkdir "$W/state/model"
	rss model_show "$NP" --model "$model" --state-dir "$W/state/model" --json "$ifname" show
	rss model_set "$NP" --model "$model" --state-dir "$W/state/model" --json "$ifname" set "$POLICY"
	rec "$(jq -nc --arg f mlx5-2s64c.json --arg d "$(jq -r .description "$model")" \
		'{kind: "note", name: "model", text: ($f + ": " + $d)}')"

	tuned_bench
	snapshot | cmp -s - pristine.snap || die "v0 was left changed"
}

# --------------------------------------------------------------- outside

# Tab-separated rows as aligned columns.
align() {
	awk -F '\t' '{
		for (i = 1; i <= NF; i++) {
			cell[NR, i] = $i
			if (length($i) > w[i])
				w[i] = length($i)
		}
		if (NF > nf)
			nf = NF
	}
	END {
		for (r = 1; r <= NR; r++) {
			for (i = 1; i < nf; i++)
				printf "%-" w[i] "s  ", cell[r, i]
			printf "%s\n", cell[r, nf]
		}
	}'
}

# Build results.json from the records, then print the table.
report() {
	local machine

	machine=$(jq -n --arg cpus "$(nproc)" --arg kernel "$(uname -r)" \
		--arg cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)" \
		--argjson queues "$QUEUES" --arg policy "$POLICY" --argjson runs "$RUNS" \
		'{cpus: ($cpus | tonumber), cpu: $cpu, kernel: $kernel, device: "veth",
		  queues: $queues, policy: $policy, runs: $runs, state_dir: "tmpfs"}')
	jq -s --argjson machine "$machine" --slurpfile plan "${PLAN_JSON:-/dev/null}" '
		def by(k): map(select(.kind == k) | {key: .name, value: (del(.kind, .name))})
			   | from_entries;
		(by("time")) as $t | (by("syscalls")) as $s | (by("rss")) as $r |
		def ratio(a; b; k): if $t[a] and $t[b]
			then ($t[a][k] / $t[b][k] * 100 | round / 100) else null end;
		def ratios(k): {show_vs_ethtool_l: ratio("show_json"; "ethtool_l"; k),
			set_vs_script: ratio("set"; "script_apply"; k),
			reset_vs_script: ratio("reset"; "script_restore"; k),
			tuned_vs_set: ratio("tuned_oneshot"; "set_vs_tuned"; k),
			set_disk_vs_tmpfs: ratio("set_disk_state"; "set"; k)};
		{machine: $machine, syscalls: $s, time_us: $t, peak_rss_kib: ($r | map_values(.kib)),
		 notes: (map(select(.kind == "note") | {key: .name, value: .text}) | from_entries),
		 ratios: ratios("median_us"), ratios_of_min: ratios("min_us"),
		 plan: ($plan[0] // null)}' "$W/records.jsonl" >"$OUT"
}

# The figures of results.json as one table.
table() {
	jq -r '.machine as $m | .notes as $n | if $n.skipped then "\($m.cpus) CPUs; kernel \($m.kernel)" else
		"\($m.device) v0 with \($m.queues) queues; \($m.cpus) CPUs (\($m.cpu)); kernel \($m.kernel); " +
		"median of \($m.runs) runs (ratio of the minimums in brackets); load average " +
		"\($n.loadavg_before) before, \($n.loadavg_after) after the timings" end' "$OUT"
	jq -r -f /dev/stdin "$OUT" <<'EOF' | align
def ms(x): if x then (x.median_us / 10 | round / 100 | tostring) + " ms" else "-" end;
def yes(c): if c then "yes" else "NO" end;
. as $r | $r.syscalls as $s | $r.time_us as $t | $r.peak_rss_kib as $m |
def q(k): if $r.ratios[k] then "\($r.ratios[k]) (\($r.ratios_of_min[k]))" else "-" end;
def sc(n): "\($s[n].syscalls) syscalls, \($s[n].state_changing) change state" +
	(if $s[n].ethtool_ioctls_unclassified > 0
	 then " (+\($s[n].ethtool_ioctls_unclassified) SIOCETHTOOL unknown)" else "" end);
def kib(n; what; rest): ["peak RSS: " + what, "\($m[n]) KiB"] + rest;
(["measure", "netpolicy", "reference", "ratio", "target", "met"] | @tsv),
(if $r.plan then
	["plan 1024 cpus x 256 queues", "\($r.plan.worst_1024cpus_256queues_us) us", "-", "-",
	 "< \($r.plan.target_us) us", yes($r.plan.worst_1024cpus_256queues_us < $r.plan.target_us)] | @tsv
 else empty end),
(if $r.notes.skipped then
	["apply benchmark", "skipped: " + $r.notes.skipped, "-", "-", "-", "-"] | @tsv
 else (
	(["syscalls: set \($r.machine.policy)", sc("set"), "\($s.set.n_changes) changed values", "-",
	  "changing <= changed", yes($s.set.state_changing <= $s.set.n_changes)] | @tsv),
	(["syscalls: no-op set", sc("noop"), "-", "-", "changing = 0",
	  yes($s.noop.state_changing == 0)] | @tsv),
	(["syscalls: reset", sc("reset"), "\($s.reset.n_changes) changed values", "-",
	  "changing <= changed", yes($s.reset.state_changing <= $s.reset.n_changes)] | @tsv),
	(["syscalls: show --json", "\($s.show.syscalls) syscalls",
	  "ethtool -l: \($s.ethtool_l.syscalls)", "-", "-", "-"] | @tsv),
	(["time: show --json", ms($t.show_json), "ethtool -l: " + ms($t.ethtool_l),
	  q("show_vs_ethtool_l"), "<= 1.5", yes($r.ratios.show_vs_ethtool_l <= 1.5)] | @tsv),
	(["time: show --json, 8 queues", ms($t.show_json_8q), "-", "-", "-", "-"] | @tsv),
	(["time: process start", "--version: " + ms($t.np_version),
	  "ethtool --version: " + ms($t.ethtool_version), "-", "-", "-"] | @tsv),
	(["time: set \($r.machine.policy)", ms($t.set), "sh script: " + ms($t.script_apply),
	  q("set_vs_script"), "<= 1.3", yes($r.ratios.set_vs_script <= 1.3)] | @tsv),
	(["time: no-op set", ms($t.noop), "-", "-", "-", "-"] | @tsv),
	(["time: reset", ms($t.reset), "sh script: " + ms($t.script_restore), q("reset_vs_script"),
	  "-", "-"] | @tsv),
	(["time: set, state dir on disk", ms($t.set_disk_state), "on tmpfs: " + ms($t.set),
	  q("set_disk_vs_tmpfs"), "-", "-"] | @tsv),
	(if $t.tuned_oneshot then
		["time: tuned one-shot profile", ms($t.tuned_oneshot),
		 "netpolicy set: " + ms($t.set_vs_tuned), q("tuned_vs_set"), "-", "-"] | @tsv
	 else ["time: tuned", "not measured: " + $r.notes.tuned, "-", "-", "-", "-"] | @tsv end),
	(kib("show_json"; "show --json"; ["ethtool -l: \($m.ethtool_l) KiB", "-", "< 8192 KiB",
	  yes($m.show_json < 8192)]) | @tsv),
	(kib("set"; "set"; ["-", "-", "< 8192 KiB", yes($m.set < 8192)]) | @tsv),
	(kib("model_show"; "--model show"; ["mlx5-2s64c.json", "-", "< 8192 KiB", yes($m.model_show < 8192)]) | @tsv),
	(kib("model_set"; "--model set"; ["mlx5-2s64c.json", "-", "< 8192 KiB", yes($m.model_set < 8192)]) | @tsv)
 ) end)
EOF
}

# Why the namespace part cannot run here, or nothing.
cannot_run() {
	local tool

	[ "$(id -u)" = 0 ] || { echo "needs root (it makes a network namespace)"; return; }
	for tool in ip ethtool strace /usr/bin/time; do
		command -v "$tool" >/dev/null ||
			{ echo "needs $tool (Debian: iproute2 ethtool strace time)"; return; }
	done
	ip netns add "$NS" 2>/dev/null || echo "cannot make a network namespace"
}

main() {
	local json=false why

	while [ $# -gt 0 ]; do
		case $1 in
		--netpolicy) NP=$2; shift ;;
		--srcdir) SRCDIR=$2; shift ;;
		--out) OUT=$2; shift ;;
		--plan-json) PLAN_JSON=$2; shift ;;
		--runs) RUNS=$2; shift ;;
		--json) json=true ;;
		*) die "unknown argument '$1' (see the top of $0)" ;;
		esac
		shift
	done
	[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive number"
	command -v jq >/dev/null || die "needs jq"
	NP=$(realpath "$NP")
	SRCDIR=$(realpath "$SRCDIR")
	[ -x "$NP" ] || die "no netpolicy at $NP"
	[ -z "$PLAN_JSON" ] || PLAN_JSON=$(realpath "$PLAN_JSON")
	mkdir -p "$(dirname "$OUT")"
	OUT=$(realpath "$OUT")

	W=$(mktemp -d /tmp/np-bench.XXXXXX)
	NS=npbench-$$
	trap 'ip netns del "$NS" 2>/dev/null || true; rm -rf "$W"' EXIT
	trap 'exit 130' INT TERM
	touch "$W/records.jsonl"
	why=$(cannot_run)
	if [ -n "$why" ]; then
		echo "bench_apply: skipping the apply benchmark: $why" >&2
		rec "$(jq -nc --arg w "$why" '{kind: "note", name: "skipped", text: $w}')"
	else
		ip -n "$NS" link add v0 numtxqueues "$QUEUES" numrxqueues "$QUEUES" type veth \
			peer name v1 numtxqueues "$QUEUES" numrxqueues "$QUEUES"
		ip -n "$NS" link set v0 up
		ip -n "$NS" link set v1 up
		export NP SRCDIR RUNS W POLICY QUEUES TUNED_RUNS ETHTOOL_SET_CMDS
		ip netns exec "$NS" "$BASH" "$0" --inside
	fi
	report
	if $json; then
		cat "$OUT"
	else
		table
		echo "JSON: $OUT"
	fi
}

# --library: only the functions, for bench_scale.sh to source
if [ "${1:-}" = --inside ]; then
	inside
elif [ "${1:-}" != --library ]; then
	main "$@"
fi
