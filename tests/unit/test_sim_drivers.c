/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulated drivers refuse what the driver table (np_drivers.h) says the
 * real ones refuse, with their errno: coalescing requests on the models of
 * r8169, atlantic, tg3, igc, mlx4_en, qede, hns3 and nfp, sent straight to the
 * sim backend (no planner in between, which would never send them).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <json-c/json.h>

#include "drivers/np_drivers.h"
#include "np_private.h"
#include "tap.h"

#define F(f) NP_COAL_BIT(NP_COAL_##f)

static char tmpdir[] = "/tmp/np-sim-drivers-XXXXXX";
static const char *srcdir = ".";

struct sim {
	struct np_ctx *ctx;
	struct np_backend *be;
	struct np_state *st;
};

/* rx-ntuple-filter on, as a site that steers flows has it (the simulated
 * kernel refuses rules without it) */
static void ntuple_on(struct json_object *o)
{
	struct json_object *d, *f;

	if (!o || !json_object_object_get_ex(o, "devices", &d) ||
	    !(d = json_object_array_get_idx(d, 0)) || !json_object_object_get_ex(d, "features", &f) ||
	    !json_object_object_get_ex(f, "list", &f) ||
	    !json_object_object_get_ex(f, "rx-ntuple-filter", &f))
		return;
	json_object_object_add(f, "active", json_object_new_boolean(1));
	json_object_object_add(f, "wanted", json_object_new_boolean(1));
}

static void open_sim(struct sim *s, const char *model)
{
	char src[1200], dst[600];
	struct np_error err = { 0 };
	struct json_object *o;

	snprintf(src, sizeof(src), "%s/tests/fixtures/models/%s.json", srcdir, model);
	snprintf(dst, sizeof(dst), "%s/%s.json", tmpdir, model);
	o = json_object_from_file(src);
	ntuple_on(o);
	if (!o || json_object_to_file(dst, o) < 0) {
		printf("Bail out! cannot copy %s\n", src);
		exit(99);
	}
	json_object_put(o);
	memset(s, 0, sizeof(*s));
	if (np_ctx_new(&s->ctx, &err) < 0 || np_ctx_set_state_dir(s->ctx, tmpdir, &err) < 0 ||
	    np_ctx_set_model(s->ctx, dst, &err) < 0 || np_ctx_backend(s->ctx, &s->be, &err) < 0) {
		printf("Bail out! %s\n", err.msg);
		exit(99);
	}
}

/* The device as the simulator has it now. */
static void rediscover(struct sim *s, const char *ifname)
{
	struct np_error err = { 0 };

	np_state_free(s->st);
	s->st = calloc(1, sizeof(*s->st));
	if (!s->st || s->be->ops->discover(s->be, ifname, s->st, &err) < 0) {
		printf("Bail out! discover %s: %s\n", ifname, err.msg);
		exit(99);
	}
}

/* Send `fields` of the device's coalescing with the values in vals (field,
 * value pairs ending at -1); the errno, the message in msg. */
static int send_coal(struct sim *s, const char *ifname, uint32_t fields, const int *vals, char *msg,
		size_t len)
{
	struct np_error err = { 0 };
	struct np_coalesce want;
	int r;

	rediscover(s, ifname);
	want = s->st->dev.coalesce;
	for (; *vals >= 0; vals += 2)
		want.val[vals[0]] = (uint32_t)vals[1];
	r = s->be->ops->set_coalesce(s->be, &s->st->dev, &want, fields, &err);
	snprintf(msg, len, "%s", r < 0 ? err.msg : "");
	return r;
}

static uint32_t now(struct sim *s, const char *ifname, enum np_coal_field f)
{
	rediscover(s, ifname);
	return s->st->dev.coalesce.val[f];
}

static void done(struct sim *s)
{
	np_state_free(s->st);
	np_ctx_free(s->ctx);
}

#define V(...) ((const int[]){ __VA_ARGS__, -1 })

