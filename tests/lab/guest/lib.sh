# lib.sh - helpers for lab guest scripts (busybox sh).  A scenario starts with
#   . /lab/lib.sh
# reports each check as a TAP line and ends with `finish` (exit 1 if any failed).
#
# Oracles are the kernel's own views: ethtool output, /proc/irq, sysfs queues/.
# `show IF` runs `netpolicy IF show --json` and keeps the JSON for `jv FILTER`
# (jq is in the guest).  `check_show IF` compares every knob with the kernel.

NP=${NETPOLICY:-netpolicy}
NP_JSON=/tmp/np-show.json
ip() { /usr/sbin/ip "$@"; }	# busybox sh prefers its own applet to $PATH

# --- TAP ----------------------------------------------------------------------

_n=0 _nfail=0
pass() { _n=$((_n + 1)); echo "ok $_n - $*"; }
fail() { _n=$((_n + 1)); _nfail=$((_nfail + 1)); echo "not ok $_n - $*"; }
skip() { _n=$((_n + 1)); echo "ok $_n # skip $*"; }
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

finish() {
	echo "1..$_n"
	[ "$_nfail" -eq 0 ] && exit 0
	diag "$_nfail of $_n checks failed"
	exit 1
}

# --- netpolicy --------------------------------------------------------------

# show IF: run `netpolicy IF show --json` into $NP_JSON
show() {
	if ! "$NP" "$1" show --json >"$NP_JSON" 2>/tmp/np-show.err; then
		fail "netpolicy $1 show --json exits 0: $(cat /tmp/np-show.err)"
		return 1
	fi
	if ! jq -e 'type == "object"' "$NP_JSON" >/dev/null 2>&1; then
		fail "netpolicy $1 show --json prints a JSON object: $(head -c 300 "$NP_JSON")"
		return 1
	fi
	pass "netpolicy $1 show --json"
}

# jv FILTER [JQ-ARGS]: a value from the last show (booleans and null as jq prints them)
jv() {
	_f=$1; shift
	jq -r "$_f" "$NP_JSON" "$@"
}

# --- kernel views -------------------------------------------------------------

# ethtool_val IF -l|-g SECTION LABEL: a "Pre-set maximums" (SECTION max) or
# "Current hardware settings" (cur) value; n/a (absent) reads as 0
ethtool_val() {
	ethtool "$2" "$1" 2>/dev/null | awk -v sec="$3" -v f="$4:" '
		/^Pre-set maximums/ { s = "max"; next }
		/^Current hardware settings/ { s = "cur"; next }
		s == sec && index($0, f) == 1 {
			v = substr($0, length(f) + 1); gsub(/[ \t]/, "", v)
			print (v == "n/a" ? 0 : v); exit
		}'
}

# coal_val IF FIELD: a field of `ethtool -c` by its ethtool name (rx-usecs,
# adaptive-rx, cqe-mode-tx, ...); n/a when the driver does not report it,
# booleans as 1/0
coal_val() {
	ethtool -c "$1" 2>/dev/null | awk -v f="$2" '
		function b(v) { return v == "on" ? 1 : v == "off" ? 0 : v }
		/^Adaptive RX:/ { if (f == "adaptive-rx") r = b($3); if (f == "adaptive-tx") r = b($5) }
		/^CQE mode RX:/ { if (f == "cqe-mode-rx") r = b($4); if (f == "cqe-mode-tx") r = b($6) }
		$1 == f ":" { r = $2 }
		END { print (r == "" ? "n/a" : r) }'
}

# rss_indir IF: the indirection table of `ethtool -x`, entries separated by
# spaces; empty when the driver has none
rss_indir() {
	ethtool -x "$1" 2>/dev/null | awk '
		/^RX flow hash indirection table/ { t = 1; next }
		t && /^ *[0-9]+:/ { for (i = 2; i <= NF; i++) s = s (s == "" ? "" : " ") $i; next }
		t && /^[^ ]/ { t = 0 }
		END { print s }'
}

# rss_key IF: the hash key of `ethtool -x`, hex without colons
rss_key() {
	ethtool -x "$1" 2>/dev/null | awk '/^RSS hash key:/ { getline; gsub(/:/, ""); print tolower($0); exit }'
}

# rss_hfunc IF: the name of the active hash function
rss_hfunc() {
	ethtool -x "$1" 2>/dev/null | awk '/^RSS hash function:/ { h = 1; next } h && $2 == "on" { sub(/:$/, "", $1); print $1; exit }'
}

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
				k = bit % 4; set = int(d / (k == 0 ? 1 : k == 1 ? 2 : k == 2 ? 4 : 8)) % 2
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

