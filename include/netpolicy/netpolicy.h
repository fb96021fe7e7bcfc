/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: discover a NIC's tuning state, plan a policy for it and
 * apply the plan atomically.
 *
 * Conventions: every function that can fail returns 0 or a negative errno
 * and, when given one, fills an error object (struct np_error, made once
 * with np_error_new).  Out-parameters are written only on success.  Every
 * *_free(NULL) is a no-op.  The library never prints and never exits;
 * diagnostics go through the log callback.
 *
 * Compatibility rule.  libnetpolicy is built as a static archive
 * (libnetpolicy.a, with pkg-config): there is no soname and no promise of
 * binary compatibility between releases; a program is linked with the
 * archive of the header it was compiled with.  What is promised, within one
 * major version (NP_VERSION_MAJOR), is source compatibility and the JSON:
 *  - every type a caller could need to grow is opaque (contexts, states,
 *    policies, plans, errors, apply results, the active record, configs) and
 *    read through accessors; new information comes as new accessors;
 *  - the few structs passed by value (np_plan_opts, np_pending,
 *    np_socket_opts) begin with `size_t sz`, which the caller sets to the
 *    size it was compiled with (NP_PLAN_OPTS(), or sizeof); they only gain
 *    members at their end; the library reads members past a shorter sz as
 *    zero, refuses a longer struct whose unknown bytes are not zero
 *    (-E2BIG) and writes no further than sz;
 *  - enums only gain values; an accessor returning an enum may return a
 *    value the caller does not know, and the caller must accept that;
 *  - a function's meaning never changes under its name: a changed behaviour
 *    is a new function, and the old one stays (documented as superseded)
 *    until the next soname bump;
 *  - the JSON documents (np_*_to_json) follow netpolicy-model(5): members
 *    are added, never renamed or retyped;
 *  - nothing else is API: symbols not declared here are not exported.
 * json-c in the ABI is deliberate: the *_to_json functions hand back a
 * json_object the caller composes into its own document (the CLI adds
 * members to a plan's), and json-c keeps its own ABI stable (libjson-c.so.5);
 * a string would only be parsed again.
 */
#ifndef NETPOLICY_NETPOLICY_H
#define NETPOLICY_NETPOLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netpolicy/version.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef NP_EXPORT
#define NP_EXPORT __attribute__((visibility("default")))
#endif

/**
 * np_version() - the version of the library linked in
 *
 * The NP_VERSION_* macros say which header a program was compiled with; this
 * says which library it runs with, and the two may differ.
 *
 * Return: "MAJOR.MINOR.PATCH", static.
 */
NP_EXPORT const char *np_version(void);

struct json_object;
struct np_ctx;
struct np_state;
struct np_policy;
struct np_plan;

enum np_phase {
	NP_PHASE_NONE = 0,
	NP_PHASE_INPUT,		/* bad arguments: device name, policy, options */
	NP_PHASE_DISCOVER,
	NP_PHASE_PLAN,
	NP_PHASE_APPLY,
	NP_PHASE_VERIFY,
	NP_PHASE_ROLLBACK,
	NP_PHASE_LOCK,		/* another netpolicy held the device past the lock wait */
	NP_PHASE_STATE,		/* the state directory cannot be written where it must be
				 * (an interrupted run's journal to act on): nothing changed */
};

/*
 * An error: made once, before the work it describes, so that filling it
 * never allocates (an out-of-memory failure is still reported).  Opaque, so
 * it can grow.  Functions keep the first error given to them; clear it to
 * reuse it.  The accessors take NULL (no error).
 */
struct np_error;
/**
 * np_error_new() - make an error object
 *
 * Make it before the work whose failure it describes: filling it never
 * allocates.
 *
 * Return: the object, or NULL when out of memory.
 */
NP_EXPORT struct np_error *np_error_new(void);
/**
 * np_error_free() - free an error object
 * @err: the object, or NULL (nothing is done)
 */
NP_EXPORT void np_error_free(struct np_error *err);
/**
 * np_error_clear() - forget the error an object holds, to reuse it
 * @err: the object, or NULL
 */
NP_EXPORT void np_error_clear(struct np_error *err);
/**
 * np_escape() - a string made safe to print
 * @in: the string
 * @out: where the escaped string goes, NUL-terminated, truncated to fit
 * @len: the size of @out in bytes
 *
 * Control characters and DEL are written as \n, \t, \r or \xHH.  Every
 * message of the library is escaped so; use it for names a caller prints.
 *
 * Return: the length of the escaped string.
 */
NP_EXPORT size_t np_escape(const char *in, char *out, size_t len);
/**
 * np_error_code() - the error's code
 * @err: the error, or NULL
 *
 * Return: a negative errno, 0 when there is no error.
 */
NP_EXPORT int np_error_code(const struct np_error *err);
/**
 * np_error_phase() - where the error happened
 * @err: the error, or NULL
 *
 * Return: the phase (NP_PHASE_NONE when there is no error).
 */
NP_EXPORT enum np_phase np_error_phase(const struct np_error *err);
/**
 * np_error_knob() - the knob the error concerns
 * @err: the error, or NULL
 *
 * Return: "channels", "irq-affinity", ... (valid as long as the library
 * is loaded), or NULL when none.
 */
NP_EXPORT const char *np_error_knob(const struct np_error *err);
/**
 * np_error_step() - the plan step the error happened in
 * @err: the error, or NULL
 *
 * Return: the step's index, or -1.
 */
NP_EXPORT int np_error_step(const struct np_error *err);
/**
 * np_error_message() - netpolicy's words for the error
 * @err: the error, or NULL
 *
 * Return: the message, "" when none.
 */
NP_EXPORT const char *np_error_message(const struct np_error *err);
/**
 * np_error_extack() - the kernel's words for the error (netlink extack)
 * @err: the error, or NULL
 *
 * Return: the kernel's message, "" when it gave none.
 */
NP_EXPORT const char *np_error_extack(const struct np_error *err);
/**
 * np_error_format() - the error as one line
 * @err: the error, or NULL
 * @buf: where the line goes
 * @len: the size of @buf
 *
 * "channels: requested channel count exceeds maximum" style.
 *
 * Return: @buf.
 */
NP_EXPORT const char *np_error_format(const struct np_error *err, char *buf, size_t len);
/**
 * np_phase_name() - a phase's name
 * @phase: the phase
 *
 * Return: "discover", "apply", ... (static).
 */
NP_EXPORT const char *np_phase_name(enum np_phase phase);

/* --- context ------------------------------------------------------------ */

enum np_log_level {
	NP_LOG_ERR = 3, NP_LOG_WARNING = 4,
	NP_LOG_NOTICE = 5,	/* normal but worth saying: waiting for a lock */
	NP_LOG_INFO = 6, NP_LOG_DEBUG = 7,
};
typedef void (*np_log_fn)(void *userdata, enum np_log_level level, const char *msg);

/**
 * np_ctx_new() - make a context
 * @ret: set to the new context on success
 * @err: filled on failure (may be NULL)
 *
 * A context holds one backend (the kernel's, or a simulated machine), its
 * sockets and caches, the state directory and the callbacks.  Use one per
 * thread.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_ctx_new(struct np_ctx **ret, struct np_error *err);
/**
 * np_ctx_free() - free a context and close what it opened
 * @ctx: the context, or NULL
 */
NP_EXPORT void np_ctx_free(struct np_ctx *ctx);
/**
 * np_ctx_set_log() - where the library's diagnostics go
 * @ctx: the context
 * @fn: called with each message (NULL: none are made)
 * @userdata: passed to @fn
 */
NP_EXPORT void np_ctx_set_log(struct np_ctx *ctx, np_log_fn fn, void *userdata);
/**
 * np_ctx_set_state_dir() - where locks, journals and pristine snapshots live
 * @ctx: the context
 * @dir: the directory (default /run/netpolicy)
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_ctx_set_state_dir(struct np_ctx *ctx, const char *dir, struct np_error *err);
/**
 * np_ctx_state_dir() - the state directory in use
 * @ctx: the context
 *
 * Return: the one set, or the default (/run/netpolicy; with a model,
 * /run/netpolicy-sim.HASH of the model's path).
 */
NP_EXPORT const char *np_ctx_state_dir(const struct np_ctx *ctx);
/**
 * np_ctx_set_lock_wait() - how long to wait for a device another netpolicy holds
 * @ctx: the context
 * @seconds: seconds, 0 not at all, -1 (the default) for ever
 *
 * A wait is logged at NP_LOG_NOTICE; its end without the lock is an
 * NP_PHASE_LOCK error.
 */
NP_EXPORT void np_ctx_set_lock_wait(struct np_ctx *ctx, int seconds);
/**
 * np_ctx_set_model() - use the simulated backend
 * @ctx: the context, before its backend was first used
 * @file: the machine model (JSON, netpolicy-model(5))
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, or a negative errno (-EBUSY when the backend is already in use).
 */
NP_EXPORT int np_ctx_set_model(struct np_ctx *ctx, const char *file, struct np_error *err);
/**
 * np_ctx_backend_name() - which backend the context uses
 * @ctx: the context
 *
 * Return: "kernel" or "sim".
 */
NP_EXPORT const char *np_ctx_backend_name(const struct np_ctx *ctx);

/* --- discovery ---------------------------------------------------------- */

/**
 * np_ifname_validate() - can this be a network device name
 * @name: the name
 * @err: filled on failure (may be NULL)
 *
 * Checks the length (IFNAMSIZ), that there is no '/' and that it is not "."
 * or "..", before any path is made from it.
 *
 * Return: 0, or -EINVAL (NP_PHASE_INPUT).
 */
NP_EXPORT int np_ifname_validate(const char *name, struct np_error *err);
/**
 * np_list_devices() - the interfaces backed by a device
 * @ctx: the context
 * @ret: set to the names (free with np_list_free())
 * @ret_n: set to how many
 * @err: filled on failure (may be NULL)
 *
 * Not lo; veth peers count.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_list_devices(struct np_ctx *ctx, char ***ret, size_t *ret_n, struct np_error *err);
/**
 * np_list_free() - free a list np_list_devices() made
 * @list: the list, or NULL
 * @n: its length
 */
NP_EXPORT void np_list_free(char **list, size_t n);

/**
 * np_discover() - read everything netpolicy knows about a device
 * @ctx: the context
 * @ifname: the device
 * @ret: set to the state, an immutable snapshot (free with np_state_free())
 * @err: filled on failure (may be NULL)
 *
 * Reads only: channels, rings, coalescing, RSS, steering, IRQs, queues'
 * masks, NAPI, features, link, and the machine's topology.
 *
 * Return: 0, or a negative errno (-ENODEV for no such device).
 */
NP_EXPORT int np_discover(struct np_ctx *ctx, const char *ifname, struct np_state **ret,
			  struct np_error *err);
/**
 * np_state_free() - free a state
 * @state: the state, or NULL
 */
NP_EXPORT void np_state_free(struct np_state *state);
/**
 * np_state_ifname() - the device a state was read from
 * @state: the state
 *
 * Return: its name, valid as long as @state.
 */
NP_EXPORT const char *np_state_ifname(const struct np_state *state);
/**
 * np_state_to_json() - the state as JSON (netpolicy-model(5)), the one serializer
 * @state: the state
 * @ret: set to a new json object the caller puts
 *
 * Return: 0, or -ENOMEM.
 */
NP_EXPORT int np_state_to_json(const struct np_state *state, struct json_object **ret);

/* --- policies and plans -------------------------------------------------- */

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

/* --- apply, reset, recovery ------------------------------------------------ */

/* What an apply, reset, recovery or revert did: made by the caller
 * (np_apply_result_new), filled by the call, read through accessors. */
struct np_apply_result;
/**
 * np_apply_result_new() - make a result object for an apply, reset or revert
 *
 * Return: the object, or NULL when out of memory.
 */
NP_EXPORT struct np_apply_result *np_apply_result_new(void);
/**
 * np_apply_result_free() - free a result object
 * @res: the object, or NULL
 */
NP_EXPORT void np_apply_result_free(struct np_apply_result *res);
/**
 * np_apply_result_changed() - whether the device was changed and kept so
 * @res: the result
 *
 * Return: true or false.
 */
NP_EXPORT bool np_apply_result_changed(const struct np_apply_result *res);
/**
 * np_apply_result_writes() - how many state-changing kernel calls were made
 * @res: the result
 *
 * Rollback included.
 *
 * Return: the count.
 */
NP_EXPORT unsigned np_apply_result_writes(const struct np_apply_result *res);
/**
 * np_apply_result_rolled_back() - whether a failure was rolled back
 * @res: the result
 *
 * Return: true or false.
 */
NP_EXPORT bool np_apply_result_rolled_back(const struct np_apply_result *res);
/**
 * np_apply_result_rollback_incomplete() - whether the rollback left the device differing
 * @res: the result
 *
 * The journal is kept; np_apply_result_rollback_msg() says what differs.
 *
 * Return: true or false.
 */
NP_EXPORT bool np_apply_result_rollback_incomplete(const struct np_apply_result *res);
/**
 * np_apply_result_rollback_msg() - what still differs after an incomplete rollback
 * @res: the result
 *
 * Return: the text, "" when nothing differs.
 */
NP_EXPORT const char *np_apply_result_rollback_msg(const struct np_apply_result *res);
/**
 * np_apply_result_recovered() - whether an interrupted earlier apply was rolled back first
 * @res: the result
 *
 * Return: true or false.
 */
NP_EXPORT bool np_apply_result_recovered(const struct np_apply_result *res);
/**
 * np_apply_result_vanished() - whether the device disappeared
 * @res: the result
 *
 * Nothing was left to roll back.
 *
 * Return: true or false.
 */
NP_EXPORT bool np_apply_result_vanished(const struct np_apply_result *res);
/**
 * np_apply_result_notes() - values the driver rounded
 * @res: the result
 *
 * Return: "; "-separated values, "" when none.
 */
NP_EXPORT const char *np_apply_result_notes(const struct np_apply_result *res);
/**
 * np_apply_result_n_dropped() - how many refinements the driver refused and the apply left out
 * @res: the result
 *
 * Never with NP_APPLY_STRICT.
 *
 * Return: the count.
 */
NP_EXPORT unsigned np_apply_result_n_dropped(const struct np_apply_result *res);
/**
 * np_apply_result_dropped_knob() - a refinement the driver refused
 * @res: the result
 * @i: which, below np_apply_result_n_dropped()
 *
 * Return: the knob's name, or NULL for @i out of range.
 */
NP_EXPORT const char *np_apply_result_dropped_knob(const struct np_apply_result *res, unsigned i);
/**
 * np_apply_result_dropped_reason() - why the driver refused a refinement
 * @res: the result
 * @i: which, below np_apply_result_n_dropped()
 *
 * Return: the kernel's reason, or NULL for @i out of range.
 */
NP_EXPORT const char *np_apply_result_dropped_reason(const struct np_apply_result *res,
						     unsigned i);
/**
 * np_apply_result_dropped_field() - the one field of a refused refinement left out
 * @res: the result
 * @i: which, below np_apply_result_n_dropped()
 *
 * A coalescing request of several fields that the driver refused is tried
 * again one field per request; the field it refused is left out and the
 * others applied.
 *
 * Return: the field's name ("rx-frames"), "" when the whole knob was left
 * out, or NULL for @i out of range.
 */
NP_EXPORT const char *np_apply_result_dropped_field(const struct np_apply_result *res,
						    unsigned i);
/**
 * np_apply_result_dropped_errno() - the error the driver refused a refinement with
 * @res: the result
 * @i: which, below np_apply_result_n_dropped()
 *
 * Return: the errno's name ("EINVAL", "ERANGE", "EOPNOTSUPP"), or NULL for
 * @i out of range.
 */
NP_EXPORT const char *np_apply_result_dropped_errno(const struct np_apply_result *res,
						    unsigned i);
/**
 * np_apply_result_token() - the token of a tentative apply
 * @res: the result
 *
 * What np_revert_tentative() needs (NP_APPLY_TENTATIVE).
 *
 * Return: the token, 0 when the apply was not tentative.
 */
NP_EXPORT unsigned long long np_apply_result_token(const struct np_apply_result *res);
/**
 * np_apply_result_deadline() - the deadline of a tentative apply
 * @res: the result
 *
 * Reverted after it (NP_APPLY_TENTATIVE).
 *
 * Return: CLOCK_REALTIME seconds, 0 when not tentative.
 */
NP_EXPORT long long np_apply_result_deadline(const struct np_apply_result *res);
/**
 * np_apply_result_interrupted() - whether the cancel callback stopped the run
 * @res: the result
 *
 * The run was rolled back.
 *
 * Return: true or false.
 */
NP_EXPORT bool np_apply_result_interrupted(const struct np_apply_result *res);
/**
 * np_apply_result_unrecorded() - whether the change was kept but not recorded
 * @res: the result
 *
 * A record or the journal could not be updated (the error says which);
 * the next command for the device completes it.
 *
 * Return: true or false.
 */
NP_EXPORT bool np_apply_result_unrecorded(const struct np_apply_result *res);
/**
 * np_apply_result_other_writer() - whether another writer changed the device during the run
 * @res: the result
 *
 * Return: true or false.
 */
NP_EXPORT bool np_apply_result_other_writer(const struct np_apply_result *res);
/**
 * np_apply_result_renamed_to() - the name a vanished device was renamed to
 * @res: the result
 *
 * Return: the new name, "" when the device left the namespace or was deleted.
 */
NP_EXPORT const char *np_apply_result_renamed_to(const struct np_apply_result *res);

/* Asked before each step of an apply: true stops it and rolls back what it
 * wrote (a signal handler's flag; never asked during a rollback). */
typedef bool (*np_cancel_fn)(void *userdata);
/**
 * np_ctx_set_cancel() - how an apply learns it should stop
 * @ctx: the context
 * @fn: asked before each step of an apply (NULL: never stopped)
 * @userdata: passed to @fn
 */
NP_EXPORT void np_ctx_set_cancel(struct np_ctx *ctx, np_cancel_fn fn, void *userdata);

typedef int (*np_tentative_fn)(void *userdata, unsigned long long token, long long deadline);
/**
 * np_ctx_set_tentative() - the deadline and watchdog of an NP_APPLY_TENTATIVE apply
 * @ctx: the context
 * @seconds: the deadline, from the start of the apply
 * @fn: called once the deadline, the token and the state to return to are
 *	durably recorded and before the first write (start the watchdog
 *	there); a negative return aborts the apply with nothing changed
 * @userdata: passed to @fn
 */
NP_EXPORT void np_ctx_set_tentative(struct np_ctx *ctx, unsigned seconds, np_tentative_fn fn,
				    void *userdata);

enum np_apply_flags {
	/* Keep what is needed to undo this apply until np_confirm(); a revert
	 * with the returned token undoes it (netplan try, commit confirmed). */
	NP_APPLY_TENTATIVE = 1u << 0,
	/* All or nothing: a knob the driver refuses rolls everything back, even
	 * one the policy could do without. */
	NP_APPLY_STRICT = 1u << 1,
};

/**
 * np_apply() - apply a plan: all of it or, on any failure, nothing
 * @ctx: the context
 * @plan: the plan, from np_plan_compute()
 * @flags: enum np_apply_flags
 * @res: filled with what the apply did
 * @err: filled on failure (may be NULL)
 *
 * On a failure the device is rolled back to what it was and re-read to
 * prove it.  Takes the device's lock, finishes an interrupted earlier apply
 * first, saves the pristine state once for np_reset(), journals each step.
 * A device already at the plan's target is not written to at all.
 *
 * Return: 0, or a negative errno (@res says whether it was rolled back).
 */
NP_EXPORT int np_apply(struct np_ctx *ctx, const struct np_plan *plan, unsigned flags,
		       struct np_apply_result *res, struct np_error *err);
/**
 * np_apply_policy() - discover, plan and apply in one go, under the device's lock
 * @ctx: the context
 * @ifname: the device
 * @policy: the policy
 * @opts: planning options, or NULL
 * @flags: enum np_apply_flags
 * @ret_plan: set to the plan whenever planning succeeded, even when the
 *	apply then failed (may be NULL)
 * @res: filled with what the apply did
 * @err: filled on failure (may be NULL)
 *
 * One read of the device fewer than np_discover(), np_plan_compute() and
 * np_apply(), and no other netpolicy can change the device in between.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_apply_policy(struct np_ctx *ctx, const char *ifname,
			      const struct np_policy *policy, const struct np_plan_opts *opts,
			      unsigned flags, struct np_plan **ret_plan,
			      struct np_apply_result *res, struct np_error *err);
/**
 * np_reset_plan() - the plan back to the pristine state
 * @ctx: the context
 * @ifname: the device
 * @ret: set to the plan (free with np_plan_free())
 * @err: filled on failure (may be NULL)
 *
 * The pristine state is the one saved before netpolicy's first change.
 *
 * Return: 0, -ENOENT when netpolicy never changed the device, or another
 * negative errno.
 */
NP_EXPORT int np_reset_plan(struct np_ctx *ctx, const char *ifname, struct np_plan **ret,
			    struct np_error *err);
/**
 * np_reset() - return the device to its pristine state and forget it
 * @ctx: the context
 * @ifname: the device
 * @flags: enum np_apply_flags
 * @ret_plan: set to what it changed, from the read the reset started from
 *	(may be NULL; not set when netpolicy never changed the device)
 * @res: filled with what the reset did
 * @err: filled on failure (may be NULL)
 *
 * Return: 0 (also when netpolicy never changed the device), or a negative
 * errno.
 */
NP_EXPORT int np_reset(struct np_ctx *ctx, const char *ifname, unsigned flags,
		       struct np_plan **ret_plan, struct np_apply_result *res,
		       struct np_error *err);
/**
 * np_recover() - roll back an apply a crash interrupted
 * @ctx: the context
 * @ifname: the device
 * @res: filled; np_apply_result_recovered() says whether there was one
 * @err: filled on failure (may be NULL)
 *
 * np_apply() and np_reset() do this themselves.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_recover(struct np_ctx *ctx, const char *ifname, struct np_apply_result *res,
			 struct np_error *err);
/**
 * np_confirm() - keep a tentative apply
 * @ctx: the context
 * @ifname: the device
 * @res: filled with what was done
 * @err: filled on failure (may be NULL)
 *
 * Return: 0; -ENOENT when none is pending; -ETIME when its deadline has
 * passed and it was reverted instead (@res says how that went).
 */
NP_EXPORT int np_confirm(struct np_ctx *ctx, const char *ifname, struct np_apply_result *res,
			 struct np_error *err);
/**
 * np_revert_tentative() - undo a tentative apply unless it was confirmed
 * @ctx: the context
 * @ifname: the device
 * @token: the apply's np_apply_result_token()
 * @res: filled; np_apply_result_changed() says whether it reverted
 * @err: filled on failure (may be NULL)
 *
 * Return: 0 (also when it was confirmed: nothing done), or a negative errno.
 */
NP_EXPORT int np_revert_tentative(struct np_ctx *ctx, const char *ifname, unsigned long long token,
				  struct np_apply_result *res, struct np_error *err);
/*
 * The --confirm watchdog's own copy of what a tentative apply must return
 * to, taken before the apply's first write (from the running apply's
 * journal, or the pending marker): with it a revert does not depend on the
 * state directory keeping its records.
 */
struct np_revert_hold;
/**
 * np_revert_hold() - take the watchdog's copy of the way back
 * @ctx: the context
 * @ifname: the device
 * @token: the tentative apply's token
 * @ret: set to the copy (free with np_revert_hold_free())
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, -ENOENT when there is no such pending change, or another
 * negative errno.
 */
NP_EXPORT int np_revert_hold(struct np_ctx *ctx, const char *ifname, unsigned long long token,
			     struct np_revert_hold **ret, struct np_error *err);
/**
 * np_revert_held() - revert a tentative apply whose deadline passed
 * @ctx: the context
 * @ifname: the device
 * @h: the copy np_revert_hold() took
 * @res: filled with what the revert did
 * @err: filled on failure (may be NULL)
 *
 * Does what np_revert_tentative() does; when the state directory lost its
 * records meanwhile (emptied: another lock file, or none) it reverts from
 * the copy.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_revert_held(struct np_ctx *ctx, const char *ifname,
			     const struct np_revert_hold *h, struct np_apply_result *res,
			     struct np_error *err);
/**
 * np_revert_hold_orphaned() - whether the copy is all that is left of its change
 * @ctx: the context
 * @ifname: the device
 * @h: the copy np_revert_hold() took
 *
 * True when the device's lock file is not the one the copy was taken under
 * (the state directory was emptied): the change is still unconfirmed and
 * only the copy can revert it.  False when the records a command ended
 * (confirm, reset, a later set) went under the same lock file.
 *
 * Return: true or false.
 */
NP_EXPORT bool np_revert_hold_orphaned(struct np_ctx *ctx, const char *ifname,
				       const struct np_revert_hold *h);
/**
 * np_revert_hold_free() - free a copy np_revert_hold() took
 * @h: the copy, or NULL
 */
NP_EXPORT void np_revert_hold_free(struct np_revert_hold *h);
/**
 * np_tentative_wait() - the --confirm watchdog's wait
 * @ctx: the context
 * @ifname: the device
 * @token: the tentative apply's token
 * @deadline: CLOCK_REALTIME seconds
 * @err: filled on failure (may be NULL)
 *
 * Waits until @deadline, or until the tentative apply @token is no longer
 * pending (confirmed, reset, superseded by a later set, or its run rolled
 * back), whichever comes first; woken by the state directory's changes
 * (inotify), so a watchdog whose change was ended exits at once.
 *
 * Return: 1 when the deadline came with it still pending (revert it); 0
 * when it ended; a negative errno when the directory cannot be watched.
 */
NP_EXPORT int np_tentative_wait(struct np_ctx *ctx, const char *ifname, unsigned long long token,
				long long deadline, struct np_error *err);

/* What the state directory says is pending for the device (reads only). */
struct np_pending {
	size_t sz;			/* set by the caller: sizeof(struct np_pending) */
	bool journal;			/* an interrupted run: the next change rolls it back */
	bool tentative;			/* a 'set --confirm' awaits confirmation ... */
	long long deadline;		/* ... until then (CLOCK_REALTIME seconds) */
	unsigned long long token;
};
/**
 * np_pending_state() - what the state directory says is pending for a device
 * @ctx: the context
 * @ifname: the device
 * @ret: its sz set by the caller; the rest filled on success only
 * @err: filled on failure (may be NULL)
 *
 * Reads only.
 *
 * Return: 0, or a negative errno (-EINVAL for a @ret whose sz is not set).
 */
NP_EXPORT int np_pending_state(struct np_ctx *ctx, const char *ifname, struct np_pending *ret,
			       struct np_error *err);

struct np_active;
/**
 * np_active_policy() - what netpolicy last applied to a device
 * @ctx: the context
 * @ifname: the device
 * @ret: set to a new object the caller frees with np_active_free()
 * @err: filled on failure (may be NULL)
 *
 * Reads the policy record only.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_active_policy(struct np_ctx *ctx, const char *ifname, struct np_active **ret,
			       struct np_error *err);
/**
 * np_active_free() - free a record np_active_policy() made
 * @active: the record, or NULL
 */
NP_EXPORT void np_active_free(struct np_active *active);
/**
 * np_active_name() - the applied policy's name
 * @active: the record
 *
 * Return: the name, "" when none.
 */
NP_EXPORT const char *np_active_name(const struct np_active *active);
/**
 * np_active_cpus() - the CPUs the applied policy was planned with
 * @active: the record
 *
 * Return: the --cpus list, "" for the default.
 */
NP_EXPORT const char *np_active_cpus(const struct np_active *active);
/**
 * np_active_drop() - knobs the driver refused, left out
 * @active: the record
 *
 * Return: the comma-separated list (np_plan_opts.drop), "" when none.
 */
NP_EXPORT const char *np_active_drop(const struct np_active *active);
/**
 * np_active_link_speed() - the link speed the applied policy was planned for
 * @active: the record (NULL: none)
 *
 * Return: Mb/s, or 0 when the link speed was unknown then (or the record
 * was written before records kept it); for np_plan_opts.link_speed.
 */
NP_EXPORT uint32_t np_active_link_speed(const struct np_active *active);
/**
 * np_active_written() - when the applied policy was recorded
 * @active: the record (NULL: none)
 *
 * The time the device's policy record was last written: by the apply
 * that recorded the policy (set, switch, confirm); reset removes it.
 *
 * Return: CLOCK_REALTIME seconds, 0 when there is no record.
 */
NP_EXPORT long long np_active_written(const struct np_active *active);
/**
 * np_active_n_flows() - how many flows the applied mixed policy has
 * @active: the record
 *
 * The mixed policy's options as applied plan it again the same way
 * (np_plan_opts).
 *
 * Return: the count, 0 for another policy.
 */
NP_EXPORT size_t np_active_n_flows(const struct np_active *active);
/**
 * np_active_flow() - one flow of the applied mixed policy
 * @active: the record
 * @i: which, below np_active_n_flows()
 *
 * Return: "CLASS:SPEC", or NULL for @i out of range.
 */
NP_EXPORT const char *np_active_flow(const struct np_active *active, size_t i);
/**
 * np_active_default_class() - the class of unclassified traffic
 * @active: the record
 *
 * Return: the class's name, or NULL when the policy is not mixed.
 */
NP_EXPORT const char *np_active_default_class(const struct np_active *active);
/**
 * np_active_weights() - the classes' weights as applied
 * @active: the record
 *
 * Return: "latency=1,throughput=2,cpu=1" style, or NULL when the policy is
 * not mixed.
 */
NP_EXPORT const char *np_active_weights(const struct np_active *active);
/**
 * np_active_classes_json() - the classes of a device in mixed mode
 * @active: the record
 * @ret: set to {CLASS: {"weight", "queues": {"first", "count"}, "cpus",
 *	"rss_context", "rules": [LOCATION...]}} (netpolicy-json(7)), or NULL
 *	when the policy is not mixed
 *
 * Return: 0, or -ENOMEM.
 */
NP_EXPORT int np_active_classes_json(const struct np_active *active, struct json_object **ret);

/* --- change notifications (netpolicy watch) ---------------------------------- */

/*
 * Tells when a device's policy may have been lost: another program changed
 * a setting through ethtool (any ethtool netlink *_NTF message, which the
 * ioctl path sends too), or a link came up (IRQs are requested and queues
 * often reset in ndo_open).  Reads send nothing, so show and check are
 * silent.  The kernel backend only: -EOPNOTSUPP with a model.
 *
 *   np_monitor_open(ctx, &m, err);
 *   poll np_monitor_fd(m) for POLLIN, then
 *   while ((r = np_monitor_next(m, err)) > 0)
 *           ...np_monitor_ifname(m), np_monitor_what(m)...
 *
 * np_monitor_next returns 1 with an event, 0 when none is pending, -errno.
 * An event with ifindex 0 and what "overrun" means notifications were lost
 * (the socket's buffer overflowed): any device may have changed.
 */
struct np_monitor;
/**
 * np_monitor_open() - listen for changes to devices
 * @ctx: the context (the kernel backend)
 * @ret: set to the monitor (free with np_monitor_free())
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, -EOPNOTSUPP with a model, or another negative errno.
 */
NP_EXPORT int np_monitor_open(struct np_ctx *ctx, struct np_monitor **ret, struct np_error *err);
/**
 * np_monitor_free() - close a monitor
 * @m: the monitor, or NULL
 */
NP_EXPORT void np_monitor_free(struct np_monitor *m);
/**
 * np_monitor_fd() - the descriptor to poll for POLLIN
 * @m: the monitor
 *
 * Return: the file descriptor.
 */
NP_EXPORT int np_monitor_fd(const struct np_monitor *m);
/**
 * np_monitor_next() - read the next event
 * @m: the monitor
 * @err: filled on failure (may be NULL)
 *
 * Return: 1 with an event, 0 when none is pending, or a negative errno.
 */
NP_EXPORT int np_monitor_next(struct np_monitor *m, struct np_error *err);
/**
 * np_monitor_ifindex() - the current event's device index
 * @m: the monitor
 *
 * Return: the index; 0 with "overrun" (any device may have changed).
 */
NP_EXPORT int np_monitor_ifindex(const struct np_monitor *m);
/**
 * np_monitor_ifname() - the current event's device name
 * @m: the monitor
 *
 * Return: the name, valid until the next np_monitor_next().
 */
NP_EXPORT const char *np_monitor_ifname(const struct np_monitor *m);
/**
 * np_monitor_what() - what the current event says changed
 * @m: the monitor
 *
 * Return: "channels", "rings", "coalesce", "features", ..., "link up",
 * "overrun".
 */
NP_EXPORT const char *np_monitor_what(const struct np_monitor *m);

/* --- configuration ---------------------------------------------------------- */

/*
 * Which policy each device gets, from an INI-style file (netpolicy.conf(5)):
 * "[DEVICE]" sections with "policy = NAME" and optional "cpus = LIST".  The
 * whole file is validated on load; an error is NP_PHASE_INPUT with a message
 * "FILE:LINE: reason".  CPUs being online is checked later, when planning.
 */
#define NP_CONFIG_PATH NP_CONFIG_DIR "/netpolicy.conf"

struct np_config;

/**
 * np_config_load() - read and validate a configuration file
 * @ctx: the context, or NULL (it is only used for logging)
 * @path: the file, or NULL for NP_CONFIG_PATH
 * @ret: set to the configuration (free with np_config_free())
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, or a negative errno (NP_PHASE_INPUT, "FILE:LINE: reason").
 */
NP_EXPORT int np_config_load(struct np_ctx *ctx, const char *path, struct np_config **ret,
			     struct np_error *err);
/**
 * np_config_free() - free a configuration
 * @cfg: the configuration, or NULL
 */
NP_EXPORT void np_config_free(struct np_config *cfg);
/**
 * np_config_path() - the file a configuration was read from
 * @cfg: the configuration
 *
 * Return: the path.
 */
NP_EXPORT const char *np_config_path(const struct np_config *cfg);
/**
 * np_config_n_devices() - how many devices the configuration names
 * @cfg: the configuration
 *
 * Devices are in file order; the accessors below return NULL (0) for an
 * index out of range.
 *
 * Return: the count.
 */
NP_EXPORT size_t np_config_n_devices(const struct np_config *cfg);
/**
 * np_config_ifname() - a configured device's name
 * @cfg: the configuration
 * @i: which device
 *
 * Return: the name, or NULL.
 */
NP_EXPORT const char *np_config_ifname(const struct np_config *cfg, size_t i);
/**
 * np_config_policy() - a configured device's policy
 * @cfg: the configuration
 * @i: which device
 *
 * Return: the policy's name, or NULL.
 */
NP_EXPORT const char *np_config_policy(const struct np_config *cfg, size_t i);
/**
 * np_config_cpus() - a configured device's CPUs
 * @cfg: the configuration
 * @i: which device
 *
 * Return: the cpus list as written (np_plan_opts.cpus), or NULL when not
 * given.
 */
NP_EXPORT const char *np_config_cpus(const struct np_config *cfg, size_t i);
/**
 * np_config_line() - where a configured device's section starts
 * @cfg: the configuration
 * @i: which device
 *
 * Return: the line of its [section] header, 0 for @i out of range.
 */
NP_EXPORT unsigned np_config_line(const struct np_config *cfg, size_t i);
/**
 * np_config_mixed_opts() - a mixed device's options, for planning
 * @cfg: the configuration
 * @i: which device
 * @opts: receives the flow, default-class and weight keys
 *	(NP_PLAN_OPTS_MIXED), valid as long as @cfg; untouched for other
 *	policies
 */
NP_EXPORT void np_config_mixed_opts(const struct np_config *cfg, size_t i, struct np_plan_opts *opts);
/**
 * np_config_find() - a device's section
 * @cfg: the configuration
 * @ifname: the device
 * @ret: set to its index
 *
 * Return: 0, or -ENOENT.
 */
NP_EXPORT int np_config_find(const struct np_config *cfg, const char *ifname, size_t *ret);
/**
 * np_config_to_json() - a configuration as JSON
 * @cfg: the configuration
 * @ret: set to {"path": ..., "devices": [{"ifname", "policy", "cpus" (or
 *	null), "line"}]}, a new object the caller puts
 *
 * Return: 0, or -ENOMEM.
 */
NP_EXPORT int np_config_to_json(const struct np_config *cfg, struct json_object **ret);

/* --- traffic classes (the mixed policy) ------------------------------------- */

/*
 * The classes a mixed device serves side by side (netpolicy-flows(7)): each
 * gets its own queues, CPUs, RSS context and coalescing; flows are steered
 * to it by ntuple rules, tasks run on its CPUs, sockets opt in with
 * np_socket_set_class().
 */
enum np_class {
	NP_CLASS_LATENCY = 0,
	NP_CLASS_THROUGHPUT,
	NP_CLASS_CPU,
	NP_CLASS__COUNT
};

/**
 * np_class_name() - a class's name
 * @cls: the class
 *
 * Return: "latency", "throughput", "cpu"; NULL for a value out of range.
 */
NP_EXPORT const char *np_class_name(enum np_class cls);
/**
 * np_class_from_name() - a class by name
 * @name: "latency", "throughput" or "cpu"
 * @ret: set to the class
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, or -EINVAL (NP_PHASE_INPUT) for an unknown name.
 */
NP_EXPORT int np_class_from_name(const char *name, enum np_class *ret, struct np_error *err);

/* The socket options a class implies (values and their sources: see
 * np_socket_set_class and netpolicy-flows(7)). */
struct np_socket_opts {
	size_t sz;		/* set by the caller: sizeof(struct np_socket_opts) */
	int busy_poll_usecs;	/* SO_BUSY_POLL: 0 = no busy polling */
	int prefer_busy_poll;	/* SO_PREFER_BUSY_POLL: 0 or 1 */
	int busy_poll_budget;	/* SO_BUSY_POLL_BUDGET: 0 = the kernel's default (8) */
	int priority;		/* SO_PRIORITY: 0..6 need no privilege */
};
/**
 * np_class_socket_opts() - the socket options a class implies
 * @cls: the class
 * @ret: its sz set by the caller; the rest filled on success only
 *
 * Return: 0, or -EINVAL for a class out of range or a @ret whose sz is not
 * set.
 */
NP_EXPORT int np_class_socket_opts(enum np_class cls, struct np_socket_opts *ret);

/**
 * np_socket_set_class() - put one socket into a class
 * @fd: the socket
 * @cls: the class
 * @err: filled on failure (may be NULL)
 *
 * Sets SO_BUSY_POLL, SO_PREFER_BUSY_POLL,
 * SO_BUSY_POLL_BUDGET and SO_PRIORITY to the class's values (a socket moved
 * from latency to throughput gets its busy polling switched off again).
 * Raising busy polling needs CAP_NET_ADMIN (net/core/sock.c): -EPERM
 * without it, with the option named in err->msg.  Options are set in the
 * order above; on failure the ones before it stay set.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_socket_set_class(int fd, enum np_class cls, struct np_error *err);

/**
 * np_class_cpus() - the CPUs of a class, to run a task there
 * @ctx: the context
 * @ifname: a device netpolicy set to the mixed policy
 * @cls: the class
 * @cpuset: a cpu_set_t, filled as CPU_SET_S does
 * @setsize: its size in bytes
 * @err: filled on failure (may be NULL)
 *
 * From the device's policy record.  cpuset is a cpu_set_t of setsize
 * bytes (sizeof(cpu_set_t), or CPU_ALLOC_SIZE(n) for a larger one), filled
 * as CPU_SET_S does, ready for sched_setaffinity(0, setsize, cpuset): a
 * task run there transmits on the class's queues (XPS) and has its flows
 * received there (RFS).  -ENOTCONN when the device is not in mixed mode
 * (or netpolicy set nothing on it); -ENOENT when the class has no flows;
 * -ERANGE when a CPU does not fit in setsize bytes.  Reads only.
 *
 * Return: 0, or one of the negative errnos above.
 *
 *	cpu_set_t set;
 *	if (np_class_cpus(ctx, "eth0", NP_CLASS_LATENCY, &set, sizeof(set), err) == 0)
 *		sched_setaffinity(0, sizeof(set), &set);
 */
NP_EXPORT int np_class_cpus(struct np_ctx *ctx, const char *ifname, enum np_class cls,
			    void *cpuset, size_t setsize, struct np_error *err);


/* --- try: measure policies on the device with the caller's workload --------- */

struct np_try;
struct np_try_sample;

/* What a sample measures over one run of the caller's workload. */
enum np_try_measure {
	NP_TRY_WALL = 0,	/* seconds of wall-clock time */
	NP_TRY_CHILD_CPU,	/* CPU seconds (user + system) of the children waited for */
	NP_TRY_CPU_USER,	/* machine-wide CPU seconds in user mode (user + nice) */
	NP_TRY_CPU_SYSTEM,	/* ... in the kernel, interrupts excluded */
	NP_TRY_CPU_SOFTIRQ,	/* ... in softirqs (the network stack's receive path) */
	NP_TRY_RX_BYTES,	/* the device's counters (rtnetlink stats64) */
	NP_TRY_TX_BYTES,
	NP_TRY_RX_PACKETS,
	NP_TRY_TX_PACKETS,
	NP_TRY_DROPS,		/* received and transmitted packets dropped */
	NP_TRY_ERRORS,		/* receive and transmit errors */
	NP_TRY_CPU_PER_GB,	/* machine CPU seconds (user, system, softirq) per 10^9 bytes
				 * the device moved (received + sent); -1 when it moved none */
	NP_TRY_MEASURE__COUNT
};

/**
 * np_try_measure_name() - the name of a measure, as the JSON member says it
 * @m: the measure
 *
 * Return: "wall_s", "child_cpu_s", "cpu_user_s", ..., static; NULL for a
 * value this library does not know.
 */
NP_EXPORT const char *np_try_measure_name(enum np_try_measure m);

/**
 * np_try_begin() - start measuring policies on a device: take it and note its baseline
 * @ctx: the context
 * @ifname: the device
 * @ret: set to the run (end it with np_try_end(), free it with np_try_free())
 * @err: filled on failure (may be NULL)
 *
 * Takes the device's lock and keeps it until np_try_free(), so no other
 * netpolicy (nor `watch`) changes the device in between.  Finishes an
 * interrupted earlier run first, as every apply does; refuses with -EBUSY
 * while a tentative apply (NP_APPLY_TENTATIVE) waits for np_confirm().
 * The baseline is the device as it is now (its pristine state and any
 * policy applied since), and a journal whose state to return to is that
 * baseline is written before the first change: a process killed during the
 * run leaves the device for the next netpolicy command to roll back to it.
 * Writes nothing to the device.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_try_begin(struct np_ctx *ctx, const char *ifname, struct np_try **ret,
			   struct np_error *err);
/**
 * np_try_apply() - bring the device to one condition of the run
 * @t: the run
 * @policy: the policy to apply, or NULL for the baseline
 * @opts: its options (may be NULL); as np_plan_compute() takes them
 * @res: filled with what this step did
 * @err: filled on failure (may be NULL)
 *
 * The policy is planned from the baseline, as a `set` from it would, and the
 * device converges to that plan through the same engine, journal marks and
 * verification as np_apply(); no record changes (the policy record stays the
 * baseline's).  Then waits, at most 10 seconds, for the link to be up again
 * when it was up at the start.  On any failure (the cancel callback
 * included) the device is returned to the baseline and verified, and the
 * error returned: res says whether that worked.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_try_apply(struct np_try *t, const struct np_policy *policy,
			   const struct np_plan_opts *opts, struct np_apply_result *res,
			   struct np_error *err);
/**
 * np_try_sample_start() - read the counters before one run of the workload
 * @t: the run
 * @ret: set to the sample (free with np_try_sample_free())
 * @err: filled on failure (may be NULL)
 *
 * Reads the device's statistics, the machine's CPU time (/proc/stat, below
 * the context's root) and this process's children's resource usage.  The
 * caller then runs and waits for its workload, and calls
 * np_try_sample_stop().
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_try_sample_start(struct np_try *t, struct np_try_sample **ret,
				  struct np_error *err);
/**
 * np_try_sample_stop() - read the counters again: the sample is their difference
 * @t: the run
 * @s: the sample from np_try_sample_start()
 * @err: filled on failure (may be NULL)
 *
 * Return: 0, or a negative errno (the sample is then unchanged).
 */
NP_EXPORT int np_try_sample_stop(struct np_try *t, struct np_try_sample *s, struct np_error *err);
/**
 * np_try_sample_get() - one measure of a stopped sample
 * @s: the sample
 * @m: the measure
 *
 * Return: its value in the unit enum np_try_measure gives; -1 for a measure
 * this library does not know or a sample not stopped.
 */
NP_EXPORT double np_try_sample_get(const struct np_try_sample *s, enum np_try_measure m);
/**
 * np_try_sample_free() - free a sample
 * @s: the sample (NULL is a no-op)
 */
NP_EXPORT void np_try_sample_free(struct np_try_sample *s);
/**
 * np_try_end() - return the device to the baseline exactly, and maybe keep a policy
 * @t: the run
 * @keep: a policy to apply then as np_apply_policy() would (records saved,
 *	so np_check works), under the same lock; NULL to keep the baseline
 * @opts: its options (may be NULL)
 * @flags: enum np_apply_flags, for @keep
 * @ret_plan: with @keep, set to its plan (may be NULL; free with np_plan_free())
 * @res: filled with what the end did
 * @err: filled on failure (may be NULL)
 *
 * The device converges to the baseline and is verified; then the run's
 * journal is removed.  If the device still differs, the journal is kept
 * (res says rollback_incomplete) and the next command tries again.  Ending
 * twice writes nothing the second time.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_try_end(struct np_try *t, const struct np_policy *keep,
			 const struct np_plan_opts *opts, unsigned flags, struct np_plan **ret_plan,
			 struct np_apply_result *res, struct np_error *err);
/**
 * np_try_free() - end the run if it was not ended, release the device and free
 * @t: the run (NULL is a no-op)
 *
 * A run not ended is ended without a policy to keep (its failures only
 * logged), so the device is never left in a condition of the run.
 */
NP_EXPORT void np_try_free(struct np_try *t);

#ifdef __cplusplus
}
#endif
#endif
