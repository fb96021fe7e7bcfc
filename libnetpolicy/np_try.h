/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A try run (try.c) and its samples (try_sample.c). */
#ifndef NP_TRY_H
#define NP_TRY_H

#include <net/if.h>

#include "apply/np_engine.h"

struct np_try {
	struct np_ctx *ctx;
	struct np_engine e;		/* holds the device's lock and the run's journal */
	struct np_apply_result res;	/* the engine's, between calls */
	struct np_state *baseline;	/* the device as the run found it */
	struct np_state *cur;		/* the last reading */
	char ifname[IF_NAMESIZE];	/* the device's name after a rename during the run */
	bool link_was_up;
	bool begun, ended;
};

/* The device's counters and link (zeros and up on a backend without them). */
int np_try_link(struct np_try *t, struct np_link_stats *ret, struct np_error *err);

/* Machine-wide CPU time from the "cpu" line of /proc/stat, in clock ticks. */
struct np_cpu_ticks {
	unsigned long long user, system, softirq;
};

/* Parse the aggregate "cpu ..." line of /proc/stat; -EINVAL if it is not one. */
int np_cpu_ticks_parse(const char *line, struct np_cpu_ticks *ret);

#endif
