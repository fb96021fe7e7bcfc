/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The device lock: "<stem>.lock" in the state directory, held with flock()
 * by the one netpolicy working on the device. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "apply/np_store.h"

/* Milliseconds since start (CLOCK_MONOTONIC). */
static long elapsed_ms(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

/*
 * Wait for another holder's lock on fd: polled, not blocking, since flock()
 * restarts after a signal (SA_RESTART) and Ctrl-C must end a wait that wrote
 * nothing; bounded by np_ctx_set_lock_wait().  Said once on the log (the
 * CLI's stderr): a silent wait looks like a hang.  Closes fd on failure.
 */
static int lock_wait(struct np_store *s, int fd, bool *said, const struct timespec *start,
		     struct np_error *err)
{
	int wait = s->ctx->lock_wait;

	if (!*said && wait < 0)
		np_log(s->ctx, NP_LOG_NOTICE, "%s: waiting for another netpolicy working on it",
		       s->ifname);
	else if (!*said && wait > 0)
		np_log(s->ctx, NP_LOG_NOTICE, "%s: waiting up to %d s for another netpolicy "
		       "working on it", s->ifname, wait);
	*said = true;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		int r = -errno;

		if (r != -EWOULDBLOCK && r != -EINTR) {
			close(fd);
			return np_err(err, r, NP_PHASE_APPLY, NULL, "lock: %s", strerror(-r));
		}
		if (s->ctx->cancel_fn && s->ctx->cancel_fn(s->ctx->cancel_ud)) {
			close(fd);
			return np_err(err, -EINTR, NP_PHASE_APPLY, NULL,
				      "interrupted while waiting for the lock (nothing was changed)");
		}
		if (wait >= 0 && elapsed_ms(start) >= (long)wait * 1000) {
			close(fd);
			return np_err(err, -EBUSY, NP_PHASE_LOCK, NULL, "another netpolicy is working "
				      "on the device (waited %d s); nothing was changed", wait);
		}
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* The lock file, opened read-write, or read-only in a read-only state
 * directory (recovery must not be blocked there: an existing lock file
 * locks as well read-only).  Returns the fd. */
static int lock_open(struct np_store *s, const char *name, struct stat *st, struct np_error *err)
{
	int fd = openat(s->dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
			0600);

	if (fd < 0 && (errno == EROFS || errno == EACCES))
		fd = openat(s->dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot open lock %s: %s", name,
			      strerror(errno));
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL,
			      "lock %s is not a regular file", name);
	}
	return fd;
}

/*
 * flock() the lock file, then check that the name still points at the inode
 * locked: a holder that found its device gone unlinks the file, and a waiter
 * that locked the unlinked inode must start again on the new one.
 */
int np_store_lock_take(struct np_store *s, struct np_error *err)
{
	char name[NP_STORE_STEM_MAX + 8];
	bool said = false;
	struct timespec start;

	clock_gettime(CLOCK_MONOTONIC, &start);
	snprintf(name, sizeof(name), "%s.lock", s->stem);
	for (;;) {
		struct stat a, b;
		int fd, r;

		fd = lock_open(s, name, &a, err);
		if (fd < 0)
			return fd;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			if (errno != EWOULDBLOCK) {
				r = -errno;
				close(fd);
				return np_err(err, r, NP_PHASE_APPLY, NULL, "lock: %s", strerror(-r));
			}
			r = lock_wait(s, fd, &said, &start, err);
			if (r < 0)
				return r;
		}
		if (fstatat(s->dirfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev) {
			s->lockfd = fd;
			return 0;
		}
		close(fd);
	}
}

