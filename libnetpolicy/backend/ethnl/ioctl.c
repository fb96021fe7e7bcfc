/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SIOCETHTOOL, the transport of each operation's fallback when the kernel
 * has no ethtool netlink family (or an older one without the op), and of
 * driver info, which netlink has no op for.  Each call opens its own
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

#include "ethnl.h"

int np_ethtool_ioctl(const char *ifname, void *cmd)
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

	r = np_ethtool_ioctl(ifname, &info);
	if (r < 0)
		return r;
	snprintf(driver, dlen, "%.*s", (int)sizeof(info.driver), info.driver);
	snprintf(bus, blen, "%.*s", (int)sizeof(info.bus_info), info.bus_info);
	return 0;
}
