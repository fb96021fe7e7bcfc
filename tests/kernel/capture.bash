# shellcheck shell=bash
# The capture interposer (tests/capture/np_capture.so) as steer.bats and
# queue_coal.bats use it: ethtool and np_steer run in the veth pair's
# namespace with every SIOCETHTOOL payload and ethtool netlink request
# logged, and the commands no veth has answered as a driver with them would
# (NP_CAPTURE_FAKE, FAKE=0 to let the kernel answer).  Loaded after
# ../helpers.

CAP=$NP_BUILDDIR/tests/capture/np_capture.so
STEER=$NP_BUILDDIR/tests/capture/np_steer

# bats setup: skip without ethtool or the capture tools, else a veth pair.
capture_setup() {
	command -v ethtool >/dev/null || skip "ethtool not installed"
	[ -x "$STEER" ] && [ -f "$CAP" ] || skip "capture tools not built (make check builds them)"
	np_veth_setup
}

# Run a command in the namespace under the interposer, logging into $1.  A
# sanitizer build's np_steer needs its ASan runtime loaded before anything
# else, so it goes first in LD_PRELOAD.  LOC_SPECIAL=1: the rule table
# reports RX_CLS_LOC_SPECIAL; HIGH: rx-usecs-high of a per-queue read.
captured() {
	local log=$1 preload=$CAP asan
	shift
	if [ "$1" = "$STEER" ]; then
		asan=$(ldd "$STEER" | awk '/libasan/ { print $3 }')
		[ -n "$asan" ] && preload=$asan:$CAP
	fi
	ip netns exec "$NS" env NP_CAPTURE_LOG="$log" NP_CAPTURE_FAKE="${FAKE-1}" \
		NP_FAKE_LOC_SPECIAL="${LOC_SPECIAL:-0}" NP_FAKE_QCOAL_HIGH="${HIGH:-0}" \
		LD_PRELOAD="$preload" "$@"
}
