/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mixed policy's plan (plan/plan_mixed.c): latency, throughput and cpu
 * classes on one NIC, each with its own queue range, CPUs, RSS context (or
 * queues) and the ntuple rules that steer its flows there, the way Intel's
 * ADQ and Documentation/networking/scaling.rst describe it.  Pure: no I/O.
 */
#ifndef NP_MIXED_H
#define NP_MIXED_H

#include "model/np_flow.h"
#include "util/np_cpumask.h"
#include "plan/np_plan.h"

struct json_object;

#define NP_MIXED_FLOWS_MAX 32
#define NP_MIXED_OWNED_MAX NP_OWNED_MAX

/*
 * Default weights: a class's share of the queues and cores.  NET policy's
 * MIX split each node's CPUs into 1/3 latency and 2/3 bulk (netpolicy-policies(7)):
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
	/* The CPUs the classes may use (the planner's: --cpus, else online
	 * and neither isolated nor nohz_full); empty: online, not isolated. */
	struct np_cpumask eligible;
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
	uint32_t rule[NP_MIXED_OWNED_MAX];	/* the locations of its rules */
};

struct np_mixed {
	struct np_mixed_class cls[NP_CLASS__COUNT];
	enum np_class deflt;
	unsigned nq;
};

/*
 * What a plan of the mixed policy carries (np_plan.mixed) and what its
 * policy record keeps: the options as given (flow texts, for the record and
 * for planning again) and the classes the plan made.
 */
struct np_mixed_plan {
	struct np_mixed_opts opts;
	char flow_text[NP_MIXED_FLOWS_MAX][NP_FLOW_TEXT_MAX];
	struct np_mixed m;
};

/* The mixed members of np_plan_opts (NP_PLAN_OPTS_MIXED) parsed into ret:
 * flows (each an input error naming its column), the default class and
 * the weights ("latency=1,throughput=3").  Input errors are NP_PHASE_INPUT. */
int np_mixed_opts_parse(const struct np_plan_opts *o, struct np_mixed_plan *ret,
			struct np_error *err);
/* Whether opts give any mixed option (flows, default class, weights). */
bool np_mixed_opts_given(const struct np_plan_opts *o);

/*
 * The mixed part of the policy record (np_store.h): the options as applied
 * and, per class, what netpolicy gave it and made for it.  A library
 * caller finds a class's CPUs in cls[CLASS].cpus (np_store_policy_load).
 */
struct np_class_record {
	bool used;			/* the class has flows or is the default class */
	unsigned weight;		/* its weight, as planned */
	unsigned q_first, n_q;		/* its queues: q_first .. q_first + n_q - 1 */
	struct np_cpumask cpus;		/* its CPUs (every thread of its cores) */
	uint32_t rss_context;		/* the RSS context netpolicy made for it, 0: none */
	unsigned n_rules;
	uint32_t rules[NP_MIXED_OWNED_MAX];	/* ntuple rule locations netpolicy made */
};

struct np_mixed_record {
	unsigned n_flows;
	char flows[NP_MIXED_FLOWS_MAX][NP_FLOW_TEXT_MAX];	/* "CLASS:SPEC" as given */
	enum np_class deflt;
	struct np_class_record cls[NP_CLASS__COUNT];
};

void np_mixed_record_from_plan(const struct np_mixed_plan *mp, struct np_mixed_record *ret);
/* What it says netpolicy made: the rules and contexts a plan may replace. */
void np_mixed_record_owned(const struct np_mixed_record *r, struct np_owned *ret);
/* What reset may remove (apply/owned_rules.c): of r's rules and contexts,
 * those on the device (cur) at their recorded location with the content
 * netpolicy made (rebuilt from the record's flows, classes and queues);
 * ret_foreign: recorded locations that hold something else now (someone
 * else's, to be left alone). */
void np_mixed_record_owned_here(const struct np_mixed_record *r, const struct np_state *cur,
				struct np_owned *ret, struct np_owned *ret_foreign);
