/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulated backend: its setters behave like drivers, faults fire, and
 * changes are saved where a second context sees them.
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

/* --- the sim backend's driver behaviour -------------------------------------------- */

static int set_channels(struct np_ctx *ctx, const char *ifname, uint32_t combined,
			struct np_error *err)
{
	struct np_state *st = discover(ctx, ifname);
	struct np_backend *be = backend(ctx);
	struct np_channels want;
	int r;

	if (!st)
		return -ENODEV;
	want = st->dev.channels;
	want.combined = combined;
	np_error_clear(err);
	r = be->ops->set_channels(be, &st->dev, &want, err);
	np_state_free(st);
	return r;
}

static int write_attr(struct np_ctx *ctx, const char *ifname, enum np_attr attr, unsigned index,
		      const char *value, struct np_error *err)
{
	struct np_backend *be = backend(ctx);
	struct np_dev dev;

	memset(&dev, 0, sizeof(dev));
	snprintf(dev.ifname, sizeof(dev.ifname), "%s", ifname);
	np_error_clear(err);
	return be->ops->write_attr(be, &dev, attr, index, value, err);
}

static void test_sim_channels(void)
{
	const char *path = copy_model("mlx5-2s64c", "chan");
	const char *ifname = "ens1f0np0";
	struct np_error err;
	struct np_ctx *ctx = ctx_for(path, &err), *ctx2;
	struct np_backend *be = backend(ctx);
	struct np_state *st;
	uint32_t table[512];
	int r;

	r = set_channels(ctx, ifname, 64, &err);
	is_int(r, -EINVAL, "64 channels on a 63-channel NIC: -EINVAL");
	is_str(err.extack, "requested channel count exceeds maximum", "... with the kernel's extack");
	is_str(err.knob, "channels", "... for knob channels");

	is_int(set_channels(ctx, ifname, 32, &err), 0, "32 channels");
	st = discover(ctx, ifname);
	if (!st) {
		ok(0, "rediscovered");
		np_ctx_free(ctx);
		return;
	}
	is_int(st->dev.n_rxq, 32, "32 rx queues after the change");
	is_int(st->dev.n_txq, 32, "32 tx queues");
	is_int(st->dev.rss.rx_rings, 32, "RSS spreads over 32 rings");
	ok(st->dev.rss.indir[40] == 8 && st->dev.rss.indir[511] == 31,
	   "the default table was re-spread over 32 queues");
	/* np_drivers.h: mlx5's completion EQs are made at probe, a channel
	 * change keeps their vectors (and affinity) and rewrites XPS */
	is_str(mask(&st->dev.irq[1].affinity), "32", "mlx5: queue IRQ affinity kept");
	is_str(mask(&st->dev.irq[0].affinity), "32-63,96-127", "the async IRQ kept its affinity");
	is_str(mask(&st->dev.txq[0].xps_cpus), "0-3", "XPS back to the driver default (tx-0)");
	is_str(mask(&st->dev.txq[31].xps_cpus), "124-127", "XPS default (tx-31)");
	ok(round_trip(st), "the changed state round-trips");
	np_state_free(st);

	/* save-back: a second context reading the file sees the change */
	ctx2 = ctx_for(path, &err);
	st = discover(ctx2, ifname);
	is_int(st ? st->dev.channels.combined : 0, 32, "a second context sees 32 channels");
	np_state_free(st);
	is_int(set_channels(ctx2, ifname, 48, &err), 0, "the second context grows to 48");
	st = discover(ctx, ifname);
	is_int(st ? st->dev.n_rxq : 0, 48, "the first context re-reads the replaced model");
	ok(st && np_cpumask_empty(&st->dev.rxq[47].rps_cpus) && st->dev.rxq[47].rps_flow_cnt == 0,
	   "new queues start with empty RPS masks");
	np_state_free(st);
	np_ctx_free(ctx2);

	/* a user-set table pins the queues it names */
	for (unsigned i = 0; i < 512; i++)
		table[i] = i % 16;
	st = discover(ctx, ifname);
	r = be->ops->set_rss_indir(be, &st->dev, table, 512, &err);
	is_int(r, 0, "user RSS table over queues 0-15");
	np_state_free(st);
	r = set_channels(ctx, ifname, 8, &err);
	is_int(r, -EINVAL, "shrinking below a queue the table uses: -EINVAL");
	is_str(err.extack, "requested channel count is too low for existing indirection table settings",
	       "... with the kernel's extack");
	is_int(set_channels(ctx, ifname, 20, &err), 0, "20 channels still cover the table");
	st = discover(ctx, ifname);
	ok(st && st->dev.rss.indir[17] == 1 && st->dev.rss.rx_rings == 20,
	   "the user table survives the channel change");
	r = be->ops->set_rss_indir(be, &st->dev, table, 100, &err);
	is_int(r, -EINVAL, "a table of the wrong size: -EINVAL");
	table[3] = 20;
	r = be->ops->set_rss_indir(be, &st->dev, table, 512, &err);
	is_int(r, -EINVAL, "an entry beyond the rx rings: -EINVAL");
	r = be->ops->set_rss_indir(be, &st->dev, NULL, 0, &err);
	is_int(r, 0, "back to the default table");
	np_state_free(st);
	is_int(set_channels(ctx, ifname, 8, &err), 0, "with the default table 8 channels are fine");
	st = discover(ctx, ifname);
	ok(st && st->dev.rss.indir[9] == 1, "and the default table follows to 8 queues");
	np_state_free(st);
	np_ctx_free(ctx);
}

static void test_sim_knobs(void)
{
	const char *path = copy_model("mlx5-2s64c", "knobs");
	const char *ifname = "ens1f0np0";
	struct np_error err;
	struct np_ctx *ctx = ctx_for(path, &err);
	struct np_backend *be = backend(ctx);
	struct np_state *st = discover(ctx, ifname);
	struct np_rings rg;
	struct np_coalesce co;
	const struct np_feature *f;
	int r;

	if (!st) {
		ok(0, "mlx5 copy discovered");
		np_ctx_free(ctx);
		return;
	}
	rg = st->dev.rings;
	rg.rx = 8193;
	np_error_clear(&err);
	r = be->ops->set_rings(be, &st->dev, &rg, &err);
	is_int(r, -EINVAL, "rx ring 8193 > 8192: -EINVAL");
	is_str(err.extack, "requested ring size exceeds maximum", "... with the kernel's extack");
	rg.rx = 4096;
	is_int(be->ops->set_rings(be, &st->dev, &rg, &err), 0, "rx ring 4096");

	co = st->dev.coalesce;
	co.val[NP_COAL_RX_USECS_IRQ] = 5;
	np_error_clear(&err);
	r = be->ops->set_coalesce(be, &st->dev, &co, 1u << NP_COAL_RX_USECS_IRQ, &err);
	is_int(r, -EOPNOTSUPP, "rx-usecs-irq on mlx5: -EOPNOTSUPP");
	is_str(err.extack, "cannot modify an unsupported parameter", "... with the kernel's extack");
	co.val[NP_COAL_RX_USECS] = 0;
	co.val[NP_COAL_ADAPTIVE_RX] = 7;
	r = be->ops->set_coalesce(be, &st->dev, &co,
				  1u << NP_COAL_RX_USECS | 1u << NP_COAL_ADAPTIVE_RX, &err);
	is_int(r, 0, "rx-usecs 0, adaptive-rx on");

	is_int(be->ops->set_feature(be, &st->dev, "rx-ntuple-filter", true, &err), 0,
	       "rx-ntuple-filter on");
	is_int(be->ops->set_feature(be, &st->dev, "highdma", false, &err), 0,
	       "a fixed feature: accepted, like the kernel");
	np_error_clear(&err);
	is_int(be->ops->set_feature(be, &st->dev, "rx-bogus", true, &err), -EINVAL,
	       "an unknown feature: -EINVAL");
	np_state_free(st);

	st = discover(ctx, ifname);
	if (st) {
		is_int(st->dev.rings.rx, 4096, "rings saved");
		is_int(st->dev.coalesce.val[NP_COAL_RX_USECS], 0, "rx-usecs saved");
		is_int(st->dev.coalesce.val[NP_COAL_ADAPTIVE_RX], 1, "adaptive-rx stored as 1");
		f = np_features_find(&st->dev.features, "rx-ntuple-filter");
		ok(f && f->wanted && f->active, "rx-ntuple-filter is on");
		f = np_features_find(&st->dev.features, "highdma");
		ok(f && f->active, "the fixed feature did not change");
	}
	np_state_free(st);

	/* sysfs and procfs files */
	is_int(write_attr(ctx, ifname, NP_ATTR_RPS_CPUS, 0, "1,00000000,00000000,00000000,00000000",
			  &err), -EOVERFLOW, "rps_cpus naming CPU 128 of 128: -EOVERFLOW");
	is_int(write_attr(ctx, ifname, NP_ATTR_XPS_CPUS, 0, "1,00000000,00000000,00000000,00000000",
			  &err), -EOVERFLOW, "xps_cpus naming CPU 128: -EOVERFLOW");
	is_int(write_attr(ctx, ifname, NP_ATTR_RPS_CPUS, 0, "zz", &err), -EINVAL,
	       "rps_cpus garbage: -EINVAL");
	is_int(write_attr(ctx, ifname, NP_ATTR_RPS_CPUS, 99, "1", &err), -ENOENT,
	       "rps_cpus of a queue that does not exist: -ENOENT");
	is_int(write_attr(ctx, ifname, NP_ATTR_RPS_CPUS, 1, "00000000,00000000,00000000,0000000f",
			  &err), 0, "rps_cpus 0-3 on rx-1");
	is_int(write_attr(ctx, ifname, NP_ATTR_RPS_FLOW_CNT, 1, "100", &err), 0,
	       "rps_flow_cnt 100");
	is_int(write_attr(ctx, ifname, NP_ATTR_IRQ_AFFINITY, 154, "0-200", &err), -ERANGE,
	       "IRQ affinity naming CPU 200: -ERANGE");
	is_str(err.knob, "irq-affinity", "... for knob irq-affinity");
	is_int(write_attr(ctx, ifname, NP_ATTR_IRQ_AFFINITY, 9999, "1", &err), -ENOENT,
	       "an IRQ that does not exist: -ENOENT");
	is_int(write_attr(ctx, ifname, NP_ATTR_IRQ_AFFINITY, 154, "5-7", &err), 0,
	       "IRQ 154 affinity 5-7");
	is_int(write_attr(ctx, ifname, NP_ATTR_SOCK_FLOW_ENTRIES, 0, "1000", &err), 0,
	       "rps_sock_flow_entries 1000");
	is_int(write_attr(ctx, ifname, NP_ATTR_SOCK_FLOW_ENTRIES, 0, "1073741824", &err), -EINVAL,
	       "rps_sock_flow_entries 2^30: -EINVAL");
	is_int(write_attr(ctx, ifname, NP_ATTR_BUSY_POLL, 0, "50\n", &err), 0, "busy_poll 50");
	is_int(write_attr(ctx, ifname, NP_ATTR_NAPI_DEFER_HARD_IRQS, 0, "2", &err), 0,
	       "napi_defer_hard_irqs 2");
	is_int(write_attr(ctx, ifname, NP_ATTR_GRO_FLUSH_TIMEOUT, 0, "20000", &err), 0,
	       "gro_flush_timeout 20000");
	st = discover(ctx, ifname);
	if (st) {
		is_str(mask(&st->dev.rxq[1].rps_cpus), "0-3", "rps_cpus read back");
		is_int(st->dev.rxq[1].rps_flow_cnt, 128, "rps_flow_cnt rounded up to 128");
		is_str(mask(&st->dev.irq[1].affinity), "5-7", "IRQ affinity read back");
		is_str(mask(&st->dev.irq[1].effective), "5", "effective affinity: one CPU of it");
		is_int(st->sys.rps_sock_flow_entries, 1024, "rps_sock_flow_entries rounded to 1024");
		is_int(st->sys.busy_poll, 50, "busy_poll read back");
		is_int(st->dev.napi.defer_hard_irqs, 2, "defer_hard_irqs read back");
		ok(st->dev.napi.gro_flush_timeout == 20000, "gro_flush_timeout read back");
	}
	np_state_free(st);
	np_error_clear(&err);
	st = NULL;
	is_int(np_discover(ctx, "eth9", &st, &err), -ENODEV, "an unknown device: -ENODEV");
	is_str(err.msg, "no such device", "... 'no such device'");
	np_ctx_free(ctx);
}

