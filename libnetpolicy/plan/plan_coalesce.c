/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Coalescing: the policy's values, as far as this driver takes them.  The
 * driver table (np_drivers.h) says which values mean a mode (ixgbe rx-usecs
 * 1 and igb/e1000e rx-usecs 3 are their adaptive moderation), which ranges
 * a driver takes, and which fields it refuses in the device's state (ixgbe
 * and igb: tx-usecs while Rx and Tx share vectors).  A driver not in the
 * table gets the policy's values wherever ethtool says it has the field.
 */
#include <errno.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "plan/np_policy.h"

static void names(uint32_t mask, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int f = 0; f < NP_COAL__COUNT; f++)
		if (mask & NP_COAL_BIT(f)) {
			strncat(buf, buf[0] ? ", " : "", len - strlen(buf) - 1);
			strncat(buf, np_coal_field_name(f), len - strlen(buf) - 1);
		}
}

/* A driver without adaptive-rx whose rx-usecs has an adaptive value: the
 * adaptive policies select it (and tx-usecs' own, where it is free). */
static void adaptive_by_value(const struct np_driver *drv, const struct np_state *st,
			      uint32_t settable, uint32_t skip, struct np_plan *plan,
			      bool *adaptive_rx, bool *adaptive_tx)
{
	struct np_coalesce *c = &plan->target->dev.coalesce;
	const struct np_coal_special *s;
	uint32_t v;

	if (!drv || !drv->adaptive_rx_usecs || !(settable & NP_COAL_BIT(NP_COAL_RX_USECS)))
		return;
	v = drv->adaptive_rx_usecs;
	s = np_driver_coal_special(drv, NP_COAL_RX_USECS, v);
	c->val[NP_COAL_RX_USECS] = v;
	*adaptive_rx = true;
	np_plan_note(plan, "coalesce", "rx-usecs %u selects %s's %s: its adaptive moderation "
		     "(%s)", v, st->dev.driver, s ? s->meaning : "dynamic mode", drv->ethtool_file);
	if ((settable & NP_COAL_BIT(NP_COAL_TX_USECS)) && !(skip & NP_COAL_BIT(NP_COAL_TX_USECS))) {
		s = np_driver_coal_special(drv, NP_COAL_TX_USECS, v);
		if (s && s->mode == NP_COAL_MODE_ADAPTIVE) {
			c->val[NP_COAL_TX_USECS] = v;
			*adaptive_tx = true;
		}
	}
}

/* A policy without adaptive moderation that gives a direction fixed values
 * but says nothing of its adaptive switch (a custom one: adaptive = no, or
 * turned off by its fixed values) turns the switch off: the driver would
 * ignore the values while it is on. */
static void fixed_over_adaptive(const struct np_policy *p, uint32_t settable,
				struct np_plan *plan)
{
	struct np_coalesce *c = &plan->target->dev.coalesce;
	bool rx = false, tx = false, said_rx = false, said_tx = false;

	for (size_t i = 0; i < p->n_coal; i++) {
		enum np_coal_field f = p->coal[i].field;

		rx |= f == NP_COAL_RX_USECS || f == NP_COAL_RX_FRAMES;
		tx |= f == NP_COAL_TX_USECS || f == NP_COAL_TX_FRAMES;
		said_rx |= f == NP_COAL_ADAPTIVE_RX;
		said_tx |= f == NP_COAL_ADAPTIVE_TX;
	}
	if (rx && !said_rx && (settable & NP_COAL_BIT(NP_COAL_ADAPTIVE_RX)))
		c->val[NP_COAL_ADAPTIVE_RX] = 0;
	if (tx && !said_tx && (settable & NP_COAL_BIT(NP_COAL_ADAPTIVE_TX)))
		c->val[NP_COAL_ADAPTIVE_TX] = 0;
}

