/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SIOCETHTOOL: what ethnl.c falls back to when the kernel has no ethtool
 * netlink family (or an older one without the op).  Each call opens its own
 * datagram socket: the fallback is rare and a socket is cheap next to the
 * driver work behind every ethtool command.
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "np_kernel.h"

static int ethtool_ioctl(const char *ifname, void *cmd)
{
	struct ifreq ifr;
	int fd, r = 0;

	if (!ifname || strlen(ifname) >= sizeof(ifr.ifr_name))
		return -EINVAL;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	ifr.ifr_data = cmd;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		r = -errno;
	close(fd);
	return r;
}

int np_ioctl_read_drvinfo(const char *ifname, char *driver, size_t dlen, char *bus, size_t blen)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	int r;

	r = ethtool_ioctl(ifname, &info);
	if (r < 0)
		return r;
	snprintf(driver, dlen, "%.*s", (int)sizeof(info.driver), info.driver);
	snprintf(bus, blen, "%.*s", (int)sizeof(info.bus_info), info.bus_info);
	return 0;
}

int np_ioctl_read_channels(const char *ifname, struct np_channels *ret)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	int r;

	r = ethtool_ioctl(ifname, &ch);
	if (r < 0)
		return r;
	*ret = (struct np_channels){
		.rx = ch.rx_count, .tx = ch.tx_count,
		.other = ch.other_count, .combined = ch.combined_count,
		.max_rx = ch.max_rx, .max_tx = ch.max_tx,
		.max_other = ch.max_other, .max_combined = ch.max_combined,
	};
	return 0;
}

int np_ioctl_set_channels(const char *ifname, const struct np_channels *want)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	int r;

	/* Start from the device's own answer so the maxima and any count the
	 * driver cannot change go back exactly as it gave them. */
	r = ethtool_ioctl(ifname, &ch);
	if (r < 0)
		return r;
	if (ch.max_rx)
		ch.rx_count = want->rx;
	if (ch.max_tx)
		ch.tx_count = want->tx;
	if (ch.max_other)
		ch.other_count = want->other;
	if (ch.max_combined)
		ch.combined_count = want->combined;
	ch.cmd = ETHTOOL_SCHANNELS;
	return ethtool_ioctl(ifname, &ch);
}

int np_ioctl_read_rings(const char *ifname, struct np_rings *ret)
{
	struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };
	int r;

	r = ethtool_ioctl(ifname, &rp);
	if (r < 0)
		return r;
	*ret = (struct np_rings){
		.rx = rp.rx_pending, .rx_mini = rp.rx_mini_pending,
		.rx_jumbo = rp.rx_jumbo_pending, .tx = rp.tx_pending,
		.max_rx = rp.rx_max_pending, .max_rx_mini = rp.rx_mini_max_pending,
		.max_rx_jumbo = rp.rx_jumbo_max_pending, .max_tx = rp.tx_max_pending,
	};
	return 0;
}

int np_ioctl_set_rings(const char *ifname, const struct np_rings *want)
{
	struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };
	int r;

	r = ethtool_ioctl(ifname, &rp);
	if (r < 0)
		return r;
	if (rp.rx_max_pending)
		rp.rx_pending = want->rx;
	if (rp.rx_mini_max_pending)
		rp.rx_mini_pending = want->rx_mini;
	if (rp.rx_jumbo_max_pending)
		rp.rx_jumbo_pending = want->rx_jumbo;
	if (rp.tx_max_pending)
		rp.tx_pending = want->tx;
	rp.cmd = ETHTOOL_SRINGPARAM;
	return ethtool_ioctl(ifname, &rp);
}

/* struct ethtool_coalesce holds the 22 classic fields in np_coal_field order;
 * the CQE modes exist only in netlink. */
