/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-queue coalescing: the planner's part (plan_queue_coal.c) on the
 * ice-like model, which has per-queue values, and the mlx5-like one, which
 * has not; and the parsing of a kernel-shaped ETHTOOL_PERQUEUE GCOALESCE
 * reply (net/ethtool/ioctl.c ethtool_get_per_queue_coalesce(): after the
 * struct ethtool_per_queue_op, one struct ethtool_coalesce with cmd
 * ETHTOOL_GCOALESCE for each bit of queue_mask, lowest queue first).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/np_kernel.h"
#include "drivers/np_drivers.h"
#include "fixture.h"
#include "plan/np_mixed.h"
#include "plan/np_policy.h"
#include "plan/policy/np_policy_file.h"
#include "tap.h"

/* The whole plan of policy `name` for st (opts: the mixed flows). */
static struct np_plan *plan(const char *name, const struct np_state *st, const char **flows,
			    const char *deflt)
{
	NP_PLAN_OPTS(o);
	struct np_plan *p = NULL;
	struct np_error err = { 0 };
	size_t n = 0;

	while (flows && flows[n])
		n++;
	o.flows = flows;
	o.n_flows = n;
	o.default_class = deflt;
	o.flags = flows ? NP_PLAN_OPTS_MIXED : 0;
	if (np_plan_compute_base(np_policy_builtin(name), &o, st, NULL, &p, &err) < 0) {
		printf("Bail out! plan %s: %s\n", name, err.msg);
		exit(99);
	}
	return p;
}

static bool has_note(const struct np_plan *p, const char *text)
{
	for (size_t i = 0; i < p->n_notes; i++)
		if (strstr(p->notes[i].text, text))
			return true;
	return false;
}

/* Queue q's per-queue fields equal the device-wide target of `ref`. */
static bool queue_is(const struct np_dev *t, unsigned q, const struct np_dev *ref)
{
	for (int f = 0; f < NP_COAL__COUNT; f++)
		if ((t->coalesce.per_queue & (1u << f)) && t->rxq[q].coal[f] != ref->coalesce.val[f])
			return false;
	return true;
}

static void ice(void)
{
	static const char *flows[] = { "latency:tcp:6379", "throughput:tcp:5201", "cpu:udp:53", NULL };
	struct np_state *st = model_state("ice-mixed", "ens801f0");
	struct np_plan *mixed = plan("mixed", st, flows, NULL);
	struct np_plan *dl = plan("mixed", st, flows, "latency");
	const struct np_mixed *m = &mixed->mixed->m;
	const struct np_dev *t = &mixed->target->dev;
	struct np_plan *ref[NP_CLASS__COUNT];

	ok(st->dev.coalesce.per_queue != 0, "ice: the model has per-queue coalescing");
	/* the reference: what each class's own policy plans for the device */
	for (int c = 0; c < NP_CLASS__COUNT; c++)
		ref[c] = plan(np_class_name(c), st, NULL, NULL);
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		const struct np_mixed_class *k = &m->cls[c];
		bool all = k->used && k->n_q;

		for (unsigned q = k->q_first; all && q < k->q_first + k->n_q; q++)
			all = queue_is(t, q, &ref[c]->target->dev);
		ok(all, "ice: %s queues %u-%u have the %s policy's coalescing", np_class_name(c),
		   k->q_first, k->q_first + k->n_q - 1, np_class_name(c));
	}
	ok(t->rxq[m->cls[NP_CLASS_LATENCY].q_first].coal[NP_COAL_RX_USECS] == 0 &&
	   !t->rxq[m->cls[NP_CLASS_LATENCY].q_first].coal[NP_COAL_ADAPTIVE_RX],
	   "ice: latency queues: adaptive-rx off, rx-usecs 0");
	ok(!memcmp(t->coalesce.val, ref[NP_CLASS_THROUGHPUT]->target->dev.coalesce.val,
		   sizeof(t->coalesce.val)), "ice: device-wide: the default class's (throughput)");
	ok(!memcmp(dl->target->dev.coalesce.val, ref[NP_CLASS_LATENCY]->target->dev.coalesce.val,
		   sizeof(t->coalesce.val)), "ice: --default latency: device-wide is the latency policy's");
	ok(has_note(mixed, "per-queue coalescing per class") &&
	   !has_note(mixed, "does not set yet"), "ice: the note says per-queue values are set");
	/* a queue-coalesce step for the latency queues only: the others get
	 * the device-wide value the coalesce step writes to every queue */
	{
		size_t n = 0;
		bool only_latency = true;

		for (size_t i = 0; i < mixed->n_steps; i++)
			if (mixed->steps[i].knob == &np_knob_queue_coalesce) {
				n++;
				only_latency = only_latency &&
					mixed->steps[i].index >= (int)m->cls[NP_CLASS_LATENCY].q_first &&
					mixed->steps[i].index < (int)(m->cls[NP_CLASS_LATENCY].q_first +
								      m->cls[NP_CLASS_LATENCY].n_q);
			}
		is_int((int)n, (int)m->cls[NP_CLASS_LATENCY].n_q,
		       "ice: one per-queue step per latency queue");
		ok(only_latency, "ice: ... and none for the adaptive classes");
	}
	/* a non-mixed policy: every queue at the device-wide target */
	{
		const struct np_dev *lt = &ref[NP_CLASS_LATENCY]->target->dev;
		bool all = true;

		for (unsigned q = 0; q < lt->n_rxq; q++)
			all = all && queue_is(lt, q, lt);
		ok(all, "ice: set latency: every queue at the device-wide target");
	}
	for (int c = 0; c < NP_CLASS__COUNT; c++)
		np_plan_free(ref[c]);
	np_plan_free(mixed);
	np_plan_free(dl);
	np_state_free(st);
}

