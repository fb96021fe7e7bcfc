/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The driver table (np_drivers.h).  Every fact cites the driver file and
 * function it was read from; the citations are data, drivers/citations.tsv
 * (file, function, since, and the code fragment the fact rests on), which
 * tests/lab/citations.bats checks against Debian's linux-source-6.1 and
 * -6.12 and man/netpolicy-drivers.7 shows.  The comments below say how the
 * facts become table values.  Only facts read in the source are here; a
 * driver's other behaviour is the generic one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drivers/np_drivers.h"

#define B(f) NP_COAL_BIT(NP_COAL_##f)
#define N(a) a, (sizeof(a) / sizeof((a)[0]))

/* --- ixgbe: drivers/net/ethernet/intel/ixgbe/ixgbe_ethtool.c ---------------
 * ixgbe_set_coalesce(): -EINVAL for any tx-usecs while q_vector[0] carries
 * both Rx and Tx rings (the default "TxRx-N" vectors); -EINVAL for usecs
 * above IXGBE_MAX_EITR >> 2 = 1022; rx-usecs 1 keeps rx_itr_setting 1, the
 * dynamic ITR (starting at IXGBE_20K_ITR, adapted by ixgbe_update_itr());
 * 0 turns moderation off.  ixgbe_update_rsc(): an rx_itr_setting other than
 * 1 and at most IXGBE_MIN_RSC_ITR (rx-usecs 0 and 2-6) disables RSC while
 * LRO is on, and ixgbe_set_coalesce() then resets the adapter
 * (ixgbe_do_reset()).  ixgbe_get_coalesce() reports tx-usecs 0 while
 * vectors are shared.  ixgbe_main.c ixgbe_request_msix_irqs(): vectors
 * "<ifname>-TxRx-<n>"; ixgbe_set_channels() -> ixgbe_setup_tc() frees and
 * re-requests them (affinity back to the driver's hint) and
 * ixgbe_configure_tx_ring() sets XPS again from the vectors. */
static const struct np_coal_range ixgbe_ranges[] = {
	{ NP_COAL_RX_USECS, 0, 1022, -EINVAL },
	{ NP_COAL_TX_USECS, 0, 1022, -EINVAL },
};
static const struct np_coal_special ixgbe_specials[] = {
	{ NP_COAL_RX_USECS, 0, NP_COAL_MODE_OFF, "moderation off",
	  "with LRO on, disables RSC (hardware LRO) and resets the adapter (ixgbe_update_rsc)" },
	{ NP_COAL_RX_USECS, 1, NP_COAL_MODE_ADAPTIVE, "dynamic ITR", NULL },
	{ NP_COAL_TX_USECS, 1, NP_COAL_MODE_ADAPTIVE, "dynamic ITR", NULL },
};

/* --- igb: drivers/net/ethernet/intel/igb/igb_ethtool.c ---------------------
 * igb_set_coalesce(): rx- and tx-usecs above IGB_MAX_ITR_USECS (10000),
 * between 4 and IGB_MIN_ITR_USECS - 1 (9), or 2: -EINVAL; tx-usecs while
 * IGB_FLAG_QUEUE_PAIRS (Rx and Tx share vectors): -EINVAL.  Values 1-3 are
 * kept as the ITR setting itself: 1 dynamic, 3 dynamic "conservative" (the
 * default, IGB_DEFAULT_ITR in igb.h); 0 turns moderation off and DMA
 * coalescing with it.  igb_main.c igb_request_msix(): "<ifname>-TxRx-<n>"
 * (paired) or "<ifname>-rx-<n>"/"-tx-<n>"; igb_set_channels() ->
 * igb_reinit_queues() rebuilds the interrupt scheme (IRQs re-requested).
 * igb_main.c igb_set_flag_queue_pairs(), which igb_set_channels() calls
 * with igb_max_channels() before igb_reinit_queues(): IGB_FLAG_QUEUE_PAIRS set when rss_queues > max_rss_queues / 2 and cleared
 * otherwise (82576, 82580, i350, i354, i210; max_combined is max_rss_queues,
 * 8 on an 82576).  82575 and i211 never pair, and the rule then predicts
 * wrongly above half; the engine plans again from the device after the
 * change, so only a dry run is off there. */
