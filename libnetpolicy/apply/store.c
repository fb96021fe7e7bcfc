/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The state directory and how its files are read and
 * written (np_store.h says what each file holds). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/np_serialize.h"
#include "apply/np_store.h"

/* A system call again while it fails with EINTR; its last result. */
#define retry_eintr(call) ({ int r_; do r_ = (call); while (r_ < 0 && errno == EINTR); r_; })

static const char *const kinds[NP_FILE__COUNT] = {
	[NP_FILE_PRISTINE] = "pristine",
	[NP_FILE_POLICY] = "policy",
	[NP_FILE_TENTATIVE] = "tentative",
	[NP_FILE_JOURNAL] = "journal",
	[NP_FILE_SYSCTL] = "sysctl",
	[NP_FILE_EXPIRED] = "expired",
	[NP_FILE_TRY] = "try",
};

const char *np_store_file_name(enum np_file f)
{
	return kinds[f];
}

/* Room for a file's name: the stem, ".KIND" and the temp file's dots. */
#define NAME_MAX_LEN (NP_STORE_STEM_MAX + 24)

static void file_name(const struct np_store *s, enum np_file f, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s", s->stem, kinds[f]);
}

static void tmp_name(const struct np_store *s, enum np_file f, char *buf, size_t len)
{
	snprintf(buf, len, ".%s.%s.tmp", s->stem, kinds[f]);
}

static int dir_open(struct np_ctx *ctx, bool create, int *ret, struct np_error *err)
{
	struct stat sb;
	int fd;

	if (create && mkdir(ctx->state_dir, 0700) < 0 && errno != EEXIST && errno != EROFS)
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot create state directory %s: %s",
			      ctx->state_dir, strerror(errno));
	fd = open(ctx->state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (!create && errno == ENOENT)
			return -ENOENT;
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot open state directory %s: %s",
			      ctx->state_dir, strerror(errno));
	}
	/* Journals decide what gets written to devices: nobody else may plant one. */
	if (fstat(fd, &sb) < 0 || sb.st_uid != geteuid() || (sb.st_mode & 0022)) {
		close(fd);
		return np_err(err, -EPERM, NP_PHASE_APPLY, NULL,
			      "state directory %s must be owned by uid %u and not writable by others",
			      ctx->state_dir, (unsigned)geteuid());
	}
	*ret = fd;
	return 0;
}

/* A killed writer leaves ".IFNAME.KIND.tmp": ours to remove under the lock. */
static void temps_remove(struct np_store *s)
{
	for (int f = 0; f < NP_FILE__COUNT; f++) {
		char tmp[NAME_MAX_LEN];

		tmp_name(s, (enum np_file)f, tmp, sizeof(tmp));
		if (unlinkat(s->dirfd, tmp, 0) == 0)
			np_log(s->ctx, NP_LOG_INFO, "%s: removed %s left by an interrupted run",
			       s->ifname, tmp);
	}
}

static int store_init(struct np_ctx *ctx, const char *ifname, struct np_store *s,
		      struct np_error *err)
{
	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->dirfd = s->lockfd = -1;
	if (np_ifname_validate(ifname, err) < 0)
		return -EINVAL;
	snprintf(s->ifname, sizeof(s->ifname), "%s", ifname);
	snprintf(s->stem, sizeof(s->stem), "%s", ifname);
	return 0;
}

/* The device's key in this namespace (np_store.h); the bare name when the
 * namespace cannot be told. */
static void stem_keyed(struct np_store *s)
{
	unsigned long long dev, ino;

	if (np_store_netns(s->ctx, &dev, &ino) == 0) {
		snprintf(s->stem, sizeof(s->stem), "%s@netns-%llu-%llu", s->ifname, dev, ino);
		s->cookie = np_store_netns_cookie(s->ctx);
	}
}

/* --- files of the bare name, written before the key --------------------------- */