# dev_irqs IF: the MSI/MSI-X IRQs of IF's PCI function (a virtio NIC's
# `device` is the virtio device: its parent is the PCI function)
dev_irqs() {
	_d=/sys/class/net/$1/device
	[ -d "$_d/msi_irqs" ] || _d=$_d/..
	[ -d "$_d/msi_irqs" ] && ls "$_d/msi_irqs" | sort -n
}

# irq_name N: the action name /proc/interrupts shows for IRQ N
irq_name() { awk -v n="$1:" '$1 == n { print $NF; exit }' /proc/interrupts; }

# irq_role NAME: "KIND QUEUE" the IRQ name says it serves, from the driver's
# naming pattern (KERNEL.md); "other -1" for config/link/misc vectors
irq_role() {
	case $1 in
	*-input.*) echo "rx ${1##*.}" ;;
	*-output.*) echo "tx ${1##*.}" ;;
	*-[Tt]x[Rr]x-*|*-rxtx-*) echo "txrx ${1##*-}" ;;
	*-rx-*) echo "rx ${1##*-}" ;;
	*-tx-*) echo "tx ${1##*-}" ;;
	*) echo "other -1" ;;
	esac
}

# driver IF: the driver name ethtool -i reports
driver() { ethtool -i "$1" | awk '$1 == "driver:" { print $2 }'; }

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

# --- show vs the kernel ------------------------------------------------------

