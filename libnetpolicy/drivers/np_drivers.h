/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Driver truth as data (drivers/drivers.c): what each driver family's
 * ethtool ops accept, read from the driver source each entry cites.  No I/O:
 * the planner plans only what this says the driver takes, and the simulated
 * backend refuses what the real driver refuses, from the same facts.  A
 * driver not in the table gets the generic behaviour: what ethtool reports
 * is what it takes (no allow-list).
 */
#ifndef NP_DRIVERS_H
#define NP_DRIVERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/np_state.h"

#define NP_COAL_BIT(f) (1u << (f))

/* What a special coalescing value selects instead of a fixed delay. */
enum np_coal_mode {
	NP_COAL_MODE_OFF,		/* no moderation: an interrupt per packet */
	NP_COAL_MODE_ADAPTIVE,		/* the driver's dynamic ITR */
	NP_COAL_MODE_OTHER,		/* another mode (see meaning) */
};

/* What a channel change does to a setting of the queues, as read in the
 * driver.  Unknown is taken as "resets" by the simulator; the engine
 * re-plans after every channel change whatever the driver does. */
enum np_chan_effect {
	NP_CHAN_UNKNOWN,
	NP_CHAN_RESETS,		/* IRQs re-requested / XPS set again by the driver */
	NP_CHAN_KEEPS,		/* the driver leaves it (vectors made once at probe, none) */
};

/* Which of two overlapping ntuple rules a packet matching both takes. */
enum np_rule_order {
	NP_RULE_ORDER_UNKNOWN,	/* not read: the driver's or its hardware's */
	NP_RULE_ORDER_FIELDS,	/* the one matching more fields (mlx5: a flow table
				 * per count, more fields at a higher priority) */
	NP_RULE_ORDER_FIRMWARE,	/* every rule at one priority: the firmware orders */
};

/* How a driver names its queue vectors (backend/irq_match.c has one matcher
 * for each); a driver not in the table is tried against all of them. */
enum np_irq_naming {
	NP_IRQN_GENERIC,	/* not read: every matcher in turn */
	NP_IRQN_IFNAME,		/* "<ifname>-TxRx-<n>", "<ifname>-rx-<n>", "<ifname>" */
	NP_IRQN_DRIVER_IFNAME,	/* "<driver>-<ifname>-TxRx-<n>", "<driver>-<BDF>:misc" */
	NP_IRQN_PCI,		/* "<name><n>@pci:<BDF>" */
	NP_IRQN_VIRTIO,		/* "virtio<N>-input.<q>", "virtio<N>-output.<q>" */
	NP_IRQN_BLOCKS,		/* notification blocks "gve-ntfy-blk<n>@pci:<BDF>": the
				 * first half Tx queues, the second half Rx (gve) */
	NP_IRQN_NONE,		/* no IRQs of its own */
	NP_IRQN_DRIVER_BUS,	/* "<driver>-<BDF>-TxRx-<2n>", "-Rx-<n>", "-Tx-<n>" (hns3:
				 * its TxRx count steps by two) */
	NP_IRQN_MLX4_EQ,	/* "mlx4-<n>@<BDF>": shared completion EQs, claimed as
				 * the device's but not a queue's (mlx4_en) */
};

struct np_coal_special {
	enum np_coal_field field;
	uint32_t value;
	enum np_coal_mode mode;
	const char *meaning;		/* "dynamic ITR", ... for notes */
	const char *side_effect;	/* what else writing it does, or NULL */
};

/* The values a field takes: `min`..`max`, plus the special values (which
 * may lie below min: igb takes 0-3 and 10-10000). */
struct np_coal_range {
	enum np_coal_field field;
	uint32_t min, max;
	int code;			/* what the driver returns outside: -EINVAL, -ERANGE */
};

