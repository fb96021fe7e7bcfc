/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The write-ahead journal (np_journal.h says what it holds and why). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "apply/np_journal.h"
#include "model/np_serialize.h"

#define JOURNAL_FORMAT "netpolicy-journal"
#define JOURNAL_VERSION 2

struct np_journal {
	struct np_store *s;
	int fd;
	struct json_object *commit;
};

static const char *const rec_keys[] = { "policy", "tentative", "pristine", "sysctl" };
static const enum np_file rec_files[] = { NP_FILE_POLICY, NP_FILE_TENTATIVE, NP_FILE_PRISTINE,
					  NP_FILE_SYSCTL };

static struct json_object *commit_to_json(const struct np_commit *c)
{
	struct json_object *o = json_object_new_object(), *v;
	enum np_rec_op ops[] = { c->policy, c->tentative, c->pristine, c->sysctl };

	for (size_t i = 0; o && i < NP_ARRAY_SIZE(ops); i++) {
		if (ops[i] == NP_REC_KEEP)
			continue;
		v = NULL;
		if (ops[i] == NP_REC_SET &&
		    (i == 0 ? np_policy_record_to_json(&c->policy_rec, &v) :
		     i == 3 ? np_sysctl_record_to_json(&c->sysctl_rec, &v) :
			      np_tentative_to_json(&c->tentative_rec, &v)) < 0) {
			json_object_put(o);
			return NULL;
		}
		/* null: remove the file */
		if (json_object_object_add(o, rec_keys[i], v) < 0) {
			json_object_put(v);
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

/* Make the record changes a commit names; each is idempotent. */
static int commit_records(struct np_store *s, struct json_object *commit, struct np_error *err)
{
	for (size_t i = 0; i < NP_ARRAY_SIZE(rec_keys); i++) {
		struct json_object *v;
		int r;

		if (!json_object_object_get_ex(commit, rec_keys[i], &v))
			continue;
		r = v ? np_store_write_json(s, rec_files[i], v, err) :
			np_store_remove(s, rec_files[i], err);
		if (r < 0)
			return r;
	}
	return 0;
}

static bool hdr_add(struct json_object *hdr, const char *key, struct json_object *v)
{
	if (v && json_object_object_add(hdr, key, v) == 0)
		return true;
	json_object_put(v);
	return false;
}

/* The rules the run may insert, so that recovery removes those and never a
 * rule someone else inserted after the run was killed (np_engine_recover);
 * written when empty too: a rule at a location the journal's state names
 * is then someone else's as well (apply/owned_rules.c). */
static bool add_intent(struct json_object *hdr, const struct np_steer *intent)
{
	struct json_object *in = json_object_new_object();

	if (!in || np_steer_to_json(intent, in) < 0) {
		json_object_put(in);
		return false;
	}
	return hdr_add(hdr, "intent", in);
}

int np_journal_begin(struct np_store *s, const struct np_ident *id, const struct np_state *before,
		     const char *what, const struct np_commit *commit,
		     const struct np_steer *intent, struct np_journal **ret, struct np_error *err)
{
	struct json_object *hdr, *st = NULL;
	struct np_journal *j;
	int r;

	j = calloc(1, sizeof(*j));
	hdr = json_object_new_object();
	if (np_state_to_json(before, &st) < 0)
		st = NULL;
	if (j)
		j->commit = commit_to_json(commit);
	/* hdr_add consumes its value; a NULL one (a failed json_object_new_*)
	 * is a failure, not a JSON null in the header */
	if (!j || !hdr || !st || !j->commit ||
	    !hdr_add(hdr, "format", json_object_new_string(JOURNAL_FORMAT)) ||
	    !hdr_add(hdr, "version", json_object_new_int(JOURNAL_VERSION)) ||
	    !hdr_add(hdr, "what", json_object_new_string(what)) ||
	    !hdr_add(hdr, "ifindex", json_object_new_int(id->ifindex)) ||
	    !hdr_add(hdr, "bus_info", json_object_new_string(id->bus_info)) ||
	    !hdr_add(hdr, "netns", json_object_new_int64((int64_t)id->netns)) ||
	    (s->cookie && !hdr_add(hdr, "netns_cookie", json_object_new_int64((int64_t)s->cookie))) ||
	    !hdr_add(hdr, "commit", json_object_get(j->commit)) ||
	    (intent && !add_intent(hdr, intent)) ||
	    (!hdr_add(hdr, "before", st) && (st = NULL, true))) {
		json_object_put(st);
		json_object_put(hdr);
		if (j)
			json_object_put(j->commit);
		free(j);
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	}
	j->s = s;
	/* The header goes through a temp file and rename, so a journal that
	 * exists always has a whole header; marks are appended after it. */
	r = np_store_write(s, NP_FILE_JOURNAL,
			   np_json_text(hdr, JSON_C_TO_STRING_PLAIN), err);
	json_object_put(hdr);
	if (r >= 0)
		r = np_store_open_append(s, NP_FILE_JOURNAL, &j->fd, err);
	if (r >= 0 && (r = np_write_all(j->fd, "\n", 1)) < 0) {
		close(j->fd);
		np_err(err, r, NP_PHASE_APPLY, NULL, "journal: %s", strerror(-r));
	}
	if (r < 0) {
		struct np_error ignored;

		np_store_remove(s, NP_FILE_JOURNAL, &ignored);
		json_object_put(j->commit);
		free(j);
		return r;
	}
	*ret = j;
	return 0;
}

static int append(struct np_journal *j, const char *line, size_t len, bool sync,
		  struct np_error *err)
{
	int r;

	r = np_write_all(j->fd, line, len);
	if (!r && sync && fdatasync(j->fd) < 0)
		r = -errno;
	if (r < 0)
		return np_err(err, r, NP_PHASE_APPLY, NULL, "cannot write the journal: %s", strerror(-r));
	return 0;
}

int np_journal_mark(struct np_journal *j, const char *event, unsigned step, const char *knob,
		    const char *what, struct np_error *err)
{
	char line[160];
	int n;

	n = snprintf(line, sizeof(line), "%s %u %s %s\n", event, step, knob, what);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1, line[n - 1] = '\n';
	/* Write-ahead: a step is on disk before it is made.  "done" needs no
	 * sync: recovery returns to the header's state either way, and the
	 * next "start" (or the commit) orders it. */
	return append(j, line, (size_t)n, !strcmp(event, "start"), err);
}

int np_journal_policy(struct np_journal *j, const struct np_policy_record *rec,
		      struct np_error *err)
{
	struct json_object *v = NULL;
	const char *text;
	char *line;
	size_t n;
	int r;

	if (np_policy_record_to_json(rec, &v) < 0)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	text = np_json_text(v, JSON_C_TO_STRING_PLAIN);
	n = strlen(text);
	line = malloc(n + 9);
	if (!line) {
		json_object_put(v);
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	}
	memcpy(line, "policy ", 7);
	memcpy(line + 7, text, n);
	line[n + 7] = '\n';
	r = append(j, line, n + 8, true, err);
	free(line);
	/* what np_journal_finish records, as the line says */
	if (r >= 0 && json_object_object_add(j->commit, "policy", json_object_get(v)) < 0)
		r = np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	json_object_put(v);
	return r;
}

int np_journal_commit(struct np_journal *j, struct np_error *err)
{
	return append(j, "commit\n", 7, true, err);
}

static void journal_free(struct np_journal *j)
{
	close(j->fd);
	json_object_put(j->commit);
	free(j);
}

int np_journal_finish(struct np_journal *j, struct np_error *err)
{
	int r;

	r = commit_records(j->s, j->commit, err);
	if (r >= 0)
		r = np_store_remove(j->s, NP_FILE_JOURNAL, err);
	journal_free(j);
	return r;
}

int np_journal_drop(struct np_journal *j, struct np_error *err)
{
	int r = np_store_remove(j->s, NP_FILE_JOURNAL, err);

	journal_free(j);
	return r;
}

void np_journal_keep(struct np_journal *j)
{
	if (j)
		journal_free(j);
}

/* "start N ..." / "done N ...": what follows the word, or NULL.  The word
 * and its space are compared as written: sscanf's " " also matches no
 * space at all, so "start2,..." passed it, and the text after the space
 * the message quoted did not exist (found by fuzz_state). */
static const char *mark_rest(const char *line, const char *word)
{
	size_t len = strlen(word);
	unsigned step;
	int n = 0;

	if (strncmp(line, word, len) || line[len] < '0' || line[len] > '9')
		return NULL;
	if (sscanf(line + len, "%u%n", &step, &n) != 1 || n <= 0)
		return NULL;
	return line + len;
}

/* Lines after the header: marks, "policy JSON" lines (the last counts),
 * at most one "commit" (last); a torn last line is a crash during its
 * write, anything else is damage. */
static int parse_marks(char *p, struct np_journal_info *info, const char **policy)
{
	snprintf(info->last, sizeof(info->last), "before the first step");
	while (p && *p) {
		char *end = strchr(p, '\n');
		const char *rest;

		if (!end)
			return 0;	/* torn: never synced, so never acted on */
		*end = '\0';
		if (info->committed)
			return -EINVAL;
		if (!strcmp(p, "commit")) {
			info->committed = true;
		} else if (!strncmp(p, "policy ", 7)) {
			*policy = p + 7;
		} else if ((rest = mark_rest(p, "start ")) || (rest = mark_rest(p, "done "))) {
			snprintf(info->last, sizeof(info->last), "%s step %s",
				 p[0] == 's' ? "in" : "after", rest);
		} else {
			return -EINVAL;
		}
		p = end + 1;
	}
	return 0;
}

/* The journal's header line as JSON, with the step marks after it read into
 * info and the resolved policy record (a "policy" mark) put in its commit. */
static int read_header(struct np_store *s, const char *what, struct json_object **hdr,
		       struct np_journal_info *info, struct np_error *err)
{
	struct json_object *v, *resolved;
	const char *policy = NULL;
	char *text, *nl;
	int r;

	r = np_store_read(s, NP_FILE_JOURNAL, &text, NULL, err);
	if (r < 0)
		return r;
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	r = np_json_parse_strict(text, strlen(text), what, hdr, err);
	if (r >= 0)
		r = np_json_check_format(*hdr, JOURNAL_FORMAT, JOURNAL_VERSION, what, err);
	if (r >= 0 && parse_marks(nl ? nl + 1 : NULL, info, &policy) < 0)
		r = np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "%s: damaged step marks", what);
	if (r >= 0 && policy) {
		r = np_json_parse_strict(policy, strlen(policy), what, &resolved, err);
		if (r >= 0 && (!json_object_object_get_ex(*hdr, "commit", &v) ||
			       !json_object_is_type(v, json_type_object) ||
			       json_object_object_add(v, "policy", resolved) < 0)) {
			json_object_put(resolved);
			r = np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "%s: bad commit", what);
		}
	}
	free(text);
	return r;
}

/* The device the journal is for: ifindex, bus_info and network namespace. */
static int read_ident(struct json_object *hdr, const char *what, struct np_ident *id,
		      struct np_error *err)
{
	struct json_object *v;
	long long x = 0;

