/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ethtool generic netlink over libmnl: one socket for the backend's life,
 * one round trip per operation (gets are ended by their reply, sets by their
 * ack, which carries the kernel's extack text on failure).  What the kernel
 * offers is read from the family's op list at open; an op the family lacks
 * goes to ioctl.c, an op the driver lacks is that knob's -EOPNOTSUPP.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "ethnl_compat.h"
#include "np_kernel.h"

/* RSS tables with their keys and the features string set are the big
 * replies; 64 KiB holds them with room to spare. */
#define BUF_SIZE (64 * 1024)
#define MAX_OPS 256
/* Enough slots for the widest attribute set we parse (COALESCE, RINGS). */
#define TB_SIZE 40

_Static_assert(ETHTOOL_A_COALESCE_RX_USECS + NP_COAL_CQE_MODE_RX ==
		       ETHTOOL_A_COALESCE_USE_CQE_MODE_RX,
	       "np_coal_field must follow the ETHTOOL_A_COALESCE_* order");
_Static_assert(NP_COAL__COUNT <= 32, "np_coalesce.supported is 32 bits");

struct np_ethnl {
	struct mnl_socket *sk;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;		/* 0: the kernel has no ethtool family */
	uint64_t ops[MAX_OPS / 64];	/* ETHTOOL_MSG_* the family implements */
	int sock_err;			/* the socket itself failed: no more requests */
	/* ETH_SS_FEATURES names, index = feature bit; global, read once. */
	char (*feat_names)[NP_FEATURE_NAME_LEN];
	unsigned n_feat_names;
	char *rbuf, *sbuf;
};

typedef int (*reply_fn)(const struct nlattr **tb, void *arg);

struct txn {
	reply_fn fn;
	void *arg;
	int perr;			/* first error parsing a reply */
	bool acked;			/* the request asked for an ack to end it */
	char extack[sizeof(((struct np_error *)0)->extack)];
};

/* --- attributes -------------------------------------------------------------- */

static int tb_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type < TB_SIZE)
		tb[type] = a;
	return MNL_CB_OK;
}

static int parse_nested(const struct nlattr *nest, const struct nlattr **tb)
{
	memset(tb, 0, TB_SIZE * sizeof(*tb));
	return mnl_attr_parse_nested(nest, tb_cb, tb) < 0 ? -EPROTO : 0;
}

static bool get_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return false;
	*v = mnl_attr_get_u32(a);
	return true;
}

static bool get_u8(const struct nlattr *a, uint8_t *v)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_U8) < 0)
		return false;
	*v = mnl_attr_get_u8(a);
	return true;
}

/* A NUL-terminated string attribute, or NULL. */
static const char *get_str(const struct nlattr *a)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return NULL;
	return mnl_attr_get_str(a);
}

/* --- transport ------------------------------------------------------------------ */

static bool has_op(const struct np_ethnl *nl, unsigned cmd)
{
	return nl->family && cmd < MAX_OPS && (nl->ops[cmd / 64] >> (cmd % 64)) & 1;
}

static struct nlmsghdr *req_start(struct np_ethnl *nl, uint16_t type, uint8_t cmd,
				  uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->sbuf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/* An ethtool request with its common header naming the device. */
static struct nlmsghdr *ethreq(struct np_ethnl *nl, uint8_t cmd, const char *ifname,
			       uint32_t flags)
{
	struct nlmsghdr *nlh = req_start(nl, nl->family, cmd, ETHTOOL_GENL_VERSION);
	struct nlattr *hdr;

	hdr = mnl_attr_nest_start(nlh, NP_ETHTOOL_A_HEADER | NLA_F_NESTED);
	if (ifname)
		mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	if (flags)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, flags);
	mnl_attr_nest_end(nlh, hdr);
	return nlh;
}

static void copy_extack(const struct nlmsghdr *nlh, struct txn *t)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	size_t off = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	/* Without NETLINK_CAP_ACK (refused by a very old kernel) the
	 * request comes back in full before the TLVs. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if (mnl_nlmsg_get_payload_len(nlh) < off)
		return;
	mnl_attr_for_each(a, nlh, off) {
		const char *msg;

		if (mnl_attr_get_type(a) != NLMSGERR_ATTR_MSG)
			continue;
		msg = get_str(a);
		if (msg)
			snprintf(t->extack, sizeof(t->extack), "%s", msg);
	}
}

/* Our reply, the ack or error that ends it: 1 more to come, 0 or -errno done. */
static int one_msg(const struct np_ethnl *nl, const struct nlmsghdr *nlh, uint32_t seq,
		   struct txn *t)
{
	const struct nlattr *tb[TB_SIZE] = { 0 };
	const struct nlmsgerr *e;
	int r;

