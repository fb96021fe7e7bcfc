/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* netpolicy plan [DEVICE]: bring every device of the configuration file (or
 * only DEVICE, for the udev-started unit) to its policy, as set would. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static bool get_bool(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

/* One document per device, whatever became of it, with its own exit code so
 * a script can tell which device failed. */
static bool finish_entry(struct cli *c, struct json_object *devs, size_t before,
			 const char *policy, int rc)
{
	struct json_object *last;
	size_t n;

	if (!devs) {	/* the array could not be made */
		c->out_failed = true;
		return false;
	}
	n = json_object_array_length(devs);

	if (n == before) {
		last = json_object_new_object();
		cli_jadd(c, last, "ifname", json_object_new_string(c->device));
		cli_jadd(c, last, "policy", json_object_new_string(policy));
		cli_jadd(c, last, "dry_run", json_object_new_boolean(c->dry_run));
		cli_jadd(c, last, "changed", json_object_new_boolean(0));
		cli_jpush(c, devs, last);
		n++;
	}
	last = json_object_array_get_idx(devs, n - 1);
	cli_jadd(c, last, "exit", json_object_new_int(rc));
	return get_bool(last, "changed");
}

/* Plan every configured device that exists without applying anything: an
 * input error (the device's cpus) is reported now, exit 2.  Devices that
 * are absent or fail otherwise are left to the run, which reports each. */
static int validate_devices(struct cli *c, const struct np_config *cfg, const char *only)
{
	for (size_t i = 0; i < np_config_n_devices(cfg); i++) {
		NP_PLAN_OPTS(opts, .cpus = np_config_cpus(cfg, i));
		const struct np_policy *policy;
		struct np_state *st = NULL;
		struct np_plan *plan = NULL;
		CLI_ERROR(err);
		int r = 0;

		if (only && strcmp(only, np_config_ifname(cfg, i)))
			continue;
		np_config_mixed_opts(cfg, i, &opts);
		np_error_clear(err);
		/* through the ctx: custom policies too */
		if (np_policy_find(c->ctx, np_config_policy(cfg, i), &policy, err) < 0 ||
		    np_discover(c->ctx, np_config_ifname(cfg, i), &st, err) < 0 ||
		    np_plan_compute(c->ctx, policy, &opts, st, &plan, err) < 0)
			r = -1;
		np_plan_free(plan);
		np_state_free(st);
		if (r < 0 && np_error_phase(err) == NP_PHASE_INPUT &&
		    np_error_code(err) != -ENOMEM) {
			c->device = np_config_ifname(cfg, i);
			r = cli_fail(c, err);
			fprintf(stderr, "netpolicy: %s: line %u; no device was changed\n",
				np_config_path(cfg), np_config_line(cfg, i));
			c->device = NULL;
			return r;
		}
	}
	return NP_EXIT_OK;
}

/* The configuration file, or (*cfg NULL, returned code) the default
 * policy's plan when there is none at all: a fresh machine, not an error;
 * a dry run shows that plan, an apply says what to write. */
static int load_config(struct cli *c, const char *only, struct np_config **cfg,
		       struct np_error *err)
{
	char buf[4096];
	const char *path = cli_config_path(c, buf, sizeof(buf));

	*cfg = NULL;
	if (!c->config && access(path, F_OK) < 0 && errno == ENOENT)
		return cli_plan_default(c, only, path);
	if (np_config_load(c->ctx, path, cfg, err) < 0)
		return cli_fail(c, err);
	return NP_EXIT_OK;
}

/* Device i of the configuration, set to its policy (or planned). */
static int plan_device(struct cli *c, const struct np_config *cfg, size_t i,
		       struct np_error *err)
{
	NP_PLAN_OPTS(opts, .cpus = np_config_cpus(cfg, i));
	const struct np_policy *policy;

	c->device = np_config_ifname(cfg, i);
	c->changed = false;
	np_config_mixed_opts(cfg, i, &opts);
	/* the configuration was validated: the name is known */
	if (np_policy_find(c->ctx, np_config_policy(cfg, i), &policy, err) < 0)
		return cli_fail(c, err);
	return cli_set_device(c, policy, &opts);
}

/* --json: the run's document around the devices' entries. */
static void print_run(struct cli *c, const struct np_config *cfg, struct json_object *devs,
		      bool changed)
{
	struct json_object *doc = json_object_new_object();

	cli_jadd(c, doc, "config", json_object_new_string(np_config_path(cfg)));
	cli_jadd(c, doc, "dry_run", json_object_new_boolean(c->dry_run));
	cli_jadd(c, doc, "devices", devs);
	cli_jadd(c, doc, "changed", json_object_new_boolean(changed));
	cli_print_json(c, doc);
	json_object_put(doc);
}

int cmd_plan(struct cli *c)
{
	struct json_object *devs = NULL;
	struct cli_run_tally tally = { 0 };
	struct np_config *cfg = NULL;
	const char *only = NULL;
	CLI_ERROR(err);
	size_t idx;
	int rc;

	if (c->argc > 1)
		return cli_usage_error("plan: unexpected argument '%s'", c->argv[1]);
	np_error_clear(err);
	if (c->argc == 1) {
		only = c->argv[0];
		if (np_ifname_validate(only, err) < 0)
			return cli_fail(c, err);
	}
	rc = load_config(c, only, &cfg, err);
	if (!cfg)
		return rc;
	/* udev starts the unit for every new device: one that is not
	 * configured is not an error, but a typed name deserves a word. */
	if (only && np_config_find(cfg, only, &idx) < 0 && !c->quiet)
		fprintf(stderr, "netpolicy: %s: not configured in %s; nothing to do\n", only,
			np_config_path(cfg));
	/* A per-device value wrong for this machine (cpus naming an offline
	 * CPU, say) must stop the run before the first device is changed. */
	rc = validate_devices(c, cfg, only);
	if (rc != NP_EXIT_OK) {
		np_config_free(cfg);
		return rc;
	}
	if (c->json) {
		devs = json_object_new_array();
		c->json_out = devs;
	}
	for (size_t i = 0; i < np_config_n_devices(cfg); i++) {
		size_t before = devs ? json_object_array_length(devs) : 0;
		bool entry_changed;
		int r;

		if (only && strcmp(only, np_config_ifname(cfg, i)))
			continue;
		/* a signal stops the run at hand (rolled back): no device after it */
		if (cli_signal_received())
			break;
		r = plan_device(c, cfg, i, err);
		entry_changed = devs && finish_entry(c, devs, before, np_config_policy(cfg, i), r);
		cli_tally_add(&tally, r, c->changed || entry_changed);
	}
	c->device = NULL;
	c->json_out = NULL;
	if (devs)
		print_run(c, cfg, devs, tally.changed);
	np_config_free(cfg);
	return cli_exit_of_run(&tally);
}
