/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The traffic classes of the mixed policy and what each implies for one
 * socket.  Values and their sources (also in netpolicy-flows(7)):
 *
 * latency     SO_BUSY_POLL 50 us: the value the kernel documentation gives
 *             as the starting point for busy_read/busy_poll
 *             (Documentation/admin-guide/sysctl/net.rst, busy_read and
 *             busy_poll: "recommended value is 50"); SO_BUSY_POLL is the
 *             per-socket form of busy_read (socket(7)).
 *             SO_PREFER_BUSY_POLL 1: with it the kernel lets the socket's
 *             busy polling take over from the NAPI softirq instead of
 *             competing with it (Documentation/networking/napi.rst,
 *             "Busy polling" / "prefer-busy-poll"), which is the point of a
 *             latency class that owns its queues.
 *             SO_BUSY_POLL_BUDGET 64: NAPI_POLL_WEIGHT
 *             (include/linux/netdevice.h), so one busy poll may do as much
 *             as one softirq poll would; the default, BUSY_POLL_BUDGET
 *             (include/net/busy_poll.h), is 8.
 *             SO_PRIORITY 6: TC_PRIO_INTERACTIVE (include/uapi/linux/
 *             pkt_sched.h), the highest priority an unprivileged socket may
 *             set (net/core/sock.c: 0-6 need no capability); pfifo_fast
 *             and mqprio map it to the first band.
 * throughput  no busy polling (0, 0, 0 = the kernel default budget), priority
 *             0 (TC_PRIO_BESTEFFORT): bulk flows are served by interrupts
 *             and coalescing, busy polling would only burn their CPUs.
 * cpu         as throughput, priority 2 (TC_PRIO_BULK): the class that
 *             gives way to the others on a shared transmit queue.
 *
 * Zeros are set explicitly so that moving a socket from latency to another
 * class switches its busy polling off again.
 */
#include <errno.h>
#include <string.h>

#include "np_private.h"

static const char *const class_names[NP_CLASS__COUNT] = {
	[NP_CLASS_LATENCY] = "latency",
	[NP_CLASS_THROUGHPUT] = "throughput",
	[NP_CLASS_CPU] = "cpu",
};

static const struct np_socket_opts class_opts[NP_CLASS__COUNT] = {
	[NP_CLASS_LATENCY] = { .busy_poll_usecs = 50, .prefer_busy_poll = 1,
			       .busy_poll_budget = 64, .priority = 6 },
	[NP_CLASS_THROUGHPUT] = { .priority = 0 },
	[NP_CLASS_CPU] = { .priority = 2 },
};

const char *np_class_name(enum np_class cls)
{
	if ((unsigned)cls >= NP_CLASS__COUNT)
		return NULL;
	return class_names[cls];
}

int np_class_from_name(const char *name, enum np_class *ret, struct np_error *err)
{
	for (unsigned i = 0; name && i < NP_CLASS__COUNT; i++) {
		if (!strcmp(name, class_names[i])) {
			*ret = (enum np_class)i;
			return 0;
		}
	}
	return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
		      "unknown class '%s' (latency, throughput, cpu)", name ? name : "");
}

int np_class_socket_opts(enum np_class cls, struct np_socket_opts *ret)
{
	if ((unsigned)cls >= NP_CLASS__COUNT)
		return -EINVAL;
	return np_sized_out(ret, &class_opts[cls], sizeof(*ret));
}
