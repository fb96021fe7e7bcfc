/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Extra RSS contexts over SIOCETHTOOL (~4.17): ETHTOOL_SRSSH with
 * rss_context ETH_RXFH_CONTEXT_ALLOC creates one and returns its number in
 * rss_context; indir_size 0 on a context other than 0 deletes it;
 * ETHTOOL_GRSSH with rss_context reads one (include/uapi/linux/ethtool.h,
 * struct ethtool_rxfh).  What ethnl/rss_ctx.c falls back to when the
 * ethtool family has no RSS_CREATE_ACT (kernels before 6.17).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethnl.h"
#include "../np_steer.h"

_Static_assert(sizeof(struct ethtool_rxfh) == 24, "uapi ethtool_rxfh layout");
_Static_assert(offsetof(struct ethtool_rxfh, hfunc) == 16, "uapi ethtool_rxfh layout");
_Static_assert(offsetof(struct ethtool_rxfh, rss_config) == 24, "uapi ethtool_rxfh layout");

#define KNOB "rss-context"

size_t np_rss_ctx_srssh_size(uint32_t n_indir, uint32_t key_len)
{
	return sizeof(struct ethtool_rxfh) + (size_t)n_indir * sizeof(uint32_t) + key_len;
}

int np_rss_ctx_enc_srssh_create(const struct np_rss_ctx_req *req, void *buf, size_t len)
{
	struct ethtool_rxfh *rxfh = buf;

	if (len < np_rss_ctx_srssh_size(req->n_indir, req->key_len) || req->hfunc > UINT8_MAX ||
	    req->input_xfrm > UINT8_MAX)
		return -EINVAL;
	memset(buf, 0, np_rss_ctx_srssh_size(req->n_indir, req->key_len));
	rxfh->cmd = ETHTOOL_SRSSH;
	rxfh->rss_context = req->context ? req->context : ETH_RXFH_CONTEXT_ALLOC;
	/* No table: leave the driver's default spread, as "ethtool -X DEV
	 * context new" without weights does. */
	rxfh->indir_size = req->n_indir ? req->n_indir : ETH_RXFH_INDIR_NO_CHANGE;
	rxfh->key_size = req->key_len;
	rxfh->hfunc = (uint8_t)req->hfunc;
	/* input_xfrm is the byte after hfunc since 6.8 (rsvd8[0] before). */
	rxfh->rsvd8[0] = (uint8_t)req->input_xfrm;
	if (req->n_indir)
		memcpy(rxfh->rss_config, req->indir, (size_t)req->n_indir * sizeof(uint32_t));
	if (req->key_len)
		memcpy((uint8_t *)rxfh->rss_config + (size_t)req->n_indir * sizeof(uint32_t),
		       req->key, req->key_len);
	return 0;
}

void np_rss_ctx_enc_srssh_delete(uint32_t context, struct ethtool_rxfh *out)
{
	memset(out, 0, sizeof(*out));
	out->cmd = ETHTOOL_SRSSH;
	out->rss_context = context;
	out->indir_size = 0;
}

int np_rss_ctx_dec_srssh(const void *buf, size_t len, uint32_t *ret_context)
{
	struct ethtool_rxfh rxfh;

	if (len < sizeof(rxfh))
		return -EPROTO;
	memcpy(&rxfh, buf, sizeof(rxfh));
	/* A created context is never 0 (the main table) nor still ALLOC. */
	if (rxfh.cmd != ETHTOOL_SRSSH || rxfh.rss_context == 0 ||
	    rxfh.rss_context == ETH_RXFH_CONTEXT_ALLOC)
		return -EPROTO;
	*ret_context = rxfh.rss_context;
	return 0;
}

static int failed(struct np_error *err, int r, const char *ifname, const char *what,
		  uint32_t context)
{
	return np_err(err, r, NP_PHASE_APPLY, KNOB, "%s: %s RSS context %u: %s%s", ifname, what,
		      context, strerror(-r),
		      r == -EOPNOTSUPP ? " (driver has no extra RSS contexts)" : "");
}

int np_rss_ctx_ioctl_create(const char *ifname, const struct np_rss_ctx_req *req,
			    uint32_t *ret_context, struct np_error *err)
{
	size_t len = np_rss_ctx_srssh_size(req->n_indir, req->key_len);
	void *buf = malloc(len);
	int r;

	if (!buf)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, KNOB, "out of memory");
	r = np_rss_ctx_enc_srssh_create(req, buf, len);
	if (r == 0)
		r = np_ethtool_ioctl(ifname, buf);
	if (r == 0)
		r = np_rss_ctx_dec_srssh(buf, len, ret_context);
	free(buf);
	if (r < 0)
		return failed(err, r, ifname, "creating", req->context);
	return 0;
}

int np_rss_ctx_ioctl_delete(const char *ifname, uint32_t context, struct np_error *err)
{
	struct ethtool_rxfh rxfh;
	int r;

	if (!context)
		return np_err(err, -EINVAL, NP_PHASE_APPLY, KNOB,
			      "%s: context 0 is the main table, it cannot be deleted", ifname);
	np_rss_ctx_enc_srssh_delete(context, &rxfh);
	r = np_ethtool_ioctl(ifname, &rxfh);
	if (r < 0)
		return failed(err, r, ifname, "deleting", context);
	return 0;
}

int np_rss_ctx_ioctl_get(const char *ifname, uint32_t context, struct np_rss_ctx_info *ret,
			 struct np_error *err)
{
	struct ethtool_rxfh head = { .cmd = ETHTOOL_GRSSH, .rss_context = context };
	struct ethtool_rxfh *rxfh = NULL;
	size_t len;
	int r;

	/* Sizes first, then the contents (as ioctl.c reads the main table). */
	r = np_ethtool_ioctl(ifname, &head);
	if (r < 0)
		return failed(err, r, ifname, "reading", context);
	if (head.indir_size > NP_RSS_CTX_INDIR_MAX || head.key_size > NP_RSS_CTX_KEY_MAX)
		return failed(err, -EPROTO, ifname, "reading", context);
	len = np_rss_ctx_srssh_size(head.indir_size, head.key_size);
	rxfh = calloc(1, len);
	if (!rxfh)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, KNOB, "out of memory");
	*rxfh = head;
	r = np_ethtool_ioctl(ifname, rxfh);
	if (r == 0 && (rxfh->indir_size != head.indir_size || rxfh->key_size != head.key_size))
		r = -EPROTO;
	if (r < 0) {
		free(rxfh);
		return failed(err, r, ifname, "reading", context);
	}
	memset(ret, 0, sizeof(*ret));
	snprintf(ret->ifname, sizeof(ret->ifname), "%s", ifname);
	ret->context = context;
	ret->hfunc = rxfh->hfunc;
	ret->input_xfrm = rxfh->rsvd8[0];
	ret->n_indir = rxfh->indir_size;
	memcpy(ret->indir, rxfh->rss_config, (size_t)ret->n_indir * sizeof(uint32_t));
	ret->key_len = rxfh->key_size;
	memcpy(ret->key, (uint8_t *)rxfh->rss_config + (size_t)ret->n_indir * sizeof(uint32_t),
	       ret->key_len);
	free(rxfh);
	return 0;
}
