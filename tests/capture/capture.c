/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A test-only LD_PRELOAD interposer: records what a program asks of the
 * kernel's ethtool interfaces, so that the requests netpolicy builds can be
 * compared byte for byte with the ones ethtool(8) builds for the same rule.
 *
 *   NP_CAPTURE_LOG=FILE   append one line per request:
 *                           "ioctl <ETHTOOL_* cmd, hex> <payload, hex>"
 *                           "nl <netlink protocol> <message, hex>"
 *                         netlink messages are logged with nlmsg_seq and
 *                         nlmsg_pid zeroed: those are per-socket counters,
 *                         not part of what is asked.
 *   NP_CAPTURE_FAKE=1     answer the ntuple and RSS-context ioctls as a NIC
 *                         with them would (no driver here has them):
 *                         NP_FAKE_RINGS rx rings (8), a 128-entry indirection
 *                         table, a 40-byte key, a 256-rule table that takes
 *                         special locations when NP_FAKE_LOC_SPECIAL=1; an
 *                         insert at RX_CLS_LOC_ANY lands at 7, a new context
 *                         is number 1; ETHTOOL_PERQUEUE coalescing as a
 *                         driver with it (ice): GCOALESCE fills each queue's
 *                         struct as the kernel does (cmd ETHTOOL_GCOALESCE,
 *                         rx/tx-usecs 50, adaptive-rx/tx on, rx-usecs-high
 *                         NP_FAKE_QCOAL_HIGH or 0), SCOALESCE succeeds.
 *                         Everything else goes to the kernel.
 *
 * Only the payload the kernel would read is logged: the rxnfc struct, or
 * the rxfh header with the table and key that follow it in a set.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

#define FAKE_INDIR_SIZE 128
#define FAKE_KEY_SIZE 40
#define FAKE_RULES 256
#define FAKE_ANY_LOC 7
#define FAKE_NEW_CTX 1

static void log_hex(const char *kind, unsigned long tag, const void *p, size_t n)
{
	const char *path = getenv("NP_CAPTURE_LOG");
	const unsigned char *b = p;
	char *line;
	size_t i, len;
	int fd;

	if (!path)
		return;
	len = 64 + 2 * n;
	line = malloc(len);
	if (!line)
		return;
	i = (size_t)snprintf(line, len, "%s %#lx ", kind, tag);
	for (size_t k = 0; k < n; k++)
		i += (size_t)snprintf(line + i, len - i, "%02x", b[k]);
	line[i++] = '\n';
	/* O_APPEND: one write per record keeps records whole across processes. */
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (write(fd, line, i) < 0)
			perror("capture");
		close(fd);
	}
	free(line);
}

/* Queues in an ETHTOOL_PERQUEUE request's mask: a struct each follows. */
static size_t perqueue_count(const void *data)
{
	const struct ethtool_per_queue_op *op = data;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(op->queue_mask) / sizeof(op->queue_mask[0]); i++)
		n += (size_t)__builtin_popcount(op->queue_mask[i]);
	return n;
}

/* How many bytes of the ethtool command the kernel reads for this request. */
static size_t ethtool_len(const void *data)
{
	const struct ethtool_rxfh *rxfh = data;
	uint32_t cmd;
	size_t n;

	memcpy(&cmd, data, sizeof(cmd));
	switch (cmd) {
	case ETHTOOL_GRXRINGS:
	case ETHTOOL_GRXCLSRLCNT:
	case ETHTOOL_GRXCLSRULE:
	case ETHTOOL_GRXCLSRLALL:
	case ETHTOOL_SRXCLSRLDEL:
	case ETHTOOL_SRXCLSRLINS:
		return sizeof(struct ethtool_rxnfc);
	case ETHTOOL_GRSSH:
		return sizeof(struct ethtool_rxfh);
	case ETHTOOL_PERQUEUE:
		return sizeof(struct ethtool_per_queue_op) +
		       perqueue_count(data) * sizeof(struct ethtool_coalesce);
	case ETHTOOL_SRSSH:
		n = sizeof(*rxfh);
		if (rxfh->indir_size != ETH_RXFH_INDIR_NO_CHANGE)
			n += (size_t)rxfh->indir_size * 4;
		return n + rxfh->key_size;
	default:
		return sizeof(cmd);
	}
}

static int fake_ring_count(void)
{
	const char *s = getenv("NP_FAKE_RINGS");

	return s ? atoi(s) : 8;
}

