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

#include "np_kernel.h"

#define LIST_LEN 16384

/* --- names ----------------------------------------------------------------- */

struct who {
	const char *driver;
	const char *ifname;
	const char *bus;	/* PCI BDF, or the virtioN device for virtio_net */
};

/* "123" -> 123; the whole string must be digits. */
static int number(const char *s, int *ret)
{
	long v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (*s - '0');
		if (v > 1 << 20)
			return -ERANGE;
	}
	*ret = (int)v;
	return 0;
}

static const char *skip_prefix(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) ? NULL : s + n;
}

/* What the word between the interface name and the queue number means
 * across drivers: "TxRx" (Intel), "rxtx" (vmxnet3), "fp" (qede, bnx2x). */
static enum np_irq_kind word_kind(const char *w, size_t n)
{
	static const struct {
		const char *word;
		enum np_irq_kind kind;
	} words[] = {
		{ "txrx", NP_IRQ_TXRX }, { "rxtx", NP_IRQ_TXRX }, { "tx-rx", NP_IRQ_TXRX },
		{ "rx-tx", NP_IRQ_TXRX }, { "fp", NP_IRQ_TXRX }, { "comb", NP_IRQ_TXRX },
		{ "combined", NP_IRQ_TXRX }, { "rx", NP_IRQ_RX }, { "tx", NP_IRQ_TX },
	};

	for (size_t i = 0; i < NP_ARRAY_SIZE(words); i++)
		if (strlen(words[i].word) == n && !strncasecmp(w, words[i].word, n))
			return words[i].kind;
	return NP_IRQ_OTHER;	/* "event" (vmxnet3), "lsc", "misc", ... */
}

/* "<ifname>", "<ifname>-<n>", "<ifname>-<word>-<n>", "<ifname>-<word>":
 * the naming of Intel's ixgbe/igb/igc/e1000e/fm10k, vmxnet3, sfc, bnxt,
 * qede and most others that name vectors after the netdev. */
static bool match_ifname(const struct who *w, const char *name, enum np_irq_kind *kind,
			 int *queue)
{
	const char *rest, *dash;
	int q;

	rest = skip_prefix(name, w->ifname);
	if (!rest)
		return false;
	if (!*rest) {
		*kind = NP_IRQ_OTHER;
		*queue = -1;
		return true;
	}
	if (*rest++ != '-' || !*rest)
		return false;
	if (!number(rest, &q)) {
		*kind = NP_IRQ_TXRX;
		*queue = q;
		return true;
	}
	dash = strrchr(rest, '-');
	if (dash && !number(dash + 1, &q)) {
		*kind = word_kind(rest, (size_t)(dash - rest));
		*queue = *kind == NP_IRQ_OTHER ? -1 : q;
		return true;
	}
	*kind = NP_IRQ_OTHER;
	*queue = -1;
	return true;
}

/* ice, i40e, iavf: "<driver>-<ifname>-TxRx-<n>" and "<driver>-<BDF>:misc". */
static bool match_driver_ifname(const struct who *w, const char *name, enum np_irq_kind *kind,
				int *queue)
{
	const char *rest;

	if (!w->driver[0])
		return false;
	rest = skip_prefix(name, w->driver);
	if (!rest || *rest++ != '-')
		return false;
	if (w->bus[0]) {
		const char *tail = skip_prefix(rest, w->bus);

		if (tail && *tail == ':') {
			*kind = NP_IRQ_OTHER;
			*queue = -1;
			return true;
		}
	}
	/* "<driver>-<ifname>" alone is too loose a claim */
	if (!skip_prefix(rest, w->ifname) || !strchr(rest + strlen(w->ifname), '-'))
		return false;
	return match_ifname(w, rest, kind, queue);
}

/* mlx5 ("mlx5_comp<n>@pci:<BDF>", "mlx5_async<n>@pci:<BDF>") and others
 * naming vectors after the PCI function (ena, gve, mlx4). */
