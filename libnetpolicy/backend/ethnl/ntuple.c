/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ntuple (RX network flow classification) rules: SIOCETHTOOL with struct
 * ethtool_rxnfc.  There is no netlink message for them in any kernel
 * (doc/kernel.md), so the ioctl is the interface, not a fallback.
 *
 * Layout (include/uapi/linux/ethtool.h; checked below at build time):
 * cmd u32, flow_type u32, data u64, fs (168 bytes), rss_context/rule_cnt u32,
 * padding, then rule_locs[] for GRXCLSRLALL.  The kernel copies the whole
 * struct (net/ethtool/ioctl.c, ethtool_rxnfc_copy_from_user); drivers read
 * fs and rss_context for an insert and fs.location for a delete.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ethnl.h"
#include "../np_steer.h"

_Static_assert(sizeof(struct ethtool_rx_flow_spec) == 168, "uapi ethtool_rx_flow_spec layout");
_Static_assert(offsetof(struct ethtool_rx_flow_spec, ring_cookie) == 152,
	       "uapi ethtool_rx_flow_spec layout");
_Static_assert(offsetof(struct ethtool_rxnfc, fs) == 16, "uapi ethtool_rxnfc layout");
_Static_assert(offsetof(struct ethtool_rxnfc, rss_context) == 184, "uapi ethtool_rxnfc layout");
_Static_assert(sizeof(struct ethtool_rxnfc) == 192, "uapi ethtool_rxnfc layout");

#define KNOB "ntuple"
/* More locations than any driver's table (mlx5 and ice have a few
 * thousand); bounds what a broken reply can make us allocate. */
#define MAX_RULES 65536

void np_ntuple_to_queue(struct np_ntuple_rule *rule, uint32_t queue)
{
	rule->fs.flow_type &= ~FLOW_RSS;
	rule->fs.ring_cookie = queue;
	rule->rss_context = 0;
}

void np_ntuple_to_context(struct np_ntuple_rule *rule, uint32_t context, uint32_t offset)
{
	rule->fs.flow_type |= FLOW_RSS;
	rule->fs.ring_cookie = offset;
	rule->rss_context = context;
}

void np_ntuple_enc_ins(const struct np_ntuple_rule *rule, struct ethtool_rxnfc *out)
{
	memset(out, 0, sizeof(*out));
	out->cmd = ETHTOOL_SRXCLSRLINS;
	out->fs = rule->fs;
	if (rule->fs.flow_type & FLOW_RSS)
		out->rss_context = rule->rss_context;
}

static void enc_loc(uint32_t cmd, uint32_t location, struct ethtool_rxnfc *out)
{
	memset(out, 0, sizeof(*out));
	out->cmd = cmd;
	out->fs.location = location;
}

void np_ntuple_enc_del(uint32_t location, struct ethtool_rxnfc *out)
{
	enc_loc(ETHTOOL_SRXCLSRLDEL, location, out);
}

void np_ntuple_enc_get(uint32_t location, struct ethtool_rxnfc *out)
{
	enc_loc(ETHTOOL_GRXCLSRULE, location, out);
}

void np_ntuple_enc_count(struct ethtool_rxnfc *out)
{
	memset(out, 0, sizeof(*out));
	out->cmd = ETHTOOL_GRXCLSRLCNT;
}

size_t np_ntuple_all_size(uint32_t n)
{
	return sizeof(struct ethtool_rxnfc) + (size_t)n * sizeof(uint32_t);
}

void np_ntuple_enc_all(uint32_t n, void *buf)
{
	struct ethtool_rxnfc *nfc = buf;

	memset(buf, 0, np_ntuple_all_size(n));
	nfc->cmd = ETHTOOL_GRXCLSRLALL;
	nfc->rule_cnt = n;
}

