/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* netpolicy watch [DEVICE...]: keep applied policies applied.
 *
 * Waits for the kernel's change notifications (np_monitor) and, for a
 * device netpolicy has a policy record for, checks it against that policy
 * once the device has been quiet for a moment; when it drifted (someone
 * ran `ethtool -L`, a link came up with reset queues) the policy is applied
 * again, exactly as `netpolicy DEVICE set POLICY` with the record's --cpus.
 * Our own apply makes notifications too: they lead to one more check,
 * which finds nothing to do, so the loop settles.
 *
 * What is re-applied is the record (what netpolicy last applied), not the
 * configuration file: a policy set by hand is kept the same way.  A device
 * with a tentative change (set --confirm) is left to its watchdog, and one
 * another netpolicy holds is checked again once it is released.
 *
 * Another writer that puts its own value back (a daemon, a script, a .link
 * file re-applied by udev) would have the two of them re-apply for ever: after
 * WATCH_FIGHT_K re-applies of one device within WATCH_FIGHT_WINDOW_MS, its
 * checks back off exponentially and one warning names the setting and, where
 * it can be told, who else writes it (fight.c).  A device is followed by its
 * ifindex, not its name: a record is never applied to another device that
 * took the name (a rename, a delete and re-create).
 */
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* How long a device must be quiet before it is checked: an `ethtool -L`
 * sends one notification, a driver reset or a script several, and a check
 * in the middle of a burst would race it. */
#define WATCH_SETTLE_MS 1000
/* Re-applies of one device that make a fight, within the window; the back-off
 * doubles the wait from WATCH_SETTLE_MS up to WATCH_BACKOFF_MAX_MS. */
#define WATCH_FIGHT_K 3
#define WATCH_FIGHT_WINDOW_MS 30000
#define WATCH_BACKOFF_MAX_MS (5 * 60 * 1000)

/* What watch knows of a device it checked: which device (ifindex) the name
 * was when its record was first checked, and its recent re-applies. */
struct track {
	char ifname[64];
	int ifindex;
	long long applied[WATCH_FIGHT_K];	/* monotonic ms, latest last */
	unsigned n_applied, level;
	bool warned, said_other;
};

struct tracks {
	struct track *v;
	size_t n;
};

struct due {
	char ifname[64];
	long long at;		/* monotonic ms */
	char what[32];
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool watched(const struct cli *c, const char *ifname)
{
	if (c->argc == 0)
		return true;
	for (int i = 0; i < c->argc; i++)
		if (!strcmp(c->argv[i], ifname))
			return true;
	return false;
}

static struct track *track_of(struct tracks *t, const char *ifname)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].ifname, ifname))
			return &t->v[i];
	return NULL;
}

/* How long the device must be quiet: longer while it is being fought over. */
static long long settle_ms(struct tracks *t, const char *ifname)
{
	struct track *tr = track_of(t, ifname);
	long long ms = WATCH_SETTLE_MS;

	for (unsigned i = 0; tr && i < tr->level && ms < WATCH_BACKOFF_MAX_MS; i++)
		ms *= 2;
	return ms < WATCH_BACKOFF_MAX_MS ? ms : WATCH_BACKOFF_MAX_MS;
}

/* Queue (or push back) the device's check. */
static int schedule(struct due **list, size_t *n, struct tracks *t, const char *ifname,
		    const char *what)
{
	long long ms = settle_ms(t, ifname);
	struct due *d;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i].ifname, ifname)) {
			(*list)[i].at = now_ms() + ms;
			return 0;
		}
	d = realloc(*list, (*n + 1) * sizeof(**list));
	if (!d)
		return -ENOMEM;
	*list = d;
	d = &d[(*n)++];
	snprintf(d->ifname, sizeof(d->ifname), "%s", ifname);
	snprintf(d->what, sizeof(d->what), "%s", what);
	d->at = now_ms() + ms;
	return 0;
}

