/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* IRQ name patterns and the device IRQ reading on fixture trees. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/np_kernel.h"
#include "fixture.h"
#include "tap.h"

static const char *const kinds[] = { "txrx", "rx", "tx", "other" };

/* match: expect kind ("txrx", "rx", "tx", "other") and queue, or no match
 * when kind is NULL */
static void m(const char *driver, const char *ifname, const char *bus, const char *name,
	      const char *kind, int queue)
{
	enum np_irq_kind k = NP_IRQ_OTHER;
	int q = -2;
	bool r = np_irq_match(driver, ifname, bus, name, &k, &q);

	if (!kind) {
		ok(!r, "%s/%s: '%s' is not ours", driver, ifname, name);
		return;
	}
	ok(r, "%s/%s: '%s' is ours", driver, ifname, name);
	if (!r)
		return;
	is_str(kinds[k], kind, "%s: kind", name);
	is_int(q, queue, "%s: queue", name);
}

/* gve: block n of N is Tx queue n below N/2 and Rx queue n - N/2 above
 * (gve.h gve_tx_idx_to_ntfy(), gve_rx_idx_to_ntfy()) */
static void test_blocks(void)
{
	const char *bdf = "0000:00:04.0";
	struct np_irq v[9];
	char name[64];

	memset(v, 0, sizeof(v));
	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "gve-ntfy-blk%d@pci:%s", i, bdf);
		ok(np_irq_match("gve", "ens4", bdf, name, &v[i].kind, &v[i].queue), "gve: %s", name);
	}
	ok(np_irq_match("gve", "ens4", bdf, "gve-mgmnt@pci:0000:00:04.0", &v[8].kind, &v[8].queue),
	   "gve: the management vector is ours");
	np_irq_split_blocks("gve", v, 9);
	for (int i = 0; i < 8; i++) {
		is_str(kinds[v[i].kind], i < 4 ? "tx" : "rx", "gve: block %d kind", i);
		is_int(v[i].queue, i % 4, "gve: block %d queue", i);
	}
	is_int(v[8].queue, -1, "gve: management vector: no queue");
	m("gve", "eth0", bdf, "eth0-ntfy-block.5", "txrx", 5);
	np_irq_split_blocks("ixgbe", v, 1);
	is_str(kinds[v[0].kind], "tx", "another driver's IRQs are left as matched");
}

/* The drivers of the table's second part (drivers_more.c). */
static void test_more(void)
{
	const char *bdf = "0000:7d:00.0";

	/* hns3_nic_init_irq() counts TxRx vectors by two: vector v is queue v */
	m("hns3", "eth0", bdf, "hns3-0000:7d:00.0-TxRx-0", "txrx", 0);
	m("hns3", "eth0", bdf, "hns3-0000:7d:00.0-TxRx-2", "txrx", 1);
	m("hns3", "eth0", bdf, "hns3-0000:7d:00.0-TxRx-14", "txrx", 7);
	m("hns3", "eth0", bdf, "hns3-0000:7d:00.0-Rx-3", "rx", 3);
	m("hns3", "eth0", bdf, "hns3-0000:7d:00.0-Tx-3", "tx", 3);
	m("hns3", "eth0", bdf, "hns3-0000:7d:00.1-TxRx-0", NULL, 0);
	m("hns3", "eth0", bdf, "hclge-misc-0000:7d:00.0", NULL, 0);
	/* mlx4's completion EQs are the device's but no queue's */
	m("mlx4_en", "ens2", "0000:04:00.0", "mlx4-3@0000:04:00.0", "other", -1);
	m("mlx4_en", "ens2", "0000:04:00.0", "mlx4-async@pci:0000:04:00.0", "other", -1);
	m("mlx4_en", "ens2", "0000:04:00.0", "mlx4-3@0000:05:00.0", NULL, 0);
	/* "<ifname>-<word><n>": be2net's EQs, cxgb4's Rx queues */
	m("be2net", "eth1", "0000:02:00.0", "eth1-q0", "txrx", 0);
	m("be2net", "eth1", "0000:02:00.0", "eth1-q11", "txrx", 11);
	m("cxgb4", "enp1s0f4", "0000:01:00.4", "enp1s0f4-Rx3", "rx", 3);
	m("cxgb4", "enp1s0f4", "0000:01:00.4", "enp1s0f4-FWeventq", "other", -1);
	m("qede", "ens3f0", "0000:3b:00.0", "ens3f0-fp-5", "txrx", 5);
	m("nfp", "ens6np0", "0000:5e:00.0", "ens6np0-rxtx-2", "txrx", 2);
}