	/* Leftovers of a request abandoned half-way carry an older seq. */
	if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != nl->portid)
		return 1;
	switch (nlh->nlmsg_type) {
	case NLMSG_NOOP:
	case NLMSG_OVERRUN:
		return 1;
	case NLMSG_DONE:
		return t->perr;
	case NLMSG_ERROR:
		if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
			return -EPROTO;
		e = mnl_nlmsg_get_payload(nlh);
		if (e->error) {
			copy_extack(nlh, t);
			return e->error < 0 ? e->error : -e->error;
		}
		return t->perr;
	}
	if (t->fn && !t->perr) {
		if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), tb_cb, tb) < 0)
			r = -EPROTO;
		else
			r = t->fn(tb, t->arg);
		if (r < 0)
			t->perr = r;
	}
	/* A get answers with exactly one message, or with an error. */
	return t->acked ? 1 : t->perr;
}

/*
 * Send the request built in sbuf and read until its ack.  Returns 0 or the
 * kernel's -errno (its message in t->extack).  A failing socket also sets
 * nl->sock_err, which callers treat as fatal rather than as a knob's error.
 */
static int transact(struct np_ethnl *nl, struct nlmsghdr *req, struct txn *t)
{
	uint32_t seq = req->nlmsg_seq;
	ssize_t n;
	int r;

	t->extack[0] = '\0';
	t->perr = 0;
	t->acked = req->nlmsg_flags & NLM_F_ACK;
	if (nl->sock_err)
		return nl->sock_err;
	if (mnl_socket_sendto(nl->sk, req, req->nlmsg_len) < 0)
		return nl->sock_err = -errno;
	for (;;) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)nl->rbuf;
		int len;

		n = mnl_socket_recvfrom(nl->sk, nl->rbuf, BUF_SIZE);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return nl->sock_err = -errno;
		}
		len = (int)n;
		for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
			r = one_msg(nl, nlh, seq, t);
			if (r <= 0)
				return r;
		}
	}
}

/* A set or an action: ends with an ack, with or without a reply before it. */
static int request(struct np_ethnl *nl, struct nlmsghdr *req, reply_fn fn, void *arg,
		   char *extack, size_t extack_len)
{
	struct txn t = { .fn = fn, .arg = arg };
	int r;

	r = transact(nl, req, &t);
	if (extack)
		snprintf(extack, extack_len, "%s", t.extack);
	return r;
}

/* A get ("do", not dump): its one reply ends it, so no ack is asked for and
 * the round trip costs one receive instead of two. */
static int get(struct np_ethnl *nl, struct nlmsghdr *req, reply_fn fn, void *arg)
{
	req->nlmsg_flags &= ~NLM_F_ACK;
	return request(nl, req, fn, arg, NULL, 0);
}

/* --- family ---------------------------------------------------------------------- */

static int family_cb(const struct nlattr **tb, void *arg)
{
	struct np_ethnl *nl = arg;
	const struct nlattr *op;

	if (!tb[CTRL_ATTR_FAMILY_ID] || mnl_attr_validate(tb[CTRL_ATTR_FAMILY_ID], MNL_TYPE_U16) < 0)
		return -EPROTO;
	nl->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (!tb[CTRL_ATTR_OPS])
		return 0;
	mnl_attr_for_each_nested(op, tb[CTRL_ATTR_OPS]) {
		const struct nlattr *otb[TB_SIZE];
		uint32_t id;

		if (parse_nested(op, otb) < 0 || !get_u32(otb[CTRL_ATTR_OP_ID], &id))
			continue;
		if (id < MAX_OPS)
			nl->ops[id / 64] |= UINT64_C(1) << (id % 64);
	}
	return 0;
}

