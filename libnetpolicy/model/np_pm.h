/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-CPU wake-up latency: each CPU's idle states (cpuidle/stateK) and its
 * PM QoS resume-latency limit (power/pm_qos_resume_latency_us), the part of
 * np_state the latency policies plan (plan/plan_pm_qos.c).
 *
 * The file's encoding (drivers/base/power/sysfs.c, the resume latency's
 * show and store): "0" is no limit at all, "n/a" is a limit of 0 us, any
 * other number n (1 .. 2^31 - 2) a limit of n us; a negative number and
 * 2^31 - 1 (the kernel's own "no constraint") are refused with EINVAL.  In memory NP_PM_NONE stands for no limit, 0 for
 * "n/a", so limits compare as numbers (the strictest is the smallest).
 */
#ifndef NP_PM_H
#define NP_PM_H

#include <stdbool.h>
#include <stdint.h>

#define NP_PM_NONE UINT32_MAX		/* no limit: the file reads "0" */
#define NP_PM_MAX 2147483646u		/* S32_MAX is the kernel's "no constraint" */
#define NP_IDLE_MAX 16			/* CPUIDLE_STATE_MAX is 10 */
#define NP_IDLE_NAME 16			/* CPUIDLE_NAME_LEN */

struct np_idle_state {
	char name[NP_IDLE_NAME];	/* "POLL", "C1", "C1E", "haltpoll idle" */
	uint32_t latency;		/* exit latency, us (stateK/latency) */
	bool disable;			/* stateK/disable: 1 forbids it */
};

struct np_cpu_pm {
	int err;		/* reading the resume-latency file: -ENOENT absent */
	uint32_t resume;	/* us; NP_PM_NONE: no limit; 0: "n/a" */
	int idle_err;		/* cpuidle/: -ENOENT when the CPU has no idle driver */
	unsigned n_idle;
	struct np_idle_state idle[NP_IDLE_MAX];
};

/* n entries (topology nr_cpus) or err: -ENODATA when not known (a model or
 * a record from before these were read) */
struct np_pm {
	int err;
	unsigned n;
	struct np_cpu_pm *cpu;
};

void np_pm_clear(struct np_pm *pm);
/* Deep copy; -ENOMEM. */
int np_pm_copy(struct np_pm *dst, const struct np_pm *src);
/* The CPU's entry when its file was read, else NULL. */
const struct np_cpu_pm *np_pm_cpu(const struct np_pm *pm, unsigned cpu);
/* The file's text for a limit: "0" (NP_PM_NONE), "n/a" (0), else "N". */
void np_pm_format(uint32_t us, char *buf, unsigned len);
/* The store's rules: a decimal, 0x hex or 0 octal number (kstrtos32,
 * base 0) with an optional newline, or "n/a"; -EINVAL for anything else
 * and for a negative number or S32_MAX.  0 means no limit. */
int np_pm_parse(const char *text, uint32_t *ret);

#endif
