#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Two builds of netpolicy side by side on this machine, in one run: is a
# commit slower than another?  Ratios against ethtool -l move with the
# machine (what a page fault, a syscall or a process start costs); two
# builds timed in the same interleaved rounds on the same device do not.
#
# On a veth pair with 64 rx/tx queues (v0 in a namespace made here, v1 in a
# second; both deleted on exit), interleaved rounds of:
#   - `show --json` of each build, `ethtool -l`, and np_bench_queue_files
#     (the per-queue sysfs files alone) when given;
#   - `set throughput` of each build;
# each from the pristine device (both builds' `reset`, untimed, before
# every command), each build with a state directory of its own on a tmpfs,
# and the two builds first in turn.
# Prints the medians (and minimums) and each build's ratio to the first.
#
# Usage: compare_builds.sh [--runs N] [--queue-files PATH] NETPOLICY_A NETPOLICY_B
# Root only.  Needs ip and ethtool.  See bench/README.md.
set -euo pipefail

# shellcheck source=veth_pair.sh
. "$(dirname "$(realpath "$0")")/veth_pair.sh"

# the copy run inside the namespace gets the values from the environment
RUNS=${RUNS:-21}
QF=${QF:-}
QUEUES=64

die() {
	echo "compare_builds: $*" >&2
	exit 1
}

# median and minimum of the numbers given
stats() {
	printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)], a[1] }'
}

# untimed: the device back to pristine, whichever build changed it last;
# after a change, a pause for the kernel's deferred work (the link watcher
# sends a veth's carrier events up to a second after its channel change),
# which would otherwise fall in the next command's time
to_pristine() {
	local b out changed=

	for b in a b; do
		out=$("${NP[$b]}" --state-dir "$W/$b" v0 reset 2>&1) || die "build $b: reset failed: $out"
		[[ $out != *": reset: changed "* ]] || changed=1
	done
	[ -z "$changed" ] || sleep 1.2
}

inside() {
	local i name s e
	local -A t=()
	local -a names

	for ((i = 0; i < RUNS + 2; i++)); do
		# the two builds in turn first: what runs just after a change
		# (the kernel's deferred work of a channel change) is not always
		# the same build's
		if ((i % 2)); then
			names=(ethtool_l show_b show_a set_b set_a)
		else
			names=(ethtool_l show_a show_b set_a set_b)
		fi
		[ -z "$QF" ] || names=(queue_files "${names[@]}")
		for name in "${names[@]}"; do
			# every command from the pristine device
			to_pristine
			s=${EPOCHREALTIME/./}
			case $name in
			ethtool_l) ethtool -l v0 >/dev/null ;;
			queue_files) "$QF" v0 >/dev/null ;;
			show_*) "${NP[${name#show_}]}" --state-dir "$W/${name#show_}" --json v0 show >/dev/null ;;
			set_*) "${NP[${name#set_}]}" --state-dir "$W/${name#set_}" v0 set throughput >/dev/null ;;
			esac || die "$name failed"
			e=${EPOCHREALTIME/./}
			((i < 2)) || t[$name]+="$((e - s)) "
		done
	done
	to_pristine
	# shellcheck disable=SC2086 # the lists of numbers
	for name in "${!t[@]}"; do
		echo "$name $(stats ${t[$name]})"
	done
}

report() {
	awk -v a="$1" -v b="$2" '
		{ med[$1] = $2; min[$1] = $3 }
		function row(what, n, ref) {
			printf "%-34s %8.2f ms %8.2f ms  %5.2f  %5.2f\n", what, med[n] / 1000, min[n] / 1000,
				med[n] / med["ethtool_l"], med[n] / med[ref]
		}
		END {
			printf "%-34s %11s %11s  %5s  %5s\n", "median of the rounds (minimum)", "median", "minimum", "/ethl", "/A"
			printf "%-34s %8.2f ms %8.2f ms\n", "ethtool -l v0", med["ethtool_l"] / 1000, min["ethtool_l"] / 1000
			if ("queue_files" in med)
				printf "%-34s %8.2f ms %8.2f ms  %5.2f\n", "queue files alone", med["queue_files"] / 1000,
					min["queue_files"] / 1000, med["queue_files"] / med["ethtool_l"]
			row("show --json, A", "show_a", "show_a")
			row("show --json, B", "show_b", "show_a")
			row("set throughput, A", "set_a", "set_a")
			row("set throughput, B", "set_b", "set_a")
			printf "A: %s\nB: %s\n", a, b
		}' "$W/figures"
}

main() {
	local ns peer

	while [ $# -gt 2 ]; do
		case $1 in
		--runs) RUNS=$2; shift ;;
		--queue-files) QF=$(realpath "$2"); shift ;;
		*) die "unknown argument '$1' (see the top of $0)" ;;
		esac
		shift
	done
	[ $# -eq 2 ] || die "usage: $0 [--runs N] [--queue-files PATH] NETPOLICY_A NETPOLICY_B"
	[ "$(id -u)" = 0 ] || die "needs root (it makes network namespaces)"
	A=$(realpath "$1")
	B=$(realpath "$2")
	{ [ -x "$A" ] && [ -x "$B" ]; } || die "both builds must be executables"
	W=$(mktemp -d /tmp/np-compare.XXXXXX)
	ns=npcmp-$$
	peer=npcmp-peer-$$
	trap 'ip netns del "'"$ns"'" 2>/dev/null || true; ip netns del "'"$peer"'" 2>/dev/null || true;
		umount "$W/a" "$W/b" 2>/dev/null || true; rm -rf "$W"' EXIT
	trap 'exit 130' INT TERM
	mkdir -m 0700 "$W/a" "$W/b"
	mount -t tmpfs -o mode=0700,size=16m np-cmp-a "$W/a"
	mount -t tmpfs -o mode=0700,size=16m np-cmp-b "$W/b"
	veth_pair_up "$ns" "$peer" "$QUEUES"
	export A B W RUNS QF
	ip netns exec "$ns" "$BASH" "$0" --inside >"$W/figures"
	report "$A" "$B"
}

if [ "${1:-}" = --inside ]; then
	declare -A NP=([a]=$A [b]=$B)
	inside
else
	main "$@"
fi