static const struct np_coal_range igb_ranges[] = {
	{ NP_COAL_RX_USECS, 10, 10000, -EINVAL },
	{ NP_COAL_TX_USECS, 10, 10000, -EINVAL },
};
static const struct np_coal_special igb_specials[] = {
	{ NP_COAL_RX_USECS, 0, NP_COAL_MODE_OFF, "moderation off",
	  "disables DMA coalescing (igb_set_coalesce)" },
	{ NP_COAL_RX_USECS, 1, NP_COAL_MODE_ADAPTIVE, "dynamic ITR", NULL },
	{ NP_COAL_RX_USECS, 3, NP_COAL_MODE_ADAPTIVE, "dynamic conservative ITR", NULL },
	{ NP_COAL_TX_USECS, 0, NP_COAL_MODE_OFF, "moderation off", NULL },
	{ NP_COAL_TX_USECS, 1, NP_COAL_MODE_ADAPTIVE, "dynamic ITR", NULL },
	{ NP_COAL_TX_USECS, 3, NP_COAL_MODE_ADAPTIVE, "dynamic conservative ITR", NULL },
};

/* --- igc: drivers/net/ethernet/intel/igc/igc_ethtool.c ---------------------
 * igc_ethtool_set_coalesce(): igb's ranges (above IGC_MAX_ITR_USECS 10000,
 * 4 to IGC_MIN_ITR_USECS - 1, or 2: -EINVAL; 1 and 3 kept as dynamic ITR
 * settings, 3 the default IGC_DEFAULT_ITR; 0 off and DMA coalescing with
 * it).  With IGC_FLAG_QUEUE_PAIRS a tx-usecs other than the one
 * igc_ethtool_get_previous_tx_coalesce() reports is refused (-EINVAL,
 * "Queue Pair mode enabled"; before that change, in 6.1's stable updates,
 * any tx-usecs but 0 was), and tx_itr_setting is set from rx-usecs.  Only
 * usecs (supported_coalesce_params).  igc_main.c igc_request_msix():
 * "<ifname>-TxRx-<n>" or "-rx-"/"-tx-". */

/* --- r8169: drivers/net/ethernet/realtek/r8169_main.c ----------------------
 * rtl_set_coalesce(): rx- or tx-frames above RTL_COALESCE_FRAME_MAX
 * (RTL_COALESCE_T_MAX * 4 = 60): -ERANGE; after a count of 1 is taken as
 * none, a count without a time limit in its direction: -EINVAL ("HW
 * requires time limit to be set if frame limit is set"); usecs above what
 * rtl_coalesce_choose_scale() finds for the link speed: -ERANGE (speed
 * dependent, not in the table); RTL8125: -EOPNOTSUPP.  One vector named
 * after the netdev (rtl_open()), no channel ops. */
static const struct np_coal_range r8169_ranges[] = {
	{ NP_COAL_RX_FRAMES, 0, 60, -ERANGE },
	{ NP_COAL_TX_FRAMES, 0, 60, -ERANGE },
};

/* --- atlantic: drivers/net/ethernet/aquantia/atlantic/aq_ethtool.c --------
 * aq_ethtool_set_coalesce(): frames above 1: -EOPNOTSUPP ("only supports
 * timing based coalescing"); frames other than !usecs: -EOPNOTSUPP; usecs
 * above AQ_CFG_INTERRUPT_MODERATION_USEC_MAX (0x1FF * 2 = 1022): -EINVAL.
 * aq_ethtool_get_coalesce() reports frames 0 with moderation on, usecs 0
 * and frames 1 with it off.  aq_nic.c aq_nic_start(): every queue vector
 * is named after the netdev; 6.1 has no channel ops. */
static const struct np_coal_range atlantic_ranges[] = {
	{ NP_COAL_RX_USECS, 0, 1022, -EINVAL },
	{ NP_COAL_RX_FRAMES, 0, 1, -EOPNOTSUPP },
	{ NP_COAL_TX_USECS, 0, 1022, -EINVAL },
	{ NP_COAL_TX_FRAMES, 0, 1, -EOPNOTSUPP },
};

