#!/usr/bin/env bats
# The units' sandbox (netpolicy(8), SANDBOX) still lets each do its job.
# systemd is not PID 1 where the tests run, so the sandbox a unit declares
# is rebuilt by hand from the unit file, on a veth pair in a private
# namespace:
#   CapabilityBoundingSet=  setpriv --bounding-set (uid 0 then has exactly
#                           those capabilities after exec, as under systemd)
#   NoNewPrivileges=yes     setpriv --no-new-privs
#   ProtectSystem=strict    every mount but /proc, /sys and /dev remounted
#                           read-only in a private mount namespace, except
#                           the unit's writable paths (the test's stand-ins
#                           for /run/netpolicy and the textfile directory)
#   ProtectKernelTunables=  /sys and /proc/sys read-only too
#   RestrictAddressFamilies= every socket(2) the run made (strace) is of a
#                           family the unit allows
# and the command is the unit's own ExecStart=, pointed at the test's state
# directory, configuration and output file.

load ../helpers

setup() {
	np_veth_setup 4
	UNITS=$NP_BUILDDIR/contrib
	[ -f "$UNITS/netpolicy.service" ] || skip "units not built"
	command -v setpriv >/dev/null || skip "setpriv not installed (util-linux)"
	command -v strace >/dev/null || skip "strace not installed"
	CONF=$NP_TMP/netpolicy.conf
	printf '[v0]\npolicy = throughput\n' >"$CONF"
	mkdir -p "$STATE_DIR" "$NP_TMP/textfile" "$NP_TMP/trace"
	SBINDIR=$(sed -n 's|^ExecStart=\(.*\)/netpolicy .*|\1|p' "$UNITS/netpolicy.service")
	WATCH_PID=
}

teardown() {
	[ -z "$WATCH_PID" ] || kill "$WATCH_PID" 2>/dev/null || true
	[ -z "$WATCH_PID" ] || wait "$WATCH_PID" 2>/dev/null || true
	np_veth_teardown
}

# The unit's ExecStart= with the test's binary, state dir, configuration
# and output file in place of the installed ones.
exec_start() {
	sed -n 's/^ExecStart=//p' "$UNITS/$1" | sed \
		-e "s|^$SBINDIR/netpolicy|$NETPOLICY --state-dir $STATE_DIR|" \
		-e "s| plan| plan --config $CONF|" -e 's|%I|v0|' \
		-e "s|--output [^ ]*/|--output $NP_TMP/textfile/|" -e "s| watch\$| ${WATCH_V:-} watch|"
}

