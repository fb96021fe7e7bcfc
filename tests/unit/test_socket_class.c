/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* np_socket_set_class on real sockets, read back with getsockopt. */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include "np_private.h"
#include "tap.h"

static int get(int fd, int opt)
{
	int v = -1;
	socklen_t l = sizeof(v);

	if (getsockopt(fd, SOL_SOCKET, opt, &v, &l) < 0)
		return -errno;
	return v;
}

static void check(int fd, enum np_class cls, const char *kind)
{
	struct np_socket_opts o = { .sz = sizeof(o) };

	np_class_socket_opts(cls, &o);
	is_int(get(fd, SO_BUSY_POLL), o.busy_poll_usecs, "%s %s: SO_BUSY_POLL", kind,
	       np_class_name(cls));
	is_int(get(fd, SO_PREFER_BUSY_POLL), o.prefer_busy_poll, "%s %s: SO_PREFER_BUSY_POLL",
	       kind, np_class_name(cls));
	/* SO_BUSY_POLL_BUDGET cannot be read back (net/core/sock.c,
	 * sk_getsockopt has no case for it): budget_is() checks it. */
	is_int(get(fd, SO_PRIORITY), o.priority, "%s %s: SO_PRIORITY", kind, np_class_name(cls));
}

/* Without CAP_NET_ADMIN the kernel refuses to raise the budget above the
 * socket's current one (sk_setsockopt, SO_BUSY_POLL_BUDGET) and accepts any
 * value up to it: so the current budget is b when b is accepted and b + 1
 * is not.  Drops CAP_NET_ADMIN from the effective set for good. */
static bool drop_net_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return false;
	d[CAP_NET_ADMIN / 32].effective &= ~(1u << (CAP_NET_ADMIN % 32));
	return syscall(SYS_capset, &h, d) == 0;
}

static void budget_is(int fd, int b, const char *what)
{
	int v = b, w = b + 1;

	ok(setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &v, sizeof(v)) == 0 &&
		   setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &w, sizeof(w)) < 0 &&
		   errno == EPERM,
	   "%s: SO_BUSY_POLL_BUDGET is %d", what, b);
}

int main(void)
{
	struct np_socket_opts lat = { .sz = sizeof(lat) }, thr = { .sz = sizeof(thr) };
	struct np_error err;
	enum np_class c;
	int fds[2], r;

	np_class_socket_opts(NP_CLASS_LATENCY, &lat);
	np_class_socket_opts(NP_CLASS_THROUGHPUT, &thr);
	ok(lat.busy_poll_usecs > 0 && lat.prefer_busy_poll == 1, "latency busy-polls");
	is_int(lat.priority, 6, "latency: TC_PRIO_INTERACTIVE, the highest unprivileged");
	is_int(thr.busy_poll_usecs, 0, "throughput does not busy-poll");
	is_int(np_class_socket_opts(NP_CLASS__COUNT, &thr), -EINVAL, "no such class");
	is_int(np_class_from_name("cpu", &c, NULL), 0, "cpu is a class");
	is_int(c, NP_CLASS_CPU, "cpu");
	np_error_clear(&err);
	is_int(np_class_from_name("bulk", &c, &err), -EINVAL, "bulk is not");
	is_int(err.phase, NP_PHASE_INPUT, "an input error");

	fds[0] = socket(AF_INET, SOCK_STREAM, 0);
	fds[1] = socket(AF_INET6, SOCK_DGRAM, 0);
	for (int i = 0; i < 2; i++) {
		const char *kind = i ? "udp6" : "tcp";

		if (fds[i] < 0) {
			ok(1, "# SKIP no %s socket", kind);
			continue;
		}
		np_error_clear(&err);
		r = np_socket_set_class(fds[i], NP_CLASS_LATENCY, &err);
		if (r == -EPERM) {
			/* Raising busy polling needs CAP_NET_ADMIN: the error names it. */
			ok(strstr(err.msg, "CAP_NET_ADMIN") != NULL, "%s: EPERM says why: %s",
			   kind, err.msg);
			continue;
		}
		is_int(r, 0, "%s: into latency", kind);
		check(fds[i], NP_CLASS_LATENCY, kind);
		/* and out again: busy polling off, priority back */
		is_int(np_socket_set_class(fds[i], NP_CLASS_THROUGHPUT, &err), 0,
		       "%s: into throughput", kind);
		check(fds[i], NP_CLASS_THROUGHPUT, kind);
		is_int(np_socket_set_class(fds[i], NP_CLASS_CPU, &err), 0, "%s: into cpu", kind);
		check(fds[i], NP_CLASS_CPU, kind);
		close(fds[i]);
	}
	if (geteuid() == 0) {
		int a = socket(AF_INET, SOCK_STREAM, 0), b = socket(AF_INET, SOCK_STREAM, 0);

		is_int(np_socket_set_class(a, NP_CLASS_LATENCY, NULL), 0, "latency socket");
		ok(drop_net_admin(), "CAP_NET_ADMIN dropped");
		budget_is(a, lat.busy_poll_budget, "latency");
		budget_is(b, 0, "an unclassified socket");
		np_error_clear(&err);
		is_int(np_socket_set_class(b, NP_CLASS_LATENCY, &err), -EPERM,
		       "without CAP_NET_ADMIN: EPERM");
		ok(strstr(err.msg, "SO_PREFER_BUSY_POLL") && strstr(err.msg, "CAP_NET_ADMIN"),
		   "the error names the option and the capability: %s", err.msg);
		close(a);
		close(b);
	}
	np_error_clear(&err);
	is_int(np_socket_set_class(-1, NP_CLASS_CPU, &err), -EBADF, "a bad fd is EBADF");
	ok(strstr(err.msg, "SO_BUSY_POLL") != NULL, "the error names the option: %s", err.msg);
	return tap_done();
}
