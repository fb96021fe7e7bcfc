/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* np_ethnl_read: every ethtool reading of one device, one operation after
 * the other on the context's one socket. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ethnl.h"

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

/* The settability probes and the quirks are facts of the driver, not of
 * the values: a re-read keeps them. */
int np_ethnl_reread(struct np_ethnl *nl, struct np_dev *dev, unsigned parts,
		    struct np_error *err)
{
	const char *ifname = dev->ifname;
	int r = 0;

	if (parts & NP_READ_QUEUES) {
		bool fixed = dev->channels.fixed;

		r = np_ethnl_read_channels(nl, ifname, &dev->channels);
		r = knob_done(nl, dev, r, &dev->channels.err, "channels", err);
		dev->channels.fixed = fixed;
		if (r < 0)
			return r;
		free(dev->rss.indir);
		free(dev->rss.key);
		dev->rss = (struct np_rss){ 0 };
		r = np_ethnl_read_rss(nl, ifname, &dev->rss);
		r = knob_done(nl, dev, r, &dev->rss.err, "RSS table", err);
		if (r < 0)
			return r;
	}
	if (parts & NP_READ_RINGS) {
		bool fixed = dev->rings.fixed;

		r = np_ethnl_read_rings(nl, ifname, &dev->rings);
		r = knob_done(nl, dev, r, &dev->rings.err, "rings", err);
		dev->rings.fixed = fixed;
		if (r < 0)
			return r;
	}
	if (parts & NP_READ_COALESCE) {
		uint32_t fixed = dev->coalesce.fixed;

		r = np_ethnl_read_coalesce(nl, ifname, &dev->coalesce);
		r = knob_done(nl, dev, r, &dev->coalesce.err, "coalescing", err);
		dev->coalesce.fixed = fixed & dev->coalesce.supported;
	}
	return r;
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

	r = np_ethnl_read_link(nl, ifname, &dev->link);
	r = knob_done(nl, dev, r, &dev->link.err, "link state", err);
	if (r < 0)
		return r;
	r = np_ethnl_read_channels(nl, ifname, &dev->channels);
	r = knob_done(nl, dev, r, &dev->channels.err, "channels", err);
	if (r < 0)
		return r;
	r = np_ethnl_read_rings(nl, ifname, &dev->rings);
	r = knob_done(nl, dev, r, &dev->rings.err, "rings", err);
	if (r < 0)
		return r;
	r = np_ethnl_read_coalesce(nl, ifname, &dev->coalesce);
	r = knob_done(nl, dev, r, &dev->coalesce.err, "coalescing", err);
	if (r < 0)
		return r;
	r = np_ethnl_read_features(nl, ifname, &dev->features);
	r = knob_done(nl, dev, r, &dev->features.err, "features", err);
	if (r < 0)
		return r;
	r = np_ethnl_read_rss(nl, ifname, &dev->rss);
	r = knob_done(nl, dev, r, &dev->rss.err, "RSS table", err);
	if (r < 0)
		return r;
	np_ethnl_probe(nl, dev);
	return nl->sock_err ? np_err(err, nl->sock_err, NP_PHASE_DISCOVER, NULL,
				     "ethtool netlink socket: %s", strerror(-nl->sock_err)) : 0;
}
