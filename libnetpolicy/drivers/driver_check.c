/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the driver table (drivers.c) says of one request: would the driver
 * take these coalescing values or this ntuple rule, and the value nearest to
 * a policy's that it takes.  The planner plans with these and the simulated
 * drivers refuse with them, so both follow the same facts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drivers/np_drivers.h"

bool np_driver_paired(const struct np_dev *dev)
{
	bool queue_irq = false;

	for (unsigned i = 0; i < dev->n_irq; i++) {
		if (dev->irq[i].kind == NP_IRQ_TXRX && dev->irq[i].queue >= 0)
			return true;
		if (dev->irq[i].queue >= 0)
			queue_irq = true;
	}
	return !queue_irq && !dev->channels.err && dev->channels.combined > 0;
}

bool np_driver_paired_after(const struct np_driver *drv, const struct np_dev *dev,
			    const struct np_channels *after, bool *predicted)
{
	const struct np_channels *now = &dev->channels;

	*predicted = false;
	if (!drv || !drv->pairs_above_half || now->err || after->err || !after->max_combined ||
	    (now->combined == after->combined && now->rx == after->rx && now->tx == after->tx))
		return np_driver_paired(dev);
	*predicted = true;
	return after->combined > after->max_combined / 2;
}

const struct np_coal_special *np_driver_coal_special(const struct np_driver *drv,
						     enum np_coal_field f, uint32_t v)
{
	for (size_t i = 0; drv && i < drv->n_specials; i++)
		if (drv->specials[i].field == f && drv->specials[i].value == v)
			return &drv->specials[i];
	return NULL;
}

static const struct np_coal_range *range_of(const struct np_driver *drv, enum np_coal_field f)
{
	for (size_t i = 0; drv && i < drv->n_ranges; i++)
		if (drv->ranges[i].field == f)
			return &drv->ranges[i];
	return NULL;
}

static bool takes(const struct np_driver *drv, enum np_coal_field f, uint32_t v)
{
	const struct np_coal_range *r = range_of(drv, f);

	return !r || (v >= r->min && v <= r->max) || np_driver_coal_special(drv, f, v);
}

uint32_t np_driver_coal_nearest(const struct np_driver *drv, enum np_coal_field f, uint32_t v)
{
	const struct np_coal_range *r = range_of(drv, f);
	uint32_t best = v, dist = UINT32_MAX;

	if (takes(drv, f, v))
		return v;
	/* the range's ends, and every special value of the field that is a
	 * fixed delay (a mode would change more than the delay) */
	if (v < r->min)
		best = r->min, dist = r->min - v;
	else
		best = r->max, dist = v - r->max;
	for (size_t i = 0; i < drv->n_specials; i++) {
		const struct np_coal_special *s = &drv->specials[i];
		uint32_t d = s->value > v ? s->value - v : v - s->value;

		if (s->field == f && s->mode == NP_COAL_MODE_OFF && d < dist)
			best = s->value, dist = d;
	}
	return best;
}

/* The frame count of each direction against its delay (frames_need_usecs,
 * frames_follow_usecs, usecs_or_frames), after the ranges. */