static int resolve_family(struct np_ethnl *nl)
{
	struct nlmsghdr *nlh = req_start(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	int r;

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	r = get(nl, nlh, family_cb, nl);
	if (r < 0) {
		nl->family = 0;
		memset(nl->ops, 0, sizeof(nl->ops));
	}
	/* No such family: a kernel without CONFIG_ETHTOOL_NETLINK. */
	return r == -ENOENT && !nl->sock_err ? 0 : r;
}

void np_ethnl_close(struct np_ethnl *nl)
{
	if (!nl)
		return;
	if (nl->sk)
		mnl_socket_close(nl->sk);
	free(nl->feat_names);
	free(nl->rbuf);
	free(nl->sbuf);
	free(nl);
}

int np_ethnl_open(struct np_ethnl **ret, struct np_error *err)
{
	struct np_ethnl *nl;
	int one = 1, r;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	nl->rbuf = malloc(BUF_SIZE);
	nl->sbuf = malloc(BUF_SIZE);
	if (!nl->rbuf || !nl->sbuf) {
		r = np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
		goto fail;
	}
	nl->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sk) {
		r = np_err(err, -errno, NP_PHASE_DISCOVER, NULL, "generic netlink socket: %s",
			   strerror(errno));
		goto fail;
	}
	fcntl(mnl_socket_get_fd(nl->sk), F_SETFD, FD_CLOEXEC);
	/* Kernels before 4.12 refuse these; they then give no text, which is
	 * fine: errors still come back as numbers. */
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = np_err(err, -errno, NP_PHASE_DISCOVER, NULL, "generic netlink bind: %s",
			   strerror(errno));
		goto fail;
	}
	nl->portid = mnl_socket_get_portid(nl->sk);
	r = resolve_family(nl);
	if (r < 0) {
		np_err(err, r, NP_PHASE_DISCOVER, NULL, "ethtool netlink family: %s", strerror(-r));
		goto fail;
	}
	*ret = nl;
	return 0;
fail:
	np_ethnl_close(nl);
	return r;
}

/* --- reads ---------------------------------------------------------------------- */

static int linkmodes_cb(const struct nlattr **tb, void *arg)
{
	struct np_link *l = arg;
	uint32_t speed;

	if (get_u32(tb[ETHTOOL_A_LINKMODES_SPEED], &speed))
		l->speed = speed == (uint32_t)SPEED_UNKNOWN ? 0 : speed;
	if (!get_u8(tb[ETHTOOL_A_LINKMODES_DUPLEX], &l->duplex))
		l->duplex = DUPLEX_UNKNOWN;
	return 0;
}

static int linkstate_cb(const struct nlattr **tb, void *arg)
{
	struct np_link *l = arg;
	uint8_t link;

	/* Absent when the driver has no get_link: carrier unknown, false. */
	if (get_u8(tb[ETHTOOL_A_LINKSTATE_LINK], &link))
		l->carrier = link;
	return 0;
}

static int read_link(struct np_ethnl *nl, const char *ifname, struct np_link *l)
{
	int r;

	*l = (struct np_link){ .duplex = DUPLEX_UNKNOWN };
	if (!has_op(nl, ETHTOOL_MSG_LINKMODES_GET))
		return -EOPNOTSUPP;
	/* Compact: the link mode bitsets we skip are then a few words. */
	r = get(nl, ethreq(nl, ETHTOOL_MSG_LINKMODES_GET, ifname, ETHTOOL_FLAG_COMPACT_BITSETS),
		linkmodes_cb, l);
	if (r < 0)
		return r;
	if (has_op(nl, ETHTOOL_MSG_LINKSTATE_GET)) {
		r = get(nl, ethreq(nl, ETHTOOL_MSG_LINKSTATE_GET, ifname, 0), linkstate_cb, l);
		/* Carrier is a detail; only a vanished device or socket matters. */
		if (r == -ENODEV || nl->sock_err)
			return r;
	}
	return 0;
}

static int channels_cb(const struct nlattr **tb, void *arg)
{
	struct np_channels *c = arg;

	get_u32(tb[ETHTOOL_A_CHANNELS_RX_MAX], &c->max_rx);
	get_u32(tb[ETHTOOL_A_CHANNELS_TX_MAX], &c->max_tx);
	get_u32(tb[ETHTOOL_A_CHANNELS_OTHER_MAX], &c->max_other);
	get_u32(tb[ETHTOOL_A_CHANNELS_COMBINED_MAX], &c->max_combined);
	get_u32(tb[ETHTOOL_A_CHANNELS_RX_COUNT], &c->rx);
	get_u32(tb[ETHTOOL_A_CHANNELS_TX_COUNT], &c->tx);
	get_u32(tb[ETHTOOL_A_CHANNELS_OTHER_COUNT], &c->other);
	get_u32(tb[ETHTOOL_A_CHANNELS_COMBINED_COUNT], &c->combined);
	return 0;
}

