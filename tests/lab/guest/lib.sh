# lib.sh - helpers for lab guest scripts (busybox sh).  A scenario starts with
#   . /lab/lib.sh
# reports each check as a TAP line and ends with `finish` (exit 1 if any failed).
#
# `check_show IF` runs `netpolicy IF show --json` and compares it with the
# kernel's own views (ethtool, /proc/irq, sysfs queues/).  Both sides are
# first flattened into the same "KEY VALUE" lines: view.jq for netpolicy's
# JSON, kernel_view for the kernel, so a whole device costs one jq run (jq
# takes ~0.4 s to start under TCG) and a handful of ethtool runs:
#   channels.supported true        channels.combined 4      (rx tx other combined max_*)
#   rings.rx 256                   coalesce.rx-usecs 3      (only fields the driver reports)
#   rss.indir 0 1 2 3 ...          irq.25.role rx 0         (kind and queue, from the name)
#   rxq.1.rps_cpus 1-2             txq.0.xps_cpus 0         (absent when unreadable)
#   feature.rx-hashing 1           napi.gro_flush_timeout 0 sysctl.busy_poll 0
# `val KEY` reads netpolicy's side of the last check_show/show; `snapshot` and
# `check_restored` compare the kernel's view with a saved one (after a reset).

NP=${NETPOLICY:-netpolicy}
NP_JSON=/tmp/np-show.json
NP_VIEW=/tmp/np-view.txt
KERNEL_VIEW=/tmp/kernel-view.txt
ip() { /usr/sbin/ip "$@"; }	# busybox sh prefers its own applet to $PATH

# --- TAP ----------------------------------------------------------------------

_n=0 _nfail=0
pass() { _n=$((_n + 1)); echo "ok $_n - $*"; }
fail() { _n=$((_n + 1)); _nfail=$((_nfail + 1)); echo "not ok $_n - $*"; }
diag() { echo "# $*"; }

# is ACTUAL EXPECTED DESC
is() {
	if [ "$1" = "$2" ]; then pass "$3 = '$2'"; else fail "$3: got '$1', want '$2'"; fi
}

# ok DESC CMD...: CMD must exit 0 (its output is shown when it does not)
ok() {
	_d=$1; shift
	if _o=$("$@" 2>&1); then pass "$_d"; else fail "$_d: '$*' failed: $_o"; fi
}

# put FILE VALUE: write VALUE into a sysfs/procfs FILE, as a check
put() { ok "$1 <- $2" sh -c 'echo "$2" >"$1"' put "$1" "$2"; }

finish() {
	echo "1..$_n"
	[ "$_nfail" -eq 0 ] && exit 0
	diag "$_nfail of $_n checks failed"
	exit 1
}

# --- netpolicy ------------------------------------------------------------------

# show IF: `netpolicy IF show --json` into $NP_JSON, flattened into $NP_VIEW
show() {
	if ! "$NP" "$1" show --json >"$NP_JSON" 2>/tmp/np-show.err; then
		fail "netpolicy $1 show --json exits 0: $(cat /tmp/np-show.err)"
		return 1
	fi
	if ! jq -r -f /lab/view.jq "$NP_JSON" >"$NP_VIEW" 2>/tmp/np-view.err; then
		fail "netpolicy $1 show --json prints the expected JSON: $(cat /tmp/np-view.err)"
		head -c 600 "$NP_JSON" | sed 's/^/# /'
		echo
		return 1
	fi
	pass "netpolicy $1 show --json"
}

# val KEY: netpolicy's value for KEY in the last show
val() { awk -v k="$1" '$1 == k { sub(/^[^ ]* ?/, ""); print; exit }' "$NP_VIEW"; }

# kval KEY: the kernel's value for KEY in the last check_show/kernel_view
kval() { awk -v k="$1" '$1 == k { sub(/^[^ ]* ?/, ""); print; exit }' "$KERNEL_VIEW"; }

