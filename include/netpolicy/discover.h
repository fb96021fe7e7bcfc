/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: discovery: a device's tuning state, read from the kernel.
 *
 * Part of the API that <netpolicy/netpolicy.h> declares (its conventions
 * and compatibility rule hold here); include that header.
 */
#ifndef NETPOLICY_DISCOVER_H
#define NETPOLICY_DISCOVER_H

#include <netpolicy/base.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif
