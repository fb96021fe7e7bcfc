#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A workload for tests/kernel/try.bats whose metric is the device's state:
# "queues N", the receive queues v0 has now (what each policy's channel
# count makes it), so the ranking of the conditions is known in advance.
# With $1 and $2: when v0 has one queue (the cpu policy's condition), write
# this process's pid to the file $1 and sleep $2 seconds (the signal tests
# stop netpolicy then).
n=$(ls -d /sys/class/net/v0/queues/rx-* | wc -l)
echo "queues $n"
if [ -n "$1" ] && [ "$n" = 1 ]; then
	echo $$ >"$1.tmp" && mv "$1.tmp" "$1"
	sleep "$2"
fi
