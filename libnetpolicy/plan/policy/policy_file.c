/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Custom policies: DIR/NAME.conf (netpolicy-policy(5)) starts from a built-in
 * policy ("base = throughput"; a file named after a built-in adjusts it) and
 * overrides any value of np_policy_keys[] or any coalescing field:
 *
 *	# /etc/netpolicy/policies.d/bulk.conf
 *	base = throughput
 *	coalesce.rx-usecs = 100
 *	rfs-entries = 65536
 *
 * A policy is found through the ctx (np_policy_find), so tests and programs
 * can point a ctx at their own directory; loaded files stay cached there.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "plan/policy/np_policy_file.h"

/* A policy file is a few dozen lines; far more is no policy file. */
#define NP_POLICY_FILE_MAX (64u << 10)

/* short for this file and policy_json.c */
#define custom np_custom_policy

_Static_assert(sizeof(((struct custom *)0)->key_line) / sizeof(unsigned) >= 10,
	       "a line per np_policy_keys[] entry");

void np_policy_free(struct np_policy *p)
{
	struct custom *c = (struct custom *)p;

	if (!p || !p->key_line)	/* the built-ins are not ours to free */
		return;
	for (size_t i = 0; i < c->p.n_flows; i++)
		free(c->flows[i]);
	free(c->default_class);
	free(c->weights);
	free(c->file);
	free(c);
}

void np_policy_cache_free(struct np_ctx *ctx)
{
	struct custom *c = ctx->policies, *next;

	for (; c; c = next) {
		next = c->next;
		np_policy_free(&c->p);
	}
	ctx->policies = NULL;
}

const struct np_policy *np_policy_builtin(const char *name)
{
	for (size_t i = 0; i < np_policy_count(); i++)
		if (!strcmp(np_policy_at(i)->name, name))
			return np_policy_at(i);
	return NULL;
}

/* Lower case letters, digits, '-' and '_', at most 31: a file name and a
 * word of the command line, of netpolicy.conf and of the policy record. */
bool np_policy_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 31 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ||
		      s[i] == '_'))
			return false;
	return true;
}

int np_policy_custom_new(const char *name, const char *file, struct custom **ret)
{
	struct custom *c = calloc(1, sizeof(*c));

	if (!c || (file && !(c->file = strdup(file)))) {
		free(c);
		return -ENOMEM;
	}
	snprintf(c->name, sizeof(c->name), "%.31s", name);
	/* what np_policy_free() knows a custom policy by, from the start */
	c->p.key_line = c->key_line;
	c->p.coal_line = c->coal_line;
	*ret = c;
	return 0;
}

/* Start from `base`: its values, its reasons, its coalescing list. */
void np_policy_custom_base(struct custom *c, const struct np_policy *base)
{
	const char *name = c->p.name;

	c->p = *base;
	c->p.name = name ? name : c->name;
	c->p.base = base;
	c->p.file = c->file;
	c->p.key_line = c->key_line;
	c->p.coal_line = c->coal_line;
	if (base->n_coal)
		memcpy(c->coal, base->coal, base->n_coal * sizeof(*c->coal));
	c->p.coal = c->coal;
	/* built-ins without feature toggles carry a NULL list */
	if (base->n_features)
		memcpy(c->feat, base->features,
		       base->n_features * sizeof(*c->feat));
	c->p.features = c->feat;
	snprintf(c->summary, sizeof(c->summary), "%s", base->summary);
	c->p.summary = c->summary;
	snprintf(c->core, sizeof(c->core), "%s", base->core ? base->core : "");
	c->p.core = c->core;
	/* the built-ins have no flows; a file adds its own (mixed_set) */
	c->p.flows = NULL;
	c->p.n_flows = 0;
	c->p.default_class = c->p.weights = NULL;
}

static void custom_set_coal(struct custom *c, int f, uint32_t v, unsigned line)
{
	size_t i;

	for (i = 0; i < c->p.n_coal && c->coal[i].field != (enum np_coal_field)f; i++)
		;
	if (i == c->p.n_coal)
		c->p.n_coal++;
	c->coal[i].field = (enum np_coal_field)f;
	c->coal[i].value = v;
	c->coal_line[f] = line;
}

