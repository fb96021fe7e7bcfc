/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: the configuration file (netpolicy.conf).
 *
 * Part of the API that <netpolicy/netpolicy.h> declares (its conventions
 * and compatibility rule hold here); include that header.
 */
#ifndef NETPOLICY_CONFIG_H
#define NETPOLICY_CONFIG_H

#include <netpolicy/plan.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif
