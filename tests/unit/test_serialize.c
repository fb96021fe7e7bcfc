/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The serializer (state <-> JSON): every fixture model loads, states
 * survive a round trip, bad input is refused naming its JSON path, errno
 * names; test_sim_backend.c has the simulated backend.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "serialize_common.h"
#include "tap.h"

/* --- every fixture model --------------------------------------------------- */

static void test_fixtures(void)
{
	for (size_t i = 0; i < NP_ARRAY_SIZE(models); i++) {
		struct np_error err;
		struct np_ctx *ctx = ctx_for(fixture(models[i]), &err);
		struct np_state *st;
		char **names = NULL;
		size_t n = 0;

		ok(np_list_devices(ctx, &names, &n, &err) == 0 && n == 1, "%s: one device listed",
		   models[i]);
		st = n ? discover(ctx, names[0]) : NULL;
		ok(st != NULL, "%s: %s discovered through the sim backend", models[i],
		   n ? names[0] : "?");
		if (st) {
			ok(round_trip(st), "%s: state -> JSON -> state is lossless", models[i]);
			ok(st->topo.nr_cpus > 0 && st->topo.nr_nodes > 0 && st->topo.nr_cores > 0,
			   "%s: topology has CPUs, nodes and cores", models[i]);
		}
		is_str(np_ctx_backend_name(ctx), "sim", "%s: backend is sim", models[i]);
		np_state_free(st);
		np_list_free(names, n);
		np_ctx_free(ctx);
	}
}

static void test_mlx5_shape(void)
{
	struct np_error err;
	struct np_ctx *ctx = ctx_for(fixture("mlx5-2s64c"), &err);
	struct np_state *st = discover(ctx, "ens1f0np0");
	const struct np_topology *t;
	const struct np_dev *d;

	if (!st) {
		ok(0, "mlx5 model discovered");
		np_ctx_free(ctx);
		return;
	}
	t = &st->topo;
	d = &st->dev;
	is_int(t->nr_cpus, 128, "mlx5: 128 CPUs");
	is_int(t->nr_nodes, 2, "mlx5: 2 NUMA nodes");
	is_int(t->nr_cores, 64, "mlx5: 64 physical cores");
	ok(t->smt, "mlx5: SMT");
	is_str(mask(&t->node_cpus[1]), "32-63,96-127", "mlx5: node 1 CPUs");
	is_int(t->cpus[96].core, 32, "mlx5: CPU 96 is the sibling of CPU 32 (core 32)");
	is_int(t->cpus[96].thread, 1, "mlx5: CPU 96 is thread 1");
	is_int(d->numa_node, 1, "mlx5: NIC on node 1");
	is_int(d->channels.max_combined, 63, "mlx5: 63 channels max");
	is_int(d->rings.max_rx, 8192, "mlx5: rings max 8192");
	is_int(d->rss.indir_size, 512, "mlx5: 512-entry indirection table");
	is_int(d->rss.key_size, 40, "mlx5: 40-byte key");
	ok(d->coalesce.supported & (1u << NP_COAL_CQE_MODE_RX), "mlx5: cqe-mode-rx supported");
	ok(!(d->coalesce.supported & (1u << NP_COAL_RX_USECS_IRQ)), "mlx5: rx-usecs-irq not");
	is_int(d->n_irq, 64, "mlx5: 63 completion IRQs + async");
	is_int(d->irq[1].queue, 0, "mlx5: mlx5_comp0 serves queue 0");
	is_str(mask(&d->irq[1].affinity), "32", "mlx5: comp0 on the first local CPU");
	is_str(mask(&d->txq[32].xps_cpus), "96", "mlx5: tx-32 XPS on the first local sibling");
	np_state_free(st);
	np_ctx_free(ctx);
}

/* --- JSON form ------------------------------------------------------------- */

