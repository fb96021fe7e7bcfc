/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What drivers report but cannot do.  ethtool's GET says which coalescing
 * fields a driver supports; some drivers say yes and then refuse the SET
 * because the device lacks a feature.  Planning such a field would make
 * every apply fail and roll back, so discovery records the truth here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "np_kernel.h"

/* virtio_net declares rx/tx-usecs and -frames, but the device only takes
 * them with VIRTIO_NET_F_NOTF_COAL (feature bit 53, virtio spec 5.1.3);
 * QEMU 7.2 does not offer it.  The device's negotiated features are a string
 * of '0'/'1' per bit in /sys/bus/virtio/devices/virtioN/features. */
#define VIRTIO_NET_F_NOTF_COAL 53
/* per-queue notification coalescing, which adaptive moderation (net_dim)
 * needs */
#define VIRTIO_NET_F_VQ_NOTF_COAL 52

static void virtio_net(int rootfd, struct np_dev *dev)
{
	char path[128], bits[256];
	const uint32_t coal = (1u << NP_COAL_RX_USECS) | (1u << NP_COAL_RX_FRAMES) |
			      (1u << NP_COAL_TX_USECS) | (1u << NP_COAL_TX_FRAMES);
	const uint32_t adaptive = (1u << NP_COAL_ADAPTIVE_RX) | (1u << NP_COAL_ADAPTIVE_TX);

	if (dev->coalesce.err || !(dev->coalesce.supported & (coal | adaptive)))
		return;
	snprintf(path, sizeof(path), "sys/class/net/%s/device/features", dev->ifname);
	if (np_read_file_at(rootfd, path, bits, sizeof(bits)) <= VIRTIO_NET_F_NOTF_COAL)
		return;		/* cannot tell: trust the driver */
	/* still shown (they are read back as the driver reports them), never
	 * planned */
	if (bits[VIRTIO_NET_F_NOTF_COAL] == '0')
		dev->coalesce.fixed |= dev->coalesce.supported & coal;
	if (bits[VIRTIO_NET_F_VQ_NOTF_COAL] == '0')
		dev->coalesce.fixed |= dev->coalesce.supported & adaptive;
}

static const struct {
	const char *driver;
	void (*fix)(int rootfd, struct np_dev *dev);
} quirks[] = {
	{ "virtio_net", virtio_net },
};

void np_quirks_apply(int rootfd, struct np_dev *dev)
{
	for (size_t i = 0; i < NP_ARRAY_SIZE(quirks); i++)
		if (!strcmp(dev->driver, quirks[i].driver))
			quirks[i].fix(rootfd, dev);
}
