/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: try: measure policies on the device with the caller's workload.
 *
 * Part of the API that <netpolicy/netpolicy.h> declares (its conventions
 * and compatibility rule hold here); include that header.
 */
#ifndef NETPOLICY_TRY_H
#define NETPOLICY_TRY_H

#include <netpolicy/apply.h>

#ifdef __cplusplus
extern "C" {
#endif

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
 * np_try_mark() - say which condition and round the run is in
 * @t: the run
 * @condition: "baseline" or the policy's name (one line, under 64 bytes)
 * @round: from 1
 * @err: filled on failure (may be NULL)
 *
 * Recorded beside the run's journal with this process's pid and start
 * time, so np_pending_state() of the device says a try is in progress
 * (and which) rather than an interrupted run, until the run ends or this
 * process is gone.  np_try_begin() records "baseline", round 0.
 *
 * Return: 0, or a negative errno.
 */
NP_EXPORT int np_try_mark(struct np_try *t, const char *condition, unsigned round,
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
