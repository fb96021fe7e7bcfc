/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The files of other owners (below --root for tests), each read once per
 * command into an owner_list that owners.c matches every device against:
 * what a command costs does not grow with its devices.
 *
 * The files may be written by anyone who can configure the machine, and a
 * hostile or broken one must not hang or mislead every command: each file
 * is read at most once (a tuned profile included again, even by itself, is
 * not read again), includes, files and lines are bounded, and a line too
 * long for the buffer is skipped whole rather than read as several lines
 * (its tail could look like a key of its own).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "owners.h"

/* A line of 1023 bytes and its newline fit; a longer one is skipped. */
#define LINE_BUF 1025

void owners_add_word(char *buf, size_t len, const char *word)
{
	size_t n = strlen(buf), w = strlen(word);

	for (const char *p = buf; (p = strstr(p, word)); p += w)
		if ((p == buf || p[-1] == ' ') && (p[w] == ',' || p[w] == '\0'))
			return;
	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", word);
}

/* *s = *s + " " + word; out of memory leaves *s as it was (a guess only) */
static void append(char **s, const char *word)
{
	size_t n = *s ? strlen(*s) : 0, w = strlen(word);
	char *p = realloc(*s, n + w + 2);

	if (!p)
		return;
	if (n)
		p[n++] = ' ';
	memcpy(p + n, word, w + 1);
	*s = p;
}

static struct owner_file *push(struct owner_list *l, const char *path)
{
	struct owner_file *f;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct owner_file *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	f = &l->v[l->n];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	l->n++;
	return f;
}

void owners_list_free(struct owner_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].match);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* The path as shown: without the --root prefix. */
static const char *shown(const struct cli *c, const char *path)
{
	return path + (c->root ? strlen(c->root) : 0);
}

/* An INI-style file (.link, NetworkManager keyfile, tuned.conf): each
 * key=value line with its section, to fn.  Only regular files (a FIFO left
 * there must not hang netpolicy), symlinks followed only when follow. */
typedef void (*ini_fn)(void *ud, const char *section, const char *key, const char *value);

static void ini_read(const char *path, bool follow, ini_fn fn, void *ud)
{
	char line[LINE_BUF], section[64] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
	struct stat sb;
	FILE *f;

	if (fd < 0)
		return;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || !(f = fdopen(fd, "re"))) {
		close(fd);
		return;
	}
	for (size_t lines = 0; lines < OWNERS_LINES_MAX && fgets(line, sizeof(line), f); lines++) {
		char *k = line, *v, *end;

		if (!strchr(line, '\n') && !feof(f)) {
			int ch;

			while ((ch = getc(f)) != EOF && ch != '\n')
				;
			continue;	/* too long: skipped whole */
		}
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
		fn(ud, section, k, v);
	}
	fclose(f);
}

static bool is_regular(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* --- systemd .link files ----------------------------------------------------- */

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

static void link_line(void *ud, const char *section, const char *key, const char *value)
{
	struct owner_file *f = ud;
	const char *knob;

	if (!strcmp(section, "Match") && (!strcmp(key, "Name") || !strcmp(key, "OriginalName"))) {
		f->has_match = true;
		append(&f->match, value);
	} else if (!strcmp(section, "Link") && value[0] && (knob = link_knob(key))) {
		owners_add_word(f->knobs, sizeof(f->knobs), knob);
	}
}

static int base_cmp(const void *a, const void *b)
{
	const struct owner_file *x = a, *y = b;

	return strcmp(strrchr(x->path, '/') + 1, strrchr(y->path, '/') + 1);
}

/* What a directory entry named `path` is to udev: 1 a file to read, 0 a
 * mask (a symlink to /dev/null hides the name in later directories), -1
 * nothing (a dangling link, a directory). */
static int link_entry(const char *path)
{
	struct stat sb;
	char target[16];
	ssize_t n;

	if (lstat(path, &sb) < 0)
		return -1;
	if (S_ISLNK(sb.st_mode)) {
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			if (!strcmp(target, "/dev/null"))
				return 0;
		}
		if (stat(path, &sb) < 0)
			return -1;
	}
	if (S_ISCHR(sb.st_mode))
		return 0;
	return S_ISREG(sb.st_mode) ? 1 : -1;
}

