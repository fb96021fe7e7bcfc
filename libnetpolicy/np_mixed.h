/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mixed policy's plan (plan/plan_mixed.c): latency, throughput and cpu
 * classes on one NIC, each with its own queue range, CPUs, RSS context (or
 * queues) and the ntuple rules that steer its flows there, the way Intel's
 * ADQ and Documentation/networking/scaling.rst describe it.  Pure: no I/O.
 */
#ifndef NP_MIXED_H
#define NP_MIXED_H

#include "np_flow.h"
#include "np_plan.h"

#define NP_MIXED_FLOWS_MAX 32
#define NP_MIXED_OWNED_MAX 64

/*
 * Default weights: a class's share of the queues and cores.  NET policy's
 * MIX split each node's CPUs into 1/3 latency and 2/3 bulk (DESIGN.md):
 * latency 1, throughput 2; cpu 1 (the class that should cost least).
 */
#define NP_MIXED_WEIGHT_LATENCY 1
#define NP_MIXED_WEIGHT_THROUGHPUT 2
#define NP_MIXED_WEIGHT_CPU 1
#define NP_MIXED_WEIGHT_MAX 64

struct np_mixed_opts {
	unsigned n_flows;
	struct np_flow flows[NP_MIXED_FLOWS_MAX];
	enum np_class deflt;			/* unclassified traffic (throughput) */
	unsigned weight[NP_CLASS__COUNT];	/* 0: the default weight */
	/* What netpolicy made before (its record): replaced, never foreign. */
	unsigned n_owned_ctx, n_owned_rules;
	uint32_t owned_ctx[NP_MIXED_OWNED_MAX];
	uint32_t owned_rules[NP_MIXED_OWNED_MAX];
};

struct np_mixed_class {
	bool used;			/* has flows, or is the default class */
	unsigned weight;
	unsigned q_first, n_q;		/* its rx/tx queues: q_first .. q_first + n_q - 1 */
	struct np_cpumask cpus;		/* every thread of its cores */
	uint32_t ctx;			/* its RSS context, 0: none (main table or queues) */
	unsigned n_rules;
};

struct np_mixed {
	struct np_mixed_class cls[NP_CLASS__COUNT];
	enum np_class deflt;
	unsigned nq;
};

/* "latency=1,throughput=3" style: one CLASS=N into opts->weight. */
int np_mixed_weight_parse(const char *text, struct np_mixed_opts *opts, struct np_error *err);
unsigned np_mixed_weight(const struct np_mixed_opts *opts, enum np_class cls);

/*
 * Write the classes into plan->target (a copy of st): IRQ affinity, XPS
 * (xps_rxqs for latency), the main RSS table over the default class, one
 * RSS context per other class where the driver has contexts, ntuple rules
 * (to the context, or to the class's queues with a note), rx-ntuple-filter
 * on; foreign rules and contexts kept as they are, conflicts noted.
 * -EOPNOTSUPP (NP_PHASE_PLAN, "mixed needs ntuple filters: driver X has
 * none") when the driver has no ntuple filters; -ENOSPC when the rule
 * table or contexts run out; -EINVAL for a flow the driver cannot match.
 */
int np_plan_mixed(const struct np_state *st, const struct np_mixed_opts *opts,
		  struct np_plan *plan, struct np_mixed *ret, struct np_error *err);

/* Whether a and b can match the same packet (same flow type, every field
 * both match on equal). */
bool np_rule_overlaps(const struct ethtool_rx_flow_spec *a, const struct ethtool_rx_flow_spec *b);

#endif