	if (!json_object_object_get_ex(hdr, "ifindex", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    (x = json_object_get_int64(v)) <= 0 || x > INT32_MAX)
		return np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "%s: bad ifindex", what);
	id->ifindex = (int)x;
	if (!json_object_object_get_ex(hdr, "bus_info", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    json_object_get_string_len(v) >= (int)sizeof(id->bus_info))
		return np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "%s: bad bus_info", what);
	memcpy(id->bus_info, json_object_get_string(v),
	       (size_t)json_object_get_string_len(v) + 1);
	if (!json_object_object_get_ex(hdr, "netns", &v) ||
	    !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "%s: bad netns", what);
	id->netns = (unsigned long long)json_object_get_int64(v);
	return 0;
}

/* The commit's record documents, checked now rather than halfway through a
 * commit; info takes a reference to the commit object. */
static int read_commit(struct json_object *hdr, const char *what, struct np_journal_info *info,
		       struct np_error *err)
{
	struct json_object *v;
	int r = 0;

	if (!json_object_object_get_ex(hdr, "commit", &v) ||
	    !json_object_is_type(v, json_type_object))
		return np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "%s: bad commit", what);
	json_object_object_foreach(v, key, val) {
		struct np_policy_record rec;
		struct np_sysctl_record sys;
		struct np_tentative t;

		if (!strcmp(key, "policy") && val)
			r = np_policy_record_from_json(val, what, &rec, err);
		else if (!strcmp(key, "sysctl") && val)
			r = np_sysctl_record_from_json(val, what, &sys, err);
		else if (!strcmp(key, "tentative") && val) {
			r = np_tentative_from_json(val, what, &t, err);
			if (r >= 0)
				np_tentative_release(&t);
		} else if (strcmp(key, "policy") && strcmp(key, "tentative") &&
			   strcmp(key, "sysctl") && (strcmp(key, "pristine") || val))
			r = np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "%s: commit: bad %s",
				   what, key);
		if (r < 0)
			break;
	}
	info->commit = json_object_get(v);
	return r;
}