void owners_read_links(const struct cli *c, struct owner_list *l)
{
	/* earlier directories win a file name (systemd.link(5)) */
	static const char *const dirs[] = { "/etc/systemd/network", "/run/systemd/network",
					     "/usr/lib/systemd/network", "/lib/systemd/network" };

	struct stat read_dirs[sizeof(dirs) / sizeof(dirs[0])];
	size_t n_read = 0;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t before = l->n;
		char dir[512];
		struct dirent *de;
		struct stat sb;
		DIR *d;

		cli_below_root(c, dir, sizeof(dir), dirs[i]);
		d = opendir(dir);
		/* /lib is /usr/lib on a merged-/usr system: read it once */
		for (size_t k = 0; d && k < n_read; k++)
			if (fstat(dirfd(d), &sb) == 0 && sb.st_dev == read_dirs[k].st_dev &&
			    sb.st_ino == read_dirs[k].st_ino) {
				closedir(d);
				d = NULL;
			}
		if (d && fstat(dirfd(d), &read_dirs[n_read]) == 0)
			n_read++;
		while (d && l->n < OWNERS_FILES_MAX && (de = readdir(d))) {
			size_t len = strlen(de->d_name);
			struct owner_file *f;
			bool seen = false;
			char path[800];
			int kind;

			if (len < 6 || strcmp(de->d_name + len - 5, ".link"))
				continue;
			for (size_t k = 0; k < before && !seen; k++)
				seen = !strcmp(strrchr(l->v[k].path, '/') + 1, de->d_name);
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (seen || (kind = link_entry(path)) < 0 || !(f = push(l, path)))
				continue;
			f->masked = kind == 0;
		}
		if (d)
			closedir(d);
	}
	if (l->n)
		qsort(l->v, l->n, sizeof(l->v[0]), base_cmp);
	for (size_t k = 0; k < l->n; k++) {
		if (!l->v[k].masked)
			ini_read(l->v[k].path, true, link_line, &l->v[k]);
		memmove(l->v[k].path, shown(c, l->v[k].path), strlen(shown(c, l->v[k].path)) + 1);
	}
}

/* --- NetworkManager keyfiles --------------------------------------------------- */

static void nm_line(void *ud, const char *section, const char *key, const char *value)
{
	struct owner_file *f = ud;

	if (!strcmp(section, "connection") && !strcmp(key, "interface-name")) {
		free(f->match);
		f->match = strdup(value);
		f->has_match = f->match != NULL;
	} else if (!strcmp(section, "ethtool") && !strncmp(key, "coalesce-", 9)) {
		owners_add_word(f->knobs, sizeof(f->knobs), "coalesce");
	} else if (!strcmp(section, "ethtool") && !strncmp(key, "ring-", 5)) {
		owners_add_word(f->knobs, sizeof(f->knobs), "rings");
	} else if (!strcmp(section, "ethtool") && !strncmp(key, "feature-", 8)) {
		owners_add_word(f->knobs, sizeof(f->knobs), "features");
	} else if (!strcmp(section, "ethtool") && !strncmp(key, "channels-", 9)) {
		owners_add_word(f->knobs, sizeof(f->knobs), "channels");
	}
}

void owners_read_nm(const struct cli *c, struct owner_list *l)
{
	static const char *const dirs[] = { "/etc/NetworkManager/system-connections",
					     "/run/NetworkManager/system-connections" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t files = 0;
		char dir[512];
		struct dirent *de;
		DIR *d;

		cli_below_root(c, dir, sizeof(dir), dirs[i]);
		d = opendir(dir);
		while (d && files < OWNERS_FILES_MAX && (de = readdir(d))) {
			struct owner_file *f;
			char path[800];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (!is_regular(path) || !(f = push(l, shown(c, path))))
				continue;
			files++;
			ini_read(path, false, nm_line, f);
			if (f->has_match && f->knobs[0])
				continue;
			/* names no device or sets nothing of ours: not kept */
			free(f->path);
			free(f->match);
			l->n--;
		}
		if (d)
			closedir(d);
	}
}

