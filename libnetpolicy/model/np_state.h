/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The discovered state of one NIC and of the machine around it.  Filled once
 * by a backend's discover(); afterwards treated as immutable.  A plan's target
 * is a copy of it with the policy's values written in, so the same differ
 * serves apply (state -> target) and rollback (current -> pristine snapshot).
 *
 * Every knob carries `err`: 0 when the kernel answered, else the negative
 * errno it gave (-EOPNOTSUPP: the driver lacks it).  Values of a knob with
 * err != 0 are meaningless and are never planned.
 */
#ifndef NP_STATE_H
#define NP_STATE_H

#include <linux/ethtool.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/np_pm.h"
#include "util/np_cpumask.h"

/* --- machine topology ---------------------------------------------------- */

struct np_cpu {
	int core_id;		/* topology/core_id (only unique within a package) */
	int package_id;		/* topology/physical_package_id */
	int node;		/* NUMA node, 0 when the machine has none */
	int core;		/* machine-wide index of the physical core, dense from 0 */
	int thread;		/* 0 for the first SMT sibling of its core, 1.. for the others */
	/* Machine-wide indexes, dense from 0 in the order of each domain's
	 * first online CPU, of the CPUs sharing its last-level cache (the
	 * highest-level unified cache in cpuN/cache/) and of its cluster
	 * (topology/cluster_cpus_list); -1 unknown.  Only meaningful while
	 * np_topology.nr_llcs (nr_clusters) is not 0: see np_cpu_llc(). */
	int llc;
	int cluster;
	bool online;
};

struct np_topology {
	unsigned nr_cpus;		/* highest possible CPU + 1 */
	struct np_cpu *cpus;		/* nr_cpus entries (offline/impossible ones zeroed, online false) */
	struct np_cpumask possible, online, isolated, nohz_full;
	unsigned nr_nodes;		/* highest node id + 1 (1 on a machine without NUMA) */
	struct np_cpumask *node_cpus;	/* nr_nodes entries: online CPUs of each node */
	unsigned nr_cores;		/* physical cores (distinct package,core_id) among online CPUs */
	unsigned nr_packages;
	/* Last-level caches and clusters among online CPUs: 0 unknown (some
	 * online CPU's files are missing), and then every llc (cluster) is -1
	 * and the planner behaves as on a machine that reports none. */
	unsigned nr_llcs;
	unsigned nr_clusters;
	bool smt;			/* some core has more than one online thread */
};

/* The LLC (llc) or cluster index of an online CPU, -1 when the topology
 * has none. */
static inline int np_cpu_domain(const struct np_topology *t, unsigned cpu, bool llc)
{
	int d;

	if (!(llc ? t->nr_llcs : t->nr_clusters) || cpu >= t->nr_cpus)
		return -1;
	d = llc ? t->cpus[cpu].llc : t->cpus[cpu].cluster;
	return d >= 0 && (unsigned)d < (llc ? t->nr_llcs : t->nr_clusters) ? d : -1;
}

static inline int np_cpu_llc(const struct np_topology *t, unsigned cpu)
{
	return np_cpu_domain(t, cpu, true);
}

/* --- NIC knobs ------------------------------------------------------------ */

struct np_channels {
	int err;
	uint32_t rx, tx, other, combined;
	uint32_t max_rx, max_tx, max_other, max_combined;
	bool fixed;		/* reported, but the driver has no setter (probed) */
};

struct np_rings {
	int err;
	uint32_t rx, rx_mini, rx_jumbo, tx;
	uint32_t max_rx, max_rx_mini, max_rx_jumbo, max_tx;
	bool fixed;		/* reported, but the driver has no setter (probed) */
};

/* The sizes of a ring request, as a step's field bits (plan/knob/rings.c). */
enum np_ring_field { NP_RING_RX, NP_RING_RX_MINI, NP_RING_RX_JUMBO, NP_RING_TX, NP_RING__COUNT };

