#!/usr/bin/env bats
# What an SRE alerts on: netpolicy metrics exports the policy netpolicy.conf
# asks for per device (desired against applied), whether that file is valid,
# and the build; the alert rules shipped in contrib/prometheus pass
# `promtool test rules` (tests/pkg/netpolicy-alerts.test.yml) and use only
# series `netpolicy metrics` exports.

load ../helpers
bats_require_minimum_version 1.5.0

RULES=$NP_SRCDIR/contrib/prometheus/netpolicy-alerts.yml

setup() {
	np_tmpdir
	np_model few-msix
	CONF=$NP_TMP/netpolicy.conf
	printf '[eno1]\npolicy = throughput\ncpus = 0-3\n\n[eno9]\npolicy = latency\n' >"$CONF"
}
teardown() { np_cleanup_tmp; }

value() {	# value METRIC-WITH-LABELS: its sample's value, from $output
	awk -v m="$1" 'index($0, m " ") == 1 { print $NF }' <<<"$output"
}

@test "metrics: the desired policy of each configured device, the configuration's state, the build" {
	run npsim metrics --config "$CONF"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(value 'netpolicy_desired_policy_info{device="eno1",policy="throughput",cpus="0-3"}')" = 1 ]
	[ "$(value 'netpolicy_desired_policy_info{device="eno9",policy="latency",cpus=""}')" = 1 ]
	[ "$(value 'netpolicy_config_read_ok')" = 1 ]
	version=$("$NETPOLICY" --version | awk '{ print $2 }')
	[ "$(value "netpolicy_build_info{version=\"$version\"}")" = 1 ]
	# DEVICE metrics: that device's only
	run npsim eno1 metrics --config "$CONF"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^netpolicy_desired_policy_info' <<<"$output")" -eq 1 ]
	# desired and applied side by side once set
	npsim eno1 set throughput --cpus 0-3 >/dev/null
	run npsim eno1 metrics --config "$CONF"
	[ "$(value 'netpolicy_policy_info{device="eno1",policy="throughput",cpus="0-3"}')" = 1 ]
	[ "$(value 'netpolicy_desired_policy_info{device="eno1",policy="throughput",cpus="0-3"}')" = 1 ]
}

@test "metrics: an invalid netpolicy.conf is exported as config_read_ok 0, and the metrics are still written" {
	printf '[eno1]\npolicy = throughputt\n' >"$CONF"
	run npsim metrics --config "$CONF" --output "$NP_TMP/np.prom"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *throughputt* ]]		# said on stderr
	grep -qx 'netpolicy_config_read_ok 0' "$NP_TMP/np.prom"
	grep -q '^netpolicy_device_read_ok{device="eno1"} 1$' "$NP_TMP/np.prom"
	! grep -q '^netpolicy_desired_policy_info{' "$NP_TMP/np.prom" || false
	# a --config file that is not there is an error too, as for plan
	run npsim metrics --config "$NP_TMP/absent.conf"
	[ "$status" -eq 0 ]
	[ "$(value 'netpolicy_config_read_ok')" = 0 ]
}

@test "the alert rules use only series netpolicy metrics exports" {
	npsim eno1 set throughput >/dev/null
	run npsim metrics --config "$CONF"
	[ "$status" -eq 0 ]
	exported=$(sed -n 's/^# TYPE \([a-z_]*\) .*/\1/p' <<<"$output" | sort -u)
	used=$(grep -o 'netpolicy_[a-z_]*' "$RULES" | sort -u)
	echo "used: $used"
	[ -n "$used" ]
	for m in $used; do
		grep -qx "$m" <<<"$exported" || { echo "not exported: $m"; false; }
	done
	for m in netpolicy_desired_policy_info netpolicy_policy_info netpolicy_policy_matches \
		netpolicy_interrupted_run netpolicy_confirm_pending; do
		grep -qx "$m" <<<"$used"
	done
}

@test "promtool: the alert rules are valid and pass their unit tests" {
	command -v promtool >/dev/null || skip "promtool not installed (setup.sh installs it from Debian's prometheus package)"
	run promtool check rules "$RULES"
	echo "$output"
	[ "$status" -eq 0 ]
	cd "$NP_SRCDIR/tests/pkg"
	run promtool test rules netpolicy-alerts.test.yml
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *SUCCESS* ]]
}
