/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Flow specs: "CLASS:SPEC" -> struct ethtool_rx_flow_spec, errors with their
 * column, and the formatter that parses back to the same rule. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/np_flow.h"
#include "tap.h"

/* np_flow_parse with a clean error and column 0 before it */
static int parse(const char *text, struct np_flow *f, size_t *col, struct np_error *err)
{
	*col = 0;
	np_error_clear(err);
	return np_flow_parse(text, f, col, err);
}

static void check_ok(const char *text, enum np_class cls, unsigned n_rules, uint32_t type0)
{
	struct np_flow f;
	struct np_error err;
	size_t col;
	int r = parse(text, &f, &col, &err);

	is_int(r, 0, "%s parses", text);
	if (r < 0) {
		printf("#   %s\n", err.msg);
		return;
	}
	is_int(f.cls, cls, "%s: class", text);
	is_int(f.n_rules, n_rules, "%s: %u rule(s)", text, n_rules);
	is_int(f.rule[0].flow_type, type0, "%s: flow_type %#x", text, type0);
	is_int(f.rule[0].location, RX_CLS_LOC_ANY, "%s: location any", text);
	is_int(f.rule[0].ring_cookie, 0, "%s: no target yet", text);
}

static void check_err(const char *text, size_t want_col, const char *want_words)
{
	struct np_flow f;
	struct np_error err;
	size_t col;
	int r = parse(text, &f, &col, &err);

	is_int(r, -EINVAL, "'%s' is refused", text);
	is_int(col, want_col, "'%s': error at column %zu", text, want_col);
	is_int(err.phase, NP_PHASE_INPUT, "'%s': an input error", text);
	ok(strstr(err.msg, want_words) != NULL, "'%s': message says '%s' (%s)", text, want_words,
	   err.msg);
	{
		char colw[32];

		snprintf(colw, sizeof(colw), "column %zu:", want_col);
		ok(strstr(err.msg, colw) != NULL, "'%s': message names the column", text);
	}
}