int np_journal_load(struct np_store *s, struct np_journal_info *ret, struct np_error *err)
{
	struct np_journal_info info = { 0 };
	struct json_object *hdr = NULL, *v, *before;
	char what[PATH_MAX + NP_STORE_STEM_MAX + 16];
	int r;

	snprintf(what, sizeof(what), "%s/%s.journal", s->ctx->state_dir, s->stem);
	r = read_header(s, what, &hdr, &info, err);
	if (r >= 0)
		r = read_ident(hdr, what, &info.id, err);
	if (r >= 0)
		r = read_commit(hdr, what, &info, err);
	if (r >= 0 && (!json_object_object_get_ex(hdr, "before", &before) ||
		       !json_object_is_type(before, json_type_object)))
		r = np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "%s: no state to return to", what);
	if (r >= 0)
		r = np_state_from_record(before, what, &info.before, err);
	if (r >= 0 && json_object_object_get_ex(hdr, "intent", &v)) {
		if (!json_object_is_type(v, json_type_object))
			r = np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "%s: bad intent", what);
		else
			r = np_steer_from_json(v, what, &info.intent, err);
		info.has_intent = r >= 0;
	}
	json_object_put(hdr);
	if (r < 0) {
		np_journal_info_release(&info);
		return r;
	}
	*ret = info;
	return 0;
}

int np_journal_complete(struct np_store *s, struct np_journal_info *info, struct np_error *err)
{
	int r = commit_records(s, info->commit, err);

	return r < 0 ? r : np_store_remove(s, NP_FILE_JOURNAL, err);
}

void np_journal_info_release(struct np_journal_info *info)
{
	np_state_free(info->before);
	json_object_put(info->commit);
	np_steer_clear(&info->intent);
	info->has_intent = false;
	info->before = NULL;
	info->commit = NULL;
}
