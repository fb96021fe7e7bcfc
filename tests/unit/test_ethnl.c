/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ethtool netlink reply parsers on bytes: well-formed replies, replies
 * cut short, attributes of the wrong size. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/ethnl/ethnl.h"
#include "genl_reply.h"
#include "tap.h"

/* an ethtool reply; 20 stands for the family id the controller gave */
static struct nlmsghdr *reply(uint8_t cmd)
{
	return np_test_reply(20, cmd, ETHTOOL_GENL_VERSION);
}

static void test_channels(void)
{
	struct nlmsghdr *nlh = reply(ETHTOOL_MSG_CHANNELS_GET_REPLY);
	struct np_channels c = { 0 };

	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_MAX, 64);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, 8);
	/* A u32 attribute carried as a u8 is not taken as a value. */
	mnl_attr_put_u8(nlh, ETHTOOL_A_CHANNELS_RX_COUNT, 3);
	/* An attribute from a future kernel is skipped, not written past tb. */
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_MAX + 5, 7);
	is_int(np_ethnl_parse_channels(nlh, nlh->nlmsg_len, &c), 0, "channels: parsed");
	is_int(c.max_combined, 64, "channels: combined max");
	is_int(c.combined, 8, "channels: combined");
	is_int(c.rx, 0, "channels: a u8 for a u32 is ignored");

	c = (struct np_channels){ 0 };
	is_int(np_ethnl_parse_channels(nlh, nlh->nlmsg_len - 1, &c), -EPROTO,
	       "channels: a reply cut short is refused");
	is_int(np_ethnl_parse_channels(nlh, 8, &c), -EPROTO, "channels: half a header is refused");
}

static void test_coalesce(void)
{
	struct nlmsghdr *nlh = reply(ETHTOOL_MSG_COALESCE_GET_REPLY);
	struct np_coalesce c = { 0 };

	mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_RX_USECS, 50);
	mnl_attr_put_u8(nlh, ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, 1);
	is_int(np_ethnl_parse_coalesce(nlh, nlh->nlmsg_len, &c), 0, "coalesce: parsed");
	is_int(c.val[NP_COAL_RX_USECS], 50, "coalesce: rx-usecs");
	is_int(c.val[NP_COAL_ADAPTIVE_RX], 1, "coalesce: adaptive-rx (u8)");
	is_int(c.supported, (1u << NP_COAL_RX_USECS) | (1u << NP_COAL_ADAPTIVE_RX),
	       "coalesce: exactly the fields present are supported");
}

static void test_rss(void)
{
	struct nlmsghdr *nlh = reply(NP_ETHTOOL_MSG_RSS_GET);
	uint32_t indir[4] = { 0, 1, 2, 3 };
	struct np_rss rss = { 0 };

	mnl_attr_put_u32(nlh, NP_ETHTOOL_A_RSS_HFUNC, 1);
	mnl_attr_put(nlh, NP_ETHTOOL_A_RSS_INDIR, sizeof(indir), indir);
	is_int(np_ethnl_parse_rss(nlh, nlh->nlmsg_len, &rss), 0, "rss: parsed");
	is_int(rss.indir_size, 4, "rss: table size");
	ok(rss.indir && rss.indir[3] == 3, "rss: table contents");
	free(rss.indir);
	free(rss.key);
}

