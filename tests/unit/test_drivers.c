/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The driver table's constraint checker (np_drivers.h), against the rules
 * read in each driver's set_coalesce. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "np_private.h"
#include "tap.h"

#define F(f) NP_COAL_BIT(NP_COAL_##f)

static struct np_irq irqs[2];

/* A device of `driver` with rx-/tx-usecs, its queues' IRQs TxRx (paired) or
 * rx and tx. */
static void dev_init(struct np_dev *d, const char *driver, bool paired)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->driver, sizeof(d->driver), "%s", driver);
	d->channels.combined = 4;
	d->channels.max_combined = 8;
	d->coalesce.supported = F(RX_USECS) | F(TX_USECS);
	memset(irqs, 0, sizeof(irqs));
	irqs[0].kind = paired ? NP_IRQ_TXRX : NP_IRQ_RX;
	irqs[1].kind = paired ? NP_IRQ_TXRX : NP_IRQ_TX;
	irqs[0].queue = 0;
	irqs[1].queue = paired ? 1 : 0;
	d->irq = irqs;
	d->n_irq = 2;
}

static int check(const char *driver, bool paired, uint32_t rx, uint32_t tx, uint32_t fields)
{
	struct np_dev d;
	struct np_coalesce want;
	char why[200] = "";

	dev_init(&d, driver, paired);
	want = d.coalesce;
	want.val[NP_COAL_RX_USECS] = rx;
	want.val[NP_COAL_TX_USECS] = tx;
	return np_driver_coal_check(np_driver_lookup(driver), &d, &want, fields, why, sizeof(why));
}

static void table(void)
{
	static const char *const want[] = { "ixgbe", "igb", "e1000e", "i40e", "ice", "mlx5_core",
					    "bnxt_en", "ena", "gve", "virtio_net", "vmxnet3",
					    "veth", "netdevsim", "mlx4_en", "nfp", "qede", "hns3",
					    "cxgb4", "be2net", "hv_netvsc" };
	size_t n = 0;
	const struct np_driver *t;

	for (size_t i = 0; i < NP_ARRAY_SIZE(want); i++)
		ok(np_driver_lookup(want[i]) != NULL, "the table covers %s", want[i]);
	ok(np_driver_lookup("acme") == NULL, "a driver not in the table: generic behaviour");
	for (; (t = np_driver_at(n)); n++) {
		ok(t->ethtool_file && !strncmp(t->ethtool_file, "drivers/net/", 12) && t->irq_names,
		   "%s cites its driver file and names its IRQs", t->name);
		ok(t->irq_naming != NP_IRQN_GENERIC, "%s: its IRQ naming is in the table", t->name);
		ok(np_driver_lookup(t->name) == t, "%s: found by its name", t->name);
	}
	ok(n >= 26, "both parts of the table: %zu drivers", n);
	ok(np_driver_lookup("mlx5_core")->chan_affinity == NP_CHAN_KEEPS &&
	   np_driver_lookup("mlx5_core")->chan_xps == NP_CHAN_RESETS,
	   "mlx5: a channel change keeps IRQ affinity (EQs from probe) and rewrites XPS");
	ok(np_driver_lookup("veth")->chan_xps == NP_CHAN_KEEPS, "veth: a channel change keeps XPS");
	ok(np_driver_lookup("vmxnet3")->no_set_channels, "vmxnet3: channels reported, no setter");
	ok(!np_driver_lookup("virtio_net")->no_set_channels, "virtio_net: channels settable");
}

static void ixgbe(void)
{
	uint32_t both = F(RX_USECS) | F(TX_USECS);

	is_int(check("ixgbe", true, 50, 50, both), -EINVAL, "ixgbe: tx-usecs while paired: EINVAL");
	is_int(check("ixgbe", true, 50, 0, both), 0, "ixgbe: rx-usecs alone while paired: taken");
	is_int(check("ixgbe", false, 50, 50, both), 0, "ixgbe: tx-usecs with separate vectors: taken");
	is_int(check("ixgbe", true, 1023, 0, F(RX_USECS)), -EINVAL, "ixgbe: rx-usecs above 1022: EINVAL");
	is_int(check("ixgbe", true, 1022, 0, F(RX_USECS)), 0, "ixgbe: rx-usecs 1022 taken");
	ok(np_driver_coal_special(np_driver_lookup("ixgbe"), NP_COAL_RX_USECS, 1)->mode ==
	   NP_COAL_MODE_ADAPTIVE, "ixgbe: rx-usecs 1 is the dynamic ITR");
	ok(np_driver_coal_special(np_driver_lookup("ixgbe"), NP_COAL_RX_USECS, 0)->side_effect != NULL,
	   "ixgbe: rx-usecs 0 says it disables RSC and resets the adapter");
}