static void custom_unset_coal(struct custom *c, int f)
{
	size_t i, n = 0;

	for (i = 0; i < c->p.n_coal; i++)
		if (c->coal[i].field != (enum np_coal_field)f)
			c->coal[n++] = c->coal[i];
	c->p.n_coal = n;
	c->coal_line[f] = 0;
}

/* "FILE:LINE:COL: reason", an input error. */
static int file_err(struct np_error *err, const char *file, unsigned line, size_t col,
		    const char *reason)
{
	return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "%s:%u:%zu: %s", file, line, col + 1,
		      reason);
}

static char *trim(char *s, char **end)
{
	while (*s == ' ' || *s == '\t')
		s++;
	*end = s + strlen(s);
	while (*end > s && ((*end)[-1] == ' ' || (*end)[-1] == '\t' || (*end)[-1] == '\n' ||
			    (*end)[-1] == '\r'))
		*--*end = '\0';
	return s;
}

/* flow (once per flow), default-class, weight: netpolicy.conf's keys
 * (config.c), checked as the planner reads them, for a mixed base only. */
static int mixed_set(struct custom *c, const char *key, const char *value, unsigned line,
		     char *why, size_t why_len)
{
	struct np_plan_opts o = { .sz = sizeof(o), .flags = NP_PLAN_OPTS_MIXED };
	const char *all[NP_MIXED_FLOWS_MAX];
	struct np_mixed_plan *mp;
	struct np_error e;
	unsigned *at;
	char **slot;
	int r;

	if (!c->p.mixed) {
		snprintf(why, why_len, "flow, default-class and weight are for a policy based on "
			 "mixed, not on %s", c->p.base ? c->p.base->name : c->p.name);
		return -EPERM;
	}
	if (!strcmp(key, "flow")) {
		if (c->p.n_flows == NP_MIXED_FLOWS_MAX) {
			snprintf(why, why_len, "more than %d flows", NP_MIXED_FLOWS_MAX);
			return -EINVAL;
		}
		/* with the earlier flows: two with the same match are refused
		 * on the second's line */
		for (size_t i = 0; i < c->p.n_flows; i++)
			all[i] = c->flows[i];
		all[c->p.n_flows] = value;
		o.flows = all;
		o.n_flows = c->p.n_flows + 1;
		slot = &c->flows[c->p.n_flows];
		at = &c->flow_line;
	} else if (!strcmp(key, "default-class")) {
		o.default_class = value;
		slot = &c->default_class;
		at = &c->default_line;
	} else {
		o.weights = value;
		slot = &c->weights;
		at = &c->weight_line;
	}
	if (*slot) {
		snprintf(why, why_len, "%s given twice", key);
		return -EINVAL;
	}
	mp = malloc(sizeof(*mp));
	if (!mp) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	np_error_clear(&e);
	r = np_mixed_opts_parse(&o, mp, &e);
	free(mp);
	if (r < 0) {
		snprintf(why, why_len, "%s", e.msg);
		return -EINVAL;
	}
	*slot = strdup(value);
	if (!*slot) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	if (!*at)
		*at = line;
	if (slot == &c->flows[c->p.n_flows]) {
		c->p.flows = (const char *const *)c->flows;
		c->p.n_flows++;
	}
	c->p.default_class = c->default_class;
	c->p.weights = c->weights;
	return 0;
}

