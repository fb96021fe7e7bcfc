#!/usr/bin/env bats
# The bytes netpolicy would send to a NIC with ntuple filters and RSS
# contexts are the bytes ethtool sends for the same rule.  No driver here has
# either, so both programs run under tests/capture/np_capture.so, which logs
# every SIOCETHTOOL payload and netlink message and answers the ntuple and
# RSS-context ioctls as such a NIC would (NP_CAPTURE_FAKE=1); everything
# else (the device lookup, netlink) goes to the real kernel, on a veth pair
# in a private namespace.  ethtool here is Debian's 6.1: ioctl for -N and
# for -X ... context (no netlink RSS context ops in ethtool 6.1).

load ../helpers
load capture

setup() { capture_setup; }

teardown() { np_veth_teardown; }

# The last request with ETHTOOL_* command $2 in log $1, cut to the bytes the
# kernel and drivers read.  ethtool leaves struct ethtool_rxnfc's own
# flow_type and data, the tail padding, and for a delete everything but
# fs.location, as stack leftovers; net/ethtool/ioctl.c (ethtool_set_rxnfc)
# and the drivers' set_rxnfc read cmd, fs and rss_context for an insert and
# fs.location for a delete.  struct ethtool_rxfh requests are compared whole.
request() {
	local hex
	hex=$(awk -v c="$2" '$1 == "ioctl" && $2 == c { h = $3 } END { print h }' "$1")
	[ -n "$hex" ] || { echo "no request $2 in $1" >&2; return 1; }
	case $2 in
	0x32) echo "cmd=${hex:0:8} fs=${hex:32:336} rss_context=${hex:368:8}" ;;
	0x31) echo "cmd=${hex:0:8} location=${hex:352:8}" ;;
	*) echo "$hex" ;;
	esac
}

# same_request ETHTOOL_CMD "ethtool args" "np_steer args": both programs
# send the same request.
same_request() {
	local cmd=$1 e=$NP_TMP/ethtool.log n=$NP_TMP/netpolicy.log
	rm -f "$e" "$n"
	# shellcheck disable=SC2086
	captured "$e" ethtool $2 >/dev/null
	# shellcheck disable=SC2086
	run captured "$n" "$STEER" $3
	[ "$status" -eq 0 ] || { echo "np_steer: $output"; return 1; }
	echo "ethtool:   $(request "$e" "$cmd")"
	echo "netpolicy: $(request "$n" "$cmd")"
	[ "$(request "$e" "$cmd")" = "$(request "$n" "$cmd")" ]
}

@test "ntuple insert to a queue at a location: ethtool -N v0 flow-type tcp4 dst-port 6379 action 2 loc 5" {
	same_request 0x32 "-N v0 flow-type tcp4 dst-port 6379 action 2 loc 5" \
		"ins v0 latency:tcp4:6379 queue 2 loc 5"
}

@test "ntuple insert to an RSS context: ethtool -N ... context 1 action 0" {
	same_request 0x32 "-N v0 flow-type tcp4 dst-port 6379 context 1 action 0 loc 6" \
		"ins v0 latency:tcp4:6379 context 1 offset 0 loc 6"
	same_request 0x32 "-N v0 flow-type udp6 dst-port 53 vlan 7 vlan-mask 0xf000 context 2 action 1 loc 8" \
		"ins v0 latency:udp6:53,vlan=7 context 2 offset 1 loc 8"
}

@test "ntuple insert without a location: the same free slot as ethtool, the same requests before it" {
	e=$NP_TMP/e.log n=$NP_TMP/n.log
	captured "$e" ethtool -N v0 flow-type udp4 dst-port 53 action 1
	run captured "$n" "$STEER" ins v0 throughput:udp4:53 queue 1
	[ "$status" -eq 0 ]
	[ "$output" = "location 255" ]
	# GRXCLSRLCNT, GRXCLSRLALL, then the insert at the last free location
	# (ethtool also reads ETHTOOL_GFLAGS, 0x25, first)
	rxnfc='$2 ~ /^0x(2e|30|31|32)$/ { printf "%s ", $2 }'
	[ "$(awk "$rxnfc" "$e")" = "0x2e 0x30 0x32 " ]
	[ "$(awk "$rxnfc" "$n")" = "0x2e 0x30 0x32 " ]
	[ "$(request "$e" 0x32)" = "$(request "$n" 0x32)" ]
}

@test "ntuple insert on a driver that places rules itself: RX_CLS_LOC_ANY, as ethtool" {
	LOC_SPECIAL=1 same_request 0x32 "-N v0 flow-type tcp4 dst-port 5201 action 3" \
		"ins v0 throughput:tcp4:5201 queue 3"
	request "$NP_TMP/netpolicy.log" 0x32 | grep -q "rss_context=00000000"
	# fs.location (fs bytes 160-163) is 0xffffffff in both
	[ "$(request "$NP_TMP/netpolicy.log" 0x32 | sed 's/.*fs=//' | cut -c321-328)" = ffffffff ]
}

