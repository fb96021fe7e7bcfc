/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policies.  Every value here is documented, with its reason, in
 * netpolicy-policies(7); `netpolicy policies` prints the same reasons.
 */
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "plan/np_policy.h"

/* Drivers that lack adaptive moderation get fixed values in its spirit:
 * fewer interrupts, each carrying more packets. */
static const struct np_coal_value cpu_coal[] = {
	{ NP_COAL_RX_USECS, 200 },
	{ NP_COAL_RX_FRAMES, 128 },
	{ NP_COAL_TX_USECS, 200 },
	{ NP_COAL_TX_FRAMES, 128 },
};

/* Interrupt on the first packet; tx completions only free buffers, so a
 * little batching there costs no request its latency. */
static const struct np_coal_value latency_coal[] = {
	{ NP_COAL_ADAPTIVE_RX, 0 },
	{ NP_COAL_ADAPTIVE_TX, 0 },
	{ NP_COAL_RX_USECS, 0 },
	{ NP_COAL_RX_FRAMES, 1 },
	{ NP_COAL_TX_USECS, 8 },
	{ NP_COAL_TX_FRAMES, 16 },
};

static const struct np_coal_value throughput_coal[] = {
	{ NP_COAL_RX_USECS, 50 },
	{ NP_COAL_RX_FRAMES, 64 },
	{ NP_COAL_TX_USECS, 50 },
	{ NP_COAL_TX_FRAMES, 64 },
};

/* The latency policy with busy polling on for every socket: only for hosts
 * whose latency-critical applications are built for it. */
#define LATENCY_BASE							\
	/* a queue and an IRQ per core: no flow's interrupt waits	\
	 * behind another's */						\
	.core = "channels,irq-affinity",				\
	.channels = NP_CHAN_LOCAL_CORES,				\
	.rings = NP_RING_KEEP,						\
	.adaptive = false,						\
	.coal = latency_coal,						\
	.n_coal = NP_ARRAY_SIZE(latency_coal),				\
	.rps = NP_RPS_OFF,						\
	.rfs_entries = 32768,						\
	.napi = true,							\
	.napi_defer_hard_irqs = 0,					\
	.gro_flush_timeout = 0,						\
	.pm_qos = NP_PMQ_AUTO,						\
	.why_channels = "one queue per physical core on the NIC's NUMA node (scaling.rst: for low latency as many queues as CPUs, and hyperthreads bring no benefit for interrupt handling, so cores): no two flows' interrupts queue behind each other on one core", \
	.why_irq = "one IRQ per physical core, local node first, SMT siblings only when cores run out", \
	.why_coalesce = "adaptive off, rx-usecs 0 and rx-frames 1 (interrupt on the first packet), tx-usecs 8 and tx-frames 16 (completions only free buffers)", \
	.why_rings = "the driver's own size (its pristine value): larger rings only add buffering (bufferbloat)", \
	.why_rss = "the indirection table spread evenly over all queues"

