/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * netpolicy [DEVICE] metrics [--output FILE]: each device's policy state in
 * the Prometheus text exposition format (version 0.0.4), for the node
 * exporter's textfile collector or any scraper: the policy applied, whether
 * the device still matches it and how many settings per knob differ, a
 * pending --confirm and its deadline, an interrupted run, what the driver
 * refused, and who else sets the same knobs.  Reads only.
 *
 * Samples of one metric must be together in the text, so every device is
 * read first and the families are written after.  --output writes the
 * file as the textfile collector wants it: a temporary file in the same
 * directory (its name does not end in .prom, so a scrape never reads half a
 * file), renamed over FILE.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define KNOBS_MAX 32

struct knob_count {
	char knob[32];
	unsigned n;
};

struct dev_metrics {
	char ifname[IFNAMSIZ];
	bool read_ok;		/* its state and records could be read */
	bool applied;
	char policy[32], cpus[256], drop[128];
	long long written;
	bool checked;		/* matches is known */
	bool matches;
	struct knob_count drift[KNOBS_MAX];
	size_t n_drift;
	struct np_pending pend;
	struct cli_owners owners;
	bool missing;		/* its applied policy's definition is gone */
};

/* A label value: backslash, double quote and newline escaped. */
/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), 0 when it is not
 * one. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* A label value as the text format needs it: escaped, and valid UTF-8
 * (the format is UTF-8: one byte that is not, in an interface name or a
 * file's name, and a scraper drops the whole file), each byte of an
 * ill-formed sequence replaced by U+FFFD. */
static void put_label(FILE *out, const char *name, const char *value)
{
	fprintf(out, "%s=\"", name);
	for (const unsigned char *p = (const unsigned char *)value; *p;) {
		size_t n = utf8_len(p);

		if (*p == '\\' || *p == '"')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (!n)
			fputs("\xef\xbf\xbd", out);
		else
			fwrite(p, 1, n, out);
		p += n ? n : 1;
	}
	fputc('"', out);
}

static void family(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* name{device="DEV"[,LABEL="VALUE"...]} value: labels are NULL-ended pairs */
static void sample(FILE *out, const char *name, const struct dev_metrics *d, long long value,
		   const char *const *labels)
{
	fprintf(out, "%s{", name);
	put_label(out, "device", d->ifname);
	for (size_t i = 0; labels && labels[i]; i += 2) {
		fputc(',', out);
		put_label(out, labels[i], labels[i + 1]);
	}
	fprintf(out, "} %lld\n", value);
}

static void count_drift(struct dev_metrics *d, struct json_object *plan)
{
	struct json_object *steps, *step, *v;

	if (!json_object_object_get_ex(plan, "steps", &steps))
		return;
	for (size_t i = 0; i < json_object_array_length(steps); i++) {
		const char *knob;
		size_t k, n = 0;

		step = json_object_array_get_idx(steps, i);
		if (!json_object_object_get_ex(step, "knob", &v))
			continue;
		knob = json_object_get_string(v);
		if (json_object_object_get_ex(step, "changes", &v))
			n = json_object_array_length(v);
		for (k = 0; k < d->n_drift && strcmp(d->drift[k].knob, knob); k++)
			;
		if (k == d->n_drift) {
			if (d->n_drift == KNOBS_MAX)
				continue;
			snprintf(d->drift[d->n_drift++].knob, sizeof(d->drift[0].knob), "%s", knob);
		}
		d->drift[k].n += n ? n : 1;
	}
}

/* A custom policy applied to a device, whose file was removed since: the
 * device still has it (and reset undoes it), but there is nothing to check
 * it against.  Out of memory is not that answer. */
static bool policy_gone(struct cli *c, const char *name, struct np_error *err)
{
	const struct np_policy *policy;

	np_error_clear(err);
	if (np_policy_find(c->ctx, name, &policy, err) == 0)
		return false;
	return np_error_code(err) != -ENOMEM;
}

/* Read one device; on failure say why on stderr, leave it marked
 * unreadable and return the exit code of the error (else NP_EXIT_OK). */
static int read_device(struct cli *c, const char *ifname, struct dev_metrics *d)
{
	struct cli one = *c;
	struct np_plan *plan = NULL;
	struct json_object *obj = NULL;
	CLI_ERROR(err);
	CLI_ACTIVE(active);

	snprintf(d->ifname, sizeof(d->ifname), "%s", ifname);
	d->pend.sz = sizeof(d->pend);
	one.device = d->ifname;
	cli_owners_find(c, ifname, &d->owners);
	np_error_clear(err);
	if (np_pending_state(c->ctx, ifname, &d->pend, err) < 0 ||
	    np_active_policy(c->ctx, ifname, &active, err) < 0) {
		return cli_fail(&one, err);
	}
	d->applied = np_active_name(active)[0] != '\0';
	snprintf(d->policy, sizeof(d->policy), "%s", np_active_name(active));
	snprintf(d->cpus, sizeof(d->cpus), "%s", np_active_cpus(active));
	snprintf(d->drop, sizeof(d->drop), "%s", np_active_drop(active));
	d->written = np_active_written(active);
	if (!d->applied) {
		/* nothing to compare with; the device must still be there */
		struct np_state *st = NULL;

		if (np_discover(c->ctx, ifname, &st, err) < 0) {
			return cli_fail(&one, err);
		}
		np_state_free(st);
		d->read_ok = true;
		return NP_EXIT_OK;
	}
	if (policy_gone(c, d->policy, err)) {
		/* applied, readable, not comparable: netpolicy_policy_missing */
		d->read_ok = true;
		d->missing = true;
		return NP_EXIT_OK;
	}
	/* a try's condition is not drift: no policy_matches until it ends */
	if (d->pend.try_pid) {
		d->read_ok = true;
		return NP_EXIT_OK;
	}
	if (cli_check_plan(&one, active, d->policy, true, &plan, err) < 0) {
		return cli_fail(&one, err);
	}
	d->read_ok = true;
	d->checked = true;
	d->matches = np_plan_n_steps(plan) == 0;
	if (!d->matches && np_plan_to_json(plan, &obj) == 0)
		count_drift(d, obj);
	json_object_put(obj);
	np_plan_free(plan);
	return NP_EXIT_OK;
}

/* 1 for a device whose applied policy is no longer defined (its file was
 * removed): it has no policy_matches sample, and `reset` still undoes it. */
static void write_missing(FILE *out, const struct dev_metrics *devs, size_t n)
{
	family(out, "netpolicy_policy_missing",
	       "1 when the policy applied to the device is no longer defined (its file is gone).");
	for (size_t i = 0; i < n; i++)
		if (devs[i].applied && devs[i].read_ok)
			sample(out, "netpolicy_policy_missing", &devs[i], devs[i].missing, NULL);
}

static void write_metrics(FILE *out, const struct dev_metrics *devs, size_t n)
{
	family(out, "netpolicy_device_read_ok",
	       "1 when netpolicy could read the device and its records, 0 when not (see its stderr).");
	for (size_t i = 0; i < n; i++)
		sample(out, "netpolicy_device_read_ok", &devs[i], devs[i].read_ok, NULL);
	family(out, "netpolicy_policy_applied", "1 when netpolicy has applied a policy to the device.");
	for (size_t i = 0; i < n; i++)
		if (devs[i].read_ok)
			sample(out, "netpolicy_policy_applied", &devs[i], devs[i].applied, NULL);
	family(out, "netpolicy_policy_info", "The policy applied to the device, and its --cpus.");
	for (size_t i = 0; i < n; i++)
		if (devs[i].applied)
			sample(out, "netpolicy_policy_info", &devs[i], 1,
			       (const char *const[]){ "policy", devs[i].policy, "cpus", devs[i].cpus,
						      NULL });
	family(out, "netpolicy_policy_recorded_timestamp_seconds",
	       "When the applied policy was recorded (its apply or confirm), in seconds since the epoch.");
	for (size_t i = 0; i < n; i++)
		if (devs[i].applied && devs[i].written)
			sample(out, "netpolicy_policy_recorded_timestamp_seconds", &devs[i],
			       devs[i].written, NULL);
	family(out, "netpolicy_policy_matches",
	       "1 when the device matches its applied policy ('check' exits 0), 0 when it drifted.");
	for (size_t i = 0; i < n; i++)
		if (devs[i].checked)
			sample(out, "netpolicy_policy_matches", &devs[i], devs[i].matches, NULL);
	family(out, "netpolicy_drift_settings",
	       "Settings of a knob that differ from the applied policy (only knobs that drifted).");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < devs[i].n_drift; k++)
			sample(out, "netpolicy_drift_settings", &devs[i], devs[i].drift[k].n,
			       (const char *const[]){ "knob", devs[i].drift[k].knob, NULL });
	family(out, "netpolicy_refused_knob",
	       "A knob the driver refused when the policy was applied, left out of it.");
	for (size_t i = 0; i < n; i++) {
		char list[sizeof(devs[i].drop)], *save = NULL;

		snprintf(list, sizeof(list), "%s", devs[i].drop);
		for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save))
			sample(out, "netpolicy_refused_knob", &devs[i], 1,
			       (const char *const[]){ "knob", w, NULL });
	}
	family(out, "netpolicy_confirm_pending",
	       "1 while a 'set --confirm' awaits 'netpolicy DEVICE confirm'.");
	for (size_t i = 0; i < n; i++)
		if (devs[i].read_ok)
			sample(out, "netpolicy_confirm_pending", &devs[i], devs[i].pend.tentative, NULL);
	family(out, "netpolicy_confirm_deadline_timestamp_seconds",
	       "When a pending 'set --confirm' is rolled back unless confirmed, in seconds since the epoch.");
	for (size_t i = 0; i < n; i++)
		if (devs[i].read_ok && devs[i].pend.tentative)
			sample(out, "netpolicy_confirm_deadline_timestamp_seconds", &devs[i],
			       devs[i].pend.deadline, NULL);
	family(out, "netpolicy_interrupted_run",
	       "1 when a run was interrupted: the next set or reset rolls it back first.");
	for (size_t i = 0; i < n; i++)
		if (devs[i].read_ok)
			sample(out, "netpolicy_interrupted_run", &devs[i], devs[i].pend.journal, NULL);
	family(out, "netpolicy_try_in_progress",
	       "1 while a 'try' holds the device (no policy_matches: its condition is not drift).");
	for (size_t i = 0; i < n; i++)
		if (devs[i].read_ok)
			sample(out, "netpolicy_try_in_progress", &devs[i], devs[i].pend.try_pid != 0,
			       NULL);
	write_missing(out, devs, n);
	family(out, "netpolicy_other_owner",
	       "Another program that sets knobs of the device (and may undo the policy).");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < devs[i].owners.n; k++) {
			const struct cli_owner *o = &devs[i].owners.list[k];

			sample(out, "netpolicy_other_owner", &devs[i], 1,
			       (const char *const[]){ "owner", o->name, "source", o->source,
						      "knobs", o->knobs, NULL });
		}
	family(out, "netpolicy_metrics_timestamp_seconds",
	       "When these metrics were read, in seconds since the epoch.");
	fprintf(out, "netpolicy_metrics_timestamp_seconds %lld\n", (long long)time(NULL));
}

