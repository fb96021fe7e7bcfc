/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per task (the per-task policy of the mixed policy): the CPUs of one class
 * of a device in mixed mode, as its policy record says the plan gave them.
 * A task pinned there transmits on its class's queues (XPS maps the sending
 * CPU to a queue, Documentation/networking/scaling.rst "XPS") and RFS steers
 * its flows' receive processing to the same CPUs ("RFS").
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "plan/np_mixed.h"
#include "np_private.h"

int np_class_cpus(struct np_ctx *ctx, const char *ifname, enum np_class cls, void *cpuset,
		  size_t setsize, struct np_error *err)
{
	const char *name = np_class_name(cls);
	const struct np_class_record *rec;
	struct np_active *a = NULL;
	int r;

	if (!name)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "unknown class %d", (int)cls);
	if (!cpuset || !setsize)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "no CPU set to fill");
	r = np_ifname_validate(ifname, err);
	if (r < 0)
		return r;
	r = np_active_policy(ctx, ifname, &a, err);
	if (r < 0)
		return r;
	if (!a->mixed) {
		r = np_err(err, -ENOTCONN, NP_PHASE_NONE, NULL,
			   "not in mixed mode (%s%s): classes have no CPUs of their own",
			   a->policy[0] ? "policy " : "no policy set", a->policy);
		goto out;
	}
	rec = &a->mixed->cls[cls];
	if (!rec->used || np_cpumask_empty(&rec->cpus)) {
		r = np_err(err, -ENOENT, NP_PHASE_NONE, NULL,
			   "class %s has no flows in its mixed policy, so no CPUs", name);
		goto out;
	}
	CPU_ZERO_S(setsize, (cpu_set_t *)cpuset);
	np_cpumask_for_each(cpu, &rec->cpus) {
		/* CPU_SET_S ignores a CPU beyond the set: the caller must know */
		if ((size_t)cpu >= setsize * 8) {
			r = np_err(err, -ERANGE, NP_PHASE_NONE, NULL,
				   "class %s has CPU %d, beyond a set of %zu bytes", name, cpu,
				   setsize);
			goto out;
		}
		CPU_SET_S((size_t)cpu, setsize, (cpu_set_t *)cpuset);
	}
	r = 0;
out:
	np_active_free(a);
	return r;
}