/* The bare name has files and none of them records another namespace. */
static bool legacy_ours(struct np_store *legacy, unsigned long long ino)
{
	static const enum np_file owners[] = { NP_FILE_JOURNAL, NP_FILE_PRISTINE };
	bool any = false;

	for (int f = 0; f < NP_FILE__COUNT; f++)
		any = any || np_store_has(legacy, (enum np_file)f);
	for (size_t i = 0; any && i < NP_ARRAY_SIZE(owners); i++) {
		unsigned long long x = np_store_has(legacy, owners[i]) ? np_store_recorded(legacy, owners[i], "netns") : 0;

		if (x && x != ino)
			return false;
	}
	return any;
}

static void legacy_of(const struct np_store *s, struct np_store *ret)
{
	*ret = *s;
	ret->lockfd = -1;
	snprintf(ret->stem, sizeof(ret->stem), "%s", s->ifname);
}

/*
 * With the key's lock held: move this namespace's files of the bare name to
 * the key, under the bare name's lock too (an older netpolicy may be working
 * on them).  Another namespace's are left for it to move.  The journal and
 * the snapshot, which say whose the files are, move last: a run killed
 * half-way leaves them to say it again.  A file the key has already is not
 * replaced (said, and left where it is).
 */
static int legacy_adopt(struct np_store *s, struct np_error *err)
{
	static const enum np_file order[] = { NP_FILE_SYSCTL, NP_FILE_POLICY, NP_FILE_TENTATIVE,
					      NP_FILE_PRISTINE, NP_FILE_JOURNAL };
	unsigned long long dev, ino;
	struct np_store legacy;
	unsigned moved = 0;
	bool left = false;
	int r;

	if (!strcmp(s->stem, s->ifname) || np_store_netns(s->ctx, &dev, &ino) < 0)
		return 0;
	legacy_of(s, &legacy);
	if (!legacy_ours(&legacy, ino))
		return 0;
	r = np_store_lock_take(&legacy, err);
	if (r < 0)
		return r;
	temps_remove(&legacy);
	for (size_t i = 0; legacy_ours(&legacy, ino) && i < NP_ARRAY_SIZE(order); i++) {
		char from[NAME_MAX_LEN], to[NAME_MAX_LEN];

		file_name(&legacy, order[i], from, sizeof(from));
		file_name(s, order[i], to, sizeof(to));
		if (renameat2(s->dirfd, from, s->dirfd, to, RENAME_NOREPLACE) == 0) {
			moved++;
		} else if (errno != ENOENT) {
			np_log(s->ctx, NP_LOG_WARNING, "%s: cannot move %s/%s to %s: %s", s->ifname,
			       s->ctx->state_dir, from, to, strerror(errno));
			left = true;
		}
	}
	if (moved) {
		fsync(s->dirfd);
		np_log(s->ctx, NP_LOG_INFO, "%s: moved %u record(s) of this network namespace to %s.*",
		       s->ifname, moved, s->stem);
	}
	if (!left) {
		char name[NAME_MAX_LEN];

		/* while holding it: a waiter finds the inode it locked unlinked
		 * and starts again (lock_take) */
		snprintf(name, sizeof(name), "%s.lock", legacy.stem);
		if (!legacy_ours(&legacy, ino))
			unlinkat(s->dirfd, name, 0);
	}
	close(legacy.lockfd);
	return 0;
}

/* Without the lock: the bare name's files are read where they are when the
 * key has none and they are this namespace's (the next locked open moves
 * them). */
static void legacy_peek(struct np_store *s)
{
	unsigned long long dev, ino;
	struct np_store legacy;

	if (!strcmp(s->stem, s->ifname) || np_store_netns(s->ctx, &dev, &ino) < 0)
		return;
	for (int f = 0; f < NP_FILE__COUNT; f++)
		if (np_store_has(s, (enum np_file)f))
			return;
	legacy_of(s, &legacy);
	if (legacy_ours(&legacy, ino))
		snprintf(s->stem, sizeof(s->stem), "%s", s->ifname);
}

int np_store_open(struct np_ctx *ctx, const char *ifname, struct np_store *s,
		  struct np_error *err)
{
	int r;

	r = store_init(ctx, ifname, s, err);
	if (r < 0)
		return r;
	r = dir_open(ctx, true, &s->dirfd, err);
	if (r < 0)
		return r;
	stem_keyed(s);
	r = np_store_lock_take(s, err);
	if (r >= 0) {
		temps_remove(s);
		np_store_stale_check(s);
		r = legacy_adopt(s, err);
		if (r < 0)
			close(s->lockfd);
	}
	if (r < 0) {
		close(s->dirfd);
		s->dirfd = s->lockfd = -1;
		return r;
	}
	return 0;
}

