# `set POLICY` and `reset` on the guest's NIC (a netdevsim device when it has
# none), for each policy in turn: the kernel then shows what the dry-run
# planned and nothing else moved, `check` exits 0, show agrees with the
# kernel, a second set changes nothing, and reset brings back the state from
# before (sysctls included) and what ethtool -l/-g/-c printed.  On e1000e
# also: the plan notes what the driver lacks, channels first, and ethtool
# reads back the planned rx-usecs (latency) or the driver's adaptive mode
# (cpu, throughput) and the planned rings.
. /lab/lib.sh

IF=$(ls /sys/class/net | grep -v '^lo$' | head -1)
[ -n "$IF" ] || IF=$(nsim_add 1 4) || { fail "create a netdevsim device"; finish; }
ip link set "$IF" up
snapshot "$IF" /tmp/pristine
ethtool_text "$IF" >/tmp/ethtool.pristine
DRV=$(driver "$IF")

# e1000e_checks POLICY: after set POLICY on e1000e
e1000e_checks() {
	_notes=$(jq -r '[.notes[] | "\(.knob): \(.note)"] | join("; ")' "$PLAN_JSON")
	case $_notes in
	*"channels: not supported"*) pass "the $1 plan notes: $_notes" ;;
	*) fail "the $1 plan notes channels as unsupported: '$_notes'" ;;
	esac
	if ethtool -l "$IF" >/dev/null 2>&1; then fail "ethtool -l $IF fails"; else pass "ethtool -l $IF fails"; fi
	_u=$(pval coalesce.rx-usecs)
	case $1 in
	latency)
		[ -n "$_u" ] && pass "the $1 plan sets rx-usecs $_u" || fail "the $1 plan sets rx-usecs"
		;;
	*)
		# rx-usecs 3 is e1000e's own adaptive mode (dynamic conservative
		# ITR, e1000e_set_coalesce() in netdev/ethtool.c): cpu and
		# throughput want adaptive moderation, so they keep it
		if [ -z "$_u" ]; then
			pass "the $1 plan keeps e1000e's adaptive rx-usecs 3"
		else
			fail "the $1 plan writes rx-usecs $_u over e1000e's adaptive mode"
		fi
		_u=3
		;;
	esac
	is "$(ethval "$IF" -c rx-usecs:)" "$_u" "ethtool -c: rx-usecs as planned"
	for _r in rx tx; do
		_w=$(pval rings.$_r)
		[ -n "$_w" ] || _w=$(awk -v k="rings.$_r" '$1 == k { print $2 }' /tmp/pristine)
		is "$(ethval "$IF" -g "$(echo $_r | tr a-z A-Z):")" "$_w" "ethtool -g: $_r ring as planned"
	done
}

# The per-CPU wake-up limit (pm_qos_resume_latency_us): this TCG guest's
# kernel has the files but no idle driver (cpuidle's current_driver
# "none"), so the latency plan says so and writes none of them.
pm_files() { cat /sys/devices/system/cpu/cpu[0-9]*/power/pm_qos_resume_latency_us | tr '\n' ' '; }
PM_BEFORE=$(pm_files)
pm_checks() {
	[ "$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)" = none ] || return 0
	if [ "$1" = latency ]; then
		case $(jq -r '[.notes[] | "\(.knob): \(.note)"] | join("; ")' "$PLAN_JSON") in
		*"pm-qos: CPUs "*": no cpuidle"*) pass "the latency plan notes no cpuidle" ;;
		*) fail "the latency plan notes no cpuidle" ;;
		esac
	fi
	is "$(pm_files)" "$PM_BEFORE" "after set $1: pm_qos_resume_latency_us unchanged"
}

for P in latency throughput cpu; do
	diag "$IF: set $P"
	set_checked "$IF" "$P" /tmp/pristine
	check_show "$IF"
	[ "$DRV" = e1000e ] && e1000e_checks "$P"
	pm_checks "$P"
	diag "$IF: reset"
	reset_checked "$IF" /tmp/pristine /tmp/ethtool.pristine
	is "$(pm_files)" "$PM_BEFORE" "after reset: pm_qos_resume_latency_us as before"
done
finish
