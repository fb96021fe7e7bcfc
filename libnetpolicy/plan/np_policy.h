/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Policies are data: a table of rules the one planner interprets. */
#ifndef NP_POLICY_H
#define NP_POLICY_H

#include "plan/np_plan.h"

enum np_chan_rule {
	NP_CHAN_LINK_SPEED,	/* about one queue per 10 Gb/s, at least one */
	NP_CHAN_LOCAL_CORES,	/* one queue per physical core local to the NIC */
	NP_CHAN_MAX,		/* the driver's maximum */
	NP_CHAN_COUNT,		/* channels_n queues (a custom policy's number) */
};

enum np_ring_rule {
	NP_RING_KEEP,		/* the driver's own (pristine) sizes */
	NP_RING_BURST,		/* hold one held-back interrupt's packets, at least
				   the driver's own size, at most its maximum */
	NP_RING_MAX,		/* the driver's maximum */
	NP_RING_COUNT,		/* the policy's number (rings_n), within the maximum */
};

/* socket-buffers, backlog: a machine-wide ceiling left alone, sized from
 * the link (plan_machine.c), or the policy's number. */
enum np_ceiling_rule {
	NP_CEIL_OFF,
	NP_CEIL_AUTO,
	NP_CEIL_COUNT,
};

/* The round-trip time socket buffers are sized for when a policy names
 * none: a data centre's (netpolicy-policies(7)). */
#define NP_DEFAULT_RTT_US 250

/* rings.rx and rings.tx: the rings rule (0), or one of their own (rule + 1). */
#define NP_RING_SIDE_AS_RINGS 0

/* An offload a custom policy turns on or off (features.NAME): the name in
 * the file (ethtool -K's short one or the kernel's) and the kernel's. */
struct np_policy_feature {
	const char *key;
	const char *name;
};
extern const struct np_policy_feature np_policy_features[];
extern const size_t np_policy_n_features;

struct np_feature_value {
	const struct np_policy_feature *f;
	bool on;
};

enum np_rps_rule {
	NP_RPS_OFF,		/* no software steering: every hop costs latency or CPU */
	NP_RPS_FEW_QUEUES,	/* spread over local cores only when queues < local cores */
};

/* pm-qos: a wake-up latency limit on the CPUs serving the policy's queues */
enum np_pm_rule {
	NP_PMQ_OFF,		/* none */
	NP_PMQ_AUTO,		/* from each CPU's idle states (plan_pm_qos.c) */
	NP_PMQ_US,		/* pm_qos_us microseconds */
};

struct np_coal_value {
	enum np_coal_field field;
	uint32_t value;
};

struct np_policy {
	const char *name;
	const char *summary;
	/* Knobs the policy cannot do without, comma-separated: a driver that
	 * refuses one fails the apply (rolled back); any other knob the driver
	 * refuses is left out with a note (not with NP_APPLY_STRICT). */
	const char *core;
	enum np_chan_rule channels;
	uint32_t channels_n;			/* NP_CHAN_COUNT */
	enum np_ring_rule rings;
	uint32_t rings_n;			/* NP_RING_COUNT */
	int rings_rx, rings_tx;			/* NP_RING_SIDE_AS_RINGS, else rule + 1 */
	uint32_t rings_rx_n, rings_tx_n;
	const struct np_feature_value *features;	/* custom policies' features.NAME */
	size_t n_features;
	bool adaptive;				/* adaptive moderation on where the driver has it */
	/* a custom policy's line of the fixed coalescing value that turned
	 * its base's adaptive moderation off (no adaptive key in the file) */
	unsigned adaptive_off_line;
	const struct np_coal_value *coal;	/* fixed values (for adaptive policies: only
						   where the driver lacks adaptive moderation) */
	size_t n_coal;
	enum np_rps_rule rps;
	uint32_t rfs_entries;			/* rps_sock_flow_entries wanted; 0: RFS off */
	bool napi;				/* set NAPI deferral */
	uint32_t napi_defer_hard_irqs;
	uint64_t gro_flush_timeout;		/* ns */
	uint32_t busy_poll, busy_read;		/* us; 0: leave as they are */
	int pm_qos;				/* enum np_pm_rule (mixed: the latency class) */
	uint32_t pm_qos_us;			/* NP_PMQ_US */
	/* throughput: socket buffer ceilings for one flow at link speed over
	 * rtt_us, and the per-CPU backlog where RPS is planned */
	enum np_ceiling_rule sockbuf, backlog;
	uint32_t sockbuf_n, backlog_n;		/* NP_CEIL_COUNT: bytes, packets */
	uint32_t rtt_us;			/* 0: NP_DEFAULT_RTT_US */
	/* The mixed policy: classes of flows on one NIC (np_plan_mixed) on
	 * top of the rest; a custom policy based on it is mixed too. */
	bool mixed;
	/* A custom mixed policy's flows ("CLASS:SPEC"), default class and
	 * weights (netpolicy-policy(5)): the plan's where the caller's
	 * np_plan_opts give none (np_plan_compute; the command line wins). */
	const char *const *flows;
	size_t n_flows;
	const char *default_class, *weights;
	/* Why, per knob, for `netpolicy policies` and the man page. */
	const char *why_channels, *why_irq, *why_coalesce, *why_rings, *why_rss, *why_steering,
		*why_napi, *why_buffers;
	/* Custom policies only (policy_file.c): the file, the built-in it
	 * starts from, and per np_policy_keys[] entry (then per coalescing
	 * field) the line that set the value, 0 where the base's is kept. */
	const char *file;
	const struct np_policy *base;
	const unsigned *key_line, *coal_line;
};

