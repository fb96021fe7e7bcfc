/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulated backend: a machine model (JSON, netpolicy-model(5)) that
 * behaves like real drivers do -- limits enforced with the kernel's error
 * codes and extack texts, queues appearing and vanishing with channel
 * counts, IRQ affinity and XPS reset when queues are reopened, values
 * rounded the way the kernel rounds them -- plus injected faults for the
 * apply engine's tests.  Every change is saved back to the model file
 * (atomically), so a sequence of CLI commands sees its own changes; the
 * file is re-read whenever someone else replaced it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json_object_iterator.h>

#include "np_drivers.h"
#include "np_serialize.h"

/* A model of 2048 CPUs and a few devices of 1024 queues is a few MiB. */
#define NP_MODEL_MAX_SIZE (16u << 20)

enum op {
	OP_DISCOVER,
	OP_SET_CHANNELS,
	OP_SET_RINGS,
	OP_SET_COALESCE,
	OP_SET_FEATURE,
	OP_SET_RSS_INDIR,
	OP_WRITE_ATTR,
	OP__COUNT
};

static const char *const op_names[OP__COUNT] = {
	[OP_DISCOVER] = "discover",
	[OP_SET_CHANNELS] = "set_channels",
	[OP_SET_RINGS] = "set_rings",
	[OP_SET_COALESCE] = "set_coalesce",
	[OP_SET_FEATURE] = "set_feature",
	[OP_SET_RSS_INDIR] = "set_rss_indir",
	[OP_WRITE_ATTR] = "write_attr",
};

enum mode { MODE_FAIL, MODE_IGNORE, MODE_ROUND, MODE_VANISH };

static const char *const mode_names[] = {
	[MODE_FAIL] = "fail",
	[MODE_IGNORE] = "ignore",
	[MODE_ROUND] = "round",
	[MODE_VANISH] = "vanish",
};

struct fault {
	enum op op;
	uint64_t after;		/* fires on the call that finds calls[op] == after */
	enum mode mode;
	int code;		/* MODE_FAIL: negative errno */
	char extack[200];
	char device[IFNAMSIZ];	/* "" = any device */
};

struct model {
	struct json_object *root;	/* as loaded: top-level keys we do not model survive a save */
	struct np_topology topo;
	struct np_sysctl sys;
	struct np_dev *devs;
	size_t n_devs;
	struct fault *faults;
	size_t n_faults;
	uint64_t calls[OP__COUNT];	/* counted only for ops that have faults */
	/* "driver_rules": false: the model's devices take whatever their
	 * ethtool data allows, not what np_drivers.h says the driver does */
	bool no_driver_rules;
};

struct sim {
	struct np_backend be;
	char *path;
	struct model m;
	bool loaded;
	bool dirty;		/* the model changed (or a fault counter moved): save it */
	struct stat sb;		/* of the file as we last loaded or saved it */
};

static struct sim *sim_of(struct np_backend *be)
{
	return (struct sim *)be;
}

static void model_clear(struct model *m)
{
	json_object_put(m->root);
	np_topology_clear(&m->topo);
	for (size_t i = 0; i < m->n_devs; i++)
		np_dev_clear(&m->devs[i]);
	free(m->devs);
	free(m->faults);
	memset(m, 0, sizeof(*m));
}