static int read_channels(struct np_ethnl *nl, const char *ifname, struct np_channels *c)
{
	*c = (struct np_channels){ 0 };
	if (!has_op(nl, ETHTOOL_MSG_CHANNELS_GET))
		return np_ioctl_read_channels(ifname, c);
	return get(nl, ethreq(nl, ETHTOOL_MSG_CHANNELS_GET, ifname, 0), channels_cb, c);
}

static int rings_cb(const struct nlattr **tb, void *arg)
{
	struct np_rings *g = arg;

	get_u32(tb[ETHTOOL_A_RINGS_RX_MAX], &g->max_rx);
	get_u32(tb[ETHTOOL_A_RINGS_RX_MINI_MAX], &g->max_rx_mini);
	get_u32(tb[ETHTOOL_A_RINGS_RX_JUMBO_MAX], &g->max_rx_jumbo);
	get_u32(tb[ETHTOOL_A_RINGS_TX_MAX], &g->max_tx);
	get_u32(tb[ETHTOOL_A_RINGS_RX], &g->rx);
	get_u32(tb[ETHTOOL_A_RINGS_RX_MINI], &g->rx_mini);
	get_u32(tb[ETHTOOL_A_RINGS_RX_JUMBO], &g->rx_jumbo);
	get_u32(tb[ETHTOOL_A_RINGS_TX], &g->tx);
	return 0;
}

static int read_rings(struct np_ethnl *nl, const char *ifname, struct np_rings *g)
{
	*g = (struct np_rings){ 0 };
	if (!has_op(nl, ETHTOOL_MSG_RINGS_GET))
		return np_ioctl_read_rings(ifname, g);
	return get(nl, ethreq(nl, ETHTOOL_MSG_RINGS_GET, ifname, 0), rings_cb, g);
}

static bool coal_is_u8(unsigned f)
{
	return f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX ||
	       f == NP_COAL_CQE_MODE_TX || f == NP_COAL_CQE_MODE_RX;
}

static int coalesce_cb(const struct nlattr **tb, void *arg)
{
	struct np_coalesce *c = arg;

	/* The kernel includes exactly the fields the driver supports. */
	for (unsigned f = 0; f < NP_COAL__COUNT; f++) {
		const struct nlattr *a = tb[ETHTOOL_A_COALESCE_RX_USECS + f];
		uint8_t v8;
		bool ok;

		if (coal_is_u8(f)) {
			ok = get_u8(a, &v8);
			if (ok)
				c->val[f] = v8;
		} else {
			ok = get_u32(a, &c->val[f]);
		}
		if (ok)
			c->supported |= 1u << f;
	}
	return 0;
}

static int read_coalesce(struct np_ethnl *nl, const char *ifname, struct np_coalesce *c)
{
	*c = (struct np_coalesce){ 0 };
	if (!has_op(nl, ETHTOOL_MSG_COALESCE_GET))
		return np_ioctl_read_coalesce(ifname, c);
	return get(nl, ethreq(nl, ETHTOOL_MSG_COALESCE_GET, ifname, 0), coalesce_cb, c);
}

/* --- features ------------------------------------------------------------------- */

static int strset_cb(const struct nlattr **tb, void *arg)
{
	struct np_ethnl *nl = arg;
	const struct nlattr *set, *str;

	if (!tb[ETHTOOL_A_STRSET_STRINGSETS])
		return -EPROTO;
	mnl_attr_for_each_nested(set, tb[ETHTOOL_A_STRSET_STRINGSETS]) {
		const struct nlattr *stb[TB_SIZE];
		uint32_t id, count;

		if (parse_nested(set, stb) < 0 || !get_u32(stb[ETHTOOL_A_STRINGSET_ID], &id) ||
		    id != ETH_SS_FEATURES || !get_u32(stb[ETHTOOL_A_STRINGSET_COUNT], &count) ||
		    !stb[ETHTOOL_A_STRINGSET_STRINGS])
			continue;
		if (count > 4096)
			return -EPROTO;
		free(nl->feat_names);
		nl->feat_names = calloc(count ? count : 1, sizeof(*nl->feat_names));
		if (!nl->feat_names)
			return -ENOMEM;
		nl->n_feat_names = count;
		mnl_attr_for_each_nested(str, stb[ETHTOOL_A_STRINGSET_STRINGS]) {
			const struct nlattr *ttb[TB_SIZE];
			const char *name;
			uint32_t idx;

			if (parse_nested(str, ttb) < 0 ||
			    !get_u32(ttb[ETHTOOL_A_STRING_INDEX], &idx) || idx >= count)
				continue;
			name = get_str(ttb[ETHTOOL_A_STRING_VALUE]);
			if (name)
				snprintf(nl->feat_names[idx], NP_FEATURE_NAME_LEN, "%s", name);
		}
		return 0;
	}
	return -EPROTO;
}

