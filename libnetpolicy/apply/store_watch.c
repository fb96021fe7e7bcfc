/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What outlives one command in the state store (np_store.h): the key of the
 * network namespace records are filed under and its cookie, and a watch on the directory
 * for the --confirm watchdog. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apply/np_store.h"

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

int np_store_netns(struct np_ctx *ctx, unsigned long long *ret_dev, unsigned long long *ret_ino)
{
	struct stat sb;

	/* the simulator has no namespaces; fixture roots have no /proc */
	if (ctx->model || fstatat(ctx->rootfd, "proc/self/ns/net", &sb, 0) < 0)
		return -ENOENT;
	*ret_dev = (unsigned long long)sb.st_dev;
	*ret_ino = (unsigned long long)sb.st_ino;
	return 0;
}

unsigned long long np_store_netns_cookie(struct np_ctx *ctx)
{
	unsigned long long cookie = 0, dev, ino;
	socklen_t len = sizeof(cookie);
	int fd;

	if (np_store_netns(ctx, &dev, &ino) < 0)
		return 0;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) < 0 ||
	    len != sizeof(cookie))
		cookie = 0;
	close(fd);
	return cookie;
}

int np_store_watch(struct np_store *s, int *ret_fd, struct np_error *err)
{
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	if (fd < 0)
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "inotify: %s", strerror(errno));
	/* records are replaced by rename and removed by unlink */
	if (inotify_add_watch(fd, s->ctx->state_dir, IN_CREATE | IN_DELETE | IN_MOVED_TO |
			      IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR) < 0) {
		int r = -errno;

		close(fd);
		return np_err(err, r, NP_PHASE_APPLY, NULL, "cannot watch %s: %s",
			      s->ctx->state_dir, strerror(-r));
	}
	*ret_fd = fd;
	return 0;
}

int np_store_lock_id(struct np_store *s, unsigned long long ret[2])
{
	char name[NP_STORE_STEM_MAX + 8];
	struct stat st;

	ret[0] = ret[1] = 0;
	snprintf(name, sizeof(name), "%s.lock", s->stem);
	if (s->lockfd >= 0 && fstat(s->lockfd, &st) < 0)
		return -errno;
	if (s->lockfd < 0 && (s->dirfd < 0 || fstatat(s->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0))
		return -ENOENT;
	ret[0] = (unsigned long long)st.st_dev;
	ret[1] = (unsigned long long)st.st_ino;
	return 0;
}