/* One "key = value" of a file (or of the JSON's values); why set on error. */
int np_policy_custom_set(struct custom *c, const char *key, const char *value, unsigned line,
			 char *why, size_t why_len)
{
	const struct np_policy_key *k;

	if (!strcmp(key, "flow") || !strcmp(key, "default-class") || !strcmp(key, "weight"))
		return mixed_set(c, key, value, line, why, why_len);
	if (!strcmp(key, "summary")) {
		snprintf(c->summary, sizeof(c->summary), "%s", value);
		return 0;
	}
	if (!strcmp(key, "core")) {	/* knob names, comma-separated */
		char words[sizeof(c->core)], *w, *save = NULL;

		if (strlen(value) >= sizeof(c->core)) {
			snprintf(why, why_len, "core: too long");
			return -EINVAL;
		}
		snprintf(words, sizeof(words), "%s", value);
		for (w = strtok_r(words, ",", &save); w; w = strtok_r(NULL, ",", &save))
			if (!np_knob_lookup(w)) {
				snprintf(why, why_len, "core: '%.40s' is not a knob", w);
				return -EINVAL;
			}
		snprintf(c->core, sizeof(c->core), "%s", value);
		c->core_line = line;
		return 0;
	}
	if (!strncmp(key, "features.", 9))
		return np_policy_custom_feature(c, key + 9, value, line, why, why_len);
	if (!strncmp(key, "coalesce.", 9)) {
		int f = np_coal_field_lookup(key + 9);
		uint32_t v;

		if (f < 0) {
			snprintf(why, why_len, "unknown coalescing parameter '%s'", key + 9);
			return -ENOENT;
		}
		if (!strcmp(value, "keep")) {	/* the policy leaves the driver's value */
			custom_unset_coal(c, f);
			return 0;
		}
		if (np_policy_coal_parse(f, value, &v, why, why_len) < 0)
			return -EINVAL;
		custom_set_coal(c, f, v, line);
		return 0;
	}
	k = np_policy_key_find(key);
	if (!k) {
		snprintf(why, why_len, "unknown key '%s' (netpolicy-policy(5) lists them)", key);
		return -ENOENT;
	}
	if (np_policy_key_set(&c->p, k, value, why, why_len) < 0)
		return -EINVAL;
	c->key_line[k - np_policy_keys] = line;
	return 0;
}

static int parse(struct custom *c, const char *path, const char *text, size_t len,
		 struct np_error *err)
{
	char buf[1024], why[200];
	unsigned line = 0, base_line = 0;
	bool started = false;
	size_t at = 0;

	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - text - at) : len - at;
		char *s, *end, *eq, *key, *value, *kend;
		const char *nul = memchr(text + at, '\0', n);

		line++;
		if (n >= sizeof(buf) - 1)
			return file_err(err, path, line, sizeof(buf) - 1, "line too long");
		/* what follows it would be silently ignored */
		if (nul)
			return file_err(err, path, line, (size_t)(nul - text - at), "a NUL byte");
		memcpy(buf, text + at, n);
		buf[n] = '\0';
		at += n + (nl ? 1 : 0);
		s = trim(buf, &end);
		if (!*s || *s == '#')
			continue;
		eq = strchr(s, '=');
		if (!eq)
			return file_err(err, path, line, (size_t)(s - buf), "expected 'key = value'");
		*eq = '\0';
		key = trim(s, &kend);
		value = trim(eq + 1, &end);
		if (!*key)
			return file_err(err, path, line, (size_t)(s - buf), "a key is missing before '='");
		if (!*value)
			return file_err(err, path, line, (size_t)(eq + 1 - buf), "a value is missing after '='");
		if (!strcmp(key, "base")) {
			const struct np_policy *b = np_policy_builtin(value);

			if (started || base_line)
				return file_err(err, path, line, (size_t)(key - buf),
						"'base' must come first, once");
			if (!b) {
				snprintf(why, sizeof(why), "base: '%s' is not a built-in policy", value);
				return file_err(err, path, line, (size_t)(value - buf), why);
			}
			np_policy_custom_base(c, b);
			base_line = line;
			continue;
		}
		if (!started && !base_line) {
			const struct np_policy *b = np_policy_builtin(c->name);

			if (!b)
				return file_err(err, path, line, (size_t)(key - buf),
						"the first setting must be 'base = POLICY' (cpu, latency, ...)");
			np_policy_custom_base(c, b);
		}
		started = true;
		switch (np_policy_custom_set(c, key, value, line, why, sizeof(why))) {
		case 0:
			break;
		case -ENOENT:
		case -EPERM:
			return file_err(err, path, line, (size_t)(key - buf), why);
		default:
			return file_err(err, path, line, (size_t)(value - buf), why);
		}
	}
	if (!started && !base_line) {
		const struct np_policy *b = np_policy_builtin(c->name);

		if (!b)
			return file_err(err, path, line ? line : 1, 0, "no 'base = POLICY'");
		np_policy_custom_base(c, b);
	}
	np_policy_custom_adaptive(c);
	return 0;
}

