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
 * ABI rule.  What this header declares is kept for the life of the soname:
 *  - every type a caller could need to grow is opaque (contexts, states,
 *    policies, plans, errors, apply results, the active record, configs) and
 *    read through accessors; new information comes as new accessors;
 *  - the few public structs (np_plan_opts) are filled by the caller, zeroed
 *    first, and only ever gain members at their end behind a flag bit or a
 *    version member that older callers leave 0;
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

#include <netpolicy/version.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef NP_EXPORT
#define NP_EXPORT __attribute__((visibility("default")))
#endif

/* The library's version, "MAJOR.MINOR.PATCH": the one linked in, which the
 * NP_VERSION_* macros of the header a program was compiled with may not be. */
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
NP_EXPORT struct np_error *np_error_new(void);	/* NULL when out of memory */
NP_EXPORT void np_error_free(struct np_error *err);
NP_EXPORT void np_error_clear(struct np_error *err);
/* in, with control characters and DEL written as \n, \t, \r or \xHH, into
 * out (len bytes, NUL-terminated, truncated to fit); returns its length.
 * Every message of the library is escaped so; for names a caller prints. */
NP_EXPORT size_t np_escape(const char *in, char *out, size_t len);
NP_EXPORT int np_error_code(const struct np_error *err);	/* negative errno, 0: none */
NP_EXPORT enum np_phase np_error_phase(const struct np_error *err);
/* "channels", "irq-affinity", ... or NULL; valid as long as the library is */
NP_EXPORT const char *np_error_knob(const struct np_error *err);
NP_EXPORT int np_error_step(const struct np_error *err);	/* plan step, or -1 */
NP_EXPORT const char *np_error_message(const struct np_error *err);	/* ours, "" */
NP_EXPORT const char *np_error_extack(const struct np_error *err);	/* the kernel's, "" */
/* "channels: requested channel count exceeds maximum" style one-liner. */
NP_EXPORT const char *np_error_format(const struct np_error *err, char *buf, size_t len);
NP_EXPORT const char *np_phase_name(enum np_phase phase);

/* --- context ------------------------------------------------------------ */

enum np_log_level {
	NP_LOG_ERR = 3, NP_LOG_WARNING = 4,
	NP_LOG_NOTICE = 5,	/* normal but worth saying: waiting for a lock */
	NP_LOG_INFO = 6, NP_LOG_DEBUG = 7,
};
typedef void (*np_log_fn)(void *userdata, enum np_log_level level, const char *msg);

NP_EXPORT int np_ctx_new(struct np_ctx **ret, struct np_error *err);
NP_EXPORT void np_ctx_free(struct np_ctx *ctx);
NP_EXPORT void np_ctx_set_log(struct np_ctx *ctx, np_log_fn fn, void *userdata);
/* Where locks, journals and pristine snapshots live (default /run/netpolicy). */
NP_EXPORT int np_ctx_set_state_dir(struct np_ctx *ctx, const char *dir, struct np_error *err);
/* The state directory in use: the one set, or the default (/run/netpolicy;
 * with a model, /run/netpolicy-sim.HASH of the model's path). */
NP_EXPORT const char *np_ctx_state_dir(const struct np_ctx *ctx);
/* How long to wait for a device another netpolicy is working on: seconds,
 * 0 not at all, -1 (the default) for ever.  A wait is logged at
 * NP_LOG_NOTICE; its end without the lock is an NP_PHASE_LOCK error. */
NP_EXPORT void np_ctx_set_lock_wait(struct np_ctx *ctx, int seconds);
/* Use the simulated backend with the machine model in FILE (JSON). */
NP_EXPORT int np_ctx_set_model(struct np_ctx *ctx, const char *file, struct np_error *err);
NP_EXPORT const char *np_ctx_backend_name(const struct np_ctx *ctx);

/* --- discovery ---------------------------------------------------------- */

/* 0 if NAME can be a network device name (length, no '/', not "." or ".."). */
NP_EXPORT int np_ifname_validate(const char *name, struct np_error *err);
/* Names of the interfaces backed by a device (not lo, veth peers count). */
NP_EXPORT int np_list_devices(struct np_ctx *ctx, char ***ret, size_t *ret_n, struct np_error *err);
NP_EXPORT void np_list_free(char **list, size_t n);

