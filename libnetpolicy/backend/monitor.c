// SPDX-License-Identifier: LGPL-2.1-or-later
/* Change notifications: what `netpolicy watch` waits on.
 *
 * Two multicast sources, one pollable descriptor (an epoll set):
 *  - ethtool netlink's "monitor" group.  Every ethtool SET, through netlink
 *    or through the ioctl, ends in ethtool_notify(), which multicasts the
 *    matching *_NTF message (net/ethtool/netlink.c, ethnl_default_notify;
 *    Documentation/networking/ethtool-netlink.rst, "Notification message
 *    contents").  Another program's `ethtool -L` is seen this way.  Reads
 *    (GETs) send nothing, so netpolicy's own show/check are silent.
 *  - rtnetlink RTMGRP_LINK, for a link coming up: most drivers request their
 *    queue IRQs in ndo_open and some reset queues on down/up or after a
 *    driver reset, so that is when a policy may have been lost or may first
 *    take full effect.
 * The kernel drops multicast messages when a receive buffer overflows
 * (ENOBUFS): reported as an event for every device ("overrun"), since after
 * it nothing can be known about what changed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <net/if.h>
#include <linux/rtnetlink.h>

#include "np_private.h"
#include "ethnl/ethnl.h"
#include "np_kernel.h"

#define MON_BUF 16384

struct link_seen {
	int ifindex;
	bool up;
};

struct np_monitor {
	int epfd;
	struct mnl_socket *genl, *rtnl;
	char *buf;
	/* messages of one datagram not yet handed out */
	size_t len, off;
	bool from_genl;
	/* IFF_UP per device, to see a link *come* up (RTM_NEWLINK is sent for
	 * every flag, carrier, MTU... change) */
	struct link_seen *links;
	size_t n_links;
	/* the current event */
	int ifindex;
	char ifname[IFNAMSIZ];
	const char *what;
};

/* --- the ethtool family's "monitor" group ----------------------------------- */

/* Resolved the way every netpolicy command resolves the family (one
 * CTRL_CMD_GETFAMILY on a short-lived ethtool socket, transport.c), then
 * joined on the monitor's own socket: notifications must not interleave
 * with the replies of requests. */
static int ethtool_monitor_group(uint32_t *group, struct np_error *err)
{
	struct np_ethnl *nl;
	int r;

	r = np_ethnl_open(&nl, err);
	if (r < 0)
		return r;
	*group = nl->monitor_group;
	r = nl->family && nl->monitor_group ? 0 : -EOPNOTSUPP;
	np_ethnl_close(nl);
	if (r < 0)
		np_err(err, r, NP_PHASE_DISCOVER, NULL,
		       "this kernel has no ethtool netlink notifications (CONFIG_ETHTOOL_NETLINK)");
	return r;
}

/* --- opening ----------------------------------------------------------------- */

static struct mnl_socket *open_socket(int bus, unsigned groups)
{
	struct mnl_socket *sk = mnl_socket_open2(bus, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (sk && mnl_socket_bind(sk, groups, MNL_SOCKET_AUTOPID) < 0) {
		int e = errno;

		mnl_socket_close(sk);
		errno = e;
		return NULL;
	}
	return sk;
}

void np_monitor_free(struct np_monitor *m)
{
	if (!m)
		return;
	if (m->genl)
		mnl_socket_close(m->genl);
	if (m->rtnl)
		mnl_socket_close(m->rtnl);
	if (m->epfd >= 0)
		close(m->epfd);
	free(m->links);
	free(m->buf);
	free(m);
}

static int watch_fd(struct np_monitor *m, struct mnl_socket *sk)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = mnl_socket_get_fd(sk) };

	return epoll_ctl(m->epfd, EPOLL_CTL_ADD, ev.data.fd, &ev) < 0 ? -errno : 0;
}