static void test_schema(void)
{
	static const char *const order[] = {
		"ifname", "ifindex", "driver", "bus_info", "operstate", "mtu", "num_tx_queues",
		"num_rx_queues", "numa_node", "local_cpus", "link", "channels", "rings",
		"coalesce", "features", "rss", "napi", "ntuple", "rss_contexts", "queues", "irqs", "sysctl", "topology",
	};
	struct np_error err;
	struct np_ctx *ctx = ctx_for(fixture("virtio-4q"), &err);
	struct np_state *st = discover(ctx, "enp0s3");
	struct json_object *o = NULL, *v;
	struct json_object_iterator it, end;
	size_t i = 0;
	bool in_order = true;
	struct np_cpumask m;

	if (!st || np_state_to_json(st, &o) < 0) {
		ok(0, "virtio state serialized");
		goto out;
	}
	it = json_object_iter_begin(o);
	end = json_object_iter_end(o);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it), i++)
		if (i >= NP_ARRAY_SIZE(order) || strcmp(order[i], json_object_iter_peek_name(&it)))
			in_order = false;
	ok(in_order && i == NP_ARRAY_SIZE(order), "top-level keys in the schema's order");
	v = get(get(o, "rss"), "supported");
	ok(v && !json_object_get_boolean(v), "virtio: rss.supported is false");
	is_int(json_object_get_int(get(get(o, "rss"), "errno")), 95, "virtio: rss.errno 95");
	is_str(json_object_get_string(get(get(o, "rss"), "error")), "Operation not supported",
	       "virtio: rss.error is strerror's text");
	v = get(get(get(o, "coalesce"), "fields"), "adaptive-rx");
	ok(v && json_object_is_type(v, json_type_boolean), "adaptive-rx is a boolean");
	v = json_object_array_get_idx(get(o, "irqs"), 0);
	ok(get(v, "queue") == NULL && json_object_object_get_ex(v, "queue", NULL),
	   "the config IRQ has \"queue\": null");
	is_str(json_object_get_string(get(v, "kind")), "other", "virtio0-config is kind other");
	is_str(json_object_get_string(get(json_object_array_get_idx(get(get(o, "queues"), "tx"),
								       2), "xps_cpus")),
	       "2", "tx-2 xps_cpus as a cpulist");
	np_cpumask_zero(&m);
	v = np_cpumask_to_json_str(&m);
	is_str(json_object_get_string(v), "", "an empty mask is \"\"");
	json_object_put(v);
out:
	json_object_put(o);
	np_state_free(st);
	np_ctx_free(ctx);
}

/* Per-file errors, unsupported knobs and odd values survive the trip. */
static void test_errors_round_trip(void)
{
	struct np_error err;
	struct np_ctx *ctx = ctx_for(fixture("few-msix"), &err);
	struct np_state *st = discover(ctx, "eno1");
	struct json_object *o = NULL, *q;

	if (!st) {
		ok(0, "few-msix discovered");
		np_ctx_free(ctx);
		return;
	}
	st->dev.rxq[1].rps_err = -ENOENT;
	st->dev.rxq[2].flow_err = -EACCES;
	st->dev.txq[3].xps_err = -ENOENT;
	st->dev.txq[3].xps_rxqs_err = -EPERM;
	st->dev.irq[2].err = -EIO;
	st->dev.link.err = -ENODATA;
	st->dev.coalesce.err = -EOPNOTSUPP;
	st->dev.napi.err = -ENOENT;
	st->sys.flow_entries_err = -ENOENT;
	st->sys.busy_err = -EACCES;
	st->dev.napi.err = 0;
	st->dev.napi.gro_flush_timeout = UINT64_C(1) << 40;
	st->dev.rss.hfunc = NP_RSS_HASH_XOR;
	ok(round_trip(st), "errors, a 2^40 gro_flush_timeout and xor survive the round trip");
	if (np_state_to_json(st, &o) == 0) {
		q = json_object_array_get_idx(get(get(o, "queues"), "rx"), 1);
		ok(json_object_object_get_ex(q, "rps_cpus", NULL) && !get(q, "rps_cpus"),
		   "unreadable rps_cpus is null");
		is_str(json_object_get_string(get(q, "rps_cpus_error")), "No such file or directory",
		       "... with rps_cpus_error");
		is_str(json_object_get_string(get(get(o, "sysctl"), "busy_read_error")),
		       "Permission denied", "sysctl busy_read_error");
		is_int(json_object_get_int(get(get(o, "link"), "errno")), ENODATA, "link errno");
	}
	json_object_put(o);
	np_state_free(st);
	np_ctx_free(ctx);
}

/* --- validation -------------------------------------------------------------- */

typedef void (*edit_fn)(struct json_object *root);

static void e_max_string(struct json_object *r)
{
	set_str(get(dev0(r), "channels"), "max_combined", "63");
}

static void e_combined_over(struct json_object *r)
{
	set_int(get(dev0(r), "channels"), "combined", 64);
	set_int(dev0(r), "num_rx_queues", 64);
}

static void e_zero_cpus(struct json_object *r)
{
	set_int(get(r, "topology"), "nr_cpus", 0);
}

/* near 2^32: a 32-bit size sum in the planner wrapped into a heap overflow */
static void e_cores_huge(struct json_object *r)
{
	set_int(get(r, "topology"), "cores", 4294967292LL);
}

static void e_packages_over(struct json_object *r)
{
	set_int(get(r, "topology"), "packages", 100000);
}

/* the planner's queue count was an unsigned difference that wrapped */
static void e_channels_over_queues(struct json_object *r)
{
	set_int(get(dev0(r), "channels"), "max_combined", 5000);
	set_int(get(dev0(r), "channels"), "combined", 4000);
}

