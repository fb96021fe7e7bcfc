/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every other device's sysctl record in the state directory (np_store.h),
 * with whether it is of the same network namespace: net.core's values are
 * the machine's, whoever needs them, but tcp_rmem and tcp_wmem belong to
 * each namespace, so only a device of the same namespace shares those
 * (apply/base.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <net/if.h>

#include "apply/np_store.h"

/* The "@netns-DEV-INO" of a key, "" for a bare name: equal for two keys of
 * one namespace. */
static const char *netns_of(const char *stem)
{
	const char *at = strchr(stem, '@');

	return at ? at : "";
}

int np_store_sysctl_others(struct np_store *s,
			   int (*fn)(const char *ifname, const struct np_sysctl_record *rec,
				     bool same_netns, void *ud),
			   void *ud)
{
	const char *suffix = ".sysctl";
	size_t sl = strlen(suffix);
	struct dirent *de;
	DIR *d;
	int fd, r = 0;

	fd = openat(s->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		return r;
	}
	while (r >= 0 && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct np_sysctl_record rec;
		struct np_error ignored;
		struct np_store other;

		const char *at;

		/* ".KEY.sysctl.tmp" ends otherwise; every namespace's: the
		 * sysctls are the machine's */
		if (de->d_name[0] == '.' || len <= sl || len - sl >= NP_STORE_STEM_MAX ||
		    strcmp(de->d_name + len - sl, suffix))
			continue;
		other = *s;
		other.lockfd = -1;
		memcpy(other.stem, de->d_name, len - sl);
		other.stem[len - sl] = '\0';
		if (!strcmp(other.stem, s->stem))
			continue;
		/* the device's name: the key up to its "@netns-" (np_store.h) */
		at = strchr(other.stem, '@');
		if ((size_t)(at ? at - other.stem : (ptrdiff_t)(len - sl)) >= IFNAMSIZ)
			continue;
		snprintf(other.ifname, sizeof(other.ifname), "%.*s",
			 (int)(at ? at - other.stem : (ptrdiff_t)(len - sl)), other.stem);
		memset(&ignored, 0, sizeof(ignored));
		if (np_store_sysctl_load(&other, &rec, &ignored) < 0) {
			if (ignored.code == -ENOMEM) {
				r = -ENOMEM;	/* not damage: the caller must know */
				break;
			}
			continue;
		}
		r = fn(other.ifname, &rec, !strcmp(netns_of(other.stem), netns_of(s->stem)), ud);
	}
	closedir(d);
	return r;
}