int np_monitor_open(struct np_ctx *ctx, struct np_monitor **ret, struct np_error *err)
{
	struct np_monitor *m;
	uint32_t group;
	int r;

	if (ctx->model)
		return np_err(err, -EOPNOTSUPP, NP_PHASE_DISCOVER, NULL,
			      "the simulated backend sends no change notifications");
	m = calloc(1, sizeof(*m));
	if (!m)
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	m->epfd = epoll_create1(EPOLL_CLOEXEC);
	m->buf = malloc(MON_BUF);
	if (m->epfd < 0 || !m->buf) {
		r = np_err(err, m->buf ? -errno : -ENOMEM, NP_PHASE_DISCOVER, NULL,
			   "monitor: %s", strerror(m->buf ? errno : ENOMEM));
		goto fail;
	}
	m->genl = open_socket(NETLINK_GENERIC, 0);
	if (!m->genl) {
		r = np_err(err, -errno, NP_PHASE_DISCOVER, NULL, "generic netlink socket: %s",
			   strerror(errno));
		goto fail;
	}
	r = ethtool_monitor_group(&group, err);
	if (r < 0)
		goto fail;
	if (mnl_socket_setsockopt(m->genl, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)) < 0) {
		r = np_err(err, -errno, NP_PHASE_DISCOVER, NULL, "ethtool monitor group: %s",
			   strerror(errno));
		goto fail;
	}
	m->rtnl = open_socket(NETLINK_ROUTE, RTMGRP_LINK);
	if (!m->rtnl) {
		r = np_err(err, -errno, NP_PHASE_DISCOVER, NULL, "rtnetlink socket: %s",
			   strerror(errno));
		goto fail;
	}
	if ((r = watch_fd(m, m->genl)) < 0 || (r = watch_fd(m, m->rtnl)) < 0) {
		np_err(err, r, NP_PHASE_DISCOVER, NULL, "epoll: %s", strerror(-r));
		goto fail;
	}
	*ret = m;
	return 0;
fail:
	np_monitor_free(m);
	return r;
}

int np_monitor_fd(const struct np_monitor *m)
{
	return m->epfd;
}

int np_monitor_ifindex(const struct np_monitor *m)
{
	return m->ifindex;
}

const char *np_monitor_ifname(const struct np_monitor *m)
{
	return m->ifname;
}

const char *np_monitor_what(const struct np_monitor *m)
{
	return m->what ? m->what : "";
}

/* --- decoding ------------------------------------------------------------------ */

static const char *ntf_name(uint8_t cmd)
{
	switch (cmd) {
	case ETHTOOL_MSG_CHANNELS_NTF: return "channels";
	case ETHTOOL_MSG_RINGS_NTF: return "rings";
	case ETHTOOL_MSG_COALESCE_NTF: return "coalesce";
	case ETHTOOL_MSG_FEATURES_NTF: return "features";
	case ETHTOOL_MSG_PRIVFLAGS_NTF: return "private flags";
	case ETHTOOL_MSG_PAUSE_NTF: return "pause";
	case ETHTOOL_MSG_LINKINFO_NTF: return "link info";
	case ETHTOOL_MSG_LINKMODES_NTF: return "link modes";
	case ETHTOOL_MSG_WOL_NTF: return "wake-on-lan";
	case ETHTOOL_MSG_DEBUG_NTF: return "debug";
	case ETHTOOL_MSG_EEE_NTF: return "eee";
	}
	/* Newer kernels add notifications (RSS, since 6.17, among them):
	 * any of them may concern a knob a plan owns. */
	return "settings";
}

/* An ethtool notification: attribute 1 of every message is its request
 * header (ETHTOOL_A_*_HEADER), which names the device. */
static bool decode_ethtool(struct np_monitor *m, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a, *h;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*g))
		return false;
	mnl_attr_for_each(a, nlh, sizeof(*g)) {
		if (mnl_attr_get_type(a) != ETHTOOL_A_CHANNELS_HEADER)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
			return false;
		mnl_attr_for_each_nested(h, a) {
			if (mnl_attr_get_type(h) == ETHTOOL_A_HEADER_DEV_INDEX &&
			    mnl_attr_validate(h, MNL_TYPE_U32) >= 0)
				m->ifindex = (int)mnl_attr_get_u32(h);
			else if (mnl_attr_get_type(h) == ETHTOOL_A_HEADER_DEV_NAME &&
				 mnl_attr_validate(h, MNL_TYPE_NUL_STRING) >= 0 &&
				 mnl_attr_get_payload_len(h) <= IFNAMSIZ)
				strcpy(m->ifname, mnl_attr_get_str(h));
		}
		m->what = ntf_name(g->cmd);
		return m->ifindex > 0 && m->ifname[0];
	}
	return false;
}