int np_ntuple_dec_count(const void *buf, size_t len, struct np_ntuple_table *ret)
{
	struct ethtool_rxnfc nfc;

	if (len < sizeof(nfc))
		return -EPROTO;
	memcpy(&nfc, buf, sizeof(nfc));
	if (nfc.cmd != ETHTOOL_GRXCLSRLCNT)
		return -EPROTO;
	/* data: the table size with RX_CLS_LOC_SPECIAL or'ed in when the
	 * driver places rules itself; 0 when it did not say. */
	ret->special = nfc.data & RX_CLS_LOC_SPECIAL;
	ret->size = (uint32_t)(nfc.data & ~(uint64_t)RX_CLS_LOC_SPECIAL);
	ret->n_rules = nfc.rule_cnt;
	if ((nfc.data >> 32) || (ret->size && ret->n_rules > ret->size))
		return -EPROTO;
	return 0;
}

int np_ntuple_dec_all(const void *buf, size_t len, uint32_t room, uint32_t *locs,
		      uint32_t *ret_n)
{
	struct ethtool_rxnfc nfc;

	if (len < sizeof(nfc))
		return -EPROTO;
	memcpy(&nfc, buf, sizeof(nfc));
	/* The kernel never reports more rules than there was room for
	 * (net/ethtool/ioctl.c, ethtool_get_rxnfc: rule_cnt is the array size). */
	if (nfc.cmd != ETHTOOL_GRXCLSRLALL || nfc.rule_cnt > room ||
	    len < np_ntuple_all_size(nfc.rule_cnt))
		return -EPROTO;
	memcpy(locs, (const uint8_t *)buf + sizeof(nfc), (size_t)nfc.rule_cnt * sizeof(uint32_t));
	*ret_n = nfc.rule_cnt;
	return 0;
}

int np_ntuple_dec_rule(const void *buf, size_t len, struct np_ntuple_rule *ret)
{
	struct ethtool_rxnfc nfc;

	if (len < sizeof(nfc))
		return -EPROTO;
	memcpy(&nfc, buf, sizeof(nfc));
	if (nfc.cmd != ETHTOOL_GRXCLSRULE)
		return -EPROTO;
	ret->fs = nfc.fs;
	ret->rss_context = nfc.fs.flow_type & FLOW_RSS ? nfc.rss_context : 0;
	return 0;
}

int np_ntuple_pick_location(const struct np_ntuple_table *t, const uint32_t *used, uint32_t n_used,
			    uint32_t *ret)
{
	uint32_t loc;

	for (loc = t->size; loc-- > 0;) {
		bool taken = false;

		for (uint32_t i = 0; i < n_used && !taken; i++)
			taken = used[i] == loc;
		if (!taken) {
			*ret = loc;
			return 0;
		}
	}
	return -ENOSPC;
}

/* --- I/O ------------------------------------------------------------------------ */

static int io_failed(struct np_error *err, int r, const char *ifname, const char *what)
{
	return np_err(err, r, NP_PHASE_APPLY, KNOB, "%s: %s: %s%s", ifname, what, strerror(-r),
		      r == -EOPNOTSUPP ? " (driver has no ntuple filters, or rx-ntuple-filter "
					 "is off)" : "");
}

int np_ntuple_count(const char *ifname, struct np_ntuple_table *ret, struct np_error *err)
{
	struct ethtool_rxnfc nfc;
	int r;

	np_ntuple_enc_count(&nfc);
	r = np_ethtool_ioctl(ifname, &nfc);
	if (r < 0)
		return io_failed(err, r, ifname, "counting ntuple rules");
	r = np_ntuple_dec_count(&nfc, sizeof(nfc), ret);
	if (r < 0)
		return io_failed(err, r, ifname, "counting ntuple rules");
	return 0;
}

