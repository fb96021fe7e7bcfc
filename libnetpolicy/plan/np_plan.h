/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Plans.  A plan is a target state (a full np_state: the discovered one with
 * the policy's values written in) plus the ordered steps that take the
 * current state there.  Steps come from one differ, knob by knob, so apply
 * (current -> target) and rollback (current -> pristine snapshot) are the
 * same code.
 */
#ifndef NP_PLAN_H
#define NP_PLAN_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "np_private.h"

struct np_plan;
struct np_step;
struct np_mixed_plan;

/* One knob: how it differs between two states and how to write it.  The
 * table in knob.c lists them in the order doc/kernel.md gives for an apply. */
struct np_knob {
	const char *name;	/* "channels", "irq-affinity", ... (CLI words, JSON keys) */
	/* Append steps for what differs from `from` to `to`. */
	int (*diff)(struct np_plan *plan, const struct np_state *from, const struct np_state *to);
	/* Write one step's values from `to`. */
	int (*apply)(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		     const struct np_step *step, struct np_error *err);
	bool reopens_queues;	/* drivers may reset IRQ affinity, XPS, NAPI after it */
	bool per_queue;		/* what a queue change can add or reset: planned again after one */
	/* the driver may keep a value near the one asked (its timer's
	 * resolution): the engine reads back right after the write to tell
	 * that from a change by someone else */
	bool driver_rounds;
	/* what to read again after it (enum np_read_part) when it reopens
	 * queues or the driver rounds: only that, never the whole device */
	unsigned rereads;
};

/*
 * A value before or after a change, typed and complete: the JSON of a plan
 * carries numbers as numbers and CPU sets whole (netpolicy-json(7)), and the
 * engine compares values, never their text.
 */
enum np_value_kind {
	NP_VAL_NONE,	/* nothing yet: a queue a channel step creates */
	NP_VAL_UINT,	/* counts, usecs, ns, sysctl values */
	NP_VAL_BOOL,	/* features, adaptive moderation */
	NP_VAL_CPUS,	/* IRQ affinity, XPS, RPS */
	NP_VAL_INDIR,	/* RSS table: `even` over u queues, or custom over queues lo-u */
};

struct np_value {
	enum np_value_kind kind;
	bool even;
	uint64_t u;
	uint64_t lo;		/* INDIR custom: the lowest queue (an RSS context's first) */
	struct np_cpumask cpus;
};

struct np_change {
	char what[48];		/* "combined", "rx-usecs", "tx-3", "25 virtio0-input.0" */
	struct np_value before;
	struct np_value after;
};

struct np_step {
	const struct np_knob *knob;
	int index;		/* queue or IRQ array index in `to`, -1 for the whole device */
	uint32_t fields;	/* coalesce: which fields to send */
	unsigned first_change, n_changes;
	/* a run's report only: not written, the driver made these changes
	 * itself with an earlier step (igb re-spreads its RSS table and
	 * zeroes tx-usecs when a channel change pairs its vectors) */
	bool by_driver;
};

struct np_note {
	const char *knob;
	char text[320];
	bool warning;		/* the user should act: set says it on stderr */
};

/*
 * What one device's plan starts from besides its live state, read from the
 * state directory by apply/base.c:
 * - the device's pristine snapshot: every knob the policy does not own goes
 *   back to it, so `set X` ends in the same state whatever ran before;
 * - the machine-wide sysctls: their value before any device needed them and
 *   the most the other devices still need (0: none), so a device's reset
 *   or switch never takes away what another device's policy needs.
 */
/* The ntuple rule locations and RSS context ids netpolicy made on the
 * device (its policy record): the only ones a plan may delete or replace. */
#define NP_OWNED_MAX 64
struct np_owned {
	unsigned n_ctx, n_rules;
	uint32_t ctx[NP_OWNED_MAX];
	uint32_t rules[NP_OWNED_MAX];
};

/* Per-CPU wake-up limits shared by devices (plan/plan_pm_qos.c): a need
 * (us, the strictest of the devices listed) on the CPUs in need_cpus, and
 * each CPU's value before any device limited it on those in known. */
struct np_pm_share {
	struct np_cpumask need_cpus, known;
	uint32_t need[NP_CPUS_MAX];
	uint32_t pristine[NP_CPUS_MAX];
};

struct np_plan_base {
	const struct np_state *pristine;	/* NULL: the live state is pristine */
	struct np_owned owned;			/* from the policy record */
	bool shared;				/* shared_pristine is valid */
	struct np_sysctl shared_pristine;
	struct np_sysctl others;
	/* the other devices' needs; pristine values: this device's record
	 * first, then the others' */
	struct np_pm_share pm;
};

struct np_plan {
	const struct np_policy *policy;	/* NULL for a rollback plan */
	char cpus[256];			/* the --cpus it was planned with, "" for the default */
	char drop[128];			/* knobs left as they are (np_plan_opts.drop), "" none */
	uint32_t link_speed;		/* Mb/s it was planned for, 0 unknown (planner.c) */
	/* the engine's diffs while it looks for the field a driver refused:
	 * a coalescing request per field (apply/refuse.c) */
	bool split;
	/* a run's report (apply/report.c): every difference, also what a
	 * knob leaves to the driver (coalesce: what pairing zeroes) */
	bool all;
	struct np_mixed_plan *mixed;	/* the mixed policy's options and classes, else NULL */
	struct np_state *target;
	struct np_step *steps;
	size_t n_steps, cap_steps;
	struct np_change *changes;
	size_t n_changes, cap_changes;
	struct np_note *notes;
	size_t n_notes, cap_notes;
	/* Machine-wide sysctls: what this device's policy needs (0: nothing)
	 * and their values before any device needed them; the engine records
	 * both in the state directory after an apply (apply/base.c). */
	struct np_sysctl needs;
	struct np_sysctl shared_pristine;
	/* this device's per-CPU wake-up needs and those CPUs' pristine values */
	struct np_pm_share pm_need;
	/* What it was planned from besides the device (base.pristine is the
	 * plan's own copy), so np_plan_refine plans again from the same. */
	struct np_plan_base base;
};

extern const struct np_knob np_knob_features, np_knob_rss_early, np_knob_channels,
	np_knob_rings, np_knob_rss, np_knob_coalesce, np_knob_queue_coalesce, np_knob_napi, np_knob_irq,
	np_knob_napi_config, np_knob_napi_threads, np_knob_xps,
	np_knob_rps, np_knob_rfs, np_knob_sysctl, np_knob_ntuple_delete, np_knob_rss_ctx_delete,
	np_knob_rss_ctx, np_knob_ntuple, np_knob_pm_qos;
/* Two rules equal but for their location (plan/knob/steer.c). */
bool np_rule_same_content(const struct np_rule *a, const struct np_rule *b);

/* The knobs in apply order; NULL-terminated. */
extern const struct np_knob *const np_knobs[];
const struct np_knob *np_knob_lookup(const char *name);
/* Whether `name` is an item of the comma-separated `list` (NULL: none). */
bool np_knob_listed(const char *list, const char *name);
/* Append `name` to the comma-separated list in buf; -ENOSPC when full. */
int np_knob_list_add(char *buf, size_t len, const char *name);

/* keep.c: put back into plan->target, from `st`, every knob named in `drop`
 * (comma-separated), with a note for each: the plan leaves them alone.
 * Channels are the planner's (the queue count shapes the rest).  0, or
 * -ENOMEM. */
int np_plan_keep(struct np_plan *plan, const struct np_state *st, const char *drop);
/* plan_pm_qos.c: the CPUs' wake-up limits as in `st`, and no need recorded
 * (the kernel refused the file: pm-qos left out). */
void np_plan_pm_keep(struct np_plan *plan, const struct np_state *st);

/* Building plans (all -ENOMEM on failure). */
int np_plan_new(struct np_plan **ret);
int np_plan_add_step(struct np_plan *plan, const struct np_knob *knob, int index,
		     uint32_t fields);
/* Adds a change to the step added last. */
int np_plan_add_change(struct np_plan *plan, const char *what, const struct np_value *before,
		       const struct np_value *after);
/* A change of two numbers, of two on/off values, of two CPU sets. */
int np_plan_add_uint(struct np_plan *plan, const char *what, uint64_t before, uint64_t after);
int np_plan_add_bool(struct np_plan *plan, const char *what, bool before, bool after);
/* before NULL: a queue the plan creates */
int np_plan_add_cpus(struct np_plan *plan, const char *what, const struct np_cpumask *before,
		     const struct np_cpumask *after);
int np_plan_note(struct np_plan *plan, const char *knob, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A note the user should act on ("warning": true in the plan's JSON). */
int np_plan_warn(struct np_plan *plan, const char *knob, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* One step for a group of counts written in one request (channels, rings):
 * a change for each count that differs, nothing when none does. */
/* "rx", "rx-mini", "rx-jumbo", "tx": a ring size's name (knob/rings.c). */
const char *np_ring_field_name(int f);

struct np_count_change {
	const char *name;
	uint32_t before, after;
};
int np_plan_add_counts(struct np_plan *plan, const struct np_knob *knob,
		       const struct np_count_change *c, size_t n);
/* Compute the steps from `from` to plan->target with every knob's differ. */
int np_plan_diff(struct np_plan *plan, const struct np_state *from);

/* refine.c: the plan again for the device as a queue-reopening step (a
 * channel change) left it, with the policy and CPUs of `plan`.  A driver
 * that requests its IRQs when it opens its queues has new IRQs only now;
 * planning from `now` is a fixed point for what `plan` set and covers the
 * rest.  Pure, like np_plan_compute; the engine calls it, it never plans. */
/* made_from: the state `plan` was made from; a plan made without a pristine
 * snapshot took it as pristine, and so does its refinement (not what the
 * queue change left).  NULL: now is pristine. */
int np_plan_refine(const struct np_plan *plan, const struct np_state *now,
		   const struct np_state *made_from, struct np_plan **ret, struct np_error *err);
/* The same plan again from `now` without the knobs in `drop` (a list as
 * np_plan_opts.drop): what the driver refused and the policy can do
 * without (apply/refuse.c). */
int np_plan_without(const struct np_plan *plan, const struct np_state *now, const char *drop,
		    struct np_plan **ret, struct np_error *err);

/* Remove from s the rules and contexts listed in o (what netpolicy made):
 * what a plan replaces, and what one without the mixed policy removes. */
void np_steer_drop_owned(struct np_steer *s, const struct np_owned *o);

/* Format helpers shared by the knobs (fmt.c). */
/* snprintf(dst, len, "%s", src) without stdio's setup cost */
void np_fmt_copy(char *dst, size_t len, const char *src);
void np_fmt_u32(char *buf, size_t len, uint32_t v);
/* pre, v in decimal, post (what snprintf "%s%u%s" gives, truncated to len),
 * for the names of a plan's thousands of changes */
void np_fmt_what(char *buf, size_t len, const char *pre, uint32_t v, const char *post);
/* The whole cpulist ("" when empty), fast; -ENOSPC when it does not fit. */
int np_fmt_mask(char *buf, size_t len, const struct np_cpumask *m);
/* The longest cpulist of NP_CPUS_MAX CPUs ("0,2,4,...,2046"), with its NUL. */
#define NP_CPULIST_MAX 8192

bool np_value_equal(const struct np_value *a, const struct np_value *b);
/* One-line text ("50", "on", "0-3", "none", "even over 4 queues"); a CPU
 * list too long for buf ends in "..." (messages only, never the JSON). */
void np_value_format(const struct np_value *v, char *buf, size_t len);
/* JSON: number, boolean, cpulist string ("" = no CPU), null, or
 * {"spread": "even"|"custom", "queues"|"max_queue": N}.  0 or -ENOMEM. */
int np_value_to_json(const struct np_value *v, struct json_object **ret);
const char *np_value_type(const struct np_value *v);

#endif