NP_EXPORT int np_discover(struct np_ctx *ctx, const char *ifname, struct np_state **ret,
			  struct np_error *err);
NP_EXPORT void np_state_free(struct np_state *state);
NP_EXPORT const char *np_state_ifname(const struct np_state *state);
/* The one serializer: a new json object the caller puts. */
NP_EXPORT int np_state_to_json(const struct np_state *state, struct json_object **ret);

/* --- policies and plans -------------------------------------------------- */

NP_EXPORT size_t np_policy_count(void);
NP_EXPORT const struct np_policy *np_policy_at(size_t i);
NP_EXPORT int np_policy_lookup(const char *name, const struct np_policy **ret, struct np_error *err);
NP_EXPORT const char *np_policy_name(const struct np_policy *policy);
/* The built-ins only; np_policies_list_json() has the custom ones too. */
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
NP_EXPORT int np_ctx_set_policy_dir(struct np_ctx *ctx, const char *dir, struct np_error *err);
NP_EXPORT const char *np_ctx_policy_dir(const struct np_ctx *ctx);
/* NAME from the ctx's policy directory, else the built-in NAME.  The policy
 * lives as long as the ctx. */
NP_EXPORT int np_policy_find(struct np_ctx *ctx, const char *name, const struct np_policy **ret,
			     struct np_error *err);
/* One file, not cached: free it with np_policy_free(). */
NP_EXPORT int np_policy_load(const char *path, struct np_policy **ret, struct np_error *err);
NP_EXPORT void np_policy_free(struct np_policy *policy);
/* {"name", "summary", "base", "file", "values": {KEY: VALUE}, "origin":
 * {KEY: "built-in" | "FILE:LINE"}, "sets": {KNOB: REASON}}; values are what
 * a policy file can set, so the JSON turns back into the same policy: */
NP_EXPORT int np_policy_to_json(const struct np_policy *policy, struct json_object **ret);
NP_EXPORT int np_policy_from_json(struct json_object *obj, struct np_policy **ret,
				  struct np_error *err);
/* Every policy: the built-ins a file does not adjust, then the directory's. */
NP_EXPORT int np_policies_list_json(struct np_ctx *ctx, struct json_object **ret,
				    struct np_error *err);

/* np_plan_opts.flags */
enum np_plan_flags {
	/* the mixed members below are filled (NULL / 0: not given) */
	NP_PLAN_OPTS_MIXED = 1u << 0,
};

struct np_plan_opts {
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
};

/* No I/O on the device.  Reads the state directory (never creates it): the
 * device's pristine snapshot, to which knobs the policy does not own return,
 * and every device's machine-wide sysctl needs; ctx NULL plans without them.
 * The plan holds the target state and the ordered steps. */
NP_EXPORT int np_plan_compute(struct np_ctx *ctx, const struct np_policy *policy,
			      const struct np_plan_opts *opts, const struct np_state *state,
			      struct np_plan **ret, struct np_error *err);
NP_EXPORT void np_plan_free(struct np_plan *plan);
NP_EXPORT size_t np_plan_n_steps(const struct np_plan *plan);
NP_EXPORT int np_plan_to_json(const struct np_plan *plan, struct json_object **ret);

/* --- apply, reset, recovery ------------------------------------------------ */

/* What an apply, reset, recovery or revert did: made by the caller
 * (np_apply_result_new), filled by the call, read through accessors. */
struct np_apply_result;
NP_EXPORT struct np_apply_result *np_apply_result_new(void);	/* NULL: out of memory */
NP_EXPORT void np_apply_result_free(struct np_apply_result *res);
/* the device was changed (and kept so) */
NP_EXPORT bool np_apply_result_changed(const struct np_apply_result *res);
/* state-changing kernel calls made, rollback included */
NP_EXPORT unsigned np_apply_result_writes(const struct np_apply_result *res);
/* a failure was rolled back ... */
NP_EXPORT bool np_apply_result_rolled_back(const struct np_apply_result *res);
/* ... but the device still differs (journal kept), and what differs ("" if not) */
NP_EXPORT bool np_apply_result_rollback_incomplete(const struct np_apply_result *res);
NP_EXPORT const char *np_apply_result_rollback_msg(const struct np_apply_result *res);
/* an interrupted earlier apply was rolled back first */
NP_EXPORT bool np_apply_result_recovered(const struct np_apply_result *res);
/* the device disappeared: nothing left to roll back */
NP_EXPORT bool np_apply_result_vanished(const struct np_apply_result *res);
/* values the driver rounded, "; "-separated, "" when none */
NP_EXPORT const char *np_apply_result_notes(const struct np_apply_result *res);
/* Refinements the driver refused and the apply left out (not with
 * NP_APPLY_STRICT): how many, and for each (i < n) the knob and the
 * kernel's reason; NULL for i out of range. */
