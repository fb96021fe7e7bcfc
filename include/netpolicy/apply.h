/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: apply, reset, recovery and the records they leave.
 *
 * Part of the API that <netpolicy/netpolicy.h> declares (its conventions
 * and compatibility rule hold here); include that header.
 */
#ifndef NETPOLICY_APPLY_H
#define NETPOLICY_APPLY_H

#include <netpolicy/plan.h>

#ifdef __cplusplus
extern "C" {
#endif

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
 * An interrupted earlier run rolled back first (np_apply_result_recovered())
 * with writes counts as a change, whatever the apply itself did.
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
	/* a try in progress (np_try_begin) by a live process: its journal is
	 * then not counted as an interrupted run (journal is false) */
	long try_pid;			/* 0: none */
	unsigned try_round;		/* 0: before its first condition */
	char try_condition[64];		/* "baseline" or a policy's name */
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

#ifdef __cplusplus
}
#endif
#endif
