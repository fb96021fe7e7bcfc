/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DEVICE exec CLASS -- CMD [ARGS]: run a command on the CPUs of one traffic
 * class of a device in mixed mode.  The class's queues have their IRQs, XPS
 * and NAPI threads on those CPUs, so a task that runs there receives, wakes
 * and transmits on its class's queues (scaling.rst: XPS picks the queue of
 * the sending CPU; RFS steers to the CPU of the consuming thread).  The CPUs
 * come from the library (np_class_cpus); the CLI only pins and execs.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* env(1), nohup(1), chroot(8): 126 found but not run, 127 not found. */
#define EXEC_CANNOT_RUN 126
#define EXEC_NOT_FOUND 127

int cmd_exec(struct cli *c)
{
	CLI_ERROR(err);
	enum np_class cls;
	size_t setsize;
	cpu_set_t *set;
	int r;

	if (c->argc < 1)
		return cli_usage_error("exec: which class? ('netpolicy DEVICE exec CLASS -- CMD')");
	if (c->argc < 2)
		return cli_usage_error("exec: which command? ('netpolicy DEVICE exec %s -- CMD')",
				       c->argv[0]);
	if (np_class_from_name(c->argv[0], &cls, err) < 0)
		return cli_fail(c, err);
	/* as many CPUs as the kernel may have: sched_setaffinity wants them all */
	setsize = CPU_ALLOC_SIZE(CPU_SETSIZE * 16);
	set = CPU_ALLOC(CPU_SETSIZE * 16);
	if (!set)
		return cli_out_of_memory();
	r = np_class_cpus(c->ctx, c->device, cls, set, setsize, err);
	if (r < 0) {
		CPU_FREE(set);
		return cli_fail(c, err);
	}
	if (sched_setaffinity(0, setsize, set) < 0) {
		int e = errno;

		CPU_FREE(set);
		/* EINVAL: none of the class's CPUs is online or in our cpuset */
		fprintf(stderr, "netpolicy: %s: exec %s: cannot run on the class's CPUs: %s\n",
			c->device, np_class_name(cls), strerror(e));
		return NP_EXIT_ERROR;
	}
	CPU_FREE(set);
	if (c->verbose)
		fprintf(stderr, "netpolicy: %s: exec %s: %s\n", c->device, np_class_name(cls),
			c->argv[1]);
	fflush(stdout);
	cli_restore_signals();
	execvp(c->argv[1], c->argv + 1);
	r = errno;
	signal(SIGPIPE, SIG_IGN);	/* our own message: never killed by it */
	fprintf(stderr, "netpolicy: exec %s: %s\n", c->argv[1], strerror(r));
	return r == ENOENT ? EXEC_NOT_FOUND : EXEC_CANNOT_RUN;
}