/* --- tg3: drivers/net/ethernet/broadcom/tg3.c ------------------------------
 * tg3_set_coalesce(): rx- and tx-usecs 0 or above MAX_RXCOL_TICKS /
 * MAX_TXCOL_TICKS (1023), frames above MAX_RXMAX_FRAMES / MAX_TXMAX_FRAMES
 * (255), *-frames-irq above 255: -EINVAL (one check for every field the
 * request carries).  tg3_request_irq(): "<ifname>-txrx-<n>", "-rx-<n>",
 * "-tx-<n>" by vector, or "<ifname>" with one vector. */
static const struct np_coal_range tg3_ranges[] = {
	{ NP_COAL_RX_USECS, 1, 1023, -EINVAL },
	{ NP_COAL_RX_FRAMES, 0, 255, -EINVAL },
	{ NP_COAL_RX_FRAMES_IRQ, 0, 255, -EINVAL },
	{ NP_COAL_TX_USECS, 1, 1023, -EINVAL },
	{ NP_COAL_TX_FRAMES, 0, 255, -EINVAL },
	{ NP_COAL_TX_FRAMES_IRQ, 0, 255, -EINVAL },
};

/* --- e1000e: drivers/net/ethernet/intel/e1000e/ethtool.c -------------------
 * e1000_set_coalesce(): rx-usecs above E1000_MAX_ITR_USECS (10000), between
 * 5 and E1000_MIN_ITR_USECS - 1 (9), or 2: -EINVAL; 0 off, 1 dynamic, 3
 * dynamic conservative (the default), 4 simplified balancing.  No
 * get/set_channels (the lab: "Operation not supported").  netdev.c
 * e1000_request_msix(): "<ifname>-rx-0", "<ifname>-tx-0", "<ifname>". */
static const struct np_coal_range e1000e_ranges[] = {
	{ NP_COAL_RX_USECS, 10, 10000, -EINVAL },
};
static const struct np_coal_special e1000e_specials[] = {
	{ NP_COAL_RX_USECS, 0, NP_COAL_MODE_OFF, "moderation off", NULL },
	{ NP_COAL_RX_USECS, 1, NP_COAL_MODE_ADAPTIVE, "dynamic ITR", NULL },
	{ NP_COAL_RX_USECS, 3, NP_COAL_MODE_ADAPTIVE, "dynamic conservative ITR", NULL },
	{ NP_COAL_RX_USECS, 4, NP_COAL_MODE_OTHER, "simplified balancing ITR", NULL },
};

/* --- i40e: drivers/net/ethernet/intel/i40e/i40e_ethtool.c ------------------
 * __i40e_set_coalesce() / i40e_set_itr_per_queue(): usecs above I40E_MAX_ITR
 * (8160): -EINVAL "rx-usecs range is 0-8160"; rx-usecs-high above
 * INTRL_REG_TO_USEC(I40E_MAX_INTRL) (236): -EINVAL; a usecs value that
 * differs from the current one while adaptive stays on: -EINVAL.
 * i40e_main.c i40e_vsi_request_irq_msix(): "i40e-<ifname>-TxRx-<n>". */
static const struct np_coal_range i40e_ranges[] = {
	{ NP_COAL_RX_USECS, 0, 8160, -EINVAL },
	{ NP_COAL_TX_USECS, 0, 8160, -EINVAL },
	{ NP_COAL_RX_USECS_HIGH, 0, 236, -EINVAL },
};

/* --- ice: drivers/net/ethernet/intel/ice/ice_ethtool.c ---------------------
 * ice_set_rc_coalesce(): usecs above ICE_ITR_MAX (8160): -EINVAL; usecs
 * changed while adaptive-rx/tx stays on: -EINVAL; rx-usecs-high above
 * ICE_MAX_INTRL (236): -EINVAL.  ice_main.c ice_vsi_req_irq_msix():
 * "ice-<ifname>-TxRx-<n>". */
static const struct np_coal_range ice_ranges[] = {
	{ NP_COAL_RX_USECS, 0, 8160, -EINVAL },
	{ NP_COAL_TX_USECS, 0, 8160, -EINVAL },
	{ NP_COAL_RX_USECS_HIGH, 0, 236, -EINVAL },
};

