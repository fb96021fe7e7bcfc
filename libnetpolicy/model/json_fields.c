/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tables the JSON writer and readers of np_state both walk. */
#include <stddef.h>

#include "json_util.h"

const struct np_u32field np_channel_fields[] = {
	{ "rx", offsetof(struct np_channels, rx) },
	{ "tx", offsetof(struct np_channels, tx) },
	{ "other", offsetof(struct np_channels, other) },
	{ "combined", offsetof(struct np_channels, combined) },
	{ "max_rx", offsetof(struct np_channels, max_rx) },
	{ "max_tx", offsetof(struct np_channels, max_tx) },
	{ "max_other", offsetof(struct np_channels, max_other) },
	{ "max_combined", offsetof(struct np_channels, max_combined) },
};

const struct np_u32field np_ring_fields[] = {
	{ "rx", offsetof(struct np_rings, rx) },
	{ "rx_mini", offsetof(struct np_rings, rx_mini) },
	{ "rx_jumbo", offsetof(struct np_rings, rx_jumbo) },
	{ "tx", offsetof(struct np_rings, tx) },
	{ "max_rx", offsetof(struct np_rings, max_rx) },
	{ "max_rx_mini", offsetof(struct np_rings, max_rx_mini) },
	{ "max_rx_jumbo", offsetof(struct np_rings, max_rx_jumbo) },
	{ "max_tx", offsetof(struct np_rings, max_tx) },
};

bool np_coal_is_bool(int f)
{
	return f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX || f == NP_COAL_CQE_MODE_TX ||
	       f == NP_COAL_CQE_MODE_RX;
}

const char *const np_irq_kind_names[] = {
	[NP_IRQ_TXRX] = "txrx",
	[NP_IRQ_RX] = "rx",
	[NP_IRQ_TX] = "tx",
	[NP_IRQ_OTHER] = "other",
};

const char *const np_irq_source_names[] = {
	[NP_IRQ_SRC_NAME] = "name",
	[NP_IRQ_SRC_KERNEL] = "kernel",
	[NP_IRQ_SRC_NONE] = "none",
};
