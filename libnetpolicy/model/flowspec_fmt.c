/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct ethtool_rx_flow_spec -> the flow grammar of np_flow.h, for show
 * and for reports about rules found on a device.  Only what the grammar can
 * say is formatted; a rule with any other field or mask (a foreign rule
 * written by ethtool with, say, a TOS match) is -EINVAL, so that a rule is
 * never shown as something it is not.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/np_flow.h"

struct out {
	char *buf;
	size_t len, n;
	bool terms;	/* a term was written: the next one needs ',' */
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(o->n < o->len ? o->buf + o->n : NULL, o->n < o->len ? o->len - o->n : 0,
		      fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n += (size_t)k;
}

static void term(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void term(struct out *o, const char *fmt, ...)
{
	char t[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t, sizeof(t), fmt, ap);
	va_end(ap);
	put(o, "%s%s", o->terms ? "," : ":", t);
	o->terms = true;
}

static bool all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

/* The prefix length of a mask of n bytes, or -1 when it is not a prefix;
 * also -1 when the value has bits outside the mask. */
static int prefix_len(const uint8_t *ip, const uint8_t *mask, size_t n)
{
	int len = 0;
	bool ended = false;

	for (size_t i = 0; i < n; i++) {
		if (ip[i] & ~mask[i])
			return -1;
		for (int b = 7; b >= 0; b--) {
			bool set = mask[i] >> b & 1;

			if (set && ended)
				return -1;
			if (set)
				len++;
			else
				ended = true;
		}
	}
	return len;
}

static int addr_term(struct out *o, const char *key, int af, const void *ip, const void *mask)
{
	size_t n = af == AF_INET ? 4 : 16;
	char txt[INET6_ADDRSTRLEN];
	int plen = prefix_len(ip, mask, n);

	if (plen < 0)
		return -EINVAL;
	if (plen == 0)
		return 0;
	if (!inet_ntop(af, ip, txt, sizeof(txt)))
		return -EINVAL;
	if ((size_t)plen == n * 8)
		term(o, "%s=%s", key, txt);
	else
		term(o, "%s=%s/%d", key, txt, plen);
	return 0;
}

static int port_term(struct out *o, const char *key, uint16_t v, uint16_t m)
{
	if (m == 0)
		return v ? -EINVAL : 0;
	if (m != 0xffff || v == 0)
		return -EINVAL;
	term(o, "%s=%u", key, ntohs(v));
	return 0;
}

static const char *l4_name(uint32_t type, bool *v6)
{
	*v6 = false;
	switch (type) {
	case TCP_V4_FLOW: return "tcp4";
	case UDP_V4_FLOW: return "udp4";
	case SCTP_V4_FLOW: return "sctp4";
	case IPV4_USER_FLOW: return "ip4";
	}
	*v6 = true;
	switch (type) {
	case TCP_V6_FLOW: return "tcp6";
	case UDP_V6_FLOW: return "udp6";
	case SCTP_V6_FLOW: return "sctp6";
	case IPV6_USER_FLOW: return "ip6";
	}
	return NULL;
}

static int format_ip(struct out *o, const struct ethtool_rx_flow_spec *fs, uint32_t type)
{
	const union ethtool_flow_union *h = &fs->h_u, *m = &fs->m_u;
	bool v6, l4 = type != IPV4_USER_FLOW && type != IPV6_USER_FLOW;
	const char *name = l4_name(type, &v6);
	int r;

	if (!name)
		return -EINVAL;
	put(o, "%s", name);
	if (!v6 && l4) {
		const struct ethtool_tcpip4_spec *hs = &h->tcp_ip4_spec, *ms = &m->tcp_ip4_spec;

		/* Nothing beyond the struct's fields, no TOS match. */
		if (ms->tos || hs->tos || !all_zero((const uint8_t *)m + sizeof(*ms),
						    sizeof(*m) - sizeof(*ms)))
			return -EINVAL;
		if ((r = addr_term(o, "src-ip", AF_INET, &hs->ip4src, &ms->ip4src)) < 0 ||
		    (r = addr_term(o, "dst-ip", AF_INET, &hs->ip4dst, &ms->ip4dst)) < 0 ||
		    (r = port_term(o, "src-port", hs->psrc, ms->psrc)) < 0 ||
		    (r = port_term(o, "dst-port", hs->pdst, ms->pdst)) < 0)
			return r;
	} else if (!v6) {
		const struct ethtool_usrip4_spec *hs = &h->usr_ip4_spec, *ms = &m->usr_ip4_spec;

		if (hs->ip_ver != ETH_RX_NFC_IP4 || ms->ip_ver || hs->l4_4_bytes ||
		    ms->l4_4_bytes || hs->tos || ms->tos || hs->proto || ms->proto)
			return -EINVAL;
		if ((r = addr_term(o, "src-ip", AF_INET, &hs->ip4src, &ms->ip4src)) < 0 ||
		    (r = addr_term(o, "dst-ip", AF_INET, &hs->ip4dst, &ms->ip4dst)) < 0)
			return r;
	} else if (l4) {
		const struct ethtool_tcpip6_spec *hs = &h->tcp_ip6_spec, *ms = &m->tcp_ip6_spec;

		if (ms->tclass || hs->tclass)
			return -EINVAL;
		if ((r = addr_term(o, "src-ip", AF_INET6, hs->ip6src, ms->ip6src)) < 0 ||
		    (r = addr_term(o, "dst-ip", AF_INET6, hs->ip6dst, ms->ip6dst)) < 0 ||
		    (r = port_term(o, "src-port", hs->psrc, ms->psrc)) < 0 ||
		    (r = port_term(o, "dst-port", hs->pdst, ms->pdst)) < 0)
			return r;
	} else {
		const struct ethtool_usrip6_spec *hs = &h->usr_ip6_spec, *ms = &m->usr_ip6_spec;

		if (hs->l4_4_bytes || ms->l4_4_bytes || hs->tclass || ms->tclass ||
		    hs->l4_proto || ms->l4_proto)
			return -EINVAL;
		if ((r = addr_term(o, "src-ip", AF_INET6, hs->ip6src, ms->ip6src)) < 0 ||
		    (r = addr_term(o, "dst-ip", AF_INET6, hs->ip6dst, ms->ip6dst)) < 0)
			return r;
	}
	return 0;
}

int np_flow_rule_format(const struct ethtool_rx_flow_spec *fs, char *buf, size_t len)
{
	struct out o = { .buf = buf, .len = len };
	/* FLOW_RSS says where matches go, not what matches. */
	uint32_t type = fs->flow_type & ~(FLOW_EXT | FLOW_RSS);
	struct ethtool_flow_ext hx = fs->h_ext, mx = fs->m_ext;
	int r;

	if (len)
		buf[0] = '\0';
	if (type & FLOW_MAC_EXT)
		return -EINVAL;
	if (type == ETHER_FLOW) {
		if (!all_zero(&fs->h_u, sizeof(fs->h_u)) || !all_zero(&fs->m_u, sizeof(fs->m_u)))
			return -EINVAL;
		put(&o, "ether");
	} else {
		/* Bytes past the type's struct must be zero: they would be a
		 * match the text does not show. */
		r = format_ip(&o, fs, type);
		if (r < 0)
			return r;
	}
	if (fs->flow_type & FLOW_EXT) {
		uint16_t tci = ntohs(hx.vlan_tci), tmask = ntohs(mx.vlan_tci);

		if (tmask != 0x0fff || tci > 0x0fff)
			return -EINVAL;
		term(&o, "vlan=%u", tci);
		hx.vlan_tci = mx.vlan_tci = 0;
	}
	if (!all_zero(&hx, sizeof(hx)) || !all_zero(&mx, sizeof(mx)))
		return -EINVAL;
	if (o.n < len)
		buf[o.n] = '\0';
	else if (len)
		buf[len - 1] = '\0';
	return (int)o.n;
}

/* The same match as b, value for value: a rule that takes exactly its
 * packets (the action and the location aside). */
bool np_flow_same_match(const struct ethtool_rx_flow_spec *a, const struct ethtool_rx_flow_spec *b)
{
	const unsigned char *ha = (const void *)&a->h_u, *hb = (const void *)&b->h_u;
	const unsigned char *ma = (const void *)&a->m_u, *mb = (const void *)&b->m_u;
	const uint32_t strip = FLOW_RSS;

	if ((a->flow_type & ~strip) != (b->flow_type & ~strip) || memcmp(ma, mb, sizeof(a->m_u)))
		return false;
	for (size_t i = 0; i < sizeof(a->h_u); i++)
		if ((ha[i] ^ hb[i]) & ma[i])
			return false;
	return !(a->flow_type & FLOW_EXT) ||
	       (a->m_ext.vlan_tci == b->m_ext.vlan_tci &&
		!((a->h_ext.vlan_tci ^ b->h_ext.vlan_tci) & a->m_ext.vlan_tci));
}
