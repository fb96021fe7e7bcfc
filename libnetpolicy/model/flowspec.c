/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * "CLASS:SPEC" -> struct ethtool_rx_flow_spec (grammar in np_flow.h and
 * netpolicy-flows(7)).  The fields and their byte order are the kernel's
 * (include/uapi/linux/ethtool.h: every multi-byte match field is big
 * endian); the masks are in the kernel's sense (a set bit must match), which
 * is the inverse of the masks ethtool(8) takes on its command line.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/np_flow.h"

/* Which IP families a spec covers so far. */
enum fam { FAM_ANY = 0, FAM_4 = 4, FAM_6 = 6 };
enum l4 { L4_NONE, L4_TCP, L4_UDP, L4_SCTP };

struct addr {
	bool set;
	enum fam fam;
	uint8_t ip[16];
	uint8_t mask[16];
};

struct spec {
	enum l4 l4;
	bool ip_only;		/* ip, ip4, ip6: any IP protocol */
	bool ether;		/* ether: any frame */
	enum fam fam;
	size_t fam_col;		/* where the family was fixed, for conflicts */
	struct addr src, dst;
	uint16_t sport, dport;	/* host order, 0 = not given */
	int vlan;		/* -1 = not given */
};

struct parser {
	const char *text;
	struct np_error *err;
	size_t err_col;
};

static int fail(struct parser *p, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, size_t col, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	p->err_col = col;
	return np_err(p->err, -EINVAL, NP_PHASE_INPUT, "flow", "flow \"%.64s\": column %zu: %s",
		      p->text, col, why);
}

/* --- numbers and addresses ------------------------------------------------- */

/* Decimal digits only (no sign, no spaces), at most max. */
static bool parse_uint(const char *s, size_t n, unsigned long max, unsigned long *ret)
{
	unsigned long v = 0;

	if (n == 0 || n > 10)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v > max)
		return false;
	*ret = v;
	return true;
}

static int parse_port(struct parser *p, const char *s, size_t n, uint16_t *ret)
{
	unsigned long v;

	if (!parse_uint(s, n, 65535, &v) || v == 0)
		return fail(p, (size_t)(s - p->text) + 1, "expected a port number (1-65535)");
	*ret = (uint16_t)v;
	return 0;
}

static void prefix_mask(uint8_t *mask, unsigned bytes, unsigned long prefix)
{
	memset(mask, 0, bytes);
	for (unsigned i = 0; i < bytes; i++) {
		if (prefix >= 8) {
			mask[i] = 0xff;
			prefix -= 8;
		} else {
			mask[i] = (uint8_t)(0xff << (8 - prefix));
			break;
		}
	}
}

/* ADDR[/PREFIX] of n characters at s; the family follows from the text. */
static int parse_addr(struct parser *p, const char *s, size_t n, struct addr *a)
{
	size_t col = (size_t)(s - p->text) + 1;
	const char *slash = memchr(s, '/', n);
	size_t alen = slash ? (size_t)(slash - s) : n;
	char buf[INET6_ADDRSTRLEN + 1];
	unsigned long prefix;
	unsigned bytes;

	if (alen == 0 || alen >= sizeof(buf))
		return fail(p, col, "expected an IPv4 or IPv6 address");
	memcpy(buf, s, alen);
	buf[alen] = '\0';
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, buf, a->ip) == 1) {
		a->fam = FAM_4;
		bytes = 4;
	} else if (inet_pton(AF_INET6, buf, a->ip) == 1) {
		a->fam = FAM_6;
		bytes = 16;
	} else {
		return fail(p, col, "expected an IPv4 or IPv6 address");
	}
	prefix = bytes * 8;
	if (slash && !parse_uint(slash + 1, n - alen - 1, bytes * 8, &prefix))
		return fail(p, col + alen + 1, "expected a prefix length (0-%u)", bytes * 8);
	prefix_mask(a->mask, bytes, prefix);
	/* Host bits the prefix drops would be sent yet never match: refuse
	 * them rather than let the driver decide (most reject, some mask). */
	for (unsigned i = 0; i < bytes; i++)
		if (a->ip[i] & ~a->mask[i])
			return fail(p, col, "address has bits set beyond its /%lu prefix", prefix);
	a->set = true;
	return 0;
}

