/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Extra RSS contexts over ethtool netlink: RSS_CREATE_ACT and RSS_DELETE_ACT
 * (6.17), RSS_GET with a context (6.2).  Whether the kernel has them is read
 * from the family's op list (np_ethnl_has_op), never from its version; a
 * kernel without them gets rss_ctx_ioctl.c's ETHTOOL_SRSSH.
 *
 * Kernel side (net/ethtool/rss.c): ethnl_rss_create_policy takes HEADER,
 * CONTEXT (>= 1; absent: the kernel allocates), HFUNC, INDIR (u32 array),
 * HKEY and INPUT_XFRM, and answers RSS_CREATE_ACT_REPLY with the context's
 * full configuration (rss_fill_reply: CONTEXT, INDIR, HFUNC, INPUT_XFRM,
 * HKEY); ethnl_rss_delete_policy takes HEADER and CONTEXT.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethnl.h"
#include "../np_steer.h"

#define KNOB "rss-context"

/* --- encoders ------------------------------------------------------------------- */

static size_t attr_size(size_t payload)
{
	return MNL_ALIGN(MNL_ATTR_HDRLEN + payload);
}

static size_t base_size(const char *ifname)
{
	return MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct genlmsghdr)) +
	       attr_size(0) /* header nest */ + attr_size(strlen(ifname) + 1);
}

static struct nlmsghdr *start(void *buf, size_t need, uint16_t family, uint8_t cmd,
			      const char *ifname)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	struct nlattr *nest;

	memset(buf, 0, need);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = ETHTOOL_GENL_VERSION;
	/* NLA_F_NESTED (libmnl's nest_start adds it too): the newer ops
	 * validate strictly and refuse a nest without it (lib/nlattr.c,
	 * NL_VALIDATE_NESTED). */
	nest = mnl_attr_nest_start(nlh, NP_ETHTOOL_A_RSS_HEADER | NLA_F_NESTED);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

size_t np_rss_ctx_enc_create(void *buf, size_t len, uint16_t family, const char *ifname,
			     const struct np_rss_ctx_req *req)
{
	size_t need = base_size(ifname);
	struct nlmsghdr *nlh;

	if (req->context)
		need += attr_size(sizeof(uint32_t));
	if (req->hfunc)
		need += attr_size(sizeof(uint32_t));
	if (req->n_indir)
		need += attr_size((size_t)req->n_indir * sizeof(uint32_t));
	if (req->key_len)
		need += attr_size(req->key_len);
	if (req->input_xfrm)
		need += attr_size(sizeof(uint32_t));
	if (need > len || need > UINT16_MAX)
		return 0;
	nlh = start(buf, need, family, NP_ETHTOOL_MSG_RSS_CREATE_ACT, ifname);
	/* The policy refuses 0 for each of these (NLA_POLICY_MIN ... 1):
	 * "not given" is the attribute left out. */
	if (req->context)
		mnl_attr_put_u32(nlh, NP_ETHTOOL_A_RSS_CONTEXT, req->context);
	if (req->hfunc)
		mnl_attr_put_u32(nlh, NP_ETHTOOL_A_RSS_HFUNC, req->hfunc);
	if (req->n_indir)
		mnl_attr_put(nlh, NP_ETHTOOL_A_RSS_INDIR, (size_t)req->n_indir * sizeof(uint32_t),
			     req->indir);
	if (req->key_len)
		mnl_attr_put(nlh, NP_ETHTOOL_A_RSS_HKEY, req->key_len, req->key);
	if (req->input_xfrm)
		mnl_attr_put_u32(nlh, NP_ETHTOOL_A_RSS_INPUT_XFRM, req->input_xfrm);
	return nlh->nlmsg_len;
}

static size_t enc_ctx(void *buf, size_t len, uint16_t family, uint8_t cmd, const char *ifname,
		      uint32_t context)
{
	size_t need = base_size(ifname) + (context ? attr_size(sizeof(uint32_t)) : 0);
	struct nlmsghdr *nlh;

	if (need > len)
		return 0;
	nlh = start(buf, need, family, cmd, ifname);
	if (context)
		mnl_attr_put_u32(nlh, NP_ETHTOOL_A_RSS_CONTEXT, context);
	return nlh->nlmsg_len;
}