/* Every device that has a policy record: after lost notifications. */
static int schedule_all(struct cli *c, struct due **list, size_t *n, struct tracks *t)
{
	CLI_ERROR(err);
	char **names = NULL;
	size_t count = 0;
	int r = 0;

	np_error_clear(err);
	if (np_list_devices(c->ctx, &names, &count, err) < 0)
		return cli_fail(c, err);
	for (size_t i = 0; i < count && r == 0; i++)
		if (watched(c, names[i]))
			r = schedule(list, n, t, names[i], "overrun");
	np_list_free(names, count);
	return r < 0 ? cli_out_of_memory() : NP_EXIT_OK;
}

/*
 * The device now named d->ifname, by ifindex: the one watch first checked
 * under that name, or (first check) bound to it now.  false when it is
 * another device: its record is not for it.
 */
static bool same_device(struct cli *c, struct tracks *t, const struct due *d, struct track **ret)
{
	int ifindex = (int)if_nametoindex(d->ifname);
	struct track *tr = track_of(t, d->ifname), *nv;

	*ret = NULL;
	if (!ifindex)
		return false;	/* gone meanwhile: nothing to keep */
	if (tr) {
		if (tr->ifindex == ifindex) {
			*ret = tr;
			return true;
		}
		if (!tr->said_other && !c->quiet)
			fprintf(stderr, "netpolicy: %s: %s; %s is another device now (ifindex %d, "
				"the one with its policy was ifindex %d: renamed or deleted): its "
				"policy is not applied to it\n", d->ifname, d->what, d->ifname,
				ifindex, tr->ifindex);
		tr->said_other = true;
		return false;
	}
	nv = realloc(t->v, (t->n + 1) * sizeof(*t->v));
	if (!nv)
		return false;
	t->v = nv;
	tr = &t->v[t->n++];
	memset(tr, 0, sizeof(*tr));
	snprintf(tr->ifname, sizeof(tr->ifname), "%s", d->ifname);
	tr->ifindex = ifindex;
	*ret = tr;
	return true;
}

/* At the start: every recorded device is the one now under its name, so
 * that a rename before its first check is told. */
static void track_all(struct cli *c, struct tracks *t)
{
	CLI_ERROR(err);
	char **names = NULL;
	size_t count = 0;

	np_error_clear(err);
	if (np_list_devices(c->ctx, &names, &count, err) < 0)
		return;
	for (size_t i = 0; i < count; i++) {
		struct due d = { .what = "start" };
		struct track *tr;

		snprintf(d.ifname, sizeof(d.ifname), "%s", names[i]);
		if (watched(c, names[i]))
			same_device(c, t, &d, &tr);
	}
	np_list_free(names, count);
}

/* A re-apply of tr's device: the K-th within the window starts (or
 * lengthens) the back-off and, once, says so. */
static void fought(struct cli *c, struct track *tr, const char *what)
{
	long long now = now_ms();
	char who[400];

	if (tr->n_applied == WATCH_FIGHT_K) {
		memmove(tr->applied, tr->applied + 1, (WATCH_FIGHT_K - 1) * sizeof(tr->applied[0]));
		tr->n_applied--;
	}
	tr->applied[tr->n_applied++] = now;
	if (tr->n_applied < WATCH_FIGHT_K || now - tr->applied[0] > WATCH_FIGHT_WINDOW_MS)
		return;
	tr->level++;
	if (tr->warned || c->quiet)
		return;
	tr->warned = true;
	/* the other owners' files as they are now, not as watch started */
	cli_owners_forget();
	cli_fight_who(c, tr->ifname, what, who, sizeof(who));
	fprintf(stderr, "netpolicy: %s: %s re-applied %d times in %d s: another program keeps "
		"changing %s%s%s%s; backing off: next check in %d s at the earliest, doubling up "
		"to %d s\n", tr->ifname, what, WATCH_FIGHT_K, WATCH_FIGHT_WINDOW_MS / 1000, what,
		who[0] ? " (" : "", who[0] ? who : "", who[0] ? ")" : "",
		(WATCH_SETTLE_MS << tr->level) / 1000, WATCH_BACKOFF_MAX_MS / 1000);
}