static void r8169(void)
{
	struct sim s;
	char m[300];

	open_sim(&s, "r8169-1q");
	is_int(send_coal(&s, "enp2s0", F(RX_USECS) | F(RX_FRAMES),
		    V(NP_COAL_RX_USECS, 100, NP_COAL_RX_FRAMES, 64), m, sizeof(m)), -ERANGE,
	       "r8169: rx-frames 64 refused (ERANGE, above RTL_COALESCE_FRAME_MAX)");
	ok(strstr(m, "rx-frames 64: r8169 takes 0-60") != NULL, "r8169: says so: %s", m);
	is_int(send_coal(&s, "enp2s0", F(TX_FRAMES), V(NP_COAL_TX_FRAMES, 61), m, sizeof(m)), -ERANGE,
	       "r8169: tx-frames 61 refused (ERANGE)");
	is_int(send_coal(&s, "enp2s0", F(RX_FRAMES), V(NP_COAL_RX_FRAMES, 8), m, sizeof(m)), -EINVAL,
	       "r8169: rx-frames 8 without rx-usecs refused (EINVAL)");
	ok(strstr(m, "rx-frames 8 without rx-usecs") != NULL, "r8169: says so: %s", m);
	is_int(send_coal(&s, "enp2s0", F(RX_USECS) | F(RX_FRAMES),
		    V(NP_COAL_RX_USECS, 50, NP_COAL_RX_FRAMES, 60), m, sizeof(m)), 0,
	       "r8169: 60 frames beside 50 us taken");
	is_int(send_coal(&s, "enp2s0", F(TX_USECS), V(NP_COAL_TX_USECS, 20), m, sizeof(m)), 0,
	       "r8169: a delay alone (frames 1: no count) taken");
	done(&s);
}

static void atlantic(void)
{
	struct sim s;
	char m[300];

	open_sim(&s, "atlantic-8q");
	is_int(send_coal(&s, "enp5s0", F(RX_FRAMES), V(NP_COAL_RX_FRAMES, 64), m, sizeof(m)), -EOPNOTSUPP,
	       "atlantic: rx-frames 64 refused (EOPNOTSUPP: no frame counting)");
	is_int(send_coal(&s, "enp5s0", F(RX_FRAMES), V(NP_COAL_RX_FRAMES, 1), m, sizeof(m)), -EOPNOTSUPP,
	       "atlantic: rx-frames 1 beside a delay refused (EOPNOTSUPP)");
	ok(strstr(m, "atlantic counts no frames") != NULL, "atlantic: says so: %s", m);
	is_int(send_coal(&s, "enp5s0", F(TX_USECS), V(NP_COAL_TX_USECS, 2000), m, sizeof(m)), -EINVAL,
	       "atlantic: tx-usecs 2000 refused (EINVAL, above 1022)");
	is_int(send_coal(&s, "enp5s0", F(RX_USECS), V(NP_COAL_RX_USECS, 0), m, sizeof(m)), -EOPNOTSUPP,
	       "atlantic: rx-usecs 0 with rx-frames still 0 refused (EOPNOTSUPP)");
	is_int(send_coal(&s, "enp5s0", F(RX_USECS) | F(RX_FRAMES),
		    V(NP_COAL_RX_USECS, 0, NP_COAL_RX_FRAMES, 1), m, sizeof(m)), 0,
	       "atlantic: rx-usecs 0 with rx-frames 1 taken");
	done(&s);
}

static void tg3(void)
{
	struct sim s;
	char m[300];

	open_sim(&s, "tg3-4q");
	is_int(send_coal(&s, "eno1", F(RX_USECS), V(NP_COAL_RX_USECS, 0), m, sizeof(m)), -EINVAL,
	       "tg3: rx-usecs 0 refused (EINVAL)");
	is_int(send_coal(&s, "eno1", F(TX_USECS), V(NP_COAL_TX_USECS, 0), m, sizeof(m)), -EINVAL,
	       "tg3: tx-usecs 0 refused (EINVAL)");
	is_int(send_coal(&s, "eno1", F(RX_FRAMES), V(NP_COAL_RX_FRAMES, 256), m, sizeof(m)), -EINVAL,
	       "tg3: rx-frames 256 refused (EINVAL)");
	is_int(send_coal(&s, "eno1", F(RX_USECS), V(NP_COAL_RX_USECS, 1), m, sizeof(m)), 0,
	       "tg3: rx-usecs 1 taken");
	done(&s);
}

