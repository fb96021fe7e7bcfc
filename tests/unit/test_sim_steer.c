/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulated NIC's ntuple rules and RSS contexts on the ice-like and
 * mlx5-like models: what the drivers refuse (np_drivers.h facts), the
 * kernel's error codes, faults, and the model saved and read back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "model/np_flow.h"
#include "np_private.h"
#include "tap.h"

static char tmpdir[] = "/tmp/np-sim-steer-XXXXXX";
static const char *srcdir = ".";

static const char *copy_model(const char *name, const char *faults_json)
{
	static char p[600];
	char src[1200];
	struct json_object *o;

	snprintf(src, sizeof(src), "%s/tests/fixtures/models/%s.json", srcdir, name);
	snprintf(p, sizeof(p), "%s/%s.json", tmpdir, name);
	o = json_object_from_file(src);
	if (faults_json)
		json_object_object_add(o, "faults", json_tokener_parse(faults_json));
	if (!o || json_object_to_file(p, o) < 0) {
		printf("Bail out! cannot copy %s\n", src);
		exit(99);
	}
	json_object_put(o);
	return p;
}

static struct np_backend *open_sim(struct np_ctx **ctx, const char *model, const char *faults)
{
	struct np_backend *be = NULL;
	struct np_error err = { 0 };

	if (np_ctx_new(ctx, &err) < 0 || np_ctx_set_state_dir(*ctx, tmpdir, &err) < 0 ||
	    np_ctx_set_model(*ctx, copy_model(model, faults), &err) < 0 ||
	    np_ctx_backend(*ctx, &be, &err) < 0) {
		printf("Bail out! %s\n", err.msg);
		exit(99);
	}
	return be;
}

static struct np_state *read_dev(struct np_backend *be, const char *ifname)
{
	struct np_state *st = calloc(1, sizeof(*st));
	struct np_error err = { 0 };

	if (!st || be->ops->discover(be, ifname, st, &err) < 0) {
		printf("Bail out! discover %s: %s\n", ifname, err.msg);
		exit(99);
	}
	return st;
}

static struct np_rule rule(const char *flow, uint32_t loc, uint32_t queue, uint32_t ctx)
{
	struct np_rule r;
	struct np_flow f;

	memset(&r, 0, sizeof(r));
	if (np_flow_parse(flow, &f, NULL, NULL) < 0) {
		printf("Bail out! flow %s\n", flow);
		exit(99);
	}
	r.fs = f.rule[0];
	r.fs.location = loc;
	r.fs.ring_cookie = queue;
	if (ctx) {
		r.fs.flow_type |= FLOW_RSS;
		r.rss_context = ctx;
	}
	return r;
}

static void ice(void)
{
	struct np_ctx *ctx;
	struct np_backend *be = open_sim(&ctx, "ice-mixed", NULL);
	struct np_state *st = read_dev(be, "ens801f0");
	struct np_error err = { 0 };
	struct np_rule r;
	uint32_t loc = 0, id;
	int e;

	is_int(st->dev.steer.err, 0, "ice: has ntuple filters");
	is_int(st->dev.steer.size, 128, "ice: 128 locations in the model");
	is_int(st->dev.steer.ctx_err, -EOPNOTSUPP, "ice: no RSS contexts");
	is_int(st->dev.steer.n_rules, 1, "ice: the foreign rule is discovered");
	is_int(st->dev.steer.rules[0].fs.location, 0, "ice: foreign rule at 0");

	r = rule("latency:tcp4:6379", 127, 3, 0);
	e = be->ops->rule_insert(be, &st->dev, &r, &loc, &err);
	is_int(e, 0, "ice: a tcp4 rule to queue 3 at 127 goes in");
	is_int(loc, 127, "ice: at the location asked for");

	r = rule("latency:tcp4:6380", RX_CLS_LOC_ANY, 3, 0);
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), -EINVAL,
	       "ice: RX_CLS_LOC_ANY refused (the driver does not place rules itself)");
	r = rule("latency:tcp4:6380", 128, 3, 0);
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), -EINVAL,
	       "ice: a location beyond the table refused");
	r = rule("latency:tcp4:6380", 100, 16, 0);
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), -EINVAL,
	       "ice: a queue that does not exist refused");
	r = rule("latency:vlan=100", 100, 1, 0);
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), -EINVAL,
	       "ice: an ETHER_FLOW rule refused (ice_ethtool_fdir.c)");
	r = rule("latency:tcp4:6380", 100, 0, 1);
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), -EINVAL,
	       "ice: a FLOW_RSS rule refused (no contexts)");
	{
		struct np_rss_ctx c = { 0 };

		is_int(be->ops->ctx_create(be, &st->dev, &c, &id, &err), -EOPNOTSUPP,
		       "ice: creating a context is EOPNOTSUPP");
	}

	/* the channel count cannot drop below the rule's queue 3 */
	{
		struct np_channels ch = st->dev.channels;

		ch.combined = 3;
		err = (struct np_error){ 0 };
		is_int(be->ops->set_channels(be, &st->dev, &ch, &err), -EINVAL,
		       "ice: channels below a rule's queue refused");
		ok(strstr(err.msg, "ntuple filter") != NULL, "ice: ... with the kernel's words (%s)",
		   err.msg);
	}

	is_int(be->ops->rule_delete(be, &st->dev, 126, &err), -ENOENT,
	       "ice: deleting an empty location is ENOENT");
	is_int(be->ops->rule_delete(be, &st->dev, 127, &err), 0, "ice: our rule deleted");
	np_state_free(st);
	np_ctx_free(ctx);

	/* the model file kept the foreign rule and lost ours */
	be = open_sim(&ctx, "ice-mixed", NULL);
	st = read_dev(be, "ens801f0");
	(void)st;
	np_state_free(st);
	np_ctx_free(ctx);
}

