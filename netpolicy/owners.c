/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Who else tunes a device's knobs, told from what is on disk and in /run
 * (below --root for tests), without asking anyone, once per command
 * whatever the number of devices and processes: a service is found by
 * what it publishes (irqbalance's socket, a pid file, its systemd unit's
 * cgroup) and the one process named there, never by a walk of /proc; its
 * files are read once (owners_read.c) and each device matched in memory.
 *
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
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "owners.h"

/* Each word of a ", "-separated list into buf once. */
static void add_words(char *buf, size_t len, const char *list)
{
	char words[CLI_OWNER_KNOBS], *save = NULL;

	snprintf(words, sizeof(words), "%s", list);
	for (char *w = strtok_r(words, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
		owners_add_word(buf, len, w);
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

/* What the command found, once: services by what they publish, their
 * files read whole (owners_read.c); every device is matched in memory. */
static struct {
	bool loaded;
	bool nm, tuned;		/* running */
	struct owner_list links, nm_files, tuned_sections;
} seen;

void cli_owners_forget(void)
{
	owners_list_free(&seen.links);
	owners_list_free(&seen.nm_files);
	owners_list_free(&seen.tuned_sections);
	seen.loaded = false;
	cli_irqbalance_forget();
}

static void load(const struct cli *c)
{
	if (seen.loaded)
		return;
	seen.loaded = true;
	/* NetworkManager writes its pid file when it daemonizes itself; under
	 * systemd (--no-daemon) its unit's cgroup names it.  tuned -P (its
	 * unit's way) writes /run/tuned/tuned.pid. */
	seen.nm = cli_service_pid(c, "NetworkManager", "/run/NetworkManager/NetworkManager.pid") > 0;
	seen.tuned = cli_service_pid(c, "tuned", "/run/tuned/tuned.pid") > 0;
	if (seen.nm)
		owners_read_nm(c, &seen.nm_files);
	owners_read_links(c, &seen.links);
	if (seen.tuned)
		owners_read_tuned(c, &seen.tuned_sections);
}

/* One of the words (separated by any of seps) of list matches ifname. */
static bool glob_any(const char *list, const char *seps, const char *ifname)
{
	char words[1024], *save = NULL;

	snprintf(words, sizeof(words), "%s", list ? list : "");
	for (char *w = strtok_r(words, seps, &save); w; w = strtok_r(NULL, seps, &save))
		if (!fnmatch(w, ifname, 0))
			return true;
	return false;
}

void cli_owners_find(const struct cli *c, const char *ifname, struct cli_owners *ret)
{
	struct cli_irqbalance ib;
	char found[CLI_OWNER_KNOBS] = "";

	ret->n = 0;
	if (c->model && !c->root)
		return;
	load(c);
	if (cli_irqbalance_find(c, &ib) > 0) {
		char pid[32];

		snprintf(pid, sizeof(pid), "pid %ld", ib.pid);
		owner_add(ret, "irqbalance", pid, "irq-affinity");
	}
	for (size_t i = 0; i < seen.nm_files.n; i++) {
		const struct owner_file *f = &seen.nm_files.v[i];

		if (!strcmp(f->match, ifname))
			owner_add(ret, "NetworkManager", f->path, f->knobs);
	}
	/* udev applies the first file that matches, and only that one */
	for (size_t i = 0; i < seen.links.n; i++) {
		const struct owner_file *f = &seen.links.v[i];

		if (f->masked || !f->has_match || !glob_any(f->match, " ", ifname))
			continue;
		if (f->knobs[0])
			owner_add(ret, "systemd.link", f->path, f->knobs);
		break;
	}
	for (size_t i = 0; i < seen.tuned_sections.n; i++) {
		const struct owner_file *f = &seen.tuned_sections.v[i];

		if (!f->has_match || glob_any(f->match, ", ", ifname))
			add_words(found, sizeof(found), f->knobs);
	}
	if (found[0])
		owner_add(ret, "tuned", "/etc/tuned/active_profile", found);
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