/* --- terms --------------------------------------------------------------------- */

static int set_family(struct parser *p, struct spec *sp, enum fam fam, size_t col)
{
	if (sp->fam != FAM_ANY && sp->fam != fam)
		return fail(p, col, "an IPv%d address in an IPv%d flow (column %zu)", (int)fam,
			    (int)sp->fam, sp->fam_col);
	if (sp->fam == FAM_ANY) {
		sp->fam = fam;
		sp->fam_col = col;
	}
	return 0;
}

static int set_addr(struct parser *p, struct spec *sp, struct addr *to, const struct addr *a,
		    size_t col, const char *what)
{
	if (to->set)
		return fail(p, col, "%s address given twice", what);
	if (sp->ether)
		return fail(p, col, "an ether flow has no IP address (use ip4 or ip6)");
	*to = *a;
	return set_family(p, sp, a->fam, col);
}

static int set_port(struct parser *p, struct spec *sp, uint16_t *to, uint16_t v, size_t col,
		    const char *what)
{
	if (*to)
		return fail(p, col, "%s port given twice", what);
	if (sp->l4 == L4_NONE)
		return fail(p, col, "a port needs a protocol (tcp, udp or sctp)");
	*to = v;
	return 0;
}

/* "ADDR[:PORT]" or "[ADDR6][:PORT]"; an IPv6 address without brackets
 * cannot carry a port. */
static int parse_hostport(struct parser *p, struct spec *sp, const char *s, size_t n, bool dst)
{
	struct addr *to = dst ? &sp->dst : &sp->src;
	const char *what = dst ? "destination" : "source";
	size_t col = (size_t)(s - p->text) + 1;
	const char *port = NULL, *colon;
	size_t alen = n, plen = 0;
	const char *a = s;
	struct addr ad;
	uint16_t pv;
	int r;

	if (n > 0 && s[0] == '[') {
		const char *close = memchr(s, ']', n);

		if (!close)
			return fail(p, col + n, "expected ']' after the IPv6 address");
		a = s + 1;
		alen = (size_t)(close - a);
		if (close + 1 < s + n) {
			if (close[1] != ':')
				return fail(p, (size_t)(close - p->text) + 2,
					    "expected ':PORT' or the end of the term after ']'");
			port = close + 2;
			plen = (size_t)(s + n - port);
		}
		r = parse_addr(p, a, alen, &ad);
		if (r == 0 && ad.fam != FAM_6)
			r = fail(p, col + 1, "brackets are for IPv6 addresses");
	} else {
		colon = memchr(s, ':', n);
		/* One colon: IPv4 with a port; more: an IPv6 address. */
		if (colon && !memchr(colon + 1, ':', (size_t)(s + n - colon - 1))) {
			alen = (size_t)(colon - s);
			port = colon + 1;
			plen = (size_t)(s + n - port);
		}
		r = parse_addr(p, a, alen, &ad);
	}
	if (r < 0)
		return r;
	r = set_addr(p, sp, to, &ad, col, what);
	if (r < 0 || !port)
		return r;
	r = parse_port(p, port, plen, &pv);
	if (r < 0)
		return r;
	return set_port(p, sp, dst ? &sp->dport : &sp->sport, pv, (size_t)(port - p->text) + 1,
			what);
}

