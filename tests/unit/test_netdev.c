/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The netdev generic netlink family (netdev.yaml) on bytes shaped like the
 * kernel's replies: napi-get as 6.8 answers it (id, ifindex, irq; pid only
 * while threaded), as 6.13 (+ defer-hard-irqs, gro-flush-timeout as a
 * 4-byte "uint"), as 6.18 (+ irq-suspend-timeout as 8 bytes, threaded);
 * queue-get; replies cut short or with attributes of the wrong size; a
 * kernel without the family (6.1) reported as not supported; the JSON form
 * both ways.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/ethnl/ethnl.h"
#include "drivers/np_drivers.h"
#include "genl_reply.h"
#include "model/np_serialize.h"
#include "tap.h"

static struct nlmsghdr *reply(uint8_t cmd)
{
	return np_test_reply(30 /* the family id the controller gave */, cmd,
			     NP_NETDEV_FAMILY_VERSION);
}

/* A napi-get reply for NAPI @id of @ifindex; each test adds what its
 * kernel sends besides. */
static struct nlmsghdr *napi_reply(uint32_t id, uint32_t ifindex)
{
	struct nlmsghdr *nlh = reply(NP_NETDEV_CMD_NAPI_GET);

	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_ID, id);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_IFINDEX, ifindex);
	return nlh;
}

static int parse_napi(const struct nlmsghdr *nlh, uint32_t *ifindex, struct np_napi_inst *n)
{
	return np_netdev_parse_napi(nlh, nlh->nlmsg_len, ifindex, n);
}

/* A queue-get reply for queue @id of @ifindex, of @type */
static struct nlmsghdr *queue_reply(uint32_t id, uint32_t ifindex, uint32_t type)
{
	struct nlmsghdr *nlh = reply(NP_NETDEV_CMD_QUEUE_GET);

	mnl_attr_put_u32(nlh, NP_NETDEV_A_QUEUE_ID, id);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QUEUE_IFINDEX, ifindex);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QUEUE_TYPE, type);
	return nlh;
}

static void test_napi_6_8(void)
{
	struct nlmsghdr *nlh = napi_reply(8193, 4);
	struct np_napi_inst n;
	uint32_t ifindex = 0;

	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_IRQ, 57);
	is_int(parse_napi(nlh, &ifindex, &n), 0, "6.8 napi: parsed");
	is_int(n.id, 8193, "6.8 napi: id");
	is_int(ifindex, 4, "6.8 napi: ifindex");
	is_int(n.irq, 57, "6.8 napi: irq");
	is_int(n.has, NP_NAPI_HAS_IRQ, "6.8 napi: only the IRQ reported (no per-NAPI config)");
	is_int(n.rxq, -1, "6.8 napi: no queue known yet");
	is_int(np_netdev_parse_napi(nlh, nlh->nlmsg_len - 2, &ifindex, &n), -EPROTO,
	       "napi: a reply cut short is refused");
}

static void test_napi_6_13(void)
{
	struct nlmsghdr *nlh = napi_reply(8194, 4);
	struct np_napi_inst n;
	uint32_t ifindex;

	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_IRQ, 58);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_DEFER_HARD_IRQS, 2);
	/* netlink's "uint": the kernel sends 4 bytes when the value fits */
	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, 200000);
	is_int(parse_napi(nlh, &ifindex, &n), 0, "6.13 napi: parsed");
	is_int(n.has, NP_NAPI_HAS_IRQ | NP_NAPI_HAS_DEFER | NP_NAPI_HAS_GRO_FLUSH,
	       "6.13 napi: per-NAPI defer and gro-flush reported");
	is_int(n.defer_hard_irqs, 2, "6.13 napi: defer-hard-irqs");
	is_int(n.gro_flush_timeout, 200000, "6.13 napi: gro-flush-timeout from 4 bytes");
}

static void test_napi_6_18(void)
{
	struct nlmsghdr *nlh = napi_reply(259, 2);
	struct np_napi_inst n;
	uint32_t ifindex;

	/* veth in threaded mode on 6.18: no IRQ, a kthread */
	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_PID, 18067);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_DEFER_HARD_IRQS, 0);
	mnl_attr_put_u64(nlh, NP_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, 5000000000ull);
	mnl_attr_put_u64(nlh, NP_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT, 20000000);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_THREADED, 1);
	/* an attribute of a later kernel is skipped */
	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_MAX + 3, 9);
	is_int(parse_napi(nlh, &ifindex, &n), 0, "6.18 napi: parsed");
	is_int(n.has, NP_NAPI_HAS_PID | NP_NAPI_HAS_DEFER | NP_NAPI_HAS_GRO_FLUSH |
			      NP_NAPI_HAS_SUSPEND | NP_NAPI_HAS_THREADED,
	       "6.18 napi: pid, defer, gro-flush, irq-suspend, threaded; no IRQ");
	is_int(n.pid, 18067, "6.18 napi: kthread pid");
	ok(n.gro_flush_timeout == 5000000000ull, "6.18 napi: gro-flush-timeout from 8 bytes");
	is_int(n.irq_suspend_timeout, 20000000, "6.18 napi: irq-suspend-timeout");
	is_int(n.threaded, 1, "6.18 napi: threaded");
}