/* --- loading -------------------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int mbad(struct np_error *err, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int mbad(struct np_error *err, const char *path, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "%s: %s", path, what);
}

static int parse_fault(struct json_object *o, const char *p, struct fault *f, struct np_error *err)
{
	struct json_object *v;
	const char *s;
	size_t i;

	memset(f, 0, sizeof(*f));
	f->code = -EIO;
	if (!json_object_is_type(o, json_type_object))
		return mbad(err, p, "expected an object");
	if (!json_object_object_get_ex(o, "op", &v) || !json_object_is_type(v, json_type_string))
		return mbad(err, p, "op: expected one of discover, set_channels, set_rings, "
			    "set_coalesce, set_feature, set_rss_indir, write_attr");
	s = json_object_get_string(v);
	for (i = 0; i < OP__COUNT && strcmp(s, op_names[i]); i++)
		;
	if (i == OP__COUNT)
		return mbad(err, p, "op: unknown operation '%.40s'", s);
	f->op = (enum op)i;
	if (json_object_object_get_ex(o, "after", &v)) {
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
			return mbad(err, p, "after: expected an integer >= 0");
		f->after = (uint64_t)json_object_get_int64(v);
	}
	if (json_object_object_get_ex(o, "mode", &v)) {
		s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
		for (i = 0; i < NP_ARRAY_SIZE(mode_names) && strcmp(s, mode_names[i]); i++)
			;
		if (i == NP_ARRAY_SIZE(mode_names))
			return mbad(err, p, "mode: expected \"fail\", \"ignore\", \"round\" or \"vanish\"");
		f->mode = (enum mode)i;
	}
	if (f->mode == MODE_ROUND && f->op != OP_SET_CHANNELS && f->op != OP_SET_RINGS &&
	    f->op != OP_SET_COALESCE && f->op != OP_WRITE_ATTR)
		return mbad(err, p, "mode: \"round\" needs an operation with numeric values");
	if (f->mode == MODE_IGNORE && f->op == OP_DISCOVER)
		return mbad(err, p, "mode: discover cannot \"ignore\"");
	if (json_object_object_get_ex(o, "errno", &v)) {
		int e = 0;

		if (json_object_is_type(v, json_type_int))
			e = json_object_get_int64(v) > 0 && json_object_get_int64(v) < 4096 ?
				    (int)json_object_get_int64(v) : 0;
		else if (json_object_is_type(v, json_type_string))
			e = np_errno_parse(json_object_get_string(v));
		if (!e)
			return mbad(err, p, "errno: expected a name like \"EBUSY\" or a number");
		f->code = -e;
	}
	if (json_object_object_get_ex(o, "extack", &v)) {
		if (!json_object_is_type(v, json_type_string) ||
		    json_object_get_string_len(v) >= (int)sizeof(f->extack))
			return mbad(err, p, "extack: expected a string of at most %zu characters",
				    sizeof(f->extack) - 1);
		snprintf(f->extack, sizeof(f->extack), "%s", json_object_get_string(v));
	}
	if (json_object_object_get_ex(o, "device", &v)) {
		if (!json_object_is_type(v, json_type_string) ||
		    np_ifname_validate(json_object_get_string(v), NULL) < 0)
			return mbad(err, p, "device: expected a device name");
		snprintf(f->device, sizeof(f->device), "%s", json_object_get_string(v));
	}
	return 0;
}

static int parse_faults(struct model *m, struct np_error *err)
{
	struct json_object *arr, *calls;
	char p[48];
	size_t n;
	int r;

	if (json_object_object_get_ex(m->root, "faults", &arr)) {
		if (!json_object_is_type(arr, json_type_array))
			return mbad(err, "faults", "expected an array");
		n = json_object_array_length(arr);
		if (n && !(m->faults = calloc(n, sizeof(*m->faults))))
			return np_err(err, -ENOMEM, NP_PHASE_INPUT, NULL, "out of memory");
		for (size_t i = 0; i < n; i++) {
			snprintf(p, sizeof(p), "faults[%zu]", i);
			r = parse_fault(json_object_array_get_idx(arr, i), p, &m->faults[i], err);
			if (r < 0)
				return r;
			m->n_faults++;
		}
	}
	if (json_object_object_get_ex(m->root, "calls", &calls)) {
		if (!json_object_is_type(calls, json_type_object))
			return mbad(err, "calls", "expected an object");
		for (size_t i = 0; i < OP__COUNT; i++) {
			struct json_object *v;

			if (!json_object_object_get_ex(calls, op_names[i], &v))
				continue;
			if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
				return mbad(err, "calls", "%s: expected an integer >= 0", op_names[i]);
			m->calls[i] = (uint64_t)json_object_get_int64(v);
		}
	}
	return 0;
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

static int parse_devices(struct model *m, struct json_object *devs, struct np_error *err)
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
				return mbad(err, p, "ifname: '%s' is listed twice", d->ifname);
			for (unsigned a = 0; a < d->n_irq; a++)
				for (unsigned b = 0; b < m->devs[j].n_irq; b++)
					if (d->irq[a].irq == m->devs[j].irq[b].irq)
						return mbad(err, p, "irqs[%u].irq: IRQ %u also belongs "
							    "to devices[%zu]", a, d->irq[a].irq, j);
		}
	}
	return 0;
}

static int parse_model(const char *text, size_t len, struct model *m, struct np_error *err)
{
	struct json_object *v, *devs;
	char p[48];
	int r;

	r = np_json_parse(text, len, &m->root, err);
	if (r < 0)
		return r;
	if (!json_object_is_type(m->root, json_type_object))
		return mbad(err, "(top level)", "expected an object");
	if (!json_object_object_get_ex(m->root, "netpolicy_model", &v) ||
	    !json_object_is_type(v, json_type_int) || json_object_get_int64(v) != 1)
		return mbad(err, "netpolicy_model", "expected 1 (is this a netpolicy model?)");
	if (!json_object_object_get_ex(m->root, "devices", &devs) ||
	    !json_object_is_type(devs, json_type_array))
		return mbad(err, "devices", "expected an array");
	v = part(m->root, devs, "topology", p, sizeof(p));
	if (!v)
		return mbad(err, "topology", "missing");
	r = np_topology_from_json(v, p, &m->topo, err);
	if (r < 0)
		return r;
	for (unsigned c = 0; c < m->topo.nr_cpus; c++)
		if (m->topo.nr_nodes && (unsigned)m->topo.cpus[c].node >= m->topo.nr_nodes)
			return mbad(err, p, "cpus[%u].node: node %d is not in nodes", c,
				    m->topo.cpus[c].node);
	v = part(m->root, devs, "sysctl", p, sizeof(p));
	if (!v)
		return mbad(err, "sysctl", "missing");
	r = np_sysctl_from_json(v, p, &m->sys, err);
	if (r < 0)
		return r;
	r = parse_devices(m, devs, err);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(m->root, "driver_rules", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			return mbad(err, "driver_rules", "expected true or false");
		m->no_driver_rules = !json_object_get_boolean(v);
	}
	return parse_faults(m, err);
}

static int load(struct sim *s, struct np_error *err)
{
	struct np_error e;
	struct model m;
	struct stat sb;
	char *text = NULL;
	size_t len = 0;
	int r;

	memset(&m, 0, sizeof(m));
	np_error_clear(&e);
	r = stat(s->path, &sb) < 0 ? -errno :
	    np_text_file_read(AT_FDCWD, s->path, NP_MODEL_MAX_SIZE, &text, &len);
	if (r < 0)
		return np_err(err, r, NP_PHASE_INPUT, NULL, "model %s: %s", s->path,
			      np_text_file_strerror(r));
	r = parse_model(text, len, &m, &e);
	free(text);
	if (r < 0) {
		model_clear(&m);
		np_err(err, r, NP_PHASE_INPUT, NULL, "model %s: %s", base_name(s->path), e.msg);
		return r;
	}
	model_clear(&s->m);
	s->m = m;
	s->sb = sb;
	s->loaded = true;
	return 0;
}

/* Pick up a model file someone else (another netpolicy process, a test)
 * replaced since we last read or wrote it. */