static void test_sim_isolated_and_unsupported(void)
{
	const char *path = copy_model("isolated", "iso");
	struct np_error err;
	struct np_ctx *ctx = ctx_for(path, &err);
	struct np_state *st;
	struct np_backend *be;
	struct np_channels ch;

	is_int(write_attr(ctx, "enp1s0f0", NP_ATTR_RPS_CPUS, 0, "000000fc", &err), -EINVAL,
	       "rps_cpus of isolated CPUs only: -EINVAL (housekeeping CPUs only)");
	is_int(write_attr(ctx, "enp1s0f0", NP_ATTR_RPS_CPUS, 0, "000000ff", &err), 0,
	       "rps_cpus 0-7 with 2-7 isolated");
	st = discover(ctx, "enp1s0f0");
	is_str(st ? mask(&st->dev.rxq[0].rps_cpus) : "?", "0-1", "the isolated CPUs were dropped");
	is_str(st ? mask(&st->topo.isolated) : "?", "2-7,18-23", "isolated CPUs in the topology");
	np_state_free(st);
	np_ctx_free(ctx);

	path = copy_model("vm-1cpu", "vm");
	ctx = ctx_for(path, &err);
	be = backend(ctx);
	st = discover(ctx, "enp0s2");
	if (!st) {
		ok(0, "vm-1cpu discovered");
		np_ctx_free(ctx);
		return;
	}
	is_int(st->dev.channels.err, -EOPNOTSUPP, "e1000e: channels unsupported");
	is_int(st->dev.rss.err, -EOPNOTSUPP, "e1000e: RSS unsupported");
	ch = st->dev.channels;
	ch.combined = 1;
	np_error_clear(&err);
	is_int(be->ops->set_channels(be, &st->dev, &ch, &err), -EOPNOTSUPP,
	       "set_channels on e1000e: -EOPNOTSUPP");
	np_error_clear(&err);
	is_int(be->ops->set_rss_indir(be, &st->dev, NULL, 0, &err), -EOPNOTSUPP,
	       "set_rss_indir on e1000e: -EOPNOTSUPP");
	is_int(st->dev.n_irq, 3, "e1000e: rx, tx and other IRQs");
	np_state_free(st);
	np_ctx_free(ctx);
}

