/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every value a policy sets, by the name policy files and `policies --json`
 * use (netpolicy-policy(5)): one table that reads, prints and compares them,
 * so built-in and custom policies go through the same code.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "plan/policy/np_policy_file.h"

static const char *const chan_names[] = {
	[NP_CHAN_LINK_SPEED] = "link-speed",
	[NP_CHAN_LOCAL_CORES] = "local-cores",
	[NP_CHAN_MAX] = "max",
};
static const char *const ring_names[] = {
	[NP_RING_KEEP] = "keep",
	[NP_RING_BURST] = "burst",
	[NP_RING_MAX] = "max",
};
/* rings.rx, rings.tx: as the rings key says, or a rule of their own */
static const char *const ring_side_names[] = {
	[NP_RING_SIDE_AS_RINGS] = "as-rings",
	[NP_RING_KEEP + 1] = "keep",
	[NP_RING_BURST + 1] = "burst",
	[NP_RING_MAX + 1] = "max",
};

/*
 * The offloads tuning guides change with ethtool -K, by ethtool's short
 * name and the kernel's (both are taken; the short one is printed).  Only
 * these: a policy is about moving packets, not about what the stack may
 * hand the NIC to compute (checksums, VLAN tags).
 */
const struct np_policy_feature np_policy_features[] = {
	{ "gro", "rx-gro" },
	{ "lro", "rx-lro" },
	{ "rx-gro-hw", "rx-gro-hw" },
	{ "rx-gro-list", "rx-gro-list" },
	{ "rx-udp-gro-forwarding", "rx-udp-gro-forwarding" },
	{ "ntuple", "rx-ntuple-filter" },
	{ "rxhash", "rx-hashing" },
	{ "tso", "tx-tcp-segmentation" },
	{ "gso", "tx-generic-segmentation" },
};
const size_t np_policy_n_features = NP_ARRAY_SIZE(np_policy_features);

const struct np_policy_feature *np_policy_feature_find(const char *key)
{
	for (size_t i = 0; i < np_policy_n_features; i++)
		if (!strcmp(np_policy_features[i].key, key) ||
		    !strcmp(np_policy_features[i].name, key))
			return &np_policy_features[i];
	return NULL;
}
static const char *const pm_qos_names[] = {
	[NP_PMQ_OFF] = "off",
	[NP_PMQ_AUTO] = "auto",
};

static const char *const rps_names[] = {
	[NP_RPS_OFF] = "off",
	[NP_RPS_FEW_QUEUES] = "few-queues",
};

static const char *const ceil_names[] = {
	[NP_CEIL_OFF] = "off",
	[NP_CEIL_AUTO] = "auto",
};

#define OFF(f) offsetof(struct np_policy, f)
#define NAMES(a) a, NP_ARRAY_SIZE(a)

const struct np_policy_key np_policy_keys[] = {
	{ "channels", NP_KEY_RULE, OFF(channels), NAMES(chan_names), "channels", OFF(channels_n),
	  NP_CHAN_COUNT },
	{ "rings", NP_KEY_RULE, OFF(rings), NAMES(ring_names), "rings", OFF(rings_n),
	  NP_RING_COUNT },
	{ "rings.rx", NP_KEY_RULE, OFF(rings_rx), NAMES(ring_side_names), "rings", OFF(rings_rx_n),
	  NP_RING_COUNT + 1 },
	{ "rings.tx", NP_KEY_RULE, OFF(rings_tx), NAMES(ring_side_names), "rings", OFF(rings_tx_n),
	  NP_RING_COUNT + 1 },
	{ "adaptive", NP_KEY_BOOL, OFF(adaptive), NULL, 0, "coalesce", 0, 0 },
	{ "rps", NP_KEY_ENUM, OFF(rps), NAMES(rps_names), "steering", 0, 0 },
	{ "rfs-entries", NP_KEY_U32, OFF(rfs_entries), NULL, 0, "steering", 0, 0 },
	{ "napi", NP_KEY_BOOL, OFF(napi), NULL, 0, "napi", 0, 0 },
	{ "napi-defer-hard-irqs", NP_KEY_U32, OFF(napi_defer_hard_irqs), NULL, 0, "napi", 0, 0 },
	{ "gro-flush-timeout", NP_KEY_U64, OFF(gro_flush_timeout), NULL, 0, "napi", 0, 0 },
	{ "busy-poll", NP_KEY_U32, OFF(busy_poll), NULL, 0, "napi", 0, 0 },
	{ "busy-read", NP_KEY_U32, OFF(busy_read), NULL, 0, "napi", 0, 0 },
	{ "pm-qos", NP_KEY_RULE, OFF(pm_qos), NAMES(pm_qos_names), "napi", OFF(pm_qos_us),
	  NP_PMQ_US },
	{ "socket-buffers", NP_KEY_RULE, OFF(sockbuf), NAMES(ceil_names), "buffers", OFF(sockbuf_n),
	  NP_CEIL_COUNT },
	{ "rtt-us", NP_KEY_U32, OFF(rtt_us), NULL, 0, "buffers", 0, 0 },
	{ "backlog", NP_KEY_RULE, OFF(backlog), NAMES(ceil_names), "buffers", OFF(backlog_n),
	  NP_CEIL_COUNT },
};
const size_t np_policy_n_keys = NP_ARRAY_SIZE(np_policy_keys);