static void check_fields(void)
{
	struct np_flow f;
	struct ethtool_tcpip4_spec *h4, *m4;
	struct ethtool_tcpip6_spec *h6, *m6;
	uint8_t v6[16];

	ok(np_flow_parse("latency:tcp:6379", &f, NULL, NULL) == 0, "tcp:6379");
	h4 = &f.rule[0].h_u.tcp_ip4_spec;
	m4 = &f.rule[0].m_u.tcp_ip4_spec;
	is_int(ntohs(h4->pdst), 6379, "dst port in network order");
	is_int(m4->pdst, 0xffff, "dst port fully masked");
	is_int(m4->psrc | m4->ip4dst | m4->ip4src, 0, "nothing else matched");
	is_int(f.rule[1].flow_type, TCP_V6_FLOW, "second rule is tcp6");
	is_int(ntohs(f.rule[1].h_u.tcp_ip6_spec.pdst), 6379, "tcp6 rule has the port too");

	ok(np_flow_parse("throughput:tcp:dst=10.0.0.5:443", &f, NULL, NULL) == 0, "dst=a:p");
	h4 = &f.rule[0].h_u.tcp_ip4_spec;
	m4 = &f.rule[0].m_u.tcp_ip4_spec;
	is_int(f.n_rules, 1, "an IPv4 address makes it one tcp4 rule");
	is_int(h4->ip4dst, htonl(0x0a000005), "dst address");
	is_int(m4->ip4dst, 0xffffffff, "dst address mask");
	is_int(ntohs(h4->pdst), 443, "dst port");

	ok(np_flow_parse("cpu:udp:src=10.1.0.0/16", &f, NULL, NULL) == 0, "prefix");
	is_int(f.rule[0].flow_type, UDP_V4_FLOW, "udp4");
	is_int(f.rule[0].m_u.udp_ip4_spec.ip4src, htonl(0xffff0000), "/16 mask");

	ok(np_flow_parse("latency:tcp:dst=[fd00::5]:443", &f, NULL, NULL) == 0, "[v6]:port");
	h6 = &f.rule[0].h_u.tcp_ip6_spec;
	m6 = &f.rule[0].m_u.tcp_ip6_spec;
	inet_pton(AF_INET6, "fd00::5", v6);
	is_int(f.rule[0].flow_type, TCP_V6_FLOW, "tcp6");
	ok(!memcmp(h6->ip6dst, v6, 16), "v6 address");
	is_int(m6->ip6dst[3], 0xffffffff, "v6 mask");
	is_int(ntohs(h6->pdst), 443, "v6 port");

	ok(np_flow_parse("latency:tcp:src-port=5201", &f, NULL, NULL) == 0, "src-port");
	is_int(ntohs(f.rule[0].h_u.tcp_ip4_spec.psrc), 5201, "src port");
	is_int(f.rule[0].m_u.tcp_ip4_spec.pdst, 0, "dst port free");

	ok(np_flow_parse("latency:ip4", &f, NULL, NULL) == 0, "ip4");
	is_int(f.rule[0].h_u.usr_ip4_spec.ip_ver, ETH_RX_NFC_IP4, "ip_ver set (uapi)");
	is_int(f.rule[0].m_u.usr_ip4_spec.ip_ver, 0, "ip_ver mask 0 (uapi)");

	ok(np_flow_parse("latency:vlan=100", &f, NULL, NULL) == 0, "vlan alone");
	is_int(f.n_rules, 1, "one rule");
	is_int(f.rule[0].flow_type, ETHER_FLOW | FLOW_EXT, "ether with FLOW_EXT");
	is_int(ntohs(f.rule[0].h_ext.vlan_tci), 100, "vlan id");
	is_int(ntohs(f.rule[0].m_ext.vlan_tci), 0x0fff, "vlan id bits only");

	ok(np_flow_parse("latency:udp6:53,vlan=7", &f, NULL, NULL) == 0, "udp6 with vlan");
	is_int(f.rule[0].flow_type, UDP_V6_FLOW | FLOW_EXT, "udp6 | FLOW_EXT");
}

static void check_roundtrip(const char *text)
{
	struct np_flow f, g;
	char buf[NP_FLOW_TEXT_MAX], again[NP_FLOW_TEXT_MAX + 16];
	int n;

	if (np_flow_parse(text, &f, NULL, NULL) < 0) {
		ok(0, "%s parses for the round trip", text);
		return;
	}
	for (unsigned i = 0; i < f.n_rules; i++) {
		n = np_flow_rule_format(&f.rule[i], buf, sizeof(buf));
		ok(n > 0 && (size_t)n < sizeof(buf), "%s rule %u formats: %s", text, i, buf);
		snprintf(again, sizeof(again), "latency:%s", buf);
		ok(np_flow_parse(again, &g, NULL, NULL) == 0 && g.n_rules == 1 &&
			   !memcmp(&g.rule[0], &f.rule[i], sizeof(g.rule[0])),
		   "%s parses back to the same rule", again);
	}
}

