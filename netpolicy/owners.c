/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Who else tunes a device's knobs, told from what is on disk and in /proc
 * (below --root for tests), without asking anyone:
 *
 *  - irqbalance moves IRQs (irqbalance.c finds it);
 *  - NetworkManager re-applies a connection's [ethtool] settings (coalesce-*,
 *    ring-*, feature-*, channels-*) whenever it activates the connection: a
 *    keyfile naming the device by interface-name, NetworkManager running;
 *  - udev applies the first .link file (systemd.link(5), by file name across
 *    /etc, /run and /usr/lib, the earlier directory winning a name) whose
 *    [Match] fits the device when the device appears or changes; it is an
 *    owner when that file sets channels, buffer sizes, coalescing,
 *    offloads or queue counts;
 *  - tuned's active profiles (and the profiles they include) with a net
 *    plugin section that sets channels, ring, coalesce or features for all
 *    devices or this one, tuned running.
 *
 * A guess for notes and metrics, never a decision.  Not read: a .link
 * [Match] by MACAddress=, Path=, Driver= and the like (only Name= and
 * OriginalName= globs), NetworkManager connections bound by MAC address,
 * tuned's devices_udev_regex.  A simulated device (--model without --root)
 * is on no machine: it has no other owner.
 */
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define LINE_MAX_LEN 1024

/* Append word to a ", "-separated list once. */
static void add_word(char *buf, size_t len, const char *word)
{
	size_t n = strlen(buf), w = strlen(word);

	for (const char *p = buf; (p = strstr(p, word)); p += w)
		if ((p == buf || p[-1] == ' ') && (p[w] == ',' || p[w] == '\0'))
			return;
	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", word);
}

