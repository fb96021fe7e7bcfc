/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The heap a device command is about to fill, mapped in one system call.
 *
 * A show or set of a 64-queue device builds about half a megabyte of heap
 * (the state, its JSON tree, the plan, the snapshot).  Each first touch of
 * a fresh page is a page fault, and under a hypervisor that handles guest
 * page tables (shadow or PVM paging) one fault costs about 11 us on the
 * bench machine: 80 of them were a tenth of a show.  MADV_POPULATE_WRITE
 * (Linux 5.14) maps the same pages in one call for under 1 us a page.
 * Elsewhere (bare metal, older kernels where madvise answers EINVAL, a
 * failed allocation) nothing changes but a few microseconds: this is only
 * a cost cut, never needed for a command to work.  bench/README.md has
 * the figures.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* what a show --json of a 64-queue device has on its heap at its peak */
#define HEAP_PREFAULT (512u << 10)

void cli_heap_prefault(void)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t start, end;
	char *p;

	if (page <= 0)
		return;
	/* From the brk heap, not a mapping of its own (glibc maps anything
	 * above 128 KiB by default, and unmaps it on free), and kept when
	 * freed: later allocations reuse the mapped pages. */
	mallopt(M_MMAP_THRESHOLD, 2 * HEAP_PREFAULT);
	mallopt(M_TRIM_THRESHOLD, 4 * HEAP_PREFAULT);
	p = malloc(HEAP_PREFAULT);
	if (!p)
		return;
	start = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	end = ((uintptr_t)p + HEAP_PREFAULT) & ~((uintptr_t)page - 1);
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
	free(p);
}