static void e_irq_queue_missing(struct json_object *r)
{
	set_int(json_object_array_get_idx(get(dev0(r), "irqs"), 2), "queue", 100000);
}

static void e_core_beyond(struct json_object *r)
{
	set_int(json_object_array_get_idx(get(get(r, "topology"), "cpus"), 3), "core", 70);
}

static void e_queues_short(struct json_object *r)
{
	json_object_array_del_idx(get(get(dev0(r), "queues"), "rx"), 62, 1);
}

static void e_core_id(struct json_object *r)
{
	set_int(json_object_array_get_idx(get(get(r, "topology"), "cpus"), 3), "core_id", -1);
}

static void e_affinity(struct json_object *r)
{
	set_str(json_object_array_get_idx(get(dev0(r), "irqs"), 1), "affinity", "0,200");
}

static void e_indir(struct json_object *r)
{
	json_object_array_del_idx(get(get(dev0(r), "rss"), "indir"), 0, 1);
}

static void e_indir_queue(struct json_object *r)
{
	json_object_array_put_idx(get(get(dev0(r), "rss"), "indir"), 5, json_object_new_int(63));
}

static void e_coal(struct json_object *r)
{
	set_int(get(get(dev0(r), "coalesce"), "fields"), "rx-bogus", 1);
}

static void e_no_ifname(struct json_object *r)
{
	json_object_object_del(dev0(r), "ifname");
}

static void e_not_model(struct json_object *r)
{
	json_object_object_del(r, "netpolicy_model");
}

static void e_fault_op(struct json_object *r)
{
	struct json_object *f = json_object_new_object();

	set_str(f, "op", "set_everything");
	json_object_array_add(get(r, "faults"), f);
}

static void e_queue_order(struct json_object *r)
{
	set_int(json_object_array_get_idx(get(get(dev0(r), "queues"), "tx"), 4), "queue", 5);
}

static void e_dup_irq(struct json_object *r)
{
	set_int(json_object_array_get_idx(get(dev0(r), "irqs"), 2), "irq", 154);
}

static void e_online(struct json_object *r)
{
	json_object_object_add(json_object_array_get_idx(get(get(r, "topology"), "cpus"), 7),
			       "online", json_object_new_boolean(0));
}

static void e_bool(struct json_object *r)
{
	set_int(get(get(dev0(r), "coalesce"), "fields"), "adaptive-rx", 1);
}

static void e_null_no_error(struct json_object *r)
{
	json_object_object_add(json_object_array_get_idx(get(get(dev0(r), "queues"), "rx"), 0),
			       "rps_cpus", NULL);
}

static void test_validation(void)
{
	static const struct {
		edit_fn edit;
		const char *want;
	} cases[] = {
		{ e_max_string, "devices[0].channels.max_combined: expected an integer" },
		{ e_combined_over, "devices[0].channels.combined: 64 exceeds max_combined 63" },
		{ e_zero_cpus, "topology.nr_cpus: 0 is out of range (1..2048)" },
		{ e_cores_huge, "topology.cores: 4294967292 is out of range (1..nr_cpus" },
		{ e_packages_over, "topology.packages: 100000 is out of range (1..nr_cpus" },
		{ e_channels_over_queues, "devices[0].channels: rx 0, tx 0, combined 4000: more than" },
		{ e_irq_queue_missing, "devices[0].irqs[2].queue: queue 100000 does not exist" },
		{ e_core_beyond, "topology.cpus[3].core: core 70, but there are" },
		{ e_queues_short, "devices[0].queues.rx: 62 queues, but channels rx + combined is 63" },
		{ e_core_id, "topology.cpus[3].core_id: -1 is out of range" },
		{ e_affinity, "devices[0].irqs[1].affinity: CPU 200 is out of range" },
		{ e_indir, "devices[0].rss.indir: 511 entries, but indir_size is 512" },
		{ e_indir_queue, "devices[0].rss.indir[5]: queue 63 is not below rx_rings 63" },
		{ e_coal, "devices[0].coalesce.fields.rx-bogus: unknown coalescing parameter" },
		{ e_no_ifname, "devices[0].ifname: missing" },
		{ e_not_model, "netpolicy_model: expected 1" },
		{ e_fault_op, "faults[0]: op: unknown operation 'set_everything'" },
		{ e_queue_order, "devices[0].queues.tx[4].queue: is 5, expected 4" },
		{ e_dup_irq, "devices[0].irqs[2].irq: IRQ 154 is listed twice" },
		{ e_online, "topology.cpus[7].online: does not match topology.online" },
		{ e_bool, "devices[0].coalesce.fields.adaptive-rx: expected true or false" },
		{ e_null_no_error, "devices[0].queues.rx[0].rps_cpus_error: a null rps_cpus needs" },
	};

	for (size_t i = 0; i < NP_ARRAY_SIZE(cases); i++) {
		const char *path = copy_model("mlx5-2s64c", "bad");
		struct json_object *root = read_json(path);
		struct np_state *st = NULL;
		struct np_error err;
		struct np_ctx *ctx;
		int r;

		cases[i].edit(root);
		write_json(path, root);
		json_object_put(root);
		ctx = ctx_for(path, &err);
		r = np_discover(ctx, "ens1f0np0", &st, &err);
		is_int(r, -EINVAL, "bad model %zu refused with -EINVAL", i);
		ok(strstr(err.msg, cases[i].want) != NULL, "... naming the path: %s", cases[i].want);
		if (!strstr(err.msg, cases[i].want))
			printf("#   message: %s\n", err.msg);
		np_state_free(st);
		np_ctx_free(ctx);
	}
}