# jv FILTER: anything else from the last show's JSON (slow: one jq run each)
jv() { jq -r "$1" "$NP_JSON"; }

# irq_of KIND QUEUE [VIEW]: the IRQ that serves that queue, as netpolicy
# says (or as VIEW, a kernel_view or snapshot file, says)
irq_of() { awk -v r="$1 $2" '$1 ~ /^irq\..*\.role$/ && substr($0, index($0, " ") + 1) == r { split($1, a, "."); print a[2]; exit }' "${3:-$NP_VIEW}"; }

# --- the kernel's views -------------------------------------------------------

# mask2list HEXMASK: a sysfs CPU (or queue) mask such as "0000000f" or
# "00000000,00000003" as a cpulist such as "0-3"; "" for an empty mask
mask2list() {
	echo "$1" | awk '{
		h = tolower($0); gsub(/[^0-9a-f]/, "", h)
		n = length(h); out = ""; start = -1
		for (bit = 0; bit <= 4 * n; bit++) {
			set = 0
			if (bit < 4 * n) {
				d = index("0123456789abcdef", substr(h, n - int(bit / 4), 1)) - 1
				k = bit % 4	# no ^ in busybox awk
				set = int(d / (k == 0 ? 1 : k == 1 ? 2 : k == 2 ? 4 : 8)) % 2
			}
			if (set && start < 0) start = bit
			if (!set && start >= 0) {
				out = out (out == "" ? "" : ",") (start == bit - 1 ? start : start "-" (bit - 1))
				start = -1
			}
		}
		print out
	}'
}

# ethval IF -l|-g|-c LABEL: what ethtool prints for LABEL ("Combined:",
# "RX:", "rx-usecs:"), for -l and -g the current setting, not the maximum
ethval() {
	ethtool "$2" "$1" 2>/dev/null | awk -v l="$3" -v c="$2" '
		/^Current hardware settings/ { cur = 1 }
		$1 == l && (cur || c == "-c") { print $2; exit }'
}

# rss_table IF: the indirection table ethtool -x prints, on one line
rss_table() { ethtool -x "$1" | awk '/^ *[0-9]+:/ { for (i = 2; i <= NF; i++) printf "%s%s", (n++ ? " " : ""), $i } END { print "" }'; }

# spread SIZE N: an indirection table of SIZE entries, entry i -> queue i % N
spread() { awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < s; i++) printf "%s%d", (i ? " " : ""), i % n; print "" }'; }

# driver IF: the driver ethtool -i names
driver() { ethtool -i "$1" 2>/dev/null | awk '$1 == "driver:" { print $2 }'; }

# nic DRIVER: the first interface bound to DRIVER (virtio_net, e1000e, ...)
nic() {
	for _p in /sys/class/net/*; do
		[ "$(driver "${_p##*/}")" = "$1" ] && { echo "${_p##*/}"; return 0; }
	done
	return 1
}

# carrier IF: wait up to 5 s for IF's carrier (igb and others drop it for a
# moment after a channel change or a reset of the device)
carrier() {
	_ci=0
	while [ "$(cat /sys/class/net/$1/carrier 2>/dev/null)" != 1 ] && [ $_ci -lt 50 ]; do
		usleep 100000
		_ci=$((_ci + 1))
	done
}

# dev_irqs IF: the MSI/MSI-X IRQs of IF's PCI function, one a line (a virtio
# NIC's `device` is the virtio device: its parent is the PCI function)
dev_irqs() {
	_d=/sys/class/net/$1/device
	[ -d "$_d/msi_irqs" ] || _d=$_d/..
	[ -d "$_d/msi_irqs" ] && ls "$_d/msi_irqs" | sort -n
}

# irq_name N: the action name /proc/interrupts shows for IRQ N
irq_name() { awk -v n="$1:" '$1 == n { print $NF; exit }' /proc/interrupts; }