int np_store_open_readonly(struct np_ctx *ctx, const char *ifname, struct np_store *s,
			   struct np_error *err)
{
	int r;

	r = store_init(ctx, ifname, s, err);
	if (r < 0)
		return r;
	r = dir_open(ctx, false, &s->dirfd, err);
	if (r < 0)
		return r;
	stem_keyed(s);
	np_store_stale_check(s);
	if (!s->stale)
		legacy_peek(s);
	return 0;
}

int np_store_peek(struct np_ctx *ctx, const char *ifname, np_store_peek_fn fn, void *ud,
		  struct np_error *err)
{
	struct np_store s;
	int r;

	r = np_store_open_readonly(ctx, ifname, &s, err);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	r = fn(&s, ud, err);
	np_store_close(&s, false);
	return r == -ENOENT ? 0 : r;
}

void np_store_close(struct np_store *s, bool forget)
{
	if (s->lockfd >= 0) {
		if (forget) {
			char name[NAME_MAX_LEN];

			snprintf(name, sizeof(name), "%s.lock", s->stem);
			unlinkat(s->dirfd, name, 0);
		}
		close(s->lockfd);
	}
	if (s->dirfd >= 0)
		close(s->dirfd);
	s->dirfd = s->lockfd = -1;
}

bool np_store_has(const struct np_store *s, enum np_file f)
{
	char name[NAME_MAX_LEN];

	file_name(s, f, name, sizeof(name));
	return s->dirfd >= 0 && !s->stale && faccessat(s->dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

int np_store_remove(struct np_store *s, enum np_file f, struct np_error *err)
{
	char name[NAME_MAX_LEN];

	file_name(s, f, name, sizeof(name));
	if (retry_eintr(unlinkat(s->dirfd, name, 0)) < 0) {
		if (errno == ENOENT)
			return 0;
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot remove %s/%s: %s",
			      s->ctx->state_dir, name, strerror(errno));
	}
	if (retry_eintr(fsync(s->dirfd)) < 0)
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot sync %s: %s",
			      s->ctx->state_dir, strerror(errno));
	return 0;
}

int np_store_open_text(struct np_ctx *ctx, const char *ifname, const char *text, size_t len,
		       struct np_store *s, struct np_error *err)
{
	int r;

	r = store_init(ctx, ifname, s, err);
	if (r < 0)
		return r;
	s->text = text;
	s->text_len = len;
	return 0;
}

/* What every reader of the file's text relies on: at most NP_STORE_MAX_FILE
 * bytes, no NUL, NUL-terminated.  One path for a file and for the text of
 * np_store_open_text, so the fuzzed checks are the ones files get. */
static int text_checked(struct np_store *s, const char *name, char *buf, size_t got,
			char **ret, size_t *ret_len, struct np_error *err)
{
	if (got > NP_STORE_MAX_FILE) {
		free(buf);
		return np_err(err, -EFBIG, NP_PHASE_APPLY, NULL, "%s/%s is larger than %u bytes",
			      s->ctx->state_dir, name, NP_STORE_MAX_FILE);
	}
	if (memchr(buf, '\0', got)) {
		free(buf);
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s/%s is not text",
			      s->ctx->state_dir, name);
	}
	buf[got] = '\0';
	*ret = buf;
	if (ret_len)
		*ret_len = got;
	return 0;
}

static int text_read(struct np_store *s, const char *name, char **ret, size_t *ret_len,
		     struct np_error *err)
{
	char *buf;

	if (s->text_len > NP_STORE_MAX_FILE)
		return text_checked(s, name, NULL, s->text_len, ret, ret_len, err);
	buf = malloc(s->text_len + 1);
	if (!buf)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	memcpy(buf, s->text, s->text_len);
	return text_checked(s, name, buf, s->text_len, ret, ret_len, err);
}

int np_store_read(struct np_store *s, enum np_file f, char **ret, size_t *ret_len,
		  struct np_error *err)
{
	char name[NAME_MAX_LEN], *buf;
	struct stat sb;
	size_t got = 0, cap;
	int fd, r;