static const struct np_policy policies[] = {
	{
		.name = "cpu",
		/* packing the IRQs onto few cores is what saves the cycles;
		 * fewer queues and moderation refine it */
		.core = "irq-affinity",
		.summary = "fewest CPU cycles and interrupts per byte: few queues, packed IRQs, heavy moderation",
		.channels = NP_CHAN_LINK_SPEED,
		.rings = NP_RING_BURST,
		.adaptive = true,
		.coal = cpu_coal,
		.n_coal = NP_ARRAY_SIZE(cpu_coal),
		.rps = NP_RPS_OFF,
		.rfs_entries = 0,
		.napi = true,
		.napi_defer_hard_irqs = 2,
		.gro_flush_timeout = 200000,
		.why_channels = "about one queue per 10 Gb/s of link speed, at most one per local physical core (each queue costs an IRQ, NAPI context and wakeups; scaling.rst: the most efficient high-rate setup is the fewest queues that do not overflow); link speed unknown: the kernel's default of up to 8",
		.why_irq = "each queue's IRQs on its own core, local NUMA node first, so the few busy cores are the ones near the NIC",
		.why_coalesce = "adaptive moderation where the driver has it, otherwise rx/tx-usecs 200 and rx/tx-frames 128: fewer interrupts per packet",
		.why_rings = "the driver's own size, raised to hold twice the full-size frames a queue's share of the link brings while its interrupt is held back (rx-usecs + gro_flush_timeout), at most the driver's maximum",
		.why_rss = "the indirection table spread evenly over the planned queues, so no entry points at a queue that goes away",
		.why_steering = "XPS maps every CPU to the queue on its own core or node; RPS and RFS off (each steered packet costs an IPI)",
		.why_napi = "napi_defer_hard_irqs 2 and gro_flush_timeout 200 us: NAPI keeps polling briefly instead of re-arming the IRQ",
		.why_buffers = "socket buffer ceilings and the backlog stay as they are (socket-buffers, backlog off)",
	},
	{
		.name = "latency",
		.summary = "lowest per-packet latency: a queue per local core, interrupt at once, RFS to the consuming CPU",
		LATENCY_BASE,
		.why_steering = "XPS per core; RFS on (rps_sock_flow_entries at least 32768, rps_flow_cnt shared over the queues) so a flow is processed where its socket is read, accelerated RFS where the driver has it; no RPS (an extra IPI hop)",
		.why_napi = "no NAPI deferral (napi_defer_hard_irqs 0, gro_flush_timeout 0); the global busy_poll/busy_read sysctls stay as they are: they make every poll/epoll application on the machine spin (see busy-poll)",
		.why_buffers = "socket buffer ceilings and the backlog stay as they are (socket-buffers, backlog off)",
	},
	{
		.name = "busy-poll",
		.summary = "latency, plus busy polling for every socket (net.core.busy_poll/busy_read 50 us): for hosts whose applications are built for it",
		LATENCY_BASE,
		.busy_poll = 50,
		.busy_read = 50,
		.why_steering = "as latency",
		.why_napi = "as latency, and net.core.busy_poll/busy_read 50 us (the kernel's sysctl documentation suggests 50 for a few sockets): sockets poll the queue instead of waiting for its IRQ; never on a 1-CPU machine",
		.why_buffers = "socket buffer ceilings and the backlog stay as they are (socket-buffers, backlog off)",
	},
	{
		.name = "throughput",
		/* parallel queues, each on its own core */
		.core = "channels,irq-affinity",
		.summary = "most bytes per second: a queue per local core, adaptive moderation, RFS",
		.channels = NP_CHAN_LOCAL_CORES,
		.rings = NP_RING_BURST,
		.adaptive = true,
		.coal = throughput_coal,
		.n_coal = NP_ARRAY_SIZE(throughput_coal),
		.rps = NP_RPS_FEW_QUEUES,
		.rfs_entries = 32768,
		.napi = false,
		.sockbuf = NP_CEIL_AUTO,
		.backlog = NP_CEIL_AUTO,
		.why_channels = "one queue per physical core on the NIC's NUMA node (scaling.rst: hyperthreads bring no benefit for interrupt handling; remote nodes cost interconnect traffic)",
		.why_irq = "one IRQ per core, local node first, then remote, SMT siblings last",
		.why_coalesce = "adaptive moderation where the driver has it, otherwise rx/tx-usecs 50 and rx/tx-frames 64",
		.why_rings = "the driver's own size, raised to hold twice the full-size frames a queue's share of the link brings in one rx-usecs interval, at most the driver's maximum (larger rings spill out of the cache DDIO writes into)",
		.why_rss = "the indirection table spread evenly over all queues",
		.why_steering = "XPS per core; RFS on (rps_sock_flow_entries at least 32768), accelerated RFS where the driver has it; RPS only when the NIC cannot have a queue per local core, each queue's mask its core's siblings, then its package, then its node",
		.why_napi = "the device's own (pristine) values",
		.why_buffers = "net.core.rmem_max/wmem_max and the max of net.ipv4.tcp_rmem/tcp_wmem raised to twice the bandwidth-delay product of one flow at link speed over rtt-us (250 us, a data centre round trip; twice: TCP advertises about half its buffer space as window, ip-sysctl.rst tcp_adv_win_scale), never lowered; net.core.netdev_max_backlog raised, where RPS is planned, to the full-size frames one queue's share of the link brings in 2 ms (netdev_budget_usecs, the longest softirq round); netdev_budget left alone",
	},
	{
		.name = "mixed",
		/* the classes are the queue split, its IRQs, and the rules and
		 * contexts that steer flows to them: without any of them a
		 * latency flow lands behind bulk traffic */
		.core = "channels,irq-affinity,rss,rss-context,ntuple",
		.summary = "latency and bulk traffic side by side: flows (--flow CLASS:SPEC) steered to per-class queues, CPUs and RSS contexts",
		.mixed = true,
		.pm_qos = NP_PMQ_AUTO,	/* the latency class's CPUs */
		.channels = NP_CHAN_LOCAL_CORES,
		.rings = NP_RING_BURST,
		.adaptive = true,
		.coal = throughput_coal,
		.n_coal = NP_ARRAY_SIZE(throughput_coal),
		.rps = NP_RPS_OFF,
		.rfs_entries = 0,
		.napi = false,
		/* for the bulk class: a ceiling, which the latency class's
		 * sockets, at their defaults, never reach */
		.sockbuf = NP_CEIL_AUTO,
		.why_channels = "one queue per physical core on the NIC's NUMA node, split into one contiguous range per class by weight (latency 1, throughput 2, cpu 1; NET policy's MIX gave latency a third), each class at least one: ADQ's queue groups",
		.why_irq = "each class on whole cores of its own, local node first, a queue's IRQ on one of its class's cores, so a latency core's SMT sibling carries no bulk work when there are cores enough",
		.why_coalesce = "per class where the driver has per-queue coalescing: each class's queues its own policy's values; device-wide the default class's policy's (without per-queue coalescing it favours the default class, a note says so)",
		.why_rings = "as throughput: the driver's own size, raised to hold a queue's share of the link for one rx-usecs interval",
		.why_rss = "the main indirection table over the default class's queues only; an RSS context per other class over its queues where the driver has contexts",
		.why_steering = "ntuple rules steer each class's flows to its RSS context (or, without contexts, to one of its queues); XPS per class, and xps_rxqs for the latency class so a socket sends on the queue pair it receives on; RPS and RFS off (RFS would move flows off their class's CPUs, accelerated RFS adds filters of its own)",
		.why_napi = "per class where the kernel has per-NAPI config (napi-set, 6.13): the latency class the latency policy's (no deferral), the cpu class the cpu policy's, the throughput class the device's own values; else one device-wide value, the default class's; threaded NAPI kthreads on their class's CPUs",
		.why_buffers = "for the bulk (throughput) class, where the plan has one, as throughput: net.core.rmem_max/wmem_max and the max of net.ipv4.tcp_rmem/tcp_wmem raised to twice the bandwidth-delay product of one flow at link speed over rtt-us, never lowered; only ceilings, so the latency class's sockets, which stay at the defaults, are untouched; the backlog stays as it is (RPS is off)",
	},
};

