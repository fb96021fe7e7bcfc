#!/usr/bin/env bats
# Command-line contract: usage errors, exit codes, help, version.  No device
# is touched.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

@test "--version prints the version" {
	run "$NETPOLICY" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^netpolicy\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "--help lists every command and exits 0" {
	run "$NETPOLICY" --help
	[ "$status" -eq 0 ]
	for c in show set reset check confirm policies; do
		[[ "$output" == *" $c "* ]]
	done
	[[ "$output" != *__revert* ]]
}

@test "no command is a usage error (exit 2)" {
	run "$NETPOLICY"
	[ "$status" -eq 2 ]
	[[ "$output" == "netpolicy: no command given"* ]]
}

@test "unknown command is a usage error naming it" {
	run "$NETPOLICY" eth0 frobnicate
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown command 'frobnicate'"* ]]
}

@test "unknown option is a usage error" {
	run "$NETPOLICY" --bogus show
	[ "$status" -eq 2 ]
}

@test "a device name with a slash is refused before anything is read (exit 2)" {
	# LeakSanitizer cannot run under ptrace: leaks are checked by every other test
	ASAN_OPTIONS=detect_leaks=0 run strace -f -e trace=openat,socket -o "$NP_TMP/trace" "$NETPOLICY" ../x show
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid device name '../x'"* ]]
	# nothing under /sys or /proc was opened (a sanitizer runtime reading
	# /proc/self is not netpolicy), no netlink socket made
	! grep -E 'openat\(.*"/(sys|proc)/' "$NP_TMP/trace" | grep -v '"/proc/self/' || false
	! grep -E 'socket\(AF_NETLINK' "$NP_TMP/trace" || false
}

@test "a 40-character device name is refused (exit 2)" {
	run "$NETPOLICY" aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa show
	[ "$status" -eq 2 ]
	[[ "$output" == *"longer than 15 characters"* ]]
	[ "${#lines[@]}" -eq 1 ]
}

@test "'.' and '..' are not device names" {
	run "$NETPOLICY" .. show
	[ "$status" -eq 2 ]
	run "$NETPOLICY" . show
	[ "$status" -eq 2 ]
}

@test "a missing device is an error (exit 1) in one line naming it" {
	run "$NETPOLICY" npnosuch0 show
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "netpolicy: npnosuch0: no such device" ]]
}

@test "unknown policy: exit 2, the valid names listed" {
	run "$NETPOLICY" npnosuch0 set fastest --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown policy 'fastest' (valid: cpu, latency, busy-poll, throughput, mixed)"* ]]
}

@test "set without a policy is a usage error" {
	run "$NETPOLICY" npnosuch0 set
	[ "$status" -eq 2 ]
}

@test "an option a command does not take is refused" {
	run "$NETPOLICY" npnosuch0 show --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"show: option --dry-run does not apply"* ]]
	run "$NETPOLICY" npnosuch0 reset --cpus 0
	[ "$status" -eq 2 ]
}

@test "--confirm takes a number of seconds" {
	run "$NETPOLICY" npnosuch0 set cpu --confirm soon
	[ "$status" -eq 2 ]
	[[ "$output" == *"--confirm: 'soon' is not a number of seconds"* ]]
	run "$NETPOLICY" npnosuch0 set cpu --confirm 0
	[ "$status" -eq 2 ]
}

@test "policies lists each policy with what it sets" {
	run "$NETPOLICY" policies
	[ "$status" -eq 0 ]
	for p in cpu latency busy-poll throughput mixed; do
		[[ "$output" == *$'\n'"$p"$'\n'* || "$output" == "$p"$'\n'* ]]
	done
	for k in channels irq-affinity coalesce rings rss steering napi; do
		[ "$(grep -c "^  $k " <<<"$output")" -eq 5 ]
	done
}

@test "policies: within 80 columns, the reasons continued under their column, values whole" {
	"$NETPOLICY" policies >"$NP_TMP/p"
	run awk 'length > 80 { print length ": " $0; n++ } END { exit n > 0 }' "$NP_TMP/p"
	echo "$output"
	[ "$status" -eq 0 ]
	# a reason's continuation is under the reason, not a knob of its own
	[ -z "$(grep -vE '^(|[a-z-]+|  [^ ].*|                [^ ].*|    [^ ].*|                               [^ ].*)$' "$NP_TMP/p")" ]
	# mixed's core list whole (it was cut at 39 characters)
	grep -q '= channels,irq-affinity,rss,rss-context,ntuple$' "$NP_TMP/p"
}

@test "policies --json is one document naming the same policies" {
	run "$NETPOLICY" --json policies
	[ "$status" -eq 0 ]
	[ "$(jq -r '.policies[].name' <<<"$output" | tr '\n' ' ')" = "cpu latency busy-poll throughput mixed " ]
	[ "$(jq '.policies[0].sets | keys | length' <<<"$output")" -eq 8 ]
}

@test "reset of a device netpolicy never changed writes nothing" {
	# as another user netpolicy refuses before looking (the ordinary-user test below)
	[ "$(id -u)" -eq 0 ] || skip "needs root: an ordinary user is refused first"
	run "$NETPOLICY" --state-dir "$STATE_DIR" npnosuch0 reset --json
	[ "$status" -eq 0 ]
	[ "$(jq .changed <<<"$output")" = false ]
}

@test "confirm without a tentative change is an error" {
	# as another user netpolicy refuses before looking (the ordinary-user test below)
	[ "$(id -u)" -eq 0 ] || skip "needs root: an ordinary user is refused first"
	run "$NETPOLICY" --state-dir "$STATE_DIR" npnosuch0 confirm
	[ "$status" -ne 0 ]
	[[ "$output" == *"no tentative change to confirm"* ]]
}

@test "set as an ordinary user: one line saying root is needed, exit 1" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run a command as another user"
	command -v setpriv >/dev/null || skip "setpriv not installed"
	dev=$(ls /sys/class/net | grep -v '^lo$' | head -1)
	[ -n "$dev" ] || skip "no network device to name"
	# a copy the other user can reach whatever the checkout's permissions
	chmod 755 "$NP_TMP"
	cp "$NETPOLICY" "$NP_TMP/np"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$NP_TMP/np" \
		--state-dir "$NP_TMP/state" "$dev" set throughput
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "netpolicy: $dev: changing a device needs root (nothing was changed)" ]]
	# but reading is fine, and a dry run too
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$NP_TMP/np" "$dev" set throughput --dry-run
	[ "$status" -eq 0 ]
}