/* --- mlx5_core: drivers/net/ethernet/mellanox/mlx5/core/en_ethtool.c -------
 * mlx5e_ethtool_set_coalesce(): usecs above MLX5E_MAX_COAL_TIME
 * (MLX5_MAX_CQ_PERIOD, 4095) or frames above MLX5E_MAX_COAL_FRAMES
 * (MLX5_MAX_CQ_COUNT, 65535): -ERANGE; a device without cq_moderation:
 * -EOPNOTSUPP.  IRQs "mlx5_comp<n>@pci:<BDF>" belong to the completion EQs
 * made at probe (pci_irq.c), so a channel change keeps them; en_main.c
 * mlx5e_num_channels_changed() (6.1; mlx5e_update_tc_and_tx_queues() in
 * 6.12) sets the default XPS again. */
static const struct np_coal_range mlx5_ranges[] = {
	{ NP_COAL_RX_USECS, 0, 4095, -ERANGE },
	{ NP_COAL_TX_USECS, 0, 4095, -ERANGE },
	{ NP_COAL_RX_FRAMES, 0, 65535, -ERANGE },
	{ NP_COAL_TX_FRAMES, 0, 65535, -ERANGE },
};

/* --- virtio_net: drivers/net/virtio_net.c ----------------------------------
 * virtnet_set_coalesce() (6.1): tx-frames is the napi_tx switch and
 * rx-frames must stay 1; the device takes usecs only with
 * VIRTIO_NET_F_NOTF_COAL (backend/quirks.c reads the feature bits).
 * virtnet_set_channels() -> virtnet_set_affinity(): IRQ affinity hints and
 * XPS set again for the new queue count.  IRQs "virtio<N>-input.<q>" and
 * "virtio<N>-output.<q>" (vp_find_vqs_msix(); vp_find_one_vq_msix() in
 * 6.12). */

static const struct np_coal_range gve_ranges[] = {
	{ NP_COAL_RX_USECS, 0, 8190, -EINVAL },
	{ NP_COAL_TX_USECS, 0, 8190, -EINVAL },
};

/* --- ntuple filters and RSS contexts (the mixed policy) ----------------------
 * ice: drivers/net/ethernet/intel/ice/ice_ethtool_fdir.c, ice_add_fdir_ethtool()
 * -> ice_set_fdir_input_set(): TCP/UDP/SCTP over IPv4 and IPv6 and
 * IPV4_USER_FLOW / IPV6_USER_FLOW, anything else -EINVAL; FLOW_EXT only for
 * its user-def flexible bytes (no VLAN match); a rule targets a queue
 * (ethtool_get_flow_spec_ring); location below ice_get_fdir_cnt_all()
 * (hardware-dependent: a model says).  ice_ethtool.c has no
 * create_rxfh_context (ADQ channels come from tc mqprio, not ethtool), but
 * per-queue coalescing (ice_set_per_q_coalesce()).
 * mlx5: drivers/net/ethernet/mellanox/mlx5/core/en_fs_ethtool.c,
 * validate_flow(): ETHER_FLOW, TCP/UDP over IPv4 and IPv6, IP_USER_FLOW,
 * IPV6_USER_FLOW (no SCTP); validate_vlan(): a VLAN id with mask 0xfff;
 * location below MAX_NUM_OF_ETHTOOL_RULES (1024); FLOW_RSS rules go to an
 * RSS context (flow_get_tirn()); contexts up to MLX5E_MAX_NUM_RSS (16,
 * en/rx_res.c).  en_ethtool.c: no per-queue coalescing op.
 * sfc: drivers/net/ethernet/sfc/ethtool_common.c, efx_ethtool_get_rxnfc():
 * ETHTOOL_GRXCLSRLCNT reports efx_filter_get_rx_id_limit() with
 * RX_CLS_LOC_SPECIAL or'ed in; efx_ethtool_set_class_rule(): "Check that
 * user wants us to choose the location" (any location but RX_CLS_LOC_ANY:
 * -EINVAL), TCP/UDP over IPv4 and IPv6, IPV4_USER_FLOW, IPV6_USER_FLOW and
 * ETHER_FLOW, FLOW_RSS to a context; the filter id efx_filter_insert_filter()
 * returns is written back as rule->location (mcdi_filters.c,
 * efx_mcdi_filter_insert_locked(): a slot of a hash table, probed on collision),
 * and a filter of equal match is replaced (replace_equal true).  A VLAN id
 * with m_ext.vlan_tci 0xfff (EFX_FILTER_MATCH_OUTER_VID).
 * Masks: ice_set_fdir_ip4_seg() / ice_set_fdir_ip6_seg() take an address
 * or port mask only all ones or zero (-EOPNOTSUPP otherwise); sfc's
 * efx_ethtool_set_class_rule() the same (-EINVAL).  ice programs one
 * hardware profile per flow type, made from the fields the first rule of
 * that type matches: ice_cfg_fdir_xtrct_seq() -> ice_fdir_set_hw_fltr_rule()
 * refuses a rule matching other fields while the type has rules
 * (fdir_fltr_cnt, "must have the same input set", -EINVAL), before an
 * insert at an occupied location replaces anything.
 * bnxt_en: 6.1's bnxt_set_rxnfc() takes only ETHTOOL_SRXFH (rule inserts
 * -EOPNOTSUPP); 6.12's bnxt_add_ntuple_cls_rule() takes TCP and UDP over
 * IPv4 and IPv6, no SCTP, no FLOW_EXT, and user flows only for ICMP or raw
 * IP with the protocol matched (bnxt_verify_ntuple_ip4_flow()), which no
 * flow netpolicy makes is.
 * e1000e (drivers/net/ethernet/intel/e1000e/ethtool.c) and veth
 * (drivers/net/veth.c) have no set_rxnfc: no ntuple filters. */