# irq_role NAME: "KIND QUEUE" the IRQ's name says it serves (the drivers'
# naming patterns, doc/kernel.md); "other -1" for config/link/misc vectors
irq_role() {
	case $1 in
	*-input.*) echo "rx ${1##*.}" ;;
	*-output.*) echo "tx ${1##*.}" ;;
	*-[Tt]x[Rr]x-* | *-rxtx-*) echo "txrx ${1##*-}" ;;
	*-rx-*) echo "rx ${1##*-}" ;;
	*-tx-*) echo "tx ${1##*-}" ;;
	*) echo "other -1" ;;
	esac
}

# ethtool -l / -g: both sections as KNOB.{rx,...,max_rx,...}; n/a reads as 0
_ethtool_counts() {	# _ethtool_counts IF -l|-g KNOB LABEL=key...
	_o=$(ethtool "$2" "$1" 2>/dev/null) || { echo "$3.supported false"; return; }
	echo "$3.supported true"
	_k=$3; shift 3
	echo "$_o" | awk -v k="$_k" -v map="$*" '
		BEGIN { n = split(map, m, " "); for (i = 1; i <= n; i++) { split(m[i], p, "="); key[p[1]] = p[2] } }
		/^Pre-set maximums/ { pre = "max_"; next }
		/^Current hardware settings/ { pre = ""; next }
		{ l = $0; sub(/:.*/, "", l); gsub(/ /, "_", l) }
		(l in key) { v = $NF; out[pre key[l]] = (v == "n/a" ? 0 : v) }
		END { for (f in out) print k "." f " " out[f] }' | sort
}

# virtio_net reports rx/tx-usecs and -frames but the device takes them only
# with VIRTIO_NET_F_NOTF_COAL (feature bit 53), adaptive-rx/tx only with
# VIRTIO_NET_F_VQ_NOTF_COAL (52); QEMU 7.2 offers neither.  Such fields are
# "coalesce-fixed.*": netpolicy must show them as "fixed" (view.jq), with
# the value the driver reports, and never plan them.
_coalesce_fixed() {
	[ "$(driver "$1")" = virtio_net ] || return 0
	_b=$(cat "/sys/class/net/$1/device/features" 2>/dev/null)
	[ "${#_b}" -gt 53 ] || return 0
	[ "$(echo "$_b" | cut -c54)" = 0 ] && echo "rx-usecs rx-frames tx-usecs tx-frames"
	[ "$(echo "$_b" | cut -c53)" = 0 ] && echo "adaptive-rx adaptive-tx"
}

_coalesce_view() {
	_o=$(ethtool -c "$1" 2>/dev/null) || { echo "coalesce.supported false"; return; }
	echo "coalesce.supported true"
	# n/a: the driver does not report the field; ethtool 6.1 prints
	# rx-frames-low and friends as "rx-frame-low"
	echo "$_o" | awk -v fixed="$(_coalesce_fixed "$1" | xargs)" '
		BEGIN { n = split(fixed, f, " "); for (i = 1; i <= n; i++) ro[f[i]] = 1 }
		function put(f, v) {
			sub(/-frame-/, "-frames-", f)
			if (v != "n/a") print "coalesce" ((f in ro) ? "-fixed." : ".") f " " (v == "on" ? 1 : v == "off" ? 0 : v)
		}
		/^Adaptive RX:/ { put("adaptive-rx", $3); put("adaptive-tx", $5); next }
		/^CQE mode RX:/ { put("cqe-mode-rx", $4); put("cqe-mode-tx", $6); next }
		$1 ~ /^[a-z-]+:$/ && NF == 2 { sub(/:$/, "", $1); put($1, $2) }' | sort
}