NP_EXPORT unsigned np_apply_result_n_dropped(const struct np_apply_result *res);
NP_EXPORT const char *np_apply_result_dropped_knob(const struct np_apply_result *res, unsigned i);
NP_EXPORT const char *np_apply_result_dropped_reason(const struct np_apply_result *res,
						     unsigned i);
/* NP_APPLY_TENTATIVE: what np_revert_tentative() needs */
NP_EXPORT unsigned long long np_apply_result_token(const struct np_apply_result *res);
/* NP_APPLY_TENTATIVE: reverted after this (CLOCK_REALTIME seconds) */
NP_EXPORT long long np_apply_result_deadline(const struct np_apply_result *res);
/* the cancel callback stopped the run, which was rolled back */
NP_EXPORT bool np_apply_result_interrupted(const struct np_apply_result *res);
/* changed and kept so, but a record or the journal could not be updated
 * (the error says which); the next command for the device completes it */
NP_EXPORT bool np_apply_result_unrecorded(const struct np_apply_result *res);
/* another writer changed the device during the run */
NP_EXPORT bool np_apply_result_other_writer(const struct np_apply_result *res);
/* vanished: the name the device was renamed to, "" when it left the
 * namespace or was deleted */
NP_EXPORT const char *np_apply_result_renamed_to(const struct np_apply_result *res);

/* Asked before each step of an apply: true stops it and rolls back what it
 * wrote (a signal handler's flag; never asked during a rollback). */
typedef bool (*np_cancel_fn)(void *userdata);
NP_EXPORT void np_ctx_set_cancel(struct np_ctx *ctx, np_cancel_fn fn, void *userdata);

/* NP_APPLY_TENTATIVE: the deadline is `seconds` from the start of the apply.
 * fn is called once the deadline, the token and the state to return to are
 * durably recorded and before the first write (start the watchdog there);
 * a negative return aborts the apply with nothing changed. */
typedef int (*np_tentative_fn)(void *userdata, unsigned long long token, long long deadline);
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

/*
 * Apply a plan: all of it or, on any failure, nothing (the device is rolled
 * back to what it was and re-read to prove it).  Takes the device's lock,
 * finishes an interrupted earlier apply first, saves the pristine state once
 * for np_reset(), journals each step.  A device already at the plan's target
 * is not written to at all.
 */
NP_EXPORT int np_apply(struct np_ctx *ctx, const struct np_plan *plan, unsigned flags,
		       struct np_apply_result *res, struct np_error *err);
/* Discover, plan and apply in one go, under the device's lock (one read of
 * the device fewer than np_discover + np_plan_compute + np_apply).  *ret_plan
 * is set whenever planning succeeded, even when the apply then failed. */
NP_EXPORT int np_apply_policy(struct np_ctx *ctx, const char *ifname,
			      const struct np_policy *policy, const struct np_plan_opts *opts,
			      unsigned flags, struct np_plan **ret_plan,
			      struct np_apply_result *res, struct np_error *err);
/* The plan back to the pristine state saved before netpolicy's first change;
 * -ENOENT when netpolicy never changed the device. */
NP_EXPORT int np_reset_plan(struct np_ctx *ctx, const char *ifname, struct np_plan **ret,
			    struct np_error *err);
/* Return the device to its pristine state and forget it (0 and no plan
 * when netpolicy never changed it).  *ret_plan (may be NULL) is what it
 * changed, from the read the reset started from. */
