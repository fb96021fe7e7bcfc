/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Human output, in the spirit of ethtool -l/-g/-c, rendered from the
 * library's JSON so text and --json can never disagree. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (o && json_object_object_get_ex(o, key, &v))
		return v;
	return NULL;
}

static int64_t num(struct json_object *o, const char *key)
{
	return json_object_get_int64(get(o, key));
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	if (!v || json_object_is_type(v, json_type_null))
		return NULL;
	return json_object_get_string(v);
}

static const char *or_none(const char *s)
{
	return s && *s ? s : "none";
}

/* Prints "label:" and returns false when the knob is unsupported (after
 * saying so), so each section only handles the supported case. */
static bool section(FILE *out, struct json_object *dev, struct json_object *knob, const char *label)
{
	fprintf(out, "  %-15s", label);
	if (!knob) {
		fputs("unknown\n", out);
		return false;
	}
	if (!json_object_get_boolean(get(knob, "supported"))) {
		fprintf(out, "not supported by driver %s (%s)\n", or_none(str(dev, "driver")),
			or_none(str(knob, "error")));
		return false;
	}
	return true;
}

/* Ends the line of a knob the driver reports but has no setter for. */
static void render_settable(FILE *out, struct json_object *knob)
{
	struct json_object *v = get(knob, "settable");

	if (v && !json_object_get_boolean(v))
		fputs(" [read-only: the driver has no setter]", out);
	fputc('\n', out);
}

static void render_channels(FILE *out, struct json_object *dev)
{
	static const char *const kinds[] = { "rx", "tx", "other", "combined" };
	struct json_object *ch = get(dev, "channels");
	char key[32];

	if (!section(out, dev, ch, "channels:"))
		return;
	/* a kind the driver has none of and takes none of is left out */
	for (size_t i = 0, n = 0; i < 4; i++) {
		snprintf(key, sizeof(key), "max_%s", kinds[i]);
		if (!num(ch, kinds[i]) && !num(ch, key) && (n || i < 3))
			continue;
		fprintf(out, "%s%s %lld (max %lld)", n++ ? ", " : "", kinds[i],
			(long long)num(ch, kinds[i]), (long long)num(ch, key));
	}
	render_settable(out, ch);
}

static void render_rings(FILE *out, struct json_object *dev)
{
	static const char *const kinds[] = { "rx", "rx_mini", "rx_jumbo", "tx" };
	struct json_object *r = get(dev, "rings");
	char key[32];
	bool first = true;

	if (!section(out, dev, r, "rings:"))
		return;
	for (size_t i = 0; i < 4; i++) {
		snprintf(key, sizeof(key), "max_%s", kinds[i]);
		if (!num(r, key))
			continue;	/* a ring the device does not have */
		fprintf(out, "%s%s %lld (max %lld)", first ? "" : ", ", kinds[i],
			(long long)num(r, kinds[i]), (long long)num(r, key));
		first = false;
	}
	if (first)
		fputs("no rings reported", out);
	render_settable(out, r);
}

static void render_coalesce(FILE *out, struct json_object *dev)
{
	struct json_object *c = get(dev, "coalesce"), *fields, *fixed;
	bool first = true;

	if (!section(out, dev, c, "coalesce:"))
		return;
	fields = get(c, "fields");
	json_object_object_foreach(fields, name, val) {
		fprintf(out, "%s%s %s", first ? "" : ", ", name,
			json_object_is_type(val, json_type_boolean) ?
				(json_object_get_boolean(val) ? "on" : "off") :
				json_object_get_string(val));
		first = false;
	}
	fputs(first ? "no fields reported\n" : "\n", out);
	fixed = get(c, "fixed");
	if (fixed && json_object_is_type(fixed, json_type_array) && json_object_array_length(fixed)) {
		struct json_object *fx = fixed;

		fprintf(out, "  %-15s", "");
		for (size_t i = 0; i < json_object_array_length(fx); i++)
			fprintf(out, "%s%s", i ? ", " : "",
				json_object_get_string(json_object_array_get_idx(fx, i)));
		fputs(": read-only on this device\n", out);
	}
}