_rss_view() {
	_t=$(ethtool -x "$1" 2>/dev/null | awk '
		/^RX flow hash indirection table/ { t = 1; next }
		t && /^ *[0-9]+:/ { for (i = 2; i <= NF; i++) s = s (s == "" ? "" : " ") $i; next }
		t && /^[^ ]/ { t = 0 }
		/^RSS hash key:/ { getline; if ($0 ~ /^[0-9a-f:]+$/) { gsub(/:/, ""); key = $0 } }
		/^RSS hash function:/ { h = 1; next }
		h && $2 == "on" { sub(/:$/, "", $1); hf = $1 }
		END { if (s != "") print s; if (key != "") print "key " key; if (hf != "") print "hfunc " hf }')
	# virtio-net without rss=on: `ethtool -x` succeeds but prints no table
	if [ -z "$_t" ]; then
		echo "rss.supported false"
		return
	fi
	echo "rss.supported true"
	echo "$_t" | awk 'NR == 1 { print "rss.indir_size " NF; print "rss.indir " $0; next } { print "rss." $0 }'
}

_irq_view() {
	echo "irqs $(dev_irqs "$1" | xargs)"
	for _q in $(dev_irqs "$1"); do
		_nm=$(irq_name "$_q")
		echo "irq.$_q.name $_nm"
		echo "irq.$_q.role $(irq_role "$_nm")"
		echo "irq.$_q.affinity $(cat /proc/irq/"$_q"/smp_affinity_list)"
		echo "irq.$_q.effective $(cat /proc/irq/"$_q"/effective_affinity_list)"
	done
}

_queue_view() {
	_qd=/sys/class/net/$1/queues
	echo "rxqs $(ls -d "$_qd"/rx-* | wc -l)"
	echo "txqs $(ls -d "$_qd"/tx-* | wc -l)"
	for _q in $(ls "$_qd" | sed -n 's/^rx-//p' | sort -n); do
		echo "rxq.$_q.rps_cpus $(mask2list "$(cat "$_qd/rx-$_q/rps_cpus")")"
		echo "rxq.$_q.rps_flow_cnt $(cat "$_qd/rx-$_q/rps_flow_cnt")"
	done
	for _q in $(ls "$_qd" | sed -n 's/^tx-//p' | sort -n); do
		# unreadable on single-queue devices (ENOENT): must not be shown as a value
		_m=$(cat "$_qd/tx-$_q/xps_cpus" 2>/dev/null) && echo "txq.$_q.xps_cpus $(mask2list "$_m")"
		echo "txq.$_q.xps_rxqs $(mask2list "$(cat "$_qd/tx-$_q/xps_rxqs")")"
	done
}

# the features policies touch, by their kernel names (ethtool -k prints
# these three under older names)
_feature_view() {
	ethtool -k "$1" 2>/dev/null | awk '
		BEGIN { n["receive-hashing:"] = "rx-hashing"; n["ntuple-filters:"] = "rx-ntuple-filter"
			n["generic-receive-offload:"] = "rx-gro" }
		($1 in n) { print "feature." n[$1] " " ($2 == "on" ? 1 : 0) }' | sort
}

_napi_view() {
	for _f in napi_defer_hard_irqs gro_flush_timeout; do
		[ -r "/sys/class/net/$1/$_f" ] && echo "napi.${_f#napi_} $(cat "/sys/class/net/$1/$_f")"
	done
}

# machine-wide, but policies set them and reset must put them back
_sysctl_view() {
	for _f in rps_sock_flow_entries busy_poll busy_read rmem_max wmem_max netdev_max_backlog; do
		[ -r "/proc/sys/net/core/$_f" ] && echo "sysctl.$_f $(cat "/proc/sys/net/core/$_f")"
	done
	# the throughput ceilings' triples, as view.jq prints a JSON array
	for _f in tcp_rmem tcp_wmem; do
		[ -r "/proc/sys/net/ipv4/$_f" ] &&
			echo "sysctl.$_f [$(tr -s ' \t' ',' <"/proc/sys/net/ipv4/$_f")]"
	done
}

# kernel_view IF: the kernel's state of IF in view.jq's lines
kernel_view() {
	echo "ifname $1"
	echo "driver $(driver "$1")"
	_ethtool_counts "$1" -l channels RX=rx TX=tx Other=other Combined=combined
	_ethtool_counts "$1" -g rings RX=rx RX_Mini=rx_mini RX_Jumbo=rx_jumbo TX=tx
	_coalesce_view "$1"
	_rss_view "$1"
	_irq_view "$1"
	_queue_view "$1"
	_feature_view "$1"
	_napi_view "$1"
	_sysctl_view
}

# compare NP KERNEL KERNEL_BEFORE PREFIX [NAME]: one TAP line per key of NP
# (netpolicy's view, or NAME's) or KERNEL.  The kernel was read just before and
# just after netpolicy: a value that moved in between (effective affinity
# follows the next interrupt) may match either.
compare() {
	_r=$(awk -v p="$4" -v a="${5:-netpolicy}" '
		{ k = $1; v = substr($0, length(k) + 2) }
		FILENAME == ARGV[1] { np[k] = v; next }
		FILENAME == ARGV[2] { before[k] = v; next }
		{ seen[k] = 1
		  if (!(k in np)) print "not ok - " p k ": " a " has none, kernel \x27" v "\x27"
		  else if (np[k] == v) print "ok - " p k " = \x27" v "\x27"
		  else if ((k in before) && np[k] == before[k]) print "ok - " p k " = \x27" np[k] "\x27 (kernel: then \x27" v "\x27)"
		  else print "not ok - " p k ": " a " \x27" np[k] "\x27, kernel \x27" v "\x27" }
		END { for (k in np) if (!(k in seen)) print "not ok - " p k ": " a " \x27" np[k] "\x27, kernel has none" }' \
		"$1" "$3" "$2")
	# number the lines here: the counters live in this shell
	while IFS= read -r _l; do
		case $_l in
		"ok - "*) pass "${_l#ok - }" ;;
		*) fail "${_l#not ok - }" ;;
		esac
	done <<EOF
$_r
EOF
}