static int frames_check(const struct np_driver *drv, const struct np_coalesce *want,
			uint32_t fields, char *why, size_t len)
{
	static const enum np_coal_field pairs[][2] = {
		{ NP_COAL_RX_USECS, NP_COAL_RX_FRAMES },
		{ NP_COAL_TX_USECS, NP_COAL_TX_FRAMES },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		enum np_coal_field u = pairs[i][0], fr = pairs[i][1];
		uint32_t usecs = want->val[u], frames = want->val[fr];

		if (!(fields & (NP_COAL_BIT(u) | NP_COAL_BIT(fr))))
			continue;
		if (drv->frames_need_usecs && frames > 1 && !usecs) {
			snprintf(why, len, "%s %u without %s: %s counts frames only with a delay",
				 np_coal_field_name(fr), frames, np_coal_field_name(u), drv->name);
			return -EINVAL;
		}
		if (drv->usecs_or_frames && !frames && !usecs) {
			snprintf(why, len, "%s 0 with %s 0: %s needs a delay or a frame count",
				 np_coal_field_name(u), np_coal_field_name(fr), drv->name);
			return -EINVAL;
		}
		if (drv->frames_follow_usecs && frames != !usecs) {
			snprintf(why, len, "%s %u with %s %u: %s counts no frames (%u with it)",
				 np_coal_field_name(fr), frames, np_coal_field_name(u), usecs,
				 drv->name, !usecs);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* hns3's one rate limit (usecs_high_shared): the request's two values,
 * the kernel filling in the one not sent from the device. */
static int high_check(const struct np_driver *drv, const struct np_coalesce *want, uint32_t fields,
		      char *why, size_t len)
{
	uint32_t rx = want->val[NP_COAL_RX_USECS_HIGH], tx = want->val[NP_COAL_TX_USECS_HIGH];

	if (!drv->usecs_high_shared ||
	    !(fields & (NP_COAL_BIT(NP_COAL_RX_USECS_HIGH) | NP_COAL_BIT(NP_COAL_TX_USECS_HIGH))) ||
	    rx == tx)
		return 0;
	snprintf(why, len, "tx-usecs-high %u with rx-usecs-high %u: %s takes one value for both",
		 tx, rx, drv->name);
	return -EINVAL;
}

int np_driver_coal_check(const struct np_driver *drv, const struct np_dev *dev,
			 const struct np_coalesce *want, uint32_t fields, char *why, size_t len)
{
	int code;

	if (!drv)
		return 0;
	for (int f = 0; f < NP_COAL__COUNT; f++) {
		const struct np_coal_range *r = range_of(drv, f);
		bool refused = drv->paired_refuses_change ? want->val[f] != dev->coalesce.val[f] :
							    want->val[f] != 0;

		if (!(fields & NP_COAL_BIT(f)))
			continue;
		if ((drv->paired_refuses & NP_COAL_BIT(f)) && refused && np_driver_paired(dev)) {
			snprintf(why, len, "%s: %s refuses it while Rx and Tx share a vector",
				 np_coal_field_name(f), drv->name);
			return -EINVAL;
		}
		if (r && !takes(drv, f, want->val[f])) {
			snprintf(why, len, "%s %u: %s takes %u-%u", np_coal_field_name(f), want->val[f],
				 drv->name, r->min, r->max);
			return r->code;
		}
	}
	code = frames_check(drv, want, fields, why, len);
	return code ? code : high_check(drv, want, fields, why, len);
}

static bool part(const void *m, size_t n)
{
	const uint8_t *b = m;
	bool zero = true, ones = true;

	for (size_t i = 0; i < n; i++) {
		zero = zero && !b[i];
		ones = ones && b[i] == 0xff;
	}
	return !zero && !ones;
}

/* An address or port mask of the rule that is neither whole nor empty. */
static bool partial_mask(const struct ethtool_rx_flow_spec *fs, uint32_t type)
{
	const union ethtool_flow_union *m = &fs->m_u;

	switch (type) {
	case TCP_V4_FLOW:
	case UDP_V4_FLOW:
	case SCTP_V4_FLOW:
		return part(&m->tcp_ip4_spec.ip4src, 4) || part(&m->tcp_ip4_spec.ip4dst, 4) ||
		       part(&m->tcp_ip4_spec.psrc, 2) || part(&m->tcp_ip4_spec.pdst, 2);
	case IPV4_USER_FLOW:
		return part(&m->usr_ip4_spec.ip4src, 4) || part(&m->usr_ip4_spec.ip4dst, 4);
	case TCP_V6_FLOW:
	case UDP_V6_FLOW:
	case SCTP_V6_FLOW:
		return part(m->tcp_ip6_spec.ip6src, 16) || part(m->tcp_ip6_spec.ip6dst, 16) ||
		       part(&m->tcp_ip6_spec.psrc, 2) || part(&m->tcp_ip6_spec.pdst, 2);
	case IPV6_USER_FLOW:
		return part(m->usr_ip6_spec.ip6src, 16) || part(m->usr_ip6_spec.ip6dst, 16);
	default:
		return false;
	}
}

int np_driver_rule_check(const struct np_driver *drv, const struct ethtool_rx_flow_spec *fs,
			 char *why, size_t len)
{
	uint32_t type = fs->flow_type & ~(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS);

	if (!drv)
		return 0;
	if (drv->no_ntuple) {
		snprintf(why, len, "driver %s has no ntuple filters (%s)", drv->name,
			 drv->ntuple_file);
		return -EOPNOTSUPP;
	}
	if (drv->ntuple_types && (type >= 32 || !(drv->ntuple_types & NP_FLOW_BIT(type)))) {
		snprintf(why, len, "driver %s takes no rules of flow type %u (%s)", drv->name, type,
			 drv->ntuple_file);
		return -EINVAL;
	}
	if ((fs->flow_type & FLOW_EXT) && fs->m_ext.vlan_tci && drv->ntuple_file &&
	    !drv->ntuple_vlan) {
		snprintf(why, len, "driver %s matches no VLAN id in its rules (%s)", drv->name,
			 drv->ntuple_file);
		return -EINVAL;
	}
	if (drv->ntuple_partial_mask && partial_mask(fs, type)) {
		snprintf(why, len, "driver %s takes an address or port mask only whole or empty, "
			 "no prefix or range (%s)", drv->name, drv->ntuple_file);
		return drv->ntuple_partial_mask;
	}
	if ((fs->flow_type & FLOW_RSS) && drv->no_rss_ctx) {
		snprintf(why, len, "driver %s has no RSS contexts for a rule to use (%s)", drv->name,
			 drv->ntuple_file);
		return -EINVAL;
	}
	return 0;
}

/* The fields a rule matches, as the bytes its masks name: masks here are
 * whole or empty per field (partial ones are refused first), so equal
 * shapes are equal input sets. */
static bool same_fields(const struct ethtool_rx_flow_spec *a, const struct ethtool_rx_flow_spec *b)
{
	const unsigned char *x = (const void *)&a->m_u, *y = (const void *)&b->m_u;
	const unsigned char *xe = (const void *)&a->m_ext, *ye = (const void *)&b->m_ext;

	for (size_t i = 0; i < sizeof(a->m_u); i++)
		if (!x[i] != !y[i])
			return false;
	for (size_t i = 0; i < sizeof(a->m_ext); i++)
		if (((a->flow_type & FLOW_EXT) && xe[i]) != ((b->flow_type & FLOW_EXT) && ye[i]))
			return false;
	return true;
}

int np_driver_rules_together(const struct np_driver *drv, const struct ethtool_rx_flow_spec *a,
			     const struct ethtool_rx_flow_spec *b, char *why, size_t len)
{
	uint32_t base = ~(uint32_t)(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS);

	if (!drv || !drv->ntuple_one_input_set || (a->flow_type & base) != (b->flow_type & base) ||
	    same_fields(a, b))
		return 0;
	snprintf(why, len, "driver %s takes one set of matched fields per flow type while a "
		 "rule of that type exists (%s)", drv->name, drv->ntuple_file);
	return -EINVAL;
}

/* Some bit of the mask is set: the field is matched. */
static bool any_set(const void *m, size_t n)
{
	const uint8_t *b = m;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return true;
	return false;
}

/* The fields a rule matches, counted as mlx5 counts its tuples (np_drivers.h
 * NP_RULE_ORDER_FIELDS; citations.tsv): each member of the flow type's
 * header whose mask is not all zero, one more for the protocol of a TCP,
 * UDP or SCTP rule and for the family of an IP user rule (an Ethernet rule
 * has none), one for a VLAN, one for a MAC-extension destination.  So rules
 * of different flow types compare as the driver compares them. */
static unsigned n_fields(const struct ethtool_rx_flow_spec *fs)
{
	const struct ethtool_tcpip4_spec *t4 = &fs->m_u.tcp_ip4_spec;
	const struct ethtool_tcpip6_spec *t6 = &fs->m_u.tcp_ip6_spec;
	const struct ethtool_usrip4_spec *u4 = &fs->m_u.usr_ip4_spec;
	const struct ethtool_usrip6_spec *u6 = &fs->m_u.usr_ip6_spec;
	const struct ethhdr *e = &fs->m_u.ether_spec;
	unsigned n = 0;

	switch (fs->flow_type & ~(uint32_t)(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS)) {
	case TCP_V4_FLOW: case UDP_V4_FLOW: case SCTP_V4_FLOW:
		n = 1 + !!t4->ip4src + !!t4->ip4dst + !!t4->psrc + !!t4->pdst + !!t4->tos;
		break;
	case TCP_V6_FLOW: case UDP_V6_FLOW: case SCTP_V6_FLOW:
		n = 1 + any_set(t6->ip6src, 16) + any_set(t6->ip6dst, 16) + !!t6->psrc +
		    !!t6->pdst + !!t6->tclass;
		break;
	case IPV4_USER_FLOW:
		n = 1 + !!u4->ip4src + !!u4->ip4dst + !!u4->l4_4_bytes + !!u4->tos + !!u4->proto;
		break;
	case IPV6_USER_FLOW:
		n = 1 + any_set(u6->ip6src, 16) + any_set(u6->ip6dst, 16) + !!u6->l4_4_bytes +
		    !!u6->tclass + !!u6->l4_proto;
		break;
	case ETHER_FLOW:
		n = any_set(e->h_dest, ETH_ALEN) + any_set(e->h_source, ETH_ALEN) + !!e->h_proto;
		break;
	}
	if (fs->flow_type & FLOW_EXT)
		n++;
	if ((fs->flow_type & FLOW_MAC_EXT) && any_set(fs->m_ext.h_dest, ETH_ALEN))
		n++;
	return n;
}

void np_driver_rule_precedence(const struct np_driver *drv, const char *driver,
			       const struct ethtool_rx_flow_spec *foreign,
			       const struct ethtool_rx_flow_spec *ours, char *buf, size_t len)
{
	unsigned a, b;

	switch (drv ? drv->rule_order : NP_RULE_ORDER_UNKNOWN) {
	case NP_RULE_ORDER_FIELDS:
		a = n_fields(foreign);
		b = n_fields(ours);
		if (a != b)
			snprintf(buf, len, "which matches %s (driver %s tries a rule matching more "
				 "fields first, %s)", a > b ? "first" : "after ours", drv->name,
				 drv->ntuple_file);
		else
			snprintf(buf, len, "which may match first (driver %s orders rules matching "
				 "as many fields in its hardware, %s)", drv->name, drv->ntuple_file);
		return;
	case NP_RULE_ORDER_FIRMWARE:
		snprintf(buf, len, "which may match first (driver %s gives every rule one "
			 "priority; the NIC's firmware orders them, %s)", drv->name,
			 drv->ntuple_file);
		return;
	case NP_RULE_ORDER_UNKNOWN:
		break;
	}
	snprintf(buf, len, "which may match first (the order between overlapping rules is "
		 "driver %s's)", driver);
}