/* Each word of a ", "-separated list into buf once. */
static void add_words(char *buf, size_t len, const char *list)
{
	char words[CLI_OWNER_KNOBS], *save = NULL;

	snprintf(words, sizeof(words), "%s", list);
	for (char *w = strtok_r(words, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
		add_word(buf, len, w);
}

static bool process_named(const struct cli *c, const char *name)
{
	char dir[512];
	struct dirent *de;
	bool found = false;
	DIR *d;

	cli_below_root(c, dir, sizeof(dir), "/proc");
	d = opendir(dir);
	while (d && !found && (de = readdir(d))) {
		char path[800], comm[32];
		ssize_t n;
		int fd;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", dir, de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			continue;
		n = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		if (n <= 0)
			continue;
		comm[n] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		found = !strcmp(comm, name);
	}
	if (d)
		closedir(d);
	return found;
}

/* An INI-style file (.link, NetworkManager keyfile, tuned.conf): each
 * key=value line with its section, to fn until fn returns false.  Only
 * regular files: a FIFO left there must not hang netpolicy. */
typedef bool (*ini_fn)(void *ud, const char *section, const char *key, const char *value);

static void ini_read(const char *path, ini_fn fn, void *ud)
{
	char line[LINE_MAX_LEN], section[64] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	FILE *f;

	if (fd < 0)
		return;
	f = fdopen(fd, "re");
	if (!f) {
		close(fd);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *k = line, *v, *end;

		line[strcspn(line, "\r\n")] = '\0';
		k += strspn(k, " \t");
		if (*k == '[') {
			end = strchr(k, ']');
			if (end)
				*end = '\0';
			snprintf(section, sizeof(section), "%s", k + 1);
			continue;
		}
		if (*k == '#' || *k == ';' || !(v = strchr(k, '=')))
			continue;
		*v++ = '\0';
		for (end = v - 1; end > k && (end[-1] == ' ' || end[-1] == '\t'); end--)
			end[-1] = '\0';
		v += strspn(v, " \t");
		if (!fn(ud, section, k, v))
			break;
	}
	fclose(f);
}

static bool is_regular(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* s into buf, cut at len - 1 bytes */
static void copy(char *buf, size_t len, const char *s)
{
	size_t n;

	for (n = 0; n + 1 < len && s[n]; n++)
		buf[n] = s[n];
	buf[n] = '\0';
}

static void owner_add(struct cli_owners *o, const char *name, const char *source,
		      const char *knobs)
{
	struct cli_owner *w;

	if (o->n >= CLI_OWNERS_MAX)
		return;
	w = &o->list[o->n++];
	copy(w->name, sizeof(w->name), name);
	copy(w->source, sizeof(w->source), source);
	copy(w->knobs, sizeof(w->knobs), knobs);
}

/* --- systemd .link files ----------------------------------------------------- */

struct link_scan {
	const char *ifname;
	bool has_name_match, name_matches;
	char knobs[CLI_OWNER_KNOBS];
};

/* The [Link] keys of systemd.link(5) that set what netpolicy sets, by the
 * knob they set. */
static const char *link_knob(const char *key)
{
	size_t n = strlen(key);

#define ENDS(s) (n >= sizeof(s) - 1 && !strcmp(key + n - (sizeof(s) - 1), s))
	if (ENDS("Channels"))
		return "channels";
	if (ENDS("BufferSize"))
		return "rings";
	if (strstr(key, "Coalesce"))
		return "coalesce";
	if (ENDS("Offload") || ENDS("OffloadHardware") || ENDS("HardwareAcceleration") ||
	    ENDS("Filter"))
		return "features";
	if (!strcmp(key, "ReceiveQueues") || !strcmp(key, "TransmitQueues"))
		return "queues";
#undef ENDS
	return NULL;
}

static bool link_line(void *ud, const char *section, const char *key, const char *value)
{
	struct link_scan *s = ud;
	const char *knob;

	if (!strcmp(section, "Match") && (!strcmp(key, "Name") || !strcmp(key, "OriginalName"))) {
		char words[LINE_MAX_LEN], *save = NULL;

		s->has_name_match = true;
		snprintf(words, sizeof(words), "%s", value);
		for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
			if (!fnmatch(w, s->ifname, 0))
				s->name_matches = true;
	} else if (!strcmp(section, "Link") && value[0] && (knob = link_knob(key))) {
		add_word(s->knobs, sizeof(s->knobs), knob);
	}
	return true;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(strrchr(*(char *const *)a, '/') + 1, strrchr(*(char *const *)b, '/') + 1);
}

static void find_link(const struct cli *c, const char *ifname, struct cli_owners *o)
{
	/* earlier directories win a file name (systemd.link(5)) */
	static const char *const dirs[] = { "/etc/systemd/network", "/run/systemd/network",
					     "/usr/lib/systemd/network", "/lib/systemd/network" };
	char *paths[256];
	size_t n = 0;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char dir[512];
		struct dirent *de;
		DIR *d;

		cli_below_root(c, dir, sizeof(dir), dirs[i]);
		d = opendir(dir);
		while (d && n < sizeof(paths) / sizeof(paths[0]) && (de = readdir(d))) {
			size_t len = strlen(de->d_name);
			bool seen = false;
			char path[800];

			if (len < 6 || strcmp(de->d_name + len - 5, ".link"))
				continue;
			for (size_t k = 0; k < n && !seen; k++)
				seen = !strcmp(strrchr(paths[k], '/') + 1, de->d_name);
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (!seen && is_regular(path) && (paths[n] = strdup(path)))
				n++;
		}
		if (d)
			closedir(d);
	}
	qsort(paths, n, sizeof(paths[0]), name_cmp);
	/* udev applies the first file that matches, and only that one */
	for (size_t k = 0; k < n; k++) {
		struct link_scan s = { .ifname = ifname };

		ini_read(paths[k], link_line, &s);
		if (!s.has_name_match || !s.name_matches)
			continue;
		if (s.knobs[0])
			owner_add(o, "systemd.link", paths[k] + (c->root ? strlen(c->root) : 0),
				  s.knobs);
		break;
	}
	for (size_t k = 0; k < n; k++)
		free(paths[k]);
}

/* --- NetworkManager keyfiles --------------------------------------------------- */

struct nm_scan {
	const char *ifname;
	bool for_device;
	char knobs[CLI_OWNER_KNOBS];
};

static bool nm_line(void *ud, const char *section, const char *key, const char *value)
{
	struct nm_scan *s = ud;

	if (!strcmp(section, "connection") && !strcmp(key, "interface-name"))
		s->for_device = !strcmp(value, s->ifname);
	else if (!strcmp(section, "ethtool") && !strncmp(key, "coalesce-", 9))
		add_word(s->knobs, sizeof(s->knobs), "coalesce");
	else if (!strcmp(section, "ethtool") && !strncmp(key, "ring-", 5))
		add_word(s->knobs, sizeof(s->knobs), "rings");
	else if (!strcmp(section, "ethtool") && !strncmp(key, "feature-", 8))
		add_word(s->knobs, sizeof(s->knobs), "features");
	else if (!strcmp(section, "ethtool") && !strncmp(key, "channels-", 9))
		add_word(s->knobs, sizeof(s->knobs), "channels");
	return true;
}

static void find_nm(const struct cli *c, const char *ifname, struct cli_owners *o)
{
	static const char *const dirs[] = { "/etc/NetworkManager/system-connections",
					     "/run/NetworkManager/system-connections" };
	bool running = process_named(c, "NetworkManager");

	for (size_t i = 0; running && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char dir[512];
		struct dirent *de;
		DIR *d;

		cli_below_root(c, dir, sizeof(dir), dirs[i]);
		d = opendir(dir);
		while (d && (de = readdir(d))) {
			struct nm_scan s = { .ifname = ifname };
			char path[800];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (!is_regular(path))
				continue;
			ini_read(path, nm_line, &s);
			if (s.for_device && s.knobs[0])
				owner_add(o, "NetworkManager",
					  path + (c->root ? strlen(c->root) : 0), s.knobs);
		}
		if (d)
			closedir(d);
	}
}

/* --- tuned ----------------------------------------------------------------------- */

struct tuned_scan {
	const char *ifname;
	char include[256];
	char type[32];		/* the current section's plugin */
	char section[64];
	bool devices_given, device_listed;
	char knobs[CLI_OWNER_KNOBS];	/* of the current net section */
	char found[CLI_OWNER_KNOBS];	/* of every net section that takes the device */
};

static void tuned_section_end(struct tuned_scan *s)
{
	if (!strcmp(s->type, "net") && (!s->devices_given || s->device_listed) && s->knobs[0])
		add_words(s->found, sizeof(s->found), s->knobs);
	s->knobs[0] = '\0';
	s->devices_given = s->device_listed = false;
}

static bool tuned_line(void *ud, const char *section, const char *key, const char *value)
{
	struct tuned_scan *s = ud;

	if (strcmp(section, s->section)) {
		tuned_section_end(s);
		snprintf(s->section, sizeof(s->section), "%s", section);
		/* a section is its plugin unless type= says otherwise */
		snprintf(s->type, sizeof(s->type), "%s", section);
	}
	if (!strcmp(section, "main") && !strcmp(key, "include")) {
		snprintf(s->include, sizeof(s->include), "%s", value);
	} else if (!strcmp(key, "type")) {
		snprintf(s->type, sizeof(s->type), "%s", value);
	} else if (!strcmp(key, "devices")) {
		char words[LINE_MAX_LEN], *save = NULL;

		s->devices_given = true;
		snprintf(words, sizeof(words), "%s", value);
		for (char *w = strtok_r(words, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
			if (!fnmatch(w, s->ifname, 0))
				s->device_listed = true;
	} else if (!strcmp(key, "channels") || !strcmp(key, "ring") ||
		   !strcmp(key, "coalesce") || !strcmp(key, "features")) {
		add_word(s->knobs, sizeof(s->knobs),
			 !strcmp(key, "ring") ? "rings" : key);
	}
	return true;
}

/* A profile and the profiles it includes (to a depth of 8): the knobs its
 * net sections set for the device, into found. */
static void tuned_profile(const struct cli *c, const char *name, int depth, char *found,
			  size_t len)
{
	static const char *const dirs[] = { "/etc/tuned", "/usr/lib/tuned" };
	char words[256], *save = NULL;

	if (depth > 8 || !name[0] || strchr(name, '/') || !strcmp(name, ".."))
		return;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		struct tuned_scan s = { .ifname = c->device };
		char rel[400], path[800];

		snprintf(rel, sizeof(rel), "%s/%s/tuned.conf", dirs[i], name);
		cli_below_root(c, path, sizeof(path), rel);
		if (!is_regular(path))
			continue;
		ini_read(path, tuned_line, &s);
		tuned_section_end(&s);
		if (s.found[0])
			add_words(found, len, s.found);
		snprintf(words, sizeof(words), "%s", s.include);
		for (char *w = strtok_r(words, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
			tuned_profile(c, w, depth + 1, found, len);
		return;		/* /etc's profile of a name hides /usr/lib's */
	}
}

static void find_tuned(const struct cli *c, const char *ifname, struct cli_owners *o)
{
	char path[512], active[256] = "", *save = NULL;
	char found[CLI_OWNER_KNOBS] = "";
	struct cli one = *c;
	FILE *f;

	if (!process_named(c, "tuned"))
		return;
	cli_below_root(c, path, sizeof(path), "/etc/tuned/active_profile");
	if (!is_regular(path) || !(f = fopen(path, "re")))
		return;
	if (!fgets(active, sizeof(active), f))
		active[0] = '\0';
	fclose(f);
	active[strcspn(active, "\r\n")] = '\0';
	one.device = ifname;
	/* several profiles are merged when the line names more than one */
	for (char *w = strtok_r(active, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char names[256];

		snprintf(names, sizeof(names), "%s", w);
		tuned_profile(&one, names, 0, found, sizeof(found));
	}
	if (found[0])
		owner_add(o, "tuned", "/etc/tuned/active_profile", found);
}

void cli_owners_find(const struct cli *c, const char *ifname, struct cli_owners *ret)
{
	struct cli_irqbalance ib;

	ret->n = 0;
	if (c->model && !c->root)
		return;
	if (cli_irqbalance_find(c, &ib) > 0) {
		char pid[32];

		snprintf(pid, sizeof(pid), "pid %ld", ib.pid);
		owner_add(ret, "irqbalance", pid, "irq-affinity");
	}
	find_nm(c, ifname, ret);
	find_link(c, ifname, ret);
	find_tuned(c, ifname, ret);
}

void cli_fight_who(const struct cli *c, const char *ifname, const char *what, char *buf,
		   size_t len)
{
	struct cli_owners o;

	buf[0] = '\0';
	cli_owners_find(c, ifname, &o);
	for (size_t i = 0; i < o.n; i++) {
		size_t n = strlen(buf);

		/* irqbalance fights over IRQs only; a file's owner over what it sets */
		if (!strcmp(o.list[i].name, "irqbalance") && !strstr(what, "irq"))
			continue;
		snprintf(buf + n, len - n, "%s%s (%s)", n ? ", " : "", o.list[i].name,
			 o.list[i].source);
	}
}

void cli_owners_note(struct cli *c, bool drift)
{
	struct cli_owners o;

	if (c->quiet)
		return;
	cli_owners_find(c, c->device, &o);
	for (size_t i = 0; i < o.n; i++) {
		/* irqbalance has a note of its own, with what to do about it */
		if (!strcmp(o.list[i].name, "irqbalance"))
			continue;
		fprintf(stderr, "netpolicy: %s: %s (%s) also sets %s of this device%s\n", c->device,
			o.list[i].name, o.list[i].source, o.list[i].knobs,
			drift ? ": drift there may be its doing" :
				": it may undo this policy when it applies them again");
	}
}