/* --- faults ---------------------------------------------------------------------------- */

static void add_fault(const char *path, const char *op, int after, const char *mode,
		      const char *errname, const char *extack)
{
	struct json_object *root = read_json(path), *f = json_object_new_object();

	set_str(f, "op", op);
	set_int(f, "after", after);
	if (mode)
		set_str(f, "mode", mode);
	if (errname)
		set_str(f, "errno", errname);
	if (extack)
		set_str(f, "extack", extack);
	json_object_array_add(get(root, "faults"), f);
	write_json(path, root);
	json_object_put(root);
}

static int64_t calls_in_file(const char *path, const char *op)
{
	struct json_object *root = read_json(path);
	int64_t n = json_object_get_int64(get(get(root, "calls"), op));

	json_object_put(root);
	return n;
}

static void test_faults(void)
{
	const char *path = copy_model("virtio-4q", "faults"), *ifname = "enp0s3";
	struct np_error err;
	struct np_ctx *ctx;
	struct np_backend *be;
	struct np_state *st;
	struct np_rings rg;
	struct np_coalesce co;
	char **names = NULL;
	size_t n = 9;

	add_fault(path, "set_channels", 1, NULL, "EBUSY", "device is busy");
	ctx = ctx_for(path, &err);
	is_int(set_channels(ctx, ifname, 2, &err), 0, "fail fault: 1st set_channels passes");
	is_int(set_channels(ctx, ifname, 3, &err), -EBUSY, "2nd fails with the fault's errno");
	is_str(err.extack, "device is busy", "... and its extack");
	is_int(set_channels(ctx, ifname, 3, &err), 0, "3rd passes again");
	is_int(calls_in_file(path, "set_channels"), 3, "the call counter is saved in the model");
	np_ctx_free(ctx);

	/* the count continues across contexts (CLI invocations) */
	add_fault(path, "set_channels", 3, NULL, "5", NULL);
	ctx = ctx_for(path, &err);
	is_int(set_channels(ctx, ifname, 4, &err), -EIO, "4th call (a new context) fails: errno 5");
	np_ctx_free(ctx);

	add_fault(path, "set_rings", 0, "ignore", NULL, NULL);
	add_fault(path, "set_rings", 1, "round", NULL, NULL);
	add_fault(path, "set_coalesce", 0, "round", NULL, NULL);
	add_fault(path, "write_attr", 0, "round", NULL, NULL);
	add_fault(path, "write_attr", 1, "round", NULL, NULL);
	add_fault(path, "discover", 1, NULL, "EAGAIN", NULL);
	ctx = ctx_for(path, &err);
	be = backend(ctx);
	st = discover(ctx, ifname);
	if (!st) {
		ok(0, "virtio copy discovered");
		np_ctx_free(ctx);
		return;
	}
	np_error_clear(&err);
	ok(np_discover(ctx, ifname, &(struct np_state *){ NULL }, &err) == -EAGAIN,
	   "discover fault: the 2nd discover fails with EAGAIN");
	rg = st->dev.rings;
	rg.rx = 128;
	is_int(be->ops->set_rings(be, &st->dev, &rg, &err), 0, "ignore fault: reports success");
	rg.rx = 100;
	rg.tx = 200;
	is_int(be->ops->set_rings(be, &st->dev, &rg, &err), 0, "round fault on rings");
	co = st->dev.coalesce;
	co.val[NP_COAL_RX_USECS] = 7;
	co.val[NP_COAL_ADAPTIVE_RX] = 1;
	is_int(be->ops->set_coalesce(be, &st->dev, &co,
				     1u << NP_COAL_RX_USECS | 1u << NP_COAL_ADAPTIVE_RX, &err), 0,
	       "round fault on coalesce");
	is_int(write_attr(ctx, ifname, NP_ATTR_IRQ_AFFINITY, 25, "1-3", &err), 0,
	       "round fault on an IRQ mask");
	is_int(write_attr(ctx, ifname, NP_ATTR_BUSY_POLL, 0, "50", &err), 0,
	       "round fault on busy_poll");
	np_state_free(st);
	st = discover(ctx, ifname);
	if (st) {
		is_int(st->dev.rings.rx, 128, "rings: rx 100 rounded up to 128 (the ignored 128 "
		       "never applied either)");
		is_int(st->dev.rings.tx, 256, "rings: tx 200 rounded up to 256");
		is_int(st->dev.coalesce.val[NP_COAL_RX_USECS], 4, "coalesce: 7 rounded down to 4");
		is_int(st->dev.coalesce.val[NP_COAL_ADAPTIVE_RX], 1, "booleans are not rounded");
		is_str(mask(&st->dev.irq[1].affinity), "1", "IRQ mask reduced to its lowest CPU");
		is_int(st->sys.busy_poll, 48, "busy_poll 50 rounded down to 48");
	}
	np_state_free(st);
	np_ctx_free(ctx);

	add_fault(path, "write_attr", 2, "vanish", NULL, NULL);
	ctx = ctx_for(path, &err);
	is_int(write_attr(ctx, ifname, NP_ATTR_XPS_CPUS, 0, "1", &err), -ENODEV,
	       "vanish fault: the call fails with ENODEV");
	np_error_clear(&err);
	st = NULL;
	is_int(np_discover(ctx, ifname, &st, &err), -ENODEV, "... and the device is gone");
	ok(np_list_devices(ctx, &names, &n, &err) == 0 && n == 0, "... from the list too");
	np_list_free(names, n);
	np_ctx_free(ctx);
	ctx = ctx_for(path, &err);
	st = NULL;
	is_int(np_discover(ctx, ifname, &st, &err), -ENODEV, "... and from the saved model");
	np_ctx_free(ctx);

	/* a fault naming a device fires only for it */
	path = copy_model("virtio-4q", "faultdev");
	{
		struct json_object *root = read_json(path), *f = json_object_new_object();

		set_str(f, "op", "set_channels");
		set_str(f, "device", "eth7");
		set_str(f, "errno", "EBUSY");
		json_object_array_add(get(root, "faults"), f);
		write_json(path, root);
		json_object_put(root);
	}
	ctx = ctx_for(path, &err);
	is_int(set_channels(ctx, ifname, 2, &err), 0, "a fault for another device does not fire");
	np_ctx_free(ctx);

	/* a fault with a mode that makes no sense is refused */
	path = copy_model("virtio-4q", "faultbad");
	add_fault(path, "set_feature", 0, "round", NULL, NULL);
	ctx = ctx_for(path, &err);
	st = NULL;
	is_int(np_discover(ctx, ifname, &st, &err), -EINVAL, "round on set_feature is refused");
	ok(strstr(err.msg, "faults[0]: mode") != NULL, "... naming faults[0]: %s", err.msg);
	np_ctx_free(ctx);
}