static int sync_model(struct sim *s, struct np_error *err)
{
	struct stat sb;

	if (stat(s->path, &sb) < 0)
		return np_err(err, -errno, NP_PHASE_INPUT, NULL, "model %s: %s", s->path,
			      strerror(errno));
	if (s->loaded && sb.st_dev == s->sb.st_dev && sb.st_ino == s->sb.st_ino &&
	    sb.st_size == s->sb.st_size && sb.st_mtim.tv_sec == s->sb.st_mtim.tv_sec &&
	    sb.st_mtim.tv_nsec == s->sb.st_mtim.tv_nsec)
		return 0;
	return load(s, err);
}

/* --- saving ----------------------------------------------------------------- */

static bool our_key(const char *k)
{
	static const char *const keys[] = { "netpolicy_model", "topology", "sysctl", "devices",
					    "faults", "calls" };

	for (size_t i = 0; i < NP_ARRAY_SIZE(keys); i++)
		if (!strcmp(k, keys[i]))
			return true;
	return false;
}

static int add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v || json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static struct json_object *model_json(const struct model *m)
{
	struct json_object_iterator it, end;
	struct json_object *o = json_object_new_object(), *devs, *calls, *faults;
	int r = 0;

	if (!o)
		return NULL;
	r |= add(o, "netpolicy_model", json_object_new_int(1));
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
	r |= add(o, "topology", np_topology_to_json(&m->topo));
	r |= add(o, "sysctl", np_sysctl_to_json(&m->sys));
	devs = json_object_new_array();
	for (size_t i = 0; devs && i < m->n_devs; i++) {
		struct json_object *d = np_dev_to_json(&m->devs[i]);

		if (!d || json_object_array_add(devs, d) < 0) {
			json_object_put(d);
			r = -ENOMEM;
		}
	}
	r |= add(o, "devices", devs);
	if (json_object_object_get_ex(m->root, "faults", &faults))
		r |= add(o, "faults", json_object_get(faults));
	calls = json_object_new_object();
	for (size_t i = 0; calls && i < OP__COUNT; i++)
		if (m->calls[i])
			r |= add(calls, op_names[i], json_object_new_int64((int64_t)m->calls[i]));
	if (calls && json_object_object_length(calls))
		r |= add(o, "calls", calls);
	else
		json_object_put(calls);
	if (r) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int write_all(int fd, const char *text)
{
	size_t len = strlen(text), off = 0;

	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		off += (size_t)n;
	}
	return 0;
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
	if (fchmod(fd, mode & 07777) < 0 || (r = write_all(fd, text)) < 0 ||
	    write_all(fd, "\n") < 0 || fsync(fd) < 0)
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

static int save(struct sim *s, struct np_error *err)
{
	struct json_object *o;
	int r;

	o = model_json(&s->m);
	if (!o)
		r = -ENOMEM;
	else
		r = write_atomic(s->path, json_object_to_json_string_ext(o,
				 JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				 JSON_C_TO_STRING_NOSLASHESCAPE),
				 s->sb.st_mode);
	json_object_put(o);
	if (r == 0 && stat(s->path, &s->sb) < 0)
		r = -errno;
	if (r < 0) {
		/* memory now differs from the file: re-read it on the next call */
		s->loaded = false;
		return np_err(err, r, NP_PHASE_APPLY, NULL, "cannot save model %s: %s", s->path,
			      strerror(-r));
	}
	return 0;
}

/* --- calls, faults, errors ------------------------------------------------- */

/* Fail like a driver: the kernel's text both as our message and as extack. */
static int fail(struct np_error *err, enum np_phase phase, const char *knob, int code,
		const char *extack)
{
	bool first = err && !err->code;

	np_err(err, code, phase, knob, "%s", extack ? extack : strerror(-code));
	if (first && extack)
		np_err_extack(err, extack);
	return code;
}

static struct np_dev *find_dev(struct model *m, const char *ifname)
{
	for (size_t i = 0; i < m->n_devs; i++)
		if (!strcmp(m->devs[i].ifname, ifname))
			return &m->devs[i];
	return NULL;
}

static void remove_dev(struct model *m, struct np_dev *d)
{
	size_t i = (size_t)(d - m->devs);

	np_dev_clear(d);
	memmove(d, d + 1, (m->n_devs - i - 1) * sizeof(*d));
	m->n_devs--;
}

struct call {
	enum op op;
	enum np_phase phase;
	const char *knob;
	struct np_dev *dev;		/* NULL when the device is gone */
	const struct fault *fault;	/* an "ignore" or "round" fault that fired */
};

/*
 * Start an operation: the current model, the call counted, the device
 * looked up, a fault fired.  "fail" and "vanish" end the call here; the
 * others are left to the operation, which validates first (a driver that
 * rounds still refuses what it cannot do).
 */
static int begin(struct sim *s, struct call *c, const char *ifname, bool need_dev,
		 struct np_error *err)
{
	const struct fault *hit = NULL;
	bool counted = false;
	int r;

	r = sync_model(s, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < s->m.n_faults; i++) {
		const struct fault *f = &s->m.faults[i];

		if (f->op != c->op)
			continue;
		counted = true;
		if (!hit && f->after == s->m.calls[c->op] &&
		    (!f->device[0] || !strcmp(f->device, ifname)))
			hit = f;
	}
	if (counted) {
		s->m.calls[c->op]++;
		s->dirty = true;
	}
	c->dev = find_dev(&s->m, ifname);
	if (!c->dev && need_dev)
		return np_err(err, -ENODEV, c->phase, NULL, "no such device");
	if (hit && hit->mode == MODE_FAIL)
		return fail(err, c->phase, c->knob, hit->code, hit->extack[0] ? hit->extack : NULL);
	if (hit && hit->mode == MODE_VANISH) {
		if (c->dev) {
			remove_dev(&s->m, c->dev);
			c->dev = NULL;
			s->dirty = true;
		}
		return np_err(err, -ENODEV, c->phase, NULL, "no such device");
	}
	c->fault = hit;
	return 0;
}

static bool fault_is(const struct call *c, enum mode mode)
{
	return c->fault && c->fault->mode == mode;
}

static int finish(struct sim *s, int r, struct np_error *err)
{
	if (s->dirty) {
		int q;

		s->dirty = false;
		q = save(s, r < 0 ? NULL : err);
		if (r >= 0)
			r = q;
	}
	return r;
}

static uint32_t roundup_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v && p < (1u << 31))
		p <<= 1;
	return v ? p : 0;
}