/* Errors that are no fault of the file (exit 1, not 2): out of files, of
 * memory, a read that failed. */
static bool resource_error(int r)
{
	return r == -ENOMEM || r == -EMFILE || r == -ENFILE || r == -ENOBUFS || r == -EAGAIN ||
	       r == -EINTR || r == -EIO;
}

static int open_err(struct np_error *err, int r, const char *path, const char *why)
{
	return np_err(err, r, resource_error(r) ? NP_PHASE_NONE : NP_PHASE_INPUT, NULL, "%s: %s",
		      path, why && *why ? why : np_text_file_strerror(r));
}

/*
 * A custom policy sets what root writes to the machine, machine-wide sysctls
 * included: it is read only when nobody but root (or the caller) can have
 * written it or put it there.  The file and its directory pass
 * np_stat_trusted(); the file is a regular file (a FIFO would hang the
 * command), not a symbolic link, and bounded.  -ENOENT: no such file.
 */
static int read_trusted(const char *path, const char *base, char **text, size_t *len,
			struct np_error *err)
{
	char dir[PATH_MAX], why[120] = "";
	/* the directory without its last '/', except for "/" itself */
	size_t dlen = base - path > 1 ? (size_t)(base - path) - 1 : (size_t)(base - path);
	struct stat sb;
	int dfd, r;

	if (dlen >= sizeof(dir))
		return np_err(err, -ENAMETOOLONG, NP_PHASE_INPUT, NULL, "%s: name too long", path);
	if (dlen)
		memcpy(dir, path, dlen);
	else
		dir[dlen++] = '.';
	dir[dlen] = '\0';
	do
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (dfd < 0 && errno == EINTR);
	if (dfd < 0)
		return errno == ENOENT || errno == ENOTDIR ? np_err(err, -ENOENT, NP_PHASE_INPUT, NULL,
							     "%s: %s", path, strerror(ENOENT)) :
			open_err(err, -errno, dir, NULL);
	/* a directory anyone can write to is refused only when it holds the
	 * file: a built-in is used as it is whatever the directory */
	if (fstatat(dfd, base, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
		r = -errno;
		close(dfd);
		return r == -ENOENT ? np_err(err, r, NP_PHASE_INPUT, NULL, "%s: %s", path,
					     strerror(ENOENT)) : open_err(err, r, path, NULL);
	}
	if (fstat(dfd, &sb) < 0 || np_stat_trusted(&sb, why, sizeof(why)) < 0) {
		close(dfd);
		return np_err(err, -EPERM, NP_PHASE_INPUT, NULL,
			      "%s: not trusted: its directory %s is %s", path, dir,
			      *why ? why : "unreadable");
	}
	r = np_text_file_read_guarded(dfd, base, NP_POLICY_FILE_MAX,
				      NP_TEXT_NOFOLLOW | NP_TEXT_TRUSTED, why, sizeof(why), text, len);
	close(dfd);
	if (r == -EPERM)
		return np_err(err, r, NP_PHASE_INPUT, NULL, "%s: not trusted: %s", path, why);
	if (r < 0)
		return open_err(err, r, path, NULL);
	return 0;
}

int np_policy_load(const char *path, struct np_policy **ret, struct np_error *err)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t n = strlen(base), len = 0;
	struct custom *c;
	char name[64], *text = NULL;
	int r;