NP_EXPORT int np_reset(struct np_ctx *ctx, const char *ifname, unsigned flags,
		       struct np_plan **ret_plan, struct np_apply_result *res,
		       struct np_error *err);
/* Roll back an apply a crash interrupted (np_apply and np_reset do this
 * themselves); res->recovered says whether there was one. */
NP_EXPORT int np_recover(struct np_ctx *ctx, const char *ifname, struct np_apply_result *res,
			 struct np_error *err);
/* Keep a tentative apply: -ENOENT when none is pending; -ETIME when its
 * deadline has passed: it is reverted instead (res says how that went). */
NP_EXPORT int np_confirm(struct np_ctx *ctx, const char *ifname, struct np_apply_result *res,
			 struct np_error *err);
/* Undo the tentative apply `token` unless it was confirmed (then 0, nothing
 * done); res->changed says whether it reverted. */
NP_EXPORT int np_revert_tentative(struct np_ctx *ctx, const char *ifname, unsigned long long token,
				  struct np_apply_result *res, struct np_error *err);
/* The --confirm watchdog's wait: until `deadline` (CLOCK_REALTIME seconds),
 * or until the tentative apply `token` is no longer pending (confirmed,
 * reset, superseded by a later set, or its run rolled back), whichever
 * comes first; woken by the state directory's changes (inotify), so a
 * watchdog whose change was ended exits at once.  1: the deadline came
 * with it still pending (revert it: np_revert_tentative); 0: it ended;
 * -errno (err says) when the directory cannot be watched. */
NP_EXPORT int np_tentative_wait(struct np_ctx *ctx, const char *ifname, unsigned long long token,
				long long deadline, struct np_error *err);

/* What the state directory says is pending for the device (reads only). */
struct np_pending {
	bool journal;			/* an interrupted run: the next change rolls it back */
	bool tentative;			/* a 'set --confirm' awaits confirmation ... */
	long long deadline;		/* ... until then (CLOCK_REALTIME seconds) */
	unsigned long long token;
};
NP_EXPORT int np_pending_state(struct np_ctx *ctx, const char *ifname, struct np_pending *ret,
			       struct np_error *err);

/* What netpolicy last applied to the device, a new object the caller frees. */
struct np_active;
NP_EXPORT int np_active_policy(struct np_ctx *ctx, const char *ifname, struct np_active **ret,
			       struct np_error *err);
NP_EXPORT void np_active_free(struct np_active *active);
/* the policy's name, "" when none */
NP_EXPORT const char *np_active_name(const struct np_active *active);
/* the --cpus it was planned with, "" for the default */
NP_EXPORT const char *np_active_cpus(const struct np_active *active);
/* knobs the driver refused, left out (np_plan_opts.drop), "" when none */
NP_EXPORT const char *np_active_drop(const struct np_active *active);
/* The mixed policy's options as applied, to plan it again the same way
 * (np_plan_opts): its flows (0 and NULL for another policy), its default
 * class and its weights ("latency=1,throughput=2,cpu=1"); NULL when the
 * policy is not mixed. */
NP_EXPORT size_t np_active_n_flows(const struct np_active *active);
NP_EXPORT const char *np_active_flow(const struct np_active *active, size_t i);
NP_EXPORT const char *np_active_default_class(const struct np_active *active);
NP_EXPORT const char *np_active_weights(const struct np_active *active);
/* The classes of a device in mixed mode, {CLASS: {"weight", "queues":
 * {"first", "count"}, "cpus", "rss_context", "rules": [LOCATION...]}}
 * (netpolicy-json(7)); *ret NULL when the policy is not mixed. */
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
NP_EXPORT int np_monitor_open(struct np_ctx *ctx, struct np_monitor **ret, struct np_error *err);
NP_EXPORT void np_monitor_free(struct np_monitor *m);
NP_EXPORT int np_monitor_fd(const struct np_monitor *m);
NP_EXPORT int np_monitor_next(struct np_monitor *m, struct np_error *err);
/* The current event: device index and name, and what changed ("channels",
 * "rings", "coalesce", "features", ..., "link up", "overrun"). */
NP_EXPORT int np_monitor_ifindex(const struct np_monitor *m);
NP_EXPORT const char *np_monitor_ifname(const struct np_monitor *m);
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

