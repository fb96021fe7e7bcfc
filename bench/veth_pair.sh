# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by the veth benches (try_veth.sh, pm_qos_veth.sh, bench_scale.sh,
# compare_builds.sh):
#   veth_pair_up A B Q  namespaces A and B, v0 in A and v1 in B, Q queues
#                       each, both up, no addresses
#   veth_pair A B NET   veth_pair_up with 8 queues, NET.1/24 on v0 and
#                       NET.2/24 on v1
#   veth_pair_del A B   the namespaces gone (and with them the pair)
veth_pair_up() {
	ip netns add "$1"
	ip netns add "$2"
	ip -n "$1" link add v0 numtxqueues "$3" numrxqueues "$3" type veth \
		peer name v1 numtxqueues "$3" numrxqueues "$3" netns "$2"
	ip -n "$1" link set v0 up
	ip -n "$2" link set v1 up
}

veth_pair() {
	veth_pair_up "$1" "$2" 8
	ip -n "$1" addr add "$3.1/24" dev v0
	ip -n "$2" addr add "$3.2/24" dev v1
}

veth_pair_del() {
	ip netns del "$1" 2>/dev/null || true
	ip netns del "$2" 2>/dev/null || true
}
