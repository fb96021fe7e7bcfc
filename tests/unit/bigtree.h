/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A generated sysfs/procfs tree of a machine of any size with one NIC, for
 * the counted-read test and bench/: same NIC, N CPUs. */
#ifndef NP_TEST_BIGTREE_H
#define NP_TEST_BIGTREE_H

#include <stdbool.h>

struct bigtree {
	unsigned cpus;		/* CPUs 0..cpus-1, two NUMA nodes when >= 2 */
	unsigned queues;	/* np0's combined channels: rx-N, tx-N, one MSI-X vector each */
	unsigned other_irqs;	/* the rest of the machine's IRQs in /proc/interrupts */
	bool irq_actions;	/* /sys/kernel/irq/N/actions (4.11+, CONFIG_SPARSE_IRQ) */
};

/* The IRQ of np0's queue q (the misc vector "np0" is BIGTREE_IRQ0 - 1). */
#define BIGTREE_IRQ0 1001u

/* Writes the tree below dir (which must exist); 0 or -errno. */
int bigtree_write(const char *dir, const struct bigtree *t);
/* Removes it again. */
void bigtree_remove(const char *dir);
/* The bytes of one cpumask file ("ff,ffffffff") of that many CPUs. */
unsigned bigtree_mask_len(unsigned cpus);

#endif