static bool coal_is_bool(int f)
{
	return f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX || f == NP_COAL_CQE_MODE_RX ||
	       f == NP_COAL_CQE_MODE_TX;
}

static const void *field(const struct np_policy *p, const struct np_policy_key *k)
{
	return (const char *)p + k->off;
}

/* Enums are stored as int-sized enum members. */
static unsigned get_enum(const struct np_policy *p, const struct np_policy_key *k)
{
	return (unsigned)*(const int *)field(p, k);
}

int np_policy_key_value_json(const struct np_policy *p, const struct np_policy_key *k,
			     struct json_object **ret)
{
	struct json_object *o = NULL;
	unsigned e;

	switch (k->type) {
	case NP_KEY_RULE:
		e = get_enum(p, k);
		if ((int)e == k->count_rule) {
			o = json_object_new_int64(*(const uint32_t *)((const char *)p + k->off_n));
			break;
		}
		/* fall through */
	case NP_KEY_ENUM:
		e = get_enum(p, k);
		o = json_object_new_string(e < k->n_names && k->names[e] ? k->names[e] : "?");
		break;
	case NP_KEY_BOOL:
		o = json_object_new_boolean(*(const bool *)field(p, k));
		break;
	case NP_KEY_U32:
		o = json_object_new_int64(*(const uint32_t *)field(p, k));
		break;
	case NP_KEY_U64:
		o = json_object_new_uint64(*(const uint64_t *)field(p, k));
		break;
	}
	if (!o)
		return -ENOMEM;
	*ret = o;
	return 0;
}

int np_policy_coal_json(int f, uint32_t v, struct json_object **ret)
{
	struct json_object *o = coal_is_bool(f) ? json_object_new_boolean(v != 0) :
						  json_object_new_int64(v);

	if (!o)
		return -ENOMEM;
	*ret = o;
	return 0;
}

const struct np_policy_key *np_policy_key_find(const char *name)
{
	for (size_t i = 0; i < np_policy_n_keys; i++)
		if (!strcmp(np_policy_keys[i].name, name))
			return &np_policy_keys[i];
	return NULL;
}

/* Words for booleans: the file's (yes/no, on/off) and JSON's (true/false). */
static int parse_bool(const char *s, bool *ret)
{
	if (!strcmp(s, "yes") || !strcmp(s, "on") || !strcmp(s, "true") || !strcmp(s, "1"))
		*ret = true;
	else if (!strcmp(s, "no") || !strcmp(s, "off") || !strcmp(s, "false") || !strcmp(s, "0"))
		*ret = false;
	else
		return -EINVAL;
	return 0;
}

