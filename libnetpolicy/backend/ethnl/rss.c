/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The RSS indirection table and key (ethtool -x/-X): RSS_GET (6.2) and
 * RSS_SET (6.17), or ETHTOOL_GRSSH / ETHTOOL_SRXFHINDIR; the ring count RSS
 * may spread over from ETHTOOL_GRXRINGS, which netlink has no op for. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ethnl.h"

int np_ethnl_parse_rss(const void *msg, size_t len, struct np_rss *rss)
{
	const struct nlattr *tb[NP_ETHTOOL_A_RSS_MAX + 1], *indir, *key;

	if (np_ethnl_attrs(msg, len, tb, NP_ETHTOOL_A_RSS_MAX) < 0)
		return -EPROTO;
	indir = tb[NP_ETHTOOL_A_RSS_INDIR];
	key = tb[NP_ETHTOOL_A_RSS_HKEY];
	np_ethnl_u32(tb[NP_ETHTOOL_A_RSS_HFUNC], &rss->hfunc);
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

static int rss_cb(const void *msg, size_t len, void *arg)
{
	return np_ethnl_parse_rss(msg, len, arg);
}

static int ioctl_read_rx_rings(const char *ifname, uint32_t *ret)
{
	struct ethtool_rxnfc nfc = { .cmd = ETHTOOL_GRXRINGS };
	int r;

	r = np_ethtool_ioctl(ifname, &nfc);
	if (r < 0)
		return r;
	*ret = (uint32_t)nfc.data;
	return 0;
}

static int ioctl_read(const char *ifname, struct np_rss *ret)
{
	struct ethtool_rxfh head = { .cmd = ETHTOOL_GRSSH };
	struct ethtool_rxfh *rxfh = NULL;
	struct np_rss out = { 0 };
	size_t indir_bytes;
	int r;

	/* First ask for the sizes only, then for the contents. */
	r = np_ethtool_ioctl(ifname, &head);
	if (r < 0)
		return r;
	indir_bytes = (size_t)head.indir_size * sizeof(uint32_t);
	rxfh = calloc(1, sizeof(*rxfh) + indir_bytes + head.key_size);
	if (!rxfh)
		return -ENOMEM;
	rxfh->cmd = ETHTOOL_GRSSH;
	rxfh->indir_size = head.indir_size;
	rxfh->key_size = head.key_size;
	r = np_ethtool_ioctl(ifname, rxfh);
	if (r < 0)
		goto out;
	/* A table that changed size between the calls: the kernel answers with
	 * EINVAL, which is the right answer for a device in flux. */
	out.hfunc = rxfh->hfunc;
	out.indir_size = rxfh->indir_size;
	out.key_size = rxfh->key_size;
	if (out.indir_size) {
		out.indir = malloc(indir_bytes);
		if (!out.indir) {
			r = -ENOMEM;
			goto out;
		}
		memcpy(out.indir, rxfh->rss_config, indir_bytes);
	}
	if (out.key_size) {
		out.key = malloc(out.key_size);
		if (!out.key) {
			free(out.indir);
			r = -ENOMEM;
			goto out;
		}
		memcpy(out.key, (char *)rxfh->rss_config + indir_bytes, out.key_size);
	}
	/* rx_rings stays 0 (unknown) for drivers without GRXRINGS. */
	ioctl_read_rx_rings(ifname, &out.rx_rings);
	*ret = out;
out:
	free(rxfh);
	return r;
}

static int ioctl_set_indir(const char *ifname, const uint32_t *indir, uint32_t n)
{
	struct ethtool_rxfh_indir *ri;
	int r;

	if (n > (1u << 20))
		return -EINVAL;
	ri = calloc(1, sizeof(*ri) + (size_t)n * sizeof(uint32_t));
	if (!ri)
		return -ENOMEM;
	ri->cmd = ETHTOOL_SRXFHINDIR;
	/* size 0 asks the kernel for the driver's default table. */
	ri->size = n;
	if (n)
		memcpy(ri->ring_index, indir, (size_t)n * sizeof(uint32_t));
	r = np_ethtool_ioctl(ifname, ri);
	free(ri);
	return r;
}

int np_ethnl_read_rss(struct np_ethnl *nl, const char *ifname, struct np_rss *rss)
{
	struct np_rss out = { 0 };
	int r;

	if (!np_ethnl_has_op(nl, NP_ETHTOOL_MSG_RSS_GET))
		r = ioctl_read(ifname, &out);
	else
		r = np_ethnl_get(nl, np_ethnl_req(nl, NP_ETHTOOL_MSG_RSS_GET, ifname, 0), rss_cb,
				 &out);
	if (r < 0) {
		free(out.indir);
		free(out.key);
		return r;
	}
	/* Netlink has no ring count; 0 (unknown) when the driver has no
	 * GRXRINGS either.  The ioctl path has read it already. */
	if (np_ethnl_has_op(nl, NP_ETHTOOL_MSG_RSS_GET))
		ioctl_read_rx_rings(ifname, &out.rx_rings);
	*rss = out;
	return 0;
}

int np_ethnl_set_rss_indir(struct np_ethnl *nl, const struct np_dev *dev, const uint32_t *indir,
			   uint32_t n, struct np_error *err)
{
	char extack[sizeof(err->extack)] = "";
	struct nlmsghdr *nlh;
	int r;

	if (n > (NP_ETHNL_BUF_SIZE - 256) / sizeof(uint32_t))
		return np_err(err, -E2BIG, NP_PHASE_APPLY, "rss",
			      "indirection table of %u entries is too large", n);
	if (np_ethnl_has_op(nl, NP_ETHTOOL_MSG_RSS_SET)) {
		nlh = np_ethnl_req(nl, NP_ETHTOOL_MSG_RSS_SET, dev->ifname, 0);
		/* An empty table asks for the driver's default. */
		mnl_attr_put(nlh, NP_ETHTOOL_A_RSS_INDIR, (size_t)n * sizeof(uint32_t),
			     n ? (const void *)indir : (const void *)"");
		r = np_ethnl_request(nl, nlh, NULL, NULL, extack, sizeof(extack));
	} else {
		/* The ioctl takes only a table of the device's exact size. */
		if (n && !dev->rss.err && dev->rss.indir_size && n != dev->rss.indir_size)
			return np_err(err, -EINVAL, NP_PHASE_APPLY, "rss",
				      "indirection table has %u entries, the device's has %u", n,
				      dev->rss.indir_size);
		r = ioctl_set_indir(dev->ifname, indir, n);
	}
	return r < 0 ? np_ethnl_set_failed(err, r, "rss", NULL, extack) : 0;
}