/* One fixed value of the policy, brought into what the driver takes. */
static void fixed_value(const struct np_driver *drv, const struct np_state *st,
			enum np_coal_field f, uint32_t want, struct np_plan *plan)
{
	struct np_coalesce *c = &plan->target->dev.coalesce;
	const struct np_coal_special *was = np_driver_coal_special(drv, f, st->dev.coalesce.val[f]);
	const struct np_coal_special *s;
	uint32_t v = np_driver_coal_nearest(drv, f, want);

	if (v != want)
		np_plan_note(plan, "coalesce", "%s %u is not a value %s takes (%s): %u used",
			     np_coal_field_name(f), want, st->dev.driver, drv->ethtool_file, v);
	if (was && was->mode == NP_COAL_MODE_ADAPTIVE && v != st->dev.coalesce.val[f])
		np_plan_note(plan, "coalesce", "%s %u was %s's %s: replaced by a fixed value",
			     np_coal_field_name(f), st->dev.coalesce.val[f], st->dev.driver,
			     was->meaning);
	s = np_driver_coal_special(drv, f, v);
	if (s && s->side_effect && v != st->dev.coalesce.val[f])
		np_plan_note(plan, "coalesce", "%s %u on %s: %s", np_coal_field_name(f), v,
			     st->dev.driver, s->side_effect);
	c->val[f] = v;
}

/* Frame counts a driver ties to the delay of their direction: atlantic
 * counts no frames (1 without a delay, 0 with one), r8169 counts frames only
 * beside a delay (a count of 1 is none), nfp needs a count without a delay
 * (1: an interrupt per frame). */
static void frames_by_usecs(const struct np_policy *p, const struct np_driver *drv,
			    const struct np_state *st, uint32_t settable, struct np_plan *plan)
{
	static const enum np_coal_field pairs[][2] = {
		{ NP_COAL_RX_USECS, NP_COAL_RX_FRAMES },
		{ NP_COAL_TX_USECS, NP_COAL_TX_FRAMES },
	};
	struct np_coalesce *c = &plan->target->dev.coalesce;

	for (size_t i = 0; drv && i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		enum np_coal_field u = pairs[i][0], fr = pairs[i][1];
		uint32_t frames = c->val[fr], asked = frames, v;

		if (!(settable & NP_COAL_BIT(fr)))
			continue;
		for (size_t k = 0; k < p->n_coal; k++)
			if (p->coal[k].field == fr)
				asked = p->coal[k].value;
		if (drv->frames_follow_usecs)
			v = !c->val[u];
		else if (drv->frames_need_usecs && frames > 1 && !c->val[u])
			v = 1;
		else if (drv->usecs_or_frames && !frames && !c->val[u])
			v = 1;
		else
			continue;
		c->val[fr] = v;
		if (drv->frames_follow_usecs && asked != v)
			np_plan_note(plan, "coalesce", "%s %u: %s counts no frames (%s): %u, as %s %u "
				     "asks", np_coal_field_name(fr), asked, st->dev.driver,
				     drv->ethtool_file, v, np_coal_field_name(u), c->val[u]);
		else if (v == frames)
			continue;
		else if (drv->usecs_or_frames)
			np_plan_note(plan, "coalesce", "%s 0 with %s 0: %s needs a delay or a frame "
				     "count (%s): %s 1, an interrupt per frame", np_coal_field_name(fr),
				     np_coal_field_name(u), st->dev.driver, drv->ethtool_file,
				     np_coal_field_name(fr));
		else
			np_plan_note(plan, "coalesce", "%s %u: %s counts frames only with a delay "
				     "(%s, %s 0): no count", np_coal_field_name(fr), frames,
				     st->dev.driver, drv->ethtool_file, np_coal_field_name(u));
	}
}

/* What the driver table keeps the plan from writing: the switches it
 * leaves alone, the frame counts it derives from the delays (set by
 * frames_by_usecs), and the fields its paired vectors refuse, predicted for
 * the plan's channel count, since coalescing is written after it. */
static void driver_limits(const struct np_driver *drv, const struct np_state *st,
			  struct np_plan *plan, uint32_t *skip, uint32_t *paired)
{
	bool predicted = false;