static void test_features(void)
{
	struct nlmsghdr *nlh = reply(ETHTOOL_MSG_STRSET_GET_REPLY);
	struct nlattr *sets, *set, *strs, *str, *hw, *act;
	char (*names)[NP_FEATURE_NAME_LEN] = NULL;
	struct np_features f = { 0 };
	uint32_t words[1] = { 0x3 };
	unsigned n = 0;

	sets = mnl_attr_nest_start(nlh, ETHTOOL_A_STRSET_STRINGSETS);
	set = mnl_attr_nest_start(nlh, ETHTOOL_A_STRINGSETS_STRINGSET);
	mnl_attr_put_u32(nlh, ETHTOOL_A_STRINGSET_ID, ETH_SS_FEATURES);
	mnl_attr_put_u32(nlh, ETHTOOL_A_STRINGSET_COUNT, 2);
	strs = mnl_attr_nest_start(nlh, ETHTOOL_A_STRINGSET_STRINGS);
	for (uint32_t i = 0; i < 2; i++) {
		str = mnl_attr_nest_start(nlh, ETHTOOL_A_STRINGS_STRING);
		mnl_attr_put_u32(nlh, ETHTOOL_A_STRING_INDEX, i);
		mnl_attr_put_strz(nlh, ETHTOOL_A_STRING_VALUE, i ? "rx-gro-hw" : "rx-checksum");
		mnl_attr_nest_end(nlh, str);
	}
	mnl_attr_nest_end(nlh, strs);
	mnl_attr_nest_end(nlh, set);
	mnl_attr_nest_end(nlh, sets);
	is_int(np_ethnl_parse_feature_names(nlh, nlh->nlmsg_len, &names, &n), 0,
	       "strset: parsed");
	is_int(n, 2, "strset: two names");
	if (n != 2)
		return;
	is_str(names[1], "rx-gro-hw", "strset: name by index");

	nlh = reply(ETHTOOL_MSG_FEATURES_GET_REPLY);
	hw = mnl_attr_nest_start(nlh, ETHTOOL_A_FEATURES_HW);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 2);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, sizeof(words), words);
	mnl_attr_nest_end(nlh, hw);
	act = mnl_attr_nest_start(nlh, ETHTOOL_A_FEATURES_ACTIVE);
	/* A bitset claiming more bits than its words hold is refused. */
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 64);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, sizeof(words), words);
	mnl_attr_nest_end(nlh, act);
	is_int(np_ethnl_parse_features(nlh, nlh->nlmsg_len, names, n, &f), -EPROTO,
	       "features: a short bitset is refused");
	free(f.v);
	free(names);
}

/*
 * Lengths libmnl trusts: mnl_nlmsg_ok() compares nlmsg_len as an int (the
 * top bit set passes) and mnl_attr_parse() walks up to the aligned
 * nlmsg_len.  Each message sits at the very end of a buffer of its own
 * size, so a read past it is a fault (and an ASan report).
 */
static int parse_exact(const void *msg, size_t len, struct np_channels *c)
{
	char *copy = malloc(len);
	int r;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, msg, len);
	r = np_ethnl_parse_channels(copy, len, c);
	free(copy);
	return r;
}

static void test_lengths(void)
{
	struct nlmsghdr *nlh = reply(ETHTOOL_MSG_CHANNELS_GET_REPLY);
	struct np_channels c = { 0 };
	uint32_t good;

	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, 8);
	good = nlh->nlmsg_len;
	nlh->nlmsg_len = good | 0x80000000u;
	is_int(parse_exact(nlh, good, &c), -EPROTO, "lengths: a sign-flipped nlmsg_len is refused");
	nlh->nlmsg_len = good + 4;
	is_int(parse_exact(nlh, good, &c), -EPROTO, "lengths: nlmsg_len past the bytes is refused");

	/* An attribute header that starts 2 bytes before the end: libmnl
	 * reads its type from the 2 bytes past it. */
	nlh = reply(ETHTOOL_MSG_CHANNELS_GET_REPLY);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, 8);
	mnl_attr_put(nlh, ETHTOOL_A_CHANNELS_RX_COUNT, 0, NULL);
	nlh->nlmsg_len -= 2;
	is_int(parse_exact(nlh, nlh->nlmsg_len, &c), -EPROTO,
	       "lengths: an attribute cut short by an unaligned nlmsg_len is refused");

	/* A last attribute whose padding is not there is whole: taken. */
	nlh = reply(ETHTOOL_MSG_CHANNELS_GET_REPLY);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, 8);
	mnl_attr_put_u8(nlh, ETHTOOL_A_CHANNELS_MAX + 1, 1);
	nlh->nlmsg_len -= 3;
	c = (struct np_channels){ 0 };
	is_int(parse_exact(nlh, nlh->nlmsg_len, &c), 0,
	       "lengths: an unpadded last attribute is read within the message");
	is_int(c.combined, 8, "lengths: ... and the attributes before it too");

	/* Bytes after the attributes that are no attribute: cut short. */
	nlh = reply(ETHTOOL_MSG_CHANNELS_GET_REPLY);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, 8);
	nlh->nlmsg_len += 2;
	is_int(parse_exact(nlh, nlh->nlmsg_len, &c), -EPROTO,
	       "lengths: trailing bytes that are not an attribute are refused");
	/* An attribute longer than what is left of the message. */
	nlh = reply(ETHTOOL_MSG_CHANNELS_GET_REPLY);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, 8);
	((struct nlattr *)((char *)nlh + 20))->nla_len = 12;
	is_int(parse_exact(nlh, nlh->nlmsg_len, &c), -EPROTO,
	       "lengths: an attribute running past the message is refused");
}

int main(void)
{
	test_lengths();
	test_channels();
	test_coalesce();
	test_rss();
	test_features();
	return tap_done();
}