/* A model wrapping `netpolicy DEV show --json` output as it is. */
static void test_wrapped_show_output(void)
{
	struct np_error err;
	struct np_ctx *ctx = ctx_for(fixture("ixgbe-16cpu"), &err);
	struct np_state *st = discover(ctx, "enp3s0f0");
	struct json_object *o = NULL, *root, *devs;
	char path[600];

	np_ctx_free(ctx);
	if (!st || np_state_to_json(st, &o) < 0) {
		ok(0, "ixgbe serialized");
		np_state_free(st);
		return;
	}
	json_object_object_add(o, "policy", NULL);
	json_object_object_add(o, "drift", NULL);
	root = json_object_new_object();
	devs = json_object_new_array();
	json_object_object_add(root, "netpolicy_model", json_object_new_int(1));
	json_object_array_add(devs, o);
	json_object_object_add(root, "devices", devs);
	snprintf(path, sizeof(path), "%s/wrapped.json", tmpdir);
	write_json(path, root);
	json_object_put(root);
	ctx = ctx_for(path, &err);
	{
		struct np_state *again = discover(ctx, "enp3s0f0");

		ok(again && states_equal(st, again),
		   "show --json output wrapped in {netpolicy_model, devices} is a model");
		np_state_free(again);
	}
	is_int(set_channels(ctx, "enp3s0f0", 8, &err), 0, "... that can be changed");
	root = read_json(path);
	ok(get(root, "topology") && !get(dev0(root), "topology"),
	   "... and is saved with the topology at the top");
	json_object_put(root);
	np_ctx_free(ctx);
	np_state_free(st);
}

int main(void)
{
	setup_dirs();
	test_sim_channels();
	test_sim_knobs();
	test_sim_isolated_and_unsupported();
	test_faults();
	test_wrapped_show_output();
	cleanup_dirs();
	return tap_done();
}