static void lowest_only(struct np_cpumask *m)
{
	int first = np_cpumask_next(m, 0);

	np_cpumask_zero(m);
	if (first >= 0)
		np_cpumask_set(m, (unsigned)first);
}

/* --- discover and list ------------------------------------------------------- */

static bool no_channel_setter(const struct sim *s, const struct np_dev *d)
{
	const struct np_driver *drv = np_driver_lookup(d->driver);

	return d->channels.fixed || (!s->m.no_driver_rules && drv && drv->no_set_channels);
}

static int sim_discover(struct np_backend *be, const char *ifname, struct np_state *st,
			struct np_error *err)
{
	struct sim *s = sim_of(be);
	struct call c = { .op = OP_DISCOVER, .phase = NP_PHASE_DISCOVER };
	struct np_state tmp;
	int r;

	r = begin(s, &c, ifname, true, err);
	if (r < 0)
		return finish(s, r, err);
	memset(&tmp, 0, sizeof(tmp));
	if (np_topology_copy(&tmp.topo, &s->m.topo) < 0 || np_dev_copy(&tmp.dev, c.dev) < 0) {
		np_state_clear(&tmp);
		return finish(s, np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory"), err);
	}
	tmp.sys = s->m.sys;
	/* what the kernel backend's settability probe finds on such a driver */
	if (no_channel_setter(s, &tmp.dev))
		tmp.dev.channels.fixed = true;
	np_state_clear(st);
	*st = tmp;
	return finish(s, 0, err);
}

static int sim_list(struct np_backend *be, char ***ret, size_t *ret_n, struct np_error *err)
{
	struct sim *s = sim_of(be);
	char **names;
	int r;

	r = sync_model(s, err);
	if (r < 0)
		return r;
	names = calloc(s->m.n_devs + 1, sizeof(*names));
	if (!names)
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	for (size_t i = 0; i < s->m.n_devs; i++) {
		names[i] = strdup(s->m.devs[i].ifname);
		if (!names[i]) {
			np_list_free(names, i);
			return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
		}
	}
	*ret = names;
	*ret_n = s->m.n_devs;
	return 0;
}

/* --- channels ------------------------------------------------------------------ */

static bool rss_user_set(const struct np_rss *r)
{
	if (r->err || !r->indir_size || !r->rx_rings)
		return false;
	/* The kernel remembers a flag; the model has only the table, and a
	 * table equal to the driver's default spread is what clearing the
	 * flag ("ethtool -X DEV default") leaves behind. */
	for (uint32_t i = 0; i < r->indir_size; i++)
		if (r->indir[i] != i % r->rx_rings)
			return true;
	return false;
}

static uint32_t rss_max_queue(const struct np_rss *r)
{
	uint32_t max = 0;

	for (uint32_t i = 0; i < r->indir_size; i++)
		if (r->indir[i] > max)
			max = r->indir[i];
	return max;
}

/* New queues start with empty masks, like fresh queues/rx-N directories;
 * a file the model cannot read on queue 0 is unreadable on new ones too. */
static int resize_queues(struct np_dev *d, unsigned nrx, unsigned ntx)
{
	struct np_rxq *rx = calloc(nrx ? nrx : 1, sizeof(*rx));
	struct np_txq *tx = calloc(ntx ? ntx : 1, sizeof(*tx));

	if (!rx || !tx) {
		free(rx);
		free(tx);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nrx; i++) {
		if (i < d->n_rxq) {
			rx[i] = d->rxq[i];
		} else if (d->n_rxq) {
			rx[i].rps_err = d->rxq[0].rps_err;
			rx[i].flow_err = d->rxq[0].flow_err;
		}
	}
	for (unsigned i = 0; i < ntx; i++) {
		if (i < d->n_txq) {
			tx[i] = d->txq[i];
		} else if (d->n_txq) {
			tx[i].xps_err = d->txq[0].xps_err;
			tx[i].xps_rxqs_err = d->txq[0].xps_rxqs_err;
		}
	}
	free(d->rxq);
	free(d->txq);
	d->rxq = rx;
	d->txq = tx;
	d->n_rxq = nrx;
	d->n_txq = ntx;
	return 0;
}

/* What virtio_net's virtnet_set_affinity() does: online CPUs in blocks of
 * online/queues (the first online % queues queues get one more), wrapping
 * around when there are more queues than CPUs. */
static void xps_default(const struct np_topology *t, struct np_dev *d)
{
	unsigned n_online = np_cpumask_weight(&t->online), stride, stragglers, pos = 0;
	unsigned *cpus;

	for (unsigned q = 0; q < d->n_txq; q++)
		if (!d->txq[q].xps_err) {
			np_cpumask_zero(&d->txq[q].xps_cpus);
			np_cpumask_zero(&d->txq[q].xps_rxqs);
		}
	if (!n_online || !d->n_txq || !(cpus = calloc(n_online, sizeof(*cpus))))
		return;
	np_cpumask_for_each(cpu, &t->online)
		cpus[pos++] = (unsigned)cpu;
	stride = n_online / d->n_txq ? n_online / d->n_txq : 1;
	stragglers = n_online >= d->n_txq ? n_online % d->n_txq : 0;
	pos = 0;
	for (unsigned q = 0; q < d->n_txq; q++) {
		unsigned size = stride + (q < stragglers ? 1 : 0);

		for (unsigned j = 0; j < size; j++, pos++)
			if (!d->txq[q].xps_err)
				np_cpumask_set(&d->txq[q].xps_cpus, cpus[pos % n_online]);
	}
	free(cpus);
}

/* Re-requested vectors come back with the default affinity (all online
 * CPUs); x86 then targets one CPU of it. */
static void irq_reset(const struct np_topology *t, struct np_dev *d)
{
	int first = np_cpumask_next(&t->online, 0);

	for (unsigned i = 0; i < d->n_irq; i++) {
		struct np_irq *q = &d->irq[i];

		if (q->kind == NP_IRQ_OTHER || q->err)
			continue;
		q->affinity = t->online;
		np_cpumask_zero(&q->effective);
		if (first >= 0)
			np_cpumask_set(&q->effective, (unsigned)first);
	}
}

static int channels(struct sim *s, struct call *c, const struct np_channels *want,
		    struct np_error *err)
{
	struct np_dev *d = c->dev;
	struct np_channels n = d->channels;
	unsigned nrx, ntx;