static void test_napi_bad(void)
{
	struct nlmsghdr *nlh = napi_reply(1, 2);
	struct np_napi_inst n;
	uint32_t ifindex;

	mnl_attr_put_u8(nlh, NP_NETDEV_A_NAPI_IRQ, 3);
	is_int(parse_napi(nlh, &ifindex, &n), -EPROTO,
	       "napi: an IRQ of the wrong size is a broken reply");
	nlh = reply(NP_NETDEV_CMD_NAPI_GET);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_IFINDEX, 2);
	is_int(parse_napi(nlh, &ifindex, &n), -EPROTO,
	       "napi: a reply without an id is refused");
}

static void test_queues(void)
{
	struct np_napi_inst v[2] = {
		{ .id = 8193, .rxq = -1, .txq = -1 },
		{ .id = 8194, .rxq = -1, .txq = -1 },
	};
	struct np_napis napis = { .n = 2, .v = v };
	struct nlmsghdr *nlh = queue_reply(1, 4, NP_NETDEV_QUEUE_TYPE_TX);
	uint32_t ifindex, type, id, napi_id;

	mnl_attr_put_u32(nlh, NP_NETDEV_A_QUEUE_NAPI_ID, 8194);
	is_int(np_netdev_parse_queue(nlh, nlh->nlmsg_len, &ifindex, &type, &id, &napi_id), 0,
	       "queue: parsed");
	is_int(type, NP_NETDEV_QUEUE_TYPE_TX, "queue: type");
	is_int(napi_id, 8194, "queue: napi id");
	np_napis_add_queue(&napis, type, id, napi_id);
	np_napis_add_queue(&napis, NP_NETDEV_QUEUE_TYPE_RX, 1, 8194);
	np_napis_add_queue(&napis, NP_NETDEV_QUEUE_TYPE_RX, 0, 8193);
	np_napis_add_queue(&napis, NP_NETDEV_QUEUE_TYPE_RX, 3, 8193);
	np_napis_add_queue(&napis, NP_NETDEV_QUEUE_TYPE_RX, 2, 0);
	is_int(v[0].rxq, 0, "queue: NAPI 8193 serves rx 0 (its lowest)");
	is_int(v[0].txq, -1, "queue: NAPI 8193 serves no tx queue");
	is_int(v[1].rxq, 1, "queue: NAPI 8194 serves rx 1");
	is_int(v[1].txq, 1, "queue: NAPI 8194 serves tx 1");

	nlh = queue_reply(0, 4, NP_NETDEV_QUEUE_TYPE_RX);
	is_int(np_netdev_parse_queue(nlh, nlh->nlmsg_len, &ifindex, &type, &id, &napi_id), 0,
	       "queue: a queue without NAPI parses");
	is_int(napi_id, 0, "queue: ... with napi id 0");
}

static void test_no_family(void)
{
	struct np_ethnl nl;
	struct np_dev dev;

	/* a 6.1 kernel: the netdev family exists, without napi-get */
	memset(&nl, 0, sizeof(nl));
	nl.nd_family = 30;
	nl.nd_ops = 1u << 1;	/* dev-get only */
	memset(&dev, 0, sizeof(dev));
	dev.ifindex = 2;
	is_int(np_netdev_read(&nl, &dev), 0, "6.1: reading NAPIs is not a failure");
	is_int(dev.napis.err, -EOPNOTSUPP, "6.1: napis not supported by kernel");
	nl.nd_family = 0;
	is_int(np_netdev_read(&nl, &dev), 0, "no netdev family: not a failure");
	is_int(dev.napis.err, -EOPNOTSUPP, "no netdev family: not supported by kernel");
	ok(!np_netdev_has_op(&nl, NP_NETDEV_CMD_NAPI_SET), "no netdev family: no napi-set");
}

static void test_json(void)
{
	struct np_napi_inst v[2] = {
		{ .id = 8193, .has = NP_NAPI_HAS_IRQ | NP_NAPI_HAS_DEFER | NP_NAPI_HAS_GRO_FLUSH,
		  .irq = 57, .defer_hard_irqs = 2, .gro_flush_timeout = 200000, .rxq = 0, .txq = 0 },
		{ .id = 259, .has = NP_NAPI_HAS_PID | NP_NAPI_HAS_THREADED, .pid = 77,
		  .threaded = 1, .rxq = -1, .txq = -1 },
	};
	struct np_napis in = { .n = 2, .v = v }, out;
	struct json_object *dev = json_object_new_object(), *arr = np_napis_to_json(&in);
	struct np_error err = { 0 };

	ok(arr != NULL, "json: written");
	json_object_object_add(dev, "napis", arr);
	is_int(np_napis_from_json(dev, "dev", &out, &err), 0, "json: read back");
	is_int(out.n, 2, "json: both NAPIs");
	ok(out.n == 2 && !memcmp(out.v, v, sizeof(v)), "json: the same NAPIs, field by field");
	free(out.v);
	json_object_object_del(dev, "napis");
	is_int(np_napis_from_json(dev, "dev", &out, &err), 0, "json: a model without napis");
	is_int(out.err, -EOPNOTSUPP, "json: ... is a kernel without napi-get");
	json_object_put(dev);
}

