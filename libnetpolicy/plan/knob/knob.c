/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The knobs in the order an apply must write them (doc/kernel.md): features the
 * rest needs, RSS shrink, channels, rings, RSS on the new queues, coalescing,
 * NAPI, then what channel and ring changes reset: IRQ affinity (and the NAPI
 * kthreads that go with the IRQs), XPS, RPS,
 * RFS; the global sysctls last.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan/np_plan.h"

const struct np_knob *const np_knobs[] = {
	&np_knob_features,
	&np_knob_ntuple_delete,	/* rules that go or change, before what they use goes */
	&np_knob_rss_ctx_delete,
	&np_knob_rss_early,
	&np_knob_channels,
	&np_knob_rings,
	&np_knob_rss_ctx,	/* contexts on the new queues, then the main table */
	&np_knob_rss,
	&np_knob_ntuple,	/* rules last: their contexts exist */
	&np_knob_coalesce,
	&np_knob_queue_coalesce,	/* after device-wide, which reaches every queue */
	&np_knob_napi,
	&np_knob_napi_config,	/* after the sysfs files, which set every NAPI */
	&np_knob_irq,
	&np_knob_napi_threads,
	&np_knob_xps,
	&np_knob_rps,
	&np_knob_rfs,
	&np_knob_sysctl,
	&np_knob_pm_qos,	/* per-CPU: the CPUs' limits, after the queues' CPUs */
	NULL,
};

const struct np_knob *np_knob_lookup(const char *name)
{
	for (size_t i = 0; np_knobs[i]; i++)
		if (!strcmp(np_knobs[i]->name, name))
			return np_knobs[i];
	return NULL;
}

bool np_knob_listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

int np_knob_list_add(char *buf, size_t len, const char *name)
{
	size_t used = strlen(buf);

	if (np_knob_listed(buf, name))
		return 0;
	if (used + !!used + strlen(name) + 1 > len)
		return -ENOSPC;
	snprintf(buf + used, len - used, "%s%s", used ? "," : "", name);
	return 0;
}