static void render_rss(FILE *out, struct json_object *dev)
{
	struct json_object *rss = get(dev, "rss"), *indir;
	size_t n;
	int64_t *weights, maxq = -1, lo = -1, hi = 0;

	if (!section(out, dev, rss, "rss:"))
		return;
	indir = get(rss, "indir");
	n = indir ? json_object_array_length(indir) : 0;
	if (n)
		fprintf(out, "%zu-entry table", n);
	else
		fputs("no indirection table", out);
	fprintf(out, ", hash %s, key %s", or_none(str(rss, "hfunc")),
		str(rss, "key") && *str(rss, "key") ? "set" : "none");
	/* The table itself is long; what an admin wants is the spread. */
	weights = calloc(n ? n : 1, sizeof(*weights));
	for (size_t i = 0; weights && i < n; i++) {
		int64_t q = json_object_get_int64(json_object_array_get_idx(indir, i));

		if (q >= 0 && (size_t)q < n) {
			weights[q]++;
			if (q > maxq)
				maxq = q;
		}
	}
	for (int64_t q = 0; q <= maxq; q++) {
		lo = lo < 0 || weights[q] < lo ? weights[q] : lo;
		hi = weights[q] > hi ? weights[q] : hi;
	}
	/* a few queues each, many as a range (--json has the table) */
	if (maxq >= 0 && maxq < 8) {
		fputs("; entries per queue", out);
		for (int64_t q = 0; q <= maxq; q++)
			fprintf(out, " %lld:%lld", (long long)q, (long long)weights[q]);
	} else if (maxq >= 0) {
		fprintf(out, "; queues 0-%lld, %lld", (long long)maxq, (long long)lo);
		if (hi != lo)
			fprintf(out, "-%lld", (long long)hi);
		fputs(" entries each", out);
	}
	free(weights);
	fputc('\n', out);
}

static void render_features(FILE *out, struct json_object *dev)
{
	/* The features the policies depend on; --json has all of them. */
	static const char *const relevant[] = { "rx-hashing", "rx-ntuple-filter", "rx-gro",
						"rx-gro-hw", "rx-lro" };
	struct json_object *f = get(dev, "features"), *list;
	bool first = true;

	if (!section(out, dev, f, "features:"))
		return;
	list = get(f, "list");
	for (size_t i = 0; i < sizeof(relevant) / sizeof(relevant[0]); i++) {
		struct json_object *one = get(list, relevant[i]);

		if (!one)
			continue;
		fprintf(out, "%s%s %s%s", first ? "" : ", ", relevant[i],
			json_object_get_boolean(get(one, "active")) ? "on" : "off",
			json_object_get_boolean(get(one, "fixed")) ? " [fixed]" : "");
		first = false;
	}
	fprintf(out, "%s(%zu in all)\n", first ? "" : " ",
		list ? (size_t)json_object_object_length(list) : (size_t)0);
}

static void render_napi(FILE *out, struct json_object *dev)
{
	struct json_object *n = get(dev, "napi"), *napis = get(dev, "napis"), *t;
	size_t count, per = 0, threads;

	if (!section(out, dev, n, "napi:"))
		return;
	t = get(n, "threaded");
	fprintf(out, "defer-hard-irqs %lld, gro-flush-timeout %lld ns%s\n",
		(long long)num(n, "defer_hard_irqs"), (long long)num(n, "gro_flush_timeout"),
		t && json_object_get_int64(t) ? ", threaded (NAPI kthreads)" : "");
	/* the kernel's napi-get (absent member: a kernel without it) */
	if (!napis || !json_object_is_type(napis, json_type_array))
		return;
	count = json_object_array_length(napis);
	for (size_t i = 0; i < count; i++)
		per += get(json_object_array_get_idx(napis, i), "defer_hard_irqs") != NULL;
	threads = get(dev, "napi_threads") ? json_object_array_length(get(dev, "napi_threads")) : 0;
	if (!count) {
		fputs("                 no NAPI instance (netdev napi-get)\n", out);
		return;
	}
	fprintf(out, "                 %zu NAPI instance%s, per-NAPI config %s", count,
		count == 1 ? "" : "s", per ? "settable (napi-set)" : "not supported by kernel");
	if (threads)
		fprintf(out, ", %zu kthread%s", threads, threads == 1 ? "" : "s");
	fputc('\n', out);
}