#define IP_TYPES (NP_FLOW_BIT(TCP_V4_FLOW) | NP_FLOW_BIT(UDP_V4_FLOW) | \
		  NP_FLOW_BIT(TCP_V6_FLOW) | NP_FLOW_BIT(UDP_V6_FLOW) | \
		  NP_FLOW_BIT(IPV4_USER_FLOW) | NP_FLOW_BIT(IPV6_USER_FLOW))
#define ICE_NTUPLE "drivers/net/ethernet/intel/ice/ice_ethtool_fdir.c"
#define MLX5_NTUPLE "drivers/net/ethernet/mellanox/mlx5/core/en_fs_ethtool.c"
#define SFC_NTUPLE "drivers/net/ethernet/sfc/ethtool_common.c"

static const struct np_driver drivers[] = {
	{
		.name = "ixgbe", .ethtool_file = "drivers/net/ethernet/intel/ixgbe/ixgbe_ethtool.c",
		.ranges = N(ixgbe_ranges), .specials = N(ixgbe_specials),
		.paired_refuses = B(TX_USECS), .paired_reads_zero = true, .adaptive_rx_usecs = 1,
		.chan_affinity = NP_CHAN_RESETS, .chan_xps = NP_CHAN_RESETS,
		.irq_names = "<ifname>-TxRx-<n>", .irq_naming = NP_IRQN_IFNAME,
	},
	{
		.name = "igb", .ethtool_file = "drivers/net/ethernet/intel/igb/igb_ethtool.c",
		.ranges = N(igb_ranges), .specials = N(igb_specials),
		.paired_refuses = B(TX_USECS), .paired_reads_zero = true, .adaptive_rx_usecs = 3,
		.pairs_above_half = "drivers/net/ethernet/intel/igb/igb_main.c, igb_set_flag_queue_pairs()",
		.chan_affinity = NP_CHAN_RESETS,
		.irq_names = "<ifname>-TxRx-<n>, or <ifname>-rx-<n> and <ifname>-tx-<n>",
		.irq_naming = NP_IRQN_IFNAME,
	},
	{
		.name = "igc", .ethtool_file = "drivers/net/ethernet/intel/igc/igc_ethtool.c",
		.ranges = N(igb_ranges), .specials = N(igb_specials),
		.paired_refuses = B(TX_USECS), .paired_refuses_change = true,
		.paired_tx_follows_rx = true, .adaptive_rx_usecs = 3,
		.chan_affinity = NP_CHAN_RESETS,
		.irq_names = "<ifname>-TxRx-<n>, or <ifname>-rx-<n> and <ifname>-tx-<n>",
		.irq_naming = NP_IRQN_IFNAME,
	},
	{
		.name = "r8169", .ethtool_file = "drivers/net/ethernet/realtek/r8169_main.c",
		.ranges = N(r8169_ranges), .frames_need_usecs = true,
		.irq_names = "<ifname>", .irq_naming = NP_IRQN_IFNAME,
	},
	{
		.name = "atlantic",
		.ethtool_file = "drivers/net/ethernet/aquantia/atlantic/aq_ethtool.c",
		.ranges = N(atlantic_ranges), .frames_follow_usecs = true,
		.irq_names = "<ifname> (every vector)", .irq_naming = NP_IRQN_IFNAME,
	},
	{
		.name = "tg3", .ethtool_file = "drivers/net/ethernet/broadcom/tg3.c",
		.ranges = N(tg3_ranges),
		.irq_names = "<ifname>-txrx-<n>, <ifname>-rx-<n>, <ifname>-tx-<n>",
		.irq_naming = NP_IRQN_IFNAME,
	},
	{
		.name = "e1000e", .ethtool_file = "drivers/net/ethernet/intel/e1000e/ethtool.c",
		.ranges = N(e1000e_ranges), .specials = N(e1000e_specials),
		.adaptive_rx_usecs = 3,
		.irq_names = "<ifname>-rx-0, <ifname>-tx-0, <ifname>", .irq_naming = NP_IRQN_IFNAME,
		.ntuple_file = "drivers/net/ethernet/intel/e1000e/ethtool.c", .no_ntuple = true,
		.no_rss_ctx = true,
	},
	{
		.name = "i40e", .ethtool_file = "drivers/net/ethernet/intel/i40e/i40e_ethtool.c",
		.ranges = N(i40e_ranges),
		.irq_names = "i40e-<ifname>-TxRx-<n>", .irq_naming = NP_IRQN_DRIVER_IFNAME,
	},
	{
		.name = "ice", .ethtool_file = "drivers/net/ethernet/intel/ice/ice_ethtool.c",
		.ranges = N(ice_ranges),
		.irq_names = "ice-<ifname>-TxRx-<n>", .irq_naming = NP_IRQN_DRIVER_IFNAME,
		.ntuple_file = ICE_NTUPLE, .no_rss_ctx = true, .perqueue_coalesce = true,
		.ntuple_partial_mask = -EOPNOTSUPP, .ntuple_one_input_set = true,
		/* ice_set_channels() (ice_ethtool.c, in 6.1): "Cannot set
		 * channels when Flow Director filters are active", EOPNOTSUPP */
		.rules_block_channels = true,
		.ntuple_types = IP_TYPES | NP_FLOW_BIT(SCTP_V4_FLOW) | NP_FLOW_BIT(SCTP_V6_FLOW),
	},
	{
		.name = "mlx5_core",
		.ethtool_file = "drivers/net/ethernet/mellanox/mlx5/core/en_ethtool.c",
		.ranges = N(mlx5_ranges),
		.chan_affinity = NP_CHAN_KEEPS, .chan_xps = NP_CHAN_RESETS,
		.irq_names = "mlx5_comp<n>@pci:<BDF>", .irq_naming = NP_IRQN_PCI,
		.ntuple_file = MLX5_NTUPLE, .ntuple_types = IP_TYPES | NP_FLOW_BIT(ETHER_FLOW),
		.ntuple_vlan = true, .rss_ctx_max = 16, .ntuple_size = 1024,
		.rule_order = NP_RULE_ORDER_FIELDS,
	},
	{
		/* efx_channels.c efx_get_channel_name(): "<ifname>-<n>", or
		 * "<ifname>-rx-<n>" and "-tx-<n>" with separate channels */
		.name = "sfc", .ethtool_file = SFC_NTUPLE,
		.irq_names = "<ifname>-<n>", .irq_naming = NP_IRQN_IFNAME,
		.ntuple_file = SFC_NTUPLE, .ntuple_loc_any = true, .ntuple_vlan = true,
		.ntuple_partial_mask = -EINVAL, .rule_order = NP_RULE_ORDER_FIRMWARE,
		.ntuple_types = IP_TYPES | NP_FLOW_BIT(ETHER_FLOW),
	},
	/* drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c bnxt_set_coalesce():
	 * adaptive-rx is DIM (BNXT_FLAG_DIM); a request that turns it off jumps
	 * to reset_coalesce before storing any of the values it carries, so
	 * fixed values after adaptive moderation need a request of their own.
	 * No range refusals: bnxt.c bnxt_hwrm_set_coal_params() clamps the timers
	 * to the firmware's maxima (the driver rounds; verify reports it); a
	 * stats-block-usecs change closes and reopens the NIC.  bnxt.c
	 * bnxt_setup_msix(): "<ifname>-TxRx-<n>" (also -rx-/-tx- without
	 * shared rings); bnxt_set_channels(): combined or separate rx/tx, a user
	 * RSS table whose context count would change refuses it (-EINVAL), and
	 * the NIC is closed and reopened, which frees and requests the IRQs
	 * again (bnxt_free_irq() / bnxt_request_irq()). */
	{
		.name = "bnxt_en", .ethtool_file = "drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c",
		.adaptive_off_alone = true,
		.ntuple_file = "drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c",
		.ntuple_types = NP_FLOW_BIT(TCP_V4_FLOW) | NP_FLOW_BIT(UDP_V4_FLOW) |
				NP_FLOW_BIT(TCP_V6_FLOW) | NP_FLOW_BIT(UDP_V6_FLOW),
		.chan_affinity = NP_CHAN_RESETS, .rule_order = NP_RULE_ORDER_FIRMWARE,
		.irq_names = "<ifname>-TxRx-<n>", .irq_naming = NP_IRQN_IFNAME,
	},
	/* drivers/net/ethernet/amazon/ena/ena_ethtool.c ena_set_coalesce():
	 * rx-usecs, tx-usecs and adaptive-rx only (supported_coalesce_params);
	 * -EOPNOTSUPP on a device without interrupt moderation; no range: the
	 * usecs are divided by the device's intr_delay_resolution (ena_com.c
	 * ena_com_update_nonadaptive_moderation_interval(), the driver rounds
	 * down), and rx-usecs is kept for when adaptive-rx goes off.
	 * ena_set_channels(): combined only, at least ENA_MIN_NUM_IO_QUEUES
	 * (1), at most half the maximum while an XDP program is loaded, then
	 * ena_update_queue_count() tears the IO queues and their IRQs down and
	 * up again.  ena_netdev.c ena_setup_io_intr(): "<ifname>-Tx-Rx-<n>",
	 * management "ena-mgmnt@pci:<BDF>". */
	{
		.name = "ena", .ethtool_file = "drivers/net/ethernet/amazon/ena/ena_ethtool.c",
		.chan_affinity = NP_CHAN_RESETS,
		.irq_names = "<ifname>-Tx-Rx-<n>", .irq_naming = NP_IRQN_IFNAME,
	},
	/* drivers/net/ethernet/google/gve/gve_ethtool.c gve_set_coalesce(): the
	 * GQI queue format has no coalescing (-EOPNOTSUPP, also for get); DQO
	 * takes rx- and tx-usecs up to GVE_MAX_ITR_INTERVAL_DQO (gve_dqo.h:
	 * GVE_ITR_INTERVAL_DQO_MASK * 2 = 8190), -EINVAL above; no adaptive
	 * moderation.  gve_set_channels(): separate rx/tx only (a combined
	 * count that changes: -EINVAL), both at least 1, equal and at most half
	 * the maximum while XDP is loaded.  gve_main.c gve_alloc_notify_blocks():
	 * "gve-ntfy-blk<n>@pci:<BDF>" (6.3; 6.1 has "<name>-ntfy-block.<n>"),
	 * allocated once at probe, so a channel change keeps them.  Block n is
	 * not queue n: gve.h gve_tx_idx_to_ntfy() gives Tx queue q block q and
	 * gve_rx_idx_to_ntfy() gives Rx queue q block num_ntfy_blks / 2 + q. */
	{
		.name = "gve", .ethtool_file = "drivers/net/ethernet/google/gve/gve_ethtool.c",
		.ranges = N(gve_ranges),
		.chan_affinity = NP_CHAN_KEEPS,
		.irq_names = "gve-ntfy-blk<n>@pci:<BDF>: blocks 0..N/2-1 Tx queues, N/2.. Rx",
		.irq_naming = NP_IRQN_BLOCKS,
	},
	/* drivers/net/ethernet/intel/iavf/iavf_main.c iavf_request_traffic_irqs():
	 * "iavf-<ifname>-TxRx-<n>". */
	{
		.name = "iavf", .ethtool_file = "drivers/net/ethernet/intel/iavf/iavf_ethtool.c",
		.irq_names = "iavf-<ifname>-TxRx-<n>", .irq_naming = NP_IRQN_DRIVER_IFNAME,
	},
	{
		.name = "virtio_net", .ethtool_file = "drivers/net/virtio_net.c",
		.switches = B(RX_FRAMES) | B(TX_FRAMES),
		.switches_why = "virtio_net uses rx/tx-frames as switches, not moderation",
		.chan_affinity = NP_CHAN_RESETS, .chan_xps = NP_CHAN_RESETS,
		.irq_names = "virtio<N>-input.<q>, virtio<N>-output.<q>", .irq_naming = NP_IRQN_VIRTIO,
	},
	/* drivers/net/vmxnet3/vmxnet3_ethtool.c: vmxnet3_get_channels() and no
	 * set_channels ("Number of interrupts cannot be changed on the fly":
	 * maxima = counts); vmxnet3_get/set_coalesce() -EOPNOTSUPP before
	 * device version 3.  vmxnet3_drv.c vmxnet3_request_irqs():
	 * "<ifname>-rxtx-<n>" (buddy sharing), "<ifname>-event-<n>". */
	{
		.name = "vmxnet3", .ethtool_file = "drivers/net/vmxnet3/vmxnet3_ethtool.c",
		.no_set_channels = true,
		.irq_names = "<ifname>-rxtx-<n>, <ifname>-event-<n>", .irq_naming = NP_IRQN_IFNAME,
	},
	/* drivers/net/veth.c veth_get_channels() / veth_set_channels(): rx/tx
	 * up to the queues it was created with, set with
	 * netif_set_real_num_rx/tx_queues() only (XPS of the queues that stay
	 * is kept); no coalescing or rings ops, no IRQs (the peer's xmit runs
	 * its NAPI). */
	{
		.name = "veth", .ethtool_file = "drivers/net/veth.c",
		.chan_affinity = NP_CHAN_KEEPS, .chan_xps = NP_CHAN_KEEPS,
		.irq_names = "none", .irq_naming = NP_IRQN_NONE,
		.ntuple_file = "drivers/net/veth.c", .no_ntuple = true, .no_rss_ctx = true,
	},
	/* drivers/net/netdevsim/ethtool.c nsim_set_channels(),
	 * nsim_set_ringparam(), nsim_set_coalesce(): takes what the ethtool
	 * core lets through (it only stores it; channels through
	 * netif_set_real_num_queues(), XPS untouched); no IRQs. */
	{
		.name = "netdevsim", .ethtool_file = "drivers/net/netdevsim/ethtool.c",
		.chan_affinity = NP_CHAN_KEEPS, .chan_xps = NP_CHAN_KEEPS,
		.irq_names = "none", .irq_naming = NP_IRQN_NONE,
	},
};

const struct np_driver *np_driver_at(size_t i)
{
	size_t n = sizeof(drivers) / sizeof(drivers[0]);

	if (i < n)
		return &drivers[i];
	return i - n < np_n_drivers_more ? &np_drivers_more[i - n] : NULL;
}

const struct np_driver *np_driver_lookup(const char *name)
{
	const struct np_driver *d;

	for (size_t i = 0; name && (d = np_driver_at(i)); i++)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}