/* What the configuration asks for (netpolicy.conf(5)), so that "a configured
 * device is not at its policy" can be alerted on: netpolicy_config_read_ok,
 * and netpolicy_desired_policy_info per configured device (DEVICE only when
 * one is named).  No file at the default path is no configuration, not an
 * error; a file that cannot be read or is invalid is said on stderr and
 * exported as read_ok 0, and the metrics are still written. */
static void write_config_metrics(FILE *out, struct cli *c)
{
	char buf[4096];
	const char *path = cli_config_path(c, buf, sizeof(buf));
	struct np_config *cfg = NULL;
	bool ok = true;
	CLI_ERROR(err);

	fprintf(out, "# HELP netpolicy_build_info The netpolicy that wrote these metrics.\n"
		     "# TYPE netpolicy_build_info gauge\nnetpolicy_build_info{");
	put_label(out, "version", PACKAGE_VERSION);
	fputs("} 1\n", out);
	np_error_clear(err);
	if (c->config || access(path, F_OK) == 0 || errno != ENOENT) {
		if (np_config_load(c->ctx, path, &cfg, err) < 0) {
			fprintf(stderr, "netpolicy: metrics: %s\n", np_error_message(err));
			ok = false;
		}
	}
	family(out, "netpolicy_config_read_ok",
	       "1 when netpolicy.conf could be read and is valid (or there is none), 0 when not.");
	fprintf(out, "netpolicy_config_read_ok %d\n", ok);
	family(out, "netpolicy_desired_policy_info",
	       "The policy netpolicy.conf gives the device, and its cpus (empty: the default).");
	for (size_t i = 0; cfg && i < np_config_n_devices(cfg); i++) {
		const char *cpus = np_config_cpus(cfg, i);

		if (c->device && strcmp(c->device, np_config_ifname(cfg, i)))
			continue;
		fputs("netpolicy_desired_policy_info{", out);
		put_label(out, "device", np_config_ifname(cfg, i));
		fputc(',', out);
		put_label(out, "policy", np_config_policy(cfg, i));
		fputc(',', out);
		put_label(out, "cpus", cpus ? cpus : "");
		fputs("} 1\n", out);
	}
	np_config_free(cfg);
}