static struct link_seen *link_slot(struct np_monitor *m, int ifindex, bool add)
{
	struct link_seen *l;

	for (size_t i = 0; i < m->n_links; i++)
		if (m->links[i].ifindex == ifindex)
			return &m->links[i];
	if (!add)
		return NULL;
	l = realloc(m->links, (m->n_links + 1) * sizeof(*l));
	if (!l)
		return NULL;
	m->links = l;
	l = &m->links[m->n_links++];
	l->ifindex = ifindex;
	l->up = false;
	return l;
}

/* RTM_NEWLINK with IFF_UP set on a device last seen down (or never seen:
 * a device that appears up) is a link coming up. */
static bool decode_link(struct np_monitor *m, const struct nlmsghdr *nlh)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	struct link_seen *l;
	bool was_up;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifi))
		return false;
	if (nlh->nlmsg_type == RTM_DELLINK) {
		l = link_slot(m, ifi->ifi_index, false);
		if (l)
			*l = m->links[--m->n_links];
		return false;
	}
	if (nlh->nlmsg_type != RTM_NEWLINK)
		return false;
	l = link_slot(m, ifi->ifi_index, true);
	was_up = l ? l->up : false;
	if (l)
		l->up = ifi->ifi_flags & IFF_UP;
	if (!(ifi->ifi_flags & IFF_UP) || was_up)
		return false;
	mnl_attr_for_each(a, nlh, sizeof(*ifi)) {
		if (mnl_attr_get_type(a) == IFLA_IFNAME &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0 &&
		    mnl_attr_get_payload_len(a) <= IFNAMSIZ) {
			m->ifindex = ifi->ifi_index;
			strcpy(m->ifname, mnl_attr_get_str(a));
			m->what = "link up";
			return true;
		}
	}
	return false;
}

/* Read one datagram from whichever socket has one; -EAGAIN when neither. */
static int fill(struct np_monitor *m)
{
	struct mnl_socket *socks[2] = { m->genl, m->rtnl };

	for (int i = 0; i < 2; i++) {
		ssize_t n = recv(mnl_socket_get_fd(socks[i]), m->buf, MON_BUF, 0);

		if (n > 0) {
			m->len = (size_t)n;
			m->off = 0;
			m->from_genl = i == 0;
			return 0;
		}
		if (n < 0 && errno == ENOBUFS)
			return -ENOBUFS;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
	}
	return -EAGAIN;
}

int np_monitor_next(struct np_monitor *m, struct np_error *err)
{
	for (;;) {
		while (m->off < m->len) {
			const struct nlmsghdr *nlh = (const void *)(m->buf + m->off);
			size_t left = m->len - m->off;
			bool ev;

			if (!mnl_nlmsg_ok(nlh, (int)left)) {
				m->len = m->off = 0;
				break;
			}
			m->off += NLMSG_ALIGN(nlh->nlmsg_len);
			m->ifindex = 0;
			m->ifname[0] = 0;
			m->what = NULL;
			ev = m->from_genl ? decode_ethtool(m, nlh) : decode_link(m, nlh);
			if (ev)
				return 1;
		}
		m->len = m->off = 0;
		int r = fill(m);

		if (r == -EAGAIN)
			return 0;
		if (r == -ENOBUFS) {
			/* Lost notifications: anything may have changed. */
			m->ifindex = 0;
			m->ifname[0] = 0;
			m->what = "overrun";
			return 1;
		}
		if (r < 0)
			return np_err(err, r, NP_PHASE_DISCOVER, NULL, "monitor: %s", strerror(-r));
	}
}
