/* qstats IFNAME: per-queue Rx packet counts from the netdev netlink
 * family's qstats-get (6.9+), one "QUEUE PACKETS" line per Rx queue.  For
 * the lab's traffic check: 6.12's virtio_net reports per-queue packets only
 * there, not in `ethtool -S`.  Raw netlink, no libraries, so that lab.sh -b
 * can copy it into the guest; constants from include/uapi/linux/netdev.h
 * (Debian 12's headers predate qstats).  Exit 1 on any error. */
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define NETDEV_CMD_QSTATS_GET 12
#define NETDEV_A_QSTATS_IFINDEX 1
#define NETDEV_A_QSTATS_QUEUE_TYPE 2
#define NETDEV_A_QSTATS_QUEUE_ID 3
#define NETDEV_A_QSTATS_SCOPE 4
#define NETDEV_A_QSTATS_RX_PACKETS 8
#define NETDEV_QSTATS_SCOPE_QUEUE 1
#define NETDEV_QUEUE_TYPE_RX 0

static char buf[65536];

static void put_attr(struct nlmsghdr *n, int type, const void *data, int len)
{
	struct nlattr *a = (struct nlattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static int request(int fd, int family, int cmd, int flags, int attr, const void *data, int len,
		   int attr2, uint32_t v2)
{
	char req[256] = { 0 };
	struct nlmsghdr *n = (struct nlmsghdr *)req;
	struct genlmsghdr *g = NLMSG_DATA(n);

	n->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	n->nlmsg_type = family;
	n->nlmsg_flags = NLM_F_REQUEST | flags;
	g->cmd = cmd;
	g->version = 1;
	put_attr(n, attr, data, len);
	if (attr2)
		put_attr(n, attr2, &v2, 4);
	return send(fd, req, n->nlmsg_len, 0) == (ssize_t)n->nlmsg_len ? 0 : -1;
}

static uint64_t uint_of(const struct nlattr *a)
{
	uint64_t v = 0;

	if (a->nla_len - NLA_HDRLEN == 8)
		memcpy(&v, (const char *)a + NLA_HDRLEN, 8);
	else {
		uint32_t w;

		memcpy(&w, (const char *)a + NLA_HDRLEN, 4);
		v = w;
	}
	return v;
}

/* read replies until DONE (a dump) or the first batch (family: its id
 * into *family); print the Rx queues of ifindex */
static int receive(int fd, int *family, unsigned ifindex)
{
	for (;;) {
		ssize_t len = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *n;

		if (len <= 0)
			return -1;
		for (n = (struct nlmsghdr *)buf; NLMSG_OK(n, len); n = NLMSG_NEXT(n, len)) {
			struct nlattr *a;
			int rem;
			long long type = -1, id = -1, pkts = -1, idx = -1;

			if (n->nlmsg_type == NLMSG_DONE)
				return 0;
			if (n->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(n);

				if (e->error)
					fprintf(stderr, "qstats: netlink error %d\n", e->error);
				return e->error ? -1 : 0;
			}
			a = (struct nlattr *)((char *)NLMSG_DATA(n) + GENL_HDRLEN);
			rem = n->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
			for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
			     rem -= NLA_ALIGN(a->nla_len),
			     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len))) {
				int t = a->nla_type & NLA_TYPE_MASK;

				if (family) {
					if (t == CTRL_ATTR_FAMILY_ID)
						*family = *(uint16_t *)((char *)a + NLA_HDRLEN);
					continue;
				}
				if (t == NETDEV_A_QSTATS_IFINDEX)
					idx = uint_of(a);
				else if (t == NETDEV_A_QSTATS_QUEUE_TYPE)
					type = uint_of(a);
				else if (t == NETDEV_A_QSTATS_QUEUE_ID)
					id = uint_of(a);
				else if (t == NETDEV_A_QSTATS_RX_PACKETS)
					pkts = uint_of(a);
			}
			if (!family && idx == ifindex && type == NETDEV_QUEUE_TYPE_RX && id >= 0 && pkts >= 0)
				printf("%lld %lld\n", id, pkts);
		}
		if (family)
			return 0;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	unsigned ifindex;
	int fd, family = 0;

	if (argc != 2 || !(ifindex = if_nametoindex(argv[1]))) {
		fprintf(stderr, "usage: qstats IFNAME\n");
		return 1;
	}
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return perror("qstats: netlink"), 1;
	if (request(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, CTRL_ATTR_FAMILY_NAME, "netdev", 7, 0, 0) ||
	    receive(fd, &family, 0) || !family) {
		fprintf(stderr, "qstats: no netdev family\n");
		return 1;
	}
	if (request(fd, family, NETDEV_CMD_QSTATS_GET, NLM_F_DUMP, NETDEV_A_QSTATS_IFINDEX, &ifindex, 4,
		    NETDEV_A_QSTATS_SCOPE, NETDEV_QSTATS_SCOPE_QUEUE) ||
	    receive(fd, NULL, ifindex))
		return 1;
	return 0;
}
