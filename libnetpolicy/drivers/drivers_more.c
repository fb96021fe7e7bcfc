/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The driver table's second part (np_drivers.h; drivers.c joins it to its
 * own entries, which it would have made too long): mlx4_en, nfp, qede,
 * hns3, cxgb4, be2net and hv_netvsc.  As in drivers.c, every fact is cited in
 * drivers/citations.tsv and the comments say how the facts become table
 * values; what was not read stays out and the driver gets the generic
 * behaviour for that knob.
 */
#include <errno.h>
#include <stdint.h>

#include "drivers/np_drivers.h"

#define B(f) NP_COAL_BIT(NP_COAL_##f)
#define N(a) a, (sizeof(a) / sizeof((a)[0]))

/* --- mlx4_en: drivers/net/ethernet/mellanox/mlx4/en_ethtool.c -------------
 * mlx4_en_set_coalesce(): usecs (rx, tx, rx-low, rx-high) above
 * MLX4_EN_MAX_COAL_TIME or frames above MLX4_EN_MAX_COAL_PKTS (both
 * U16_MAX, mlx4_en.h): -ERANGE; tx-frames-irq 0: -EINVAL, it is the Tx
 * completion budget of a NAPI poll (tx_work_limit), not moderation; rx-usecs
 * or rx-frames MLX4_EN_AUTO_CONF (0xffff) select the driver defaults (a
 * special value: the range stops below it, so nothing is brought to it).
 * mlx4_en_set_channels(): separate rx and tx, both at least 1.  Queue
 * vectors are the core's completion EQs, "mlx4-<n>@<BDF>" (eq.c
 * mlx4_assign_eq()), requested once and never freed (mlx4_release_eq()
 * only drops a count), so a channel change keeps them; an Rx ring takes the
 * EQ of the first CPU of its affinity (en_cq.c mlx4_en_activate_cq()): EQ n
 * is not queue n, and the matcher claims them without a queue.
 * mlx4_en_validate_flow(): TCP and UDP over IPv4, IP_USER_FLOW (IPv4) and
 * ETHER_FLOW, anything else -EINVAL; address and port masks all ones or
 * zero, else -EINVAL; a VLAN id with mask 0xfff; location below
 * MAX_NUM_OF_FS_RULES (256).  No RSS context ops. */
static const struct np_coal_range mlx4_ranges[] = {
	{ NP_COAL_RX_USECS, 0, 65534, -ERANGE },
	{ NP_COAL_TX_USECS, 0, 65535, -ERANGE },
	{ NP_COAL_RX_USECS_LOW, 0, 65535, -ERANGE },
	{ NP_COAL_RX_USECS_HIGH, 0, 65535, -ERANGE },
	{ NP_COAL_RX_FRAMES, 0, 65534, -ERANGE },
	{ NP_COAL_TX_FRAMES, 0, 65535, -ERANGE },
	{ NP_COAL_TX_FRAMES_IRQ, 1, UINT32_MAX, -EINVAL },
};
static const struct np_coal_special mlx4_specials[] = {
	{ NP_COAL_RX_USECS, 65535, NP_COAL_MODE_OTHER, "the driver default (16 us)", NULL },
	{ NP_COAL_RX_FRAMES, 65535, NP_COAL_MODE_OTHER, "the driver default (44 frames)", NULL },
};

/* --- nfp: drivers/net/ethernet/netronome/nfp/nfp_net_ethtool.c -------------
 * nfp_net_set_coalesce(): frames at or above 0xffff (nfp_net.h
 * nfp_net_coalesce_para_check()): -EINVAL; usecs times the ME clock factor
 * likewise (firmware-dependent, not in the table); usecs 0 with frames 0 in
 * a direction: -EINVAL ("To disable coalescing, set usecs = 0 and
 * max_frames = 1").
 * nfp_net_common.c nfp_net_prepare_vector(): "<ifname>-rxtx-<n>".  Flow
 * steering rules only in 6.12 (nfp_net_fs_add()), not read. */
static const struct np_coal_range nfp_ranges[] = {
	{ NP_COAL_RX_FRAMES, 0, 65534, -EINVAL },
	{ NP_COAL_TX_FRAMES, 0, 65534, -EINVAL },
};