/* Feature names are the kernel's, the same for every device: ask once. */
static int read_feature_names(struct np_ethnl *nl)
{
	struct nlmsghdr *nlh;
	struct nlattr *sets, *set;

	if (nl->feat_names)
		return 0;
	nlh = ethreq(nl, ETHTOOL_MSG_STRSET_GET, NULL, 0);
	sets = mnl_attr_nest_start(nlh, ETHTOOL_A_STRSET_STRINGSETS | NLA_F_NESTED);
	set = mnl_attr_nest_start(nlh, ETHTOOL_A_STRINGSETS_STRINGSET | NLA_F_NESTED);
	mnl_attr_put_u32(nlh, ETHTOOL_A_STRINGSET_ID, ETH_SS_FEATURES);
	mnl_attr_nest_end(nlh, set);
	mnl_attr_nest_end(nlh, sets);
	return get(nl, nlh, strset_cb, nl);
}

struct bitset {
	uint32_t nbits;
	const uint32_t *words;
};

static int compact_bitset(const struct nlattr *a, struct bitset *b)
{
	const struct nlattr *tb[TB_SIZE];

	*b = (struct bitset){ 0 };
	if (!a)
		return 0;
	if (parse_nested(a, tb) < 0 || !get_u32(tb[ETHTOOL_A_BITSET_SIZE], &b->nbits) ||
	    !tb[ETHTOOL_A_BITSET_VALUE])
		return -EPROTO;
	if (mnl_attr_get_payload_len(tb[ETHTOOL_A_BITSET_VALUE]) < (b->nbits + 31) / 32 * 4)
		return -EPROTO;
	b->words = mnl_attr_get_payload(tb[ETHTOOL_A_BITSET_VALUE]);
	return 0;
}

static bool bit(const struct bitset *b, unsigned i)
{
	return i < b->nbits && (b->words[i / 32] >> (i % 32)) & 1;
}

struct features_reply {
	const struct np_ethnl *nl;
	struct np_features *f;
};

