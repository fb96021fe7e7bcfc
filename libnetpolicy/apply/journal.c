/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Files under the state directory (default /run/netpolicy, root only):
 *   IFNAME.lock          flock()ed for the whole of an apply or reset
 *   IFNAME.pristine      the device as it was before netpolicy first changed it
 *   IFNAME.journal       line 1: the state to return to; then start/done marks
 *   IFNAME.policy        the policy last applied
 * Everything is written so that a crash at any point leaves either the old
 * file or the new one, never a torn one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "np_journal.h"
#include "np_serialize.h"

int np_statedir_open(struct np_ctx *ctx, int *ret_dirfd, struct np_error *err)
{
	struct stat sb;
	int fd;

	if (mkdir(ctx->state_dir, 0700) < 0 && errno != EEXIST)
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot create state directory %s: %s",
			      ctx->state_dir, strerror(errno));
	fd = open(ctx->state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot open state directory %s: %s",
			      ctx->state_dir, strerror(errno));
	/* Journals decide what gets written to devices: nobody else may plant one. */
	if (fstat(fd, &sb) < 0 || sb.st_uid != geteuid() || (sb.st_mode & 0022)) {
		close(fd);
		return np_err(err, -EPERM, NP_PHASE_APPLY, NULL,
			      "state directory %s must be owned by uid %u and not writable by others",
			      ctx->state_dir, (unsigned)geteuid());
	}
	*ret_dirfd = fd;
	return 0;
}

int np_device_lock(struct np_ctx *ctx, int dirfd, const char *ifname, int *ret_fd,
		   struct np_error *err)
{
	char name[IFNAMSIZ + 8];
	int fd;

	snprintf(name, sizeof(name), "%s.lock", ifname);
	fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot open lock %s: %s", name,
			      strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK) {
			int r = -errno;

			close(fd);
			return np_err(err, r, NP_PHASE_APPLY, NULL, "lock: %s", strerror(-r));
		}
		np_log(ctx, NP_LOG_INFO, "%s: waiting for another netpolicy working on it", ifname);
		if (flock(fd, LOCK_EX) < 0) {
			int r = -errno;

			close(fd);
			return np_err(err, r, NP_PHASE_APPLY, NULL, "lock: %s", strerror(-r));
		}
	}
	*ret_fd = fd;
	return 0;
}

static int write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

int np_text_save(int dirfd, const char *file, const char *text, struct np_error *err)
{
	char tmp[256];
	int fd, r;

	snprintf(tmp, sizeof(tmp), ".%s.tmp", file);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot write %s: %s", tmp,
			      strerror(errno));
	r = write_all(fd, text, strlen(text));
	if (!r && fsync(fd) < 0)
		r = -errno;
	close(fd);
	if (!r && renameat(dirfd, tmp, dirfd, file) < 0)
		r = -errno;
	if (!r && fsync(dirfd) < 0)
		r = -errno;
	if (r < 0) {
		unlinkat(dirfd, tmp, 0);
		return np_err(err, r, NP_PHASE_APPLY, NULL, "cannot save %s: %s", file, strerror(-r));
	}
	return 0;
}

int np_state_save(int dirfd, const char *file, const struct np_state *st, struct np_error *err)
{
	struct json_object *obj;
	int r;

	if (np_state_to_json(st, &obj) < 0)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	r = np_text_save(dirfd, file, json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN), err);
	json_object_put(obj);
	return r;
}

