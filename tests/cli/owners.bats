#!/usr/bin/env bats
# Other-owner detection against hostile or unusual configuration, below
# --root: every file read once, includes and lines bounded, systemd's
# masking and symlinks as udev sees them, long lines skipped whole.

load ../helpers
bats_require_minimum_version 1.5.0

setup() {
	np_tmpdir
	np_model mlx5-2s64c
	DEV=$(jq -r '.devices[0].ifname' "$MODEL")
	ROOT=$NP_TMP/root
	mkdir -p "$ROOT/proc/200" "$ROOT/proc/100" "$ROOT/run/tuned" \
		"$ROOT/run/NetworkManager" "$ROOT/etc/tuned" "$ROOT/etc/systemd/network" \
		"$ROOT/usr/lib/systemd/network" "$ROOT/etc/NetworkManager/system-connections"
	# tuned and NetworkManager running, found by their pid files
	echo tuned >"$ROOT/proc/200/comm"
	echo 200 >"$ROOT/run/tuned/tuned.pid"
	echo NetworkManager >"$ROOT/proc/100/comm"
	echo 100 >"$ROOT/run/NetworkManager/NetworkManager.pid"
}
teardown() { np_cleanup_tmp; }

# --root is the test build's (tests/netpolicy-test)
npr() { "$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" --model "$MODEL" --root "$ROOT" "$@"; }

owners() {	# the other owners show --json reports: [[owner, source, knobs]]
	run npr --json "$DEV" show
	[ "$status" -eq 0 ]
	OWNERS=$(jq -c '[.other_owners[] | [.owner, .source, (.knobs | join(","))]]' <<<"$output")
	echo "$OWNERS"
}

@test "tuned: a profile that includes itself 13 times is read once, and still tells" {
	mkdir -p "$ROOT/etc/tuned/loop"
	echo loop >"$ROOT/etc/tuned/active_profile"
	printf '[main]\ninclude=%s\n[my_net]\ntype=net\nchannels=combined 4\n' \
		"$(printf 'loop,%.0s' {1..12})loop" >"$ROOT/etc/tuned/loop/tuned.conf"
	# before: each include read again to depth 8, 13^8 reads (never ends)
	# LeakSanitizer cannot run under ptrace: leaks are checked by every other test
	ASAN_OPTIONS=detect_leaks=0 run timeout 120 strace -f -e trace=openat -o "$NP_TMP/trace" \
		"$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" --model "$MODEL" --root "$ROOT" \
		--json "$DEV" show
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.other_owners[] | [.owner, (.knobs | join(","))]]' <<<"$output")" = '[["tuned","channels"]]' ]
	[ "$(grep -c 'etc/tuned/loop/tuned.conf' "$NP_TMP/trace")" -eq 1 ]
}

@test "tuned: profiles that include each other are each read once" {
	mkdir -p "$ROOT/etc/tuned/a" "$ROOT/etc/tuned/b"
	echo a >"$ROOT/etc/tuned/active_profile"
	printf '[main]\ninclude=b,b\n' >"$ROOT/etc/tuned/a/tuned.conf"
	printf '[main]\ninclude=a,b\n[n]\ntype=net\ndevices=%s\nring=rx 512\n' "$DEV" \
		>"$ROOT/etc/tuned/b/tuned.conf"
	ASAN_OPTIONS=detect_leaks=0 run strace -f -e trace=openat -o "$NP_TMP/trace" \
		"$NETPOLICY_TEST_BIN" --state-dir "$STATE_DIR" --model "$MODEL" --root "$ROOT" \
		--json "$DEV" show
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.other_owners[] | .knobs[]]' <<<"$output")" = '["rings"]' ]
	[ "$(grep -c 'etc/tuned/a/tuned.conf' "$NP_TMP/trace")" -eq 1 ]
	[ "$(grep -c 'etc/tuned/b/tuned.conf' "$NP_TMP/trace")" -eq 1 ]
}

@test ".link: a symlink to /dev/null in /etc masks /usr/lib's file of that name" {
	printf '[Match]\nOriginalName=%s\n[Link]\nCombinedChannels=4\n' "$DEV" \
		>"$ROOT/usr/lib/systemd/network/10-nic.link"
	owners
	[ "$OWNERS" = '[["systemd.link","/usr/lib/systemd/network/10-nic.link","channels"]]' ]
	ln -s /dev/null "$ROOT/etc/systemd/network/10-nic.link"
	owners
	[ "$OWNERS" = '[]' ]
}

@test ".link: a symlinked file is read as udev reads it" {
	mkdir -p "$ROOT/srv"
	printf '[Match]\nOriginalName=%s\n[Link]\nRxBufferSize=4096\n' "$DEV" >"$ROOT/srv/nic.link"
	ln -s ../../../srv/nic.link "$ROOT/etc/systemd/network/20-nic.link"
	owners
	[ "$OWNERS" = '[["systemd.link","/etc/systemd/network/20-nic.link","rings"]]' ]
	# a dangling one is nothing: it hides nothing either
	printf '[Match]\nOriginalName=%s\n[Link]\nCombinedChannels=2\n' "$DEV" \
		>"$ROOT/usr/lib/systemd/network/30-nic.link"
	rm "$ROOT/srv/nic.link"
	ln -s ../../../srv/gone.link "$ROOT/etc/systemd/network/30-nic.link"
	owners
	[ "$OWNERS" = '[["systemd.link","/usr/lib/systemd/network/30-nic.link","channels"]]' ]
}

@test "NetworkManager: a line longer than 1023 bytes is skipped whole, not read as a key" {
	# a connection of another device; its comment's tail after 1023 bytes
	# reads like interface-name= of this one
	{
		printf '[connection]\nid=other\ninterface-name=other0\n'
		printf '#%s' "$(head -c 1022 /dev/zero | tr '\0' x)"
		printf 'interface-name=%s\n' "$DEV"
		printf '[ethtool]\nring-rx=1024\n'
	} >"$ROOT/etc/NetworkManager/system-connections/other.nmconnection"
	owners
	[ "$OWNERS" = '[]' ]
	# a line of 1023 bytes is still read
	{
		printf '[connection]\nid=mine\n'
		printf 'interface-name=%s\n' "$DEV"
		printf '#%s\n' "$(head -c 1022 /dev/zero | tr '\0' x)"
		printf '[ethtool]\nring-rx=1024\n'
	} >"$ROOT/etc/NetworkManager/system-connections/mine.nmconnection"
	owners
	[ "$OWNERS" = '[["NetworkManager","/etc/NetworkManager/system-connections/mine.nmconnection","rings"]]' ]
}