/* 1 answered (0 returned to the caller), 0 not ours: pass to the kernel. */
static int fake(void *data)
{
	struct ethtool_rxnfc *nfc = data;
	struct ethtool_rxfh *rxfh = data;
	const char *sp = getenv("NP_FAKE_LOC_SPECIAL");
	uint32_t cmd;

	memcpy(&cmd, data, sizeof(cmd));
	switch (cmd) {
	case ETHTOOL_GRXRINGS:
		nfc->data = (uint64_t)fake_ring_count();
		return 1;
	case ETHTOOL_GRXCLSRLCNT:
		nfc->rule_cnt = 0;
		nfc->data = FAKE_RULES | (sp && *sp == '1' ? RX_CLS_LOC_SPECIAL : 0);
		return 1;
	case ETHTOOL_GRXCLSRLALL:
		nfc->data = FAKE_RULES;
		nfc->rule_cnt = 0;
		return 1;
	case ETHTOOL_SRXCLSRLINS:
		if (nfc->fs.location & RX_CLS_LOC_SPECIAL)
			nfc->fs.location = FAKE_ANY_LOC;
		return 1;
	case ETHTOOL_SRXCLSRLDEL:
		return 1;
	case ETHTOOL_GRSSH: {
		uint32_t want_indir = rxfh->indir_size, want_key = rxfh->key_size;

		rxfh->indir_size = FAKE_INDIR_SIZE;
		rxfh->key_size = FAKE_KEY_SIZE;
		rxfh->hfunc = 1; /* ETH_RSS_HASH_TOP: bit ETH_RSS_HASH_TOP_BIT (0) */
		if (want_indir == FAKE_INDIR_SIZE)
			for (uint32_t i = 0; i < FAKE_INDIR_SIZE; i++)
				rxfh->rss_config[i] = i % (uint32_t)fake_ring_count();
		if (want_key == FAKE_KEY_SIZE)
			memset((char *)rxfh->rss_config + 4 * want_indir, 0x6d, FAKE_KEY_SIZE);
		return 1;
	}
	case ETHTOOL_SRSSH:
		if (rxfh->rss_context == ETH_RXFH_CONTEXT_ALLOC)
			rxfh->rss_context = FAKE_NEW_CTX;
		return 1;
	case ETHTOOL_PERQUEUE: {
		struct ethtool_per_queue_op *op = data;
		const char *hi = getenv("NP_FAKE_QCOAL_HIGH");

		if (op->sub_command == ETHTOOL_GCOALESCE)
			for (size_t i = 0; i < perqueue_count(data); i++) {
				/* net/ethtool/ioctl.c ethtool_get_per_queue_coalesce():
				 * a zeroed struct with cmd GCOALESCE per queue, which the
				 * driver fills (ice: __ice_get_coalesce() with q_num) */
				struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };

				c.rx_coalesce_usecs = 50;
				c.tx_coalesce_usecs = 50;
				c.use_adaptive_rx_coalesce = 1;
				c.use_adaptive_tx_coalesce = 1;
				c.rx_coalesce_usecs_high = hi ? (uint32_t)atoi(hi) : 0;
				memcpy(op->data + i * sizeof(c), &c, sizeof(c));
			}
		return 1;
	}
	}
	return 0;
}

EXPORT int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	if (req == SIOCETHTOOL && arg) {
		struct ifreq *ifr = arg;
		void *data = ifr->ifr_data;
		const char *f = getenv("NP_CAPTURE_FAKE");
		uint32_t cmd;

		memcpy(&cmd, data, sizeof(cmd));
		log_hex("ioctl", cmd, data, ethtool_len(data));
		if (f && *f == '1' && fake(data))
			return 0;
	}
	return real(fd, req, arg);
}

static int nl_protocol(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int proto;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0 || ss.ss_family != AF_NETLINK)
		return -1;
	sl = sizeof(proto);
	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &sl) < 0)
		return -1;
	return proto;
}

static void log_netlink(int fd, const void *buf, size_t len)
{
	const struct nlmsghdr *nlh;
	int proto = nl_protocol(fd);

	if (proto < 0)
		return;
	for (nlh = buf; NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
		struct nlmsghdr *copy = malloc(nlh->nlmsg_len);

		if (!copy)
			return;
		memcpy(copy, nlh, nlh->nlmsg_len);
		copy->nlmsg_seq = 0;
		copy->nlmsg_pid = 0;
		log_hex("nl", (unsigned long)proto, copy, copy->nlmsg_len);
		free(copy);
	}
}

EXPORT ssize_t sendto(int fd, const void *buf, size_t len, int flags,
		      const struct sockaddr *to, socklen_t tolen)
{
	static ssize_t (*real)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);

	if (!real)
		real = (ssize_t(*)(int, const void *, size_t, int, const struct sockaddr *,
				   socklen_t))dlsym(RTLD_NEXT, "sendto");
	log_netlink(fd, buf, len);
	return real(fd, buf, len, flags, to, tolen);
}

EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	static ssize_t (*real)(int, const struct msghdr *, int);

	if (!real)
		real = (ssize_t(*)(int, const struct msghdr *, int))dlsym(RTLD_NEXT, "sendmsg");
	/* ethtool and libmnl send one iovec per message batch. */
	for (size_t i = 0; msg && i < msg->msg_iovlen; i++)
		log_netlink(fd, msg->msg_iov[i].iov_base, msg->msg_iov[i].iov_len);
	return real(fd, msg, flags);
}
