/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The size-prefixed public structs (the compatibility rule at the top of
 * netpolicy.h), through the public functions: an options struct without sz
 * is refused, one from a newer header is taken when its unknown members are
 * zero and refused when one is set, one from an older header (a shorter sz)
 * reads its missing members as zero; out-structs are written no further
 * than their sz and only on success.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "np_private.h"
#include "shapes.h"
#include "tap.h"

/* what a program compiled against a newer header passes */
struct newer_opts {
	struct np_plan_opts o;
	unsigned long long added;
};

static int plan_with(const struct np_policy *p, const struct np_state *st,
		     const struct np_plan_opts *o, struct np_error *err)
{
	struct np_plan *plan = NULL;
	int r = np_plan_compute(NULL, p, o, st, &plan, err);

	np_plan_free(plan);
	return r;
}

int main(void)
{
	struct shape sh = { .cpus = 8, .queues = 8, .max_queues = 8 };
	const struct np_policy *p;
	struct np_error err = { 0 };
	struct np_state *st = NULL;
	struct np_plan_opts zeroed = { 0 };
	struct newer_opts n = { .o = { .sz = sizeof(n) } };
	NP_PLAN_OPTS(older, .cpus = "no such list");
	struct np_socket_opts so;
	struct np_pending pend;
	unsigned char guard[sizeof(so) + 8];

	ok(np_policy_lookup("throughput", &p, &err) == 0, "throughput exists");
	ok(shape_build(&sh, &st) == 0, "a NIC");
	if (!st)
		return tap_done();

	is_int(plan_with(p, st, &zeroed, &err), -EINVAL, "options without sz: refused");
	ok(strstr(err.msg, "NP_PLAN_OPTS") != NULL, "saying how to declare them (%s)", err.msg);
	is_int(err.phase, NP_PHASE_INPUT, "as an input error");

	is_int(plan_with(p, st, &n.o, &err), 0, "a newer header's options, unknown members zero");
	n.added = 1;
	is_int(plan_with(p, st, &n.o, &err), -E2BIG, "one unknown member set: refused");

	/* an older header without cpus: the bad list is past its sz, unread */
	is_int(plan_with(p, st, &older, &err), -EINVAL, "the bad CPU list is read at full size");
	older.sz = offsetof(struct np_plan_opts, cpus);
	is_int(plan_with(p, st, &older, &err), 0, "and not past a shorter sz");

	/* out-structs: sz bounds the write */
	memset(&so, 0xaa, sizeof(so));
	so.sz = 0;
	is_int(np_class_socket_opts(NP_CLASS_LATENCY, &so), -EINVAL, "socket opts without sz");
	ok(so.busy_poll_usecs == (int)0xaaaaaaaa, "nothing written");
	memset(guard, 0xaa, sizeof(guard));
	memcpy(guard, &(size_t){ offsetof(struct np_socket_opts, prefer_busy_poll) }, sizeof(size_t));
	is_int(np_class_socket_opts(NP_CLASS_LATENCY, (struct np_socket_opts *)guard), 0,
	       "an older, shorter socket opts");
	ok(((struct np_socket_opts *)guard)->busy_poll_usecs == 50, "its member filled");
	ok(guard[offsetof(struct np_socket_opts, prefer_busy_poll)] == 0xaa, "nothing past its sz");
	is_int(np_class_socket_opts((enum np_class)99, &(struct np_socket_opts){ .sz = sizeof(so) }),
	       -EINVAL, "an unknown class");

	memset(&pend, 0xaa, sizeof(pend));
	pend.sz = 0;
	is_int(np_pending_state(NULL, "eth0", &pend, &err), -EINVAL, "pending without sz");
	ok(pend.deadline == (long long)0xaaaaaaaaaaaaaaaaULL, "nothing written");
	np_state_free(st);
	return tap_done();
}
