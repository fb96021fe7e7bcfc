/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: discover a NIC's tuning state, plan a policy for it and
 * apply the plan atomically.
 *
 * Conventions: every function that can fail returns 0 or a negative errno
 * and, when given one, fills a caller-owned struct np_error.  Out-parameters
 * are written only on success.  Every *_free(NULL) is a no-op.  The library
 * never prints and never exits; diagnostics go through the log callback.
 */
#ifndef NETPOLICY_NETPOLICY_H
#define NETPOLICY_NETPOLICY_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef NP_EXPORT
#define NP_EXPORT __attribute__((visibility("default")))
#endif

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
};

struct np_error {
	int code;		/* negative errno, 0 when no error */
	enum np_phase phase;
	const char *knob;	/* static string ("channels", "irq-affinity") or NULL */
	int step;		/* index of the plan step, or -1 */
	char msg[256];		/* netpolicy's words */
	char extack[256];	/* the kernel's words, when it gave any */
};

NP_EXPORT void np_error_clear(struct np_error *err);
/* "channels: requested channel count exceeds maximum" style one-liner. */
NP_EXPORT const char *np_error_format(const struct np_error *err, char *buf, size_t len);
NP_EXPORT const char *np_phase_name(enum np_phase phase);

/* --- context ------------------------------------------------------------ */

enum np_log_level { NP_LOG_ERR = 3, NP_LOG_WARNING = 4, NP_LOG_INFO = 6, NP_LOG_DEBUG = 7 };
typedef void (*np_log_fn)(void *userdata, enum np_log_level level, const char *msg);

NP_EXPORT int np_ctx_new(struct np_ctx **ret, struct np_error *err);
NP_EXPORT void np_ctx_free(struct np_ctx *ctx);
NP_EXPORT void np_ctx_set_log(struct np_ctx *ctx, np_log_fn fn, void *userdata);
/* Read sysfs and procfs below DIR instead of "/" (fixture trees in tests). */
NP_EXPORT int np_ctx_set_root(struct np_ctx *ctx, const char *dir, struct np_error *err);
/* Where locks, journals and pristine snapshots live (default /run/netpolicy). */
NP_EXPORT int np_ctx_set_state_dir(struct np_ctx *ctx, const char *dir, struct np_error *err);
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
NP_EXPORT int np_policies_to_json(struct json_object **ret);

struct np_plan_opts {
	const char *cpus;	/* cpulist the policy may use ("0-7,16"), or NULL */
	unsigned flags;		/* reserved, 0 */
	/* Knobs the plan leaves as they are, comma-separated ("coalesce,rings"):
	 * refinements the driver refused (np_apply_result.dropped), or NULL. */
	const char *drop;
};

/* Pure: no I/O.  The plan holds the target state and the ordered steps. */
NP_EXPORT int np_plan_compute(struct np_ctx *ctx, const struct np_policy *policy,
			      const struct np_plan_opts *opts, const struct np_state *state,
			      struct np_plan **ret, struct np_error *err);
NP_EXPORT void np_plan_free(struct np_plan *plan);
NP_EXPORT size_t np_plan_n_steps(const struct np_plan *plan);
NP_EXPORT int np_plan_to_json(const struct np_plan *plan, struct json_object **ret);

/* --- apply, reset, recovery ------------------------------------------------ */

#define NP_DROPPED_MAX 8

struct np_apply_result {
	bool changed;			/* the device was changed (and kept so) */
	unsigned n_writes;		/* state-changing kernel calls made, rollback included */
	bool rolled_back;		/* a failure was rolled back ... */
	bool rollback_incomplete;	/* ... but the device still differs (journal kept) */
	char rollback_msg[256];		/* what still differs, when incomplete */
	bool recovered;			/* an interrupted earlier apply was rolled back first */
	bool vanished;			/* the device disappeared: nothing left to roll back */
	char notes[512];		/* values the driver rounded, "; "-separated */
	/* Refinements the driver refused and the apply left out (not with
	 * NP_APPLY_STRICT): the knob and the kernel's reason. */
	unsigned n_dropped;
	struct np_dropped {
		char knob[16];
		char reason[240];
	} dropped[NP_DROPPED_MAX];
	unsigned long long token;	/* NP_APPLY_TENTATIVE: what np_revert_tentative() needs */
};

enum np_apply_flags {
	/* Keep what is needed to undo this apply until np_confirm(); a revert
	 * with the returned token undoes it (netplan try, commit confirmed). */
	NP_APPLY_TENTATIVE = 1u << 0,
	/* All or nothing: a knob the driver refuses rolls everything back, even
	 * one the policy could do without. */
	NP_APPLY_STRICT = 1u << 1,
};

/* Called after each step that wrote to the device (progress, test hooks). */
typedef void (*np_step_fn)(void *userdata, unsigned step, const char *knob, const char *what);
NP_EXPORT void np_ctx_set_step_hook(struct np_ctx *ctx, np_step_fn fn, void *userdata);

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
/* Keep a tentative apply: -ENOENT when none is pending. */
NP_EXPORT int np_confirm(struct np_ctx *ctx, const char *ifname, struct np_error *err);
/* Undo the tentative apply `token` unless it was confirmed (then 0, nothing
 * done); res->changed says whether it reverted. */
NP_EXPORT int np_revert_tentative(struct np_ctx *ctx, const char *ifname, unsigned long long token,
				  struct np_apply_result *res, struct np_error *err);

/* What netpolicy last applied to the device: policy "" when none. */
struct np_active {
	char policy[32];
	char cpus[256];		/* the --cpus it was planned with, "" for the default */
	char drop[128];		/* knobs the driver refused, left out (np_plan_opts.drop) */
};
NP_EXPORT int np_active_policy(struct np_ctx *ctx, const char *ifname, struct np_active *ret,
			       struct np_error *err);

/* --- configuration ---------------------------------------------------------- */

/*
 * Which policy each device gets, from an INI-style file (netpolicy.conf(5)):
 * "[DEVICE]" sections with "policy = NAME" and optional "cpus = LIST".  The
 * whole file is validated on load; an error is NP_PHASE_INPUT with a message
 * "FILE:LINE: reason".  CPUs being online is checked later, when planning.
 */
#define NP_CONFIG_PATH "/etc/netpolicy.conf"

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

#ifdef __cplusplus
}
#endif
#endif
