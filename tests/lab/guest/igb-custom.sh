# Custom policies with coalescing values igb refuses with EINVAL (lab.sh -f,
# read from /lab with --policy-dir): policies/coarse.conf, latency with rx-
# and tx-usecs 5 (planned as 10), from igb's 4 channels and from 8 (paired
# TxRx vectors, which refuse any tx-usecs; latency goes to 4 unpaired
# channels); policies/edges.conf, throughput with rx-usecs 2 and tx-usecs
# 20000 (planned as 0 and 10000), from 4.  The dry run's notes say which
# value igb does not take and which is used; set (exit 0) leaves what the
# plan says (from 8: what its report says) and nothing else, ethtool -c
# shows the planned values, check exits 0, a second set changes nothing,
# reset restores everything.  Each with and without --strict: the rounding
# is the plan's, from the driver table, not a refusal, so strict applies
# the same values (exit 0).  lab612.bats.
. /lab/lib.sh

IF=$(nic igb) || { fail "no igb NIC"; finish; }
# every netpolicy run (plan, set, check, reset in lib.sh) reads /lab's policies
printf '#!/bin/sh\nexec %s --policy-dir /lab "$@"\n' "$(command -v "$NP")" >/tmp/np-pd
chmod 755 /tmp/np-pd
NP=/tmp/np-pd

ip link set "$IF" up
carrier "$IF"
is "$(ethval "$IF" -l Combined:)" 4 "$IF: combined channels at the start"
snapshot "$IF" /tmp/pristine
ethtool_text "$IF" >/tmp/pristine.ethtool

# POLICY FIELD=ASKED>PLANNED...: from 4 channels, the values the policy file
# asks for and what the plan must use instead
for case in "coarse rx-usecs=5>10 tx-usecs=5>10" "edges rx-usecs=2>0 tx-usecs=20000>10000"; do
	P=${case%% *}
	run_np /tmp/dry.out 0 "$NP" "$IF" set "$P" --dry-run
	for fv in ${case#* }; do
		f=${fv%%=*} v=${fv#*=}
		asked=${v%>*} planned=${v#*>}
		ok "$IF $P: the plan notes '$f $asked is not a value igb takes ...: $planned used'" \
			grep -q "coalesce: $f $asked is not a value igb takes (drivers/net/ethernet/intel/igb/igb_ethtool.c): $planned used" /tmp/dry.out
		ok "$IF $P: the plan sets $f $planned" grep -q "coalesce: $f 3 -> $planned\$" /tmp/dry.out
	done
	for opt in "" --strict; do
		set_checked "$IF" "$P" /tmp/pristine $opt
		for fv in ${case#* }; do
			f=${fv%%=*} v=${fv#*>}
			is "$(ethval "$IF" -c "$f:")" "$v" "$IF $P $opt: ethtool -c $f"
		done
		reset_checked "$IF" /tmp/pristine /tmp/pristine.ethtool
	done
done

ok "$IF: ethtool -L combined 8" ethtool -L "$IF" combined 8
carrier "$IF"
snapshot "$IF" /tmp/pristine8
ethtool_text "$IF" >/tmp/pristine8.ethtool
run_np /tmp/dry8.out 0 "$NP" "$IF" set coarse --dry-run
ok "$IF from 8 coarse: the plan says coalescing is planned for unpaired vectors" \
	grep -q "coalesce: planned for unpaired vectors after the channel change" /tmp/dry8.out
for f in rx-usecs tx-usecs; do
	ok "$IF from 8 coarse: the plan notes '$f 5 is not a value igb takes ...: 10 used'" \
		grep -q "coalesce: $f 5 is not a value igb takes (drivers/net/ethernet/intel/igb/igb_ethtool.c): 10 used" /tmp/dry8.out
	ok "$IF from 8 coarse: the plan sets $f 10" grep -q "coalesce: $f [0-9]* -> 10" /tmp/dry8.out
done
for opt in "" --strict; do
	set_reported "$IF" coarse /tmp/pristine8 $opt
	is "$(ethval "$IF" -l Combined:)" 4 "$IF from 8 coarse $opt: combined channels"
	is "$(ethval "$IF" -c rx-usecs:)" 10 "$IF from 8 coarse $opt: ethtool -c rx-usecs"
	is "$(ethval "$IF" -c tx-usecs:)" 10 "$IF from 8 coarse $opt: ethtool -c tx-usecs"
	carrier "$IF"
	reset_checked "$IF" /tmp/pristine8 /tmp/pristine8.ethtool
	carrier "$IF"
done
finish
