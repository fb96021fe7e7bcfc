/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Discovery's cost is the device's, not the machine's: the same NIC (16
 * queues) on generated machines of 2, 128 and 1024 CPUs, its files read
 * through the root-fd file layer and counted.  The files opened must not
 * change with the CPU count; the bytes may grow only by the width of the
 * per-queue CPU masks (the kernel prints nr_cpu_ids bits), never by
 * /proc/interrupts, whose size is IRQs x CPUs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/np_kernel.h"
#include "bigtree.h"
#include "tap.h"

#define QUEUES 16

struct cost {
	struct np_io_stats io;
	unsigned n_irq;
	bool mapped;
};

static int measure_q(unsigned cpus, unsigned queues, bool actions, struct cost *ret)
{
	struct bigtree t = { .cpus = cpus, .queues = queues, .other_irqs = cpus / 4 + 32,
			     .irq_actions = actions };
	char dir[] = "/tmp/np-bigtree-XXXXXX";
	struct np_error err = { 0 };
	struct np_state st = { 0 };
	int fd, r;

	if (!mkdtemp(dir))
		return -errno;
	r = bigtree_write(dir, &t);
	if (r < 0)
		goto out;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	snprintf(st.dev.ifname, sizeof(st.dev.ifname), "np0");
	/* The topology is the machine's and read once per command (its cost
	 * is measured by bench/); the device's reading is what is counted. */
	r = np_topology_read(fd, &st.topo, &err);
	if (!r) {
		np_io_stats_reset();
		r = np_kernel_read_files(fd, &st, &err);
		np_io_stats_get(&ret->io);
	}
	if (r < 0)
		printf("# %u CPUs: %s\n", cpus, err.msg);
	ret->n_irq = st.dev.n_irq;
	ret->mapped = st.dev.n_irq == queues + 1;
	for (unsigned i = 0; ret->mapped && i < queues; i++)
		ret->mapped = st.dev.irq[i].queue == (int)i &&
			      st.dev.irq[i].irq == BIGTREE_IRQ0 + i;
	np_state_clear(&st);
	close(fd);
out:
	bigtree_remove(dir);
	return r;
}

static int measure(unsigned cpus, bool actions, struct cost *ret)
{
	return measure_q(cpus, QUEUES, actions, ret);
}

/*
 * What a queue costs, and what the device costs besides: twice the queues
 * must open exactly the files of the added queues, each once: rps_cpus,
 * rps_flow_cnt, xps_cpus, xps_rxqs and the 3 files of its IRQ below
 * /proc/irq and /sys/kernel/irq (smp_affinity_list,
 * effective_affinity_list, actions).  A file read twice per queue, or one
 * the model does not hold, fails here.  The rest is the device's fixed
 * cost: its own files, queues/ listed and used through one fd, the misc
 * vector, and the 8 machine-wide sysctls a plan needs (RFS, busy polling,
 * and since the throughput ceilings rmem_max, wmem_max, tcp_rmem, tcp_wmem
 * and netdev_max_backlog: 13 before them).
 */
#define FILES_PER_QUEUE (4 + 3)
#define FIXED_OPENS 18

static void per_queue(void)
{
	struct cost one, two;
	uint64_t fixed;

	if (measure_q(2, QUEUES, true, &one) < 0 || measure_q(2, 2 * QUEUES, true, &two) < 0) {
		ok(0, "per queue: discovery reads the device");
		return;
	}
	printf("# %u queues: %llu files opened, %u queues: %llu\n", QUEUES,
	       (unsigned long long)one.io.opens, 2 * QUEUES, (unsigned long long)two.io.opens);
	is_int(two.io.opens - one.io.opens, (uint64_t)FILES_PER_QUEUE * QUEUES,
	       "%u more queues: %u files opened for each, no more", QUEUES, FILES_PER_QUEUE);
	is_int(two.io.lookups, one.io.lookups, "%u more queues: no lookup per queue", QUEUES);
	fixed = one.io.opens - (uint64_t)FILES_PER_QUEUE * QUEUES;
	ok(fixed <= FIXED_OPENS, "the device's own files: %llu opened (at most %d)",
	   (unsigned long long)fixed, FIXED_OPENS);
}

int main(void)
{
	static const unsigned sizes[] = { 2, 128, 1024 };
	struct cost c[3];
	/* per queue: rps_cpus and xps_cpus are CPU masks */
	const unsigned mask_files = 2 * QUEUES;

	for (unsigned i = 0; i < 3; i++) {
		is_int(measure(sizes[i], true, &c[i]), 0, "%u CPUs: discovery reads the device",
		       sizes[i]);
		printf("# %u CPUs: %llu files opened, %llu lookups, %llu bytes read\n", sizes[i],
		       (unsigned long long)c[i].io.opens, (unsigned long long)c[i].io.lookups,
		       (unsigned long long)c[i].io.bytes);
		is_int(c[i].n_irq, QUEUES + 1, "%u CPUs: the NIC's 17 IRQs", sizes[i]);
		ok(c[i].mapped, "%u CPUs: queue N on its own vector", sizes[i]);
	}
	for (unsigned i = 1; i < 3; i++) {
		uint64_t growth = (uint64_t)mask_files *
				  (bigtree_mask_len(sizes[i]) - bigtree_mask_len(sizes[0]));
		/* affinity lists "0-1" -> "0-1023": a few bytes per IRQ */
		uint64_t lists = 8 * (QUEUES + 1);

		is_int(c[i].io.opens, c[0].io.opens, "%u CPUs: as many files opened as with 2",
		       sizes[i]);
		is_int(c[i].io.lookups, c[0].io.lookups, "%u CPUs: as many lookups as with 2",
		       sizes[i]);
		ok(c[i].io.bytes <= c[0].io.bytes + growth + lists,
		   "%u CPUs: bytes grow only with the mask width (%llu <= %llu)", sizes[i],
		   (unsigned long long)c[i].io.bytes,
		   (unsigned long long)(c[0].io.bytes + growth + lists));
	}

	per_queue();

	/* Without /sys/kernel/irq (before 4.11): /proc/interrupts, still the
	 * same IRQs. */
	is_int(measure(128, false, &c[0]), 0, "no irq/actions: discovery reads the device");
	is_int(c[0].n_irq, QUEUES + 1, "no irq/actions: the NIC's 17 IRQs from /proc/interrupts");
	ok(c[0].mapped, "no irq/actions: queue N on its own vector");
	return tap_done();
}