static int parse_term(struct parser *p, struct spec *sp, const char *s, size_t n)
{
	size_t col = (size_t)(s - p->text) + 1;
	const char *eq = memchr(s, '=', n);
	const char *v;
	size_t klen, vlen;
	unsigned long vid;
	struct addr a;
	uint16_t port;
	int r;

	if (n == 0)
		return fail(p, col, "expected a term (a port, dst=, src=, vlan=, ...)");
	if (!eq) {
		if (!isdigit((unsigned char)s[0]))
			return fail(p, col, "unknown term (a port, dst=, src=, dst-port=, "
				    "src-port=, dst-ip=, src-ip=, vlan=)");
		r = parse_port(p, s, n, &port);
		return r < 0 ? r : set_port(p, sp, &sp->dport, port, col, "destination");
	}
	klen = (size_t)(eq - s);
	v = eq + 1;
	vlen = n - klen - 1;
#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(s, k, klen))
	if (KEY("dst") || KEY("src"))
		return parse_hostport(p, sp, v, vlen, s[0] == 'd');
	if (KEY("dst-ip") || KEY("src-ip")) {
		r = parse_addr(p, v, vlen, &a);
		if (r < 0)
			return r;
		return set_addr(p, sp, s[0] == 'd' ? &sp->dst : &sp->src, &a, col,
				s[0] == 'd' ? "destination" : "source");
	}
	if (KEY("dst-port") || KEY("src-port")) {
		r = parse_port(p, v, vlen, &port);
		if (r < 0)
			return r;
		return set_port(p, sp, s[0] == 'd' ? &sp->dport : &sp->sport, port, col,
				s[0] == 'd' ? "destination" : "source");
	}
	if (KEY("vlan")) {
		if (!parse_uint(v, vlen, 4095, &vid))
			return fail(p, (size_t)(v - p->text) + 1, "expected a VLAN id (0-4095)");
		if (sp->vlan >= 0)
			return fail(p, col, "vlan given twice");
		sp->vlan = (int)vid;
		return 0;
	}
#undef KEY
	return fail(p, col, "unknown term '%.*s' (dst, src, dst-port, src-port, dst-ip, src-ip, "
		    "vlan)", (int)klen, s);
}

/* --- protocol ------------------------------------------------------------------ */

static const struct {
	const char *name;
	enum l4 l4;
	enum fam fam;
	bool ip_only, ether;
} protos[] = {
	{ "tcp", L4_TCP, FAM_ANY, false, false },   { "tcp4", L4_TCP, FAM_4, false, false },
	{ "tcp6", L4_TCP, FAM_6, false, false },    { "udp", L4_UDP, FAM_ANY, false, false },
	{ "udp4", L4_UDP, FAM_4, false, false },    { "udp6", L4_UDP, FAM_6, false, false },
	{ "sctp", L4_SCTP, FAM_ANY, false, false }, { "sctp4", L4_SCTP, FAM_4, false, false },
	{ "sctp6", L4_SCTP, FAM_6, false, false },  { "ip", L4_NONE, FAM_ANY, true, false },
	{ "ip4", L4_NONE, FAM_4, true, false },     { "ip6", L4_NONE, FAM_6, true, false },
	{ "ether", L4_NONE, FAM_ANY, false, true },
};

static int lookup_proto(const char *s, size_t n)
{
	for (size_t i = 0; i < NP_ARRAY_SIZE(protos); i++)
		if (strlen(protos[i].name) == n && !memcmp(protos[i].name, s, n))
			return (int)i;
	return -1;
}

/* --- to the kernel's struct -------------------------------------------------- */

static uint32_t flow_type(enum l4 l4, enum fam fam)
{
	static const uint32_t v4[] = { [L4_NONE] = IPV4_USER_FLOW, [L4_TCP] = TCP_V4_FLOW,
				       [L4_UDP] = UDP_V4_FLOW, [L4_SCTP] = SCTP_V4_FLOW };
	static const uint32_t v6[] = { [L4_NONE] = IPV6_USER_FLOW, [L4_TCP] = TCP_V6_FLOW,
				       [L4_UDP] = UDP_V6_FLOW, [L4_SCTP] = SCTP_V6_FLOW };

	return fam == FAM_6 ? v6[l4] : v4[l4];
}

