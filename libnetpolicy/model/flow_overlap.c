/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Could one packet match two ntuple rules?  Comparing the rules' unions
 * byte for byte only works within one flow type: a foreign
 * "ip4:dst-ip=10.0.0.1" takes TCP packets a "tcp4:dst-port=6379" wants, and
 * an "ether:vlan=100" takes some of every IP flow's.  So each rule is first
 * turned into the header fields it constrains, the ones its flow type
 * implies included (tcp4 means EtherType 0x0800 and IP protocol 6), and two
 * rules overlap when no field has a bit both constrain with different
 * values.  The first four bytes after the IP header are one field: the
 * ports of TCP, UDP and SCTP, the SPI of ESP, the l4_4_bytes of a user IP
 * rule.  Where a flow type leaves a field open (AH-or-ESP, AH's SPI, which
 * sits at another offset) the field is left unconstrained, so the answer
 * errs towards "overlap": a warning too many, not one missing.
 */
#include <arpa/inet.h>
#include <string.h>

#include "model/np_flow.h"

enum {
	H_ETYPE = 0,		/* EtherType, 2 bytes */
	H_PROTO = 2,		/* IP protocol / IPv6 next header, 1 */
	H_SRC = 3,		/* IPv4 (first 4 bytes) or IPv6 source, 16 */
	H_DST = 19,		/* destination, 16 */
	H_TOS = 35,		/* TOS / traffic class, 1 */
	H_L4 = 36,		/* first 4 bytes of L4: ports, ESP SPI, 4 */
	H_AH_SPI = 40,		/* AH's SPI (bytes 4-7 of its header), 4 */
	H_MAC_DST = 44,		/* 6 */
	H_MAC_SRC = 50,		/* 6 */
	H_VLAN_TCI = 56,	/* 2 */
	H_VLAN_ETYPE = 58,	/* 2 */
	H_USER = 60,		/* user-defined data (FLOW_EXT data[]), 8 */
	H_LEN = 68,
};

struct hdr {
	unsigned char v[H_LEN], m[H_LEN];
};

static void put(struct hdr *h, unsigned off, const void *v, const void *m, size_t n)
{
	memcpy(h->v + off, v, n);
	memcpy(h->m + off, m, n);
}

/* A field the flow type implies: all of it must be `v`. */
static void put_fixed(struct hdr *h, unsigned off, const void *v, size_t n)
{
	memcpy(h->v + off, v, n);
	memset(h->m + off, 0xff, n);
}

static void put_etype(struct hdr *h, uint16_t etype)
{
	uint16_t be = htons(etype);

	put_fixed(h, H_ETYPE, &be, 2);
}

static void put_proto(struct hdr *h, uint8_t proto)
{
	put_fixed(h, H_PROTO, &proto, 1);
}

/* The IP protocol a flow type names, 0 for none (user IP, AH-or-ESP). */
static uint8_t type_proto(uint32_t type)
{
	switch (type) {
	case TCP_V4_FLOW: case TCP_V6_FLOW: return 6;
	case UDP_V4_FLOW: case UDP_V6_FLOW: return 17;
	case SCTP_V4_FLOW: case SCTP_V6_FLOW: return 132;
	case ESP_V4_FLOW: case ESP_V6_FLOW: return 50;
	case AH_V4_FLOW: case AH_V6_FLOW: return 51;
	}
	return 0;
}

static void ip4_fields(struct hdr *h, const struct ethtool_rx_flow_spec *fs, uint32_t type)
{
	const struct ethtool_tcpip4_spec *v = &fs->h_u.tcp_ip4_spec, *m = &fs->m_u.tcp_ip4_spec;
	const struct ethtool_ah_espip4_spec *av = &fs->h_u.ah_ip4_spec, *am = &fs->m_u.ah_ip4_spec;
	const struct ethtool_usrip4_spec *uv = &fs->h_u.usr_ip4_spec, *um = &fs->m_u.usr_ip4_spec;

	put_etype(h, 0x0800);
	if (type_proto(type))
		put_proto(h, type_proto(type));
	switch (type) {
	case TCP_V4_FLOW: case UDP_V4_FLOW: case SCTP_V4_FLOW:
		put(h, H_SRC, &v->ip4src, &m->ip4src, 4);
		put(h, H_DST, &v->ip4dst, &m->ip4dst, 4);
		put(h, H_L4, &v->psrc, &m->psrc, 2);
		put(h, H_L4 + 2, &v->pdst, &m->pdst, 2);
		put(h, H_TOS, &v->tos, &m->tos, 1);
		break;
	case AH_V4_FLOW: case ESP_V4_FLOW: case AH_ESP_V4_FLOW:
		put(h, H_SRC, &av->ip4src, &am->ip4src, 4);
		put(h, H_DST, &av->ip4dst, &am->ip4dst, 4);
		put(h, H_TOS, &av->tos, &am->tos, 1);
		if (type != AH_ESP_V4_FLOW)
			put(h, type == ESP_V4_FLOW ? H_L4 : H_AH_SPI, &av->spi, &am->spi, 4);
		break;
	case IPV4_USER_FLOW:
		put(h, H_SRC, &uv->ip4src, &um->ip4src, 4);
		put(h, H_DST, &uv->ip4dst, &um->ip4dst, 4);
		put(h, H_L4, &uv->l4_4_bytes, &um->l4_4_bytes, 4);
		put(h, H_TOS, &uv->tos, &um->tos, 1);
		put(h, H_PROTO, &uv->proto, &um->proto, 1);
		break;
	}
}

