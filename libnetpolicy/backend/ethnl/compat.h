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

#endif
