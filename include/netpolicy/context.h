/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: the library context: logging, the state directory, locks and hooks.
 *
 * Part of the API that <netpolicy/netpolicy.h> declares (its conventions
 * and compatibility rule hold here); include that header.
 */
#ifndef NETPOLICY_CONTEXT_H
#define NETPOLICY_CONTEXT_H

#include <netpolicy/base.h>

#ifdef __cplusplus
extern "C" {
#endif

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
 * np_sysfs_same_netns() - whether /sys shows this network namespace's devices
 * @err: filled when it cannot be told (may be NULL)
 *
 * A sysfs mount lists the devices of the network namespace that mounted
 * it: after `unshare -n` or `nsenter --net` without a new mount namespace,
 * /sys is still the old namespace's.  The kernel backend refuses to
 * discover a device through such a /sys; a program that may change its
 * mount namespace (as `ip netns exec` does) can mount sysfs afresh first.
 * Telling needs CAP_SYS_ADMIN.
 *
 * Return: 1 it does, 0 it is another namespace's, or a negative errno
 * (-EPERM without the capability).
 */
NP_EXPORT int np_sysfs_same_netns(struct np_error *err);
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

#ifdef __cplusplus
}
#endif
#endif