static void fill_rule(const struct spec *sp, enum fam fam, struct ethtool_rx_flow_spec *fs)
{
	uint16_t sport = htons(sp->sport), dport = htons(sp->dport);
	uint16_t pmask_s = sp->sport ? 0xffff : 0, pmask_d = sp->dport ? 0xffff : 0;

	memset(fs, 0, sizeof(*fs));
	fs->location = RX_CLS_LOC_ANY;
	if (sp->ether) {
		fs->flow_type = ETHER_FLOW;
	} else {
		fs->flow_type = flow_type(sp->l4, fam);
	}
	if (fam == FAM_4 && !sp->ether) {
		/* tcp_ip4_spec, udp_ip4_spec, sctp_ip4_spec and usr_ip4_spec
		 * share ip4src/ip4dst at the same offsets. */
		struct ethtool_tcpip4_spec *h = &fs->h_u.tcp_ip4_spec, *m = &fs->m_u.tcp_ip4_spec;

		memcpy(&h->ip4src, sp->src.ip, 4);
		memcpy(&m->ip4src, sp->src.mask, 4);
		memcpy(&h->ip4dst, sp->dst.ip, 4);
		memcpy(&m->ip4dst, sp->dst.mask, 4);
		if (sp->l4 == L4_NONE) {
			/* uapi: ip_ver must be ETH_RX_NFC_IP4, its mask 0. */
			fs->h_u.usr_ip4_spec.ip_ver = ETH_RX_NFC_IP4;
		} else {
			h->psrc = sport;
			m->psrc = pmask_s;
			h->pdst = dport;
			m->pdst = pmask_d;
		}
	} else if (fam == FAM_6 && !sp->ether) {
		struct ethtool_tcpip6_spec *h = &fs->h_u.tcp_ip6_spec, *m = &fs->m_u.tcp_ip6_spec;

		memcpy(h->ip6src, sp->src.ip, 16);
		memcpy(m->ip6src, sp->src.mask, 16);
		memcpy(h->ip6dst, sp->dst.ip, 16);
		memcpy(m->ip6dst, sp->dst.mask, 16);
		if (sp->l4 != L4_NONE) {
			h->psrc = sport;
			m->psrc = pmask_s;
			h->pdst = dport;
			m->pdst = pmask_d;
		}
	}
	if (sp->vlan >= 0) {
		/* The VLAN id only: the priority bits (PCP, DEI) are free, as
		 * ethtool's "vlan N vlan-mask 0xf000". */
		fs->flow_type |= FLOW_EXT;
		fs->h_ext.vlan_tci = htons((uint16_t)sp->vlan);
		fs->m_ext.vlan_tci = htons(0x0fff);
	}
}

/* --- the whole text -------------------------------------------------------------- */

/* The class before the first ':'.  Returns the position after the ':'. */
static int parse_class(struct parser *p, struct np_flow *flow, const char **pos)
{
	const char *text = p->text, *colon = strchr(text, ':');
	size_t len = strlen(text), clen = colon ? (size_t)(colon - text) : len;
	char cls[16];

	if (clen == 0 || clen >= sizeof(cls))
		return fail(p, 1, "expected a class (latency, throughput, cpu)");
	memcpy(cls, text, clen);
	cls[clen] = '\0';
	if (np_class_from_name(cls, &flow->cls, NULL) < 0)
		return fail(p, 1, "unknown class '%s' (latency, throughput, cpu)", cls);
	if (!colon)
		return fail(p, len + 1, "expected ':' and a flow after the class");
	*pos = colon + 1;
	return 0;
}

/* A protocol is the first word when it is followed by ':' or the end; a
 * first word followed by '=' is already a term.  *proto is the protocol's
 * index or -1, *pos moves past the protocol and its ':'. */