	*skip = drv->switches;
	if (drv->frames_follow_usecs)
		*skip |= NP_COAL_BIT(NP_COAL_RX_FRAMES) | NP_COAL_BIT(NP_COAL_TX_FRAMES);
	if (drv->paired_refuses &&
	    np_driver_paired_after(drv, &st->dev, &plan->target->dev.channels, &predicted))
		*paired = drv->paired_refuses;
	if (predicted && (*paired != 0) != np_driver_paired(&st->dev))
		np_plan_note(plan, "coalesce", "planned for %s vectors after the channel "
			     "change: %s pairs Rx and Tx above %u queues (%s)",
			     *paired ? "paired" : "unpaired", st->dev.driver,
			     plan->target->dev.channels.max_combined / 2, drv->pairs_above_half);
}

/* hns3 has one interrupt rate limit for both directions (usecs_high_shared):
 * a planned rx-usecs-high is tx-usecs-high too. */
static void high_shared(const struct np_driver *drv, const struct np_state *st, uint32_t settable,
			struct np_plan *plan)
{
	struct np_coalesce *c = &plan->target->dev.coalesce;
	uint32_t rx = c->val[NP_COAL_RX_USECS_HIGH];

	if (!drv || !drv->usecs_high_shared || !(settable & NP_COAL_BIT(NP_COAL_TX_USECS_HIGH)) ||
	    c->val[NP_COAL_TX_USECS_HIGH] == rx)
		return;
	np_plan_note(plan, "coalesce", "tx-usecs-high %u: %s takes one value for both directions "
		     "(%s): rx-usecs-high's %u", c->val[NP_COAL_TX_USECS_HIGH], st->dev.driver,
		     drv->ethtool_file, rx);
	c->val[NP_COAL_TX_USECS_HIGH] = rx;
}

/* igb, ixgbe: a field the paired vectors refuse reads 0 while they are
 * paired, so that is its target, whatever was pristine; where the plan's
 * channel change pairs them the driver zeroes it, and the plan says so (the
 * coalesce knob writes nothing for it). */
static void paired_zero(const struct np_driver *drv, const struct np_state *st, uint32_t paired,
			struct np_plan *plan)
{
	struct np_coalesce *c = &plan->target->dev.coalesce;

	if (!paired || !drv->paired_reads_zero)
		return;
	for (int f = 0; f < NP_COAL__COUNT; f++) {
		if (!(paired & c->supported & NP_COAL_BIT(f)))
			continue;
		if (!np_driver_paired(&st->dev) && st->dev.coalesce.val[f])
			np_plan_note(plan, "coalesce", "%s %u becomes 0 with the channel change: %s "
				     "reports none while Rx and Tx share a vector, when Tx follows "
				     "rx-usecs (%s)", np_coal_field_name(f), st->dev.coalesce.val[f],
				     st->dev.driver, drv->ethtool_file);
		c->val[f] = 0;
	}
}

/* The policy wants adaptive moderation: the switches the device has, else
 * a driver's dynamic value (adaptive_by_value); *rx and *tx say which
 * direction the driver then moderates itself. */
static void plan_adaptive(const struct np_driver *drv, const struct np_state *st,
			  uint32_t settable, uint32_t skip, struct np_plan *plan, bool *rx, bool *tx)
{
	struct np_coalesce *c = &plan->target->dev.coalesce;

	*rx = settable & NP_COAL_BIT(NP_COAL_ADAPTIVE_RX);
	*tx = settable & NP_COAL_BIT(NP_COAL_ADAPTIVE_TX);
	if (*rx)
		c->val[NP_COAL_ADAPTIVE_RX] = 1;
	if (*tx)
		c->val[NP_COAL_ADAPTIVE_TX] = 1;
	if (!*rx)
		adaptive_by_value(drv, st, settable, skip, plan, rx, tx);
}