static void test_match(void)
{
	const char *bdf = "0000:3b:00.0";

	m("mlx5_core", "ens1f0", bdf, "mlx5_comp3@pci:0000:3b:00.0", "txrx", 3);
	m("mlx5_core", "ens1f0", bdf, "mlx5_comp0@pci:0000:3b:00.0", "txrx", 0);
	m("mlx5_core", "ens1f0", bdf, "mlx5_comp63@pci:0000:3b:00.0", "txrx", 63);
	m("mlx5_core", "ens1f0", bdf, "mlx5_async0@pci:0000:3b:00.0", "other", -1);
	m("mlx5_core", "ens1f0", bdf, "mlx5_comp3@pci:0000:3b:00.1", NULL, 0);
	m("mlx5_core", "ens1f0", bdf, "mlx5_comp3@pci:0000:3b:00.00", NULL, 0);
	m("mlx5_core", "ens1f0", bdf, "mlx5_comp3", NULL, 0);
	m("mlx5_core", "ens1f0", "", "mlx5_comp3@pci:", NULL, 0);

	m("ice", "eth0", bdf, "ice-eth0-TxRx-0", "txrx", 0);
	m("ice", "eth0", bdf, "ice-eth0-TxRx-17", "txrx", 17);
	m("ice", "eth0", bdf, "ice-eth0-rx-2", "rx", 2);
	m("ice", "eth0", bdf, "ice-eth0-tx-3", "tx", 3);
	m("ice", "eth0", bdf, "ice-0000:3b:00.0:misc", "other", -1);
	m("ice", "eth0", bdf, "ice-eth1-TxRx-0", NULL, 0);
	m("ice", "eth0", bdf, "ice-eth00-TxRx-0", NULL, 0);
	m("ice", "eth0", bdf, "ice-0000:3b:00.1:misc", NULL, 0);
	m("i40e", "enp1s0f0", bdf, "i40e-enp1s0f0-TxRx-5", "txrx", 5);
	m("i40e", "enp1s0f0", bdf, "i40e-enp1s0f1-TxRx-5", NULL, 0);

	m("ixgbe", "eth0", bdf, "eth0-TxRx-0", "txrx", 0);
	m("ixgbe", "eth0", bdf, "eth0-TxRx-15", "txrx", 15);
	m("ixgbe", "eth0", bdf, "eth0-rx-1", "rx", 1);
	m("ixgbe", "eth0", bdf, "eth0-tx-1", "tx", 1);
	m("ixgbe", "eth0", bdf, "eth0", "other", -1);
	m("ixgbe", "eth0", bdf, "eth1-TxRx-0", NULL, 0);
	m("ixgbe", "eth0", bdf, "eth10-TxRx-0", NULL, 0);
	m("ixgbe", "eth1", bdf, "eth10-TxRx-0", NULL, 0);
	m("igb", "eno1", bdf, "eno1-TxRx-3", "txrx", 3);
	m("ixgbevf", "eth0", bdf, "eth0-TxRx-1", "txrx", 1);
	m("fm10k", "eth0", bdf, "eth0-TxRx-1", "txrx", 1);

	m("e1000e", "eth0", bdf, "eth0-rx-0", "rx", 0);
	m("e1000e", "eth0", bdf, "eth0-tx-0", "tx", 0);
	m("e1000e", "eth0", bdf, "eth0", "other", -1);
	m("e1000e", "eth0", bdf, "eth1-rx-0", NULL, 0);
	m("e1000e", "eth0", bdf, "ahci[0000:00:1f.2]", NULL, 0);

	m("vmxnet3", "ens192", bdf, "ens192-rxtx-0", "txrx", 0);
	m("vmxnet3", "ens192", bdf, "ens192-rxtx-7", "txrx", 7);
	m("vmxnet3", "ens192", bdf, "ens192-event-8", "other", -1);
	m("vmxnet3", "ens192", bdf, "ens224-rxtx-0", NULL, 0);

	m("virtio_net", "eth0", "virtio2", "virtio2-input.0", "rx", 0);
	m("virtio_net", "eth0", "virtio2", "virtio2-output.3", "tx", 3);
	m("virtio_net", "eth0", "virtio2", "virtio2-config", "other", -1);
	m("virtio_net", "eth0", "virtio2", "virtio2-virtqueues", "other", -1);
	m("virtio_net", "eth0", "virtio2", "virtio2-control", "other", -1);
	m("virtio_net", "eth0", "virtio2", "virtio2", "other", -1);
	m("virtio_net", "eth0", "virtio2", "virtio3-input.0", NULL, 0);
	m("virtio_net", "eth0", "virtio2", "virtio20-input.0", NULL, 0);
	m("virtio_net", "eth0", "virtio2", "virtio0-req.0", NULL, 0);
	/* virtio_net's bus-info is the PCI function: no virtio IRQ matches it */
	m("virtio_net", "eth0", "0000:00:03.0", "virtio2-input.0", NULL, 0);

	/* drivers not in the table */
	m("bnxt_en", "ens2f0np0", bdf, "ens2f0np0-TxRx-4", "txrx", 4);
	m("sfc", "ens3", bdf, "ens3-2", "txrx", 2);
	m("qede", "ens4", bdf, "ens4-fp-1", "txrx", 1);
	m("gve", "ens5", bdf, "gve-ntfy-blk2@pci:0000:3b:00.0", "txrx", 2);
	m("ena", "ens5", bdf, "ena-mgmnt@pci:0000:3b:00.0", "other", -1);
	m("", "eth0", "", "eth0-TxRx-2", "txrx", 2);
	m(NULL, "eth0", NULL, "eth0-lsc", "other", -1);
	m(NULL, "eth0", NULL, "timer", NULL, 0);
	m(NULL, "eth0", NULL, "", NULL, 0);
	m(NULL, "eth0", NULL, "eth0-", NULL, 0);
	m(NULL, "", NULL, "eth0", NULL, 0);
}