/* --- qede: drivers/net/ethernet/qlogic/qede/qede_ethtool.c -----------------
 * qede_set_coalesce(): rx- or tx-usecs above QED_COALESCE_MAX (0x1FF, 511):
 * -EINVAL; only usecs and stats-block-usecs (supported_coalesce_params).
 * qede_set_channels(): combined, or rx and tx both; qede_reload() unloads
 * and loads the NIC, and qede_load() requests the IRQs again
 * (qede_setup_irqs()).  qede_main.c: vectors "<ifname>-fp-<n>".
 * qede_filter.c: TCP and UDP over IPv4 and IPv6 (qede_flow_spec_to_rule(),
 * else -EOPNOTSUPP), no VLAN or user-def match; a prefix or port mask:
 * -EINVAL; a location in use: -EINVAL; below QEDE_RFS_MAX_FLTR (256); one
 * filter mode for all rules (qede_flow_spec_validate(): stricter than one
 * input set per flow type, the table's nearest rule). */
static const struct np_coal_range qede_ranges[] = {
	{ NP_COAL_RX_USECS, 0, 511, -EINVAL },
	{ NP_COAL_TX_USECS, 0, 511, -EINVAL },
};

/* --- hns3: drivers/net/ethernet/hisilicon/hns3/hns3_ethtool.c --------------
 * hns3_check_rl_coalesce_para(): rx-usecs-high above HNS3_INT_RL_MAX
 * (0xEC, 236): -EINVAL, and tx-usecs-high other than rx-usecs-high: -EINVAL
 * (one rate limit, kinfo.int_rl_setting, for both); usecs above the device's max_int_gl and frames above its
 * int_ql_max are device-dependent (not in the table).  hns3_set_channels():
 * combined only, 1 to the maximum; the client is uninitialised and
 * initialised again, which frees and requests the IRQs (hns3_enet.c
 * hns3_reset_notify_uninit_enet()).  hns3_enet.c hns3_nic_init_irq():
 * "hns3-<BDF>-TxRx-<n>" with n stepping by two, "-Rx-<n>", "-Tx-<n>";
 * vector v serves queue v (hns3_nic_init_vector_data()).  hns3pf/hclge_main.c
 * hclge_fd_check_spec(): TCP, UDP and SCTP over IPv4 and IPv6, IP user flows
 * (ETHER_FLOW only in one flow director mode: out), a VLAN id. */
static const struct np_coal_range hns3_ranges[] = {
	{ NP_COAL_RX_USECS_HIGH, 0, 236, -EINVAL },
};

/* --- be2net: drivers/net/ethernet/emulex/benet/be_ethtool.c ----------------
 * be_set_coalesce(): no refusal, rx-usecs is clamped to rx-usecs-high and
 * BE_MAX_EQD (128) (the driver rounds; verify reports it).
 * be_set_channels(): combined at least 1, plus rx or tx (not both);
 * be_update_queues() closes the NIC (be_main.c be_close() ->
 * be_irq_unregister()) and opens it again.  be_main.c be_msix_register():
 * "<ifname>-q<n>".  be_set_rxnfc(): ETHTOOL_SRXFH only, else -EINVAL: no
 * ntuple filters. */

/* --- cxgb4: drivers/net/ethernet/chelsio/cxgb4/cxgb4_ethtool.c -------------
 * set_coalesce() -> cxgb4_main.c cxgb4_set_rspq_intr_params(): no refusal,
 * rx-usecs and rx-frames become the nearest of the adapter's SGE hold-off
 * timers and counters (the driver rounds).  No channel ops.  cxgb4_main.c:
 * Rx queue vectors "<ifname>-Rx<n>". */

/* --- hv_netvsc: drivers/net/hyperv/netvsc_drv.c -----------------------------
 * netvsc_set_channels(): combined only (-EINVAL otherwise), up to the host's
 * max_chn; netvsc_detach() and netvsc_attach() make the channels again.  No
 * coalescing ops.  Queues are VMBus channels whose callbacks run from the
 * hypervisor's per-CPU interrupt (netvsc.c netvsc_device_add():
 * vmbus_open(..., netvsc_channel_cb, ...)): no per-queue IRQs.  Under
 * Accelerated Networking netvsc_vf_join() makes the VF (a netdev of its own
 * driver: mlx4_en, mlx5_core, or mana on the Microsoft Azure Network Adapter,
 * drivers/net/ethernet/microsoft/mana/) a lower device of the netvsc one and
 * the data path goes through it: the plan says so. */