	if (n < 6 || n - 5 >= sizeof(name) || strcmp(base + n - 5, ".conf"))
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "%s: a policy file is NAME.conf", path);
	memcpy(name, base, n - 5);
	name[n - 5] = '\0';
	if (!np_policy_name_ok(name))
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
			      "%s: a policy name is 1-31 of a-z, 0-9, '-', '_'", path);
	r = read_trusted(path, base, &text, &len, err);
	if (r < 0)
		return r;
	r = np_policy_custom_new(name, path, &c);
	if (r < 0) {
		free(text);
		return np_err(err, r, NP_PHASE_NONE, NULL, "out of memory");
	}
	c->p.name = c->name;
	r = parse(c, path, text, len, err);
	free(text);
	if (r < 0) {
		np_policy_free(&c->p);
		return r;
	}
	*ret = &c->p;
	return 0;
}

int np_ctx_set_policy_dir(struct np_ctx *ctx, const char *dir, struct np_error *err)
{
	if (strlen(dir) >= sizeof(ctx->policy_dir))
		return np_err(err, -ENAMETOOLONG, NP_PHASE_INPUT, NULL, "policy directory name too long");
	snprintf(ctx->policy_dir, sizeof(ctx->policy_dir), "%s", dir);
	np_policy_cache_free(ctx);
	return 0;
}

const char *np_ctx_policy_dir(const struct np_ctx *ctx)
{
	return ctx->policy_dir[0] ? ctx->policy_dir : NP_POLICY_DIR;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the directory's policies, sorted; *ret NULL when none. */
int np_policy_dir_names(struct np_ctx *ctx, char ***ret, size_t *ret_n)
{
	DIR *d = opendir(np_ctx_policy_dir(ctx));
	char **v = NULL;
	size_t n = 0;
	struct dirent *e;

	*ret = NULL;
	*ret_n = 0;
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char **nv;

		if (len < 6 || strcmp(e->d_name + len - 5, ".conf") || e->d_name[0] == '.')
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv || !(nv[n] = strndup(e->d_name, len - 5))) {
			v = nv ? nv : v;
			np_list_free(v, n);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), by_name);
	*ret = v;
	*ret_n = n;
	return 0;
}

int np_policy_find(struct np_ctx *ctx, const char *name, const struct np_policy **ret,
		   struct np_error *err)
{
	struct np_policy *p;
	char path[PATH_MAX + 40];
	struct custom *c;
	int r;

	for (c = ctx->policies; c; c = c->next)
		if (!strcmp(c->name, name)) {
			*ret = &c->p;
			return 0;
		}
	if (np_policy_name_ok(name)) {
		snprintf(path, sizeof(path), "%s/%s.conf", np_ctx_policy_dir(ctx), name);
		r = np_policy_load(path, &p, err);
		if (r == 0) {
			c = (struct custom *)p;
			c->next = ctx->policies;
			ctx->policies = c;
			*ret = p;
			return 0;
		}
		if (r != -ENOENT)
			return r;
		if (err)	/* no such file: a built-in, or unknown */
			np_error_clear(err);
	}
	r = np_policy_lookup(name, ret, NULL);
	if (r == -EINVAL) {
		char valid[200] = "", mean[48] = "", **names = NULL;
		const char *cands[64], *best;
		size_t n = 0, nc = 0;

		for (size_t i = 0; i < np_policy_count(); i++) {
			snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s%s",
				 i ? ", " : "", np_policy_at(i)->name);
			cands[nc++] = np_policy_at(i)->name;
		}
		if (np_policy_dir_names(ctx, &names, &n) == 0) {
			for (size_t i = 0; i < n; i++)
				if (!np_policy_builtin(names[i])) {
					snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid),
						 ", %s", names[i]);
					if (nc < NP_ARRAY_SIZE(cands))
						cands[nc++] = names[i];
				}
		}
		best = np_suggest(name, cands, nc);
		if (best)
			snprintf(mean, sizeof(mean), "did you mean '%s'? ", best);
		r = np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "unknown policy '%.40s' (%svalid: %s)",
			   name, mean, valid);
		if (names)
			np_list_free(names, n);
	}
	return r;
}