	if (n.err)
		return fail(err, c->phase, c->knob, n.err, NULL);
	/* the ethtool core checks for the setter before anything else */
	if (no_channel_setter(s, d))
		return fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	if (want->rx > n.max_rx || want->tx > n.max_tx || want->other > n.max_other ||
	    want->combined > n.max_combined)
		return fail(err, c->phase, c->knob, -EINVAL, "requested channel count exceeds maximum");
	if (!want->combined && (!want->rx || !want->tx))
		return fail(err, c->phase, c->knob, -EINVAL,
			    "requested channel counts would result in no RX or TX channel being configured");
	if (want->rx == n.rx && want->tx == n.tx && want->other == n.other &&
	    want->combined == n.combined)
		return 0;	/* the kernel does not call the driver at all */
	if (rss_user_set(&d->rss) && rss_max_queue(&d->rss) >= want->rx + want->combined)
		return fail(err, c->phase, c->knob, -EINVAL,
			    "requested channel count is too low for existing indirection table settings");
	if (fault_is(c, MODE_IGNORE))
		return 0;
	n.rx = want->rx;
	n.tx = want->tx;
	n.other = want->other;
	n.combined = want->combined;
	if (fault_is(c, MODE_ROUND)) {
		n.rx = roundup_pow2(n.rx) < n.max_rx ? roundup_pow2(n.rx) : n.max_rx;
		n.tx = roundup_pow2(n.tx) < n.max_tx ? roundup_pow2(n.tx) : n.max_tx;
		n.other = roundup_pow2(n.other) < n.max_other ? roundup_pow2(n.other) : n.max_other;
		n.combined = roundup_pow2(n.combined) < n.max_combined ? roundup_pow2(n.combined) :
									  n.max_combined;
	}
	nrx = n.rx + n.combined;
	ntx = n.tx + n.combined;
	if (nrx > d->num_rx_queues || ntx > d->num_tx_queues)
		return fail(err, c->phase, c->knob, -EINVAL, "requested channel count exceeds maximum");
	if (resize_queues(d, nrx, ntx) < 0)
		return np_err(err, -ENOMEM, c->phase, c->knob, "out of memory");
	d->channels = n;
	if (!d->rss.err && d->rss.indir_size) {
		bool user = rss_user_set(&d->rss);

		d->rss.rx_rings = nrx;
		/* a user-set table survives; the default one is re-spread */
		if (!user && nrx)
			for (uint32_t i = 0; i < d->rss.indir_size; i++)
				d->rss.indir[i] = i % nrx;
	} else if (!d->rss.err) {
		d->rss.rx_rings = nrx;
	}
	irq_reset(&s->m.topo, d);
	xps_default(&s->m.topo, d);
	s->dirty = true;
	return 0;
}

static int sim_set_channels(struct np_backend *be, const struct np_dev *dev,
			    const struct np_channels *want, struct np_error *err)
{
	struct sim *s = sim_of(be);
	struct call c = { .op = OP_SET_CHANNELS, .phase = NP_PHASE_APPLY, .knob = "channels" };
	int r = begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = channels(s, &c, want, err);
	return finish(s, r, err);
}

/* --- rings, coalesce, features, RSS -------------------------------------------- */

static uint32_t round_ring(uint32_t v, uint32_t max)
{
	uint32_t p = roundup_pow2(v);

	return p < max ? p : max;
}

static int rings(struct sim *s, struct call *c, const struct np_rings *want, struct np_error *err)
{
	struct np_rings *n = &c->dev->rings;

	if (n->err)
		return fail(err, c->phase, c->knob, n->err, NULL);
	if (n->fixed)
		return fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	if (want->rx > n->max_rx || want->rx_mini > n->max_rx_mini ||
	    want->rx_jumbo > n->max_rx_jumbo || want->tx > n->max_tx)
		return fail(err, c->phase, c->knob, -EINVAL, "requested ring size exceeds maximum");
	if (want->rx == n->rx && want->rx_mini == n->rx_mini && want->rx_jumbo == n->rx_jumbo &&
	    want->tx == n->tx)
		return 0;
	if (fault_is(c, MODE_IGNORE))
		return 0;
	n->rx = want->rx;
	n->rx_mini = want->rx_mini;
	n->rx_jumbo = want->rx_jumbo;
	n->tx = want->tx;
	if (fault_is(c, MODE_ROUND)) {
		n->rx = round_ring(n->rx, n->max_rx);
		n->rx_mini = round_ring(n->rx_mini, n->max_rx_mini);
		n->rx_jumbo = round_ring(n->rx_jumbo, n->max_rx_jumbo);
		n->tx = round_ring(n->tx, n->max_tx);
	}
	s->dirty = true;
	return 0;
}

static int sim_set_rings(struct np_backend *be, const struct np_dev *dev,
			 const struct np_rings *want, struct np_error *err)
{
	struct sim *s = sim_of(be);
	struct call c = { .op = OP_SET_RINGS, .phase = NP_PHASE_APPLY, .knob = "rings" };
	int r = begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = rings(s, &c, want, err);
	return finish(s, r, err);
}

static bool coal_bool(int f)
{
	return f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX || f == NP_COAL_CQE_MODE_RX ||
	       f == NP_COAL_CQE_MODE_TX;
}

static int coalesce(struct sim *s, struct call *c, const struct np_coalesce *want,
		    uint32_t fields, struct np_error *err)
{
	struct np_coalesce *n = &c->dev->coalesce;
	uint32_t val[NP_COAL__COUNT];
	bool same = true;

	if (n->err)
		return fail(err, c->phase, c->knob, n->err, NULL);
	if (fields & ~n->supported)
		return fail(err, c->phase, c->knob, -EOPNOTSUPP,
			    "cannot modify an unsupported parameter");
	if (fields & n->fixed)
		return fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	memcpy(val, n->val, sizeof(val));
	for (int f = 0; f < NP_COAL__COUNT; f++) {
		if (!(fields & (1u << f)))
			continue;
		val[f] = coal_bool(f) ? !!want->val[f] : want->val[f];
		if (fault_is(c, MODE_ROUND) && !coal_bool(f))
			val[f] &= ~3u;
		same = same && val[f] == n->val[f];
	}
	if (same)
		return 0;	/* ethnl_set_coalesce() does not call the driver */
	if (!s->m.no_driver_rules) {
		/* the driver sees every field, the ones not sent at their
		 * current values, and checks them all */
		struct np_coalesce all = *n;
		char why[200];
		int r;

		memcpy(all.val, val, sizeof(val));
		r = np_driver_coal_check(np_driver_lookup(c->dev->driver), c->dev, &all, n->supported,
					 why, sizeof(why));
		if (r < 0)
			return fail(err, c->phase, c->knob, r, why);
	}
	if (fault_is(c, MODE_IGNORE))
		return 0;
	memcpy(n->val, val, sizeof(val));
	s->dirty = true;
	return 0;
}

static int sim_set_coalesce(struct np_backend *be, const struct np_dev *dev,
			    const struct np_coalesce *want, uint32_t fields, struct np_error *err)
{
	struct sim *s = sim_of(be);
	struct call c = { .op = OP_SET_COALESCE, .phase = NP_PHASE_APPLY, .knob = "coalesce" };
	int r = begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = coalesce(s, &c, want, fields, err);
	return finish(s, r, err);
}

static int feature(struct sim *s, struct call *c, const char *name, bool on, struct np_error *err)
{
	struct np_features *fs = &c->dev->features;
	struct np_feature *f = NULL;

	if (fs->err)
		return fail(err, c->phase, c->knob, fs->err, NULL);
	for (unsigned i = 0; i < fs->n && !f; i++)
		if (!strcmp(fs->v[i].name, name))
			f = &fs->v[i];
	if (!f)
		return fail(err, c->phase, c->knob, -EINVAL, "bit name not found");
	/* Like the kernel: a feature outside hw_features keeps its value and
	 * the request still succeeds (the reply would show it unchanged). */
	if (f->fixed || (f->wanted == on && f->active == on) || fault_is(c, MODE_IGNORE))
		return 0;
	f->wanted = on;
	f->active = on;
	s->dirty = true;
	return 0;
}

static int sim_set_feature(struct np_backend *be, const struct np_dev *dev, const char *name,
			   bool on, struct np_error *err)
{
	struct sim *s = sim_of(be);
	struct call c = { .op = OP_SET_FEATURE, .phase = NP_PHASE_APPLY, .knob = "features" };
	int r = begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = feature(s, &c, name, on, err);
	return finish(s, r, err);
}

static int rss_indir(struct sim *s, struct call *c, const uint32_t *indir, uint32_t n,
		     struct np_error *err)
{
	struct np_rss *rss = &c->dev->rss;
	uint32_t rings = c->dev->n_rxq;
	bool same = true;