/* Check one device against its record; apply again when it drifted.
 * Returns an exit code of the apply, NP_EXIT_OK when nothing was needed. */
static int recheck(struct cli *c, struct tracks *t, const struct due *d)
{
	struct track *tr;
	NP_PLAN_OPTS(opts);
	const char *flows[CLI_FLOWS_MAX];
	const struct np_policy *policy;
	struct np_pending pend = { .sz = sizeof(pend) };
	struct np_state *st = NULL;
	struct np_plan *plan = NULL;
	CLI_ERROR(err);
	CLI_ACTIVE(active);
	size_t steps;
	int rc = NP_EXIT_OK;

	np_error_clear(err);
	c->device = d->ifname;
	if (np_active_policy(c->ctx, d->ifname, &active, err) < 0)
		return cli_fail(c, err);
	if (!np_active_name(active)[0]) {
		if (c->verbose)
			fprintf(stderr, "netpolicy: %s: %s; no policy applied by netpolicy: left alone\n",
				d->ifname, d->what);
		return NP_EXIT_OK;
	}
	if (np_pending_state(c->ctx, d->ifname, &pend, err) < 0)
		return cli_fail(c, err);
	if (pend.tentative) {
		if (!c->quiet)
			fprintf(stderr, "netpolicy: %s: %s; a change awaits 'confirm': left to it\n",
				d->ifname, d->what);
		return NP_EXIT_OK;
	}
	if (!same_device(c, t, d, &tr))
		return NP_EXIT_OK;
	if (np_active_cpus(active)[0])
		opts.cpus = np_active_cpus(active);
	if (np_active_drop(active)[0])
		opts.drop = np_active_drop(active);
	/* a cable pulled is not drift: plan for the speed it was set at */
	opts.link_speed = np_active_link_speed(active);
	cli_active_mixed_opts(active, &opts, flows);
	if (np_policy_find(c->ctx, np_active_name(active), &policy, err) < 0 ||
	    np_discover(c->ctx, d->ifname, &st, err) < 0 ||
	    np_plan_compute(c->ctx, policy, &opts, st, &plan, err) < 0) {
		/* gone meanwhile: nothing to keep */
		rc = np_error_code(err) == -ENODEV ? NP_EXIT_OK : cli_fail(c, err);
		goto out;
	}
	steps = np_plan_n_steps(plan);
	if (!steps) {
		tr->level = 0;		/* left alone: no fight (any more) */
		tr->n_applied = 0;
		tr->warned = false;
		if (c->verbose)
			fprintf(stderr, "netpolicy: %s: %s; still matches policy %s\n", d->ifname,
				d->what, np_active_name(active));
		goto out;
	}
	if (!c->quiet)
		fprintf(stderr, "netpolicy: %s: %s changed; %zu setting%s differ%s from policy %s: "
			"applying it again\n", d->ifname, d->what, steps, steps == 1 ? "" : "s",
			steps == 1 ? "s" : "", np_active_name(active));
	c->changed = false;
	c->trigger = d->what;
	rc = cli_apply(c, policy, &opts);
	c->trigger = NULL;
	if (rc == NP_EXIT_OK)
		fought(c, tr, d->what);
out:
	np_plan_free(plan);
	np_state_free(st);
	return rc;
}

/* The devices whose quiet time is over, checked again; *next is the
 * earliest time still to come (-1: none).  Returns true to stop watching,
 * with *rc the exit code. */
