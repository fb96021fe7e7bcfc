/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: change notifications (netpolicy watch).
 *
 * Part of the API that <netpolicy/netpolicy.h> declares (its conventions
 * and compatibility rule hold here); include that header.
 */
#ifndef NETPOLICY_WATCH_H
#define NETPOLICY_WATCH_H

#include <netpolicy/base.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif
