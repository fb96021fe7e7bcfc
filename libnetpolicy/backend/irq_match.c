/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which IRQ is a device's, of what kind and for which queue, from the name
 * its driver gave it: the driver table (np_drivers.h) says which naming a
 * driver uses, with the driver function that makes the names.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "drivers/np_drivers.h"
#include "np_kernel.h"

/* --- names ----------------------------------------------------------------- */

struct who {
	const char *driver;
	const char *ifname;
	const char *bus;	/* PCI BDF, or the virtioN device for virtio_net */
};

int np_irq_number(const char *s, int *ret)
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
 * across drivers: "TxRx" (Intel), "rxtx" (vmxnet3), "fp" (qede, bnx2x), "q"
 * (be2net's "<ifname>-q<n>", an EQ with its Rx and Tx queue). */
static enum np_irq_kind word_kind(const char *w, size_t n)
{
	static const struct {
		const char *word;
		enum np_irq_kind kind;
	} words[] = {
		{ "txrx", NP_IRQ_TXRX }, { "rxtx", NP_IRQ_TXRX }, { "tx-rx", NP_IRQ_TXRX },
		{ "rx-tx", NP_IRQ_TXRX }, { "fp", NP_IRQ_TXRX }, { "comb", NP_IRQ_TXRX },
		{ "combined", NP_IRQ_TXRX }, { "q", NP_IRQ_TXRX }, { "rx", NP_IRQ_RX },
		{ "tx", NP_IRQ_TX },
	};

	for (size_t i = 0; i < NP_ARRAY_SIZE(words); i++)
		if (strlen(words[i].word) == n && !strncasecmp(w, words[i].word, n))
			return words[i].kind;
	return NP_IRQ_OTHER;	/* "event" (vmxnet3), "lsc", "misc", ... */
}

/* "<word><n>" of a known word (be2net's "q3", cxgb4's "Rx3"), else false. */
static bool word_number(const char *rest, enum np_irq_kind *kind, int *queue)
{
	const char *p = rest + strlen(rest);

	while (p > rest && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == rest || !*p || np_irq_number(p, queue))
		return false;
	*kind = word_kind(rest, (size_t)(p - rest));
	return *kind != NP_IRQ_OTHER;
}

/* "<ifname>", "<ifname>-<n>", "<ifname>-<word>-<n>", "<ifname>-<word>",
 * "<ifname>-<word><n>": the naming of Intel's ixgbe/igb/igc/e1000e/fm10k,
 * vmxnet3, sfc, bnxt, qede, be2net, cxgb4 and most others that name vectors
 * after the netdev. */
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
	if (!np_irq_number(rest, &q)) {
		*kind = NP_IRQ_TXRX;
		*queue = q;
		return true;
	}
	dash = strrchr(rest, '-');
	if (dash && !np_irq_number(dash + 1, &q)) {
		*kind = word_kind(rest, (size_t)(dash - rest));
		*queue = *kind == NP_IRQ_OTHER ? -1 : q;
		return true;
	}
	if (!dash && word_number(rest, kind, queue))
		return true;
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
		if (p && !np_irq_number(p, &q)) {
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
	if (*p && p > head && !np_irq_number(p, &q)) {
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
	if ((p = skip_prefix(rest, "input.")) && !np_irq_number(p, &q)) {
		*kind = NP_IRQ_RX;
		*queue = q;
	} else if ((p = skip_prefix(rest, "output.")) && !np_irq_number(p, &q)) {
		*kind = NP_IRQ_TX;
		*queue = q;
	} else {
		*kind = NP_IRQ_OTHER;
		*queue = -1;
	}
	return true;
}

/* gve's notification blocks: "gve-ntfy-blk<n>@pci:<BDF>" (6.3 on) or
 * "<ifname>-ntfy-block.<n>" (6.1); the block number for now, which
 * np_irq_split_blocks() turns into a queue once all blocks are known. */
static bool match_blocks(const struct who *w, const char *name, enum np_irq_kind *kind,
			 int *queue)
{
	const char *rest = skip_prefix(name, w->ifname);
	const char *dot;

	if (rest && (dot = skip_prefix(rest, "-ntfy-block.")) && !np_irq_number(dot, queue)) {
		*kind = NP_IRQ_TXRX;
		return true;
	}
	return match_pci(w, name, kind, queue);
}

void np_irq_split_blocks(const char *driver, struct np_irq *v, size_t n)
{
	const struct np_driver *drv = np_driver_lookup(driver);
	int blocks = 0;

	if (!drv || drv->irq_naming != NP_IRQN_BLOCKS)
		return;
	/* only the blocks found by name: a NAPI the kernel tied is a queue's */
	for (size_t i = 0; i < n; i++)
		if (v[i].queue >= 0 && v[i].source == NP_IRQ_SRC_NAME)
			blocks++;
	for (size_t i = 0; i < n; i++) {
		if (v[i].queue < 0 || v[i].source != NP_IRQ_SRC_NAME)
			continue;
		if (v[i].queue < blocks / 2) {
			v[i].kind = NP_IRQ_TX;
		} else {
			v[i].kind = NP_IRQ_RX;
			v[i].queue -= blocks / 2;
		}
	}
}

/* hns3: "hns3-<BDF>-TxRx-<n>", "-Rx-<n>", "-Tx-<n>"; the TxRx count steps
 * by two (hns3_nic_init_irq() increments it twice), so TxRx n is vector and
 * queue n / 2. */
static bool match_driver_bus(const struct who *w, const char *name, enum np_irq_kind *kind,
			     int *queue)
{
	const char *rest, *dash;
	int q;

	if (!w->driver[0] || !w->bus[0])
		return false;
	rest = skip_prefix(name, w->driver);
	if (!rest || *rest++ != '-' || !(rest = skip_prefix(rest, w->bus)) || *rest++ != '-')
		return false;
	dash = strrchr(rest, '-');
	if (!dash || np_irq_number(dash + 1, &q)) {
		*kind = NP_IRQ_OTHER;
		*queue = -1;
		return true;
	}
	*kind = word_kind(rest, (size_t)(dash - rest));
	*queue = *kind == NP_IRQ_OTHER ? -1 : *kind == NP_IRQ_TXRX ? q / 2 : q;
	return true;
}

/* mlx4: "mlx4-<n>@<BDF>" (completion EQ n, shared by the ports, taken by an
 * Rx ring for the first CPU of its affinity) and "mlx4-async@pci:<BDF>":
 * the device's, but no queue's. */
static bool match_mlx4_eq(const struct who *w, const char *name, enum np_irq_kind *kind,
			  int *queue)
{
	const char *at = strrchr(name, '@');
	const char *bus;

	if (!at || !w->bus[0] || strncmp(name, "mlx4-", 5) != 0)
		return false;
	bus = skip_prefix(at + 1, "pci:");
	if (strcmp(bus ? bus : at + 1, w->bus) != 0)
		return false;
	*kind = NP_IRQ_OTHER;
	*queue = -1;
	return true;
}

typedef bool (*match_fn)(const struct who *w, const char *name, enum np_irq_kind *kind,
			 int *queue);

/* The matcher for each naming of the driver table (np_drivers.h); the
 * generic ones below serve every driver (these too), so a driver missing
 * from the table still mostly works. */
static const match_fn by_naming[] = {
	[NP_IRQN_GENERIC] = NULL,
	[NP_IRQN_IFNAME] = match_ifname,
	[NP_IRQN_DRIVER_IFNAME] = match_driver_ifname,
	[NP_IRQN_PCI] = match_pci,
	[NP_IRQN_VIRTIO] = match_virtio,
	[NP_IRQN_BLOCKS] = match_blocks,
	[NP_IRQN_NONE] = NULL,
	[NP_IRQN_DRIVER_BUS] = match_driver_bus,
	[NP_IRQN_MLX4_EQ] = match_mlx4_eq,
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
	const struct np_driver *drv;
	enum np_irq_kind k;
	int q;

	if (!name || !*name || !w.ifname[0])
		return false;
	drv = np_driver_lookup(w.driver);
	if (drv && (unsigned)drv->irq_naming < NP_ARRAY_SIZE(by_naming) &&
	    by_naming[drv->irq_naming] && by_naming[drv->irq_naming](&w, name, &k, &q))
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