static bool run_due(struct cli *c, struct tracks *tracks, struct due **due, size_t *n_due,
		    long long *next, int *rc)
{
	long long now = now_ms();

	*next = -1;
	for (size_t i = 0; i < *n_due;) {
		struct due d;
		int r;

		if ((*due)[i].at > now) {
			if (*next < 0 || (*due)[i].at < *next)
				*next = (*due)[i].at;
			i++;
			continue;
		}
		d = (*due)[i];
		(*due)[i] = (*due)[--*n_due];
		r = recheck(c, tracks, &d);
		/* another netpolicy is changing the device (an admin's set,
		 * which may record a new policy): look again after it */
		if (r == NP_EXIT_BUSY && schedule(due, n_due, tracks, d.ifname, d.what) < 0) {
			*rc = cli_out_of_memory();
			return true;
		}
		/* one device's failure (rolled back) is reported and the others
		 * are still watched; a rollback that could not complete is the
		 * one thing to stop for */
		if (r == NP_EXIT_ROLLBACK_FAILED || cli_signal_received()) {
			*rc = r;
			return true;
		}
		fflush(stdout);
	}
	return false;
}

/* The monitor's events, each watched device's scheduled after its quiet
 * time (every device after an overrun).  True to stop, with *rc. */
static bool read_events(struct cli *c, struct np_monitor *mon, struct tracks *tracks,
			struct due **due, size_t *n_due, int *rc)
{
	CLI_ERROR(err);
	int r;

	np_error_clear(err);
	while ((r = np_monitor_next(mon, err)) > 0) {
		const char *name = np_monitor_ifname(mon);

		if (!strcmp(np_monitor_what(mon), "overrun")) {
			*rc = schedule_all(c, due, n_due, tracks);
			if (*rc != NP_EXIT_OK)
				return true;
			continue;
		}
		if (watched(c, name) && schedule(due, n_due, tracks, name, np_monitor_what(mon)) < 0) {
			*rc = cli_out_of_memory();
			return true;
		}
	}
	if (r < 0) {
		fprintf(stderr, "netpolicy: watch: %s\n", np_error_message(err));
		*rc = NP_EXIT_ERROR;
		return true;
	}
	return false;
}

int cmd_watch(struct cli *c)
{
	struct np_monitor *mon = NULL;
	struct tracks tracks = { 0 };
	struct due *due = NULL;
	size_t n_due = 0;
	CLI_ERROR(err);
	int rc = NP_EXIT_OK;

	for (int i = 0; i < c->argc; i++)
		if (np_ifname_validate(c->argv[i], err) < 0)
			return cli_fail(c, err);
	np_error_clear(err);
	if (np_monitor_open(c->ctx, &mon, err) < 0) {
		fprintf(stderr, "netpolicy: watch: %s\n", np_error_message(err));
		return NP_EXIT_ERROR;
	}
	/* Never wait for a device's lock: its holder may be recording another
	 * policy, which the check after it then reads (see above). */
	np_ctx_set_lock_wait(c->ctx, 0);
	track_all(c, &tracks);
	if (c->verbose)
		fprintf(stderr, "netpolicy: watching %s for changes\n",
			c->argc ? "the devices named" : "every device with a policy");
	while (!cli_signal_received()) {
		struct pollfd pfd = { .fd = np_monitor_fd(mon), .events = POLLIN };
		long long next, wait;

		if (run_due(c, &tracks, &due, &n_due, &next, &rc))
			break;
		/* the checks took time: the next one may be due already */
		wait = next < 0 ? -1 : next - now_ms();
		if (poll(&pfd, 1, next < 0 ? -1 : wait < 0 ? 0 : (int)wait) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "netpolicy: watch: poll: %s\n", strerror(errno));
			rc = NP_EXIT_ERROR;
			break;
		}
		if ((pfd.revents & POLLIN) && read_events(c, mon, &tracks, &due, &n_due, &rc))
			break;
	}
	free(due);
	free(tracks.v);
	np_monitor_free(mon);
	c->device = NULL;
	return rc;
}