/* plan_cpus.c: the CPUs a policy may give IRQs to, best first. */
struct np_cpu_order {
	unsigned n;		/* CPUs in order[] */
	unsigned *order;	/* local first-threads, remote first-threads, local siblings, remote
				   siblings; each round robin over the LLCs where they are known */
	unsigned n_local_cores;	/* eligible physical cores local to the NIC */
	unsigned n_cores;	/* eligible physical cores */
	struct np_cpumask eligible;
	struct np_cpumask local;	/* eligible CPUs local to the NIC */
};
int np_cpu_order(const struct np_topology *t, const struct np_cpumask *eligible,
		 const struct np_cpumask *local, struct np_cpu_order *ret);
void np_cpu_order_clear(struct np_cpu_order *o);
/* Queue q's CPU where the kernel delivers its IRQ now (effective_affinity;
 * o's CPU for a queue without a readable IRQ): the order XPS and RPS follow
 * when the IRQs' affinity is not netpolicy's to set (refused, or managed by
 * the kernel).  1 and *ret filled (clear it), 0 when there is nothing to
 * order, -ENOMEM. */
int np_cpu_order_effective(const struct np_state *st, const struct np_cpu_order *o,
			   struct np_cpu_order *ret);


/* Fill plan->target (already a copy of the state) per policy and options;
 * base may be NULL (the device as it is is pristine, no other device). */
int np_policy_plan(const struct np_policy *p, const struct np_plan_opts *opts,
		   const struct np_state *st, const struct np_plan_base *base,
		   struct np_plan *plan, struct np_error *err);
/* np_plan_compute_base with the mixed policy's options already parsed
 * (mixed, may be NULL: parsed from opts), as a plan made again keeps them. */
int np_plan_compute_mixed(const struct np_policy *policy, const struct np_plan_opts *opts,
			  const struct np_mixed_plan *mixed, const struct np_state *state,
			  const struct np_plan_base *base, struct np_plan **ret, struct np_error *err);
/* The pure part of np_plan_compute: plan and diff from `state` and `base`. */
int np_plan_compute_base(const struct np_policy *policy, const struct np_plan_opts *opts,
			 const struct np_state *state, const struct np_plan_base *base,
			 struct np_plan **ret, struct np_error *err);

/* plan_device.c: ring sizes per the policy's rules, within the driver's
 * maxima (nq queues open); rx-hashing (every policy); a custom policy's
 * features.NAME values, after every other knob. */
void np_plan_rings(const struct np_policy *p, const struct np_state *st,
		   const struct np_plan_base *base, unsigned nq, struct np_plan *plan);
void np_plan_features(const struct np_policy *p, const struct np_state *st, struct np_plan *plan);
void np_plan_policy_features(const struct np_policy *p, const struct np_state *st,
			     struct np_plan *plan);