/* The table's second part (drivers_more.c) on its models. */
static void more(void)
{
	struct sim s;
	char m[300];

	open_sim(&s, "mlx4-8q");
	is_int(send_coal(&s, "ens2", F(RX_USECS), V(NP_COAL_RX_USECS, 70000), m, sizeof(m)), -ERANGE,
	       "mlx4_en: rx-usecs 70000 refused (ERANGE, above MLX4_EN_MAX_COAL_TIME)");
	is_int(send_coal(&s, "ens2", F(TX_FRAMES), V(NP_COAL_TX_FRAMES, 65536), m, sizeof(m)), -ERANGE,
	       "mlx4_en: tx-frames 65536 refused (ERANGE)");
	is_int(send_coal(&s, "ens2", F(TX_FRAMES_IRQ), V(NP_COAL_TX_FRAMES_IRQ, 0), m, sizeof(m)),
	       -EINVAL, "mlx4_en: tx-frames-irq 0 refused (EINVAL, the Tx budget)");
	is_int(send_coal(&s, "ens2", F(RX_USECS), V(NP_COAL_RX_USECS, 65535), m, sizeof(m)), 0,
	       "mlx4_en: rx-usecs 65535 (MLX4_EN_AUTO_CONF) taken");
	is_int(send_coal(&s, "ens2", F(RX_USECS), V(NP_COAL_RX_USECS, 64), m, sizeof(m)), 0,
	       "mlx4_en: rx-usecs 64 taken");
	done(&s);
	open_sim(&s, "qede-8q");
	is_int(send_coal(&s, "ens3f0", F(RX_USECS), V(NP_COAL_RX_USECS, 512), m, sizeof(m)), -EINVAL,
	       "qede: rx-usecs 512 refused (EINVAL, above QED_COALESCE_MAX)");
	ok(strstr(m, "rx-usecs 512: qede takes 0-511") != NULL, "qede: says so: %s", m);
	is_int(send_coal(&s, "ens3f0", F(TX_USECS), V(NP_COAL_TX_USECS, 511), m, sizeof(m)), 0,
	       "qede: tx-usecs 511 taken");
	done(&s);
	open_sim(&s, "hns3-8q");
	is_int(send_coal(&s, "enp125s0f0", F(RX_USECS_HIGH), V(NP_COAL_RX_USECS_HIGH, 237), m,
			 sizeof(m)),
	       -EINVAL, "hns3: rx-usecs-high 237 refused (EINVAL, above HNS3_INT_RL_MAX)");
	is_int(send_coal(&s, "enp125s0f0", F(RX_USECS_HIGH), V(NP_COAL_RX_USECS_HIGH, 100), m,
			 sizeof(m)),
	       -EINVAL, "hns3: rx-usecs-high 100 with tx-usecs-high 0 refused (EINVAL)");
	ok(strstr(m, "hns3 takes one value for both") != NULL, "hns3: says so: %s", m);
	is_int(send_coal(&s, "enp125s0f0", F(RX_USECS_HIGH) | F(TX_USECS_HIGH),
			 V(NP_COAL_RX_USECS_HIGH, 100, NP_COAL_TX_USECS_HIGH, 100), m, sizeof(m)),
	       0, "hns3: 100 both ways taken");
	done(&s);
	open_sim(&s, "nfp-8q");
	is_int(send_coal(&s, "ens6np0", F(RX_USECS) | F(RX_FRAMES),
			 V(NP_COAL_RX_USECS, 0, NP_COAL_RX_FRAMES, 0), m, sizeof(m)),
	       -EINVAL, "nfp: rx-usecs 0 with rx-frames 0 refused (EINVAL)");
	is_int(send_coal(&s, "ens6np0", F(TX_FRAMES), V(NP_COAL_TX_FRAMES, 65535), m, sizeof(m)),
	       -EINVAL, "nfp: tx-frames 65535 refused (EINVAL)");
	is_int(send_coal(&s, "ens6np0", F(RX_USECS) | F(RX_FRAMES),
			 V(NP_COAL_RX_USECS, 0, NP_COAL_RX_FRAMES, 1), m, sizeof(m)),
	       0, "nfp: rx-usecs 0 with rx-frames 1 (no moderation) taken");
	done(&s);
}

static void igc(void)
{
	struct sim s;
	char m[300];

	open_sim(&s, "igc-4q");
	is_int(send_coal(&s, "enp3s0", F(TX_USECS), V(NP_COAL_TX_USECS, 50), m, sizeof(m)), -EINVAL,
	       "igc: a tx-usecs change with queue pairs refused (EINVAL)");
	is_int(send_coal(&s, "enp3s0", F(RX_USECS), V(NP_COAL_RX_USECS, 5), m, sizeof(m)), -EINVAL,
	       "igc: rx-usecs 5 refused (EINVAL)");
	is_int(send_coal(&s, "enp3s0", F(RX_USECS), V(NP_COAL_RX_USECS, 2), m, sizeof(m)), -EINVAL,
	       "igc: rx-usecs 2 refused (EINVAL)");
	is_int(send_coal(&s, "enp3s0", F(RX_USECS), V(NP_COAL_RX_USECS, 50), m, sizeof(m)), 0,
	       "igc: rx-usecs 50 taken");
	is_int(now(&s, "enp3s0", NP_COAL_TX_USECS), 50, "igc: tx-usecs follows rx-usecs with queue pairs");
	is_int(send_coal(&s, "enp3s0", F(TX_USECS) | F(RX_USECS),
		    V(NP_COAL_RX_USECS, 100, NP_COAL_TX_USECS, 50), m, sizeof(m)), 0,
	       "igc: tx-usecs at what the driver reports is taken");
	done(&s);
}