/* FILE by a temporary file in its directory, renamed over it. */
static int write_file(const char *path, const char *text, size_t len)
{
	char dirbuf[4096], tmp[4200];
	int fd, dfd, e = 0;
	const char *dir;
	size_t off = 0;

	snprintf(dirbuf, sizeof(dirbuf), "%s", path);
	dir = dirname(dirbuf);
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (off < len && !e) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno != EINTR)
			e = -errno;
		else if (w > 0)
			off += (size_t)w;
	}
	/* readable by the exporter, which does not run as root */
	if (!e && (fchmod(fd, 0644) < 0 || fsync(fd) < 0))
		e = -errno;
	if (close(fd) < 0 && !e)
		e = -errno;
	if (!e && rename(tmp, path) < 0)
		e = -errno;
	if (e) {
		unlink(tmp);
		return e;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

int cmd_metrics(struct cli *c)
{
	struct dev_metrics *devs = NULL;
	char **names = NULL, *text = NULL;
	size_t n = 0, len = 0;
	CLI_ERROR(err);
	FILE *out;
	int r, rc = NP_EXIT_OK;

	if (c->argc > 0)
		return cli_usage_error("metrics: unexpected argument '%s'", c->argv[0]);
	if (c->json)
		return cli_usage_error("metrics: the output is Prometheus text; --json does not apply");
	np_error_clear(err);
	if (c->device) {
		names = calloc(1, sizeof(*names));
		if (!names || !(names[0] = strdup(c->device))) {
			free(names);
			return cli_out_of_memory();
		}
		n = 1;
	} else if (np_list_devices(c->ctx, &names, &n, err) < 0) {
		return cli_fail(c, err);
	}
	devs = calloc(n ? n : 1, sizeof(*devs));
	out = open_memstream(&text, &len);
	if (!devs || !out) {
		rc = cli_out_of_memory();
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		r = read_device(c, names[i], &devs[i]);
		/* a device named on the command line that cannot be read is an
		 * error; one of the list gone since is reported in the metrics */
		if (c->device)
			rc = r;
	}
	write_metrics(out, devs, n);
	write_config_metrics(out, c);
	if (fclose(out) != 0) {
		out = NULL;
		rc = cli_out_of_memory();
		goto out;
	}
	out = NULL;
	if (rc != NP_EXIT_OK)
		goto out;
	if (c->output) {
		r = write_file(c->output, text, len);
		if (r < 0) {
			fprintf(stderr, "netpolicy: %s: %s\n", c->output, strerror(-r));
			rc = NP_EXIT_ERROR;
		}
	} else if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
		c->out_errno = errno ? errno : EIO;
	}
out:
	if (out)
		fclose(out);
	free(text);
	free(devs);
	if (c->device) {
		free(names[0]);
		free(names);
	} else {
		np_list_free(names, n);
	}
	return rc;
}
