/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Steering requests without a kernel: the ntuple and RSS-context encoders
 * against ethtool 6.1's captured requests (tests/fixtures/steer), and the
 * decoders against kernel-shaped replies (laid out as net/ethtool/ioctl.c
 * and net/ethtool/rss.c write them) and broken ones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "backend/ethnl/compat.h"
#include "backend/np_steer.h"
#include "model/np_flow.h"
#include "tap.h"

static char fixture[64][2048];
static unsigned n_fixture;

static void load_fixture(void)
{
	const char *src = getenv("NP_SRCDIR");
	char path[4096], line[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/fixtures/steer/ethtool-6.1.requests",
		 src ? src : "..");
	f = fopen(path, "r");
	ok(f != NULL, "fixture %s", path);
	while (f && n_fixture < 64 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(fixture[n_fixture++], sizeof(fixture[0]), "%s", line);
	}
	if (f)
		fclose(f);
}

/* The payload hex of fixture LABEL. */
static const char *ethtool_hex(const char *label)
{
	size_t n = strlen(label);

	for (unsigned i = 0; i < n_fixture; i++) {
		if (!strncmp(fixture[i], label, n) && fixture[i][n] == ' ') {
			const char *p = strrchr(fixture[i], ' ');

			return p ? p + 1 : NULL;
		}
	}
	return NULL;
}

static void hex(const void *p, size_t n, char *out)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

/* Compare what the kernel reads: cmd, fs (and rss_context) of an insert. */
static void same_ins(const char *label, const char *flow, bool ctx, uint32_t target,
		     uint32_t offset, uint32_t loc)
{
	const char *want = ethtool_hex(label);
	struct np_ntuple_rule rule;
	struct ethtool_rxnfc nfc;
	struct np_flow f;
	char got[2 * sizeof(nfc) + 1];

	if (!want || np_flow_parse(flow, &f, NULL, NULL) < 0) {
		ok(0, "%s: fixture and flow %s", label, flow);
		return;
	}
	rule = (struct np_ntuple_rule){ .fs = f.rule[0] };
	rule.fs.location = loc;
	if (ctx)
		np_ntuple_to_context(&rule, target, offset);
	else
		np_ntuple_to_queue(&rule, target);
	np_ntuple_enc_ins(&rule, &nfc);
	hex(&nfc, sizeof(nfc), got);
	ok(strlen(want) == 2 * sizeof(nfc), "%s: ethtool sent a whole ethtool_rxnfc", label);
	ok(!strncmp(got, want, 8), "%s: cmd", label);
	ok(!strncmp(got + 32, want + 32, 336), "%s: fs byte for byte as ethtool's (%s)", label,
	   flow);
	if (strncmp(got + 32, want + 32, 336))
		printf("#   got  %.336s\n#   want %.336s\n", got + 32, want + 32);
	ok(!strncmp(got + 368, want + 368, 8), "%s: rss_context", label);
}

static void same_whole(const char *label, const void *p, size_t n)
{
	const char *want = ethtool_hex(label);
	char got[2 * 1024 + 1];

	hex(p, n, got);
	ok(want && !strcmp(got, want), "%s: byte for byte as ethtool's", label);
	if (want && strcmp(got, want))
		printf("#   got  %s\n#   want %s\n", got, want);
}

