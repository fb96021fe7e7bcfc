/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ethtool netlink numbers newer than the uapi headers we build against
 * (Debian's 6.1).  They are kernel ABI, fixed once released, so hard-coding
 * them is safe.  The kernel declares them as enum constants, which #ifndef
 * cannot see, hence our own NP_ names instead of guarded kernel names.
 */
#ifndef NP_ETHNL_COMPAT_H
#define NP_ETHNL_COMPAT_H

/* Every ethtool request and reply carries its common header as attribute 1. */
#define NP_ETHTOOL_A_HEADER 1

/* ETHTOOL_MSG_* (userspace to kernel) */
#define NP_ETHTOOL_MSG_RSS_GET 38 /* 6.2 */
#define NP_ETHTOOL_MSG_RSS_SET 48 /* 6.17 */
#define NP_ETHTOOL_MSG_RSS_CREATE_ACT 49 /* 6.17 */
#define NP_ETHTOOL_MSG_RSS_DELETE_ACT 50 /* 6.17 */

/* ETHTOOL_MSG_*_REPLY (kernel to userspace) */
#define NP_ETHTOOL_MSG_RSS_GET_REPLY 38		/* 6.2 */
#define NP_ETHTOOL_MSG_RSS_CREATE_ACT_REPLY 51	/* 6.17 */

/* ETHTOOL_A_RSS_* */
#define NP_ETHTOOL_A_RSS_HEADER 1
#define NP_ETHTOOL_A_RSS_CONTEXT 2	 /* u32 */
#define NP_ETHTOOL_A_RSS_HFUNC 3	 /* u32 */
#define NP_ETHTOOL_A_RSS_INDIR 4	 /* binary, u32 array; empty in SET: default table */
#define NP_ETHTOOL_A_RSS_HKEY 5		 /* binary */
#define NP_ETHTOOL_A_RSS_INPUT_XFRM 6	 /* u32, 6.8 */
#define NP_ETHTOOL_A_RSS_START_CONTEXT 7 /* u32, 6.12 */
#define NP_ETHTOOL_A_RSS_FLOW_HASH 8	 /* nest, 6.17 */
#define NP_ETHTOOL_A_RSS_MAX 8

/* The netdev generic netlink family (Documentation/netlink/specs/netdev.yaml,
 * include/uapi/linux/netdev.h; Debian's 6.1 headers have no napi or queue
 * objects).  Which commands a kernel has comes from the family's op list. */
#define NP_NETDEV_FAMILY_NAME "netdev"
#define NP_NETDEV_FAMILY_VERSION 1
#define NP_NETDEV_CMD_QUEUE_GET 10	/* 6.8 */
#define NP_NETDEV_CMD_NAPI_GET 11	/* 6.8 */
#define NP_NETDEV_CMD_NAPI_SET 14	/* 6.13 */

#define NP_NETDEV_A_NAPI_IFINDEX 1		/* u32 */
#define NP_NETDEV_A_NAPI_ID 2			/* u32 */
#define NP_NETDEV_A_NAPI_IRQ 3			/* u32 */
#define NP_NETDEV_A_NAPI_PID 4			/* u32, only while threaded */
#define NP_NETDEV_A_NAPI_DEFER_HARD_IRQS 5	/* u32, 6.13 */
#define NP_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT 6	/* uint (4 or 8 bytes), ns, 6.13 */
#define NP_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT 7	/* uint, ns, 6.14 */
#define NP_NETDEV_A_NAPI_THREADED 8		/* u32 enum napi-threaded, 6.17 */
#define NP_NETDEV_A_NAPI_MAX 8

#define NP_NETDEV_A_QUEUE_ID 1		/* u32 */
#define NP_NETDEV_A_QUEUE_IFINDEX 2	/* u32 */
#define NP_NETDEV_A_QUEUE_TYPE 3	/* u32: 0 rx, 1 tx */
#define NP_NETDEV_A_QUEUE_NAPI_ID 4	/* u32, absent when no NAPI serves it */
#define NP_NETDEV_A_QUEUE_MAX 4
#define NP_NETDEV_QUEUE_TYPE_RX 0
#define NP_NETDEV_QUEUE_TYPE_TX 1

#endif