size_t np_policy_count(void)
{
	return NP_ARRAY_SIZE(policies);
}

const struct np_policy *np_policy_at(size_t i)
{
	return i < NP_ARRAY_SIZE(policies) ? &policies[i] : NULL;
}

const char *np_policy_name(const struct np_policy *p)
{
	return p->name;
}

int np_policy_lookup(const char *name, const struct np_policy **ret, struct np_error *err)
{
	char names[128] = "";

	for (size_t i = 0; i < NP_ARRAY_SIZE(policies); i++) {
		if (!strcmp(policies[i].name, name)) {
			*ret = &policies[i];
			return 0;
		}
		if (i)
			strncat(names, ", ", sizeof(names) - strlen(names) - 1);
		strncat(names, policies[i].name, sizeof(names) - strlen(names) - 1);
	}
	return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "unknown policy '%s' (valid: %s)", name,
		      names);
}

int np_policies_to_json(struct json_object **ret)
{
	struct json_object *arr = json_object_new_array();

	if (!arr)
		return -ENOMEM;
	for (size_t i = 0; i < NP_ARRAY_SIZE(policies); i++) {
		const struct np_policy *p = &policies[i];
		struct json_object *o = json_object_new_object(), *why = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(p->name));
		json_object_object_add(o, "summary", json_object_new_string(p->summary));
		json_object_object_add(why, "channels", json_object_new_string(p->why_channels));
		json_object_object_add(why, "irq-affinity", json_object_new_string(p->why_irq));
		json_object_object_add(why, "coalesce", json_object_new_string(p->why_coalesce));
		json_object_object_add(why, "rings", json_object_new_string(p->why_rings));
		json_object_object_add(why, "rss", json_object_new_string(p->why_rss));
		json_object_object_add(why, "steering", json_object_new_string(p->why_steering));
		json_object_object_add(why, "napi", json_object_new_string(p->why_napi));
		json_object_object_add(why, "buffers", json_object_new_string(p->why_buffers));
		json_object_object_add(o, "sets", why);
		json_object_object_add(o, "core", json_object_new_string(p->core));
		json_object_array_add(arr, o);
	}
	*ret = arr;
	return 0;
}