static void ioctl_requests(void)
{
	struct ethtool_rxnfc nfc;
	uint32_t table[128], ctx;
	uint8_t buf[1024];
	struct np_rss_ctx_req req = { 0 };
	const char *want;
	char got[2 * sizeof(nfc) + 1];

	same_ins("ins_queue_loc5", "latency:tcp4:6379", false, 2, 0, 5);
	same_ins("ins_ctx1", "latency:tcp4:6379", true, 1, 0, 6);
	same_ins("ins_udp6_vlan_ctx2", "latency:udp6:53,vlan=7", true, 2, 1, 8);
	same_ins("ins_src_port", "latency:tcp4:src-port=5201", false, 3, 0, 9);
	same_ins("ins_dst_addr_port", "latency:tcp:dst=10.0.0.5:443", false, 1, 0, 4);
	same_ins("ins_tcp6", "latency:tcp:dst=[fd00::5]:443", false, 1, 0, 4);
	same_ins("ins_udp4_prefix", "cpu:udp4:src=10.1.0.0/16", false, 1, 0, 4);
	same_ins("ins_ip4", "cpu:ip4", false, 1, 0, 3);
	same_ins("ins_ip6", "cpu:ip6", false, 1, 0, 3);
	same_ins("ins_vlan", "latency:vlan=100", false, 1, 0, 4);
	/* without loc on a 256-rule table without special locations: 255 */
	same_ins("ins_any", "throughput:udp4:53", false, 1, 0, 255);

	np_ntuple_enc_del(5, &nfc);
	hex(&nfc, sizeof(nfc), got);
	want = ethtool_hex("del5");
	ok(want && !strncmp(got, want, 8) && !strncmp(got + 352, want + 352, 8),
	   "del5: cmd and fs.location as ethtool's");

	for (unsigned i = 0; i < 128; i++)
		table[i] = i % 2;
	req.indir = table;
	req.n_indir = 128;
	is_int(np_rss_ctx_enc_srssh_create(&req, buf, sizeof(buf)), 0, "SRSSH create encodes");
	same_whole("ctx_new_equal2", buf, np_rss_ctx_srssh_size(128, 0));
	for (unsigned i = 0; i < 128; i++)
		table[i] = 4 + i % 2;
	np_rss_ctx_enc_srssh_create(&req, buf, sizeof(buf));
	same_whole("ctx_new_start4", buf, np_rss_ctx_srssh_size(128, 0));
	req.n_indir = 0;
	np_rss_ctx_enc_srssh_create(&req, buf, sizeof(buf));
	same_whole("ctx_new", buf, np_rss_ctx_srssh_size(0, 0));
	np_rss_ctx_enc_srssh_delete(1, (struct ethtool_rxfh *)buf);
	same_whole("ctx_del1", buf, sizeof(struct ethtool_rxfh));
	is_int(np_rss_ctx_enc_srssh_create(&req, buf, 8), -EINVAL, "SRSSH: too small a buffer");

	/* The kernel's answer to a create: the new number in rss_context. */
	((struct ethtool_rxfh *)buf)->cmd = ETHTOOL_SRSSH;
	((struct ethtool_rxfh *)buf)->rss_context = 3;
	is_int(np_rss_ctx_dec_srssh(buf, sizeof(struct ethtool_rxfh), &ctx), 0, "SRSSH reply");
	is_int(ctx, 3, "new context 3");
	((struct ethtool_rxfh *)buf)->rss_context = ETH_RXFH_CONTEXT_ALLOC;
	is_int(np_rss_ctx_dec_srssh(buf, sizeof(struct ethtool_rxfh), &ctx), -EPROTO,
	       "a reply still saying ALLOC is refused");
}