	if (rss->err)
		return fail(err, c->phase, c->knob, rss->err, NULL);
	if (!rss->indir_size)
		return fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	if (n && n != rss->indir_size)
		return fail(err, c->phase, c->knob, -EINVAL,
			    "indirection table size does not match the device's");
	if (!rings)
		return fail(err, c->phase, c->knob, -EINVAL, "no rx rings to spread over");
	for (uint32_t i = 0; i < rss->indir_size; i++) {
		uint32_t q = n ? indir[i] : i % rings;

		if (q >= rings)
			return fail(err, c->phase, c->knob, -EINVAL,
				    "indirection table entry is beyond the number of rx rings");
		same = same && rss->indir[i] == q;
	}
	if (same || fault_is(c, MODE_IGNORE))
		return 0;
	for (uint32_t i = 0; i < rss->indir_size; i++)
		rss->indir[i] = n ? indir[i] : i % rings;
	s->dirty = true;
	return 0;
}

static int sim_set_rss_indir(struct np_backend *be, const struct np_dev *dev,
			     const uint32_t *indir, uint32_t n, struct np_error *err)
{
	struct sim *s = sim_of(be);
	struct call c = { .op = OP_SET_RSS_INDIR, .phase = NP_PHASE_APPLY, .knob = "rss" };
	int r = begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = rss_indir(s, &c, indir, n, err);
	return finish(s, r, err);
}

/* --- sysfs and procfs files ------------------------------------------------------ */

static const struct {
	const char *knob;
	const char *file;	/* for messages; %u = queue or IRQ */
} attrs[NP_ATTR__COUNT] = {
	[NP_ATTR_RPS_CPUS] = { "rps", "queues/rx-%u/rps_cpus" },
	[NP_ATTR_RPS_FLOW_CNT] = { "rfs", "queues/rx-%u/rps_flow_cnt" },
	[NP_ATTR_XPS_CPUS] = { "xps", "queues/tx-%u/xps_cpus" },
	[NP_ATTR_XPS_RXQS] = { "xps", "queues/tx-%u/xps_rxqs" },
	[NP_ATTR_IRQ_AFFINITY] = { "irq-affinity", "/proc/irq/%u/smp_affinity_list" },
	[NP_ATTR_NAPI_DEFER_HARD_IRQS] = { "napi", "napi_defer_hard_irqs" },
	[NP_ATTR_GRO_FLUSH_TIMEOUT] = { "napi", "gro_flush_timeout" },
	[NP_ATTR_SOCK_FLOW_ENTRIES] = { "sysctl", "/proc/sys/net/core/rps_sock_flow_entries" },
	[NP_ATTR_BUSY_POLL] = { "sysctl", "/proc/sys/net/core/busy_poll" },
	[NP_ATTR_BUSY_READ] = { "sysctl", "/proc/sys/net/core/busy_read" },
};

static int attr_fail(struct np_error *err, enum np_attr attr, unsigned index, int code)
{
	char file[64];

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(file, sizeof(file), attrs[attr].file, index);
#pragma GCC diagnostic pop
	return np_err(err, code, NP_PHASE_APPLY, attrs[attr].knob, "%s: %s", file,
		      strerror(-code));
}

/* kstrtoul-like: decimal, optional trailing newline, no sign. */
static int parse_ull(const char *v, unsigned long long *ret)
{
	unsigned long long x;
	char *end;

	while (*v == ' ' || *v == '\t')
		v++;
	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno)
		return -ERANGE;
	if (*end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*ret = x;
	return 0;
}

/* A hex mask as written to rps_cpus / xps_cpus: bits beyond nbits are
 * refused with -EOVERFLOW, as bitmap_parse() does. */
static int parse_hexmask(const char *v, unsigned nbits, struct np_cpumask *ret)
{
	int r = np_cpumask_parse_hex(v, ret);

	if (r == -ERANGE)
		return -EOVERFLOW;
	if (r < 0)
		return r;
	if (np_cpumask_next(ret, nbits) >= 0)
		return -EOVERFLOW;
	return 0;
}

static struct np_irq *find_irq(struct model *m, unsigned irq)
{
	for (size_t i = 0; i < m->n_devs; i++)
		for (unsigned j = 0; j < m->devs[i].n_irq; j++)
			if (m->devs[i].irq[j].irq == irq)
				return &m->devs[i].irq[j];
	return NULL;
}

static int write_mask_attr(struct sim *s, struct call *c, enum np_attr attr, unsigned index,
			   const char *value, struct np_error *err)
{
	const struct np_topology *t = &s->m.topo;
	struct np_dev *d = c->dev;
	struct np_cpumask m, *dst;
	int r, ferr;

	if (attr == NP_ATTR_RPS_CPUS || attr == NP_ATTR_RPS_FLOW_CNT) {
		if (index >= d->n_rxq)
			return attr_fail(err, attr, index, -ENOENT);
		ferr = attr == NP_ATTR_RPS_CPUS ? d->rxq[index].rps_err : d->rxq[index].flow_err;
	} else {
		if (index >= d->n_txq)
			return attr_fail(err, attr, index, -ENOENT);
		ferr = attr == NP_ATTR_XPS_CPUS ? d->txq[index].xps_err : d->txq[index].xps_rxqs_err;
	}
	if (ferr)
		return attr_fail(err, attr, index, ferr);
	if (attr == NP_ATTR_RPS_FLOW_CNT) {
		unsigned long long x;

		r = parse_ull(value, &x);
		if (r == 0 && x > (1ull << 31))
			r = -EINVAL;
		if (r < 0)
			return attr_fail(err, attr, index, r);
		/* the kernel keeps a power-of-two table and shows its size */
		x = roundup_pow2((uint32_t)x);
		if (fault_is(c, MODE_ROUND))
			x &= ~3ull;
		if (!fault_is(c, MODE_IGNORE) && d->rxq[index].rps_flow_cnt != x) {
			d->rxq[index].rps_flow_cnt = (uint32_t)x;
			s->dirty = true;
		}
		return 0;
	}
	r = parse_hexmask(value, attr == NP_ATTR_XPS_RXQS ? d->num_rx_queues : t->nr_cpus, &m);
	if (r < 0)
		return attr_fail(err, attr, index, r);
	if (attr == NP_ATTR_RPS_CPUS) {
		/* store_rps_map(): only housekeeping (not isolated) CPUs, and
		 * of those only the online ones make it into the map */
		if (!np_cpumask_empty(&m)) {
			np_cpumask_andnot(&m, &m, &t->isolated);
			if (np_cpumask_empty(&m))
				return attr_fail(err, attr, index, -EINVAL);
		}
		np_cpumask_and(&m, &m, &t->online);
		dst = &d->rxq[index].rps_cpus;
	} else if (attr == NP_ATTR_XPS_CPUS) {
		np_cpumask_and(&m, &m, &t->online);
		dst = &d->txq[index].xps_cpus;
	} else {
		dst = &d->txq[index].xps_rxqs;
	}
	if (fault_is(c, MODE_ROUND))
		lowest_only(&m);
	if (!fault_is(c, MODE_IGNORE) && !np_cpumask_equal(dst, &m)) {
		*dst = m;
		s->dirty = true;
	}
	return 0;
}

static int write_irq(struct sim *s, struct call *c, unsigned irq, const char *value,
		     struct np_error *err)
{
	const struct np_topology *t = &s->m.topo;
	struct np_irq *q = find_irq(&s->m, irq);
	struct np_cpumask m, eff;
	int r, first;