/* np_irq_read() of @dev on the fixture tree @fd: that it succeeds (checked
 * when @tag names the device) and finds @n IRQs; true when it found them,
 * so that the caller may look at each. */
static bool read_irqs(int fd, struct np_dev *dev, const char *tag, unsigned n,
		      const char *count_what)
{
	struct np_error err = { 0 };
	int r = np_irq_read(fd, dev, &err);

	if (tag)
		is_int(r, 0, "%s: irq read (%s)", tag, err.msg);
	is_int(dev->n_irq, n, "%s", count_what);
	return dev->n_irq == n;
}

/* Another read of the same tree, for @ifname alone: driver and bus-info
 * then come from the sysfs device links, not from what ethtool says. */
static bool reread_irqs(int fd, struct np_dev *dev, const char *ifname, const char *tag,
			unsigned n, const char *count_what)
{
	np_dev_clear(dev);
	snprintf(dev->ifname, sizeof(dev->ifname), "%s", ifname);
	return read_irqs(fd, dev, tag, n, count_what);
}

static void test_read_mlx5(void)
{
	struct np_dev dev = { .ifname = "ens1f0", .driver = "mlx5_core",
			      .bus_info = "0000:81:00.0" };
	int fd = open_fixture("2s-mlx5");

	if (read_irqs(fd, &dev, "mlx5", 9, "mlx5: 8 completion IRQs and async, not the other port's")) {
		bool in_order = true;

		for (int i = 0; i < 8; i++)
			in_order &= dev.irq[i].kind == NP_IRQ_TXRX && dev.irq[i].queue == i &&
				    dev.irq[i].irq == 121u + (unsigned)i && !dev.irq[i].err;
		ok(in_order, "mlx5: queue IRQs sorted by queue");
		is_str(dev.irq[0].name, "mlx5_comp0@pci:0000:81:00.0", "mlx5: name kept");
		is_str(list(&dev.irq[3].affinity), "11", "mlx5: comp3 affinity");
		is_int(dev.irq[8].irq, 120, "mlx5: async last");
		is_int(dev.irq[8].kind, NP_IRQ_OTHER, "mlx5: async is other");
		is_int(dev.irq[8].queue, -1, "mlx5: async has no queue");
		is_str(list(&dev.irq[8].affinity), "8-15,24-31", "mlx5: async affinity");
		is_str(list(&dev.irq[8].effective), "8", "mlx5: async effective affinity");
	}
	reread_irqs(fd, &dev, "ens1f0", NULL, 9,
		    "mlx5: same IRQs with driver and bus-info from sysfs");
	np_dev_clear(&dev);
	close(fd);
}

