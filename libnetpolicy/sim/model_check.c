/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the sim backend demands of a model's device on top of the readers'
 * checks: the consistency a driver guarantees. */
#include <errno.h>
#include <stdio.h>

#include "../model/json_util.h"
#include "np_sim.h"

int np_dev_check(const struct np_dev *d, const char *path, const struct np_topology *topo,
		 struct np_error *err)
{
	char p[JPATH];

	if (!path)
		path = "";
	if (topo && topo->nr_nodes && d->numa_node >= (int)topo->nr_nodes)
		return np_j_bad(err, path, "numa_node", "node %d does not exist (topology has %u)",
			   d->numa_node, topo->nr_nodes);
	if (!d->channels.err) {
		const struct np_channels *c = &d->channels;

		np_j_path(p, path, "channels");
		for (size_t i = 0; i < 4; i++) {
			uint32_t cur = *np_u32at((void *)c, &np_channel_fields[i]);
			uint32_t max = *np_u32at((void *)c, &np_channel_fields[i + 4]);

			if (cur > max)
				return np_j_bad(err, p, np_channel_fields[i].key, "%u exceeds %s %u", cur,
					   np_channel_fields[i + 4].key, max);
		}
		np_j_path(p, path, "queues");
		if (d->n_rxq != c->rx + c->combined)
			return np_j_bad(err, p, "rx", "%u queues, but channels rx + combined is %u",
				   d->n_rxq, c->rx + c->combined);
		if (d->n_txq != c->tx + c->combined)
			return np_j_bad(err, p, "tx", "%u queues, but channels tx + combined is %u",
				   d->n_txq, c->tx + c->combined);
	}
	if (!d->rings.err) {
		np_j_path(p, path, "rings");
		for (size_t i = 0; i < 4; i++) {
			uint32_t cur = *np_u32at((void *)&d->rings, &np_ring_fields[i]);
			uint32_t max = *np_u32at((void *)&d->rings, &np_ring_fields[i + 4]);

			if (cur > max)
				return np_j_bad(err, p, np_ring_fields[i].key, "%u exceeds %s %u", cur,
					   np_ring_fields[i + 4].key, max);
		}
	}
	if (!d->rss.err) {
		np_j_path(p, path, "rss");
		if (d->rss.indir_size && d->rss.rx_rings != d->n_rxq)
			return np_j_bad(err, p, "rx_rings", "is %u, but the device has %u rx queues",
				   d->rss.rx_rings, d->n_rxq);
		for (uint32_t i = 0; i < d->rss.indir_size; i++) {
			if (d->rss.indir[i] >= d->rss.rx_rings) {
				char ip[JPATH];

				np_j_path_idx(ip, p, "indir", i);
				return np_j_bad(err, ip, NULL, "queue %u is not below rx_rings %u",
					   d->rss.indir[i], d->rss.rx_rings);
			}
		}
	}
	{
		char why[200];

		if (np_sim_steer_check(d, why, sizeof(why)) < 0)
			return np_j_bad(err, path, "ntuple", "%s", why);
	}
	return 0;
}