static void mlx5(void)
{
	struct np_ctx *ctx;
	struct np_backend *be = open_sim(&ctx, "mlx5-mixed", NULL);
	struct np_state *st = read_dev(be, "ens1f0np0");
	struct np_error err = { 0 };
	uint32_t t[256], id = 0, loc;
	struct np_rss_ctx c = { .id = 0, .n_indir = 256, .indir = t };
	struct np_rule r;

	is_int(st->dev.steer.ctx_max, 16, "mlx5: contexts below 16");
	is_int(st->dev.steer.n_ctx, 1, "mlx5: the foreign context is discovered");

	for (unsigned i = 0; i < 256; i++)
		t[i] = 4 + i % 4;
	r = rule("latency:tcp4:6379", 1023, 0, 2);
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), -EOPNOTSUPP,
	       "mlx5: rules refused while rx-ntuple-filter is off");
	is_int(be->ops->set_feature(be, &st->dev, "rx-ntuple-filter", true, &err), 0,
	       "mlx5: rx-ntuple-filter on");
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), -ENOENT,
	       "mlx5: a rule naming a context that does not exist: ENOENT");

	is_int(be->ops->ctx_create(be, &st->dev, &c, &id, &err), 0, "mlx5: a context made");
	is_int(id, 2, "mlx5: the lowest free id (1 is foreign)");
	c.id = 2;
	is_int(be->ops->ctx_create(be, &st->dev, &c, &id, &err), -EBUSY,
	       "mlx5: a context id in use: EBUSY");
	c.id = 16;
	is_int(be->ops->ctx_create(be, &st->dev, &c, &id, &err), -EINVAL,
	       "mlx5: a context id beyond the driver's 16: EINVAL");
	t[0] = 16;
	c.id = 0;
	is_int(be->ops->ctx_create(be, &st->dev, &c, &id, &err), -EINVAL,
	       "mlx5: a table entry beyond the queues: EINVAL");
	t[0] = 4;

	err = (struct np_error){ 0 };
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), 0,
	       "mlx5: a rule to context 2 goes in");
	r = rule("latency:sctp4:6379", 1022, 0, 2);
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), -EINVAL,
	       "mlx5: an SCTP rule refused (en_fs_ethtool.c validate_flow)");
	r = rule("latency:tcp4:6379", 1022, 12, 2);
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), -EINVAL,
	       "mlx5: an offset past the queues refused");
	is_int(be->ops->ctx_delete(be, &st->dev, 2, &err), -EBUSY,
	       "mlx5: a context a rule uses cannot go: EBUSY");
	{
		struct np_channels ch = st->dev.channels;

		ch.combined = 6;
		is_int(be->ops->set_channels(be, &st->dev, &ch, &err), -EINVAL,
		       "mlx5: channels below a context's queues refused");
	}
	is_int(be->ops->rule_delete(be, &st->dev, 1023, &err), 0, "mlx5: rule deleted");
	is_int(be->ops->ctx_delete(be, &st->dev, 2, &err), 0, "mlx5: then the context");
	is_int(be->ops->ctx_delete(be, &st->dev, 2, &err), -ENOENT, "mlx5: twice: ENOENT");
	np_state_free(st);

	/* what the file holds now: the foreign context and rule, nothing else */
	st = read_dev(be, "ens1f0np0");
	is_int(st->dev.steer.n_ctx, 1, "mlx5: one context left");
	is_int(st->dev.steer.n_rules, 1, "mlx5: one rule left");
	is_int(st->dev.steer.rules[0].fs.location, 5, "mlx5: the foreign rule at 5");
	is_int(st->dev.steer.rules[0].rss_context, 1, "mlx5: ... to context 1");
	np_state_free(st);
	np_ctx_free(ctx);
}

static void faults(void)
{
	struct np_ctx *ctx;
	struct np_backend *be = open_sim(&ctx, "mlx5-mixed",
		"[{\"op\": \"ctx_create\", \"after\": 1, \"mode\": \"fail\", \"errno\": \"EIO\"},"
		" {\"op\": \"rule_insert\", \"after\": 0, \"mode\": \"ignore\"}]");
	struct np_state *st = read_dev(be, "ens1f0np0");
	struct np_error err = { 0 };
	struct np_rss_ctx c = { 0 };
	struct np_rule r = rule("latency:tcp4:6379", 1000, 0, 1);
	uint32_t id, loc;

	be->ops->set_feature(be, &st->dev, "rx-ntuple-filter", true, &err);
	is_int(be->ops->ctx_create(be, &st->dev, &c, &id, &err), 0, "fault: first create works");
	is_int(be->ops->ctx_create(be, &st->dev, &c, &id, &err), -EIO,
	       "fault: the second create fails with the injected EIO");
	is_int(be->ops->rule_insert(be, &st->dev, &r, &loc, &err), 0,
	       "fault: an ignored insert answers success");
	np_state_free(st);
	st = read_dev(be, "ens1f0np0");
	is_int(st->dev.steer.n_rules, 1, "fault: ... and changed nothing");
	is_int(st->dev.steer.n_ctx, 2, "fault: one context more, not two");
	np_state_free(st);
	np_ctx_free(ctx);
}

int main(void)
{
	if (getenv("NP_SRCDIR"))
		srcdir = getenv("NP_SRCDIR");
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp\n");
		return 99;
	}
	ice();
	mlx5();
	faults();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmpdir);
	}
	return tap_done();
}
