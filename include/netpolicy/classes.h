/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: traffic classes of the mixed policy: per task and per socket.
 *
 * Part of the API that <netpolicy/netpolicy.h> declares (its conventions
 * and compatibility rule hold here); include that header.
 */
#ifndef NETPOLICY_CLASSES_H
#define NETPOLICY_CLASSES_H

#include <netpolicy/base.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif
