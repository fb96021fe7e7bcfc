/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Machine and NIC shapes built in memory, for planner tests and benchmarks:
 * a discovered np_state as a backend would fill it, without any I/O, so a
 * policy can be planned for machines no lab has.
 *
 * Every field's zero value is a sensible default, so a shape is written as
 * a designated initializer naming only what makes it special.
 */
#ifndef NP_TEST_SHAPES_H
#define NP_TEST_SHAPES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/np_state.h"

enum shape_chan {
	SHAPE_COMBINED,		/* combined channels (mlx5, ice, ixgbe, virtio) */
	SHAPE_SEPARATE,		/* separate rx and tx channels (veth) */
	SHAPE_NO_CHANNELS,	/* channels answer EOPNOTSUPP (e1000e) */
};

enum shape_irq {
	SHAPE_IRQ_TXRX,		/* one vector per queue pair (mlx5, ice, ixgbe) */
	SHAPE_IRQ_SPLIT,	/* one rx and one tx vector per queue (virtio, e1000e) */
};

#define SHAPE_NO_IRQS (-1)

struct shape {
	/* --- the machine --- */
	unsigned cpus;			/* possible CPUs, 1..NP_CPUS_MAX */
	unsigned nodes;			/* NUMA nodes, 0 means 1; cores split evenly */
	unsigned packages;		/* 0 means 1; cores split evenly */
	bool smt;			/* two threads per core: CPU N and N + cpus/2 */
	unsigned threads;		/* threads per core (SMT-4: 4), 0 means 2 with smt, else 1 */
	bool adjacent;			/* a core's threads numbered adjacently (QEMU threads=N,
					   POWER): CPU N's core is N / threads */
	unsigned llcs;			/* last-level caches, 0 means none reported (unknown);
					   cores split evenly, as nodes and packages are */
	unsigned cpuless_nodes;		/* NUMA nodes without CPUs, numbered after the others */
	const char *offline;		/* cpulists, NULL for none */
	const char *isolated;
	const char *nohz_full;

	/* --- the NIC --- */
	const char *driver;		/* NULL means "ixgbe" */
	int nic_node;			/* NUMA node of the NIC, -1 for none */
	uint32_t speed;			/* Mb/s, 0 unknown */
	bool link_down;			/* no carrier (speed should be 0) */
	enum shape_chan chan;
	uint32_t max_queues;		/* channel maximum (rx for SEPARATE), 0 means queues */
	uint32_t queues;		/* current channels (rx for SEPARATE), 0 means 1 */
	uint32_t max_tx, tx;		/* SEPARATE only, 0 means as rx */
	bool other;			/* an "other" channel and vector (link, async events) */
	bool no_rings;
	uint32_t ring_max, ring;	/* 0 means 4096 and 512 */
	bool no_coalesce;
	uint32_t coal_mask;		/* supported fields, 0 means usecs+frames (+adaptive) */
	bool no_adaptive;		/* no adaptive-rx/tx in the default mask */
	bool adaptive_on;		/* adaptive moderation currently on */
	bool no_rss;
	uint32_t rss_size;		/* indirection table entries, 0 means 128 */
	bool rxhash_fixed, rxhash_off;	/* rx-hashing: fixed by the driver, currently off */
	enum shape_irq irq_kind;
	int irqs;			/* queue vectors: 0 one per queue, SHAPE_NO_IRQS none,
					   n > 0 for queues 0..n-1 only */
	bool no_napi;			/* the sysfs NAPI files are absent */
	bool netns;			/* rps_sock_flow_entries absent (not the initial netns) */
	bool ntuple_fixed;		/* rx-ntuple-filter fixed off (no ntuple filters) */
	const char *xps_rxqs;		/* preset xps_rxqs of every tx queue (rx queue list) */
};

/* A new state for the shape (free with np_state_free); 0, -EINVAL for an
 * impossible shape, -ENOMEM. */
int shape_build(const struct shape *s, struct np_state **ret);

/* Physical cores among the CPUs of m (distinct package/core_id pairs). */
unsigned shape_count_cores(const struct np_topology *t, const struct np_cpumask *m);

#endif
