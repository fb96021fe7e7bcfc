/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: policies and plans: the planner and the plan object.
 *
 * Part of the API that <netpolicy/netpolicy.h> declares (its conventions
 * and compatibility rule hold here); include that header.
 */
#ifndef NETPOLICY_PLAN_H
#define NETPOLICY_PLAN_H

#include <netpolicy/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * np_policy_count() - how many built-in policies there are
 *
 * Return: the count.
 */
NP_EXPORT size_t np_policy_count(void);
/**
 * np_policy_at() - a built-in policy by index
 * @i: its index, below np_policy_count()
 *
 * Return: the policy (static), or NULL for @i out of range.
 */
NP_EXPORT const struct np_policy *np_policy_at(size_t i);
/**
 * np_policy_lookup() - a built-in policy by name
 * @name: "cpu", "latency", "throughput", ...
 * @ret: set to the policy (static)
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, or -ENOENT (NP_PHASE_INPUT, the message lists the names).
 */
NP_EXPORT int np_policy_lookup(const char *name, const struct np_policy **ret, struct np_error *err);
/**
 * np_policy_name() - a policy's name
 * @policy: the policy
 *
 * Return: the name, valid as long as @policy.
 */
NP_EXPORT const char *np_policy_name(const struct np_policy *policy);
/**
 * np_policies_to_json() - the built-in policies as JSON
 * @ret: set to a new json object the caller puts
 *
 * The built-ins only; np_policies_list_json() has the custom ones too.
 *
 * Return: 0, or -ENOMEM.
 */
NP_EXPORT int np_policies_to_json(struct json_object **ret);

/*
 * Custom policies (netpolicy-policy(5)): DIR/NAME.conf starts from a built-in
 * ("base = throughput"; a file named after a built-in adjusts that one) and
 * overrides any of its values.  Errors are NP_PHASE_INPUT, "FILE:LINE:COL:
 * reason".
 */
#ifndef NP_POLICY_DIR
#define NP_POLICY_DIR NP_CONFIG_DIR "/policies.d"
#endif
/**
 * np_ctx_set_policy_dir() - where custom policies are read from
 * @ctx: the context
 * @dir: the directory (default NP_POLICY_DIR)
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_ctx_set_policy_dir(struct np_ctx *ctx, const char *dir, struct np_error *err);
/**
 * np_ctx_policy_dir() - the policy directory in use
 * @ctx: the context
 *
 * Return: the one set, or NP_POLICY_DIR.
 */
NP_EXPORT const char *np_ctx_policy_dir(const struct np_ctx *ctx);
/**
 * np_policy_find() - a policy by name, custom or built-in
 * @ctx: the context (its policy directory)
 * @name: the policy's name
 * @ret: set to the policy, which lives as long as @ctx
 * @err: filled on failure (may be NULL)
 *
 * NAME.conf from the context's policy directory, else the built-in NAME.
 *
 * Return: 0, or a negative errno (NP_PHASE_INPUT for an unknown name or a
 * bad file, "FILE:LINE:COL: reason").
 */
NP_EXPORT int np_policy_find(struct np_ctx *ctx, const char *name, const struct np_policy **ret,
			     struct np_error *err);
/**
 * np_policy_load() - one policy file, not cached
 * @path: the file (netpolicy-policy(5))
 * @ret: set to the policy (free with np_policy_free())
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, or a negative errno (NP_PHASE_INPUT, "FILE:LINE:COL: reason").
 */
NP_EXPORT int np_policy_load(const char *path, struct np_policy **ret, struct np_error *err);
/**
 * np_policy_free() - free a policy np_policy_load() or np_policy_from_json() made
 * @policy: the policy, or NULL
 */
NP_EXPORT void np_policy_free(struct np_policy *policy);
/**
 * np_policy_to_json() - a policy as JSON
 * @policy: the policy
 * @ret: set to a new json object the caller puts
 *
 * {"name", "summary", "base", "file", "values": {KEY: VALUE}, "origin":
 * {KEY: "built-in" | "FILE:LINE"}, "sets": {KNOB: REASON}}; the values are
 * what a policy file can set, so np_policy_from_json() turns the document
 * back into the same policy.
 *
 * Return: 0, or -ENOMEM.
 */
NP_EXPORT int np_policy_to_json(const struct np_policy *policy, struct json_object **ret);
/**
 * np_policy_from_json() - a policy from np_policy_to_json()'s document
 * @obj: the document
 * @ret: set to the policy (free with np_policy_free())
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, or a negative errno (NP_PHASE_INPUT).
 */