size_t np_rss_ctx_enc_delete(void *buf, size_t len, uint16_t family, const char *ifname,
			     uint32_t context)
{
	/* Context 0 is the main table, which cannot be deleted: the kernel
	 * would answer EINVAL for the missing attribute, say it here. */
	if (!context)
		return 0;
	return enc_ctx(buf, len, family, NP_ETHTOOL_MSG_RSS_DELETE_ACT, ifname, context);
}

size_t np_rss_ctx_enc_get(void *buf, size_t len, uint16_t family, const char *ifname,
			  uint32_t context)
{
	return enc_ctx(buf, len, family, NP_ETHTOOL_MSG_RSS_GET, ifname, context);
}

/* --- decoder -------------------------------------------------------------------- */

#define TB_MAX 16

static int tb_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type < TB_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

static int get_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a)
		return 0;
	if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return -EPROTO;
	*v = mnl_attr_get_u32(a);
	return 0;
}

static int dec_header(const struct nlattr *nest, struct np_rss_ctx_info *info)
{
	const struct nlattr *tb[TB_MAX] = { 0 };
	const struct nlattr *name;

	if (!nest)
		return 0;
	if (mnl_attr_parse_nested(nest, tb_cb, tb) < 0)
		return -EPROTO;
	if (get_u32(tb[ETHTOOL_A_HEADER_DEV_INDEX], &info->ifindex) < 0)
		return -EPROTO;
	name = tb[ETHTOOL_A_HEADER_DEV_NAME];
	if (name) {
		if (mnl_attr_validate(name, MNL_TYPE_NUL_STRING) < 0 ||
		    strlen(mnl_attr_get_str(name)) >= sizeof(info->ifname))
			return -EPROTO;
		snprintf(info->ifname, sizeof(info->ifname), "%s", mnl_attr_get_str(name));
	}
	return 0;
}

int np_rss_ctx_dec_reply(const void *buf, size_t len, struct np_rss_ctx_info *ret)
{
	const struct nlattr *tb[TB_MAX] = { 0 };
	const struct nlmsghdr *nlh = buf;
	const struct genlmsghdr *g;
	const struct nlattr *indir, *key;

	/* Not mnl_nlmsg_ok(): it compares nlmsg_len as an int, so a length
	 * with the top bit set passes; and libmnl walks attributes up to the
	 * *aligned* length, so that must fit too (both found by
	 * tests/fuzz/fuzz_steer_reply). */
	if (len < sizeof(*nlh) || nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > len ||
	    MNL_ALIGN(nlh->nlmsg_len) > len ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*g))
		return -EPROTO;
	g = mnl_nlmsg_get_payload(nlh);
	if (g->cmd != NP_ETHTOOL_MSG_RSS_GET_REPLY && g->cmd != NP_ETHTOOL_MSG_RSS_CREATE_ACT_REPLY)
		return -EPROTO;
	if (mnl_attr_parse(nlh, sizeof(*g), tb_cb, tb) < 0)
		return -EPROTO;
	memset(ret, 0, sizeof(*ret));
	if (dec_header(tb[NP_ETHTOOL_A_RSS_HEADER], ret) < 0 ||
	    get_u32(tb[NP_ETHTOOL_A_RSS_CONTEXT], &ret->context) < 0 ||
	    get_u32(tb[NP_ETHTOOL_A_RSS_HFUNC], &ret->hfunc) < 0 ||
	    get_u32(tb[NP_ETHTOOL_A_RSS_INPUT_XFRM], &ret->input_xfrm) < 0)
		return -EPROTO;
	indir = tb[NP_ETHTOOL_A_RSS_INDIR];
	if (indir) {
		uint16_t plen = mnl_attr_get_payload_len(indir);

		if (plen % sizeof(uint32_t) || plen / sizeof(uint32_t) > NP_RSS_CTX_INDIR_MAX)
			return -EPROTO;
		ret->n_indir = plen / sizeof(uint32_t);
		memcpy(ret->indir, mnl_attr_get_payload(indir), plen);
	}
	key = tb[NP_ETHTOOL_A_RSS_HKEY];
	if (key) {
		uint16_t klen = mnl_attr_get_payload_len(key);

		if (klen > NP_RSS_CTX_KEY_MAX)
			return -EPROTO;
		ret->key_len = klen;
		memcpy(ret->key, mnl_attr_get_payload(key), klen);
	}
	return 0;
}

/* --- I/O ------------------------------------------------------------------------ */

struct reply {
	struct np_rss_ctx_info *info;
	bool got;
};