static void ntuple_replies(void)
{
	uint8_t buf[sizeof(struct ethtool_rxnfc) + 4 * sizeof(uint32_t)];
	struct ethtool_rxnfc *nfc = (struct ethtool_rxnfc *)buf;
	struct np_ntuple_table t;
	struct np_ntuple_rule rule;
	uint32_t locs[4], n, loc;
	const uint32_t used[] = { 5, 9, 255 };

	/* GRXCLSRLCNT as ethtool_get_rxnfc copies it back: rule_cnt, data. */
	np_ntuple_enc_count(nfc);
	nfc->rule_cnt = 3;
	nfc->data = 256 | RX_CLS_LOC_SPECIAL;
	is_int(np_ntuple_dec_count(buf, sizeof(*nfc), &t), 0, "GRXCLSRLCNT decodes");
	is_int(t.size, 256, "table size without the flag");
	ok(t.special, "special locations");
	is_int(t.n_rules, 3, "3 rules");
	nfc->data = 2;
	is_int(np_ntuple_dec_count(buf, sizeof(*nfc), &t), -EPROTO, "more rules than slots");
	is_int(np_ntuple_dec_count(buf, 10, &t), -EPROTO, "short reply");

	/* GRXCLSRLALL: header then rule_locs (net/ethtool/ioctl.c copies
	 * info, then the array after it). */
	np_ntuple_enc_all(4, buf);
	is_int(nfc->rule_cnt, 4, "asks with room for 4");
	nfc->rule_cnt = 3;
	nfc->data = 256;
	memcpy(buf + sizeof(*nfc), used, sizeof(used));
	is_int(np_ntuple_dec_all(buf, sizeof(buf), 4, locs, &n), 0, "GRXCLSRLALL decodes");
	is_int(n, 3, "3 locations");
	is_int(locs[0] + locs[1] + locs[2], 5 + 9 + 255, "the locations");
	nfc->rule_cnt = 5;
	is_int(np_ntuple_dec_all(buf, sizeof(buf), 4, locs, &n), -EPROTO, "more than room");
	nfc->rule_cnt = 3;
	is_int(np_ntuple_dec_all(buf, sizeof(*nfc) + 4, 4, locs, &n), -EPROTO,
	       "locations cut short");

	t = (struct np_ntuple_table){ .size = 256 };
	is_int(np_ntuple_pick_location(&t, used, 3, &loc), 0, "a free slot");
	is_int(loc, 254, "the highest free one, below the foreign rule at 255");
	t.size = 1;
	is_int(np_ntuple_pick_location(&t, (uint32_t[]){ 0 }, 1, &loc), -ENOSPC, "full table");
	t.size = 0;
	is_int(np_ntuple_pick_location(&t, NULL, 0, &loc), -ENOSPC, "unknown size: no guess");

	/* GRXCLSRULE: the rule as inserted, rss_context when FLOW_RSS. */
	{
		struct np_flow f;

		np_flow_parse("latency:tcp4:6379", &f, NULL, NULL);
		rule = (struct np_ntuple_rule){ .fs = f.rule[0] };
		np_ntuple_to_context(&rule, 2, 1);
		rule.fs.location = 7;
		np_ntuple_enc_ins(&rule, nfc);
		nfc->cmd = ETHTOOL_GRXCLSRULE;
		memset(&rule, 0, sizeof(rule));
		is_int(np_ntuple_dec_rule(buf, sizeof(*nfc), &rule), 0, "GRXCLSRULE decodes");
		is_int(rule.rss_context, 2, "context");
		is_int(rule.fs.ring_cookie, 1, "queue offset");
		is_int(rule.fs.location, 7, "location");
		ok(!memcmp(&rule.fs, &nfc->fs, sizeof(rule.fs)), "the rule as the kernel gave it");
		nfc->fs.flow_type &= ~FLOW_RSS;
		np_ntuple_dec_rule(buf, sizeof(*nfc), &rule);
		is_int(rule.rss_context, 0, "no context without FLOW_RSS");
		nfc->cmd = ETHTOOL_GRXCLSRLCNT;
		is_int(np_ntuple_dec_rule(buf, sizeof(*nfc), &rule), -EPROTO, "wrong command");
	}
}

#define FAMILY 0x14

/* A reply laid out as rss_fill_reply writes it (net/ethtool/rss.c):
 * header (dev index, name), CONTEXT, INDIR, HFUNC, HKEY, FLOW_HASH. */
static size_t kernel_reply(void *buf, uint8_t cmd, uint32_t ctx, uint32_t n_indir,
			   size_t indir_bytes)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	struct nlattr *nest;
	uint32_t indir[64];
	uint8_t key[40];

	for (uint32_t i = 0; i < 64; i++)
		indir[i] = 8 + i % 4;
	memset(key, 0x5a, sizeof(key));
	nlh->nlmsg_type = FAMILY;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	nest = mnl_attr_nest_start(nlh, NP_ETHTOOL_A_RSS_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, 5);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, "eth0");
	mnl_attr_nest_end(nlh, nest);
	if (ctx)
		mnl_attr_put_u32(nlh, NP_ETHTOOL_A_RSS_CONTEXT, ctx);
	mnl_attr_put(nlh, NP_ETHTOOL_A_RSS_INDIR, indir_bytes ? indir_bytes : n_indir * 4, indir);
	mnl_attr_put_u32(nlh, NP_ETHTOOL_A_RSS_HFUNC, 1);
	mnl_attr_put(nlh, NP_ETHTOOL_A_RSS_HKEY, sizeof(key), key);
	nest = mnl_attr_nest_start(nlh, NP_ETHTOOL_A_RSS_FLOW_HASH);
	mnl_attr_put_u32(nlh, 4, 0xf0);
	mnl_attr_nest_end(nlh, nest);
	return nlh->nlmsg_len;
}

