/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Offload features (ethtool -k/-K): the kernel's feature names
 * (STRSET_GET of ETH_SS_FEATURES, once per socket), FEATURES_GET/SET.  No
 * ioctl fallback: ETHTOOL_[GS]FEATURES needs the same string set, and a
 * kernel without ethtool netlink (before 5.6) keeps its features. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethnl.h"

int np_ethnl_parse_feature_names(const void *msg, size_t len,
				 char (**ret_names)[NP_FEATURE_NAME_LEN], unsigned *ret_n)
{
	const struct nlattr *tb[ETHTOOL_A_STRSET_MAX + 1], *set, *str;

	if (np_ethnl_attrs(msg, len, tb, ETHTOOL_A_STRSET_MAX) < 0 ||
	    !tb[ETHTOOL_A_STRSET_STRINGSETS])
		return -EPROTO;
	mnl_attr_for_each_nested(set, tb[ETHTOOL_A_STRSET_STRINGSETS]) {
		const struct nlattr *stb[ETHTOOL_A_STRINGSET_MAX + 1];
		char (*names)[NP_FEATURE_NAME_LEN];
		uint32_t id, count;

		if (np_ethnl_nested(set, stb, ETHTOOL_A_STRINGSET_MAX) < 0 ||
		    !np_ethnl_u32(stb[ETHTOOL_A_STRINGSET_ID], &id) || id != ETH_SS_FEATURES ||
		    !np_ethnl_u32(stb[ETHTOOL_A_STRINGSET_COUNT], &count) ||
		    !stb[ETHTOOL_A_STRINGSET_STRINGS])
			continue;
		if (count > 4096)
			return -EPROTO;
		names = calloc(count ? count : 1, sizeof(*names));
		if (!names)
			return -ENOMEM;
		mnl_attr_for_each_nested(str, stb[ETHTOOL_A_STRINGSET_STRINGS]) {
			const struct nlattr *ttb[ETHTOOL_A_STRING_MAX + 1];
			const char *name;
			uint32_t idx;

			if (np_ethnl_nested(str, ttb, ETHTOOL_A_STRING_MAX) < 0 ||
			    !np_ethnl_u32(ttb[ETHTOOL_A_STRING_INDEX], &idx) || idx >= count)
				continue;
			name = np_ethnl_str(ttb[ETHTOOL_A_STRING_VALUE]);
			if (name)
				snprintf(names[idx], NP_FEATURE_NAME_LEN, "%s", name);
		}
		*ret_names = names;
		*ret_n = count;
		return 0;
	}
	return -EPROTO;
}

static int strset_cb(const void *msg, size_t len, void *arg)
{
	struct np_ethnl *nl = arg;
	char (*names)[NP_FEATURE_NAME_LEN] = NULL;
	unsigned n = 0;
	int r;

	r = np_ethnl_parse_feature_names(msg, len, &names, &n);
	if (r < 0)
		return r;
	free(nl->feat_names);
	nl->feat_names = names;
	nl->n_feat_names = n;
	return 0;
}

/* Feature names are the kernel's, the same for every device: ask once. */
static int read_feature_names(struct np_ethnl *nl)
{
	struct nlmsghdr *nlh;
	struct nlattr *sets, *set;

	if (nl->feat_names)
		return 0;
	nlh = np_ethnl_req(nl, ETHTOOL_MSG_STRSET_GET, NULL, 0);
	sets = mnl_attr_nest_start(nlh, ETHTOOL_A_STRSET_STRINGSETS | NLA_F_NESTED);
	set = mnl_attr_nest_start(nlh, ETHTOOL_A_STRINGSETS_STRINGSET | NLA_F_NESTED);
	mnl_attr_put_u32(nlh, ETHTOOL_A_STRINGSET_ID, ETH_SS_FEATURES);
	mnl_attr_nest_end(nlh, set);
	mnl_attr_nest_end(nlh, sets);
	return np_ethnl_get(nl, nlh, strset_cb, nl);
}

struct bitset {
	uint32_t nbits;
	const uint32_t *words;
};

static int compact_bitset(const struct nlattr *a, struct bitset *b)
{
	const struct nlattr *tb[ETHTOOL_A_BITSET_MAX + 1];

	*b = (struct bitset){ 0 };
	if (!a)
		return 0;
	if (np_ethnl_nested(a, tb, ETHTOOL_A_BITSET_MAX) < 0 ||
	    !np_ethnl_u32(tb[ETHTOOL_A_BITSET_SIZE], &b->nbits) || !tb[ETHTOOL_A_BITSET_VALUE])
		return -EPROTO;
	if (mnl_attr_get_payload_len(tb[ETHTOOL_A_BITSET_VALUE]) <
	    ((uint64_t)b->nbits + 31) / 32 * 4)
		return -EPROTO;
	b->words = mnl_attr_get_payload(tb[ETHTOOL_A_BITSET_VALUE]);
	return 0;
}

static bool bit(const struct bitset *b, unsigned i)
{
	uint32_t w;

	if (i >= b->nbits)
		return false;
	/* The payload of an attribute is only 4-byte aligned by luck. */
	memcpy(&w, b->words + i / 32, sizeof(w));
	return (w >> (i % 32)) & 1;
}

