# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by the veth benches (try_veth.sh, pm_qos_veth.sh):
#   veth_pair A B NET   namespaces A and B, v0 in A and v1 in B, 8 queues
#                       each, NET.1/24 on v0 and NET.2/24 on v1, both up
#   veth_pair_del A B   the namespaces gone (and with them the pair)
veth_pair() {
	ip netns add "$1"
	ip netns add "$2"
	ip -n "$1" link add v0 numtxqueues 8 numrxqueues 8 type veth peer name v1 \
		numtxqueues 8 numrxqueues 8
	ip -n "$1" link set v1 netns "$2"
	ip -n "$1" addr add "$3.1/24" dev v0
	ip -n "$2" addr add "$3.2/24" dev v1
	ip -n "$1" link set v0 up
	ip -n "$2" link set v1 up
}

veth_pair_del() {
	ip netns del "$1" 2>/dev/null || true
	ip netns del "$2" 2>/dev/null || true
}