# check_show IF: `netpolicy IF show --json` agrees with the kernel on every knob
check_show() {
	kernel_view "$1" >"$KERNEL_VIEW.before"
	show "$1" || return 1
	kernel_view "$1" >"$KERNEL_VIEW"
	compare "$NP_VIEW" "$KERNEL_VIEW" "$KERNEL_VIEW.before" "$1 "
}

# snapshot IF FILE: keep the kernel's view of IF, e.g. before a `set`, to
# check a `reset` with check_restored (without effective affinity: it lags)
snapshot() { kernel_view "$1" | grep -v '\.effective ' >"$2"; }

# check_restored IF FILE: the kernel's view of IF is the one saved in FILE
check_restored() {
	snapshot "$1" /tmp/restored.txt
	cp /tmp/restored.txt /tmp/restored.before	# compare tells its files apart by name
	compare "$2" /tmp/restored.txt /tmp/restored.before "$1 " "saved"
}

# --- plans, applies, rollbacks ----------------------------------------------------

PLAN_JSON=/tmp/np-plan.json
PLAN_VIEW=/tmp/np-plan.txt

# plan IF POLICY [OPTION...]: the dry-run plan as JSON in $PLAN_JSON and, made
# by plan.jq, as the kernel_view lines its changes must leave, in $PLAN_VIEW
plan() {
	_i=$1 _p=$2
	shift 2
	: >"$PLAN_VIEW"
	if ! "$NP" --json "$_i" set "$_p" --dry-run "$@" >"$PLAN_JSON" 2>/tmp/np-plan.err; then
		fail "netpolicy --json $_i set $_p --dry-run $*: $(cat /tmp/np-plan.err)"
		return 1
	fi
	if ! jq -r -f /lab/plan.jq "$PLAN_JSON" >"$PLAN_VIEW" 2>/tmp/np-plan.err; then
		fail "plan.jq reads the $_p plan: $(cat /tmp/np-plan.err)"
		return 1
	fi
	pass "$_i $_p: $(wc -l <"$PLAN_VIEW") changes planned"
	sed 's/^/#   plan: /' "$PLAN_VIEW"
}