static void test_read_virtio(void)
{
	struct np_dev dev = { .ifname = "eth0", .driver = "virtio_net",
			      .bus_info = "0000:00:03.0" };
	int fd = open_fixture("vm-virtio");

	if (read_irqs(fd, &dev, "virtio", 5, "virtio: eth0 has 5 IRQs, none of eth1's")) {
		ok(dev.irq[0].kind == NP_IRQ_RX && dev.irq[0].queue == 0 && dev.irq[0].irq == 25,
		   "virtio: input.0 first");
		ok(dev.irq[1].kind == NP_IRQ_RX && dev.irq[1].queue == 1 && dev.irq[1].irq == 27,
		   "virtio: input.1");
		ok(dev.irq[2].kind == NP_IRQ_TX && dev.irq[2].queue == 0 && dev.irq[2].irq == 26,
		   "virtio: output.0");
		ok(dev.irq[3].kind == NP_IRQ_TX && dev.irq[3].queue == 1, "virtio: output.1");
		ok(dev.irq[4].kind == NP_IRQ_OTHER && dev.irq[4].irq == 24, "virtio: config last");
		is_str(list(&dev.irq[0].affinity), "0", "virtio: affinity");
	}
	reread_irqs(fd, &dev, "eth1", NULL, 5, "virtio: eth1 has its own 5");
	ok(dev.n_irq && dev.irq[0].irq == 30, "virtio: eth1 input.0 is IRQ 30");
	np_dev_clear(&dev);
	close(fd);
}

static void test_read_legacy(void)
{
	struct np_dev dev = { .ifname = "eth0", .driver = "e1000e" };
	int fd = open_fixture("offline-cpu");

	if (read_irqs(fd, &dev, "e1000e INTx", 1, "e1000e INTx: one shared line")) {
		is_int(dev.irq[0].irq, 11, "e1000e INTx: IRQ 11, not eth1's 16");
		is_str(dev.irq[0].name, "eth0", "e1000e INTx: our name of the shared line");
		is_int(dev.irq[0].kind, NP_IRQ_OTHER, "e1000e INTx: other");
		is_str(list(&dev.irq[0].affinity), "0-1,3", "e1000e INTx: affinity");
		is_str(list(&dev.irq[0].effective), "0", "e1000e INTx: effective");
	}
	reread_irqs(fd, &dev, "veth0", "veth", 0, "veth: no IRQs");
	np_dev_clear(&dev);
	close(fd);
}

/* --- the kernel's NAPI map ahead of the names (issue 33) -------------------- */