#define IP4 (NP_FLOW_BIT(TCP_V4_FLOW) | NP_FLOW_BIT(UDP_V4_FLOW))
#define IP6 (NP_FLOW_BIT(TCP_V6_FLOW) | NP_FLOW_BIT(UDP_V6_FLOW))
#define MLX4_FILE "drivers/net/ethernet/mellanox/mlx4/en_ethtool.c"
#define QEDE_NTUPLE "drivers/net/ethernet/qlogic/qede/qede_filter.c"
#define HNS3_NTUPLE "drivers/net/ethernet/hisilicon/hns3/hns3pf/hclge_main.c"
#define BE2NET_FILE "drivers/net/ethernet/emulex/benet/be_ethtool.c"

const struct np_driver np_drivers_more[] = {
	{
		.name = "mlx4_en", .ethtool_file = MLX4_FILE,
		.ranges = N(mlx4_ranges), .specials = N(mlx4_specials),
		.switches = B(TX_FRAMES_IRQ),
		.switches_why = "mlx4_en uses tx-frames-irq as its Tx completion budget, "
				"not moderation",
		.chan_affinity = NP_CHAN_KEEPS,
		.irq_names = "mlx4-<n>@<BDF>: completion EQs, not one per queue",
		.irq_naming = NP_IRQN_MLX4_EQ,
		.ntuple_file = MLX4_FILE, .no_rss_ctx = true, .ntuple_vlan = true,
		.ntuple_partial_mask = -EINVAL, .ntuple_size = 256,
		.ntuple_types = IP4 | NP_FLOW_BIT(IPV4_USER_FLOW) | NP_FLOW_BIT(ETHER_FLOW),
	},
	{
		.name = "nfp", .ethtool_file = "drivers/net/ethernet/netronome/nfp/nfp_net_ethtool.c",
		.ranges = N(nfp_ranges), .usecs_or_frames = true,
		.irq_names = "<ifname>-rxtx-<n>", .irq_naming = NP_IRQN_IFNAME,
	},
	{
		.name = "qede", .ethtool_file = "drivers/net/ethernet/qlogic/qede/qede_ethtool.c",
		.ranges = N(qede_ranges),
		.chan_affinity = NP_CHAN_RESETS,
		.irq_names = "<ifname>-fp-<n>", .irq_naming = NP_IRQN_IFNAME,
		.ntuple_file = QEDE_NTUPLE, .ntuple_types = IP4 | IP6,
		.ntuple_partial_mask = -EINVAL, .ntuple_one_input_set = true,
		.ntuple_size = 256,
	},
	{
		.name = "hns3", .ethtool_file = "drivers/net/ethernet/hisilicon/hns3/hns3_ethtool.c",
		.ranges = N(hns3_ranges), .usecs_high_shared = true,
		.chan_affinity = NP_CHAN_RESETS,
		.irq_names = "hns3-<BDF>-TxRx-<2n>, hns3-<BDF>-Rx-<n>, hns3-<BDF>-Tx-<n>",
		.irq_naming = NP_IRQN_DRIVER_BUS,
		.ntuple_file = HNS3_NTUPLE, .ntuple_vlan = true,
		.ntuple_types = IP4 | IP6 | NP_FLOW_BIT(SCTP_V4_FLOW) | NP_FLOW_BIT(SCTP_V6_FLOW) |
				NP_FLOW_BIT(IPV4_USER_FLOW) | NP_FLOW_BIT(IPV6_USER_FLOW),
	},
	{
		.name = "cxgb4", .ethtool_file = "drivers/net/ethernet/chelsio/cxgb4/cxgb4_ethtool.c",
		.irq_names = "<ifname>-Rx<n>", .irq_naming = NP_IRQN_IFNAME,
	},
	{
		.name = "be2net", .ethtool_file = BE2NET_FILE,
		.chan_affinity = NP_CHAN_RESETS,
		.irq_names = "<ifname>-q<n>", .irq_naming = NP_IRQN_IFNAME,
		.ntuple_file = BE2NET_FILE, .no_ntuple = true, .no_rss_ctx = true,
	},
	{
		.name = "hv_netvsc", .ethtool_file = "drivers/net/hyperv/netvsc_drv.c",
		.irq_names = "none (VMBus channels)", .irq_naming = NP_IRQN_NONE,
		.traffic_note = "under Accelerated Networking the VF (a netdev of its own driver, "
				"mlx4_en, mlx5_core or mana (MANA), enslaved to this one) carries "
				"the traffic: tune it too",
	},
};

const size_t np_n_drivers_more = sizeof(np_drivers_more) / sizeof(np_drivers_more[0]);