/* Same order as the ethtool netlink COALESCE attributes (RX_USECS = 0). */
enum np_coal_field {
	NP_COAL_RX_USECS,
	NP_COAL_RX_FRAMES,
	NP_COAL_RX_USECS_IRQ,
	NP_COAL_RX_FRAMES_IRQ,
	NP_COAL_TX_USECS,
	NP_COAL_TX_FRAMES,
	NP_COAL_TX_USECS_IRQ,
	NP_COAL_TX_FRAMES_IRQ,
	NP_COAL_STATS_BLOCK_USECS,
	NP_COAL_ADAPTIVE_RX,
	NP_COAL_ADAPTIVE_TX,
	NP_COAL_PKT_RATE_LOW,
	NP_COAL_RX_USECS_LOW,
	NP_COAL_RX_FRAMES_LOW,
	NP_COAL_TX_USECS_LOW,
	NP_COAL_TX_FRAMES_LOW,
	NP_COAL_PKT_RATE_HIGH,
	NP_COAL_RX_USECS_HIGH,
	NP_COAL_RX_FRAMES_HIGH,
	NP_COAL_TX_USECS_HIGH,
	NP_COAL_TX_FRAMES_HIGH,
	NP_COAL_SAMPLE_INTERVAL,
	NP_COAL_CQE_MODE_TX,
	NP_COAL_CQE_MODE_RX,
	NP_COAL__COUNT
};

/* ethtool's words: "rx-usecs", "adaptive-rx", ... */
const char *np_coal_field_name(enum np_coal_field f);
/* -1 when unknown */
int np_coal_field_lookup(const char *name);

struct np_coalesce {
	int err;
	uint32_t supported;	/* bit f set: the driver reports field f */
	uint32_t fixed;		/* ... but cannot change it on this device (a quirk) */
	uint32_t val[NP_COAL__COUNT];
	/* Per-queue coalescing (ETHTOOL_PERQUEUE with ETHTOOL_G/SCOALESCE, an
	 * ioctl only: ethtool netlink has no per-queue coalescing, see
	 * Documentation/networking/ethtool-netlink.rst, COALESCE_GET/SET):
	 * the fields each queue has its own value of (np_rxq.coal), read
	 * only for drivers whose np_drivers.h entry has perqueue_coalesce.
	 * 0: the device has none, or it was not read. */
	uint32_t per_queue;
};

#define NP_FEATURE_NAME_LEN 32
struct np_feature {
	char name[NP_FEATURE_NAME_LEN];	/* "rx-ntuple-filter", "rx-hashing", ... */
	bool wanted, active, fixed;	/* fixed: the driver cannot change it */
};

struct np_features {
	int err;
	unsigned n;
	struct np_feature *v;
};

struct np_rss {
	int err;
	uint32_t indir_size;	/* 0: no table */
	uint32_t *indir;	/* indir_size queue numbers */
	uint32_t key_size;
	uint8_t *key;
	uint32_t hfunc;		/* ETH_RSS_HASH_* bit of the active function, 0 unknown */
	uint32_t rx_rings;	/* ETHTOOL_GRXRINGS: queues RSS may spread over */
};

struct np_link {
	int err;
	uint32_t speed;		/* Mb/s, 0 unknown */
	uint8_t duplex;		/* DUPLEX_HALF/FULL/UNKNOWN */
	bool carrier;
};

struct np_rxq {
	int rps_err, flow_err;
	struct np_cpumask rps_cpus;
	uint32_t rps_flow_cnt;
	/* this queue's coalescing (the np_coalesce.per_queue fields; the
	 * queue's interrupt vector serves rx and tx queue N on the drivers
	 * that have it: ice_get_per_q_coalesce() reads q_vector of ring N) */
	uint32_t coal[NP_COAL__COUNT];
};

struct np_txq {
	int xps_err, xps_rxqs_err;
	struct np_cpumask xps_cpus;
	struct np_cpumask xps_rxqs;	/* a bitmap of rx queues, not CPUs */
};

enum np_irq_kind { NP_IRQ_TXRX, NP_IRQ_RX, NP_IRQ_TX, NP_IRQ_OTHER };

