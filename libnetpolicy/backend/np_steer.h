/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Steering requests of the mixed policy: ntuple rules (ethnl/ntuple.c,
 * SIOCETHTOOL only: no kernel has a netlink interface for them) and extra
 * RSS contexts (ethnl/rss_ctx.c over ethtool netlink RSS_CREATE_ACT /
 * RSS_DELETE_ACT / RSS_GET where the family has the op,
 * ethnl/rss_ctx_ioctl.c's ETHTOOL_SRSSH otherwise).
 *
 * Each operation is an encoder and a decoder working on bytes, apart from
 * the I/O that sends them, so that tests compare the bytes with ethtool's
 * and feed kernel-shaped replies (and fuzzers) to the decoders.
 */
#ifndef NP_STEER_H
#define NP_STEER_H

#include <linux/ethtool.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "np_kernel.h"

/* --- ntuple rules (ethnl/ntuple.c) ---------------------------------------------------- */

/* One rule as the kernel holds it: SRXCLSRLINS's fs and rss_context. */
struct np_ntuple_rule {
	struct ethtool_rx_flow_spec fs;
	uint32_t rss_context;	/* meaningful with FLOW_RSS in fs.flow_type */
};

/* A device's rule table (ETHTOOL_GRXCLSRLCNT). */
struct np_ntuple_table {
	uint32_t size;		/* rule locations, 0 when the driver did not say */
	bool special;		/* takes RX_CLS_LOC_ANY/FIRST/LAST itself */
	uint32_t n_rules;
};

/* Targets: a queue, or an RSS context with a queue offset added to every
 * entry of the context's table (uapi ethtool.h, struct ethtool_rxnfc). */
void np_ntuple_to_queue(struct np_ntuple_rule *rule, uint32_t queue);
void np_ntuple_to_context(struct np_ntuple_rule *rule, uint32_t context, uint32_t offset);

/* Encoders: the whole struct ethtool_rxnfc the ioctl passes, zeroed first. */
void np_ntuple_enc_ins(const struct np_ntuple_rule *rule, struct ethtool_rxnfc *out);
void np_ntuple_enc_del(uint32_t location, struct ethtool_rxnfc *out);
void np_ntuple_enc_get(uint32_t location, struct ethtool_rxnfc *out);
void np_ntuple_enc_count(struct ethtool_rxnfc *out);
/* GRXCLSRLALL: the struct followed by room for n locations; len must be at
 * least np_ntuple_all_size(n). */
size_t np_ntuple_all_size(uint32_t n);
void np_ntuple_enc_all(uint32_t n, void *buf);

/* Decoders of what the kernel wrote back; -EPROTO when it cannot be one. */
int np_ntuple_dec_count(const void *buf, size_t len, struct np_ntuple_table *ret);
/* Locations of GRXCLSRLALL (asked for n = room): *ret_n of them in locs. */
int np_ntuple_dec_all(const void *buf, size_t len, uint32_t room, uint32_t *locs,
		      uint32_t *ret_n);
int np_ntuple_dec_rule(const void *buf, size_t len, struct np_ntuple_rule *ret);

/* Where a rule asked for at RX_CLS_LOC_ANY goes on a driver that does not
 * place rules itself: the highest free location, the lowest priority, as
 * ethtool(8) does, so that rules already there keep precedence.
 * -ENOSPC when the table is full. */
int np_ntuple_pick_location(const struct np_ntuple_table *t, const uint32_t *used, uint32_t n_used,
			    uint32_t *ret);

/* I/O: SIOCETHTOOL on ifname.  Errors are NP_PHASE_APPLY, knob "ntuple". */
int np_ntuple_count(const char *ifname, struct np_ntuple_table *ret, struct np_error *err);
/* Every rule on the device, netpolicy's or not; *ret freed by the caller. */
int np_ntuple_list(const char *ifname, struct np_ntuple_rule **ret, size_t *ret_n,
		   struct np_error *err);
/* Insert; rule->fs.location RX_CLS_LOC_ANY lets the driver or
 * np_ntuple_pick_location choose.  *ret_loc is where the rule went. */
int np_ntuple_insert(const char *ifname, const struct np_ntuple_rule *rule, uint32_t *ret_loc,
		     struct np_error *err);
int np_ntuple_delete(const char *ifname, uint32_t location, struct np_error *err);

/* --- RSS contexts (ethnl/rss_ctx.c, ethnl/rss_ctx_ioctl.c) ------------------------------ */

#define NP_RSS_CTX_INDIR_MAX 4096	/* entries; mlx5's largest table is 2048 */
#define NP_RSS_CTX_KEY_MAX 256		/* bytes */

/* What to create: context 0 lets the kernel choose the number.  indir
 * entries are absolute queue indices; n_indir 0 keeps the driver's default
 * spread; a table must have the device's size (RSS_GET or GRSSH). */
struct np_rss_ctx_req {
	uint32_t context;
	const uint32_t *indir;
	uint32_t n_indir;
	const uint8_t *key;
	uint32_t key_len;
	uint32_t hfunc;		/* ETH_RSS_HASH_* bit, 0 = driver's choice */
	uint32_t input_xfrm;	/* RXH_XFRM_*, 0 = none */
};

/* A context as the kernel reports it (RSS_GET or RSS_CREATE_ACT reply). */
struct np_rss_ctx_info {
	char ifname[16];
	uint32_t ifindex;
	uint32_t context;	/* 0: the main table */
	uint32_t hfunc;
	uint32_t input_xfrm;
	uint32_t n_indir;
	uint32_t indir[NP_RSS_CTX_INDIR_MAX];
	uint32_t key_len;
	uint8_t key[NP_RSS_CTX_KEY_MAX];
};

/* Netlink encoders: one complete request (nlmsghdr, genlmsghdr, attributes)
 * into buf, seq and pid 0 (the transport sets them).  Return its length, or
 * 0 when it does not fit in len. */
size_t np_rss_ctx_enc_create(void *buf, size_t len, uint16_t family, const char *ifname,
			     const struct np_rss_ctx_req *req);
size_t np_rss_ctx_enc_delete(void *buf, size_t len, uint16_t family, const char *ifname,
			     uint32_t context);
size_t np_rss_ctx_enc_get(void *buf, size_t len, uint16_t family, const char *ifname,
			  uint32_t context);
/* One reply message (RSS_GET_REPLY or RSS_CREATE_ACT_REPLY), whole. */
int np_rss_ctx_dec_reply(const void *buf, size_t len, struct np_rss_ctx_info *ret);
/* ioctl encoders (struct ethtool_rxfh, then the table, then the key). */
size_t np_rss_ctx_srssh_size(uint32_t n_indir, uint32_t key_len);
/* Create (context ETH_RXFH_CONTEXT_ALLOC when req->context is 0); buf has
 * np_rss_ctx_srssh_size() bytes.  No table (n_indir 0) is sent as
 * ETH_RXFH_INDIR_NO_CHANGE, the driver's default spread, as ethtool does;
 * a table must then have the device's size (GRSSH). */
int np_rss_ctx_enc_srssh_create(const struct np_rss_ctx_req *req, void *buf, size_t len);
/* Delete: indir_size 0 on a context other than 0. */
void np_rss_ctx_enc_srssh_delete(uint32_t context, struct ethtool_rxfh *out);
int np_rss_ctx_dec_srssh(const void *buf, size_t len, uint32_t *ret_context);

/* I/O: netlink when nl's family has the op (RSS_CREATE_ACT, 6.17), else the
 * ioctl; nl may be NULL (ioctl only).  Errors are NP_PHASE_APPLY, knob
 * "rss-context", with the kernel's extack text when it gave one. */
int np_rss_ctx_create(struct np_ethnl *nl, const char *ifname, const struct np_rss_ctx_req *req,
		      uint32_t *ret_context, struct np_error *err);
int np_rss_ctx_delete(struct np_ethnl *nl, const char *ifname, uint32_t context,
		      struct np_error *err);
/* One context's table and key (RSS_GET with a context, or GRSSH). */
int np_rss_ctx_get(struct np_ethnl *nl, const char *ifname, uint32_t context,
		   struct np_rss_ctx_info *ret, struct np_error *err);
/* The ioctl halves, used by the above and by tests. */
int np_rss_ctx_ioctl_create(const char *ifname, const struct np_rss_ctx_req *req,
			    uint32_t *ret_context, struct np_error *err);
int np_rss_ctx_ioctl_delete(const char *ifname, uint32_t context, struct np_error *err);
int np_rss_ctx_ioctl_get(const char *ifname, uint32_t context, struct np_rss_ctx_info *ret,
			 struct np_error *err);

#endif
