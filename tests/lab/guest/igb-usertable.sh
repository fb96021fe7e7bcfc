# igb (6.12, QEMU 10, 4 vCPUs) from a user-set RSS table (issue 22 item 2).
# At 4 channels `ethtool -X IF equal 3` sets the kernel's "user-configured"
# flag and leaves queue 3 out of the table; while the flag is set the core
# refuses a channel count the table does not fit (`ethtool -L combined 2`).
# latency and throughput keep the 4 channels and spread the table over all
# of them; cpu shrinks the channels, which the core allows only after the
# table fits the new count, so the engine must write the table first.
# After each: the `set --json` report is what the kernel shows changed,
# check passes, a second set changes nothing.  Reset writes the user's
# table back (a table write, since it was not the driver's own), every
# reading is as before, and the kernel behaves as before: `-L combined 2` is
# still refused for the table (a reset that wrote "driver default" instead
# would clear the flag and let it pass), until `-X default` clears it.
. /lab/lib.sh

IF=$(nic igb) && pass "igb NIC $IF" || { fail "no igb NIC"; finish; }
ip link set "$IF" up
# shrink_refused: `ethtool -L IF combined 2` is refused as the user's table
# makes the core refuse it; if it is not, the channels are put back
shrink_refused() {
	if ethtool -L "$IF" combined 2 2>/tmp/shrink.err; then
		fail "$IF $1: ethtool -L combined 2 was taken with the user's table over queues 0-2"
		ethtool -L "$IF" combined 4
		carrier "$IF"
		ethtool -X "$IF" equal 3
	else
		pass "$IF $1: ethtool -L combined 2 refused ($(head -c 100 /tmp/shrink.err | tr '\n' ' '))"
	fi
}

ethtool -L "$IF" combined 4 || fail "ethtool -L $IF combined 4"
carrier "$IF"
ok "$IF: user table equal 3" ethtool -X "$IF" equal 3
user=$(rss_table "$IF")
is "$user" "$(spread 128 3)" "$IF: the user's table is i % 3"
shrink_refused "before netpolicy"
snapshot "$IF" /tmp/pristine
ethtool_text "$IF" >/tmp/ethtool.pristine
for P in latency throughput cpu; do
	diag "$IF from a user table over 0-2: set $P"
	set_reported "$IF" "$P" /tmp/pristine
	n=$(ethtool -l "$IF" | awk '/^Combined:/ { v = $2 } END { print v }')
	is "$(rss_table "$IF")" "$(spread 128 "$n")" "$IF $P: the table is even over the $n channels"
	reset_bounced "$IF" /tmp/pristine /tmp/ethtool.pristine
	is "$(rss_table "$IF")" "$user" "$IF $P: reset wrote the user's table back"
	is "$(jq '[.steps[] | select(.knob == "rss")] | length' /tmp/np-reset.json)" 1 \
		"$IF $P: the reset reports its one table write"
	shrink_refused "after set $P and reset"
done
# the flag was left as the user had it: only a "default" write clears it,
# and then the shrink the table prevented is taken
ok "$IF: ethtool -X default" ethtool -X "$IF" default
ok "$IF: ethtool -L combined 2 once the user's table is gone" ethtool -L "$IF" combined 2
finish
