/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Who may be fighting `watch` over a device's setting: what can be told
 * without asking anyone.  irqbalance (its control socket and process,
 * irqbalance.c) moves IRQs; NetworkManager re-applies a connection's
 * ethtool settings when it (re)activates it; a systemd .link file
 * (systemd.link(5), applied by udev when the device appears or changes)
 * sets channels, rings, coalescing and offloads of the devices it matches.
 * A guess for the warning, never a decision: the list may be empty.
 */
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void add(char *buf, size_t len, const char *what)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", what);
}

static bool process_named(const char *name)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/proc");

	while (d && !found && (de = readdir(d))) {
		char path[300], comm[32];
		ssize_t n;
		int fd;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
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

/* A .link file whose [Match] names the device by Name= or OriginalName=
 * (globs, space-separated); MACAddress= and Path= matches are not read. */
static bool link_matches(const char *path, const char *ifname)
{
	char line[512];
	bool match = false, in_match = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!match && fgets(line, sizeof(line), f)) {
		char *v, *save = NULL, *w;

		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '[') {
			in_match = !strcmp(line, "[Match]");
			continue;
		}
		if (!in_match)
			continue;
		if (!strncmp(line, "OriginalName=", 13))
			v = line + 13;
		else if (!strncmp(line, "Name=", 5))
			v = line + 5;
		else
			continue;
		for (w = strtok_r(v, " ", &save); w && !match; w = strtok_r(NULL, " ", &save))
			match = !fnmatch(w, ifname, 0);
	}
	fclose(f);
	return match;
}

void cli_fight_who(const struct cli *c, const char *ifname, const char *what, char *buf,
		   size_t len)
{
	static const char *const dirs[] = { "/etc/systemd/network", "/run/systemd/network",
					     "/usr/lib/systemd/network", "/lib/systemd/network" };
	struct cli_irqbalance ib;

	buf[0] = '\0';
	if (strstr(what, "irq") && cli_irqbalance_find(c, &ib) > 0) {
		char s[40];

		snprintf(s, sizeof(s), "irqbalance (pid %ld)", ib.pid);
		add(buf, len, s);
	}
	if (process_named("NetworkManager"))
		add(buf, len, "NetworkManager");
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		struct dirent *de;
		DIR *d = opendir(dirs[i]);

		while (d && (de = readdir(d))) {
			size_t n = strlen(de->d_name);
			char path[600];

			if (n < 6 || strcmp(de->d_name + n - 5, ".link"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], de->d_name);
			if (link_matches(path, ifname))
				add(buf, len, path);
		}
		if (d)
			closedir(d);
	}
}