static void ip6_fields(struct hdr *h, const struct ethtool_rx_flow_spec *fs, uint32_t type)
{
	const struct ethtool_tcpip6_spec *v = &fs->h_u.tcp_ip6_spec, *m = &fs->m_u.tcp_ip6_spec;
	const struct ethtool_ah_espip6_spec *av = &fs->h_u.ah_ip6_spec, *am = &fs->m_u.ah_ip6_spec;
	const struct ethtool_usrip6_spec *uv = &fs->h_u.usr_ip6_spec, *um = &fs->m_u.usr_ip6_spec;

	put_etype(h, 0x86dd);
	if (type_proto(type))
		put_proto(h, type_proto(type));
	switch (type) {
	case TCP_V6_FLOW: case UDP_V6_FLOW: case SCTP_V6_FLOW:
		put(h, H_SRC, v->ip6src, m->ip6src, 16);
		put(h, H_DST, v->ip6dst, m->ip6dst, 16);
		put(h, H_L4, &v->psrc, &m->psrc, 2);
		put(h, H_L4 + 2, &v->pdst, &m->pdst, 2);
		put(h, H_TOS, &v->tclass, &m->tclass, 1);
		break;
	case AH_V6_FLOW: case ESP_V6_FLOW: case AH_ESP_V6_FLOW:
		put(h, H_SRC, av->ip6src, am->ip6src, 16);
		put(h, H_DST, av->ip6dst, am->ip6dst, 16);
		put(h, H_TOS, &av->tclass, &am->tclass, 1);
		if (type != AH_ESP_V6_FLOW)
			put(h, type == ESP_V6_FLOW ? H_L4 : H_AH_SPI, &av->spi, &am->spi, 4);
		break;
	case IPV6_USER_FLOW:
		put(h, H_SRC, uv->ip6src, um->ip6src, 16);
		put(h, H_DST, uv->ip6dst, um->ip6dst, 16);
		put(h, H_L4, &uv->l4_4_bytes, &um->l4_4_bytes, 4);
		put(h, H_TOS, &uv->tclass, &um->tclass, 1);
		put(h, H_PROTO, &uv->l4_proto, &um->l4_proto, 1);
		break;
	}
}

/* The header fields `fs` constrains; false for a flow type not known here. */
static bool to_hdr(const struct ethtool_rx_flow_spec *fs, struct hdr *h)
{
	uint32_t type = fs->flow_type & ~(uint32_t)(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS);
	const struct ethhdr *ev = &fs->h_u.ether_spec, *em = &fs->m_u.ether_spec;

	memset(h, 0, sizeof(*h));
	switch (type) {
	case TCP_V4_FLOW: case UDP_V4_FLOW: case SCTP_V4_FLOW: case AH_V4_FLOW:
	case ESP_V4_FLOW: case AH_ESP_V4_FLOW: case IPV4_USER_FLOW:
		ip4_fields(h, fs, type);
		break;
	case TCP_V6_FLOW: case UDP_V6_FLOW: case SCTP_V6_FLOW: case AH_V6_FLOW:
	case ESP_V6_FLOW: case AH_ESP_V6_FLOW: case IPV6_USER_FLOW:
		ip6_fields(h, fs, type);
		break;
	case ETHER_FLOW:
		put(h, H_MAC_DST, ev->h_dest, em->h_dest, ETH_ALEN);
		put(h, H_MAC_SRC, ev->h_source, em->h_source, ETH_ALEN);
		put(h, H_ETYPE, &ev->h_proto, &em->h_proto, 2);
		break;
	default:
		return false;
	}
	if (fs->flow_type & FLOW_EXT) {
		put(h, H_VLAN_TCI, &fs->h_ext.vlan_tci, &fs->m_ext.vlan_tci, 2);
		put(h, H_VLAN_ETYPE, &fs->h_ext.vlan_etype, &fs->m_ext.vlan_etype, 2);
		put(h, H_USER, fs->h_ext.data, fs->m_ext.data, 8);
	}
	if (fs->flow_type & FLOW_MAC_EXT)
		put(h, H_MAC_DST, fs->h_ext.h_dest, fs->m_ext.h_dest, ETH_ALEN);
	return true;
}

bool np_flow_overlaps(const struct ethtool_rx_flow_spec *a, const struct ethtool_rx_flow_spec *b)
{
	struct hdr x, y;

	if (!to_hdr(a, &x) || !to_hdr(b, &y)) {
		/* a flow type not known here: the same type's fields, byte for byte */
		const unsigned char *ha = (const void *)&a->h_u, *hb = (const void *)&b->h_u;
		const unsigned char *ma = (const void *)&a->m_u, *mb = (const void *)&b->m_u;
		const uint32_t strip = FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS;

		if ((a->flow_type & ~strip) != (b->flow_type & ~strip))
			return false;
		for (size_t i = 0; i < sizeof(a->h_u); i++)
			if ((ha[i] ^ hb[i]) & ma[i] & mb[i])
				return false;
		return !((a->flow_type & FLOW_EXT) && (b->flow_type & FLOW_EXT) &&
			 ((a->h_ext.vlan_tci ^ b->h_ext.vlan_tci) & a->m_ext.vlan_tci &
			  b->m_ext.vlan_tci));
	}
	for (size_t i = 0; i < H_LEN; i++)
		if ((x.v[i] ^ y.v[i]) & x.m[i] & y.m[i])
			return false;
	return true;
}