/* "KEY V, KEY V" for a line of the sysctl object; a triple as "MIN DEF MAX" */
static void sysctl_line(FILE *out, struct json_object *s, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct json_object *a = get(s, keys[i]);
		const char *v = str(s, keys[i]);

		fprintf(out, "%s%s ", i ? ", " : "", keys[i]);
		if (a && json_object_is_type(a, json_type_array))
			for (size_t k = 0; k < json_object_array_length(a); k++)
				fprintf(out, "%s%s", k ? " " : "",
					json_object_get_string(json_object_array_get_idx(a, k)));
		else
			fputs(v ? v : "unavailable", out);
	}
	fputc('\n', out);
}

static void render_sysctl(FILE *out, struct json_object *s)
{
	static const char *const keys[] = { "rps_sock_flow_entries", "busy_poll", "busy_read" };
	static const char *const mem[] = { "rmem_max", "wmem_max", "netdev_max_backlog" };
	static const char *const tcp[] = { "tcp_rmem", "tcp_wmem" };

	fprintf(out, "  %-15s", "sysctl:");
	sysctl_line(out, s, keys, 3);
	fprintf(out, "  %-15s", "");
	sysctl_line(out, s, mem, 3);
	fprintf(out, "  %-15s", "");
	sysctl_line(out, s, tcp, 2);
}

/* "25:0-3(kernel) 26:0-3(name)" for the IRQs serving queue q: where the
 * tie of each came from (the kernel's NAPI map, or the driver's name) */
static void queue_irqs(struct json_object *irqs, int64_t q, char *buf, size_t len)
{
	size_t n = irqs ? json_object_array_length(irqs) : 0, used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		struct json_object *irq = json_object_array_get_idx(irqs, i);
		struct json_object *qv = get(irq, "queue");

		if (!qv || json_object_is_type(qv, json_type_null) || json_object_get_int64(qv) != q)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%lld:%s(%s)", used ? " " : "",
					 (long long)num(irq, "irq"), or_none(str(irq, "affinity")),
					 str(irq, "source") ? str(irq, "source") : "name");
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

static const char *mask_or_dash(struct json_object *o, const char *key)
{
	const char *v = str(o, key);

	if (!v)
		return "n/a";
	return *v ? v : "-";
}

static void render_queues(FILE *out, struct json_object *dev)
{
	struct json_object *qs = get(dev, "queues"), *rx = get(qs, "rx"), *tx = get(qs, "tx");
	struct json_object *irqs = get(dev, "irqs");
	size_t nrx = rx ? json_object_array_length(rx) : 0, ntx = tx ? json_object_array_length(tx) : 0;
	size_t n = nrx > ntx ? nrx : ntx, nirq = irqs ? json_object_array_length(irqs) : 0;
	char buf[256];

	fprintf(out, "  queues:        %zu rx, %zu tx\n", nrx, ntx);
	fprintf(out, "    %-5s %-10s %-9s %-10s %-10s %-22s\n", "queue", "rps-cpus", "rps-flows",
		"xps-cpus", "xps-rxqs", "irq:affinity(source)");
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = i < nrx ? json_object_array_get_idx(rx, i) : NULL;
		struct json_object *t = i < ntx ? json_object_array_get_idx(tx, i) : NULL;
		char flows[24];

		if (r && str(r, "rps_flow_cnt"))
			snprintf(flows, sizeof(flows), "%s", str(r, "rps_flow_cnt"));
		else
			snprintf(flows, sizeof(flows), "%s", r ? "n/a" : "");
		queue_irqs(irqs, (int64_t)i, buf, sizeof(buf));
		fprintf(out, "    %-5zu %-10s %-9s %-10s %-10s %s\n", i,
			r ? mask_or_dash(r, "rps_cpus") : "", flows,
			t ? mask_or_dash(t, "xps_cpus") : "", t ? mask_or_dash(t, "xps_rxqs") : "", buf);
	}
	for (size_t i = 0; i < nirq; i++) {
		struct json_object *irq = json_object_array_get_idx(irqs, i);
		struct json_object *qv = get(irq, "queue");

		if (qv && !json_object_is_type(qv, json_type_null))
			continue;
		fprintf(out, "  %-15s%lld %s (affinity %s)%s\n", "other irq:", (long long)num(irq, "irq"),
			or_none(str(irq, "name")), or_none(str(irq, "affinity")),
			str(irq, "source") && !strcmp(str(irq, "source"), "none") ?
				": no queue's by the kernel's NAPI map nor by its name" : "");
	}
	if (!nirq)
		fprintf(out, "  %-15s%s\n", "irqs:", "none found for this device");
}