/* plan_queue_coal.c: every queue's own coalescing (np_rxq.coal) at the
 * device-wide target, where the device has per-queue values. */
void np_plan_queue_coalesce(struct np_plan *plan);
/* plan_coalesce.c: the policy's coalescing, as far as the driver takes it. */
void np_plan_coalesce(const struct np_policy *p, const struct np_state *st,
		      struct np_plan *plan);

/* The CPU serving queue q (the planner, steering, RPS and NAPI threads);
 * inline so that those files need not import the planner that calls them. */
static inline unsigned np_queue_cpu(const struct np_cpu_order *o, unsigned q)
{
	return o->order[q % o->n];
}

/* fmt.c, for the planner's notes */
const char *np_unsupported(int e);
/* steering: XPS, RPS, RFS and accelerated RFS (plan_steer.c) */
int np_plan_xps(const struct np_state *st, const struct np_cpu_order *o, unsigned nq,
		struct np_plan *plan);
/* Notes on the IRQs the plan cannot place: the device's vectors no source
 * ties to a queue, and the first nq rx queues without an IRQ (unless the
 * plan changes the channels, whose new vectors are read after the change). */
void np_plan_irq_notes(const struct np_state *st, unsigned nq, bool queues_change,
		       struct np_plan *plan);
void np_plan_rps(const struct np_policy *p, const struct np_state *st,
		 const struct np_cpu_order *o, unsigned nq, unsigned want, struct np_plan *plan);
/* plan_rss.c: the indirection table (one the driver has) even over the nq
 * planned queues (a driver's own even table stays as it is) */
void np_plan_rss(const struct np_state *st, unsigned nq, struct np_plan *plan);
/* plan_channels.c: the channels for `want` queues into plan's target and
 * the queues that will be open into *ret_nq; 0, 1 when --strict
 * (NP_PLAN_STRICT) refuses a channel change that foreign ntuple rules
 * block (nothing planned), or a negative errno (out of memory). */
int np_plan_channels(const struct np_plan_opts *opts, const struct np_state *st, unsigned want,
		     struct np_plan *plan, unsigned *ret_nq);
/* plan_rps.c: the local CPUs without a queue's IRQ into the RPS masks of
 * the first nrx rx queues; returns how many CPUs it placed. */
unsigned np_spread_rps(const struct np_state *st, const struct np_cpu_order *o, unsigned nrx,
		       struct np_plan *plan);
/* How far CPU b is from CPU a for RPS: 0 the same core, 1 the same LLC and
 * node, 2 the same package and node, 3 the same node, 4 farther (plan_rps.c). */
int np_cpu_distance(const struct np_topology *t, unsigned a, unsigned b);
/* per-NAPI deferral through napi-set where the kernel has it (plan_napi_config.c) */
void np_plan_napi_config(const struct np_policy *p, const struct np_state *st,
			 const struct np_plan_base *base, struct np_plan *plan);
/* threaded NAPI's kthreads with their IRQs (plan_threads.c) */
void np_plan_napi_threads(const struct np_state *st, const struct np_cpu_order *o, unsigned nq,
			  struct np_plan *plan);
/* the target's IRQ of NAPI n: by its number, else its rx queue's (plan_threads.c) */
const struct np_irq *np_napi_planned_irq(const struct np_dev *t, const struct np_napi_inst *n);
/* machine-wide and pristine-restored knobs (plan_machine.c) */
void np_plan_napi(const struct np_policy *p, const struct np_state *st,
		  const struct np_plan_base *base, struct np_plan *plan);
void np_plan_sysctls(const struct np_policy *p, const struct np_state *st,
		     const struct np_plan_base *base, struct np_plan *plan);
/* plan_pm_qos.c: the wake-up limit of the CPUs serving the policy's
 * (mixed: the latency class's) queues, shared with other devices' needs */
void np_plan_pm_qos(const struct np_policy *p, const struct np_state *st,
		    const struct np_plan_base *base, struct np_plan *plan);
void np_plan_restore(const struct np_policy *p, const struct np_state *st,
		     const struct np_plan_base *base, struct np_plan *plan);


#endif