check_channels() {
	if ! ethtool -l "$1" >/dev/null 2>&1; then
		is "$(jv .channels.supported)" false "$1 channels reported unsupported (ethtool -l fails)"
		return
	fi
	is "$(jv .channels.supported)" true "$1 channels supported"
	for _k in rx:RX tx:TX other:Other combined:Combined; do
		is "$(jv ".channels.${_k%%:*}")" "$(ethtool_val "$1" -l cur "${_k#*:}")" "$1 channels.${_k%%:*}"
		is "$(jv ".channels.max_${_k%%:*}")" "$(ethtool_val "$1" -l max "${_k#*:}")" "$1 channels.max_${_k%%:*}"
	done
}

check_rings() {
	if ! ethtool -g "$1" >/dev/null 2>&1; then
		is "$(jv .rings.supported)" false "$1 rings reported unsupported (ethtool -g fails)"
		return
	fi
	is "$(jv .rings.supported)" true "$1 rings supported"
	for _k in rx:RX tx:TX rx_mini:"RX Mini" rx_jumbo:"RX Jumbo"; do
		is "$(jv ".rings.${_k%%:*} // 0")" "$(ethtool_val "$1" -g cur "${_k#*:}")" "$1 rings.${_k%%:*}"
		is "$(jv ".rings.max_${_k%%:*} // 0")" "$(ethtool_val "$1" -g max "${_k#*:}")" "$1 rings.max_${_k%%:*}"
	done
}

COAL_FIELDS="rx-usecs rx-frames rx-usecs-irq rx-frames-irq tx-usecs tx-frames
tx-usecs-irq tx-frames-irq stats-block-usecs adaptive-rx adaptive-tx
pkt-rate-low rx-usecs-low rx-frames-low tx-usecs-low tx-frames-low
pkt-rate-high rx-usecs-high rx-frames-high tx-usecs-high tx-frames-high
sample-interval cqe-mode-rx cqe-mode-tx"

check_coalesce() {
	if ! ethtool -c "$1" >/dev/null 2>&1; then
		is "$(jv .coalesce.supported)" false "$1 coalesce reported unsupported (ethtool -c fails)"
		return
	fi
	is "$(jv .coalesce.supported)" true "$1 coalesce supported"
	# a field ethtool prints as n/a is one the driver does not report: absent
	for _f in $COAL_FIELDS; do
		is "$(jv ".coalesce.fields[\"$_f\"] | if . == null then \"n/a\"
			elif type == \"boolean\" then (if . then 1 else 0 end) else . end")" \
			"$(coal_val "$1" "$_f")" "$1 coalesce $_f"
	done
	is "$(jv '.coalesce.fields | keys - $ARGS.positional | join(" ")' --args $COAL_FIELDS)" "" \
		"$1 coalesce has no unknown fields"
}

check_rss() {
	_t=$(rss_indir "$1")
	if [ -z "$_t" ]; then
		is "$(jv .rss.supported)" false "$1 RSS reported unsupported (ethtool -x has no table)"
		return
	fi
	is "$(jv .rss.supported)" true "$1 RSS supported"
	is "$(jv .rss.indir_size)" "$(echo "$_t" | wc -w)" "$1 rss.indir_size"
	is "$(jv '.rss.indir | map(tostring) | join(" ")')" "$_t" "$1 rss.indir"
	if [ "$(jv '.rss.key | type')" = string ]; then
		is "$(jv '.rss.key | gsub(":"; "") | ascii_downcase')" "$(rss_key "$1")" "$1 rss.key"
	else
		skip "$1 rss.key: not in the JSON"
	fi
	if [ "$(jv '.rss.hfunc | type')" = string ]; then
		is "$(jv .rss.hfunc)" "$(rss_hfunc "$1")" "$1 rss.hfunc"
	else
		skip "$1 rss.hfunc: not in the JSON"
	fi
}

check_irqs() {
	is "$(jv '[.irqs[].irq] | sort | map(tostring) | join(" ")')" "$(dev_irqs "$1" | xargs)" \
		"$1 irqs are the device's MSI vectors"
	for _q in $(jv '.irqs[].irq'); do
		_s=".irqs[] | select(.irq == $_q)"
		is "$(jv "$_s.name")" "$(irq_name "$_q")" "$1 irq $_q name"
		is "$(jv "$_s.kind + \" \" + (.queue | tostring)" )" "$(irq_role "$(irq_name "$_q")")" "$1 irq $_q kind and queue"
		is "$(jv "$_s.affinity")" "$(cat /proc/irq/"$_q"/smp_affinity_list)" "$1 irq $_q affinity"
		is "$(jv "$_s.effective")" "$(cat /proc/irq/"$_q"/effective_affinity_list)" "$1 irq $_q effective affinity"
	done
}

# a queue file the kernel refuses to read (xps_cpus of a single-queue device:
# ENOENT) must not show up as a value
check_qfile() {	# check_qfile IF DESC JQ-SELECTOR FILE mask|num
	if ! _v=$(cat "$4" 2>/dev/null); then
		is "$(jv "$3 // \"absent\"")" absent "$1 $2 unreadable, not shown"
		return
	fi
	[ "$5" = mask ] && _v=$(mask2list "$_v")
	is "$(jv "$3")" "$_v" "$1 $2"
}

check_queues() {
	_qd=/sys/class/net/$1/queues
	is "$(jv '.queues.rx | length')" "$(ls -d "$_qd"/rx-* | wc -l)" "$1 rx queue count"
	is "$(jv '.queues.tx | length')" "$(ls -d "$_qd"/tx-* | wc -l)" "$1 tx queue count"
	for _q in $(ls "$_qd" | sed -n 's/^rx-//p' | sort -n); do
		_s=".queues.rx[] | select(.queue == $_q)"
		check_qfile "$1" "rx-$_q rps_cpus" "$_s.rps_cpus" "$_qd/rx-$_q/rps_cpus" mask
		check_qfile "$1" "rx-$_q rps_flow_cnt" "$_s.rps_flow_cnt" "$_qd/rx-$_q/rps_flow_cnt" num
	done
	for _q in $(ls "$_qd" | sed -n 's/^tx-//p' | sort -n); do
		_s=".queues.tx[] | select(.queue == $_q)"
		check_qfile "$1" "tx-$_q xps_cpus" "$_s.xps_cpus" "$_qd/tx-$_q/xps_cpus" mask
		check_qfile "$1" "tx-$_q xps_rxqs" "$_s.xps_rxqs" "$_qd/tx-$_q/xps_rxqs" mask
	done
}

# check_show IF: `netpolicy IF show --json` agrees with the kernel on every knob
check_show() {
	show "$1" || return 1
	is "$(jv .ifname)" "$1" "$1 ifname"
	is "$(jv .driver)" "$(driver "$1")" "$1 driver"
	check_channels "$1"
	check_rings "$1"
	check_coalesce "$1"
	check_rss "$1"
	check_irqs "$1"
	check_queues "$1"
}

# nic DRIVER: the first interface bound to DRIVER (virtio_net, e1000e, ...)
nic() {
	for _p in /sys/class/net/*; do
		[ "$(driver "${_p##*/}" 2>/dev/null)" = "$1" ] && { echo "${_p##*/}"; return 0; }
	done
	return 1
}

# put FILE VALUE: write VALUE into a sysfs/procfs FILE, as a check
put() { ok "$1 <- $2" sh -c 'echo "$2" >"$1"' put "$1" "$2"; }
