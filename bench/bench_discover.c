/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Discovery's reads on generated machines of 2, 128 and 1024 CPUs with the
 * same NIC (16 queues, 17 MSI-X vectors; tests/unit/bigtree.c), counted
 * through the root-fd file layer: the device's files (what every discovery
 * reads) and the topology (read once per command, cached in the context).
 * With --irq-fallback the trees lack /sys/kernel/irq, as kernels before 4.11
 * do, and the IRQ names come from /proc/interrupts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/np_kernel.h"
#include "../tests/unit/bigtree.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

struct row {
	unsigned cpus;
	struct np_io_stats topo, dev;
	double topo_us, dev_us;
	unsigned n_irq;
};

static int measure(unsigned cpus, bool actions, struct row *ret)
{
	struct bigtree t = { .cpus = cpus, .queues = 16, .other_irqs = cpus / 4 + 32,
			     .irq_actions = actions };
	char dir[] = "/tmp/np-bench-XXXXXX";
	struct np_error err = { 0 };
	struct np_state st = { 0 };
	double t0;
	int fd, r;

	if (!mkdtemp(dir))
		return -errno;
	r = bigtree_write(dir, &t);
	fd = r < 0 ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		bigtree_remove(dir);
		return r < 0 ? r : -errno;
	}
	snprintf(st.dev.ifname, sizeof(st.dev.ifname), "np0");
	ret->cpus = cpus;
	np_io_stats_reset();
	t0 = now_us();
	r = np_topology_read(fd, &st.topo, &err);
	ret->topo_us = now_us() - t0;
	np_io_stats_get(&ret->topo);
	if (!r) {
		np_io_stats_reset();
		t0 = now_us();
		r = np_kernel_read_files(fd, &st, &err);
		ret->dev_us = now_us() - t0;
		np_io_stats_get(&ret->dev);
	}
	if (r < 0)
		fprintf(stderr, "np_bench_discover: %u CPUs: %s\n", cpus, err.msg);
	ret->n_irq = st.dev.n_irq;
	np_state_clear(&st);
	close(fd);
	bigtree_remove(dir);
	return r;
}

int main(int argc, char **argv)
{
	static const unsigned sizes[] = { 2, 128, 1024 };
	bool json = false, actions = true;
	struct row rows[3];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--irq-fallback"))
			actions = false;
		else {
			fprintf(stderr, "usage: np_bench_discover [--json] [--irq-fallback]\n");
			return 2;
		}
	}
	for (unsigned i = 0; i < 3; i++)
		if (measure(sizes[i], actions, &rows[i]) < 0)
			return 1;
	if (json) {
		printf("{\"irq_names\":\"%s\",\"machines\":[", actions ? "sys/kernel/irq" : "proc/interrupts");
		for (unsigned i = 0; i < 3; i++)
			printf("%s{\"cpus\":%u,\"device\":{\"opens\":%llu,\"lookups\":%llu,\"bytes\":%llu,"
			       "\"us\":%.1f,\"irqs\":%u},\"topology\":{\"opens\":%llu,\"bytes\":%llu,"
			       "\"us\":%.1f}}",
			       i ? "," : "", rows[i].cpus, (unsigned long long)rows[i].dev.opens,
			       (unsigned long long)rows[i].dev.lookups,
			       (unsigned long long)rows[i].dev.bytes, rows[i].dev_us, rows[i].n_irq,
			       (unsigned long long)rows[i].topo.opens,
			       (unsigned long long)rows[i].topo.bytes, rows[i].topo_us);
		printf("]}\n");
		return 0;
	}
	printf("IRQ names from %s\n", actions ? "/sys/kernel/irq/N/actions" : "/proc/interrupts");
	printf("%6s  %-34s  %s\n", "cpus", "device (every discovery)", "topology (once per command)");
	for (unsigned i = 0; i < 3; i++)
		printf("%6u  %4llu opens %2llu lookups %7llu B  %4llu opens %8llu B %8.0f us\n",
		       rows[i].cpus, (unsigned long long)rows[i].dev.opens,
		       (unsigned long long)rows[i].dev.lookups, (unsigned long long)rows[i].dev.bytes,
		       (unsigned long long)rows[i].topo.opens,
		       (unsigned long long)rows[i].topo.bytes, rows[i].topo_us);
	return 0;
}
