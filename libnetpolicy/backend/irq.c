/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A device's IRQs: which vectors are its own (msi_irqs, or the INTx line in
 * device/irq), which queue each serves (the driver's name for it) and where
 * each is allowed to run (/proc/irq/N).
 *
 * The names come from /sys/kernel/irq/N/actions, one small file per IRQ of
 * the device (kernel/irq/irqdesc.c, actions_show; 4.11+ with
 * CONFIG_SPARSE_IRQ, which every distribution kernel has), so discovery
 * costs the device's IRQs whatever the machine.  /proc/interrupts, whose
 * size is IRQs x CPUs and which the kernel formats on every read, is read
 * only as the last resort: when /sys/kernel/irq is absent, or when the
 * device has neither msi_irqs nor an INTx line (then every name is matched).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "drivers/np_drivers.h"
#include "np_kernel.h"

#define LIST_LEN 16384

/* --- /proc/interrupts ------------------------------------------------------- */

struct irq_name {
	unsigned irq;
	char name[64];
};

struct irq_names {
	struct irq_name *v;
	size_t n, cap;
};

static int names_add(struct irq_names *t, unsigned irq, const char *name, size_t len)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct irq_name *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n].irq = irq;
	snprintf(t->v[t->n].name, sizeof(t->v[t->n].name), "%.*s", (int)len, name);
	t->n++;
	return 0;
}

/* The action names end the line: "... 1-edge  virtio2-input.0", shared
 * lines list several, "uhci_hcd:usb1, eth0".  Counting columns from the
 * left would depend on the chip and kernel version; from the right it
 * does not.  Names with blanks (none of a NIC's) come out mangled. */
static int parse_line(struct irq_names *t, char *line)
{
	char *p = line, *end;
	unsigned long irq;
	int r;

	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return 0;
	irq = strtoul(p, &end, 10);
	if (*end != ':' || irq > 1u << 24)
		return 0;
	p = end + 1;
	end = p + strlen(p);
	for (;;) {
		char *tok;

		while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
			end--;
		if (end > p && end[-1] == ',')
			end--;
		tok = end;
		while (tok > p && tok[-1] != ' ' && tok[-1] != '\t')
			tok--;
		if (tok == end)
			return 0;
		r = names_add(t, (unsigned)irq, tok, (size_t)(end - tok));
		if (r < 0)
			return r;
		/* another name of a shared line ends with ',' */
		end = tok;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (end == p || end[-1] != ',')
			return 0;
	}
}

static int line_cb(char *line, void *arg)
{
	return parse_line(arg, line);
}

static int read_interrupts(int rootfd, struct irq_names *t)
{
	return np_for_each_line_at(rootfd, "proc/interrupts", line_cb, t);
}

/* --- /sys/kernel/irq/N/actions ---------------------------------------------- */

/* The action names of each IRQ in ids, in the order of ids: "a,b" for a
 * shared line (actions_show joins them with ','). */
