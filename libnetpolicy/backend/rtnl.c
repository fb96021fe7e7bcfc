/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Link facts from rtnetlink (libnl-route-3): index, MTU, state, and the
 * number of queues the device was allocated with. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/errno.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>

#include "np_kernel.h"

/* libnl speaks its own error numbers; the library speaks errno. */
static int nl_to_errno(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case NLE_NODEV:
	case NLE_OBJ_NOTFOUND:
		return -ENODEV;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
	case NLE_NOACCESS:
		return -EPERM;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_INTR:
	case NLE_DUMP_INTR:
		return -EINTR;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_OPNOTSUPP:
	case NLE_AF_NOSUPPORT:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

int np_rtnl_open(struct nl_sock **ret, struct np_error *err)
{
	struct nl_sock *sk;
	int r;

	sk = nl_socket_alloc();
	if (!sk)
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	r = nl_connect(sk, NETLINK_ROUTE);
	if (r < 0) {
		nl_socket_free(sk);
		return np_err(err, nl_to_errno(r), NP_PHASE_DISCOVER, NULL, "rtnetlink: %s",
			      nl_geterror(r));
	}
	*ret = sk;
	return 0;
}

void np_rtnl_close(struct nl_sock *sk)
{
	if (sk)
		nl_socket_free(sk);
}

int np_rtnl_read(struct nl_sock *sk, const char *ifname, struct np_dev *dev,
		 struct np_error *err)
{
	struct rtnl_link *link = NULL;
	char state[32];
	int r;

	r = np_ifname_validate(ifname, err);
	if (r < 0)
		return r;
	r = rtnl_link_get_kernel(sk, 0, ifname, &link);
	if (r < 0) {
		r = nl_to_errno(r);
		if (r == -ENODEV)
			np_err(err, r, NP_PHASE_DISCOVER, NULL, "no such device");
		else
			np_err(err, r, NP_PHASE_DISCOVER, NULL, "rtnetlink: %s", strerror(-r));
		goto out;
	}
	/* libnl answers 0 without a link when the message it read was an
	 * ack, not the link (one left queued by an earlier failed request) */
	if (!link) {
		r = np_err(err, -EPROTO, NP_PHASE_DISCOVER, NULL, "rtnetlink: no link in the reply");
		goto out;
	}
	dev->ifindex = rtnl_link_get_ifindex(link);
	dev->mtu = rtnl_link_get_mtu(link);
	/* the names match /sys/class/net/IF/operstate: "up", "lowerlayerdown" */
	rtnl_link_operstate2str(rtnl_link_get_operstate(link), state, sizeof(state));
	snprintf(dev->operstate, sizeof(dev->operstate), "%.*s", (int)sizeof(dev->operstate) - 1,
		 state);
	dev->num_tx_queues = rtnl_link_get_num_tx_queues(link);
	dev->num_rx_queues = rtnl_link_get_num_rx_queues(link);
	r = 0;
out:
	if (link)
		rtnl_link_put(link);
	return r;
}

/* libnl fills its counters from IFLA_STATS64 when the reply carries it
 * (every kernel since 2.6.35), else from the 32-bit IFLA_STATS. */
int np_rtnl_stats(struct nl_sock *sk, const char *ifname, struct np_link_stats *ret,
		  struct np_error *err)
{
	struct rtnl_link *link = NULL;
	char state[32];
	int r;

	r = rtnl_link_get_kernel(sk, 0, ifname, &link);
	if (r < 0 || !link) {
		r = r < 0 ? nl_to_errno(r) : -EPROTO;
		r = np_err(err, r, NP_PHASE_DISCOVER, NULL, r == -ENODEV ? "no such device" :
			   "rtnetlink: %s", strerror(-r));
		goto out;
	}
	ret->rx_bytes = rtnl_link_get_stat(link, RTNL_LINK_RX_BYTES);
	ret->tx_bytes = rtnl_link_get_stat(link, RTNL_LINK_TX_BYTES);
	ret->rx_packets = rtnl_link_get_stat(link, RTNL_LINK_RX_PACKETS);
	ret->tx_packets = rtnl_link_get_stat(link, RTNL_LINK_TX_PACKETS);
	ret->rx_dropped = rtnl_link_get_stat(link, RTNL_LINK_RX_DROPPED);
	ret->tx_dropped = rtnl_link_get_stat(link, RTNL_LINK_TX_DROPPED);
	ret->rx_errors = rtnl_link_get_stat(link, RTNL_LINK_RX_ERRORS);
	ret->tx_errors = rtnl_link_get_stat(link, RTNL_LINK_TX_ERRORS);
	/* the names of IF_OPER_UP and IF_OPER_UNKNOWN (RFC 2863 operstate) */
	rtnl_link_operstate2str(rtnl_link_get_operstate(link), state, sizeof(state));
	ret->up = !strcmp(state, "up") || !strcmp(state, "unknown");
	r = 0;
out:
	if (link)
		rtnl_link_put(link);
	return r;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int np_rtnl_list(struct nl_sock *sk, char ***ret, size_t *ret_n, struct np_error *err)
{
	struct nl_cache *cache = NULL;
	struct nl_object *obj;
	char **names = NULL;
	size_t n = 0, cap;
	int r;

	r = rtnl_link_alloc_cache(sk, AF_UNSPEC, &cache);
	if (r < 0) {
		r = np_err(err, nl_to_errno(r), NP_PHASE_DISCOVER, NULL, "rtnetlink: %s",
			   nl_geterror(r));
		goto out;
	}
	cap = (size_t)nl_cache_nitems(cache) + 1;
	names = calloc(cap, sizeof(*names));
	if (!names)
		goto nomem;
	for (obj = nl_cache_get_first(cache); obj; obj = nl_cache_get_next(obj)) {
		struct rtnl_link *link = (struct rtnl_link *)obj;
		const char *name = rtnl_link_get_name(link);

		if (!name || rtnl_link_get_flags(link) & IFF_LOOPBACK)
			continue;
		if (n + 1 >= cap)
			break;	/* the cache does not grow while we walk it */
		names[n] = strdup(name);
		if (!names[n])
			goto nomem;
		n++;
	}
	qsort(names, n, sizeof(*names), cmp_name);
	*ret = names;
	*ret_n = n;
	names = NULL;
	r = 0;
	goto out;
nomem:
	r = np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	np_list_free(names, n);
	names = NULL;
out:
	if (cache)
		nl_cache_free(cache);
	return r;
}