NP_EXPORT int np_policy_from_json(struct json_object *obj, struct np_policy **ret,
				  struct np_error *err);
/**
 * np_policies_list_json() - every policy as JSON
 * @ctx: the context (its policy directory)
 * @ret: set to a new json object the caller puts
 * @err: filled on failure (may be NULL)
 *
 * The built-ins a file does not adjust, then the directory's.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_policies_list_json(struct np_ctx *ctx, struct json_object **ret,
				    struct np_error *err);

/* np_plan_opts.flags */
enum np_plan_flags {
	/* the mixed members below are filled (NULL / 0: not given) */
	NP_PLAN_OPTS_MIXED = 1u << 0,
	/* all or nothing at plan time too: a channel change the policy wants
	 * that rules of another owner block (ice) fails the plan (-EBUSY)
	 * instead of keeping the channel count with a note */
	NP_PLAN_STRICT = 1u << 1,
};

struct np_plan_opts {
	size_t sz;		/* sizeof(struct np_plan_opts): use NP_PLAN_OPTS() */
	const char *cpus;	/* cpulist the policy may use ("0-7,16"), or NULL */
	unsigned flags;		/* enum np_plan_flags */
	/* Knobs the plan leaves as they are, comma-separated ("coalesce,rings"):
	 * refinements the driver refused (np_apply_result.dropped), or NULL. */
	const char *drop;
	/* The mixed policy (with NP_PLAN_OPTS_MIXED; any of them given with
	 * another policy is an input error): flows "CLASS:SPEC"
	 * (netpolicy-flows(7)), the class of unclassified traffic (NULL:
	 * throughput), the classes' weights "CLASS=N[,CLASS=N]" (NULL: the
	 * defaults, latency 1, throughput 2, cpu 1). */
	const char *const *flows;
	size_t n_flows;
	const char *default_class;
	const char *weights;
	/* The link speed in Mb/s to plan for when the device reports none
	 * (carrier down): the speed the applied policy was planned for
	 * (np_active_link_speed()), so a link that bounces for a moment, as
	 * igb's does after each channel change, is not drift.  0: none. */
	uint32_t link_speed;
};
/* Declares `struct np_plan_opts NAME` with sz set and the members given:
 * NP_PLAN_OPTS(opts, .cpus = "0-7"); */
#define NP_PLAN_OPTS(NAME, ...)                                                        \
	struct np_plan_opts NAME = { .sz = sizeof(struct np_plan_opts), __VA_ARGS__ }

/**
 * np_plan_compute() - plan a policy for a device, without touching it
 * @ctx: the context, or NULL to plan without the state directory
 * @policy: the policy
 * @opts: options (declared with NP_PLAN_OPTS()), or NULL for none
 * @state: the device as np_discover() read it
 * @ret: set to the plan (free with np_plan_free())
 * @err: filled on failure (may be NULL)
 *
 * No I/O on the device.  Reads the state directory (never creates it): the
 * device's pristine snapshot, to which knobs the policy does not own return,
 * and every device's machine-wide sysctl needs.  The plan holds the target
 * state and the ordered steps.
 *
 * Return: 0, or a negative errno (NP_PHASE_INPUT for bad options: -EINVAL
 * for an @opts whose sz was not set, -E2BIG for members this library does
 * not know; NP_PHASE_PLAN when the policy cannot be planned on this device).
 */
NP_EXPORT int np_plan_compute(struct np_ctx *ctx, const struct np_policy *policy,
			      const struct np_plan_opts *opts, const struct np_state *state,
			      struct np_plan **ret, struct np_error *err);
/**
 * np_plan_free() - free a plan
 * @plan: the plan, or NULL
 */
NP_EXPORT void np_plan_free(struct np_plan *plan);
/**
 * np_plan_n_steps() - how many steps a plan has
 * @plan: the plan
 *
 * Return: the count; 0 when the device is already at the target.
 */
NP_EXPORT size_t np_plan_n_steps(const struct np_plan *plan);
/**
 * np_plan_changes() - whether a plan has a step of one knob
 * @plan: the plan
 * @knob: the knob's name as the JSON names it ("irq-affinity", "channels")
 *
 * Return: true when a step of the plan writes @knob.
 */
NP_EXPORT bool np_plan_changes(const struct np_plan *plan, const char *knob);
/**
 * np_plan_to_json() - a plan as JSON (netpolicy-json(7))
 * @plan: the plan
 * @ret: set to a new json object the caller puts
 *
 * Return: 0, or -ENOMEM.
 */
NP_EXPORT int np_plan_to_json(const struct np_plan *plan, struct json_object **ret);

#ifdef __cplusplus
}
#endif
#endif