static int read_actions(int rootfd, const unsigned *ids, size_t n, struct irq_names *t)
{
	char path[64], buf[512];

	for (size_t i = 0; i < n; i++) {
		char *name, *save = NULL;
		int r;

		snprintf(path, sizeof(path), "sys/kernel/irq/%u/actions", ids[i]);
		r = np_read_file_at(rootfd, path, buf, sizeof(buf));
		/* a vector without a handler yet has no action: no name */
		if (r == -ENOENT || r == -ENOSPC)
			continue;
		if (r < 0)
			return r;
		for (name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
			r = names_add(t, ids[i], name, strlen(name));
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* --- the device ------------------------------------------------------------- */

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* The legacy INTx line of a device without MSI: device/irq, 0 for none. */
static int read_intx(int rootfd, const char *ifname, unsigned **ret, size_t *ret_n)
{
	char path[128];
	int irq;

	snprintf(path, sizeof(path), "sys/class/net/%s/device/irq", ifname);
	if (np_read_int_at(rootfd, path, &irq) < 0 || irq <= 0)
		return 0;
	*ret = malloc(sizeof(**ret));
	if (!*ret)
		return -ENOMEM;
	**ret = (unsigned)irq;
	*ret_n = 1;
	return 0;
}

/* The names of the device's IRQs, from the cheapest source the kernel has. */
static int read_names(int rootfd, const char *ifname, unsigned **msi, size_t *n_msi,
		      struct irq_names *t, const char **what)
{
	int r;

	if (np_exists_at(rootfd, "sys/kernel/irq") == 0) {
		if (*n_msi == SIZE_MAX) {
			r = read_intx(rootfd, ifname, msi, n_msi);
			if (r < 0)
				return r;
		}
		if (*n_msi != SIZE_MAX) {
			*what = "/sys/kernel/irq";
			qsort(*msi, *n_msi, sizeof(**msi), cmp_uint);
			return read_actions(rootfd, *msi, *n_msi, t);
		}
	}
	*what = "/proc/interrupts";
	return read_interrupts(rootfd, t);
}


static int cmp_irq(const void *a, const void *b)
{
	const struct np_irq *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->queue != y->queue)
		return x->queue < y->queue ? -1 : 1;
	return x->irq < y->irq ? -1 : x->irq > y->irq;
}

static int read_irq_list(int rootfd, const char *path, char *buf, struct np_cpumask *ret)
{
	int r = np_read_file_at(rootfd, path, buf, LIST_LEN);

	if (r < 0)
		return r;
	return np_cpumask_parse_list(buf, ret);
}

static void read_affinity(int rootfd, struct np_irq *irq, char *buf)
{
	char path[64];

	snprintf(path, sizeof(path), "proc/irq/%u/smp_affinity_list", irq->irq);
	irq->err = read_irq_list(rootfd, path, buf, &irq->affinity);
	snprintf(path, sizeof(path), "proc/irq/%u/effective_affinity_list", irq->irq);
	/* absent before 4.15 and on some arches: assume the request holds */
	if (read_irq_list(rootfd, path, buf, &irq->effective) < 0)
		irq->effective = irq->affinity;
}

/* msi_irqs of the device, or of the PCI function above a virtio device. */
static int open_msi_dir(int rootfd, const char *ifname, bool virtio, DIR **ret)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "sys/class/net/%s/device/msi_irqs", ifname);
	fd = np_open_dir_at(rootfd, path);
	if (fd == -ENOENT && virtio) {
		snprintf(path, sizeof(path), "sys/class/net/%s/device/../msi_irqs", ifname);
		fd = np_open_dir_at(rootfd, path);
	}
	if (fd < 0)
		return fd;
	*ret = fdopendir(fd);
	if (!*ret) {
		close(fd);
		return -errno;
	}
	return 0;
}

static bool in_dir_list(const unsigned *v, size_t n, unsigned irq)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == irq)
			return true;
	return false;
}

/* IRQ numbers in msi_irqs; *ret_n == SIZE_MAX when there is no such dir
 * (legacy INTx: fall back to names alone). */
static int read_msi(int rootfd, const char *ifname, bool virtio, unsigned **ret, size_t *ret_n)
{
	unsigned *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int r;

	r = open_msi_dir(rootfd, ifname, virtio, &d);
	if (r == -ENOENT || r == -ENOTDIR) {
		*ret = NULL;
		*ret_n = SIZE_MAX;
		return 0;
	}
	if (r < 0)
		return r;
	while ((de = readdir(d))) {
		int irq;

		if (np_irq_number(de->d_name, &irq) < 0)
			continue;
		if (n == cap) {
			unsigned *nv;

			cap = cap ? cap * 2 : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				r = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[n++] = (unsigned)irq;
	}
	closedir(d);
	if (r < 0) {
		free(v);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

static bool find(const struct np_irq *v, size_t n, unsigned irq)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].irq == irq)
			return true;
	return false;
}

/* IRQs a NAPI of the device reports that no name brought in (a vector
 * outside msi_irqs, or without an action yet): the kernel says they are
 * the device's queues'.  Appended at v + n; how many. */
static size_t napi_only(int rootfd, const struct np_dev *dev, struct np_irq *v, size_t n,
			char *buf)
{
	size_t added = 0;
	char path[64];

	for (unsigned i = 0; !dev->napis.err && i < dev->napis.n; i++) {
		const struct np_napi_inst *ni = &dev->napis.v[i];
		struct np_irq *irq = &v[n + added];

		if (!(ni->has & NP_NAPI_HAS_IRQ) || find(v, n + added, ni->irq) ||
		    !np_irq_napi_tie(dev, ni->irq, &irq->kind, &irq->queue, &irq->napi_id))
			continue;
		irq->irq = ni->irq;
		irq->source = NP_IRQ_SRC_KERNEL;
		snprintf(path, sizeof(path), "sys/kernel/irq/%u/actions", ni->irq);
		if (np_read_file_at(rootfd, path, irq->name, sizeof(irq->name)) < 0)
			irq->name[0] = '\0';
		irq->name[strcspn(irq->name, ",\n")] = '\0';
		read_affinity(rootfd, irq, buf);
		added++;
	}
	return added;
}

/* What one read of the device knows: its driver and bus for the names,
 * its msi_irqs (n_msi SIZE_MAX: none, every name is tried). */
struct reading {
	int rootfd;
	const struct np_dev *dev;
	const char *driver, *bus;
	const unsigned *msi;
	size_t n_msi;
	char *buf;
};

/* The device's IRQs among names into v: tied by the kernel's NAPI map
 * first, else by the driver's name, else (a vector of msi_irqs) by
 * nothing; how many. */