/* Where an IRQ's kind and queue came from: the kernel's NAPI of a queue
 * (netdev napi-get irq, queue-get napi-id), the driver's name for it, or
 * nothing (the device's vector, which neither ties to a queue). */
enum np_irq_source { NP_IRQ_SRC_NAME, NP_IRQ_SRC_KERNEL, NP_IRQ_SRC_NONE };

struct np_irq {
	unsigned irq;
	char name[64];		/* as in /proc/interrupts */
	enum np_irq_kind kind;
	int queue;		/* queue (channel) index it serves, -1 for other */
	enum np_irq_source source;
	uint32_t napi_id;	/* the NAPI it was tied by (source KERNEL), else 0 */
	int err;		/* reading smp_affinity_list */
	struct np_cpumask affinity;	/* smp_affinity_list */
	struct np_cpumask effective;	/* effective_affinity_list (may lag: x86 applies lazily) */
};

struct np_napi {
	int err;			/* the sysfs files are absent on old kernels */
	uint32_t defer_hard_irqs;	/* /sys/class/net/IF/napi_defer_hard_irqs */
	uint64_t gro_flush_timeout;	/* ns, /sys/class/net/IF/gro_flush_timeout */
	int threaded_err;		/* /sys/class/net/IF/threaded (5.12) */
	uint32_t threaded;		/* 0 softirq, 1 NAPI kthreads (2: busy-poll kthreads) */
};

/* Which per-NAPI attributes the kernel's napi-get reported (netdev.yaml). */
#define NP_NAPI_HAS_IRQ		(1u << 0)
#define NP_NAPI_HAS_PID		(1u << 1)	/* only while threaded */
#define NP_NAPI_HAS_DEFER	(1u << 2)	/* defer-hard-irqs, 6.13 */
#define NP_NAPI_HAS_GRO_FLUSH	(1u << 3)	/* gro-flush-timeout, 6.13 */
#define NP_NAPI_HAS_SUSPEND	(1u << 4)	/* irq-suspend-timeout, 6.14 */
#define NP_NAPI_HAS_THREADED	(1u << 5)	/* threaded, 6.17 */

/* One NAPI instance of the device (netdev genl napi-get, queue-get). */
struct np_napi_inst {
	uint32_t id;
	uint32_t has;			/* NP_NAPI_HAS_* */
	uint32_t irq;
	uint32_t pid;			/* its kthread while threaded */
	uint32_t defer_hard_irqs;
	uint64_t gro_flush_timeout;	/* ns */
	uint64_t irq_suspend_timeout;	/* ns */
	uint32_t threaded;
	int rxq, txq;			/* the lowest rx/tx queue it serves, -1 none */
};

/* The device's NAPI instances: err -EOPNOTSUPP when the kernel has no
 * netdev family or no napi-get (before 6.8: the Debian 6.1 of the lab). */
struct np_napis {
	int err;
	unsigned n;
	struct np_napi_inst *v;
};

/* A threaded NAPI's kthread, "napi/<ifname>-<napi id>" (napi.rst, "Threaded
 * NAPI"): while the device is threaded it, not the IRQ, runs the NAPI poll. */
struct np_napi_thread {
	uint32_t pid;
	uint32_t napi_id;
	int err;			/* reading its CPU affinity */
	struct np_cpumask affinity;	/* /proc/PID/status Cpus_allowed_list */
};

/* Global (per-machine or per-netns) knobs the policies touch. */
struct np_sysctl {
	int flow_entries_err;
	uint32_t rps_sock_flow_entries;
	int busy_err;
	uint32_t busy_poll, busy_read;
	/* Socket buffer ceilings: net.core.rmem_max/wmem_max (one value for
	 * the machine; read-only in a child namespace since 6.11: EACCES)
	 * and the triples net.ipv4.tcp_rmem/tcp_wmem (min, default, max; per
	 * network namespace).  Only the max of a triple is ever planned. */
	int core_mem_err;
	uint32_t rmem_max, wmem_max;
	int tcp_mem_err;
	uint32_t tcp_rmem[3], tcp_wmem[3];
	/* net.core.netdev_max_backlog: packets per CPU backlog (initial
	 * namespace only) */
	int backlog_err;
	uint32_t netdev_max_backlog;
};