/* path NULL: NP_CONFIG_PATH.  ctx may be NULL (it is only used for logging). */
NP_EXPORT int np_config_load(struct np_ctx *ctx, const char *path, struct np_config **ret,
			     struct np_error *err);
NP_EXPORT void np_config_free(struct np_config *cfg);
NP_EXPORT const char *np_config_path(const struct np_config *cfg);
/* Devices in file order; the accessors return NULL (0) for i out of range. */
NP_EXPORT size_t np_config_n_devices(const struct np_config *cfg);
NP_EXPORT const char *np_config_ifname(const struct np_config *cfg, size_t i);
NP_EXPORT const char *np_config_policy(const struct np_config *cfg, size_t i);
/* The cpus list as written (np_plan_opts.cpus), or NULL when not given. */
NP_EXPORT const char *np_config_cpus(const struct np_config *cfg, size_t i);
/* Line of the device's [section] header. */
NP_EXPORT unsigned np_config_line(const struct np_config *cfg, size_t i);
/* A mixed device's flow, default-class and weight keys into opts
 * (NP_PLAN_OPTS_MIXED), valid as long as cfg; nothing for other policies. */
NP_EXPORT void np_config_mixed_opts(const struct np_config *cfg, size_t i, struct np_plan_opts *opts);
/* Index of IFNAME's section, or -ENOENT. */
NP_EXPORT int np_config_find(const struct np_config *cfg, const char *ifname, size_t *ret);
/* {"path": ..., "devices": [{"ifname", "policy", "cpus" (or null), "line"}]} */
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

/* "latency", "throughput", "cpu"; NULL for a value out of range. */
NP_EXPORT const char *np_class_name(enum np_class cls);
/* -EINVAL (NP_PHASE_INPUT) for an unknown name. */
NP_EXPORT int np_class_from_name(const char *name, enum np_class *ret, struct np_error *err);

/* The socket options a class implies (values and their sources: see
 * np_socket_set_class and netpolicy-flows(7)). */
struct np_socket_opts {
	int busy_poll_usecs;	/* SO_BUSY_POLL: 0 = no busy polling */
	int prefer_busy_poll;	/* SO_PREFER_BUSY_POLL: 0 or 1 */
	int busy_poll_budget;	/* SO_BUSY_POLL_BUDGET: 0 = the kernel's default (8) */
	int priority;		/* SO_PRIORITY: 0..6 need no privilege */
};
NP_EXPORT int np_class_socket_opts(enum np_class cls, struct np_socket_opts *ret);

/*
 * Put one socket into a class: sets SO_BUSY_POLL, SO_PREFER_BUSY_POLL,
 * SO_BUSY_POLL_BUDGET and SO_PRIORITY to the class's values (a socket moved
 * from latency to throughput gets its busy polling switched off again).
 * Raising busy polling needs CAP_NET_ADMIN (net/core/sock.c): -EPERM
 * without it, with the option named in err->msg.  Options are set in the
 * order above; on failure the ones before it stay set.
 */
NP_EXPORT int np_socket_set_class(int fd, enum np_class cls, struct np_error *err);

/*
 * Per task: the CPUs of class cls on ifname, a device netpolicy set to the
 * mixed policy, from its policy record.  cpuset is a cpu_set_t of setsize
 * bytes (sizeof(cpu_set_t), or CPU_ALLOC_SIZE(n) for a larger one), filled
 * as CPU_SET_S does, ready for sched_setaffinity(0, setsize, cpuset): a
 * task run there transmits on the class's queues (XPS) and has its flows
 * received there (RFS).  -ENOTCONN when the device is not in mixed mode
 * (or netpolicy set nothing on it); -ENOENT when the class has no flows;
 * -ERANGE when a CPU does not fit in setsize bytes.  Reads only.
 *
 *	cpu_set_t set;
 *	if (np_class_cpus(ctx, "eth0", NP_CLASS_LATENCY, &set, sizeof(set), err) == 0)
 *		sched_setaffinity(0, sizeof(set), &set);
 */
NP_EXPORT int np_class_cpus(struct np_ctx *ctx, const char *ifname, enum np_class cls,
			    void *cpuset, size_t setsize, struct np_error *err);

#ifdef __cplusplus
}
#endif
#endif