/* Locations in use; *ret_locs freed by the caller. */
static int list_locations(const char *ifname, const struct np_ntuple_table *t, uint32_t **ret_locs,
			  uint32_t *ret_n, struct np_error *err)
{
	uint32_t room = t->n_rules, n = 0, *locs = NULL;
	void *buf;
	int r;

	if (room > MAX_RULES)
		return io_failed(err, -EPROTO, ifname, "listing ntuple rules");
	buf = malloc(np_ntuple_all_size(room));
	locs = calloc(room ? room : 1, sizeof(*locs));
	if (!buf || !locs) {
		r = np_err(err, -ENOMEM, NP_PHASE_APPLY, KNOB, "out of memory");
		goto out;
	}
	np_ntuple_enc_all(room, buf);
	r = np_ethtool_ioctl(ifname, buf);
	if (r == 0)
		r = np_ntuple_dec_all(buf, np_ntuple_all_size(room), room, locs, &n);
	if (r < 0) {
		r = io_failed(err, r, ifname, "listing ntuple rules");
		goto out;
	}
	*ret_locs = locs;
	*ret_n = n;
	locs = NULL;
out:
	free(buf);
	free(locs);
	return r;
}

int np_ntuple_list(const char *ifname, struct np_ntuple_rule **ret, size_t *ret_n,
		   struct np_error *err)
{
	struct np_ntuple_table t;
	struct np_ntuple_rule *rules = NULL;
	uint32_t *locs = NULL, n = 0;
	int r;

	r = np_ntuple_count(ifname, &t, err);
	if (r < 0)
		return r;
	r = list_locations(ifname, &t, &locs, &n, err);
	if (r < 0)
		return r;
	rules = calloc(n ? n : 1, sizeof(*rules));
	if (!rules) {
		r = np_err(err, -ENOMEM, NP_PHASE_APPLY, KNOB, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct ethtool_rxnfc nfc;

		np_ntuple_enc_get(locs[i], &nfc);
		r = np_ethtool_ioctl(ifname, &nfc);
		if (r == 0)
			r = np_ntuple_dec_rule(&nfc, sizeof(nfc), &rules[i]);
		if (r < 0) {
			r = io_failed(err, r, ifname, "reading an ntuple rule");
			goto out;
		}
	}
	*ret = rules;
	*ret_n = n;
	rules = NULL;
out:
	free(rules);
	free(locs);
	return r;
}

int np_ntuple_insert(const char *ifname, const struct np_ntuple_rule *rule, uint32_t *ret_loc,
		     struct np_error *err)
{
	struct np_ntuple_rule want = *rule;
	struct ethtool_rxnfc nfc;
	int r;

	if (want.fs.location & RX_CLS_LOC_SPECIAL) {
		struct np_ntuple_table t;
		uint32_t *locs = NULL, n = 0;

		/* Only a driver that says so places rules itself
		 * (RX_CLS_LOC_SPECIAL in GRXCLSRLCNT's data); for the others
		 * (ice, i40e, mlx5, ixgbe) choose a free location. */
		r = np_ntuple_count(ifname, &t, err);
		if (r < 0)
			return r;
		if (!t.special) {
			r = list_locations(ifname, &t, &locs, &n, err);
			if (r < 0)
				return r;
			r = np_ntuple_pick_location(&t, locs, n, &want.fs.location);
			free(locs);
			if (r < 0)
				return np_err(err, r, NP_PHASE_APPLY, KNOB,
					      "%s: the ntuple rule table is full (%u rules)", ifname,
					      t.size);
		}
	}
	np_ntuple_enc_ins(&want, &nfc);
	r = np_ethtool_ioctl(ifname, &nfc);
	if (r < 0)
		return io_failed(err, r, ifname, "inserting an ntuple rule");
	/* The driver writes back where the rule went (uapi: "On return,
	 * fs.location is the actual rule location"). */
	*ret_loc = nfc.fs.location;
	return 0;
}

int np_ntuple_delete(const char *ifname, uint32_t location, struct np_error *err)
{
	struct ethtool_rxnfc nfc;
	int r;

	np_ntuple_enc_del(location, &nfc);
	r = np_ethtool_ioctl(ifname, &nfc);
	if (r < 0)
		return io_failed(err, r, ifname, "deleting an ntuple rule");
	return 0;
}