static void mlx5(void)
{
	static const char *flows[] = { "latency:tcp:6379", NULL };
	struct np_state *st = model_state("mlx5-mixed", "ens1f0np0");
	struct np_plan *p = plan("mixed", st, flows, "cpu");
	struct np_plan *ref = plan("cpu", st, NULL, NULL);

	is_int((int)st->dev.coalesce.per_queue, 0, "mlx5: no per-queue coalescing");
	ok(has_note(p, "driver mlx5_core has no per-queue coalescing: one device-wide value, "
		    "which favours the default class (cpu)"), "mlx5: the note names the class");
	ok(!memcmp(p->target->dev.coalesce.val, ref->target->dev.coalesce.val,
		   sizeof(ref->target->dev.coalesce.val)), "mlx5: device-wide: the cpu policy's");
	{
		size_t n = 0;

		for (size_t i = 0; i < p->n_steps; i++)
			n += p->steps[i].knob == &np_knob_queue_coalesce;
		is_int((int)n, 0, "mlx5: no per-queue step");
	}
	np_plan_free(p);
	np_plan_free(ref);
	np_state_free(st);
}

/* A GCOALESCE reply for queues 1 and 3 of 4, as the kernel writes it. */
static void parse(void)
{
	size_t len = sizeof(struct ethtool_per_queue_op) + 2 * sizeof(struct ethtool_coalesce);
	struct ethtool_per_queue_op *op = calloc(1, len);
	struct ethtool_coalesce c[2] = {
		{ .cmd = ETHTOOL_GCOALESCE, .rx_coalesce_usecs = 7, .tx_coalesce_usecs = 9,
		  .use_adaptive_rx_coalesce = 1, .rx_coalesce_usecs_high = 12 },
		{ .cmd = ETHTOOL_GCOALESCE, .rx_coalesce_usecs = 0, .tx_coalesce_usecs = 8,
		  .rx_max_coalesced_frames = 99 },
	};
	uint32_t fields = NP_COAL_BIT(NP_COAL_RX_USECS) | NP_COAL_BIT(NP_COAL_TX_USECS) |
			  NP_COAL_BIT(NP_COAL_ADAPTIVE_RX) | NP_COAL_BIT(NP_COAL_RX_USECS_HIGH);
	struct np_rxq rxq[4];

	if (!op)
		exit(99);
	memset(rxq, 0xff, sizeof(rxq));
	op->cmd = ETHTOOL_PERQUEUE;
	op->sub_command = ETHTOOL_GCOALESCE;
	op->queue_mask[0] = (1u << 1) | (1u << 3);
	memcpy(op->data, c, sizeof(c));
	is_int(np_queue_coal_parse(op, len, 4, fields, rxq), 0, "parse: a reply for queues 1 and 3");
	ok(rxq[1].coal[NP_COAL_RX_USECS] == 7 && rxq[1].coal[NP_COAL_TX_USECS] == 9 &&
	   rxq[1].coal[NP_COAL_ADAPTIVE_RX] == 1 && rxq[1].coal[NP_COAL_RX_USECS_HIGH] == 12,
	   "parse: queue 1's values from the first struct");
	ok(rxq[3].coal[NP_COAL_RX_USECS] == 0 && rxq[3].coal[NP_COAL_TX_USECS] == 8 &&
	   rxq[3].coal[NP_COAL_RX_FRAMES] == 0xffffffffu,
	   "parse: queue 3's from the second; a field not per-queue left alone");
	ok(rxq[0].coal[NP_COAL_RX_USECS] == 0xffffffffu && rxq[2].coal[NP_COAL_RX_USECS] == 0xffffffffu,
	   "parse: queues not in the mask untouched");
	is_int(np_queue_coal_parse(op, len - 1, 4, fields, rxq), -EINVAL, "parse: a short reply");
	is_int(np_queue_coal_parse(op, len, 3, fields, rxq), -EINVAL,
	       "parse: a queue beyond the device's");
	free(op);
}

int main(void)
{
	ice();
	mlx5();
	parse();
	return tap_done();
}