	file_name(s, f, name, sizeof(name));
	if (s->text)
		return text_read(s, name, ret, ret_len, err);
	if (s->stale)
		return -ENOENT;
	/* Non-blocking: a FIFO planted here must not hang us with the lock held. */
	fd = openat(s->dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return -ENOENT;
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot read %s/%s: %s",
			      s->ctx->state_dir, name, strerror(errno));
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s/%s is not a regular file",
			      s->ctx->state_dir, name);
	}
	if (sb.st_size > (off_t)NP_STORE_MAX_FILE) {
		close(fd);
		return text_checked(s, name, NULL, (size_t)sb.st_size, ret, ret_len, err);
	}
	cap = (size_t)sb.st_size + 1;
	buf = malloc(cap + 1);
	if (!buf) {
		close(fd);
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	}
	/* Read one byte more than its size: a file growing under us is refused. */
	while (got < cap) {
		ssize_t n = read(fd, buf + got, cap - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			free(buf);
			close(fd);
			return np_err(err, r, NP_PHASE_APPLY, NULL, "cannot read %s/%s: %s",
				      s->ctx->state_dir, name, strerror(-r));
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got != (size_t)sb.st_size) {
		free(buf);
		return np_err(err, -EIO, NP_PHASE_APPLY, NULL, "%s/%s changed while being read",
			      s->ctx->state_dir, name);
	}
	return text_checked(s, name, buf, got, ret, ret_len, err);
}

int np_store_write(struct np_store *s, enum np_file f, const char *text, struct np_error *err)
{
	char tmp[NAME_MAX_LEN], name[NAME_MAX_LEN];
	int fd, r = 0;

	if (!text)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	tmp_name(s, f, tmp, sizeof(tmp));
	file_name(s, f, name, sizeof(name));
	/* O_EXCL: never write through a file (or a link to one) found there.
	 * Under the lock, one found there is a killed run's, or planted. */
	fd = openat(s->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST && unlinkat(s->dirfd, tmp, 0) == 0)
		fd = openat(s->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot write %s/%s: %s",
			      s->ctx->state_dir, tmp, strerror(errno));
	r = np_write_all(fd, text, strlen(text));
	if (!r && retry_eintr(fsync(fd)) < 0)
		r = -errno;
	if (close(fd) < 0 && !r)
		r = -errno;
	/* EINTR (a signal on NFS or FUSE) is no failure to record: after a
	 * successful apply it would leave exit 6 and a journal behind */
	if (!r && retry_eintr(renameat(s->dirfd, tmp, s->dirfd, name)) < 0)
		r = -errno;
	if (!r && retry_eintr(fsync(s->dirfd)) < 0)
		r = -errno;
	if (r < 0) {
		unlinkat(s->dirfd, tmp, 0);
		return np_err(err, r, NP_PHASE_APPLY, NULL, "cannot save %s/%s: %s",
			      s->ctx->state_dir, name, strerror(-r));
	}
	return 0;
}

int np_store_open_append(struct np_store *s, enum np_file f, int *ret_fd, struct np_error *err)
{
	char name[NAME_MAX_LEN];
	struct stat sb;
	int fd;

	file_name(s, f, name, sizeof(name));
	fd = openat(s->dirfd, name, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return np_err(err, -errno, NP_PHASE_APPLY, NULL, "cannot open %s/%s: %s",
			      s->ctx->state_dir, name, strerror(errno));
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s/%s is not a regular file",
			      s->ctx->state_dir, name);
	}
	*ret_fd = fd;
	return 0;
}

int np_store_write_json(struct np_store *s, enum np_file f, struct json_object *doc,
			struct np_error *err)
{
	/* whose namespace wrote it (np_store_stale_check) */
	if (s->cookie && json_object_object_add(doc, "netns_cookie",
						json_object_new_int64((int64_t)s->cookie)) < 0)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	return np_store_write(s, f, np_json_text(doc, JSON_C_TO_STRING_PLAIN), err);
}