/* Reads a whole (small) file; the caller frees. */
int np_slurp_file(int dirfd, const char *file, char **ret)
{
	struct stat sb;
	char *buf;
	ssize_t n;
	size_t got = 0;
	int fd;

	fd = openat(dirfd, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) < 0 || sb.st_size > (64 << 20)) {
		close(fd);
		return -EFBIG;
	}
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)sb.st_size && (n = read(fd, buf + got, (size_t)sb.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	*ret = buf;
	return 0;
}

static int state_parse(const char *text, const char *file, struct np_state **ret,
		       struct np_error *err)
{
	struct json_object *obj;
	int r;

	obj = json_tokener_parse(text);
	if (!obj)
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s is not valid JSON", file);
	r = np_state_from_json_full(obj, ret, err);
	json_object_put(obj);
	return r;
}

int np_state_load(int dirfd, const char *file, struct np_state **ret, struct np_error *err)
{
	char *text;
	int r;

	r = np_slurp_file(dirfd, file, &text);
	if (r == -ENOENT)
		return r;
	if (r < 0)
		return np_err(err, r, NP_PHASE_APPLY, NULL, "cannot read %s: %s", file, strerror(-r));
	r = state_parse(text, file, ret, err);
	free(text);
	return r;
}

int np_file_remove(int dirfd, const char *file)
{
	if (unlinkat(dirfd, file, 0) < 0 && errno != ENOENT)
		return -errno;
	return fsync(dirfd) < 0 ? -errno : 0;
}

struct np_journal {
	int dirfd, fd;
	char file[IFNAMSIZ + 16];
};

int np_journal_begin(int dirfd, const char *ifname, const struct np_state *before,
		     const char *what, struct np_journal **ret, struct np_error *err)
{
	struct json_object *obj, *hdr;
	struct np_journal *j;
	const char *text;
	int r;

	j = calloc(1, sizeof(*j));
	if (!j || np_state_to_json(before, &obj) < 0) {
		free(j);
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	}
	hdr = json_object_new_object();
	json_object_object_add(hdr, "journal", json_object_new_int(1));
	json_object_object_add(hdr, "what", json_object_new_string(what));
	json_object_object_add(hdr, "before", obj);
	text = json_object_to_json_string_ext(hdr, JSON_C_TO_STRING_PLAIN);
	j->dirfd = dirfd;
	snprintf(j->file, sizeof(j->file), "%s.journal", ifname);
	/* The header goes through a temp file and rename, so a journal that
	 * exists always has a whole header. */
	r = np_text_save(dirfd, j->file, text, err);
	json_object_put(hdr);
	if (r < 0) {
		free(j);
		return r;
	}
	j->fd = openat(dirfd, j->file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (j->fd < 0 || write_all(j->fd, "\n", 1) < 0) {
		r = -errno;
		if (j->fd >= 0)
			close(j->fd);
		np_file_remove(dirfd, j->file);
		free(j);
		return np_err(err, r, NP_PHASE_APPLY, NULL, "journal: %s", strerror(-r));
	}
	*ret = j;
	return 0;
}

int np_journal_mark(struct np_journal *j, const char *event, unsigned step, const char *knob,
		    const char *what)
{
	char line[160];
	int n;

	n = snprintf(line, sizeof(line), "%s %u %s %s\n", event, step, knob, what);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1, line[n - 1] = '\n';
	if (write_all(j->fd, line, (size_t)n) < 0)
		return -errno;
	/* Write-ahead: a step is on disk before it is made.  "done" needs no
	 * sync: recovery returns to the header's state either way, and the
	 * next "start" (or the journal's removal) orders it. */
	if (!strcmp(event, "start") && fdatasync(j->fd) < 0)
		return -errno;
	return 0;
}

void np_journal_end(struct np_journal *j, bool keep)
{
	if (!j)
		return;
	close(j->fd);
	if (!keep)
		np_file_remove(j->dirfd, j->file);
	free(j);
}

int np_journal_load(int dirfd, const char *ifname, struct np_state **ret, char *last,
		    size_t last_len, struct np_error *err)
{
	char file[IFNAMSIZ + 16], *text, *nl, *p;
	struct json_object *hdr, *before;
	int r;

	snprintf(file, sizeof(file), "%s.journal", ifname);
	r = np_slurp_file(dirfd, file, &text);
	if (r == -ENOENT)
		return r;
	if (r < 0)
		return np_err(err, r, NP_PHASE_ROLLBACK, NULL, "cannot read journal %s: %s", file,
			      strerror(-r));
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	snprintf(last, last_len, "before the first step");
	/* the last "start" mark names the step the crash interrupted */
	for (p = nl ? nl + 1 : NULL; p && *p;) {
		char *end = strchr(p, '\n');

		if (end)
			*end = '\0';
		if (!strncmp(p, "start ", 6))
			snprintf(last, last_len, "in step %s", p + 6);
		else if (!strncmp(p, "done ", 5))
			snprintf(last, last_len, "after step %s", p + 5);
		p = end ? end + 1 : NULL;
	}
	hdr = json_tokener_parse(text);
	free(text);
	if (!hdr || !json_object_object_get_ex(hdr, "before", &before)) {
		json_object_put(hdr);
		return np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "journal %s is damaged", file);
	}
	r = np_state_from_json_full(before, ret, err);
	json_object_put(hdr);
	return r;
}