# sandboxed UNIT RWDIR... -- : run the unit's ExecStart= in the namespace
# under the sandbox the unit declares; RWDIR are its writable paths.
sandboxed() {
	local unit=$UNITS/$1 bset=-all tunables=no c cmd
	shift
	local rw=("$NP_TMP/trace")
	while [ "$1" != -- ]; do rw+=("$1"); shift; done
	grep -qx 'NoNewPrivileges=yes' "$unit"
	grep -qx 'ProtectSystem=strict' "$unit"
	grep -qx 'ProtectHome=yes' "$unit"
	grep -q '^CapabilityBoundingSet=' "$unit"
	for c in ${SANDBOX_CAPS-$(sed -n 's/^CapabilityBoundingSet=//p' "$unit")}; do
		c=${c#CAP_}
		bset+=",+${c,,}"
	done
	! grep -qx 'ProtectKernelTunables=yes' "$unit" || tunables=yes
	cmd=$(exec_start "$(basename "$unit")")
	echo "sandbox of $(basename "$unit"): bounding set $bset, tunables read-only: $tunables; $cmd"
	# strace below: LeakSanitizer cannot run under ptrace
	# shellcheck disable=SC2016,SC2086
	ip netns exec "$NS" env "$NP_NO_LSAN" RW="${rw[*]}" TUNABLES=$tunables unshare -m --propagation private \
		bash -c '
		set -e
		for d in $RW; do mount --bind "$d" "$d"; done
		awk "{print \$5}" /proc/self/mountinfo | sort -u | while read -r m; do
			case $m in /proc|/proc/*|/sys|/sys/*|/dev|/dev/*) continue ;; esac
			case " $RW " in *" $m "*) continue ;; esac
			mount -o remount,bind,ro "$m"
		done
		if [ "$TUNABLES" = yes ]; then
			mount -o remount,bind,ro /sys
			mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys
		fi
		exec setpriv --no-new-privs --bounding-set "$0" --inh-caps -all \
			strace -f -qq -e trace=socket -o "${RW%% *}/socket.log" "$@"' \
		"$bset" $cmd
}

# Every socket the run opened is of a family the unit allows.
families_allowed() {
	local allowed used f
	allowed=$(sed -n 's/^RestrictAddressFamilies=//p' "$UNITS/$1")
	[ -n "$allowed" ]
	used=$(grep -o 'socket(AF_[A-Z0-9]*' "$NP_TMP/trace/socket.log" | sed 's/socket(//' | sort -u)
	echo "families used: $used; allowed: $allowed"
	[ -n "$used" ]
	for f in $used; do
		[[ " $allowed " == *" $f "* ]]
	done
}

@test "netpolicy.service: plan applies the configuration with CAP_NET_ADMIN alone, read-only but its state" {
	run sandboxed netpolicy.service "$STATE_DIR" --
	echo "$output"
	[ "$status" -eq 0 ]
	run npns v0 check throughput
	echo "$output"
	[ "$status" -eq 0 ]
	families_allowed netpolicy.service
	# nothing it needs is missing from the sandbox: a second run is a no-op
	run sandboxed netpolicy.service "$STATE_DIR" --
	[ "$status" -eq 0 ]
}

@test "netpolicy@.service: plan DEVICE, sandboxed" {
	run sandboxed netpolicy@.service "$STATE_DIR" --
	echo "$output"
	[ "$status" -eq 0 ]
	run npns v0 check throughput
	[ "$status" -eq 0 ]
	families_allowed netpolicy@.service
}

@test "the sandbox is not a no-op: without the state directory writable, or without CAP_NET_ADMIN, the apply fails" {
	run sandboxed netpolicy@.service --
	echo "$output"
	[ "$status" -ne 0 ]
	run npns v0 check throughput
	[ "$status" -ne 0 ]
	SANDBOX_CAPS= run sandboxed netpolicy@.service "$STATE_DIR" --
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Operation not permitted"* ]]
	run npns v0 check throughput
	[ "$status" -ne 0 ]
}

@test "netpolicy-watch.service: watch, sandboxed, undoes another program's ethtool -L" {
	npns v0 set throughput >/dev/null
	# -v only to know when it has subscribed (it says "watching")
	WATCH_V=-v sandboxed netpolicy-watch.service "$STATE_DIR" -- >"$NP_TMP/watch.log" 2>&1 &
	WATCH_PID=$!
	for _ in $(seq 100); do
		grep -q watching "$NP_TMP/watch.log" && break
		sleep 0.1
	done
	ip netns exec "$NS" ethtool -L v0 rx 1 tx 1
	ok=
	for _ in $(seq 150); do
		ip netns exec "$NS" "$NETPOLICY" --state-dir "$STATE_DIR" v0 check throughput \
			>/dev/null 2>&1 && { ok=1; break; }
		sleep 0.1
	done
	cat "$NP_TMP/watch.log"
	[ -n "$ok" ]
	# SIGTERM to the sandboxed watch (the namespace's processes but strace)
	for p in $(ip netns pids "$NS"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = strace ] || kill "$p" 2>/dev/null || true
	done
	wait "$WATCH_PID" || true
	WATCH_PID=
	families_allowed netpolicy-watch.service
}

@test "netpolicy-metrics.service: metrics with no capability, writing only its output directory" {
	npns v0 set throughput >/dev/null
	run sandboxed netpolicy-metrics.service "$NP_TMP/textfile" --
	echo "$output"
	[ "$status" -eq 0 ]
	cat "$NP_TMP/textfile/netpolicy.prom"
	grep -qx 'netpolicy_device_read_ok{device="v0"} 1' "$NP_TMP/textfile/netpolicy.prom"
	grep -qx 'netpolicy_policy_matches{device="v0"} 1' "$NP_TMP/textfile/netpolicy.prom"
	families_allowed netpolicy-metrics.service
	# its capability set is empty
	[ -z "$(sed -n 's/^CapabilityBoundingSet=//p' "$UNITS/netpolicy-metrics.service")" ]
}