int np_ethnl_parse_features(const void *msg, size_t len, char (*names)[NP_FEATURE_NAME_LEN],
			    unsigned n_names, struct np_features *f)
{
	const struct nlattr *tb[ETHTOOL_A_FEATURES_MAX + 1];
	struct bitset hw, wanted, active, nochange;
	struct np_feature *v;
	unsigned n = 0;

	if (np_ethnl_attrs(msg, len, tb, ETHTOOL_A_FEATURES_MAX) < 0 ||
	    compact_bitset(tb[ETHTOOL_A_FEATURES_HW], &hw) < 0 ||
	    compact_bitset(tb[ETHTOOL_A_FEATURES_WANTED], &wanted) < 0 ||
	    compact_bitset(tb[ETHTOOL_A_FEATURES_ACTIVE], &active) < 0 ||
	    compact_bitset(tb[ETHTOOL_A_FEATURES_NOCHANGE], &nochange) < 0)
		return -EPROTO;
	v = calloc(n_names ? n_names : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (unsigned i = 0; i < n_names; i++) {
		if (!names[i][0])
			continue;
		memcpy(v[n].name, names[i], NP_FEATURE_NAME_LEN);
		v[n].wanted = bit(&wanted, i);
		v[n].active = bit(&active, i);
		/* As ethtool -k says "[fixed]". */
		v[n].fixed = !bit(&hw, i) || bit(&nochange, i);
		n++;
	}
	free(f->v);
	f->v = v;
	f->n = n;
	return 0;
}

struct features_reply {
	const struct np_ethnl *nl;
	struct np_features *f;
};

static int features_cb(const void *msg, size_t len, void *arg)
{
	struct features_reply *fr = arg;

	return np_ethnl_parse_features(msg, len, fr->nl->feat_names, fr->nl->n_feat_names,
				       fr->f);
}

int np_ethnl_read_features(struct np_ethnl *nl, const char *ifname, struct np_features *f)
{
	struct features_reply fr = { .nl = nl, .f = f };
	int r;

	if (!np_ethnl_has_op(nl, ETHTOOL_MSG_FEATURES_GET) ||
	    !np_ethnl_has_op(nl, ETHTOOL_MSG_STRSET_GET))
		return -EOPNOTSUPP;
	r = read_feature_names(nl);
	if (r < 0)
		return r;
	r = np_ethnl_get(nl, np_ethnl_req(nl, ETHTOOL_MSG_FEATURES_GET, ifname,
					  ETHTOOL_FLAG_COMPACT_BITSETS),
			 features_cb, &fr);
	if (r < 0) {
		free(f->v);
		f->v = NULL;
		f->n = 0;
	}
	return r;
}

struct feature_set {
	const char *name;
	bool refused;
};

/* The reply lists, in WANTED, the requested bits that did not take. */
static int feature_set_cb(const void *msg, size_t len, void *arg)
{
	const struct nlattr *tb[ETHTOOL_A_FEATURES_MAX + 1];
	const struct nlattr *btb[ETHTOOL_A_BITSET_MAX + 1], *b;
	struct feature_set *fs = arg;

	if (np_ethnl_attrs(msg, len, tb, ETHTOOL_A_FEATURES_MAX) < 0)
		return -EPROTO;
	if (!tb[ETHTOOL_A_FEATURES_WANTED] ||
	    np_ethnl_nested(tb[ETHTOOL_A_FEATURES_WANTED], btb, ETHTOOL_A_BITSET_MAX) < 0 ||
	    !btb[ETHTOOL_A_BITSET_BITS])
		return 0;
	mnl_attr_for_each_nested(b, btb[ETHTOOL_A_BITSET_BITS]) {
		const struct nlattr *ttb[ETHTOOL_A_BITSET_BIT_MAX + 1];
		const char *name;

		if (np_ethnl_nested(b, ttb, ETHTOOL_A_BITSET_BIT_MAX) < 0)
			continue;
		name = np_ethnl_str(ttb[ETHTOOL_A_BITSET_BIT_NAME]);
		if (name && !strcmp(name, fs->name))
			fs->refused = true;
	}
	return 0;
}

int np_ethnl_set_feature(struct np_ethnl *nl, const struct np_dev *dev, const char *name,
			 bool on, struct np_error *err)
{
	char extack[sizeof(err->extack)] = "";
	struct feature_set fs = { .name = name };
	struct nlattr *wanted, *bits, *b;
	struct nlmsghdr *nlh;
	int r;

	if (!np_ethnl_has_op(nl, ETHTOOL_MSG_FEATURES_SET))
		return np_err(err, -EOPNOTSUPP, NP_PHASE_APPLY, "features",
			      "%s: the kernel has no ethtool netlink", name);
	if (!name || strlen(name) >= NP_FEATURE_NAME_LEN)
		return np_err(err, -EINVAL, NP_PHASE_APPLY, "features", "invalid feature name");
	/* Verbose, with a mask: only this one bit changes, and the reply
	 * names it when the kernel could not honour it. */
	nlh = np_ethnl_req(nl, ETHTOOL_MSG_FEATURES_SET, dev->ifname, 0);
	wanted = mnl_attr_nest_start(nlh, ETHTOOL_A_FEATURES_WANTED | NLA_F_NESTED);
	bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS | NLA_F_NESTED);
	b = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS_BIT | NLA_F_NESTED);
	mnl_attr_put_strz(nlh, ETHTOOL_A_BITSET_BIT_NAME, name);
	if (on)
		mnl_attr_put(nlh, ETHTOOL_A_BITSET_BIT_VALUE, 0, "");
	mnl_attr_nest_end(nlh, b);
	mnl_attr_nest_end(nlh, bits);
	mnl_attr_nest_end(nlh, wanted);
	r = np_ethnl_request(nl, nlh, feature_set_cb, &fs, extack, sizeof(extack));
	if (r < 0)
		return np_ethnl_set_failed(err, r, "features", name, extack);
	if (fs.refused)
		return np_err(err, -EOPNOTSUPP, NP_PHASE_APPLY, "features",
			      "%s could not be turned %s (fixed, or held by another feature)",
			      name, on ? "on" : "off");
	return 0;
}
