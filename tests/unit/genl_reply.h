/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A generic netlink reply header for the parser tests to add attributes to. */
#ifndef NP_TEST_GENL_REPLY_H
#define NP_TEST_GENL_REPLY_H

#include <stdint.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

/* A reply of @family (the id the controller gave) to @cmd, in one static
 * buffer: each call starts a new message over the last. */
static inline struct nlmsghdr *np_test_reply(uint16_t family, uint8_t cmd, uint8_t version)
{
	static char buf[4096];
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = family;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

#endif