# pval KEY: the value the last plan wants for KEY ("" when not planned)
pval() { awk -v k="$1" '$1 == k { sub(/^[^ ]* ?/, ""); print; exit }' "$PLAN_VIEW"; }

# check_applied IF BEFORE: after a `set`, every value the kernel shows for IF
# is the plan's where the plan changes it and BEFORE's (a snapshot) where it
# does not: nothing unplanned moved, nothing planned was skipped.  A queue
# the plan created starts empty; queue counts follow channels (the caller
# checks those); rss.indir "even over N queues" is entry i -> queue i % N.
check_applied() {
	snapshot "$1" /tmp/applied.txt
	_r=$(awk -v p="$1 " '
		{ k = $1; v = substr($0, length(k) + 2) }
		FILENAME == ARGV[1] { want[k] = v; planned[k] = 1; if (k ~ /^channels\./) chan = 1; next }
		FILENAME == ARGV[2] { before[k] = v; next }
		{ now[k] = v }
		# even: every queue up to the highest has as many entries as the
		# next (one more where the size does not divide): i % N, or
		# blocks as igb spreads them
		function rss_desc(t,   n, e, i, max, min, even, c, lo) {
			n = split(t, e, " "); max = 0; min = -1
			for (i = 1; i <= n; i++) {
				if (e[i] + 0 > max) max = e[i] + 0
				if (min < 0 || e[i] + 0 < min) min = e[i] + 0
				c[e[i] + 0]++
			}
			even = 1; lo = int(n / (max + 1))
			for (i = 0; i <= max; i++) if (c[i] != lo && c[i] != lo + 1) even = 0
			return even ? "even over " (max + 1) " queues" : "custom over queues " min "-" max
		}
		END {
			for (k in now) {
				v = now[k]
				if (k == "rxqs" || k == "txqs") continue
				# drivers that request a vector per queue (igb) renumber
				# and rename them on a channel change: those follow it
				if (chan && (k == "irqs" || k ~ /^irq\.[0-9]+\.(name|role)$/)) continue
				if (k in planned) {
					got = (k == "rss.indir") ? rss_desc(v) : v
					if (got == want[k]) print "ok - " p k " = \x27" want[k] "\x27 as planned"
					else print "not ok - " p k ": planned \x27" want[k] "\x27, kernel \x27" got "\x27"
				} else if (k in before) {
					if (v == before[k]) print "ok - " p k " = \x27" v "\x27 (not planned, unchanged)"
					else print "not ok - " p k ": not planned, was \x27" before[k] "\x27, now \x27" v "\x27"
				} else if (v == "" || v == "0") {
					print "ok - " p k " = \x27" v "\x27 (new queue, not planned)"
				} else {
					print "not ok - " p k ": new queue, not planned, yet \x27" v "\x27"
				}
			}
			for (k in planned) if (!(k in now)) print "not ok - " p k ": planned \x27" want[k] "\x27, kernel has none"
		}' "$PLAN_VIEW" "$2" /tmp/applied.txt | sort)
	while IFS= read -r _l; do
		case $_l in
		"ok - "*) pass "${_l#ok - }" ;;
		?*) fail "${_l#not ok - }" ;;
		esac
	done <<EOF
$_r
EOF
}

# run_np OUT RC CMD...: run CMD with its stdout in OUT and stderr in OUT.err;
# it must exit RC
run_np() {
	_out=$1 _want=$2
	shift 2
	"$@" >"$_out" 2>"$_out.err"
	_rc=$?
	if [ "$_rc" = "$_want" ]; then
		pass "'$*' exits $_want"
	else
		fail "'$*' exits $_rc, want $_want: $(head -c 600 "$_out.err")"
	fi
	return "$_rc"
}

# ethtool_text IF: what ethtool -l, -g and -c print for IF, verbatim
ethtool_text() { for _o in -l -g -c; do ethtool "$_o" "$1" 2>&1; done; }

