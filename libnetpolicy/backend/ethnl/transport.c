/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ethtool generic netlink over libmnl: one socket for the backend's life,
 * one round trip per operation (gets are ended by their reply, sets by their
 * ack, which carries the kernel's extack text on failure).  What the kernel
 * offers is read from the family's op list at open; an op the family lacks
 * goes to that operation's ioctl fallback, an op the driver lacks is that
 * knob's -EOPNOTSUPP.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethnl.h"

struct txn {
	np_ethnl_reply_fn fn;
	void *arg;
	int perr;			/* first error parsing a reply */
	bool acked;			/* the request asked for an ack to end it */
	char extack[sizeof(((struct np_error *)0)->extack)];
};

/* --- attributes -------------------------------------------------------------- */

struct tb_arg {
	const struct nlattr **tb;
	unsigned max;
};

static int tb_cb(const struct nlattr *a, void *data)
{
	const struct tb_arg *t = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type <= t->max)
		t->tb[type] = a;
	return MNL_CB_OK;
}

/*
 * Not mnl_nlmsg_ok() + mnl_attr_parse(): the first compares nlmsg_len as an
 * int, so a length with the top bit set passes, and the second walks the
 * attributes up to the *aligned* nlmsg_len, up to 3 bytes past a message
 * whose length is not a multiple of 4.  Here nlmsg_len must lie within the
 * bytes given and every attribute within nlmsg_len; bytes after the last
 * attribute that are not one are a message cut short.
 */
int np_ethnl_attrs(const void *msg, size_t len, const struct nlattr **tb, unsigned max)
{
	const size_t hdr = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct genlmsghdr));
	const struct nlmsghdr *nlh = msg;
	const struct nlattr *a;
	size_t rem;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (len < hdr || nlh->nlmsg_len < hdr || nlh->nlmsg_len > len)
		return -EPROTO;
	a = (const struct nlattr *)((const char *)msg + hdr);
	rem = nlh->nlmsg_len - hdr;
	while (rem > 0) {
		size_t step;

		if (rem < sizeof(*a) || a->nla_len < sizeof(*a) || a->nla_len > rem)
			return -EPROTO;
		if (mnl_attr_get_type(a) <= max)
			tb[mnl_attr_get_type(a)] = a;
		step = MNL_ALIGN(a->nla_len);
		if (step >= rem)
			break;		/* the last one, its padding cut off */
		rem -= step;
		a = (const struct nlattr *)((const char *)a + step);
	}
	return 0;
}

int np_ethnl_nested(const struct nlattr *nest, const struct nlattr **tb, unsigned max)
{
	struct tb_arg t = { tb, max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return mnl_attr_parse_nested(nest, tb_cb, &t) < 0 ? -EPROTO : 0;
}

bool np_ethnl_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return false;
	*v = mnl_attr_get_u32(a);
	return true;
}

bool np_ethnl_u8(const struct nlattr *a, uint8_t *v)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_U8) < 0)
		return false;
	*v = mnl_attr_get_u8(a);
	return true;
}

bool np_ethnl_uint(const struct nlattr *a, uint64_t *v)
{
	if (!a)
		return false;
	if (mnl_attr_get_payload_len(a) == sizeof(uint32_t)) {
		*v = mnl_attr_get_u32(a);
		return true;
	}
	if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
		return false;
	*v = mnl_attr_get_u64(a);
	return true;
}

const char *np_ethnl_str(const struct nlattr *a)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return NULL;
	return mnl_attr_get_str(a);
}

/* --- requests ------------------------------------------------------------------ */

bool np_ethnl_has_op(const struct np_ethnl *nl, unsigned cmd)
{
	return nl->family && cmd < NP_ETHNL_MAX_OPS && (nl->ops[cmd / 64] >> (cmd % 64)) & 1;
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

struct nlmsghdr *np_genl_req(struct np_ethnl *nl, uint16_t family, uint8_t cmd,
			     uint8_t version)
{
	return req_start(nl, family, cmd, version);
}

struct nlmsghdr *np_ethnl_req(struct np_ethnl *nl, uint8_t cmd, const char *ifname,
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
		msg = np_ethnl_str(a);
		if (msg)
			snprintf(t->extack, sizeof(t->extack), "%s", msg);
	}
}

/* Our reply, the ack or error that ends it: 1 more to come, 0 or -errno done. */
static int one_msg(const struct np_ethnl *nl, const struct nlmsghdr *nlh, uint32_t seq,
		   struct txn *t)
{
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
		r = t->fn(nlh, nlh->nlmsg_len, t->arg);
		if (r < 0)
			t->perr = r;
	}
	/* A get answers with exactly one message, or with an error. */
	return t->acked ? 1 : t->perr;
}

/*
 * Send the request built in sbuf and read until its ack.  Returns 0 or the
 * kernel's -errno (its message in t->extack).  A failing socket call also
 * sets nl->sock_err, which callers treat as the failure of the whole
 * operation rather than as a knob's error.
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

		n = mnl_socket_recvfrom(nl->sk, nl->rbuf, NP_ETHNL_BUF_SIZE);
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

int np_ethnl_request(struct np_ethnl *nl, struct nlmsghdr *req, np_ethnl_reply_fn fn,
		     void *arg, char *extack, size_t extack_len)
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
int np_ethnl_get(struct np_ethnl *nl, struct nlmsghdr *req, np_ethnl_reply_fn fn, void *arg)
{
	req->nlmsg_flags &= ~NLM_F_ACK;
	return np_ethnl_request(nl, req, fn, arg, NULL, 0);
}

/* A dump is ended by NLMSG_DONE (which carries its error), not by an ack:
 * the kernel sends none for a dump, so one_msg keeps reading until DONE. */
