/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulated machine's model file (netpolicy-model(5)): parsed strictly
 * into np_sim_model, re-read when someone else replaced it, and saved back
 * atomically after every change, keeping top-level keys we do not model.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json_object_iterator.h>

#include "np_sim.h"

void np_sim_model_clear(struct np_sim_model *m)
{
	json_object_put(m->root);
	np_topology_clear(&m->topo);
	np_pm_clear(&m->pm);
	for (size_t i = 0; i < m->n_devs; i++)
		np_dev_clear(&m->devs[i]);
	free(m->devs);
	free(m->faults);
	free(m->managed);
	memset(m, 0, sizeof(*m));
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* topology and sysctl at the top, or (a model wrapping `show --json`
 * output as it is) inside the first device. */
static struct json_object *part(struct json_object *root, struct json_object *devs,
				const char *key, char *path, size_t len)
{
	struct json_object *v, *d0;

	snprintf(path, len, "%s", key);
	if (json_object_object_get_ex(root, key, &v))
		return v;
	if (json_object_array_length(devs) &&
	    (d0 = json_object_array_get_idx(devs, 0)) &&
	    json_object_object_get_ex(d0, key, &v)) {
		snprintf(path, len, "devices[0].%s", key);
		return v;
	}
	return NULL;
}

static int parse_devices(struct np_sim_model *m, struct json_object *devs, struct np_error *err)
{
	size_t n = json_object_array_length(devs);
	char p[48];
	int r;

	if (n && !(m->devs = calloc(n, sizeof(*m->devs))))
		return np_err(err, -ENOMEM, NP_PHASE_INPUT, NULL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct np_dev *d = &m->devs[i];

		snprintf(p, sizeof(p), "devices[%zu]", i);
		r = np_dev_from_json(json_object_array_get_idx(devs, i), p, &m->topo, d, err);
		if (r < 0)
			return r;
		m->n_devs++;
		r = np_dev_check(d, p, &m->topo, err);
		if (r < 0)
			return r;
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(m->devs[j].ifname, d->ifname))
				return np_sim_bad(err, p, "ifname: '%s' is listed twice", d->ifname);
			for (unsigned a = 0; a < d->n_irq; a++)
				for (unsigned b = 0; b < m->devs[j].n_irq; b++)
					if (d->irq[a].irq == m->devs[j].irq[b].irq)
						return np_sim_bad(err, p, "irqs[%u].irq: IRQ %u also belongs "
							    "to devices[%zu]", a, d->irq[a].irq, j);
		}
	}
	return 0;
}

static int parse_model(const char *text, size_t len, struct np_sim_model *m, struct np_error *err)
{
	struct json_object *v, *devs;
	char p[48];
	int r;

	r = np_json_parse(text, len, &m->root, err);
	if (r < 0)
		return r;
	if (!json_object_is_type(m->root, json_type_object))
		return np_sim_bad(err, "(top level)", "expected an object");
	if (!json_object_object_get_ex(m->root, "netpolicy_model", &v) ||
	    !json_object_is_type(v, json_type_int) || json_object_get_int64(v) != 1)
		return np_sim_bad(err, "netpolicy_model", "expected 1 (is this a netpolicy model?)");
	if (!json_object_object_get_ex(m->root, "devices", &devs) ||
	    !json_object_is_type(devs, json_type_array))
		return np_sim_bad(err, "devices", "expected an array");
	v = part(m->root, devs, "topology", p, sizeof(p));
	if (!v)
		return np_sim_bad(err, "topology", "missing");
	r = np_topology_from_json(v, p, &m->topo, err);
	if (r < 0)
		return r;
	for (unsigned c = 0; c < m->topo.nr_cpus; c++)
		if (m->topo.nr_nodes && (unsigned)m->topo.cpus[c].node >= m->topo.nr_nodes)
			return np_sim_bad(err, p, "cpus[%u].node: node %d is not in nodes", c,
				    m->topo.cpus[c].node);
	v = part(m->root, devs, "sysctl", p, sizeof(p));
	if (!v)
		return np_sim_bad(err, "sysctl", "missing");
	r = np_sysctl_from_json(v, p, &m->sys, err);
	if (r < 0)
		return r;
	/* optional: a machine whose model does not say has none to plan */
	m->pm.err = -ENODATA;
	v = part(m->root, devs, "pm_qos", p, sizeof(p));
	if (v && (r = np_pm_from_json(v, p, m->topo.nr_cpus, &m->pm, err)) < 0)
		return r;
	r = parse_devices(m, devs, err);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(m->root, "driver_rules", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			return np_sim_bad(err, "driver_rules", "expected true or false");
		m->no_driver_rules = !json_object_get_boolean(v);
	}
	return np_sim_faults_parse(m, err);
}

/* The model's text, from its file or from memory: one parser for both. */
static int load_text(struct np_sim *s, const char *text, size_t len, const struct stat *sb,
		     struct np_error *err)
{
	struct np_error e;
	struct np_sim_model m;
	int r;

	memset(&m, 0, sizeof(m));
	np_error_clear(&e);
	r = parse_model(text, len, &m, &e);
	if (r < 0) {
		np_sim_model_clear(&m);
		np_err(err, r, NP_PHASE_INPUT, NULL, "model %s: %s", base_name(s->path), e.msg);
		return r;
	}
	np_sim_model_clear(&s->m);
	s->m = m;
	s->sb = *sb;
	s->loaded = true;
	return 0;
}