static void netlink(void)
{
	static uint8_t buf[8192];
	static struct np_rss_ctx_info info;
	uint32_t table[4] = { 4, 5, 4, 5 };
	struct np_rss_ctx_req req = { .indir = table, .n_indir = 4 };
	char got[2 * 256 + 1];
	size_t n;

	/* Hand-assembled from the uapi numbers: nlmsghdr (len 0x38, family
	 * 0x14, REQUEST|ACK), genl cmd 49 version 1, HEADER nest (1 |
	 * NLA_F_NESTED) with DEV_NAME (2) "eth0", INDIR (4) of 4 u32s. */
	n = np_rss_ctx_enc_create(buf, sizeof(buf), FAMILY, "eth0", &req);
	hex(buf, n, got);
	is_str(got,
	       "3800000014000500000000000000000031010000"
	       "1000018009000200657468300000000014000400"
	       "04000000050000000400000005000000",
	       "RSS_CREATE_ACT with a table, byte for byte");
	req = (struct np_rss_ctx_req){ .context = 7, .hfunc = 1 };
	n = np_rss_ctx_enc_create(buf, sizeof(buf), FAMILY, "eth0", &req);
	hex(buf, n, got);
	is_str(got,
	       "3400000014000500000000000000000031010000"
	       "100001800900020065746830000000000800020007000000"
	       "0800030001000000",
	       "RSS_CREATE_ACT with a context number and hfunc");
	n = np_rss_ctx_enc_delete(buf, sizeof(buf), FAMILY, "eth0", 7);
	hex(buf, n, got);
	is_str(got,
	       "2c00000014000500000000000000000032010000"
	       "10000180090002006574683000000000"
	       "0800020007000000",
	       "RSS_DELETE_ACT");
	is_int(np_rss_ctx_enc_delete(buf, sizeof(buf), FAMILY, "eth0", 0), 0,
	       "context 0 cannot be deleted");
	n = np_rss_ctx_enc_get(buf, sizeof(buf), FAMILY, "eth0", 7);
	is_int(buf[16], NP_ETHTOOL_MSG_RSS_GET, "RSS_GET");
	is_int(n, 0x2c, "RSS_GET with a context");
	req.n_indir = 4;
	req.indir = table;
	is_int(np_rss_ctx_enc_create(buf, 40, FAMILY, "eth0", &req), 0, "too small: 0");

	n = kernel_reply(buf, NP_ETHTOOL_MSG_RSS_GET_REPLY, 3, 64, 0);
	is_int(np_rss_ctx_dec_reply(buf, n, &info), 0, "RSS_GET_REPLY decodes");
	is_int(info.context, 3, "context");
	is_int(info.ifindex, 5, "ifindex");
	is_str(info.ifname, "eth0", "ifname");
	is_int(info.n_indir, 64, "table size");
	is_int(info.indir[1], 9, "table entry");
	is_int(info.hfunc, 1, "hfunc");
	is_int(info.key_len, 40, "key");
	is_int(info.key[39], 0x5a, "key bytes");
	n = kernel_reply(buf, NP_ETHTOOL_MSG_RSS_CREATE_ACT_REPLY, 9, 16, 0);
	is_int(np_rss_ctx_dec_reply(buf, n, &info), 0, "RSS_CREATE_ACT_REPLY decodes");
	is_int(info.context, 9, "the created context");
	n = kernel_reply(buf, NP_ETHTOOL_MSG_RSS_GET_REPLY, 0, 0, 10);
	is_int(np_rss_ctx_dec_reply(buf, n, &info), -EPROTO, "a table of 2.5 entries");
	n = kernel_reply(buf, 0x11, 0, 16, 0);
	is_int(np_rss_ctx_dec_reply(buf, n, &info), -EPROTO, "not an RSS reply");
	n = kernel_reply(buf, NP_ETHTOOL_MSG_RSS_GET_REPLY, 3, 16, 0);
	is_int(np_rss_ctx_dec_reply(buf, n - 8, &info), -EPROTO, "cut short");
	is_int(np_rss_ctx_dec_reply(buf, 12, &info), -EPROTO, "shorter than a header");
	n = kernel_reply(buf, NP_ETHTOOL_MSG_RSS_GET_REPLY, 3, 16, 0);
	((struct nlmsghdr *)buf)->nlmsg_len = 0xfffffe7e;
	is_int(np_rss_ctx_dec_reply(buf, n, &info), -EPROTO,
	       "a length with the top bit set (libmnl's int compare) is refused");
	n = kernel_reply(buf, NP_ETHTOOL_MSG_RSS_GET_REPLY, 3, 16, 0);
	((struct nlmsghdr *)buf)->nlmsg_len = (uint32_t)n - 3;
	is_int(np_rss_ctx_dec_reply(buf, n - 3, &info), -EPROTO,
	       "an unaligned length whose padding is not there is refused");
}

int main(void)
{
	load_fixture();
	ioctl_requests();
	ntuple_replies();
	netlink();
	return tap_done();
}
