/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Flow classes of the mixed policy: "CLASS:SPEC" texts (netpolicy-flows(7))
 * parsed into the kernel's own ntuple rule struct, so that what the planner
 * holds is exactly what ETHTOOL_SRXCLSRLINS receives.
 *
 * Grammar (columns in errors count from 1 over the whole text):
 *
 *   flow   = class ":" spec
 *   class  = "latency" | "throughput" | "cpu"
 *   spec   = proto [ ":" terms ] | terms
 *   proto  = "tcp" | "udp" | "sctp"          (IPv4 and IPv6: two rules)
 *          | "tcp4" | "udp4" | "sctp4" | "tcp6" | "udp6" | "sctp6"
 *          | "ip" | "ip4" | "ip6"            (any IP protocol)
 *          | "ether"                         (any frame; with vlan=)
 *   terms  = term { "," term }
 *   term   = port                            destination port, 1-65535
 *          | "dst-port=" port | "src-port=" port
 *          | "dst=" hostport | "src=" hostport
 *          | "dst-ip=" addr | "src-ip=" addr
 *          | "vlan=" 0-4095                  VLAN id (priority bits ignored)
 *   hostport = addr [ ":" port ] | "[" addr6 "]" [ ":" port ]
 *   addr   = IPv4 or IPv6 address, optionally "/" prefix length
 *
 * A spec without a protocol takes its family from its address (dst=10.0.0.5
 * is ip4); a port needs a protocol; "tcp" without an address or family
 * becomes two rules, tcp4 and tcp6.  Everything not named matches anything
 * (mask 0).  Masks follow the kernel's sense: a set bit must match.
 */
#ifndef NP_FLOW_H
#define NP_FLOW_H

#include <linux/ethtool.h>
#include <stddef.h>

#include "np_private.h"

/* tcp, udp, sctp and ip without a family: one rule for IPv4, one for IPv6. */
#define NP_FLOW_MAX_RULES 2
/* Longest flow text accepted (a "CLASS:SPEC" is a few dozen characters). */
#define NP_FLOW_TEXT_MAX 256

struct np_flow {
	enum np_class cls;
	unsigned n_rules;
	/* Match part only: ring_cookie 0 and location RX_CLS_LOC_ANY until
	 * the planner gives each rule its target (np_ntuple_rule). */
	struct ethtool_rx_flow_spec rule[NP_FLOW_MAX_RULES];
};

/*
 * Parse "CLASS:SPEC".  On failure returns -EINVAL with an NP_PHASE_INPUT
 * error naming the column, and *err_col (may be NULL) set to that column
 * (1-based; one past the end when the text stopped too early).
 */
int np_flow_parse(const char *text, struct np_flow *ret, size_t *err_col, struct np_error *err);

/*
 * One rule in the grammar above without its class ("tcp4:dst-port=6379",
 * "ether:vlan=100"): what show prints and what parses back to the same
 * rule.  Returns the length it needed (as snprintf) or -EINVAL for a rule
 * the grammar cannot express (a foreign rule: flow types or fields netpolicy
 * does not write).
 */
int np_flow_rule_format(const struct ethtool_rx_flow_spec *fs, char *buf, size_t len);

/* The same match as b, value for value: a rule that takes exactly b's
 * packets (the action and the location aside). */
bool np_flow_same_match(const struct ethtool_rx_flow_spec *a, const struct ethtool_rx_flow_spec *b);

/* Some packet could match both rules, whatever their flow types
 * ("ip4:dst-ip=10.0.0.1" and "tcp4:dst-port=6379" do; tcp4 and udp4 never
 * do).  Errs towards true where a flow type leaves a field open. */
bool np_flow_overlaps(const struct ethtool_rx_flow_spec *a, const struct ethtool_rx_flow_spec *b);

#endif