static size_t collect(const struct reading *rd, const struct irq_names *names, struct np_irq *v)
{
	const struct np_driver *drv = np_driver_lookup(rd->driver);
	size_t n = 0;

	for (size_t i = 0; i < names->n; i++) {
		const struct irq_name *in = &names->v[i];
		struct np_irq *irq = &v[n];
		bool own = rd->n_msi != SIZE_MAX && in_dir_list(rd->msi, rd->n_msi, in->irq);

		if (n && v[n - 1].irq == in->irq)
			continue;	/* one entry per IRQ: its first name of ours */
		if (np_irq_napi_tie(rd->dev, in->irq, &irq->kind, &irq->queue, &irq->napi_id))
			irq->source = NP_IRQ_SRC_KERNEL;
		else if ((own || rd->n_msi == SIZE_MAX) &&
			 np_irq_match(rd->driver, rd->dev->ifname, rd->bus, in->name, &irq->kind,
				      &irq->queue))
			/* a driver the table does not know: a name the generic
			 * patterns call no queue's is a name nobody knows */
			irq->source = irq->queue < 0 && !drv ? NP_IRQ_SRC_NONE : NP_IRQ_SRC_NAME;
		else
			continue;
		irq->irq = in->irq;
		snprintf(irq->name, sizeof(irq->name), "%s", in->name);
		read_affinity(rd->rootfd, irq, rd->buf);
		n++;
	}
	/* the device's own vectors that neither ties to a queue: kept, so
	 * that the plan can name them */
	for (size_t i = 0; i < names->n; i++) {
		const struct irq_name *in = &names->v[i];

		if (rd->n_msi == SIZE_MAX || !in_dir_list(rd->msi, rd->n_msi, in->irq) ||
		    find(v, n, in->irq))
			continue;
		v[n] = (struct np_irq){ .irq = in->irq, .kind = NP_IRQ_OTHER, .queue = -1,
					.source = NP_IRQ_SRC_NONE };
		snprintf(v[n].name, sizeof(v[n].name), "%s", in->name);
		read_affinity(rd->rootfd, &v[n++], rd->buf);
	}
	return n;
}

int np_irq_read(int rootfd, struct np_dev *dev, struct np_error *err)
{
	struct irq_names names = { 0 };
	struct np_irq *v = NULL;
	char path[128], devname[64] = "", driver[32];
	unsigned *msi = NULL;
	size_t n_msi = 0, n = 0;
	const char *bus, *what = "/proc/interrupts";
	char *buf = NULL;
	bool virtio;
	int r;

	r = np_ifname_validate(dev->ifname, err);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "sys/class/net/%s/device", dev->ifname);
	if (np_exists_at(rootfd, path) < 0) {
		/* virtual devices (veth, bridges) have no IRQs of their own */
		free(dev->irq);
		dev->irq = NULL;
		dev->n_irq = 0;
		return 0;
	}
	(void)np_read_link_name_at(rootfd, path, devname, sizeof(devname));
	snprintf(driver, sizeof(driver), "%s", dev->driver);
	if (!driver[0]) {
		snprintf(path, sizeof(path), "sys/class/net/%s/device/driver", dev->ifname);
		(void)np_read_link_name_at(rootfd, path, driver, sizeof(driver));
	}
	virtio = !strcmp(driver, "virtio_net") || !strncmp(devname, "virtio", 6);
	bus = virtio && devname[0] ? devname : (dev->bus_info[0] ? dev->bus_info : devname);

	r = read_msi(rootfd, dev->ifname, virtio, &msi, &n_msi);
	if (r < 0) {
		np_err(err, r, NP_PHASE_DISCOVER, "irq-affinity", "%s: msi_irqs: %s",
		       dev->ifname, strerror(-r));
		goto out;
	}
	r = read_names(rootfd, dev->ifname, &msi, &n_msi, &names, &what);
	if (r < 0) {
		np_err(err, r, NP_PHASE_DISCOVER, "irq-affinity", "%s: %s", what, strerror(-r));
		goto out;
	}
	v = calloc(names.n + dev->napis.n + 1, sizeof(*v));
	buf = malloc(LIST_LEN);
	if (!v || !buf) {
		r = np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
		goto out;
	}
	n = collect(&(struct reading){ rootfd, dev, driver, bus, msi, n_msi, buf }, &names, v);
	n += napi_only(rootfd, dev, v, n, buf);
	np_irq_split_blocks(driver, v, n);
	qsort(v, n, sizeof(*v), cmp_irq);
	free(dev->irq);
	dev->irq = n ? v : NULL;
	dev->n_irq = (unsigned)n;
	if (n)
		v = NULL;
	r = 0;
out:
	free(v);
	free(buf);
	free(msi);
	free(names.v);
	return r;
}