/* The queue-to-IRQ map from replies as a 6.12 kernel sends them for a
 * driver that calls netif_napi_set_irq() and netif_queue_set_napi():
 * napi-get gives each NAPI's IRQ, queue-get each queue's NAPI
 * (drivers/irq_tie.c ties them). */
static void test_irq_map(void)
{
	static const struct { uint32_t id, irq; } napi[] = {
		{ 8193, 61 }, { 8194, 62 }, { 8195, 63 }, { 8196, 63 }, { 8197, 0 },
	};
	static const struct { uint32_t type, id, napi; } queue[] = {
		{ NP_NETDEV_QUEUE_TYPE_RX, 0, 8193 }, { NP_NETDEV_QUEUE_TYPE_TX, 0, 8193 },
		{ NP_NETDEV_QUEUE_TYPE_RX, 1, 8194 },	/* tx 1: a NAPI of its own, no IRQ */
		{ NP_NETDEV_QUEUE_TYPE_TX, 1, 8197 },
		{ NP_NETDEV_QUEUE_TYPE_RX, 2, 8195 },	/* rx 2 and rx 3 share IRQ 63 */
		{ NP_NETDEV_QUEUE_TYPE_RX, 3, 8196 },
	};
	struct np_dev dev = { .ifname = "eth0", .driver = "ice", .ifindex = 4 };
	enum np_irq_kind kind;
	uint32_t ifindex, type, id, napi_id, nid;
	int q;

	dev.napis.v = calloc(NP_ARRAY_SIZE(napi), sizeof(*dev.napis.v));
	for (size_t i = 0; i < NP_ARRAY_SIZE(napi); i++) {
		struct nlmsghdr *nlh = napi_reply(napi[i].id, 4);

		if (napi[i].irq)
			mnl_attr_put_u32(nlh, NP_NETDEV_A_NAPI_IRQ, napi[i].irq);
		is_int(parse_napi(nlh, &ifindex, &dev.napis.v[dev.napis.n]), 0, "map: napi %u",
		       napi[i].id);
		dev.napis.n++;
	}
	for (size_t i = 0; i < NP_ARRAY_SIZE(queue); i++) {
		struct nlmsghdr *nlh = queue_reply(queue[i].id, 4, queue[i].type);

		mnl_attr_put_u32(nlh, NP_NETDEV_A_QUEUE_NAPI_ID, queue[i].napi);
		is_int(np_netdev_parse_queue(nlh, nlh->nlmsg_len, &ifindex, &type, &id, &napi_id), 0,
		       "map: queue %s %u", type ? "tx" : "rx", queue[i].id);
		np_napis_add_queue(&dev.napis, type, id, napi_id);
	}
	ok(np_irq_napi_tie(&dev, 61, &kind, &q, &nid) && kind == NP_IRQ_TXRX && q == 0 &&
	   nid == 8193, "map: IRQ 61 is queue pair 0's (NAPI 8193)");
	ok(np_irq_napi_tie(&dev, 62, &kind, &q, &nid) && kind == NP_IRQ_RX && q == 1,
	   "map: IRQ 62 is rx 1's");
	ok(!np_irq_napi_tie(&dev, 63, &kind, &q, &nid),
	   "map: IRQ 63, shared by the NAPIs of rx 2 and rx 3, is no one queue's");
	ok(!np_irq_napi_tie(&dev, 64, &kind, &q, &nid), "map: an IRQ no NAPI reports");
	dev.napis.v[3].irq = 64;	/* rx 3's own IRQ, and tx 2 on IRQ 63 */
	np_napis_add_queue(&dev.napis, NP_NETDEV_QUEUE_TYPE_TX, 2, 8197);
	dev.napis.v[4].has = NP_NAPI_HAS_IRQ;
	dev.napis.v[4].irq = 63;
	dev.napis.v[4].rxq = -1;
	dev.napis.v[4].txq = 2;
	ok(np_irq_napi_tie(&dev, 63, &kind, &q, &nid) && kind == NP_IRQ_TXRX && q == 2,
	   "map: an Rx and a Tx NAPI of queue 2 on one IRQ make it a TxRx vector");
	snprintf(dev.driver, sizeof(dev.driver), "mlx4_en");
	ok(!np_irq_napi_tie(&dev, 61, &kind, &q, &nid),
	   "map: mlx4_en's completion EQs serve both ports: no queue's");
	free(dev.napis.v);
}

int main(void)
{
	test_napi_6_8();
	test_napi_6_13();
	test_napi_6_18();
	test_napi_bad();
	test_queues();
	test_no_family();
	test_json();
	test_irq_map();
	return tap_done();
}
