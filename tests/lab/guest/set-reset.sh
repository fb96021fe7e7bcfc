# `set POLICY` and `reset` on the guest's NIC (a netdevsim device when it has
# none), for each policy in turn: set exits 0, check finds no drift, show
# agrees with the kernel, a second set changes nothing, and reset brings back
# the state from before the first set (sysctls included).
. /lab/lib.sh

IF=$(ls /sys/class/net | grep -v '^lo$' | head -1)
[ -n "$IF" ] || IF=$(nsim_add 1 4) || { fail "create a netdevsim device"; finish; }
ip link set "$IF" up
snapshot "$IF" /tmp/pristine

for P in latency throughput cpu; do
	diag "$IF: set $P"
	"$NP" "$IF" set "$P" --dry-run | sed 's/^/# /'
	ok "netpolicy $IF set $P" "$NP" "$IF" set "$P"
	ok "netpolicy $IF check after set $P" "$NP" "$IF" check
	check_show "$IF"
	snapshot "$IF" /tmp/applied
	ok "netpolicy $IF set $P again" "$NP" "$IF" set "$P"
	check_restored "$IF" /tmp/applied
	diag "$IF: reset"
	ok "netpolicy $IF reset" "$NP" "$IF" reset
	check_restored "$IF" /tmp/pristine
done
finish