	if (!q)
		return attr_fail(err, NP_ATTR_IRQ_AFFINITY, irq, -ENOENT);
	if (q->err)
		return attr_fail(err, NP_ATTR_IRQ_AFFINITY, irq, q->err);
	r = np_cpumask_parse_list(value, &m);
	if (r == 0 && np_cpumask_next(&m, t->nr_cpus) >= 0)
		r = -ERANGE;
	if (r < 0)
		return attr_fail(err, NP_ATTR_IRQ_AFFINITY, irq, r);
	np_cpumask_and(&eff, &m, &t->online);
	/* "at least one online CPU still has to be targeted" */
	if (np_cpumask_empty(&eff))
		return attr_fail(err, NP_ATTR_IRQ_AFFINITY, irq, -EINVAL);
	if (fault_is(c, MODE_ROUND)) {
		lowest_only(&eff);
		m = eff;
	}
	if (fault_is(c, MODE_IGNORE))
		return 0;
	first = np_cpumask_next(&eff, 0);
	np_cpumask_zero(&eff);
	np_cpumask_set(&eff, (unsigned)first);
	if (!np_cpumask_equal(&q->affinity, &m) || !np_cpumask_equal(&q->effective, &eff)) {
		q->affinity = m;
		q->effective = eff;
		s->dirty = true;
	}
	return 0;
}

static int write_number(struct sim *s, struct call *c, enum np_attr attr, const char *value,
			struct np_error *err)
{
	struct np_sysctl *sys = &s->m.sys;
	unsigned long long x, max = UINT32_MAX;
	uint32_t *dst32 = NULL;
	int ferr, r;