/* --- steering: ntuple rules and extra RSS contexts (the mixed policy) ------ */

/* One rule as the kernel holds it (ETHTOOL_GRXCLSRULE): fs.location is where
 * it is; with FLOW_RSS in fs.flow_type it spreads over rss_context's table,
 * fs.ring_cookie added to each entry, else ring_cookie is its queue. */
struct np_rule {
	struct ethtool_rx_flow_spec fs;
	uint32_t rss_context;
};

/* An extra RSS context (ETHTOOL_SRSSH / RSS_CREATE_ACT): its own table. */
struct np_rss_ctx {
	uint32_t id;			/* 1..; 0 is the main table */
	uint32_t n_indir;
	uint32_t *indir;		/* absolute queue numbers */
};

struct np_steer {
	int err;			/* ntuple rules: -EOPNOTSUPP when the driver has none */
	uint32_t size;			/* rule locations (ETHTOOL_GRXCLSRLCNT) */
	bool special;			/* RX_CLS_LOC_SPECIAL: the driver places rules itself */
	unsigned n_rules;
	struct np_rule *rules;		/* by location */
	int ctx_err;			/* extra RSS contexts: -EOPNOTSUPP when none */
	uint32_t ctx_max;		/* context ids are below it */
	unsigned n_ctx;
	struct np_rss_ctx *ctx;		/* by id */
};

/* The rule at location loc, the context id, or NULL. */
const struct np_rule *np_steer_rule(const struct np_steer *s, uint32_t loc);
const struct np_rss_ctx *np_steer_ctx(const struct np_steer *s, uint32_t id);
/* Deep copy / release of the arrays. */
int np_steer_copy(struct np_steer *dst, const struct np_steer *src);
void np_steer_clear(struct np_steer *s);

struct np_dev {
	char ifname[IFNAMSIZ];
	int ifindex;
	char driver[32];
	char bus_info[32];
	char operstate[16];
	bool admin_up;				/* IFF_UP (live reads only, not recorded) */
	uint32_t mtu;
	uint32_t num_tx_queues, num_rx_queues;	/* allocated queues (rtnetlink) */
	int numa_node;				/* -1 when the device has none */
	struct np_cpumask local_cpus;		/* device/local_cpulist, else all online */

	struct np_link link;
	struct np_channels channels;
	struct np_rings rings;
	struct np_coalesce coalesce;
	struct np_features features;
	struct np_rss rss;
	struct np_napi napi;
	struct np_napis napis;
	unsigned n_napi_thread;
	struct np_napi_thread *napi_thread;
	struct np_steer steer;

	unsigned n_rxq, n_txq;			/* real queues: queues/rx-N, tx-N */
	struct np_rxq *rxq;
	struct np_txq *txq;

	unsigned n_irq;
	struct np_irq *irq;
};

struct np_state {
	struct np_topology topo;
	struct np_dev dev;
	struct np_sysctl sys;
	struct np_pm pm;	/* per-CPU wake-up latency (model/np_pm.h) */
};

/* Deep copy; -ENOMEM. */
int np_state_dup(const struct np_state *src, struct np_state **ret);
/* Release what a state owns without freeing the struct itself. */
void np_state_clear(struct np_state *st);
void np_topology_clear(struct np_topology *t);
void np_dev_clear(struct np_dev *d);
int np_dev_copy(struct np_dev *dst, const struct np_dev *src);
int np_topology_copy(struct np_topology *dst, const struct np_topology *src);

const struct np_feature *np_features_find(const struct np_features *f, const char *name);
/* The NAPI instance with this id; NULL when there is none or napi-get failed. */
const struct np_napi_inst *np_napi_find(const struct np_dev *d, uint32_t id);

#endif
