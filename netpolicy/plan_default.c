/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* netpolicy plan on a machine without a configuration file: --dry-run shows
 * what the default policy (NP_DEFAULT_POLICY, throughput: see netpolicy(8))
 * would do to every device with hardware queues; an apply is refused with
 * one line saying what to write where, since tuning devices nobody named
 * would surprise an admin. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *cli_config_path(const struct cli *c, char *buf, size_t len)
{
	if (c->config)
		return c->config;
	if (!c->root)
		return NP_CONFIG_PATH;
	snprintf(buf, len, "%s%s", c->root, NP_CONFIG_PATH);
	return buf;
}

/* A device with hardware queues has a parent device (PCI, virtio...), which
 * the kernel reports as its bus_info: veth, bridges, tunnels and lo do not. */
static bool has_hardware(struct cli *c, const char *ifname)
{
	struct np_state *st = NULL;
	struct json_object *obj = NULL, *v = NULL;
	CLI_ERROR(err);
	bool hw = false;

	if (!err)
		return false;
	if (np_discover(c->ctx, ifname, &st, err) < 0)
		return false;
	if (np_state_to_json(st, &obj) >= 0 && json_object_object_get_ex(obj, "bus_info", &v))
		hw = json_object_get_string_len(v) > 0;
	json_object_put(obj);
	np_state_free(st);
	return hw;
}

int cli_plan_default(struct cli *c, const char *only, const char *config_path)
{
	struct json_object *doc = NULL, *devs = NULL;
	static const struct np_plan_opts none = { .sz = sizeof(none) };
	const struct np_policy *policy;
	CLI_ERROR(err);
	char **names = NULL;
	size_t n = 0;
	int r, rc = NP_EXIT_OK;

	if (!c->dry_run) {
		fprintf(stderr, "netpolicy: no %s: write it ([DEVICE] sections with "
			"\"policy = NAME\", see netpolicy.conf(5)), or run 'netpolicy plan --dry-run' "
			"to see the default policy's plan\n", config_path);
		return NP_EXIT_USAGE;
	}
	if (!err)
		return cli_out_of_memory();
	if (np_policy_lookup(NP_DEFAULT_POLICY, &policy, err) < 0)
		return cli_fail(c, err);
	if (!c->quiet && !c->json)
		printf("No %s: the plan of the default policy (%s) for every device with "
		       "hardware queues.\n\n", config_path, NP_DEFAULT_POLICY);
	r = np_list_devices(c->ctx, &names, &n, err);
	if (r < 0)
		return cli_fail(c, err);
	if (c->json) {
		devs = json_object_new_array();
		c->json_out = devs;
	}
	for (size_t i = 0; i < n; i++) {
		if (only ? strcmp(only, names[i]) != 0 : !has_hardware(c, names[i]))
			continue;
		c->device = names[i];
		r = cli_set_device(c, policy, &none);
		if (r > rc)
			rc = r;
	}
	c->device = NULL;
	c->json_out = NULL;
	if (devs) {
		doc = json_object_new_object();
		cli_jnull(c, doc, "config");
		cli_jadd(c, doc, "default_policy", json_object_new_string(NP_DEFAULT_POLICY));
		cli_jadd(c, doc, "dry_run", json_object_new_boolean(1));
		cli_jadd(c, doc, "devices", devs);
		cli_jadd(c, doc, "changed", json_object_new_boolean(0));
		cli_print_json(c, doc);
		json_object_put(doc);
	}
	np_list_free(names, n);
	return rc;
}
