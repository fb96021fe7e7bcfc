/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-socket class (the per-socket policy of the mixed policy): the socket
 * options of np_class_socket_opts() on a caller's socket.  SO_PREFER_BUSY_POLL
 * and SO_BUSY_POLL_BUDGET are 5.11 (net/core/sock.c, sk_setsockopt); the
 * numbers come from asm-generic/socket.h, which glibc's headers include.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "np_private.h"

int np_socket_set_class(int fd, enum np_class cls, struct np_error *err)
{
	struct np_socket_opts o = { .sz = sizeof(o) };
	static const struct {
		int opt;
		const char *name;
	} set[] = {
		{ SO_BUSY_POLL, "SO_BUSY_POLL" },
		{ SO_PREFER_BUSY_POLL, "SO_PREFER_BUSY_POLL" },
		{ SO_BUSY_POLL_BUDGET, "SO_BUSY_POLL_BUDGET" },
		{ SO_PRIORITY, "SO_PRIORITY" },
	};
	int vals[4];

	if (np_class_socket_opts(cls, &o) < 0)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "unknown class %d", (int)cls);
	vals[0] = o.busy_poll_usecs;
	vals[1] = o.prefer_busy_poll;
	vals[2] = o.busy_poll_budget;
	vals[3] = o.priority;
	for (size_t i = 0; i < NP_ARRAY_SIZE(set); i++) {
		if (setsockopt(fd, SOL_SOCKET, set[i].opt, &vals[i], sizeof(vals[i])) < 0) {
			int e = errno;

			return np_err(err, -e, NP_PHASE_APPLY, "socket", "%s %d: %s%s", set[i].name,
				      vals[i], strerror(e),
				      e == EPERM ? " (raising busy polling needs CAP_NET_ADMIN)"
						 : e == ENOPROTOOPT ? " (kernel without "
								      "CONFIG_NET_RX_BUSY_POLL?)"
								    : "");
		}
	}
	return 0;
}