@test "ntuple insert to a context on a driver that places rules itself: no loc, as ethtool; the driver's location read back" {
	LOC_SPECIAL=1 same_request 0x32 "-N v0 flow-type tcp6 dst-port 6379 context 1 action 0" \
		"ins v0 latency:tcp6:6379 context 1 offset 0"
	# the fake driver puts it at 7 and writes that back into the request
	[ "$output" = "location 7" ]
	request "$NP_TMP/netpolicy.log" 0x32 | grep -q "rss_context=01000000"
	[ "$(request "$NP_TMP/netpolicy.log" 0x32 | sed 's/.*fs=//' | cut -c321-328)" = ffffffff ]
}

@test "ntuple matches: ports, addresses, prefixes, IP-only, VLAN" {
	same_request 0x32 "-N v0 flow-type tcp4 src-port 5201 action 3 loc 9" \
		"ins v0 latency:tcp4:src-port=5201 queue 3 loc 9"
	same_request 0x32 "-N v0 flow-type tcp4 dst-ip 10.0.0.5 dst-port 443 action 1 loc 4" \
		"ins v0 latency:tcp:dst=10.0.0.5:443 queue 1 loc 4"
	same_request 0x32 "-N v0 flow-type tcp6 dst-ip fd00::5 dst-port 443 action 1 loc 4" \
		"ins v0 latency:tcp:dst=[fd00::5]:443 queue 1 loc 4"
	same_request 0x32 "-N v0 flow-type udp4 src-ip 10.1.0.0 m 0.0.255.255 action 1 loc 4" \
		"ins v0 cpu:udp4:src=10.1.0.0/16 queue 1 loc 4"
	same_request 0x32 "-N v0 flow-type ip4 action 1 loc 3" "ins v0 cpu:ip4 queue 1 loc 3"
	same_request 0x32 "-N v0 flow-type ip6 action 1 loc 3" "ins v0 cpu:ip6 queue 1 loc 3"
	same_request 0x32 "-N v0 flow-type ether vlan 100 vlan-mask 0xf000 action 1 loc 4" \
		"ins v0 latency:vlan=100 queue 1 loc 4"
}

@test "ntuple delete: ethtool -N v0 delete 5" {
	same_request 0x31 "-N v0 delete 5" "del v0 5"
}

@test "RSS context create (ioctl): ethtool -X v0 context new [start 4] equal 2, and with no table" {
	same_request 0x47 "-X v0 context new equal 2" "ctx-new v0 --ioctl equal 2"
	[ "$output" = "context 1" ]
	same_request 0x47 "-X v0 context new start 4 equal 2" "ctx-new v0 --ioctl start 4 equal 2"
	same_request 0x47 "-X v0 context new" "ctx-new v0 --ioctl"
}

@test "RSS context delete (ioctl): ethtool -X v0 context 1 delete" {
	same_request 0x47 "-X v0 context 1 delete" "ctx-del v0 1 --ioctl"
}

@test "real kernel, ioctl: veth has no ntuple filters, the error says so" {
	run ip netns exec "$NS" "$STEER" ins v0 latency:tcp4:6379 queue 1 loc 1
	[ "$status" -eq 1 ]
	[[ "$output" == *"inserting an ntuple rule: Operation not supported (driver has no ntuple filters"* ]]
}

@test "real kernel, netlink: RSS_CREATE_ACT passes the kernel's policy and device lookup, veth refuses it" {
	ip netns exec "$NS" genl ctrl get name ethtool 2>/dev/null | grep -q "ID-0x31" ||
		skip "kernel without ETHTOOL_MSG_RSS_CREATE_ACT (6.17)"
	n=$NP_TMP/n.log
	FAKE=0 run captured "$n" "$STEER" ctx-new v0
	[ "$status" -eq 1 ]
	# EOPNOTSUPP comes from ethnl_rss_create_validate, after the attribute
	# policy and the device lookup accepted the request (net/ethtool/rss.c).
	[[ "$output" == *"v0: creating RSS context 0: Operation not supported"* ]]
	# the request: genl cmd 0x31 (RSS_CREATE_ACT), version 1, header nest
	# (type 1 | NLA_F_NESTED) holding DEV_NAME "v0", nothing else
	hex=$(awk '$1 == "nl" && $2 == "0x10" { h = $3 } END { print h }' "$n")
	[ "${hex:32}" = "310100000c0001800700020076300000" ]
	[ "${hex:0:8}" = 20000000 ]
	[ "${hex:12:4}" = 0500 ]	# NLM_F_REQUEST | NLM_F_ACK
}

@test "real kernel, netlink: an unknown device is ENODEV with the kernel's extack text" {
	ip netns exec "$NS" genl ctrl get name ethtool 2>/dev/null | grep -q "ID-0x31" ||
		skip "kernel without ETHTOOL_MSG_RSS_CREATE_ACT (6.17)"
	run ip netns exec "$NS" "$STEER" ctx-new nosuch0
	[ "$status" -eq 1 ]
	[[ "$output" == *"nosuch0: creating RSS context 0: no device matches name [no device matches name]"* ]]
	run ip netns exec "$NS" "$STEER" ctx-get v0 1
	[ "$status" -eq 1 ]
	[[ "$output" == *"reading RSS context 1: Operation not supported"* ]]
}