/*
 * --- records of a deleted network namespace ---
 *
 * A namespace's nsfs inode, the
 * key records are filed under (np_store.h), is given to the next namespace
 * made once the old one is gone (`ip netns del A; ip netns add B`): B would
 * find A's records under its own key and take A's policy, snapshot and
 * journal for its own device of the same name.  The namespace cookie
 * (SO_NETNS_COOKIE, Linux 5.14) is never given twice while the machine
 * runs, and so outlives nothing that /run does not: every record written
 * in a namespace carries it ("netns_cookie"), and records of the key that
 * carry another are stale.  They are never applied: a command holding the
 * lock moves them aside, to KEY.KIND.stale-COOKIE, and says so; one
 * without the lock reads the key as empty.  Records without a cookie
 * (written before it was recorded, or by a kernel without it) are this
 * namespace's, as they always were.
 */
unsigned long long np_store_recorded(struct np_store *s, enum np_file f, const char *key)
{
	unsigned long long x;
	struct np_error ignored;
	char *text, *nl;

	np_error_clear(&ignored);
	if (np_store_read(s, f, &text, NULL, &ignored) < 0)
		return 0;
	nl = strchr(text, '\n');	/* the journal's header is its first line */
	if (nl)
		*nl = '\0';
	/* not parsed whole: the snapshot is 10 KB on 64 queues, and its
	 * loader parses (and refuses) it anyway when it is used */
	x = np_json_top_uint(text, key);
	free(text);
	return x;
}

/* The cookie of another namespace a file of the key records, 0 none. */
static unsigned long long foreign_cookie(struct np_store *s)
{
	for (int f = 0; f < NP_FILE__COUNT; f++) {
		unsigned long long c;

		if (!np_store_has(s, (enum np_file)f))
			continue;
		c = np_store_recorded(s, (enum np_file)f, "netns_cookie");
		if (c && c != s->cookie)
			return c;
	}
	return 0;
}

_Static_assert(sizeof(((struct np_ctx *)0)->records_ours) >= NP_STORE_STEM_MAX,
	       "np_ctx.records_ours holds a key");

/* Another namespace's records cannot appear under a key while the
 * namespace it names lives (the calling thread is in it): once found to
 * be this one's, the key's records are not read again for that in this
 * context (a command opens the store many times).  The cookie is part of
 * the verdict: a namespace later given the same inode has another. */
static bool checked_ours(const struct np_store *s)
{
	return s->ctx->records_ours_cookie == s->cookie && !strcmp(s->ctx->records_ours, s->stem);
}

void np_store_stale_check(struct np_store *s)
{
	unsigned long long stale;
	unsigned moved = 0;

	if (!s->cookie || s->dirfd < 0 || checked_ours(s))
		return;
	stale = foreign_cookie(s);
	if (!stale) {
		snprintf(s->ctx->records_ours, sizeof(s->ctx->records_ours), "%s", s->stem);
		s->ctx->records_ours_cookie = s->cookie;
		return;
	}
	if (s->lockfd < 0) {
		/* once per context: a command peeks at the records many times */
		if (s->ctx->stale_said != stale)
			np_log(s->ctx, NP_LOG_WARNING, "%s: %s/%s.* are the records of a deleted "
			       "network namespace (cookie %llu, this one's is %llu): not used",
			       s->ifname, s->ctx->state_dir, s->stem, stale, s->cookie);
		s->ctx->stale_said = stale;
		s->stale = true;
		return;
	}
	for (int f = 0; f < NP_FILE__COUNT; f++) {
		char from[NP_STORE_STEM_MAX + 16], to[NP_STORE_STEM_MAX + 48];

		snprintf(from, sizeof(from), "%s.%s", s->stem, np_store_file_name((enum np_file)f));
		snprintf(to, sizeof(to), "%s.stale-%llu", from, stale);
		if (renameat(s->dirfd, from, s->dirfd, to) == 0)
			moved++;
	}
	fsync(s->dirfd);
	np_log(s->ctx, NP_LOG_WARNING, "%s: %u record(s) of a deleted network namespace (cookie "
	       "%llu) that had this one's inode: moved to %s/%s.*.stale-%llu, not applied",
	       s->ifname, moved, stale, s->ctx->state_dir, s->stem, stale);
}