struct np_driver {
	const char *name;		/* as ETHTOOL_GDRVINFO reports it */
	const char *ethtool_file;	/* where the facts come from (for messages) */
	/* coalescing */
	const struct np_coal_range *ranges;
	size_t n_ranges;
	const struct np_coal_special *specials;
	size_t n_specials;
	uint32_t paired_refuses;	/* fields refused (non-zero) while Rx and Tx share a vector */
	uint32_t switches;		/* fields that are switches, not moderation: never planned */
	const char *switches_why;
	/* the value of rx-usecs that selects adaptive moderation on a driver
	 * without adaptive-rx, 0 when none */
	uint32_t adaptive_rx_usecs;
	/* a request that turns adaptive-rx off stores nothing else it
	 * carries (bnxt): adaptive off is a request of its own */
	bool adaptive_off_alone;
	/* a frame count needs a delay in its direction: rx-frames above 1
	 * with rx-usecs 0 is refused, -EINVAL (r8169: the chip's frame
	 * counter runs only beside its timer; 1 means no count) */
	bool frames_need_usecs;
	/* no frame counting: rx/tx-frames is 1 without a delay and 0 with
	 * one, anything else -EOPNOTSUPP (atlantic) */
	bool frames_follow_usecs;
	/* a direction needs a delay or a frame count: usecs 0 with frames 0
	 * is refused, -EINVAL (nfp: no interrupt would come; usecs 0 with
	 * frames 1 is its "no moderation") */
	bool usecs_or_frames;
	/* one interrupt rate limit for both directions: tx-usecs-high other
	 * than rx-usecs-high is refused, -EINVAL (hns3) */
	bool usecs_high_shared;
	/* while Rx and Tx share vectors the paired_refuses fields read 0
	 * (get_coalesce leaves them out: igb, ixgbe), so a channel change
	 * that pairs the vectors turns a tx-usecs of 50 into 0 by itself */
	bool paired_reads_zero;
	/* paired_refuses refuses a change only: the field must stay at what
	 * the driver reports (igc, where Tx follows rx-usecs) */
	bool paired_refuses_change;
	/* while Rx and Tx share vectors, a write of rx-usecs sets tx-usecs
	 * too (igc) */
	bool paired_tx_follows_rx;
	/* Rx and Tx share vectors when combined > max_combined / 2, decided
	 * again at every channel change (igb): what a dry run plans for.
	 * The driver function that decides it, or NULL. */
	const char *pairs_above_half;
	/* channels */
	bool no_set_channels;		/* get_channels without set_channels */
	bool rules_block_channels;	/* no channel change while any ntuple rule exists */
	enum np_chan_effect chan_affinity;	/* what a channel change does to IRQ affinity */
	enum np_chan_effect chan_xps;		/* ... and to the queues' XPS maps */
	const char *irq_names;		/* how its queue IRQs are named in /proc/interrupts */
	enum np_irq_naming irq_naming;	/* ... and which matcher reads them */
	/* ntuple filters and extra RSS contexts (the mixed policy); all zero:
	 * the table says nothing, what the kernel reports decides */
	const char *ntuple_file;	/* where these facts come from */
	bool no_ntuple;			/* no ntuple filters (no SRXCLSRLINS) */
	uint32_t ntuple_types;		/* bit n: its rules take flow_type n; 0 unknown */
	bool ntuple_vlan;		/* takes a VLAN id match (FLOW_EXT vlan_tci) */
	/* the errno for an address or port mask that is neither all ones nor
	 * zero (a prefix, a port range), 0 when it takes them */
	int ntuple_partial_mask;
	/* places rules itself and takes no other location than RX_CLS_LOC_ANY
	 * (reports RX_CLS_LOC_SPECIAL in ETHTOOL_GRXCLSRLCNT); the location it
	 * returns is a slot its filter table's hash picked */
	bool ntuple_loc_any;
	/* all rules of one flow type match the same fields (the "input set"
	 * its hardware profile for that type was made with): a rule matching
	 * other fields is refused with EINVAL while any rule of the type is
	 * there */
	bool ntuple_one_input_set;
	enum np_rule_order rule_order;	/* between overlapping rules */
	bool no_rss_ctx;		/* no extra RSS contexts (rules target a queue) */
	uint32_t rss_ctx_max;		/* context ids are below it, 0 unknown */
	uint32_t ntuple_size;		/* rule locations, 0 unknown (or hardware-dependent) */
	bool perqueue_coalesce;		/* ETHTOOL_PERQUEUE coalescing */
	/* another netdev may carry this one's traffic, which the plan notes
	 * (hv_netvsc: the VF of Accelerated Networking); NULL when none */
	const char *traffic_note;
};