static int features_cb(const struct nlattr **tb, void *arg)
{
	struct features_reply *fr = arg;
	const struct np_ethnl *nl = fr->nl;
	struct bitset hw, wanted, active, nochange;
	struct np_feature *v;
	unsigned n = 0;

	if (compact_bitset(tb[ETHTOOL_A_FEATURES_HW], &hw) < 0 ||
	    compact_bitset(tb[ETHTOOL_A_FEATURES_WANTED], &wanted) < 0 ||
	    compact_bitset(tb[ETHTOOL_A_FEATURES_ACTIVE], &active) < 0 ||
	    compact_bitset(tb[ETHTOOL_A_FEATURES_NOCHANGE], &nochange) < 0)
		return -EPROTO;
	v = calloc(nl->n_feat_names ? nl->n_feat_names : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (unsigned i = 0; i < nl->n_feat_names; i++) {
		if (!nl->feat_names[i][0])
			continue;
		memcpy(v[n].name, nl->feat_names[i], NP_FEATURE_NAME_LEN);
		v[n].wanted = bit(&wanted, i);
		v[n].active = bit(&active, i);
		/* As ethtool -k says "[fixed]". */
		v[n].fixed = !bit(&hw, i) || bit(&nochange, i);
		n++;
	}
	free(fr->f->v);
	fr->f->v = v;
	fr->f->n = n;
	return 0;
}

static int read_features(struct np_ethnl *nl, const char *ifname, struct np_features *f)
{
	struct features_reply fr = { .nl = nl, .f = f };
	int r;

	if (!has_op(nl, ETHTOOL_MSG_FEATURES_GET) || !has_op(nl, ETHTOOL_MSG_STRSET_GET))
		return -EOPNOTSUPP;
	r = read_feature_names(nl);
	if (r < 0)
		return r;
	r = get(nl, ethreq(nl, ETHTOOL_MSG_FEATURES_GET, ifname, ETHTOOL_FLAG_COMPACT_BITSETS),
		features_cb, &fr);
	if (r < 0) {
		free(f->v);
		f->v = NULL;
		f->n = 0;
	}
	return r;
}

/* --- RSS ------------------------------------------------------------------------ */

static int rss_cb(const struct nlattr **tb, void *arg)
{
	struct np_rss *rss = arg;
	const struct nlattr *indir = tb[NP_ETHTOOL_A_RSS_INDIR];
	const struct nlattr *key = tb[NP_ETHTOOL_A_RSS_HKEY];

	get_u32(tb[NP_ETHTOOL_A_RSS_HFUNC], &rss->hfunc);
	if (indir && mnl_attr_get_payload_len(indir) >= sizeof(uint32_t)) {
		rss->indir_size = mnl_attr_get_payload_len(indir) / sizeof(uint32_t);
		rss->indir = malloc(rss->indir_size * sizeof(uint32_t));
		if (!rss->indir)
			return -ENOMEM;
		memcpy(rss->indir, mnl_attr_get_payload(indir), rss->indir_size * sizeof(uint32_t));
	}
	if (key && mnl_attr_get_payload_len(key)) {
		rss->key_size = mnl_attr_get_payload_len(key);
		rss->key = malloc(rss->key_size);
		if (!rss->key)
			return -ENOMEM;
		memcpy(rss->key, mnl_attr_get_payload(key), rss->key_size);
	}
	return 0;
}

static int read_rss(struct np_ethnl *nl, const char *ifname, struct np_rss *rss)
{
	struct np_rss out = { 0 };
	int r;

	if (!has_op(nl, NP_ETHTOOL_MSG_RSS_GET))
		r = np_ioctl_read_rss(ifname, &out);
	else
		r = get(nl, ethreq(nl, NP_ETHTOOL_MSG_RSS_GET, ifname, 0), rss_cb, &out);
	if (r < 0) {
		free(out.indir);
		free(out.key);
		return r;
	}
	/* Netlink has no ring count; 0 (unknown) when the driver has no
	 * GRXRINGS either.  The ioctl path has read it already. */
	if (has_op(nl, NP_ETHTOOL_MSG_RSS_GET))
		np_ioctl_read_rx_rings(ifname, &out.rx_rings);
	*rss = out;
	return 0;
}

/* --- np_ethnl_read -------------------------------------------------------------- */

/* A knob's error is the knob's, except for a vanished device or a dead socket. */
static int knob_done(struct np_ethnl *nl, const struct np_dev *dev, int r, int *knob_err,
		     const char *what, struct np_error *err)
{
	*knob_err = r < 0 ? r : 0;
	if (r == -ENODEV)
		return np_err(err, r, NP_PHASE_DISCOVER, NULL,
			      "device %s vanished while reading its %s", dev->ifname, what);
	if (r == -ENOMEM)
		return np_err(err, r, NP_PHASE_DISCOVER, NULL, "out of memory");
	if (nl->sock_err)
		return np_err(err, nl->sock_err, NP_PHASE_DISCOVER, NULL,
			      "ethtool netlink socket: %s", strerror(-nl->sock_err));
	return 0;
}

int np_ethnl_read(struct np_ethnl *nl, struct np_dev *dev, struct np_error *err)
{
	const char *ifname = dev->ifname;
	int drv_err, r;

	free(dev->features.v);
	free(dev->rss.indir);
	free(dev->rss.key);
	dev->features = (struct np_features){ 0 };
	dev->rss = (struct np_rss){ 0 };

	/* No netlink op for driver info even in new kernels. */
	r = np_ioctl_read_drvinfo(ifname, dev->driver, sizeof(dev->driver), dev->bus_info,
				  sizeof(dev->bus_info));
	r = knob_done(nl, dev, r, &drv_err, "driver info", err);
	if (r < 0)
		return r;

	r = read_link(nl, ifname, &dev->link);
	r = knob_done(nl, dev, r, &dev->link.err, "link state", err);
	if (r < 0)
		return r;
	r = read_channels(nl, ifname, &dev->channels);
	r = knob_done(nl, dev, r, &dev->channels.err, "channels", err);
	if (r < 0)
		return r;
	r = read_rings(nl, ifname, &dev->rings);
	r = knob_done(nl, dev, r, &dev->rings.err, "rings", err);
	if (r < 0)
		return r;
	r = read_coalesce(nl, ifname, &dev->coalesce);
	r = knob_done(nl, dev, r, &dev->coalesce.err, "coalescing", err);
	if (r < 0)
		return r;
	r = read_features(nl, ifname, &dev->features);
	r = knob_done(nl, dev, r, &dev->features.err, "features", err);
	if (r < 0)
		return r;
	r = read_rss(nl, ifname, &dev->rss);
	return knob_done(nl, dev, r, &dev->rss.err, "RSS table", err);
}

/* --- setters -------------------------------------------------------------------- */

/*
 * The kernel's words make the best message: without a subject they are our
 * message too ("channels: requested channel count exceeds maximum"), with
 * one they follow it ("features: rx-foo: bit name not found").
 */
static int set_failed(struct np_error *err, int r, const char *knob, const char *subject,
		      const char *extack)
{
	if (err && err->code)
		return r;
	if (extack && extack[0]) {
		if (subject)
			np_err(err, r, NP_PHASE_APPLY, knob, "%s", subject);
		else
			np_err(err, r, NP_PHASE_APPLY, knob, "%s", extack);
		np_err_extack(err, extack);
		return r;
	}
	if (subject)
		return np_err(err, r, NP_PHASE_APPLY, knob, "%s: %s", subject, strerror(-r));
	return np_err(err, r, NP_PHASE_APPLY, knob, "%s", strerror(-r));
}

int np_ethnl_set_channels(struct np_ethnl *nl, const struct np_dev *dev,
			  const struct np_channels *want, struct np_error *err)
{
	const struct np_channels *lim = dev->channels.err ? want : &dev->channels;
	char extack[sizeof(err->extack)] = "";
	struct nlmsghdr *nlh;
	int r;

	if (!has_op(nl, ETHTOOL_MSG_CHANNELS_SET)) {
		r = np_ioctl_set_channels(dev->ifname, want);
	} else {
		nlh = ethreq(nl, ETHTOOL_MSG_CHANNELS_SET, dev->ifname, 0);
		/* A kind the device does not have (max 0) is left out: the
		 * kernel would refuse even a zero for some drivers. */
		if (lim->max_rx)
			mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_RX_COUNT, want->rx);
		if (lim->max_tx)
			mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_TX_COUNT, want->tx);
		if (lim->max_other)
			mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_OTHER_COUNT, want->other);
		if (lim->max_combined)
			mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, want->combined);
		r = request(nl, nlh, NULL, NULL, extack, sizeof(extack));
	}
	return r < 0 ? set_failed(err, r, "channels", NULL, extack) : 0;
}

