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
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* How long a device must be quiet before it is checked: an `ethtool -L`
 * sends one notification, a driver reset or a script several, and a check
 * in the middle of a burst would race it. */
#define WATCH_SETTLE_MS 1000

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

/* Queue (or push back) the device's check. */
static int schedule(struct due **list, size_t *n, const char *ifname, const char *what)
{
	struct due *d;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i].ifname, ifname)) {
			(*list)[i].at = now_ms() + WATCH_SETTLE_MS;
			return 0;
		}
	d = realloc(*list, (*n + 1) * sizeof(**list));
	if (!d)
		return -ENOMEM;
	*list = d;
	d = &d[(*n)++];
	snprintf(d->ifname, sizeof(d->ifname), "%s", ifname);
	snprintf(d->what, sizeof(d->what), "%s", what);
	d->at = now_ms() + WATCH_SETTLE_MS;
	return 0;
}

/* Every device that has a policy record: after lost notifications. */
static int schedule_all(struct cli *c, struct due **list, size_t *n)
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
			r = schedule(list, n, names[i], "overrun");
	np_list_free(names, count);
	return r < 0 ? cli_out_of_memory() : NP_EXIT_OK;
}

/* Check one device against its record; apply again when it drifted.
 * Returns an exit code of the apply, NP_EXIT_OK when nothing was needed. */
static int recheck(struct cli *c, const struct due *d)
{
	struct np_plan_opts opts = { 0 };
	const char *flows[CLI_FLOWS_MAX];
	const struct np_policy *policy;
	struct np_pending pend;
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
	if (np_active_cpus(active)[0])
		opts.cpus = np_active_cpus(active);
	if (np_active_drop(active)[0])
		opts.drop = np_active_drop(active);
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
	rc = cli_apply(c, policy, &opts);
out:
	np_plan_free(plan);
	np_state_free(st);
	return rc;
}

int cmd_watch(struct cli *c)
{
	struct np_monitor *mon = NULL;
	struct due *due = NULL;
	size_t n_due = 0;
	CLI_ERROR(err);
	int rc = NP_EXIT_OK, r;

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
	if (c->verbose)
		fprintf(stderr, "netpolicy: watching %s for changes\n",
			c->argc ? "the devices named" : "every device with a policy");
	while (!cli_signal_received()) {
		long long next = -1, now = now_ms();
		struct pollfd pfd = { .fd = np_monitor_fd(mon), .events = POLLIN };

		/* the devices whose quiet time is over */
		for (size_t i = 0; i < n_due;) {
			if (due[i].at > now) {
				if (next < 0 || due[i].at < next)
					next = due[i].at;
				i++;
				continue;
			}
			struct due d = due[i];

			due[i] = due[--n_due];
			r = recheck(c, &d);
			/* another netpolicy is changing the device (an admin's set,
			 * which may record a new policy): look again after it */
			if (r == NP_EXIT_BUSY && schedule(&due, &n_due, d.ifname, d.what) < 0) {
				rc = cli_out_of_memory();
				goto out;
			}
			/* one device's failure (rolled back) is reported and
			 * the others are still watched; a rollback that could
			 * not complete is the one thing to stop for */
			if (r == NP_EXIT_ROLLBACK_FAILED || cli_signal_received()) {
				rc = r;
				goto out;
			}
			fflush(stdout);
		}
		if (poll(&pfd, 1, next < 0 ? -1 : (int)(next - now)) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "netpolicy: watch: poll: %s\n", strerror(errno));
			rc = NP_EXIT_ERROR;
			break;
		}
		if (!(pfd.revents & POLLIN))
			continue;
		np_error_clear(err);
		while ((r = np_monitor_next(mon, err)) > 0) {
			const char *name = np_monitor_ifname(mon);

			if (!strcmp(np_monitor_what(mon), "overrun")) {
				rc = schedule_all(c, &due, &n_due);
				if (rc != NP_EXIT_OK)
					goto out;
				continue;
			}
			if (watched(c, name) && schedule(&due, &n_due, name, np_monitor_what(mon)) < 0) {
				rc = cli_out_of_memory();
				goto out;
			}
		}
		if (r < 0) {
			fprintf(stderr, "netpolicy: watch: %s\n", np_error_message(err));
			rc = NP_EXIT_ERROR;
			break;
		}
	}
out:
	free(due);
	np_monitor_free(mon);
	c->device = NULL;
	return rc;
}