int main(void)
{
	check_ok("latency:tcp:6379", NP_CLASS_LATENCY, 2, TCP_V4_FLOW);
	check_ok("throughput:udp:53", NP_CLASS_THROUGHPUT, 2, UDP_V4_FLOW);
	check_ok("latency:tcp:dst=10.0.0.5:443", NP_CLASS_LATENCY, 1, TCP_V4_FLOW);
	check_ok("latency:tcp:src-port=5201", NP_CLASS_LATENCY, 2, TCP_V4_FLOW);
	check_ok("cpu:ip6", NP_CLASS_CPU, 1, IPV6_USER_FLOW);
	check_ok("cpu:ip", NP_CLASS_CPU, 2, IPV4_USER_FLOW);
	check_ok("latency:vlan=100", NP_CLASS_LATENCY, 1, ETHER_FLOW | FLOW_EXT);
	check_ok("latency:dst=10.0.0.5", NP_CLASS_LATENCY, 1, IPV4_USER_FLOW);
	check_ok("latency:dst-ip=fd00::1", NP_CLASS_LATENCY, 1, IPV6_USER_FLOW);
	check_ok("latency:sctp4:dst-port=9899,src-ip=192.168.0.0/24", NP_CLASS_LATENCY, 1,
		 SCTP_V4_FLOW);
	check_ok("latency:tcp6:dst=fd00::1", NP_CLASS_LATENCY, 1, TCP_V6_FLOW);
	check_ok("latency:ether:vlan=0", NP_CLASS_LATENCY, 1, ETHER_FLOW | FLOW_EXT);
	check_fields();

	/*          1234567890123456789012345678901 */
	check_err("fast:tcp:6379", 1, "unknown class");
	check_err("latency", 8, "expected ':'");
	check_err("latency:", 9, "expected a flow");
	check_err("latency:tcp:", 13, "expected a term");
	check_err("latency:tcp:63x79", 13, "port number");
	check_err("latency:tcp:65536", 13, "port number");
	check_err("latency:tcp:0", 13, "port number");
	check_err("latency:tpc:6379", 9, "unknown protocol");
	check_err("latency:6379", 9, "a port needs a protocol");
	check_err("latency:tcp,6379", 12, "expected ':' after the protocol");
	check_err("latency:tcp:6379,", 18, "expected a term after ','");
	check_err("latency:tcp:6379,6380", 18, "port given twice");
	check_err("latency:tcp:dst=10.0.0.256:443", 17, "IPv4 or IPv6 address");
	check_err("latency:tcp:dst=10.0.0.5:99999", 26, "port number");
	check_err("latency:tcp:dst=10.0.0.5/33", 26, "prefix length");
	check_err("latency:tcp:dst=10.0.0.5/24", 17, "beyond its /24 prefix");
	check_err("latency:tcp4:dst=fd00::1", 18, "an IPv6 address in an IPv4 flow");
	check_err("latency:tcp:src=10.0.0.1,dst=fd00::1", 30, "IPv6 address in an IPv4 flow");
	check_err("latency:tcp:dst=[fd00::1:443", 29, "expected ']'");
	check_err("latency:tcp:dst=[10.0.0.1]:443", 18, "brackets are for IPv6");
	check_err("latency:ip4:6379", 13, "a port needs a protocol");
	check_err("latency:ether:dst=10.0.0.1", 19, "ether flow has no IP address");
	check_err("latency:vlan=4096", 14, "VLAN id");
	check_err("latency:tcp:vlan=1,vlan=2", 20, "vlan given twice");
	check_err("latency:tcp:tos=4", 13, "unknown term 'tos'");
	check_err("latency:tcp:dport", 13, "unknown term");

	check_roundtrip("latency:tcp:6379");
	check_roundtrip("latency:tcp:dst=10.0.0.5:443");
	check_roundtrip("latency:udp:src=10.1.0.0/16,src-port=123");
	check_roundtrip("latency:tcp:dst=[fd00::5]:443,vlan=12");
	check_roundtrip("latency:ip6:src-ip=fd00::/8");
	check_roundtrip("latency:ip4");
	check_roundtrip("latency:vlan=4095");

	{
		/* A foreign rule with a TOS match has no text in our grammar. */
		struct np_flow f;
		char buf[64];

		np_flow_parse("latency:tcp4:80", &f, NULL, NULL);
		f.rule[0].h_u.tcp_ip4_spec.tos = 4;
		f.rule[0].m_u.tcp_ip4_spec.tos = 0xff;
		is_int(np_flow_rule_format(&f.rule[0], buf, sizeof(buf)), -EINVAL,
		       "a rule the grammar cannot express is not formatted");
	}
	return tap_done();
}