static void put(const char *root, const char *path, const char *text)
{
	char full[512], cmd[600];
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", full);
	if (system(cmd) != 0 || !(f = fopen(full, "w"))) {
		printf("Bail out! cannot write %s\n", full);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* An IRQ of the tree: its msi_irqs entry, action name and affinity. */
static void vector(const char *root, unsigned irq, const char *name, bool msi)
{
	char path[128];

	if (msi) {
		snprintf(path, sizeof(path), "sys/class/net/eth9/device/msi_irqs/%u", irq);
		put(root, path, "msix\n");
	}
	snprintf(path, sizeof(path), "sys/kernel/irq/%u/actions", irq);
	put(root, path, name);
	snprintf(path, sizeof(path), "proc/irq/%u/smp_affinity_list", irq);
	put(root, path, "0-3\n");
	snprintf(path, sizeof(path), "proc/irq/%u/effective_affinity_list", irq);
	put(root, path, "0\n");
}

static const struct np_irq *irq_of(const struct np_dev *d, unsigned irq)
{
	for (unsigned i = 0; i < d->n_irq; i++)
		if (d->irq[i].irq == irq)
			return &d->irq[i];
	return NULL;
}

static void expect(const struct np_dev *d, unsigned irq, enum np_irq_kind kind, int queue,
		   enum np_irq_source source, const char *what)
{
	const struct np_irq *q = irq_of(d, irq);

	ok(q && q->kind == kind && q->queue == queue && q->source == source,
	   "%s (IRQ %u: kind %d queue %d source %d)", what, irq, q ? (int)q->kind : -1,
	   q ? q->queue : -9, q ? (int)q->source : -1);
}

/* "eth9:rx-N" / "eth9:tx-N" and "acme-eth9-L0-rxN": names no pattern
 * knows.  The rx and tx NAPIs of queues 0 and 1 report their IRQs; queue
 * 2's does not; IRQ 48 is a NAPI's that msi_irqs does not list. */
static void test_read_napi(void)
{
	struct np_napi_inst napis[] = {
		{ .id = 8193, .has = NP_NAPI_HAS_IRQ, .irq = 40, .rxq = 0, .txq = -1 },
		{ .id = 8194, .has = NP_NAPI_HAS_IRQ, .irq = 41, .rxq = -1, .txq = 0 },
		{ .id = 8195, .has = NP_NAPI_HAS_IRQ, .irq = 42, .rxq = 1, .txq = -1 },
		{ .id = 8196, .has = NP_NAPI_HAS_IRQ, .irq = 43, .rxq = -1, .txq = 1 },
		{ .id = 8197, .has = 0, .rxq = 2, .txq = 2 },
		{ .id = 8198, .has = NP_NAPI_HAS_IRQ, .irq = 48, .rxq = 3, .txq = 3 },
	};
	struct np_dev dev = { .ifname = "eth9", .driver = "acme", .bus_info = "0000:05:00.0" };
	char root[] = "/tmp/np-irq-napi.XXXXXX", cmd[128];
	int fd;

	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp\n");
		exit(1);
	}
	vector(root, 39, "eth9", true);
	vector(root, 40, "eth9:rx-0", true);
	vector(root, 41, "eth9:tx-0", true);
	vector(root, 42, "eth9:rx-1", true);
	vector(root, 43, "eth9:tx-1", true);
	vector(root, 44, "acme-eth9-L0-rx2", true);
	vector(root, 48, "eth9-q3", false);
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* no napi-get (before 6.8): the names alone, which tie nothing */
	dev.napis.err = -EOPNOTSUPP;
	if (read_irqs(fd, &dev, "names only", 6, "names only: the 6 vectors of msi_irqs")) {
		bool none = true;

		for (unsigned i = 0; i < dev.n_irq; i++)
			none &= dev.irq[i].queue < 0 && dev.irq[i].source == NP_IRQ_SRC_NONE;
		ok(none, "names only: no queue tied, every vector's source \"none\"");
	}
	np_dev_clear(&dev);

	snprintf(dev.ifname, sizeof(dev.ifname), "eth9");
	snprintf(dev.driver, sizeof(dev.driver), "acme");
	dev.napis.v = malloc(sizeof(napis));
	memcpy(dev.napis.v, napis, sizeof(napis));
	dev.napis.n = NP_ARRAY_SIZE(napis);
	if (read_irqs(fd, &dev, "napi", 7, "napi: 6 vectors and the NAPI-only IRQ 48")) {
		expect(&dev, 40, NP_IRQ_RX, 0, NP_IRQ_SRC_KERNEL, "napi: eth9:rx-0 is rx 0");
		expect(&dev, 41, NP_IRQ_TX, 0, NP_IRQ_SRC_KERNEL, "napi: eth9:tx-0 is tx 0");
		expect(&dev, 42, NP_IRQ_RX, 1, NP_IRQ_SRC_KERNEL, "napi: eth9:rx-1 is rx 1");
		expect(&dev, 43, NP_IRQ_TX, 1, NP_IRQ_SRC_KERNEL, "napi: eth9:tx-1 is tx 1");
		expect(&dev, 44, NP_IRQ_OTHER, -1, NP_IRQ_SRC_NONE,
		       "napi: acme-eth9-L0-rx2, whose NAPI reports no IRQ, is tied by nothing");
		expect(&dev, 39, NP_IRQ_OTHER, -1, NP_IRQ_SRC_NONE, "napi: eth9 itself no queue's");
		expect(&dev, 48, NP_IRQ_TXRX, 3, NP_IRQ_SRC_KERNEL,
		       "napi: IRQ 48 outside msi_irqs is queue 3's, as the kernel says");
		is_int(irq_of(&dev, 40)->napi_id, 8193, "napi: the NAPI that tied IRQ 40");
		is_str(irq_of(&dev, 48)->name, "eth9-q3", "napi: IRQ 48 named from its action");
		is_str(list(&irq_of(&dev, 48)->affinity), "0-3", "napi: IRQ 48 affinity read");
	}
	np_dev_clear(&dev);
	close(fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
}

int main(void)
{
	test_match();
	test_blocks();
	test_more();
	test_read_mlx5();
	test_read_virtio();
	test_read_legacy();
	test_read_napi();
	return tap_done();
}
