/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Settability probes.  Some drivers report a knob they cannot change
 * (vmxnet3 has get_channels and no set_channels: "Number of interrupts
 * cannot be changed on the fly", drivers/net/vmxnet3/vmxnet3_ethtool.c
 * vmxnet3_get_channels()).  The ethtool netlink SET handlers check that the
 * driver has the operation before anything else: in 6.1 ethnl_set_channels()
 * (net/ethtool/channels.c) returns -EOPNOTSUPP unless ops->get_channels and
 * ops->set_channels exist, before it parses a count; in current kernels
 * ethnl_set_channels_validate() does the same ahead of ethnl_set_channels(),
 * and likewise ethnl_set_rings_validate() / ethnl_set_coalesce_validate().
 * Each then applies only the attributes present (ethnl_update_u32) and
 * returns without calling the driver's setter when nothing was modified.
 *
 * So the probe is a SET carrying no value at all, only the device header:
 * whatever the device's state, nothing can be modified, so it can never
 * reach the driver with a change; the answer is -EOPNOTSUPP when the
 * driver has no setter and 0 when it has one.  Any other answer (EPERM for
 * a user without CAP_NET_ADMIN) says nothing: the knob counts as settable,
 * as before probes.  Without the netlink SET op there is nothing to ask
 * without changing something: settable too.
 */
#include <errno.h>

#include "ethnl.h"

static bool settable(struct np_ethnl *nl, uint8_t cmd, const char *ifname)
{
	if (!np_ethnl_has_op(nl, cmd))
		return true;
	return np_ethnl_request(nl, np_ethnl_req(nl, cmd, ifname, 0), NULL, NULL, NULL, 0) !=
	       -EOPNOTSUPP;
}

void np_ethnl_probe(struct np_ethnl *nl, struct np_dev *dev)
{
	if (!dev->channels.err)
		dev->channels.fixed = !settable(nl, ETHTOOL_MSG_CHANNELS_SET, dev->ifname);
	if (!dev->rings.err)
		dev->rings.fixed = !settable(nl, ETHTOOL_MSG_RINGS_SET, dev->ifname);
	/* a driver without set_coalesce: every field it reports is read-only */
	if (!dev->coalesce.err && !settable(nl, ETHTOOL_MSG_COALESCE_SET, dev->ifname))
		dev->coalesce.fixed |= dev->coalesce.supported;
}
