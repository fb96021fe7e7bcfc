/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Machine-wide knobs the policies need: rps_sock_flow_entries for RFS,
 * busy_poll and busy_read for busy polling, the socket buffer ceilings
 * (rmem_max, wmem_max, the max of tcp_rmem and tcp_wmem) and the per-CPU
 * backlog (netdev_max_backlog) for throughput. */
#include <stdio.h>

#include "plan/np_plan.h"

#define SYS(f) offsetof(struct np_sysctl, f)

static const struct {
	const char *name;
	enum np_attr attr;
	size_t off;	/* of the value in struct np_sysctl */
	size_t err_off;
	size_t triple;	/* of "MIN DEFAULT MAX" whose max off is, else 0 */
} sysctls[] = {
	{ "net.core.rps_sock_flow_entries", NP_ATTR_SOCK_FLOW_ENTRIES, SYS(rps_sock_flow_entries),
	  SYS(flow_entries_err), 0 },
	{ "net.core.busy_poll", NP_ATTR_BUSY_POLL, SYS(busy_poll), SYS(busy_err), 0 },
	{ "net.core.busy_read", NP_ATTR_BUSY_READ, SYS(busy_read), SYS(busy_err), 0 },
	{ "net.core.rmem_max", NP_ATTR_RMEM_MAX, SYS(rmem_max), SYS(core_mem_err), 0 },
	{ "net.core.wmem_max", NP_ATTR_WMEM_MAX, SYS(wmem_max), SYS(core_mem_err), 0 },
	{ "net.ipv4.tcp_rmem max", NP_ATTR_TCP_RMEM, SYS(tcp_rmem[2]), SYS(tcp_mem_err),
	  SYS(tcp_rmem) },
	{ "net.ipv4.tcp_wmem max", NP_ATTR_TCP_WMEM, SYS(tcp_wmem[2]), SYS(tcp_mem_err),
	  SYS(tcp_wmem) },
	{ "net.core.netdev_max_backlog", NP_ATTR_MAX_BACKLOG, SYS(netdev_max_backlog),
	  SYS(backlog_err), 0 },
};

static uint32_t val(const struct np_sysctl *s, size_t i)
{
	return *(const uint32_t *)((const char *)s + sysctls[i].off);
}

static int errof(const struct np_sysctl *s, size_t i)
{
	return *(const int *)((const char *)s + sysctls[i].err_off);
}

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	for (size_t i = 0; i < NP_ARRAY_SIZE(sysctls); i++) {
		if (errof(&from->sys, i) || errof(&to->sys, i) || val(&from->sys, i) == val(&to->sys, i))
			continue;
		if (np_plan_add_step(plan, &np_knob_sysctl, (int)i, 0) < 0 ||
		    np_plan_add_uint(plan, sysctls[i].name, val(&from->sys, i), val(&to->sys, i)) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	size_t i = (size_t)step->index;
	char v[48];

	if (sysctls[i].triple) {
		/* min and default as they are now: only the max is planned */
		const uint32_t *t = (const uint32_t *)((const char *)&cur->sys + sysctls[i].triple);

		snprintf(v, sizeof(v), "%u %u %u", t[0], t[1], val(&to->sys, i));
	} else {
		np_fmt_u32(v, sizeof(v), val(&to->sys, i));
	}
	return be->ops->write_attr(be, &cur->dev, sysctls[i].attr, 0, v, err);
}

const struct np_knob np_knob_sysctl = {
	.name = "sysctl",
	.diff = diff,
	.apply = apply,
};