static int parse_proto(struct parser *p, struct spec *sp, const char **pos, int *proto)
{
	const char *text = p->text, *s = *pos;
	size_t wlen = strcspn(s, ":,="), col = (size_t)(s - text) + 1;
	int pi = lookup_proto(s, wlen);

	*proto = pi;
	if (pi >= 0 && s[wlen] != ':' && s[wlen] != '\0')
		return fail(p, col + wlen, "expected ':' after the protocol");
	if (pi < 0 && wlen > 0 && strspn(s, "0123456789") >= wlen)
		return fail(p, col, "a port needs a protocol (tcp:%.*s, udp:%.*s)", (int)wlen, s,
			    (int)wlen, s);
	if (pi < 0) {
		if (s[wlen] == '=')
			return 0;
		return fail(p, col,
			    "unknown protocol '%.*s' (tcp, udp, sctp with an optional 4 or "
			    "6, ip, ip4, ip6, ether)", (int)wlen, s);
	}
	sp->l4 = protos[pi].l4;
	sp->ip_only = protos[pi].ip_only;
	sp->ether = protos[pi].ether;
	if (protos[pi].fam != FAM_ANY)
		set_family(p, sp, protos[pi].fam, col);
	s += wlen;
	if (*s == ':') {
		s++;
		if (*s == '\0')
			return fail(p, (size_t)(s - text) + 1, "expected a term after ':'");
	}
	*pos = s;
	return 0;
}

/* The comma-separated terms from pos to the end. */
static int parse_terms(struct parser *p, struct spec *sp, const char *s)
{
	const char *end = s + strlen(s);

	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		size_t tlen = comma ? (size_t)(comma - s) : (size_t)(end - s);
		int r = parse_term(p, sp, s, tlen);

		if (r < 0)
			return r;
		s += tlen;
		if (comma) {
			s++;
			if (s == end)
				return fail(p, (size_t)(s - p->text) + 1, "expected a term after ','");
		}
	}
	return 0;
}

/* The kernel rules for a parsed spec: one for a family or a frame, one per
 * family when the spec names none. */
static void build_rules(struct spec *sp, bool had_proto, struct np_flow *flow)
{
	/* Without a protocol, the terms decide: an address makes it IP, a VLAN
	 * alone makes it any frame. */
	if (!had_proto && sp->l4 == L4_NONE && !sp->ether) {
		if (sp->src.set || sp->dst.set)
			sp->ip_only = true;
		else if (sp->vlan >= 0)
			sp->ether = true;
	}
	if (sp->fam != FAM_ANY) {
		flow->n_rules = 1;
		fill_rule(sp, sp->fam, &flow->rule[0]);
	} else if (sp->ether) {
		flow->n_rules = 1;
		fill_rule(sp, FAM_ANY, &flow->rule[0]);
	} else {
		flow->n_rules = 2;
		fill_rule(sp, FAM_4, &flow->rule[0]);
		fill_rule(sp, FAM_6, &flow->rule[1]);
	}
}

int np_flow_parse(const char *text, struct np_flow *ret, size_t *err_col, struct np_error *err)
{
	struct parser p = { .text = text, .err = err };
	struct spec sp = { .vlan = -1 };
	struct np_flow flow = { 0 };
	const char *s = NULL;
	size_t len;
	int r, pi = -1;

	if (!text) {
		r = fail(&p, 1, "empty flow");
		goto out;
	}
	len = strlen(text);
	if (len > NP_FLOW_TEXT_MAX) {
		r = fail(&p, NP_FLOW_TEXT_MAX + 1, "longer than %d characters", NP_FLOW_TEXT_MAX);
		goto out;
	}
	r = parse_class(&p, &flow, &s);
	if (r < 0)
		goto out;
	if (*s == '\0') {
		r = fail(&p, (size_t)(s - text) + 1, "expected a flow (tcp:6379, udp:53, ip6, ...)");
		goto out;
	}
	r = parse_proto(&p, &sp, &s, &pi);
	if (r < 0)
		goto out;
	r = parse_terms(&p, &sp, s);
	if (r < 0)
		goto out;
	build_rules(&sp, pi >= 0, &flow);
	*ret = flow;
out:
	if (r < 0 && err_col)
		*err_col = p.err_col;
	return r;
}