int np_ethnl_set_rings(struct np_ethnl *nl, const struct np_dev *dev, const struct np_rings *want,
		       struct np_error *err)
{
	const struct np_rings *lim = dev->rings.err ? want : &dev->rings;
	char extack[sizeof(err->extack)] = "";
	struct nlmsghdr *nlh;
	int r;

	if (!has_op(nl, ETHTOOL_MSG_RINGS_SET)) {
		r = np_ioctl_set_rings(dev->ifname, want);
	} else {
		nlh = ethreq(nl, ETHTOOL_MSG_RINGS_SET, dev->ifname, 0);
		if (lim->max_rx)
			mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX, want->rx);
		if (lim->max_rx_mini)
			mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX_MINI, want->rx_mini);
		if (lim->max_rx_jumbo)
			mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX_JUMBO, want->rx_jumbo);
		if (lim->max_tx)
			mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_TX, want->tx);
		r = request(nl, nlh, NULL, NULL, extack, sizeof(extack));
	}
	return r < 0 ? set_failed(err, r, "rings", NULL, extack) : 0;
}

int np_ethnl_set_coalesce(struct np_ethnl *nl, const struct np_dev *dev,
			  const struct np_coalesce *want, uint32_t fields, struct np_error *err)
{
	char extack[sizeof(err->extack)] = "";
	struct nlmsghdr *nlh;
	int r;

	fields &= (UINT64_C(1) << NP_COAL__COUNT) - 1;
	if (!fields)
		return 0;
	if (!has_op(nl, ETHTOOL_MSG_COALESCE_SET)) {
		r = np_ioctl_set_coalesce(dev->ifname, want, fields);
	} else {
		nlh = ethreq(nl, ETHTOOL_MSG_COALESCE_SET, dev->ifname, 0);
		for (unsigned f = 0; f < NP_COAL__COUNT; f++) {
			if (!(fields & (1u << f)))
				continue;
			if (coal_is_u8(f))
				mnl_attr_put_u8(nlh, ETHTOOL_A_COALESCE_RX_USECS + f, !!want->val[f]);
			else
				mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_RX_USECS + f, want->val[f]);
		}
		r = request(nl, nlh, NULL, NULL, extack, sizeof(extack));
	}
	return r < 0 ? set_failed(err, r, "coalesce", NULL, extack) : 0;
}

struct feature_set {
	const char *name;
	bool refused;
};

