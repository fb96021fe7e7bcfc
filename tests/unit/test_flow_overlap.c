/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* np_flow_overlaps: could one packet match both rules, across flow types.
 * Rules are written in the flow grammar (netpolicy-flows(7)); the ESP and
 * AH cases, which the grammar has no word for, are built by hand. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "model/np_flow.h"
#include "tap.h"

static struct ethtool_rx_flow_spec rule(const char *spec, unsigned i)
{
	struct np_flow f;
	char text[128];

	snprintf(text, sizeof(text), "latency:%s", spec);
	if (np_flow_parse(text, &f, NULL, NULL) < 0 || i >= f.n_rules) {
		ok(false, "%s parses into rule %u", spec, i);
		memset(&f, 0, sizeof(f));
	}
	return f.rule[i];
}

static void overlap(const char *a, const char *b, bool want)
{
	struct ethtool_rx_flow_spec x = rule(a, 0), y = rule(b, 0);

	ok(np_flow_overlaps(&x, &y) == want, "%s and %s %s", a, b, want ? "overlap" : "do not overlap");
	ok(np_flow_overlaps(&y, &x) == want, "%s and %s: the same either way round", b, a);
}

/* an ESP over IPv4 rule for SPI `spi` */
static struct ethtool_rx_flow_spec esp4(uint32_t spi, uint32_t type)
{
	struct ethtool_rx_flow_spec fs = { .flow_type = type };

	fs.h_u.esp_ip4_spec.spi = htonl(spi);
	fs.m_u.esp_ip4_spec.spi = 0xffffffff;
	return fs;
}

int main(void)
{
	/* within one flow type, as before */
	overlap("tcp4:dst-port=6379", "tcp4", true);
	overlap("tcp4:dst-port=6379", "tcp4:dst-port=6380", false);
	overlap("tcp4:dst-port=6379", "tcp4:dst-ip=10.0.0.1", true);
	overlap("tcp4:dst-port=6379", "udp4:dst-port=6379", false);
	overlap("tcp4:dst-port=6379", "tcp6:dst-port=6379", false);

	/* an IP user rule takes every protocol's packets unless it names one */
	overlap("ip4:dst-ip=10.0.0.1", "tcp4:dst-port=6379", true);
	overlap("ip4:dst-ip=10.0.0.1", "tcp4:dst-ip=10.0.0.2,dst-port=6379", false);
	overlap("ip4:src-ip=10.1.0.0/16", "udp4:src-ip=10.1.2.3,dst-port=53", true);
	overlap("ip4:src-ip=10.1.0.0/16", "udp4:src-ip=10.2.2.3,dst-port=53", false);
	overlap("ip4", "sctp4:dst-port=9899", true);
	overlap("ip4", "tcp6:dst-port=6379", false);
	overlap("ip6:dst-ip=fd00::/8", "tcp6:dst=[fd00::5]:443", true);
	overlap("ip6:dst-ip=fd00::/8", "tcp6:dst=[fe80::5]:443", false);
	overlap("ip6", "udp4:53", false);

	/* an Ethernet rule: by VLAN and by EtherType */
	overlap("ether:vlan=100", "tcp4:dst-port=6379", true);
	overlap("ether:vlan=100", "tcp4:dst-port=6379,vlan=100", true);
	overlap("ether:vlan=100", "tcp6:dst-port=6379,vlan=200", false);
	overlap("ether:vlan=100", "ip6", true);

	{
		/* an EtherType: IPv4 frames, not IPv6 ones */
		struct ethtool_rx_flow_spec e = { .flow_type = ETHER_FLOW };
		struct ethtool_rx_flow_spec t4 = rule("tcp4:dst-port=6379", 0);
		struct ethtool_rx_flow_spec t6 = rule("tcp6:dst-port=6379", 0);

		e.h_u.ether_spec.h_proto = htons(0x0800);
		e.m_u.ether_spec.h_proto = 0xffff;
		ok(np_flow_overlaps(&e, &t4), "ether proto 0x0800 and tcp4 overlap");
		ok(!np_flow_overlaps(&e, &t6), "ether proto 0x0800 and tcp6 do not");
	}
	{
		/* an IP rule naming a protocol: TCP's packets, not UDP's */
		struct ethtool_rx_flow_spec ip = rule("ip4:dst-ip=10.0.0.1", 0);
		struct ethtool_rx_flow_spec t = rule("tcp4:dst-port=6379", 0);
		struct ethtool_rx_flow_spec u = rule("udp4:dst-port=53", 0);

		ip.h_u.usr_ip4_spec.proto = 6;
		ip.m_u.usr_ip4_spec.proto = 0xff;
		ok(np_flow_overlaps(&ip, &t), "ip4 proto 6 and tcp4 overlap");
		ok(!np_flow_overlaps(&ip, &u), "ip4 proto 6 and udp4 do not");
		/* its first four L4 bytes are TCP's ports: source 1234, destination 6379 */
		ip.h_u.usr_ip4_spec.l4_4_bytes = htonl(1234u << 16 | 6379);
		ip.m_u.usr_ip4_spec.l4_4_bytes = htonl(0x0000ffff);
		ok(np_flow_overlaps(&ip, &t), "ip4 l4_4_bytes with destination port 6379 and tcp4:6379 overlap");
		ip.h_u.usr_ip4_spec.l4_4_bytes = htonl(6380);
		ok(!np_flow_overlaps(&ip, &t), "l4_4_bytes with destination port 6380 and tcp4:6379 do not");
	}
	{
		/* ESP's SPI is its first four bytes; AH's is not, so AH's never conflicts with them */
		struct ethtool_rx_flow_spec e1 = esp4(7, ESP_V4_FLOW), e2 = esp4(8, ESP_V4_FLOW);
		struct ethtool_rx_flow_spec a1 = esp4(7, AH_V4_FLOW), either = esp4(8, AH_ESP_V4_FLOW);
		struct ethtool_rx_flow_spec ip = rule("ip4", 0);

		ok(!np_flow_overlaps(&e1, &e2), "ESP SPI 7 and ESP SPI 8 do not overlap");
		ok(!np_flow_overlaps(&e1, &a1), "ESP and AH do not overlap (protocols 50 and 51)");
		ok(np_flow_overlaps(&e1, &either), "ESP SPI 7 and AH-or-ESP overlap (its SPI's place is open)");
		ip.h_u.usr_ip4_spec.l4_4_bytes = htonl(8);
		ip.m_u.usr_ip4_spec.l4_4_bytes = 0xffffffff;
		ok(!np_flow_overlaps(&e1, &ip), "ESP SPI 7 and ip4 with first L4 bytes 8 do not overlap");
		ok(np_flow_overlaps(&a1, &ip), "AH SPI 7 and ip4 with first L4 bytes 8 may overlap");
		ok(!np_flow_overlaps(&e1, &(struct ethtool_rx_flow_spec){ .flow_type = TCP_V6_FLOW }),
		   "ESP over IPv4 and tcp6 do not overlap");
	}
	{
		/* a flow type not known here: compared within its type only */
		struct ethtool_rx_flow_spec odd = { .flow_type = 0x30 }, t = rule("tcp4", 0);

		ok(!np_flow_overlaps(&odd, &t), "an unknown flow type and tcp4 do not overlap");
		ok(np_flow_overlaps(&odd, &odd), "an unknown flow type overlaps itself");
	}
	return tap_done();
}