static void render_topology(FILE *out, struct json_object *t)
{
	struct json_object *nodes = get(t, "nodes");

	if (!t)
		return;
	fprintf(out, "  %-15s%s online, %lld cores, %lld package%s, %zu NUMA node%s, SMT %s, "
		"isolated %s, nohz_full %s\n", "cpus:", or_none(str(t, "online")),
		(long long)num(t, "cores"), (long long)num(t, "packages"),
		num(t, "packages") == 1 ? "" : "s", nodes ? json_object_array_length(nodes) : 0,
		nodes && json_object_array_length(nodes) == 1 ? "" : "s",
		json_object_get_boolean(get(t, "smt")) ? "on" : "off", or_none(str(t, "isolated")),
		or_none(str(t, "nohz_full")));
}

/* "also set by:  NetworkManager (/etc/...): rings, features", one a line */
static void render_owners(FILE *out, struct json_object *owners)
{
	size_t n = owners ? json_object_array_length(owners) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(owners, i), *knobs = get(o, "knobs");

		fprintf(out, "  %-15s%s (%s):", i ? "" : "also set by:", or_none(str(o, "owner")),
			or_none(str(o, "source")));
		for (size_t k = 0; knobs && k < json_object_array_length(knobs); k++)
			fprintf(out, "%s %s", k ? "," : "",
				json_object_get_string(json_object_array_get_idx(knobs, k)));
		fputc('\n', out);
	}
}

static void render_state_lines(FILE *out, struct json_object *dev)
{
	struct json_object *link = get(dev, "link");
	int64_t node = num(dev, "numa_node");

	fprintf(out, "%s: driver %s, bus %s, ifindex %lld, %s, mtu %lld\n", or_none(str(dev, "ifname")),
		or_none(str(dev, "driver")), or_none(str(dev, "bus_info")),
		(long long)num(dev, "ifindex"), or_none(str(dev, "operstate")),
		(long long)num(dev, "mtu"));
	if (str(dev, "policy") && json_object_get_boolean(get(dev, "policy_missing")))
		fprintf(out, "  %-15s%s (missing: no such policy any more; reset undoes it)\n",
			"policy:", str(dev, "policy"));
	else if (str(dev, "policy") && get(dev, "try"))
		fprintf(out, "  %-15s%s (try in progress: condition %s, round %lld)\n", "policy:",
			str(dev, "policy"), or_none(str(get(dev, "try"), "condition")),
			(long long)num(get(dev, "try"), "round"));
	else if (str(dev, "policy"))
		fprintf(out, "  %-15s%s (%lld step%s of drift)\n", "policy:", str(dev, "policy"),
			(long long)num(dev, "drift"), num(dev, "drift") == 1 ? "" : "s");
	render_owners(out, get(dev, "other_owners"));
	fprintf(out, "  %-15s", "numa node:");
	if (node < 0)
		fprintf(out, "none, local cpus %s\n", or_none(str(dev, "local_cpus")));
	else
		fprintf(out, "%lld, local cpus %s\n", (long long)node, or_none(str(dev, "local_cpus")));
	if (section(out, dev, link, "link:")) {
		if (num(link, "speed"))
			fprintf(out, "%lld Mb/s %s duplex", (long long)num(link, "speed"),
				or_none(str(link, "duplex")));
		else
			fputs("speed unknown", out);
		fprintf(out, ", carrier %s\n", json_object_get_boolean(get(link, "carrier")) ? "up" : "down");
	}
	render_channels(out, dev);
	render_rings(out, dev);
	render_coalesce(out, dev);
	render_rss(out, dev);
	render_features(out, dev);
	render_napi(out, dev);
	render_sysctl(out, get(dev, "sysctl"));
	render_pm_qos(out, get(dev, "pm_qos"));
	render_queues(out, dev);
	render_mixed(out, dev);
	render_topology(out, get(dev, "topology"));
}

void render_state(FILE *out, struct json_object *dev)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	/* out of memory: the long lines as they are */
	if (!mem) {
		render_state_lines(out, dev);
		return;
	}
	render_state_lines(mem, dev);
	if (fclose(mem) == 0 && text)
		cli_print_wrapped(out, text, 0);
	else
		render_state_lines(out, dev);
	free(text);
}