	switch (attr) {
	case NP_ATTR_NAPI_DEFER_HARD_IRQS:
	case NP_ATTR_GRO_FLUSH_TIMEOUT:
		ferr = c->dev->napi.err;
		max = attr == NP_ATTR_GRO_FLUSH_TIMEOUT ? UINT64_MAX : INT32_MAX;
		dst32 = &c->dev->napi.defer_hard_irqs;
		break;
	case NP_ATTR_SOCK_FLOW_ENTRIES:
		ferr = sys->flow_entries_err;
		max = INT32_MAX;
		dst32 = &sys->rps_sock_flow_entries;
		break;
	default:
		ferr = sys->busy_err;
		max = INT32_MAX;
		dst32 = attr == NP_ATTR_BUSY_POLL ? &sys->busy_poll : &sys->busy_read;
		break;
	}
	if (ferr)
		return attr_fail(err, attr, 0, ferr);
	r = parse_ull(value, &x);
	if (r == 0 && x > max)
		r = attr == NP_ATTR_NAPI_DEFER_HARD_IRQS ? -ERANGE : -EINVAL;
	if (r == 0 && attr == NP_ATTR_SOCK_FLOW_ENTRIES) {
		/* rps_sock_flow_sysctl(): a power of two, at most 2^29 */
		x = roundup_pow2((uint32_t)x);
		if (x > (1u << 29))
			r = -EINVAL;
	}
	if (r < 0)
		return attr_fail(err, attr, 0, r);
	if (fault_is(c, MODE_ROUND))
		x &= ~3ull;
	if (fault_is(c, MODE_IGNORE))
		return 0;
	if (attr == NP_ATTR_GRO_FLUSH_TIMEOUT) {
		if (c->dev->napi.gro_flush_timeout != x) {
			c->dev->napi.gro_flush_timeout = x;
			s->dirty = true;
		}
	} else if (*dst32 != x) {
		*dst32 = (uint32_t)x;
		s->dirty = true;
	}
	return 0;
}

static int sim_write_attr(struct np_backend *be, const struct np_dev *dev, enum np_attr attr,
			  unsigned index, const char *value, struct np_error *err)
{
	struct sim *s = sim_of(be);
	struct call c = { .op = OP_WRITE_ATTR, .phase = NP_PHASE_APPLY };
	bool global;
	int r;

	if ((unsigned)attr >= NP_ATTR__COUNT || !value)
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "unknown attribute");
	c.knob = attrs[attr].knob;
	/* /proc/irq and net.core exist whether or not the device does */
	global = attr == NP_ATTR_IRQ_AFFINITY || attr == NP_ATTR_SOCK_FLOW_ENTRIES ||
		 attr == NP_ATTR_BUSY_POLL || attr == NP_ATTR_BUSY_READ;
	r = begin(s, &c, dev->ifname, !global, err);
	if (r < 0)
		return finish(s, r, err);
	switch (attr) {
	case NP_ATTR_RPS_CPUS:
	case NP_ATTR_RPS_FLOW_CNT:
	case NP_ATTR_XPS_CPUS:
	case NP_ATTR_XPS_RXQS:
		r = write_mask_attr(s, &c, attr, index, value, err);
		break;
	case NP_ATTR_IRQ_AFFINITY:
		r = write_irq(s, &c, index, value, err);
		break;
	default:
		r = write_number(s, &c, attr, value, err);
		break;
	}
	return finish(s, r, err);
}

/* --- the backend ------------------------------------------------------------------ */

static void sim_free(struct np_backend *be)
{
	struct sim *s = sim_of(be);

	if (!s)
		return;
	model_clear(&s->m);
	free(s->path);
	free(s);
}

static const struct np_backend_ops sim_ops = {
	.name = "sim",
	.discover = sim_discover,
	.list_devices = sim_list,
	.set_channels = sim_set_channels,
	.set_rings = sim_set_rings,
	.set_coalesce = sim_set_coalesce,
	.set_feature = sim_set_feature,
	.set_rss_indir = sim_set_rss_indir,
	.write_attr = sim_write_attr,
	.free = sim_free,
};

int np_backend_sim_new(struct np_ctx *ctx, const char *model, struct np_backend **ret,
		       struct np_error *err)
{
	struct sim *s;
	int r;

	if (!model || !*model)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "no model file given");
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(model))) {
		free(s);
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	}
	s->be.ops = &sim_ops;
	s->be.ctx = ctx;
	/* read it now: a broken model is an error of the first command */
	r = load(s, err);
	if (r < 0) {
		sim_free(&s->be);
		return r;
	}
	*ret = &s->be;
	return 0;
}