/* --- tuned ----------------------------------------------------------------------- */

struct tuned_scan {
	const struct cli *c;
	struct owner_list *l;
	const char *path;
	char include[256];
	char type[32];		/* the current section's plugin */
	char section[64];
	char *devices;		/* of the current section, NULL: not given */
	char knobs[CLI_OWNER_KNOBS];	/* of the current section */
};

/* A net section that sets knobs of ours is kept, with its devices. */
static void tuned_section_end(struct tuned_scan *s)
{
	struct owner_file *f;

	if (!strcmp(s->type, "net") && s->knobs[0] && (f = push(s->l, shown(s->c, s->path)))) {
		f->has_match = s->devices != NULL;
		f->match = s->devices;
		s->devices = NULL;
		snprintf(f->knobs, sizeof(f->knobs), "%s", s->knobs);
	}
	free(s->devices);
	s->devices = NULL;
	s->knobs[0] = '\0';
}

static void tuned_line(void *ud, const char *section, const char *key, const char *value)
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
		free(s->devices);
		s->devices = strdup(value);
	} else if (!strcmp(key, "channels") || !strcmp(key, "ring") ||
		   !strcmp(key, "coalesce") || !strcmp(key, "features")) {
		owners_add_word(s->knobs, sizeof(s->knobs), !strcmp(key, "ring") ? "rings" : key);
	}
}

struct tuned_seen {
	char names[OWNERS_TUNED_PROFILES_MAX][64];
	size_t n;
};

/* A profile and the profiles it includes, each name once however often it
 * is included (a profile including itself included). */
static void tuned_profile(const struct cli *c, const char *name, int depth,
			  struct tuned_seen *seen, struct owner_list *l)
{
	static const char *const dirs[] = { "/etc/tuned", "/usr/lib/tuned" };
	char words[256], *save = NULL;

	if (depth > OWNERS_TUNED_DEPTH_MAX || !name[0] || strchr(name, '/') ||
	    !strcmp(name, "..") || strlen(name) >= sizeof(seen->names[0]))
		return;
	for (size_t i = 0; i < seen->n; i++)
		if (!strcmp(seen->names[i], name))
			return;
	if (seen->n == OWNERS_TUNED_PROFILES_MAX)
		return;
	snprintf(seen->names[seen->n++], sizeof(seen->names[0]), "%s", name);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char rel[400], path[800];
		struct tuned_scan s = { .c = c, .l = l, .path = path };

		snprintf(rel, sizeof(rel), "%s/%s/tuned.conf", dirs[i], name);
		cli_below_root(c, path, sizeof(path), rel);
		if (!is_regular(path))
			continue;
		ini_read(path, false, tuned_line, &s);
		tuned_section_end(&s);
		snprintf(words, sizeof(words), "%s", s.include);
		for (char *w = strtok_r(words, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
			tuned_profile(c, w, depth + 1, seen, l);
		return;		/* /etc's profile of a name hides /usr/lib's */
	}
}

void owners_read_tuned(const struct cli *c, struct owner_list *l)
{
	char path[512], active[256] = "", *save = NULL;
	struct tuned_seen seen = { .n = 0 };
	FILE *f;

	cli_below_root(c, path, sizeof(path), "/etc/tuned/active_profile");
	if (!is_regular(path) || !(f = fopen(path, "re")))
		return;
	if (!fgets(active, sizeof(active), f))
		active[0] = '\0';
	fclose(f);
	active[strcspn(active, "\r\n")] = '\0';
	/* several profiles are merged when the line names more than one */
	for (char *w = strtok_r(active, " ", &save); w; w = strtok_r(NULL, " ", &save))
		tuned_profile(c, w, 0, &seen, l);
}