static const size_t coal_off[] = {
	offsetof(struct ethtool_coalesce, rx_coalesce_usecs),
	offsetof(struct ethtool_coalesce, rx_max_coalesced_frames),
	offsetof(struct ethtool_coalesce, rx_coalesce_usecs_irq),
	offsetof(struct ethtool_coalesce, rx_max_coalesced_frames_irq),
	offsetof(struct ethtool_coalesce, tx_coalesce_usecs),
	offsetof(struct ethtool_coalesce, tx_max_coalesced_frames),
	offsetof(struct ethtool_coalesce, tx_coalesce_usecs_irq),
	offsetof(struct ethtool_coalesce, tx_max_coalesced_frames_irq),
	offsetof(struct ethtool_coalesce, stats_block_coalesce_usecs),
	offsetof(struct ethtool_coalesce, use_adaptive_rx_coalesce),
	offsetof(struct ethtool_coalesce, use_adaptive_tx_coalesce),
	offsetof(struct ethtool_coalesce, pkt_rate_low),
	offsetof(struct ethtool_coalesce, rx_coalesce_usecs_low),
	offsetof(struct ethtool_coalesce, rx_max_coalesced_frames_low),
	offsetof(struct ethtool_coalesce, tx_coalesce_usecs_low),
	offsetof(struct ethtool_coalesce, tx_max_coalesced_frames_low),
	offsetof(struct ethtool_coalesce, pkt_rate_high),
	offsetof(struct ethtool_coalesce, rx_coalesce_usecs_high),
	offsetof(struct ethtool_coalesce, rx_max_coalesced_frames_high),
	offsetof(struct ethtool_coalesce, tx_coalesce_usecs_high),
	offsetof(struct ethtool_coalesce, tx_max_coalesced_frames_high),
	offsetof(struct ethtool_coalesce, rate_sample_interval),
};

static uint32_t *coal_field(struct ethtool_coalesce *c, unsigned f)
{
	return (uint32_t *)((char *)c + coal_off[f]);
}

int np_ioctl_read_coalesce(const char *ifname, struct np_coalesce *ret)
{
	struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };
	struct np_coalesce out = { 0 };
	int r;

	r = ethtool_ioctl(ifname, &c);
	if (r < 0)
		return r;
	/* The ioctl does not say which fields the driver supports: it reports
	 * zero for the others, and the kernel refuses a nonzero value for
	 * them.  Claim only the fields the driver filled in, so the planner
	 * never plans a write the driver would refuse; a field left at zero
	 * is merely not tuned. */
	for (unsigned f = 0; f < NP_ARRAY_SIZE(coal_off); f++) {
		out.val[f] = *coal_field(&c, f);
		if (out.val[f])
			out.supported |= 1u << f;
	}
	*ret = out;
	return 0;
}

int np_ioctl_set_coalesce(const char *ifname, const struct np_coalesce *want, uint32_t fields)
{
	struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };
	int r;

	if (fields & ~((1u << NP_ARRAY_SIZE(coal_off)) - 1))
		return -EOPNOTSUPP;
	r = ethtool_ioctl(ifname, &c);
	if (r < 0)
		return r;
	for (unsigned f = 0; f < NP_ARRAY_SIZE(coal_off); f++)
		if (fields & (1u << f))
			*coal_field(&c, f) = want->val[f];
	c.cmd = ETHTOOL_SCOALESCE;
	return ethtool_ioctl(ifname, &c);
}

int np_ioctl_read_rx_rings(const char *ifname, uint32_t *ret)
{
	struct ethtool_rxnfc nfc = { .cmd = ETHTOOL_GRXRINGS };
	int r;

	r = ethtool_ioctl(ifname, &nfc);
	if (r < 0)
		return r;
	*ret = (uint32_t)nfc.data;
	return 0;
}

int np_ioctl_read_rss(const char *ifname, struct np_rss *ret)
{
	struct ethtool_rxfh head = { .cmd = ETHTOOL_GRSSH };
	struct ethtool_rxfh *rxfh = NULL;
	struct np_rss out = { 0 };
	size_t indir_bytes;
	int r;

	/* First ask for the sizes only, then for the contents. */
	r = ethtool_ioctl(ifname, &head);
	if (r < 0)
		return r;
	indir_bytes = (size_t)head.indir_size * sizeof(uint32_t);
	rxfh = calloc(1, sizeof(*rxfh) + indir_bytes + head.key_size);
	if (!rxfh)
		return -ENOMEM;
	rxfh->cmd = ETHTOOL_GRSSH;
	rxfh->indir_size = head.indir_size;
	rxfh->key_size = head.key_size;
	r = ethtool_ioctl(ifname, rxfh);
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
	np_ioctl_read_rx_rings(ifname, &out.rx_rings);
	*ret = out;
out:
	free(rxfh);
	return r;
}

int np_ioctl_set_rss_indir(const char *ifname, const uint32_t *indir, uint32_t n)
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
	r = ethtool_ioctl(ifname, ri);
	free(ri);
	return r;
}
