/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Inside the ethtool netlink client: one transport (transport.c) and one
 * file per ethtool operation, each with its own attribute table, its reply
 * parser and its SIOCETHTOOL fallback beside it.
 *
 * Reply parsers take bytes (one whole netlink message, header included) so
 * that they can be fed anything, by the transport or by a fuzzer.
 */
#ifndef NP_ETHNL_H
#define NP_ETHNL_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "compat.h"
#include "../np_kernel.h"

/* RSS tables with their keys and the features string set are the big
 * replies; 64 KiB holds them with room to spare. */
#define NP_ETHNL_BUF_SIZE (64 * 1024)
#define NP_ETHNL_MAX_OPS 256

struct np_ethnl {
	struct mnl_socket *sk;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;		/* 0: the kernel has no ethtool family */
	uint64_t ops[NP_ETHNL_MAX_OPS / 64]; /* ETHTOOL_MSG_* the family implements */
	uint32_t monitor_group;		/* its "monitor" multicast group, 0: none */
	uint16_t nd_family;		/* the netdev family, 0: none (before 6.0) */
	uint64_t nd_ops;		/* NETDEV_CMD_* it implements */
	int sock_err;			/* a socket call failed: no more requests in
					 * this backend operation (np_ethnl_op_start) */
	/* ETH_SS_FEATURES names, index = feature bit; global, read once. */
	char (*feat_names)[NP_FEATURE_NAME_LEN];
	unsigned n_feat_names;
	char *rbuf, *sbuf;
};

/* A reply parser: msg is one netlink message of len bytes. */
typedef int (*np_ethnl_reply_fn)(const void *msg, size_t len, void *arg);

/* --- transport.c ---------------------------------------------------------- */

bool np_ethnl_has_op(const struct np_ethnl *nl, unsigned cmd);
/* A request of another generic netlink family on the same socket. */
struct nlmsghdr *np_genl_req(struct np_ethnl *nl, uint16_t family, uint8_t cmd,
			     uint8_t version);
/* A dump: fn sees each reply; NLMSG_DONE ends it. */
int np_ethnl_dump(struct np_ethnl *nl, struct nlmsghdr *req, np_ethnl_reply_fn fn, void *arg);
/* An ethtool request in nl->sbuf with its common header naming the device. */
struct nlmsghdr *np_ethnl_req(struct np_ethnl *nl, uint8_t cmd, const char *ifname,
			      uint32_t flags);
/* A set or an action: ends with its ack; the kernel's text in extack. */
int np_ethnl_request(struct np_ethnl *nl, struct nlmsghdr *req, np_ethnl_reply_fn fn,
		     void *arg, char *extack, size_t extack_len);
/* A get: its one reply ends it. */
int np_ethnl_get(struct np_ethnl *nl, struct nlmsghdr *req, np_ethnl_reply_fn fn, void *arg);

/* The attributes of a generic netlink message into tb[0..max]; -EPROTO
 * when the message is cut short.  Attributes above max are skipped. */
int np_ethnl_attrs(const void *msg, size_t len, const struct nlattr **tb, unsigned max);
int np_ethnl_nested(const struct nlattr *nest, const struct nlattr **tb, unsigned max);
bool np_ethnl_u32(const struct nlattr *a, uint32_t *v);
bool np_ethnl_u8(const struct nlattr *a, uint8_t *v);
/* netlink's variable-width "uint": 4 or 8 bytes */
bool np_ethnl_uint(const struct nlattr *a, uint64_t *v);
/* A NUL-terminated string attribute, or NULL. */
const char *np_ethnl_str(const struct nlattr *a);

/* A set's failure as the knob's error, with the kernel's words. */
int np_ethnl_set_failed(struct np_error *err, int r, const char *knob, const char *subject,
			const char *extack);

/* ioctl.c: one SIOCETHTOOL call on a datagram socket of its own. */
int np_ethtool_ioctl(const char *ifname, void *cmd);
int np_ioctl_read_drvinfo(const char *ifname, char *driver, size_t dlen, char *bus, size_t blen);

/* --- one file per operation: read (ioctl fallback inside) and parse ------- */

int np_ethnl_read_link(struct np_ethnl *nl, const char *ifname, struct np_link *ret);
int np_ethnl_parse_linkmodes(const void *msg, size_t len, struct np_link *l);
int np_ethnl_parse_linkstate(const void *msg, size_t len, struct np_link *l);

/* probe.c: which reported knobs the driver has no setter for (no-op SETs) */
void np_ethnl_probe(struct np_ethnl *nl, struct np_dev *dev);

int np_ethnl_read_channels(struct np_ethnl *nl, const char *ifname, struct np_channels *ret);
int np_ethnl_parse_channels(const void *msg, size_t len, struct np_channels *c);

int np_ethnl_read_rings(struct np_ethnl *nl, const char *ifname, struct np_rings *ret);
int np_ethnl_parse_rings(const void *msg, size_t len, struct np_rings *g);

int np_ethnl_read_coalesce(struct np_ethnl *nl, const char *ifname, struct np_coalesce *ret);
int np_ethnl_parse_coalesce(const void *msg, size_t len, struct np_coalesce *c);

/* Field f (enum np_coal_field, below NP_COAL_IOCTL_FIELDS) of the ioctl's
 * struct ethtool_coalesce, which holds the classic fields in that order. */
#define NP_COAL_IOCTL_FIELDS 22
uint32_t *np_coal_ioctl_field(struct ethtool_coalesce *c, unsigned f);

int np_ethnl_read_features(struct np_ethnl *nl, const char *ifname, struct np_features *f);
/* ETH_SS_FEATURES names from a STRSET_GET reply; *ret_names is the caller's. */
int np_ethnl_parse_feature_names(const void *msg, size_t len,
				 char (**ret_names)[NP_FEATURE_NAME_LEN], unsigned *ret_n);
int np_ethnl_parse_features(const void *msg, size_t len,
			    char (*names)[NP_FEATURE_NAME_LEN], unsigned n_names,
			    struct np_features *f);

int np_ethnl_read_rss(struct np_ethnl *nl, const char *ifname, struct np_rss *ret);
int np_ethnl_parse_rss(const void *msg, size_t len, struct np_rss *rss);

/* netdev.c: the netdev family (queue-get, napi-get, napi-set). */
bool np_netdev_has_op(const struct np_ethnl *nl, unsigned cmd);
/* Parse one napi-get reply into ret (its ifindex in *ifindex). */
int np_netdev_parse_napi(const void *msg, size_t len, uint32_t *ifindex,
			 struct np_napi_inst *ret);
/* Parse one queue-get reply: type, queue id, NAPI id (0 none). */
int np_netdev_parse_queue(const void *msg, size_t len, uint32_t *ifindex, uint32_t *type,
			  uint32_t *id, uint32_t *napi_id);
/* Queue `id` of `type` is served by NAPI napi_id: the NAPI's lowest such queue. */
void np_napis_add_queue(struct np_napis *napis, uint32_t type, uint32_t id, uint32_t napi_id);

#endif
