/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The layout follows the kernel's: /sys/class/net links into the PCI device,
 * msi_irqs/N per vector (drivers/pci/msi/msi.c), /sys/kernel/irq/N/actions
 * (kernel/irq/irqdesc.c, actions_show: comma-separated action names), and
 * /proc/interrupts with one column per possible CPU (kernel/irq/proc.c,
 * show_interrupts), which is what makes that file O(IRQs x CPUs).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bigtree.h"

#define PCI "sys/devices/pci0000:00/0000:00:02.0/0000:01:00.0"
#define NET PCI "/net/np0"

static char root[4096];

static int mkdirs(char *path)
{
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

/* put("%s", ...) writes the file, creating its directories. */
static int put(const char *content, const char *fmt, ...)
{
	char path[8192];
	va_list ap;
	FILE *f;
	int n;

	n = snprintf(path, sizeof(path), "%s/", root);
	va_start(ap, fmt);
	vsnprintf(path + n, sizeof(path) - (size_t)n, fmt, ap);
	va_end(ap);
	if (mkdirs(path) < 0)
		return -errno;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%s\n", content);
	return fclose(f) ? -errno : 0;
}

static int link_to(const char *target, const char *name)
{
	char path[8192];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	if (mkdirs(path) < 0)
		return -errno;
	return symlink(target, path) < 0 ? -errno : 0;
}

unsigned bigtree_mask_len(unsigned cpus)
{
	unsigned digits = (cpus + 3) / 4;

	/* a comma between each group of 8 hex digits (bitmap_print_to_pagebuf) */
	return digits + (digits - 1) / 8;
}

/* A hex mask of cpus bits with the bits of [lo, hi] set. */
static void mask(char *buf, unsigned cpus, unsigned lo, unsigned hi)
{
	unsigned digits = (cpus + 3) / 4, o = 0;

	for (unsigned d = digits; d-- > 0;) {
		unsigned v = 0;

		for (unsigned b = 0; b < 4; b++) {
			unsigned cpu = d * 4 + b;

			if (cpu >= lo && cpu <= hi && cpu < cpus)
				v |= 1u << b;
		}
		buf[o++] = "0123456789abcdef"[v];
		if (d && d % 8 == 0)
			buf[o++] = ',';
	}
	buf[o] = '\0';
}

static int interrupts(const struct bigtree *t)
{
	char path[8192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/interrupts", root);
	if (mkdirs(path) < 0)
		return -errno;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "     ");
	for (unsigned c = 0; c < t->cpus; c++)
		fprintf(f, " %10s", "");
	fprintf(f, "\n");
	for (unsigned i = 0; i < t->other_irqs + t->queues + 1; i++) {
		unsigned irq = i < t->other_irqs ? 24 + i : BIGTREE_IRQ0 - 1 + (i - t->other_irqs);
		char name[32];

		if (i < t->other_irqs)
			snprintf(name, sizeof(name), "nvme0q%u", i);
		else if (irq == BIGTREE_IRQ0 - 1)
			snprintf(name, sizeof(name), "np0");
		else
			snprintf(name, sizeof(name), "np0-TxRx-%u", irq - BIGTREE_IRQ0);
		fprintf(f, "%4u:", irq);
		for (unsigned c = 0; c < t->cpus; c++)
			fprintf(f, " %10u", 12345);
		fprintf(f, " IR-PCI-MSIX-0000:01:00.0 %u-edge      %s\n", i, name);
	}
	return fclose(f) ? -errno : 0;
}

int bigtree_write(const char *dir, const struct bigtree *t)
{
	char list[64], m[2048], name[32];
	unsigned half = t->cpus / 2 ? t->cpus / 2 : 1;
	int r = 0;

	snprintf(root, sizeof(root), "%s", dir);
	snprintf(list, sizeof(list), "0-%u", t->cpus - 1);
	r |= put(list, "sys/devices/system/cpu/possible");
	r |= put(list, "sys/devices/system/cpu/online");
	r |= put("", "sys/devices/system/cpu/isolated");
	for (unsigned c = 0; c < t->cpus; c++) {
		char v[16];

		snprintf(v, sizeof(v), "%u", c % half);
		r |= put(v, "sys/devices/system/cpu/cpu%u/topology/core_id", c);
		r |= put(c < half ? "0" : "1", "sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
	}
	snprintf(list, sizeof(list), "0-%u", half - 1);
	r |= put(list, "sys/devices/system/node/node0/cpulist");
	if (t->cpus >= 2) {
		snprintf(list, sizeof(list), "%u-%u", half, t->cpus - 1);
		r |= put(list, "sys/devices/system/node/node1/cpulist");
	}

	r |= put("", "sys/bus/pci/drivers/ixgbe/uevent");
	r |= link_to("../../../../bus/pci/drivers/ixgbe", PCI "/driver");
	r |= link_to("../../../../bus/pci", PCI "/subsystem");
	r |= link_to("../../devices/pci0000:00/0000:00:02.0/0000:01:00.0/net/np0", "sys/class/net/np0");
	r |= link_to("../../../0000:01:00.0", NET "/device");
	r |= put("0", PCI "/numa_node");
	snprintf(list, sizeof(list), "0-%u", half - 1);
	r |= put(list, PCI "/local_cpulist");
	r |= put("up", NET "/operstate");
	r |= put("0", NET "/napi_defer_hard_irqs");
	r |= put("0", NET "/gro_flush_timeout");
	for (unsigned q = 0; q < t->queues; q++) {
		mask(m, t->cpus, q % t->cpus, q % t->cpus);
		r |= put(m, NET "/queues/rx-%u/rps_cpus", q);
		r |= put("0", NET "/queues/rx-%u/rps_flow_cnt", q);
		r |= put(m, NET "/queues/tx-%u/xps_cpus", q);
		mask(m, t->queues, q, q);
		r |= put(m, NET "/queues/tx-%u/xps_rxqs", q);
	}
	for (unsigned i = 0; i <= t->queues; i++) {
		unsigned irq = BIGTREE_IRQ0 - 1 + i;

		if (i)
			snprintf(name, sizeof(name), "np0-TxRx-%u", i - 1);
		else
			snprintf(name, sizeof(name), "np0");
		r |= put("msix", PCI "/msi_irqs/%u", irq);
		snprintf(list, sizeof(list), "0-%u", t->cpus - 1);
		r |= put(list, "proc/irq/%u/smp_affinity_list", irq);
		snprintf(list, sizeof(list), "%u", i % t->cpus);
		r |= put(list, "proc/irq/%u/effective_affinity_list", irq);
		if (t->irq_actions)
			r |= put(name, "sys/kernel/irq/%u/actions", irq);
	}
	for (unsigned i = 0; t->irq_actions && i < t->other_irqs; i++) {
		snprintf(name, sizeof(name), "nvme0q%u", i);
		r |= put(name, "sys/kernel/irq/%u/actions", 24 + i);
	}
	r |= put("4096", "proc/sys/net/core/rps_sock_flow_entries");
	r |= put("0", "proc/sys/net/core/busy_poll");
	r |= put("0", "proc/sys/net/core/busy_read");
	r |= put("212992", "proc/sys/net/core/rmem_max");
	r |= put("212992", "proc/sys/net/core/wmem_max");
	r |= put("4096\t131072\t6291456", "proc/sys/net/ipv4/tcp_rmem");
	r |= put("4096\t16384\t4194304", "proc/sys/net/ipv4/tcp_wmem");
	r |= put("1000", "proc/sys/net/core/netdev_max_backlog");
	r |= interrupts(t);
	return r ? -EIO : 0;
}

static int rm_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void bigtree_remove(const char *dir)
{
	nftw(dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}