/* A state document (not a model): paths start at the device. */
static void test_state_validation(void)
{
	struct np_error err;
	struct np_ctx *ctx = ctx_for(fixture("ixgbe-16cpu"), &err);
	struct np_state *st = discover(ctx, "enp3s0f0"), *back = NULL;
	struct json_object *o = NULL;
	int r;

	if (!st || np_state_to_json(st, &o) < 0) {
		ok(0, "ixgbe state serialized");
		goto out;
	}
	set_str(get(o, "channels"), "max_combined", "x");
	np_error_clear(&err);
	r = np_state_from_json_full(o, &back, &err);
	is_int(r, -EINVAL, "state with a string count refused");
	is_str(err.msg, "channels.max_combined: expected an integer", "message names the path");
	set_int(get(o, "channels"), "max_combined", 63);
	json_object_object_del(o, "topology");
	np_error_clear(&err);
	r = np_state_from_json_full(o, &back, &err);
	is_str(err.msg, "topology: missing", "a state needs its topology");
	np_error_clear(&err);
	ok(np_state_from_json_full(json_object_array_get_idx(get(o, "irqs"), 0), &back, &err) < 0,
	   "an IRQ object is not a state");
out:
	json_object_put(o);
	np_state_free(st);
	np_state_free(back);
	np_ctx_free(ctx);
}

static void test_errno_names(void)
{
	is_int(np_errno_parse("EBUSY"), EBUSY, "errno name");
	is_int(np_errno_parse("16"), 16, "errno number");
	/* strerror() text depends on the locale that wrote it: never read back */
	is_int(np_errno_parse("Operation not supported"), 0, "strerror text is not an errno");
	is_int(np_errno_parse("EWHATEVER"), 0, "unknown name");
	is_str(np_errno_name(-EOVERFLOW), "EOVERFLOW", "name of -EOVERFLOW");
}

/* The cookie of a record, as the store checks it, without the parse. */
static void test_top_uint(void)
{
	is_int(np_json_top_uint("{\"a\": {\"k\": 5}, \"k\": 7}", "k"), 7, "top-level member, not a nested one");
	is_int(np_json_top_uint("{\"a\": [{\"k\": 5}]}", "k"), 0, "nested only: none");
	is_int(np_json_top_uint("{\"a\": \"k\", \"b\": \"\\\"k\\\": 3\"}", "k"), 0,
	       "a value or an escaped quote in a string is no key");
	is_int(np_json_top_uint(" {\"k\" : 18446744 } ", "k"), 18446744, "spaces around");
	is_int(np_json_top_uint("{\"k\": 1, \"k\": 2}", "k"), 0, "twice: none, as the parser refuses it");
	is_int(np_json_top_uint("{\"k\": -1}", "k"), 0, "negative: none");
	is_int(np_json_top_uint("{\"k\": 1.5}", "k"), 0, "not an integer: none");
	is_int(np_json_top_uint("{\"k\": 1234567890123456789}", "k"), 0, "too long: none");
	is_int(np_json_top_uint("[{\"k\": 1}]", "k"), 0, "no object: none");
	is_int(np_json_top_uint("{\"k\": \"1\"}", "k"), 0, "a string: none");
	is_int(np_json_top_uint("{\"kk\": 1, \"k\": 9}", "k"), 9, "the whole key");
	is_int(np_json_top_uint("{\"k\": 4", "k"), 0, "cut before the member's end: none");
}

int main(void)
{
	setup_dirs();
	test_errno_names();
	test_fixtures();
	test_mlx5_shape();
	test_schema();
	test_errors_round_trip();
	test_validation();
	test_state_validation();
	test_top_uint();
	cleanup_dirs();
	return tap_done();
}
