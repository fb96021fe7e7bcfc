# A custom policy with coalescing values igb refuses (policies/coarse.conf:
# latency with rx- and tx-usecs 5, which igb_set_coalesce() refuses with
# EINVAL; lab.sh -f, read from /lab with --policy-dir), from igb's 4
# channels and from 8 (paired TxRx vectors, which refuse any tx-usecs;
# latency goes to 4 unpaired channels), lab612.bats.  The dry run's notes
# say 5 is not a value igb takes and 10 is used; set (exit 0) leaves what
# the plan says (from 8: what its report says) and nothing else, ethtool -c
# shows 10, check exits 0, a second set changes nothing, reset restores
# everything.  Each with and without --strict: the rounding is the plan's,
# from the driver table, not a refusal, so strict applies the same values
# (exit 0).
. /lab/lib.sh

IF=$(nic igb) || { fail "no igb NIC"; finish; }
# every netpolicy run (plan, set, check, reset in lib.sh) reads /lab's policies
printf '#!/bin/sh\nexec %s --policy-dir /lab "$@"\n' "$(command -v "$NP")" >/tmp/np-pd
chmod 755 /tmp/np-pd
NP=/tmp/np-pd

ip link set "$IF" up
i=0; while [ "$(cat /sys/class/net/$IF/carrier)" != 1 ] && [ $i -lt 50 ]; do usleep 100000; i=$((i + 1)); done
is "$(ethval "$IF" -l Combined:)" 4 "$IF: combined channels at the start"
snapshot "$IF" /tmp/pristine
ethtool_text "$IF" >/tmp/pristine.ethtool

run_np /tmp/dry.out 0 "$NP" "$IF" set coarse --dry-run
for f in rx-usecs tx-usecs; do
	ok "$IF coarse: the plan notes '$f 5 is not a value igb takes ...: 10 used'" \
		grep -q "coalesce: $f 5 is not a value igb takes (drivers/net/ethernet/intel/igb/igb_ethtool.c): 10 used" /tmp/dry.out
	ok "$IF coarse: the plan sets $f 10" grep -q "coalesce: $f 3 -> 10" /tmp/dry.out
done

for opt in "" --strict; do
	set_checked "$IF" coarse /tmp/pristine $opt
	is "$(ethval "$IF" -c rx-usecs:)" 10 "$IF coarse $opt: ethtool -c rx-usecs"
	is "$(ethval "$IF" -c tx-usecs:)" 10 "$IF coarse $opt: ethtool -c tx-usecs"
	reset_checked "$IF" /tmp/pristine /tmp/pristine.ethtool
done

carrier() {
	i=0
	while [ "$(cat /sys/class/net/$IF/carrier 2>/dev/null)" != 1 ] && [ $i -lt 50 ]; do
		usleep 100000
		i=$((i + 1))
	done
}
ok "$IF: ethtool -L combined 8" ethtool -L "$IF" combined 8
carrier
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
	carrier
	reset_checked "$IF" /tmp/pristine8 /tmp/pristine8.ethtool
	carrier
done
finish
