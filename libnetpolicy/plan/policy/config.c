/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * /etc/netpolicy.conf: which policy each device gets (netpolicy.conf(5)).
 *
 *	[eth0]
 *	policy = throughput
 *	cpus = 0-7
 *
 *	[eth1]
 *	policy = mixed
 *	flow = latency:tcp:6379		(one per line, as many as --flow)
 *	default-class = throughput
 *	weight = latency=1,throughput=2
 *
 * Validation is strict and complete before anything is returned: a boot-time
 * "plan" must not tune half the machine and then stop on a typo, so every
 * error is found here, one line naming FILE:LINE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>

#include <json-c/json.h>

#include "util/np_cpumask.h"
#include "plan/np_mixed.h"
#include "plan/np_policy.h"

struct entry {
	char ifname[IFNAMSIZ];
	const struct np_policy *policy;
	char *cpus;		/* as written, or NULL */
	unsigned line;		/* of the [section] header */
	unsigned policy_line, cpus_line;
	/* the mixed policy's: flows, default class and weights as written */
	char *flows[NP_MIXED_FLOWS_MAX];
	size_t n_flows;
	char *default_class, *weights;
	unsigned mixed_line;	/* the first of them, 0 none */
};

struct np_config {
	struct np_ctx *ctx;	/* custom policies are found through it; may be NULL */
	char *path;
	struct entry *dev;
	size_t n, alloc;
};

void np_config_free(struct np_config *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < cfg->n; i++) {
		free(cfg->dev[i].cpus);
		for (size_t k = 0; k < cfg->dev[i].n_flows; k++)
			free(cfg->dev[i].flows[k]);
		free(cfg->dev[i].default_class);
		free(cfg->dev[i].weights);
	}
	free(cfg->dev);
	free(cfg->path);
	free(cfg);
}

/* np_err with "FILE:LINE: " in front. */
static int fail(struct np_error *err, const struct np_config *cfg, unsigned line,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(struct np_error *err, const struct np_config *cfg, unsigned line,
		const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "%s:%u: %s", cfg->path, line, msg);
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
		end--;
	*end = '\0';
	return s;
}

static int section(struct np_config *cfg, char *s, unsigned line, struct np_error *err)
{
	char *close = strchr(s, ']'), *name;
	struct np_error why;
	struct entry *e;

	if (!close || *trim(close + 1))
		return fail(err, cfg, line, "expected '[DEVICE]'");
	*close = '\0';
	name = trim(s + 1);
	np_error_clear(&why);
	if (np_ifname_validate(name, &why) < 0)
		return fail(err, cfg, line, "%s", why.msg);
	for (size_t i = 0; i < cfg->n; i++)
		if (!strcmp(cfg->dev[i].ifname, name))
			return fail(err, cfg, line, "duplicate section [%s] (first at line %u)",
				    name, cfg->dev[i].line);
	if (cfg->n == cfg->alloc) {
		size_t alloc = cfg->alloc ? cfg->alloc * 2 : 8;
		struct entry *dev = realloc(cfg->dev, alloc * sizeof(*dev));

		if (!dev)
			return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
		cfg->dev = dev;
		cfg->alloc = alloc;
	}
	e = &cfg->dev[cfg->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->ifname, sizeof(e->ifname), "%s", name);
	e->line = line;
	return 0;
}

/* flow, default-class, weight: checked as the planner reads them. */
static int mixed_key(struct np_config *cfg, struct entry *e, const char *key, const char *value,
		     unsigned line, struct np_error *err)
{
	struct np_plan_opts o = { .sz = sizeof(o), .flags = NP_PLAN_OPTS_MIXED };
	const char *all[NP_MIXED_FLOWS_MAX];
	struct np_mixed_plan *mp;
	struct np_error why;
	char **slot;
	int r;

	if (!strcmp(key, "flow")) {
		if (e->n_flows == NP_MIXED_FLOWS_MAX)
			return fail(err, cfg, line, "[%s]: more than %d flows", e->ifname,
				    NP_MIXED_FLOWS_MAX);
		/* with the section's earlier flows: two with the same match
		 * are refused on the second's line */
		for (size_t i = 0; i < e->n_flows; i++)
			all[i] = e->flows[i];
		all[e->n_flows] = value;
		o.flows = all;
		o.n_flows = e->n_flows + 1;
		slot = &e->flows[e->n_flows];
	} else if (!strcmp(key, "default-class")) {
		o.default_class = value;
		slot = &e->default_class;
	} else {
		o.weights = value;
		slot = &e->weights;
	}
	if (*slot)
		return fail(err, cfg, line, "[%s]: %s given twice", e->ifname, key);
	mp = malloc(sizeof(*mp));
	if (!mp)
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	np_error_clear(&why);
	r = np_mixed_opts_parse(&o, mp, &why);
	free(mp);
	if (r < 0)
		return fail(err, cfg, line, "%s", why.msg);
	*slot = strdup(value);
	if (!*slot)
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	if (!strcmp(key, "flow"))
		e->n_flows++;
	if (!e->mixed_line)
		e->mixed_line = line;
	return 0;
}

static int assignment(struct np_config *cfg, char *s, unsigned line, struct np_error *err)
{
	char *eq = strchr(s, '='), *key, *value;
	struct entry *e = cfg->n ? &cfg->dev[cfg->n - 1] : NULL;
	struct np_error why;

	if (!eq)
		return fail(err, cfg, line, "expected 'KEY = VALUE' or '[DEVICE]', got '%s'", s);
	*eq = '\0';
	key = trim(s);
	value = trim(eq + 1);
	if (!*key)
		return fail(err, cfg, line, "missing key before '='");
	if (strcmp(key, "policy") && strcmp(key, "cpus") && strcmp(key, "flow") &&
	    strcmp(key, "default-class") && strcmp(key, "weight"))
		return fail(err, cfg, line, "unknown key '%s' (valid: policy, cpus, flow, "
			    "default-class, weight)", key);
	if (!e)
		return fail(err, cfg, line, "'%s' before any [DEVICE] section", key);
	if (!*value)
		return fail(err, cfg, line, "%s: empty value", key);
	if (strcmp(key, "policy") && strcmp(key, "cpus"))
		return mixed_key(cfg, e, key, value, line, err);

	if (!strcmp(key, "policy")) {
		if (e->policy_line)
			return fail(err, cfg, line, "[%s]: policy given twice (first at line %u)",
				    e->ifname, e->policy_line);
		np_error_clear(&why);
		if ((cfg->ctx ? np_policy_find(cfg->ctx, value, &e->policy, &why) :
				np_policy_lookup(value, &e->policy, &why)) < 0)
			return fail(err, cfg, line, "%s", why.msg);
		e->policy_line = line;
		return 0;
	}

	if (e->cpus_line)
		return fail(err, cfg, line, "[%s]: cpus given twice (first at line %u)",
			    e->ifname, e->cpus_line);
	/* the plan and the policy record keep the list as written */
	if (strlen(value) >= NP_CPUS_TEXT_MAX)
		return fail(err, cfg, line, "cpus: longer than %d characters", NP_CPUS_TEXT_MAX - 1);
	{
		struct np_cpumask m;
		int r = np_cpumask_parse_list(value, &m);

		/* Only syntax here: which CPUs are online is known when planning. */
		if (r == -ERANGE)
			return fail(err, cfg, line, "cpus: '%s': CPU numbers go up to %d",
				    value, NP_CPUS_MAX - 1);
		if (r < 0)
			return fail(err, cfg, line, "cpus: '%s' is not a CPU list (like 0-3,8)",
				    value);
		if (np_cpumask_empty(&m))
			return fail(err, cfg, line, "cpus: '%s' names no CPU", value);
	}
	e->cpus = strdup(value);
	if (!e->cpus)
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	e->cpus_line = line;
	return 0;
}

/* A configuration is a few lines per device; these bound what a mistaken
 * --config (a log, a core file) costs before it is refused. */
#define CONFIG_MAX_SIZE (1u << 20)
#define CONFIG_MAX_LINE 4096

static int parse(struct np_config *cfg, char *text, size_t len, struct np_error *err)
{
	unsigned line = 0;
	char *pos = text, *end = text + len;
	int r = 0;

	while (pos < end) {
		char *nl = memchr(pos, '\n', (size_t)(end - pos)), *s, *hash;
		size_t n = (size_t)((nl ? nl : end) - pos);

		line++;
		if (n > CONFIG_MAX_LINE)
			return fail(err, cfg, line, "line longer than %d characters", CONFIG_MAX_LINE);
		if (memchr(pos, '\0', n))
			return fail(err, cfg, line, "NUL byte (not a text file?)");
		pos[n] = '\0';
		s = trim(pos);
		pos += n + (nl ? 1 : 0);
		/* '#' starts a comment anywhere (no value contains one); ';' only
		 * at the start of a line, as in systemd unit files. */
		hash = strchr(s, '#');
		if (hash) {
			*hash = '\0';
			s = trim(s);
		}
		if (!*s || *s == ';')
			continue;
		r = *s == '[' ? section(cfg, s, line, err) : assignment(cfg, s, line, err);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < cfg->n; i++) {
		if (!cfg->dev[i].policy)
			return fail(err, cfg, cfg->dev[i].line,
				    "[%s]: no policy (add 'policy = NAME')", cfg->dev[i].ifname);
		if (cfg->dev[i].mixed_line && !cfg->dev[i].policy->mixed)
			return fail(err, cfg, cfg->dev[i].mixed_line, "[%s]: flow, default-class "
				    "and weight are for the mixed policy, not %s",
				    cfg->dev[i].ifname, np_policy_name(cfg->dev[i].policy));
	}
	return 0;
}

int np_config_load(struct np_ctx *ctx, const char *path, struct np_config **ret,
		   struct np_error *err)
{
	struct np_config *cfg;
	char *text = NULL, why[120];
	size_t len = 0;
	int r;

	if (!path)
		path = NP_CONFIG_PATH;
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg || !(cfg->path = strdup(path))) {
		free(cfg);
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	}
	cfg->ctx = ctx;
	/* Links are followed (configuration management often links the
	 * file); FIFOs, devices and pipes are refused without blocking, and
	 * the size is bounded: "--config /dev/zero" once grew without end. */
	/* It decides what root writes to devices: only a file nobody but root
	 * (or the caller) can change is trusted, as for policies.d. */
	r = np_text_file_read_guarded(AT_FDCWD, path, CONFIG_MAX_SIZE, NP_TEXT_TRUSTED, why,
				      sizeof(why), &text, &len);
	if (r == -EPERM) {
		r = np_err(err, r, NP_PHASE_INPUT, NULL, "%s: not trusted: %s", path, why);
		goto out;
	}
	if (r < 0) {
		bool resource = r == -ENOMEM || r == -EMFILE || r == -ENFILE || r == -EIO;

		r = np_err(err, r, resource ? NP_PHASE_NONE : NP_PHASE_INPUT, NULL, "%s: %s",
			   path, np_text_file_strerror(r));
		goto out;
	}
	r = parse(cfg, text, len, err);
	if (r < 0)
		goto out;
	np_log(ctx, NP_LOG_DEBUG, "%s: %zu device%s", path, cfg->n, cfg->n == 1 ? "" : "s");
	*ret = cfg;
	cfg = NULL;
out:
	free(text);
	np_config_free(cfg);
	return r;
}

const char *np_config_path(const struct np_config *cfg)
{
	return cfg->path;
}

size_t np_config_n_devices(const struct np_config *cfg)
{
	return cfg ? cfg->n : 0;
}

const char *np_config_ifname(const struct np_config *cfg, size_t i)
{
	return cfg && i < cfg->n ? cfg->dev[i].ifname : NULL;
}

const char *np_config_policy(const struct np_config *cfg, size_t i)
{
	return cfg && i < cfg->n ? np_policy_name(cfg->dev[i].policy) : NULL;
}

const char *np_config_cpus(const struct np_config *cfg, size_t i)
{
	return cfg && i < cfg->n ? cfg->dev[i].cpus : NULL;
}

void np_config_mixed_opts(const struct np_config *cfg, size_t i, struct np_plan_opts *opts)
{
	const struct entry *e = cfg && i < cfg->n ? &cfg->dev[i] : NULL;

	if (!e || !e->policy->mixed)
		return;
	opts->flags |= NP_PLAN_OPTS_MIXED;
	opts->flows = (const char *const *)e->flows;
	opts->n_flows = e->n_flows;
	opts->default_class = e->default_class;
	opts->weights = e->weights;
}

unsigned np_config_line(const struct np_config *cfg, size_t i)
{
	return cfg && i < cfg->n ? cfg->dev[i].line : 0;
}

int np_config_find(const struct np_config *cfg, const char *ifname, size_t *ret)
{
	for (size_t i = 0; cfg && ifname && i < cfg->n; i++)
		if (!strcmp(cfg->dev[i].ifname, ifname)) {
			*ret = i;
			return 0;
		}
	return -ENOENT;
}

int np_config_to_json(const struct np_config *cfg, struct json_object **ret)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();

	if (!o || !arr)
		goto oom;
	json_object_object_add(o, "path", json_object_new_string(cfg->path));
	for (size_t i = 0; i < cfg->n; i++) {
		const struct entry *e = &cfg->dev[i];
		struct json_object *d = json_object_new_object();

		if (!d)
			goto oom;
		json_object_array_add(arr, d);
		json_object_object_add(d, "ifname", json_object_new_string(e->ifname));
		json_object_object_add(d, "policy", json_object_new_string(np_policy_name(e->policy)));
		json_object_object_add(d, "cpus", e->cpus ? json_object_new_string(e->cpus) : NULL);
		if (e->policy->mixed) {
			struct json_object *flows = json_object_new_array();

			for (size_t k = 0; flows && k < e->n_flows; k++)
				json_object_array_add(flows, json_object_new_string(e->flows[k]));
			json_object_object_add(d, "flows", flows);
			json_object_object_add(d, "default_class", e->default_class ?
					       json_object_new_string(e->default_class) : NULL);
			json_object_object_add(d, "weight", e->weights ?
					       json_object_new_string(e->weights) : NULL);
		}
		json_object_object_add(d, "line", json_object_new_int((int)e->line));
	}
	json_object_object_add(o, "devices", arr);
	*ret = o;
	return 0;
oom:
	json_object_put(o);
	json_object_put(arr);
	return -ENOMEM;
}