# set_checked IF POLICY BEFORE [OPTION...]: plan, set; then check_applied
# against the BEFORE snapshot, `check` exits 0, and a second set writes nothing
set_checked() {
	_si=$1 _sp=$2 _sb=$3
	shift 3
	plan "$_si" "$_sp" "$@"
	run_np /tmp/np-set.out 0 "$NP" "$_si" set "$_sp" "$@"
	check_applied "$_si" "$_sb"
	cp /tmp/applied.txt /tmp/applied.saved
	run_np /tmp/np-check.out 0 "$NP" "$_si" check
	run_np /tmp/np-set2.json 0 "$NP" --json "$_si" set "$_sp" "$@"
	if grep -q '"changed": false' /tmp/np-set2.json && grep -q '"n_steps": 0' /tmp/np-set2.json; then
		pass "$_si: a second set $_sp plans nothing and changes nothing"
	else
		fail "$_si: a second set $_sp: $(tr -d '\n' </tmp/np-set2.json | head -c 400)"
	fi
	check_restored "$_si" /tmp/applied.saved
}

# set_reported IF POLICY BEFORE [OPTION...]: set --json; what its report
# says was changed is what the kernel shows changed (check_applied with the
# report as the plan: no unreported change, nothing reported that was not
# made), `check` exits 0, and a second set changes nothing.  For changes a
# dry run cannot foresee (igb's vectors after a channel change).
set_reported() {
	_si=$1 _sp=$2 _sb=$3
	shift 3
	run_np "$PLAN_JSON" 0 "$NP" --json "$_si" set "$_sp" "$@"
	if jq -r -f /lab/plan.jq "$PLAN_JSON" >"$PLAN_VIEW" 2>/tmp/np-plan.err; then
		sed 's/^/#   reported: /' "$PLAN_VIEW"
	else
		fail "plan.jq reads the $_sp report: $(cat /tmp/np-plan.err)"
	fi
	check_applied "$_si" "$_sb"
	cp /tmp/applied.txt /tmp/applied.saved
	run_np /tmp/np-check.out 0 "$NP" "$_si" check
	run_np /tmp/np-set2.json 0 "$NP" --json "$_si" set "$_sp" "$@"
	if grep -q '"changed": false' /tmp/np-set2.json && grep -q '"n_steps": 0' /tmp/np-set2.json; then
		pass "$_si: a second set $_sp plans nothing and changes nothing"
	else
		fail "$_si: a second set $_sp: $(tr -d '\n' </tmp/np-set2.json | head -c 400)"
	fi
	check_restored "$_si" /tmp/applied.saved
}

# reports_irqs_as IF JSON VIEW: each "N NAME" an irq-affinity step of JSON
# names is IRQ N with NAME in VIEW (a snapshot taken after the run)
reports_irqs_as() {
	jq -r '.steps[] | select(.knob == "irq-affinity") | .changes[].what' "$2" >/tmp/np-irqs.txt
	while read -r _irq _name; do
		_have=$(awk -v k="irq.$_irq.name" '$1 == k { print $2 }' "$3")
		is "$_have" "$_name" "$1: the report's IRQ $_irq is $_name"
	done </tmp/np-irqs.txt
}

# reset_checked IF PRISTINE ETHTOOL_TEXT: reset exits 0, the kernel's view of
# IF is the PRISTINE snapshot and ethtool -l/-g/-c print ETHTOOL_TEXT verbatim
reset_checked() {
	run_np /tmp/np-reset.out 0 "$NP" "$1" reset
	check_restored "$1" "$2"
	same_ethtool "$1" "$3"
}

# reset_bounced IF PRISTINE ETHTOOL_TEXT: reset_checked for a device whose
# link drops for a moment at a channel change (igb): carrier first, reset
# --json (its report in /tmp/np-reset.json), carrier again, then the checks
reset_bounced() {
	carrier "$1"
	diag "$1: reset"
	run_np /tmp/np-reset.json 0 "$NP" --json "$1" reset
	carrier "$1"
	check_restored "$1" "$2"
	same_ethtool "$1" "$3"
}

