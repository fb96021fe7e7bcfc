/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Names of the interrupt coalescing fields, in ethtool's words, so the CLI,
 * JSON and man page speak the language admins already know. */
#include <string.h>

#include "np_private.h"

static const char *const coal_names[NP_COAL__COUNT] = {
	[NP_COAL_RX_USECS] = "rx-usecs",
	[NP_COAL_RX_FRAMES] = "rx-frames",
	[NP_COAL_RX_USECS_IRQ] = "rx-usecs-irq",
	[NP_COAL_RX_FRAMES_IRQ] = "rx-frames-irq",
	[NP_COAL_TX_USECS] = "tx-usecs",
	[NP_COAL_TX_FRAMES] = "tx-frames",
	[NP_COAL_TX_USECS_IRQ] = "tx-usecs-irq",
	[NP_COAL_TX_FRAMES_IRQ] = "tx-frames-irq",
	[NP_COAL_STATS_BLOCK_USECS] = "stats-block-usecs",
	[NP_COAL_ADAPTIVE_RX] = "adaptive-rx",
	[NP_COAL_ADAPTIVE_TX] = "adaptive-tx",
	[NP_COAL_PKT_RATE_LOW] = "pkt-rate-low",
	[NP_COAL_RX_USECS_LOW] = "rx-usecs-low",
	[NP_COAL_RX_FRAMES_LOW] = "rx-frames-low",
	[NP_COAL_TX_USECS_LOW] = "tx-usecs-low",
	[NP_COAL_TX_FRAMES_LOW] = "tx-frames-low",
	[NP_COAL_PKT_RATE_HIGH] = "pkt-rate-high",
	[NP_COAL_RX_USECS_HIGH] = "rx-usecs-high",
	[NP_COAL_RX_FRAMES_HIGH] = "rx-frames-high",
	[NP_COAL_TX_USECS_HIGH] = "tx-usecs-high",
	[NP_COAL_TX_FRAMES_HIGH] = "tx-frames-high",
	[NP_COAL_SAMPLE_INTERVAL] = "sample-interval",
	[NP_COAL_CQE_MODE_TX] = "cqe-mode-tx",
	[NP_COAL_CQE_MODE_RX] = "cqe-mode-rx",
};

const char *np_coal_field_name(enum np_coal_field f)
{
	if ((unsigned)f >= NP_COAL__COUNT)
		return "unknown";
	return coal_names[f];
}

int np_coal_field_lookup(const char *name)
{
	for (int i = 0; i < NP_COAL__COUNT; i++)
		if (!strcmp(coal_names[i], name))
			return i;
	return -1;
}