void np_plan_coalesce(const struct np_policy *p, const struct np_state *st, struct np_plan *plan)
{
	struct np_coalesce *c = &plan->target->dev.coalesce;
	const struct np_driver *drv = np_driver_lookup(st->dev.driver);
	uint32_t settable = c->supported & ~c->fixed, skip = 0, paired = 0, missing = 0;
	bool adaptive_rx = false, adaptive_tx = false, fixed = false;
	char list[160];

	if (c->err) {
		np_plan_note(plan, "coalesce", "%s %s", c->err == -EOPNOTSUPP ?
			     "not supported by driver" : strerror(-c->err), st->dev.driver);
		return;
	}
	if (drv)
		driver_limits(drv, st, plan, &skip, &paired);
	if (p->adaptive_off_line && p->file && p->base && p->base->adaptive)
		np_plan_note(plan, "coalesce", "adaptive moderation off: %s:%u asks for a fixed "
			     "value and the file has no adaptive key (adaptive = yes keeps it)",
			     p->file, p->adaptive_off_line);
	if (!p->adaptive)
		fixed_over_adaptive(p, settable, plan);
	if (p->adaptive)
		plan_adaptive(drv, st, settable, skip | paired, plan, &adaptive_rx, &adaptive_tx);
	for (size_t i = 0; i < p->n_coal; i++) {
		enum np_coal_field f = p->coal[i].field;
		bool rx = f == NP_COAL_RX_USECS || f == NP_COAL_RX_FRAMES;
		bool tx = f == NP_COAL_TX_USECS || f == NP_COAL_TX_FRAMES;

		/* With adaptive moderation the driver picks these itself. */
		if ((rx && adaptive_rx) || (tx && adaptive_tx) || (skip & NP_COAL_BIT(f)))
			continue;
		if (!(settable & NP_COAL_BIT(f))) {
			missing |= NP_COAL_BIT(f);
			continue;
		}
		if (paired & NP_COAL_BIT(f)) {
			/* what the device has stays: its own reading is 0 */
			if (p->coal[i].value)
				np_plan_note(plan, "coalesce", "%s left alone: %s refuses it while Rx and "
					     "Tx share a vector (TxRx IRQs), where Tx follows rx-usecs "
					     "(%s)", np_coal_field_name(f), st->dev.driver,
					     drv->ethtool_file);
			continue;
		}
		fixed = true;
		if (drv)
			fixed_value(drv, st, f, p->coal[i].value, plan);
		else
			c->val[f] = p->coal[i].value;
	}
	paired_zero(drv, st, paired, plan);
	frames_by_usecs(p, drv, st, settable, plan);
	high_shared(drv, st, settable, plan);
	/* igc: Tx takes rx-usecs while paired; the driver writes it, not us
	 * (the coalesce knob sends no tx-usecs then) */
	if (paired && drv->paired_tx_follows_rx && (settable & NP_COAL_BIT(NP_COAL_TX_USECS)))
		c->val[NP_COAL_TX_USECS] = c->val[NP_COAL_RX_USECS];
	if (missing) {
		names(missing, list, sizeof(list));
		np_plan_note(plan, "coalesce", "%s not supported by driver %s%s", list, st->dev.driver,
			     missing & c->fixed ? " on this device" : "");
	}
	if (skip && drv->switches_why)
		np_plan_note(plan, "coalesce", "%s: left alone", drv->switches_why);
	if (p->adaptive && !adaptive_rx && !adaptive_tx && !drv)
		/* what the driver reported, not a claim about it: a value of
		 * rx-usecs may be its dynamic mode, which the table would say */
		np_plan_note(plan, "coalesce", "adaptive-rx and adaptive-tx not reported by driver "
			     "%s (not in the driver table), whose special values are not known%s",
			     st->dev.driver[0] ? st->dev.driver : "(unknown)",
			     fixed ? ": fixed values used" : ", nor a delay to set: coalescing stays");
	else if (p->adaptive && !adaptive_rx && !adaptive_tx)
		np_plan_note(plan, "coalesce", "driver %s has no adaptive moderation%s", st->dev.driver,
			     fixed ? ": fixed values used" : " here, nor a delay to set: coalescing stays");
}