# same_ethtool IF ETHTOOL_TEXT: ethtool -l/-g/-c print what they printed before
same_ethtool() {
	ethtool_text "$1" >/tmp/ethtool.now
	if cmp -s "$2" /tmp/ethtool.now; then
		pass "$1: ethtool -l/-g/-c print what they did before"
	else
		fail "$1: ethtool -l/-g/-c differ from before: $(diff "$2" /tmp/ethtool.now | grep '^[-+][^-+]' | xargs)"
	fi
}

# ro_file FILE: make a sysfs FILE read-only, keeping what it reads, by
# mounting a read-only copy over it (a write then fails with EROFS); rw_file
# undoes it.  The mount point is the real path: mount looks it up in
# /proc/mounts, which has no symlinks.
ro_file() {
	_f=$(readlink -f "$1")
	cat "$_f" >"/tmp/ro.${_f##*/}" &&
		mount -o bind "/tmp/ro.${_f##*/}" "$_f" &&
		mount -o remount,bind,ro "$_f" &&
		! sh -c 'echo 0 >"$1"' - "$_f" 2>/dev/null
}
rw_file() { umount "$(readlink -f "$1")"; }

# failed_apply OUT KNOB WHAT: the stderr (OUT.err) of an apply that failed and
# was rolled back is one line naming the step (KNOB WHAT) and the EROFS
failed_apply() {
	is "$(wc -l <"$1.err")" 1 "lines on stderr"
	if grep -q "$2.*$3.*Read-only file system" "$1.err"; then
		pass "the error names $2 $3 and EROFS: $(cat "$1.err")"
	else
		fail "the error names $2 $3 and EROFS: $(cat "$1.err")"
	fi
}

# --- netdevsim ------------------------------------------------------------------

# nsim_add ID QUEUES: create netdevsim device ID with one port and QUEUES
# combined channels, print its netdev name
nsim_add() {
	modprobe netdevsim || return 1
	echo "$1 1 $2" >/sys/bus/netdevsim/new_device || return 1
	_i=0
	while [ -z "$(ls /sys/bus/netdevsim/devices/netdevsim$1/net 2>/dev/null)" ]; do
		[ $_i -ge 50 ] && return 1
		usleep 100000
		_i=$((_i + 1))
	done
	ls /sys/bus/netdevsim/devices/netdevsim$1/net | head -1
}

# xps_rollback_checked IF MIN_STEP WHAT: make tx-1's xps_cpus read-only so
# the XPS write of `set throughput --strict` fails after MIN_STEP earlier writes
# (WHAT says which), then check: exit 3, the failure named, --json says
# rolled back, and everything as in /tmp/pristine and /tmp/ethtool.pristine.
xps_rollback_checked() {
	diag "$1: set throughput with tx-1's xps_cpus read-only"
	ok "tx-1 xps_cpus read-only" ro_file "$Q"/tx-1/xps_cpus
	# --strict: without it a refused write is left out and the rest
	# applies (netpolicy(8), What degrades); all or nothing is --strict's
	run_np /tmp/np-fail.json 3 "$NP" --json "$1" set throughput --strict
	failed_apply /tmp/np-fail.json xps tx-1
	grep -q '"rolled_back": true' /tmp/np-fail.json && pass "--json says rolled_back" ||
		fail "--json says rolled_back: $(tr -d '\n' </tmp/np-fail.json | head -c 300)"
	# step N failed after N writes
	n=$(sed -n 's/.*: step \([0-9]*\): .*/\1/p' /tmp/np-fail.json.err)
	[ "${n:-0}" -ge "$2" ] && pass "the failing step ($n) came after $3" ||
		fail "the failing step ('$n') came after $3"
	ok "tx-1 xps_cpus writable again" rw_file "$Q"/tx-1/xps_cpus
	check_restored "$1" /tmp/pristine
	same_ethtool "$1" /tmp/ethtool.pristine
}