static bool match_pci(const struct who *w, const char *name, enum np_irq_kind *kind, int *queue)
{
	const char *at = strstr(name, "@pci:");
	const char *p, *word;
	char head[64];
	int q;

	if (!at || !w->bus[0] || strcmp(at + 5, w->bus) != 0)
		return false;
	if ((size_t)(at - name) >= sizeof(head))
		return false;
	memcpy(head, name, (size_t)(at - name));
	head[at - name] = '\0';
	word = skip_prefix(head, "mlx5_");
	if (word) {
		p = skip_prefix(word, "comp");
		if (p && !number(p, &q)) {
			*kind = NP_IRQ_TXRX;
			*queue = q;
		} else {
			*kind = NP_IRQ_OTHER;	/* async, ctrl, pages */
			*queue = -1;
		}
		return true;
	}
	/* a trailing number is the queue: "gve-ntfy-blk3", "ena-ttx-rx-3" */
	p = head + strlen(head);
	while (p > head && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (*p && p > head && !number(p, &q)) {
		*kind = NP_IRQ_TXRX;
		*queue = q;
	} else {
		*kind = NP_IRQ_OTHER;
		*queue = -1;
	}
	return true;
}

/* virtio-pci: "virtioN-input.Q", "virtioN-output.Q", "virtioN-config",
 * "virtioN-control", and "virtioN-virtqueues" when all queues share one
 * vector.  N is the virtio device (the netdev's device link), not the PCI
 * function ethtool reports as bus-info. */
static bool match_virtio(const struct who *w, const char *name, enum np_irq_kind *kind,
			 int *queue)
{
	const char *rest, *p;
	int q;

	if (strncmp(w->bus, "virtio", 6) != 0)
		return false;
	rest = skip_prefix(name, w->bus);
	if (!rest || (*rest && *rest != '-'))
		return false;
	/* a bare "virtioN" is the one legacy INTx line of the device */
	if (*rest)
		rest++;
	if ((p = skip_prefix(rest, "input.")) && !number(p, &q)) {
		*kind = NP_IRQ_RX;
		*queue = q;
	} else if ((p = skip_prefix(rest, "output.")) && !number(p, &q)) {
		*kind = NP_IRQ_TX;
		*queue = q;
	} else {
		*kind = NP_IRQ_OTHER;
		*queue = -1;
	}
	return true;
}

typedef bool (*match_fn)(const struct who *w, const char *name, enum np_irq_kind *kind,
			 int *queue);

/* Driver-specific patterns first; the generic ones below serve every
 * driver (also these), so a driver missing here still mostly works. */
static const struct {
	const char *driver;
	match_fn match;
} patterns[] = {
	{ "mlx5_core", match_pci },
	{ "ice", match_driver_ifname },
	{ "i40e", match_driver_ifname },
	{ "iavf", match_driver_ifname },
	{ "virtio_net", match_virtio },
	/* ixgbe, ixgbevf, igb, igc, fm10k, e1000e, vmxnet3: match_ifname */
};

static const match_fn generic[] = { match_ifname, match_driver_ifname, match_pci };

bool np_irq_match(const char *driver, const char *ifname, const char *bus_info,
		  const char *name, enum np_irq_kind *kind, int *queue)
{
	struct who w = {
		.driver = driver ? driver : "",
		.ifname = ifname ? ifname : "",
		.bus = bus_info ? bus_info : "",
	};
	enum np_irq_kind k;
	int q;

	if (!name || !*name || !w.ifname[0])
		return false;
	for (size_t i = 0; i < NP_ARRAY_SIZE(patterns); i++)
		if (!strcmp(w.driver, patterns[i].driver) &&
		    patterns[i].match(&w, name, &k, &q))
			goto found;
	for (size_t i = 0; i < NP_ARRAY_SIZE(generic); i++)
		if (generic[i](&w, name, &k, &q))
			goto found;
	return false;
found:
	if (kind)
		*kind = k;
	if (queue)
		*queue = q;
	return true;
}

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

		if (number(de->d_name, &irq) < 0)
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
	v = calloc(names.n ? names.n : 1, sizeof(*v));
	buf = malloc(LIST_LEN);
	if (!v || !buf) {
		r = np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < names.n; i++) {
		const struct irq_name *in = &names.v[i];
		struct np_irq *irq = &v[n];

		if (n && v[n - 1].irq == in->irq)
			continue;	/* one entry per IRQ: its first name of ours */
		if (n_msi != SIZE_MAX && !in_dir_list(msi, n_msi, in->irq))
			continue;
		if (!np_irq_match(driver, dev->ifname, bus, in->name, &irq->kind, &irq->queue))
			continue;
		irq->irq = in->irq;
		snprintf(irq->name, sizeof(irq->name), "%s", in->name);
		read_affinity(rootfd, irq, buf);
		n++;
	}
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