int np_ethnl_dump(struct np_ethnl *nl, struct nlmsghdr *req, np_ethnl_reply_fn fn, void *arg)
{
	req->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK;
	return np_ethnl_request(nl, req, fn, arg, NULL, 0);
}

/*
 * The kernel's words make the best message: without a subject they are our
 * message too ("channels: requested channel count exceeds maximum"), with
 * one they follow it ("features: rx-foo: bit name not found").
 */
int np_ethnl_set_failed(struct np_error *err, int r, const char *knob, const char *subject,
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

/*
 * A socket error is transient as often as not (ENOBUFS when the receive
 * queue overran, ENOMEM for an skb, EINTR): it fails the operation that met
 * it, never the ones after it, the rollback of that operation first.  The
 * socket stays usable: a reply left queued by the failed request carries an
 * older sequence number, which one_msg() skips.
 */
void np_ethnl_op_start(struct np_ethnl *nl)
{
	nl->sock_err = 0;
}

/* --- the family: resolved once per socket ------------------------------------- */

struct family {
	uint16_t *id;
	uint64_t *ops;
	unsigned max_ops;
	const char *group_name;	/* the multicast group to find, or NULL */
	uint32_t *group;
};

/* The id of the multicast group named fam->group_name, from the family's
 * CTRL_ATTR_MCAST_GROUPS (genetlink.h): what `watch` joins. */
static void family_group(const struct nlattr *groups, const struct family *fam)
{
	const struct nlattr *grp;

	mnl_attr_for_each_nested(grp, groups) {
		const struct nlattr *gtb[CTRL_ATTR_MCAST_GRP_MAX + 1];
		uint32_t id;

		if (np_ethnl_nested(grp, gtb, CTRL_ATTR_MCAST_GRP_MAX) < 0 ||
		    !gtb[CTRL_ATTR_MCAST_GRP_NAME] ||
		    mnl_attr_validate(gtb[CTRL_ATTR_MCAST_GRP_NAME], MNL_TYPE_NUL_STRING) < 0 ||
		    !np_ethnl_u32(gtb[CTRL_ATTR_MCAST_GRP_ID], &id))
			continue;
		if (!strcmp(mnl_attr_get_str(gtb[CTRL_ATTR_MCAST_GRP_NAME]), fam->group_name))
			*fam->group = id;
	}
}

static int family_cb(const void *msg, size_t len, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1], *op;
	const struct family *fam = arg;

	if (np_ethnl_attrs(msg, len, tb, CTRL_ATTR_MAX) < 0)
		return -EPROTO;
	if (!tb[CTRL_ATTR_FAMILY_ID] || mnl_attr_validate(tb[CTRL_ATTR_FAMILY_ID], MNL_TYPE_U16) < 0)
		return -EPROTO;
	*fam->id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (fam->group_name && tb[CTRL_ATTR_MCAST_GROUPS])
		family_group(tb[CTRL_ATTR_MCAST_GROUPS], fam);
	if (!tb[CTRL_ATTR_OPS])
		return 0;
	mnl_attr_for_each_nested(op, tb[CTRL_ATTR_OPS]) {
		const struct nlattr *otb[CTRL_ATTR_OP_MAX + 1];
		uint32_t id;

		if (np_ethnl_nested(op, otb, CTRL_ATTR_OP_MAX) < 0 ||
		    !np_ethnl_u32(otb[CTRL_ATTR_OP_ID], &id))
			continue;
		if (id < fam->max_ops)
			fam->ops[id / 64] |= UINT64_C(1) << (id % 64);
	}
	return 0;
}

static int resolve(struct np_ethnl *nl, const char *name, uint16_t *id, uint64_t *ops,
		   unsigned max_ops, const char *group_name, uint32_t *group)
{
	struct nlmsghdr *nlh = req_start(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	struct family fam = { id, ops, max_ops, group_name, group };
	int r;

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	r = np_ethnl_get(nl, nlh, family_cb, &fam);
	if (r < 0) {
		*id = 0;
		memset(ops, 0, max_ops / 8);
	}
	/* No such family: a kernel without it (CONFIG_ETHTOOL_NETLINK off;
	 * netdev before 6.0). */
	return r == -ENOENT && !nl->sock_err ? 0 : r;
}

static int resolve_family(struct np_ethnl *nl)
{
	int r = resolve(nl, ETHTOOL_GENL_NAME, &nl->family, nl->ops, NP_ETHNL_MAX_OPS,
			ETHTOOL_MCGRP_MONITOR_NAME, &nl->monitor_group);

	if (r < 0)
		return r;
	return resolve(nl, NP_NETDEV_FAMILY_NAME, &nl->nd_family, &nl->nd_ops, 64, NULL, NULL);
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
	nl->rbuf = malloc(NP_ETHNL_BUF_SIZE);
	nl->sbuf = malloc(NP_ETHNL_BUF_SIZE);
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