static int reply_cb(const void *msg, size_t len, void *arg)
{
	struct reply *rp = arg;
	int r;

	r = np_rss_ctx_dec_reply(msg, len, rp->info);
	if (r == 0)
		rp->got = true;
	return r;
}

static int failed(struct np_error *err, int r, const char *ifname, const char *what,
		  uint32_t context, const char *extack)
{
	np_err(err, r, NP_PHASE_APPLY, KNOB, "%s: %s RSS context %u: %s", ifname, what, context,
	       extack && *extack ? extack : strerror(-r));
	np_err_extack(err, extack);
	return r;
}

/* One request built by enc into a buffer sized for the largest table. */
static int roundtrip(struct np_ethnl *nl, void *req, struct np_rss_ctx_info *info,
		     bool want_reply, const char *ifname, const char *what, uint32_t context,
		     struct np_error *err)
{
	struct reply rp = { .info = info };
	char extack[sizeof(((struct np_error *)0)->extack)] = "";
	int r;

	/* Built in our own buffer (a table does not fit the transport's
	 * request buffer's usual size); the transport matches replies by seq. */
	((struct nlmsghdr *)req)->nlmsg_seq = ++nl->seq;
	r = np_ethnl_request(nl, req, want_reply ? reply_cb : NULL, &rp, extack, sizeof(extack));
	if (r < 0)
		return failed(err, r, ifname, what, context, extack);
	if (want_reply && !rp.got)
		return failed(err, -EPROTO, ifname, what, context, "no reply from the kernel");
	return 0;
}

#define REQ_MAX (4096 + NP_RSS_CTX_INDIR_MAX * 4 + NP_RSS_CTX_KEY_MAX)

int np_rss_ctx_create(struct np_ethnl *nl, const char *ifname, const struct np_rss_ctx_req *req,
		      uint32_t *ret_context, struct np_error *err)
{
	struct np_rss_ctx_info *info = NULL;
	void *buf = NULL;
	int r;

	if (!nl || !np_ethnl_has_op(nl, NP_ETHTOOL_MSG_RSS_CREATE_ACT))
		return np_rss_ctx_ioctl_create(ifname, req, ret_context, err);
	buf = malloc(REQ_MAX);
	info = malloc(sizeof(*info));
	if (!buf || !info) {
		r = np_err(err, -ENOMEM, NP_PHASE_APPLY, KNOB, "out of memory");
		goto out;
	}
	if (!np_rss_ctx_enc_create(buf, REQ_MAX, nl->family, ifname, req)) {
		r = failed(err, -E2BIG, ifname, "creating", req->context, "request too large");
		goto out;
	}
	r = roundtrip(nl, buf, info, true, ifname, "creating", req->context, err);
	if (r < 0)
		goto out;
	/* The reply names the context whenever it is not 0 (rss_fill_reply);
	 * a create can never yield 0, the main table. */
	if (!info->context) {
		r = failed(err, -EPROTO, ifname, "creating", 0, "reply without a context");
		goto out;
	}
	*ret_context = info->context;
out:
	free(buf);
	free(info);
	return r;
}

int np_rss_ctx_delete(struct np_ethnl *nl, const char *ifname, uint32_t context,
		      struct np_error *err)
{
	char buf[512];

	if (!context)
		return np_err(err, -EINVAL, NP_PHASE_APPLY, KNOB,
			      "%s: context 0 is the main table, it cannot be deleted", ifname);
	if (!nl || !np_ethnl_has_op(nl, NP_ETHTOOL_MSG_RSS_DELETE_ACT))
		return np_rss_ctx_ioctl_delete(ifname, context, err);
	if (!np_rss_ctx_enc_delete(buf, sizeof(buf), nl->family, ifname, context))
		return failed(err, -E2BIG, ifname, "deleting", context, "request too large");
	return roundtrip(nl, buf, NULL, false, ifname, "deleting", context, err);
}

int np_rss_ctx_get(struct np_ethnl *nl, const char *ifname, uint32_t context,
		   struct np_rss_ctx_info *ret, struct np_error *err)
{
	char buf[512];

	if (!nl || !np_ethnl_has_op(nl, NP_ETHTOOL_MSG_RSS_GET))
		return np_rss_ctx_ioctl_get(ifname, context, ret, err);
	if (!np_rss_ctx_enc_get(buf, sizeof(buf), nl->family, ifname, context))
		return failed(err, -E2BIG, ifname, "reading", context, "request too large");
	return roundtrip(nl, buf, ret, true, ifname, "reading", context, err);
}
