/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Link speed and duplex (LINKMODES_GET) and carrier (LINKSTATE_GET).  No
 * ioctl fallback: ETHTOOL_GLINKSETTINGS is only worth it for the speed, and
 * a kernel without ethtool netlink (before 5.6) gets the generic plan. */
#include <errno.h>

#include "ethnl.h"

int np_ethnl_parse_linkmodes(const void *msg, size_t len, struct np_link *l)
{
	const struct nlattr *tb[ETHTOOL_A_LINKMODES_MAX + 1];
	uint32_t speed;

	if (np_ethnl_attrs(msg, len, tb, ETHTOOL_A_LINKMODES_MAX) < 0)
		return -EPROTO;
	if (np_ethnl_u32(tb[ETHTOOL_A_LINKMODES_SPEED], &speed))
		l->speed = speed == (uint32_t)SPEED_UNKNOWN ? 0 : speed;
	if (!np_ethnl_u8(tb[ETHTOOL_A_LINKMODES_DUPLEX], &l->duplex))
		l->duplex = DUPLEX_UNKNOWN;
	return 0;
}

int np_ethnl_parse_linkstate(const void *msg, size_t len, struct np_link *l)
{
	const struct nlattr *tb[ETHTOOL_A_LINKSTATE_MAX + 1];
	uint8_t link;

	if (np_ethnl_attrs(msg, len, tb, ETHTOOL_A_LINKSTATE_MAX) < 0)
		return -EPROTO;
	/* Absent when the driver has no get_link: carrier unknown, false. */
	if (np_ethnl_u8(tb[ETHTOOL_A_LINKSTATE_LINK], &link))
		l->carrier = link;
	return 0;
}

static int linkmodes_cb(const void *msg, size_t len, void *arg)
{
	return np_ethnl_parse_linkmodes(msg, len, arg);
}

static int linkstate_cb(const void *msg, size_t len, void *arg)
{
	return np_ethnl_parse_linkstate(msg, len, arg);
}

int np_ethnl_read_link(struct np_ethnl *nl, const char *ifname, struct np_link *l)
{
	int r;

	*l = (struct np_link){ .duplex = DUPLEX_UNKNOWN };
	if (!np_ethnl_has_op(nl, ETHTOOL_MSG_LINKMODES_GET))
		return -EOPNOTSUPP;
	/* Compact: the link mode bitsets we skip are then a few words. */
	r = np_ethnl_get(nl, np_ethnl_req(nl, ETHTOOL_MSG_LINKMODES_GET, ifname,
					  ETHTOOL_FLAG_COMPACT_BITSETS),
			 linkmodes_cb, l);
	if (r < 0)
		return r;
	if (np_ethnl_has_op(nl, ETHTOOL_MSG_LINKSTATE_GET)) {
		r = np_ethnl_get(nl, np_ethnl_req(nl, ETHTOOL_MSG_LINKSTATE_GET, ifname, 0),
				 linkstate_cb, l);
		/* Carrier is a detail; only a vanished device or socket matters. */
		if (r == -ENODEV || nl->sock_err)
			return r;
	}
	return 0;
}