int np_sim_load(struct np_sim *s, struct np_error *err)
{
	struct stat sb;
	char *text = NULL;
	size_t len = 0;
	int r;

	if (s->text) {
		memset(&sb, 0, sizeof(sb));
		if (s->text_len > NP_MODEL_MAX_SIZE)
			return np_err(err, -EFBIG, NP_PHASE_INPUT, NULL, "model %s: %s", s->path,
				      np_text_file_strerror(-EFBIG));
		return load_text(s, s->text, s->text_len, &sb, err);
	}
	r = stat(s->path, &sb) < 0 ? -errno :
	    np_text_file_read(AT_FDCWD, s->path, NP_MODEL_MAX_SIZE, &text, &len);
	if (r < 0)
		return np_err(err, r, NP_PHASE_INPUT, NULL, "model %s: %s", s->path,
			      np_text_file_strerror(r));
	r = load_text(s, text, len, &sb, err);
	free(text);
	return r;
}

/* Pick up a model file someone else (another netpolicy process, a test)
 * replaced since we last read or wrote it. */
int np_sim_sync(struct np_sim *s, struct np_error *err)
{
	struct stat sb;

	if (s->text)	/* nobody else can replace it */
		return s->loaded ? 0 : np_sim_load(s, err);
	if (stat(s->path, &sb) < 0)
		return np_err(err, -errno, NP_PHASE_INPUT, NULL, "model %s: %s", s->path,
			      strerror(errno));
	if (s->loaded && sb.st_dev == s->sb.st_dev && sb.st_ino == s->sb.st_ino &&
	    sb.st_size == s->sb.st_size && sb.st_mtim.tv_sec == s->sb.st_mtim.tv_sec &&
	    sb.st_mtim.tv_nsec == s->sb.st_mtim.tv_nsec)
		return 0;
	return np_sim_load(s, err);
}

/* --- saving ----------------------------------------------------------------- */

static bool our_key(const char *k)
{
	static const char *const keys[] = { "netpolicy_model", "topology", "sysctl", "pm_qos", "devices",
					    "faults", "calls" };

	for (size_t i = 0; i < NP_ARRAY_SIZE(keys); i++)
		if (!strcmp(k, keys[i]))
			return true;
	return false;
}

static struct json_object *model_json(const struct np_sim_model *m)
{
	struct json_object_iterator it, end;
	struct json_object *o = json_object_new_object(), *devs, *faults;
	int r = 0;

	if (!o)
		return NULL;
	r |= np_sim_json_add(o, "netpolicy_model", json_object_new_int(1));
	it = json_object_iter_begin(m->root);
	end = json_object_iter_end(m->root);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *k = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it);

		if (!our_key(k) && json_object_object_add(o, k, json_object_get(v)) < 0) {
			json_object_put(v);
			r = -ENOMEM;
		}
	}
	r |= np_sim_json_add(o, "topology", np_topology_to_json(&m->topo));
	r |= np_sim_json_add(o, "sysctl", np_sysctl_to_json(&m->sys));
	if (!m->pm.err)
		r |= np_sim_json_add(o, "pm_qos", np_pm_to_json(&m->pm, &m->topo.online));
	devs = json_object_new_array();
	for (size_t i = 0; devs && i < m->n_devs; i++) {
		struct json_object *d = np_dev_to_json(&m->devs[i]);

		if (!d || json_object_array_add(devs, d) < 0) {
			json_object_put(d);
			r = -ENOMEM;
		}
	}
	r |= np_sim_json_add(o, "devices", devs);
	if (json_object_object_get_ex(m->root, "faults", &faults))
		r |= np_sim_json_add(o, "faults", json_object_get(faults));
	r |= np_sim_calls_add(o, m);
	if (r) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* temp file + fsync + rename + fsync of the directory: a crash leaves the
 * old model or the new one, never half of one. */
static int write_atomic(const char *path, const char *text, mode_t mode)
{
	size_t len = strlen(path);
	char *tmp, *dir, *slash;
	int fd, r = 0;

	tmp = malloc(len + 8);
	dir = malloc(len + 2);
	if (!tmp || !dir) {
		free(tmp);
		free(dir);
		return -ENOMEM;
	}
	snprintf(tmp, len + 8, "%s.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	if (fchmod(fd, mode & 07777) < 0 || (r = np_write_all(fd, text, strlen(text))) < 0 ||
	    np_write_all(fd, "\n", 1) < 0 || fsync(fd) < 0)
		r = r ? r : -errno;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!r && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		goto out;
	}
	memcpy(dir, path, len + 1);
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		if (fsync(fd) < 0)
			r = -errno;
		close(fd);
	}
out:
	free(tmp);
	free(dir);
	return r;
}

int np_sim_save(struct np_sim *s, struct np_error *err)
{
	struct json_object *o;
	const char *text = NULL;
	int r;

	o = model_json(&s->m);
	if (o)
		text = np_json_text(o, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_SPACED |
						      JSON_C_TO_STRING_NOSLASHESCAPE);
	/* json-c returns NULL when it cannot allocate the text */
	/* a model in memory: the same document, kept there */
	r = !text ? -ENOMEM : s->text ? 0 : write_atomic(s->path, text, s->sb.st_mode);
	json_object_put(o);
	if (r == 0 && !s->text && stat(s->path, &s->sb) < 0)
		r = -errno;
	if (r < 0) {
		/* memory now differs from the file: re-read it on the next call */
		s->loaded = false;
		return np_err(err, r, NP_PHASE_APPLY, NULL, "cannot save model %s: %s", s->path,
			      strerror(-r));
	}
	return 0;
}