/* The rules of r planned at RX_CLS_LOC_ANY (the driver places them): the
 * locations the driver gave them, found on the device (cur) by content
 * among the rules at locations goal (the plan's target) does not name, one
 * device rule per planned rule (apply/owned_rules.c).  Returns how many
 * it resolved; those it cannot find stay RX_CLS_LOC_ANY. */
unsigned np_mixed_record_resolve(struct np_mixed_record *r, const struct np_state *cur,
				 const struct np_state *goal);
/* The rules a run from `before` to `goal` may insert, at ordinal locations
 * (the journal's intent).  -ENOMEM. */
int np_intent(const struct np_state *before, const struct np_state *goal, struct np_steer *ret);
struct np_journal_info;
/* What recovery returns the device to: the journal's state, and every rule
 * on the device now at a location that state has free which is not one
 * the run meant to insert (someone else's, made after the kill), one
 * device rule per intended rule.  Without an intent (an older journal):
 * the journal's state.  -ENOMEM. */
int np_recovery_goal(const struct np_journal_info *info, const struct np_state *cur,
		     struct np_state **ret);
/* The goal for a device whose driver places rules itself (RX_CLS_LOC_SPECIAL):
 * goal's rules that the device lacks at their location, at RX_CLS_LOC_ANY.
 * 1 and *ret (a copy) when it moved any, 0 when goal is right as it is,
 * -ENOMEM. */
int np_goal_placeable(const struct np_state *cur, const struct np_state *goal,
		      struct np_state **ret);
/* The record's rules whose location in `before` the device (cur) no longer
 * has them at, and that the driver put elsewhere (a rule put back at
 * RX_CLS_LOC_ANY): their new locations.  Returns how many moved. */
unsigned np_mixed_record_relocate(struct np_mixed_record *r, const struct np_state *before,
				  const struct np_state *cur);
struct np_store;
/* The same for the device's policy record on disk, written when any moved;
 * no record (or a damaged one) names nothing to move. */
int np_store_policy_relocate(struct np_store *s, const struct np_state *before,
			     const struct np_state *cur, struct np_error *err);
/* "latency=1,throughput=2,cpu=1": the weights of its classes, every class. */
void np_mixed_record_weights(const struct np_mixed_record *r, char *buf, size_t len);
/* JSON both ways (apply/records_mixed.c): {"flows": [TEXT...], "default":
 * CLASS, "classes": {CLASS: {"weight", "queues": {"first", "count"},
 * "cpus": CPULIST, "rss_context", "rules": [LOCATION...]}}}, only the used
 * classes; the reader is strict (every flow parses, counts in range). */
int np_mixed_record_to_json(const struct np_mixed_record *r, struct json_object **ret);
int np_mixed_record_from_json(struct json_object *obj, const char *what,
			      struct np_mixed_record *ret, struct np_error *err);

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

/* plan_queue_coal.c: the device-wide coalescing of the default class's
 * policy and, where the device has per-queue coalescing, each class's
 * queues their class policy's values (notes say which); -ENOMEM. */
int np_plan_mixed_coalesce(const struct np_state *st, const struct np_mixed *m,
			   struct np_plan *plan);
/*
 * NAPI per class (plan/plan_mixed_napi.c), after np_plan_mixed: each NAPI's
 * deferral from its class's policy where the kernel has per-NAPI config
 * (else the default class's, device-wide, noted), each threaded NAPI
 * kthread on its NAPI's IRQ CPUs within its class, else its class's CPUs.
 */
void np_plan_mixed_napi(const struct np_state *st, const struct np_plan_base *base,
			const struct np_mixed *m, struct np_plan *plan);
/* The class of a NAPI instance: its rx queue's, else its tx queue's, else
 * the default class; *split: rx and tx queues in different classes;
 * *orphan: no queue of any class. */
enum np_class np_mixed_napi_class(const struct np_mixed *m, const struct np_napi_inst *n,
				  bool *split, bool *orphan);

#endif