static void igb(void)
{
	const struct np_driver *d = np_driver_lookup("igb");

	for (uint32_t v = 0; v <= 12; v++) {
		int want = v == 2 || (v >= 4 && v <= 9) ? -EINVAL : 0;

		is_int(check("igb", false, v, 0, F(RX_USECS)), want, "igb: rx-usecs %u", v);
		is_int(check("igb", false, 0, v, F(TX_USECS)), want, "igb: tx-usecs %u (separate vectors)", v);
	}
	is_int(check("igb", false, 10001, 0, F(RX_USECS)), -EINVAL, "igb: rx-usecs above 10000");
	is_int(check("igb", true, 3, 10, F(TX_USECS)), -EINVAL, "igb: tx-usecs while queue pairs: EINVAL");
	/* the driver checks every field it gets, sent or not */
	is_int(check("igb", false, 5, 10, F(TX_USECS)), 0, "igb: only the fields sent are checked");
	is_int(np_driver_coal_nearest(d, NP_COAL_TX_USECS, 8), 10, "igb: 8 us becomes 10");
	is_int(np_driver_coal_nearest(d, NP_COAL_RX_USECS, 0), 0, "igb: 0 stays (moderation off)");
	is_int(np_driver_coal_nearest(d, NP_COAL_RX_USECS, 200), 200, "igb: 200 stays");
	is_int(np_driver_coal_nearest(d, NP_COAL_RX_USECS, 20000), 10000, "igb: above the range: 10000");
	is_int(d->adaptive_rx_usecs, 3, "igb: adaptive moderation is rx-usecs 3");
}

static void e1000e(void)
{
	for (uint32_t v = 0; v <= 11; v++) {
		int want = v == 2 || (v >= 5 && v <= 9) ? -EINVAL : 0;

		is_int(check("e1000e", false, v, 0, F(RX_USECS)), want, "e1000e: rx-usecs %u", v);
	}
	is_int(np_driver_lookup("e1000e")->adaptive_rx_usecs, 3, "e1000e: adaptive is rx-usecs 3");
}

static void others(void)
{
	is_int(check("mlx5_core", false, 4096, 0, F(RX_USECS)), -ERANGE, "mlx5: usecs above 4095: ERANGE");
	is_int(check("mlx5_core", false, 4095, 4095, F(RX_USECS) | F(TX_USECS)), 0, "mlx5: 4095 taken");
	is_int(check("ice", false, 8161, 0, F(RX_USECS)), -EINVAL, "ice: above 8160: EINVAL");
	is_int(check("acme", true, 50, 50, F(RX_USECS) | F(TX_USECS)), 0, "generic: no allow-list");
	is_int(check("netdevsim", true, 5, 7, F(RX_USECS) | F(TX_USECS)), 0, "netdevsim takes anything");
}

/* bnxt_en, ena, gve: bnxt_set_coalesce(), ena_set_coalesce(), gve_set_coalesce() */
static void cloud(void)
{
	const struct np_driver *gve = np_driver_lookup("gve");
	uint32_t both = F(RX_USECS) | F(TX_USECS);

	is_int(check("gve", false, 8191, 0, both), -EINVAL, "gve: rx-usecs above 8190: EINVAL");
	is_int(check("gve", false, 0, 8191, both), -EINVAL, "gve: tx-usecs above 8190: EINVAL");
	is_int(check("gve", false, 8190, 8190, both), 0, "gve: 8190 taken");
	is_int(np_driver_coal_nearest(gve, NP_COAL_RX_USECS, 10000), 8190,
	       "gve: a policy's 10000 us becomes 8190");
	ok(np_driver_lookup("bnxt_en")->adaptive_off_alone,
	   "bnxt_en: turning adaptive-rx off stores nothing else of the request");
	is_int(check("bnxt_en", true, 100000, 100000, both), 0,
	       "bnxt_en: no range refusal (the firmware's maxima clamp)");
	is_int(check("ena", false, 100000, 64, both), 0,
	       "ena: no range refusal (divided by the delay resolution)");
}

static void paired(void)
{
	struct np_dev d;

	dev_init(&d, "ixgbe", true);
	ok(np_driver_paired(&d), "TxRx IRQs: paired");
	dev_init(&d, "igb", false);
	ok(!np_driver_paired(&d), "rx and tx IRQs: not paired");
	dev_init(&d, "ixgbe", false);
	d.n_irq = 0;
	ok(np_driver_paired(&d), "no IRQs known, combined channels: paired");
}

int main(void)
{
	table();
	ixgbe();
	igb();
	e1000e();
	others();
	paired();
	cloud();
	return tap_done();
}
