/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Machine-wide net.core knobs the policies need: rps_sock_flow_entries for
 * RFS, busy_poll and busy_read for busy polling. */
#include "plan/np_plan.h"

static const struct {
	const char *name;
	enum np_attr attr;
	size_t off;	/* of the value in struct np_sysctl */
	size_t err_off;
} sysctls[] = {
	{ "net.core.rps_sock_flow_entries", NP_ATTR_SOCK_FLOW_ENTRIES,
	  offsetof(struct np_sysctl, rps_sock_flow_entries), offsetof(struct np_sysctl, flow_entries_err) },
	{ "net.core.busy_poll", NP_ATTR_BUSY_POLL, offsetof(struct np_sysctl, busy_poll),
	  offsetof(struct np_sysctl, busy_err) },
	{ "net.core.busy_read", NP_ATTR_BUSY_READ, offsetof(struct np_sysctl, busy_read),
	  offsetof(struct np_sysctl, busy_err) },
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
	char v[16];

	np_fmt_u32(v, sizeof(v), val(&to->sys, (size_t)step->index));
	return be->ops->write_attr(be, &cur->dev, sysctls[step->index].attr, 0, v, err);
}

const struct np_knob np_knob_sysctl = {
	.name = "sysctl",
	.diff = diff,
	.apply = apply,
};