#define NP_FLOW_BIT(t) (1u << (t))

/* Would the driver take this rule's match?  0, or -EINVAL with the
 * driver's reason in why (drv NULL: no facts, anything goes). */
int np_driver_rule_check(const struct np_driver *drv, const struct ethtool_rx_flow_spec *fs,
			 char *why, size_t len);

/* Would the driver hold rules a and b at once?  0, or -EINVAL with the
 * driver's reason in why (rules of one flow type matching different fields
 * on a driver with one input set per type). */
/* Which of two overlapping rules, ours and a foreign one, a packet matching
 * both takes, as a clause for the plan's warning: "which matches first
 * (...)", "which matches after ours (...)" or "which may match first
 * (...)", with the driver's reason. */
void np_driver_rule_precedence(const struct np_driver *drv, const char *driver,
			       const struct ethtool_rx_flow_spec *foreign,
			       const struct ethtool_rx_flow_spec *ours, char *buf, size_t len);

int np_driver_rules_together(const struct np_driver *drv, const struct ethtool_rx_flow_spec *a,
			     const struct ethtool_rx_flow_spec *b, char *why, size_t len);

/* The entry for a driver name, or NULL (generic behaviour). */
const struct np_driver *np_driver_lookup(const char *name);
/* Entry i of the table, NULL past its end (tests, documentation). */
const struct np_driver *np_driver_at(size_t i);
/* The table's second part (drivers_more.c), which drivers.c joins to its
 * own entries. */
extern const struct np_driver np_drivers_more[];
extern const size_t np_n_drivers_more;

/* Whether Rx and Tx share interrupt vectors on this device: a TxRx IRQ, or
 * (no IRQ known) combined channels. */
bool np_driver_paired(const struct np_dev *dev);
/* Whether they will share vectors once the device has the channels
 * `after` (a plan's target): by the driver's rule when the count changes
 * (pairs_above_half), else as they do now.  *predicted: the rule decided. */
bool np_driver_paired_after(const struct np_driver *drv, const struct np_dev *dev,
			    const struct np_channels *after, bool *predicted);

/* The queue IRQ `irq` serves by the kernel's NAPI map (napi-get irq,
 * queue-get napi-id): true with its kind, queue and NAPI; false when no
 * NAPI reports it, or NAPIs of several queues share it. */
bool np_irq_napi_tie(const struct np_dev *d, unsigned irq, enum np_irq_kind *kind, int *queue,
		     uint32_t *napi_id);
/* Each of the device's IRQs that the kernel ties to a queue gets that
 * queue, kind and NAPI, source NP_IRQ_SRC_KERNEL; the others keep theirs. */
void np_irq_tie_napis(struct np_dev *d);

/* The special value `v` of field `f` means, or NULL. */
const struct np_coal_special *np_driver_coal_special(const struct np_driver *drv,
						     enum np_coal_field f, uint32_t v);
/* The value nearest to `v` that the driver takes for field `f` (v itself
 * when it takes it, or when the table has no range for f). */
uint32_t np_driver_coal_nearest(const struct np_driver *drv, enum np_coal_field f, uint32_t v);

/*
 * Would the driver take this coalescing request?  `fields` are the fields
 * sent with `want`'s values, on device `dev` as it is (its pairing, its other
 * fields' values, which the kernel passes along).  0, or the driver's errno
 * with its reason in why.
 */
int np_driver_coal_check(const struct np_driver *drv, const struct np_dev *dev,
			 const struct np_coalesce *want, uint32_t fields, char *why, size_t len);

#endif