/* An ntuple rule with a /16 destination on the model: the driver's errno. */
static int prefix_rule(const char *model, const char *ifname, bool v6)
{
	struct np_error err = { 0 };
	struct np_rule r;
	struct sim s;
	uint32_t loc = 0;
	int e;

	open_sim(&s, model);
	rediscover(&s, ifname);
	memset(&r, 0, sizeof(r));
	r.fs.flow_type = v6 ? TCP_V6_FLOW : TCP_V4_FLOW;
	if (v6) {
		memset(r.fs.m_u.tcp_ip6_spec.ip6dst, 0xff, 2);
		r.fs.h_u.tcp_ip6_spec.ip6dst[0] = htonl(0xfd000000);
	} else {
		r.fs.m_u.tcp_ip4_spec.ip4dst = htonl(0xffff0000);
		r.fs.h_u.tcp_ip4_spec.ip4dst = htonl(0x0a010000);
	}
	r.fs.location = s.st->dev.steer.special ? RX_CLS_LOC_ANY : 100;
	r.fs.ring_cookie = 1;
	e = s.be->ops->rule_insert(s.be, &s.st->dev, &r, &loc, &err);
	done(&s);
	return e;
}

static void masks(void)
{
	is_int(prefix_rule("ice-mixed", "ens801f0", false), -EOPNOTSUPP,
	       "ice: a /16 address mask refused (EOPNOTSUPP, ice_set_fdir_ip4_seg)");
	is_int(prefix_rule("sfc-mixed", "ens5f0np0", true), -EINVAL,
	       "sfc: a partial IPv6 mask refused (EINVAL, efx_ethtool_set_class_rule)");
	is_int(prefix_rule("mlx5-mixed", "ens1f0np0", false), 0, "mlx5: a /16 taken");
}

/* A tcp4 rule at loc matching a whole destination address, a destination
 * port, or both. */
static int tcp4_rule(struct sim *s, uint32_t loc, bool addr, bool port)
{
	struct np_error err = { 0 };
	struct np_rule r;
	uint32_t got = 0;

	memset(&r, 0, sizeof(r));
	r.fs.flow_type = TCP_V4_FLOW;
	if (addr) {
		r.fs.m_u.tcp_ip4_spec.ip4dst = htonl(0xffffffff);
		r.fs.h_u.tcp_ip4_spec.ip4dst = htonl(0x0a010203);
	}
	if (port) {
		r.fs.m_u.tcp_ip4_spec.pdst = htons(0xffff);
		r.fs.h_u.tcp_ip4_spec.pdst = htons((uint16_t)(6000 + loc));
	}
	r.fs.location = s->st->dev.steer.special ? RX_CLS_LOC_ANY : loc;
	r.fs.ring_cookie = 1;
	return s->be->ops->rule_insert(s->be, &s->st->dev, &r, &got, &err);
}

/* ice: one input set per flow type while the type has rules. */
static void input_sets(void)
{
	struct sim s;

	open_sim(&s, "ice-mixed");
	rediscover(&s, "ens801f0");
	is_int(tcp4_rule(&s, 100, false, true), 0, "ice: a tcp4 port rule taken");
	rediscover(&s, "ens801f0");
	is_int(tcp4_rule(&s, 101, false, true), 0, "ice: a second one on the same fields taken");
	rediscover(&s, "ens801f0");
	is_int(tcp4_rule(&s, 102, true, true), -EINVAL,
	       "ice: a tcp4 rule on other fields refused (EINVAL, ice_fdir_set_hw_fltr_rule)");
	done(&s);
	open_sim(&s, "mlx5-mixed");
	rediscover(&s, "ens1f0np0");
	is_int(tcp4_rule(&s, 100, false, true), 0, "mlx5: a tcp4 port rule taken");
	rediscover(&s, "ens1f0np0");
	is_int(tcp4_rule(&s, 101, true, true), 0, "mlx5: one on other fields taken too");
	done(&s);
}

int main(void)
{
	if (getenv("NP_SRCDIR"))
		srcdir = getenv("NP_SRCDIR");
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp\n");
		return 99;
	}
	r8169();
	atlantic();
	tg3();
	igc();
	more();
	masks();
	input_sets();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmpdir);
	}
	return tap_done();
}