/* The reply lists, in WANTED, the requested bits that did not take. */
static int feature_set_cb(const struct nlattr **tb, void *arg)
{
	struct feature_set *fs = arg;
	const struct nlattr *btb[TB_SIZE], *b;

	if (!tb[ETHTOOL_A_FEATURES_WANTED] || parse_nested(tb[ETHTOOL_A_FEATURES_WANTED], btb) < 0 ||
	    !btb[ETHTOOL_A_BITSET_BITS])
		return 0;
	mnl_attr_for_each_nested(b, btb[ETHTOOL_A_BITSET_BITS]) {
		const struct nlattr *ttb[TB_SIZE];
		const char *name;

		if (parse_nested(b, ttb) < 0)
			continue;
		name = get_str(ttb[ETHTOOL_A_BITSET_BIT_NAME]);
		if (name && !strcmp(name, fs->name))
			fs->refused = true;
	}
	return 0;
}

int np_ethnl_set_feature(struct np_ethnl *nl, const struct np_dev *dev, const char *name,
			 bool on, struct np_error *err)
{
	char extack[sizeof(err->extack)] = "";
	struct feature_set fs = { .name = name };
	struct nlattr *wanted, *bits, *b;
	struct nlmsghdr *nlh;
	int r;

	if (!has_op(nl, ETHTOOL_MSG_FEATURES_SET))
		return np_err(err, -EOPNOTSUPP, NP_PHASE_APPLY, "features",
			      "%s: the kernel has no ethtool netlink", name);
	if (!name || strlen(name) >= NP_FEATURE_NAME_LEN)
		return np_err(err, -EINVAL, NP_PHASE_APPLY, "features", "invalid feature name");
	/* Verbose, with a mask: only this one bit changes, and the reply
	 * names it when the kernel could not honour it. */
	nlh = ethreq(nl, ETHTOOL_MSG_FEATURES_SET, dev->ifname, 0);
	wanted = mnl_attr_nest_start(nlh, ETHTOOL_A_FEATURES_WANTED | NLA_F_NESTED);
	bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS | NLA_F_NESTED);
	b = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS_BIT | NLA_F_NESTED);
	mnl_attr_put_strz(nlh, ETHTOOL_A_BITSET_BIT_NAME, name);
	if (on)
		mnl_attr_put(nlh, ETHTOOL_A_BITSET_BIT_VALUE, 0, "");
	mnl_attr_nest_end(nlh, b);
	mnl_attr_nest_end(nlh, bits);
	mnl_attr_nest_end(nlh, wanted);
	r = request(nl, nlh, feature_set_cb, &fs, extack, sizeof(extack));
	if (r < 0)
		return set_failed(err, r, "features", name, extack);
	if (fs.refused)
		return np_err(err, -EOPNOTSUPP, NP_PHASE_APPLY, "features",
			      "%s could not be turned %s (fixed, or held by another feature)",
			      name, on ? "on" : "off");
	return 0;
}

int np_ethnl_set_rss_indir(struct np_ethnl *nl, const struct np_dev *dev, const uint32_t *indir,
			   uint32_t n, struct np_error *err)
{
	char extack[sizeof(err->extack)] = "";
	struct nlmsghdr *nlh;
	int r;

	if (n > (BUF_SIZE - 256) / sizeof(uint32_t))
		return np_err(err, -E2BIG, NP_PHASE_APPLY, "rss",
			      "indirection table of %u entries is too large", n);
	if (has_op(nl, NP_ETHTOOL_MSG_RSS_SET)) {
		nlh = ethreq(nl, NP_ETHTOOL_MSG_RSS_SET, dev->ifname, 0);
		/* An empty table asks for the driver's default. */
		mnl_attr_put(nlh, NP_ETHTOOL_A_RSS_INDIR, (size_t)n * sizeof(uint32_t),
			     n ? (const void *)indir : (const void *)"");
		r = request(nl, nlh, NULL, NULL, extack, sizeof(extack));
	} else {
		/* The ioctl takes only a table of the device's exact size. */
		if (n && !dev->rss.err && dev->rss.indir_size && n != dev->rss.indir_size)
			return np_err(err, -EINVAL, NP_PHASE_APPLY, "rss",
				      "indirection table has %u entries, the device's has %u", n,
				      dev->rss.indir_size);
		r = np_ioctl_set_rss_indir(dev->ifname, indir, n);
	}
	return r < 0 ? set_failed(err, r, "rss", NULL, extack) : 0;
}