static int parse_uint(const char *s, uint64_t max, uint64_t *ret)
{
	char *end;
	uint64_t v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int np_policy_key_set(struct np_policy *p, const struct np_policy_key *k, const char *value,
		      char *why, size_t why_len)
{
	void *f = (char *)p + k->off;
	uint64_t u;
	bool b;
	int r;

	switch (k->type) {
	case NP_KEY_RULE:
	case NP_KEY_ENUM:
		for (size_t i = 0; i < k->n_names; i++)
			if (k->names[i] && !strcmp(k->names[i], value)) {
				*(int *)f = (int)i;
				return 0;
			}
		if (k->type == NP_KEY_RULE && parse_uint(value, UINT32_MAX, &u) == 0 && u) {
			*(int *)f = k->count_rule;
			*(uint32_t *)((char *)p + k->off_n) = (uint32_t)u;
			return 0;
		}
		r = snprintf(why, why_len, "'%s' is not a value of %s (valid:%s", value, k->name,
			     k->type == NP_KEY_RULE ? " a number from 1," : "");
		for (size_t i = 0; i < k->n_names && r >= 0 && (size_t)r < why_len; i++)
			r += snprintf(why + r, why_len - (size_t)r, " %s", k->names[i]);
		if (r >= 0 && (size_t)r < why_len)
			snprintf(why + r, why_len - (size_t)r, ")");
		return -EINVAL;
	case NP_KEY_BOOL:
		if (parse_bool(value, &b) < 0) {
			snprintf(why, why_len, "%s: '%s' is not yes or no", k->name, value);
			return -EINVAL;
		}
		*(bool *)f = b;
		return 0;
	case NP_KEY_U32:
	case NP_KEY_U64:
		r = parse_uint(value, k->type == NP_KEY_U32 ? UINT32_MAX : UINT64_MAX, &u);
		if (r < 0) {
			snprintf(why, why_len, "%s: '%s' is not a number%s", k->name, value,
				 r == -ERANGE ? " in range" : "");
			return -EINVAL;
		}
		if (k->type == NP_KEY_U32)
			*(uint32_t *)f = (uint32_t)u;
		else
			*(uint64_t *)f = u;
		return 0;
	}
	return -EINVAL;
}

int np_policy_coal_parse(int f, const char *value, uint32_t *ret, char *why, size_t why_len)
{
	uint64_t u;
	bool b;

	if (coal_is_bool(f)) {
		if (parse_bool(value, &b) < 0) {
			snprintf(why, why_len, "coalesce.%s: '%s' is not on or off",
				 np_coal_field_name(f), value);
			return -EINVAL;
		}
		*ret = b;
		return 0;
	}
	if (parse_uint(value, UINT32_MAX, &u) < 0) {
		snprintf(why, why_len, "coalesce.%s: '%s' is not a number (0-4294967295)",
			 np_coal_field_name(f), value);
		return -EINVAL;
	}
	*ret = (uint32_t)u;
	return 0;
}

/* A JSON value of `values` back to the words a file would hold. */
int np_policy_json_word(struct json_object *v, char *buf, size_t len)
{
	switch (json_object_get_type(v)) {
	case json_type_boolean:
		snprintf(buf, len, "%s", json_object_get_boolean(v) ? "yes" : "no");
		return 0;
	case json_type_int:
		if (json_object_get_int64(v) < 0)
			return -EINVAL;
		snprintf(buf, len, "%" PRIu64, json_object_get_uint64(v));
		return 0;
	case json_type_string:
		snprintf(buf, len, "%s", json_object_get_string(v));
		return 0;
	default:
		return -EINVAL;
	}
}

int np_policy_custom_feature(struct np_custom_policy *c, const char *name, const char *value,
			     unsigned line, char *why, size_t why_len)
{
	const struct np_policy_feature *f = np_policy_feature_find(name);
	size_t i;
	bool b;

	if (!f) {
		int r = snprintf(why, why_len, "features.%s: not a feature a policy sets (valid:",
				 name);

		for (i = 0; i < np_policy_n_features && r >= 0 && (size_t)r < why_len; i++)
			r += snprintf(why + r, why_len - (size_t)r, " %s", np_policy_features[i].key);
		if (r >= 0 && (size_t)r < why_len)
			snprintf(why + r, why_len - (size_t)r, ")");
		return -ENOENT;
	}
	if (parse_bool(value, &b) < 0) {
		snprintf(why, why_len, "features.%s: '%s' is not on or off", name, value);
		return -EINVAL;
	}
	for (i = 0; i < c->p.n_features && c->feat[i].f != f; i++)
		;
	if (i == NP_ARRAY_SIZE(c->feat)) {
		snprintf(why, why_len, "too many features");
		return -EINVAL;
	}
	if (i == c->p.n_features)
		c->p.n_features++;
	c->feat[i].f = f;
	c->feat[i].on = b;
	c->feat_line[i] = line;
	return 0;
}

void np_policy_custom_adaptive(struct np_custom_policy *c)
{
	static const enum np_coal_field fixed[] = { NP_COAL_RX_USECS, NP_COAL_RX_FRAMES,
						    NP_COAL_TX_USECS, NP_COAL_TX_FRAMES };
	const struct np_policy_key *k = np_policy_key_find("adaptive");
	unsigned line = 0;

	if (!c->p.adaptive || c->key_line[k - np_policy_keys] ||
	    c->coal_line[NP_COAL_ADAPTIVE_RX] || c->coal_line[NP_COAL_ADAPTIVE_TX])
		return;
	for (size_t i = 0; i < NP_ARRAY_SIZE(fixed); i++)
		if (c->coal_line[fixed[i]] && (!line || c->coal_line[fixed[i]] < line))
			line = c->coal_line[fixed[i]];
	if (!line)
		return;
	/* the value asked for is the one used: with adaptive moderation on the
	 * driver would pick its own and ignore it */
	c->p.adaptive = false;
	c->p.adaptive_off_line = line;
	c->key_line[k - np_policy_keys] = line;
}
