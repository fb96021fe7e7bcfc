/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Strict JSON for documents netpolicy reads back (models, states).  json-c
 * alone accepts too much for input that decides what is written to a NIC:
 * it stops at the first complete value (so "{...} garbage" parses), keeps
 * the last of two equal keys without a word, and reads a NUL byte as the
 * end of the text.  Here the whole text must be one value and each key
 * appear once per object.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/np_serialize.h"
#include "np_test_hooks.h"

/* json-c's own default: deeper than any document of netpolicy-model(5) */
#define MAX_DEPTH 32

/* Object members in the tree json-c built. */
static size_t tree_members(struct json_object *o, int depth)
{
	size_t n = 0;

	if (depth > MAX_DEPTH + 1)
		return 0;
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v) {
			(void)k;
			n += 1 + tree_members(v, depth + 1);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		size_t len = json_object_array_length(o);

		for (size_t i = 0; i < len; i++)
			n += tree_members(json_object_array_get_idx(o, i), depth + 1);
	}
	return n;
}

/* Object members in the text: one ':' outside strings each.  Outside
 * strings only JSON's own characters may appear: json-c takes 'quoted'
 * strings even in strict mode.  *bad: the offset of another, or len. */
static size_t text_members(const char *s, size_t len, size_t *bad)
{
	bool in_str = false;
	size_t n = 0;

	*bad = len;
	for (size_t i = 0; i < len; i++) {
		if (in_str) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				in_str = false;
		} else if (s[i] == '"') {
			in_str = true;
		} else if (s[i] == ':') {
			n++;
		} else if (!strchr("{}[],0123456789+-.eEtrufalsn \t\r\n", s[i])) {
			*bad = i;
			return n;
		}
	}
	return n;
}

struct key {
	const char *s;
	size_t len;
};

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Name a key that appears twice in one object, as written (an escaped
 * spelling of the same key is still caught by the count, just not named).
 * Only on the error path: the text is valid JSON of bounded depth. */
static bool find_twice(const char *s, size_t len, char *name, size_t name_len)
{
	struct { size_t first; bool object; } stack[MAX_DEPTH + 2];
	struct key *keys = NULL, last = { NULL, 0 };
	size_t nkeys = 0, cap = 0;
	int top = -1;
	bool found = false;

	for (size_t i = 0; i < len && !found; i++) {
		char c = s[i];

		if (c == '"') {
			size_t j = i + 1;

			while (j < len && s[j] != '"')
				j += s[j] == '\\' ? 2 : 1;
			last.s = s + i + 1;
			last.len = j - i - 1;
			i = j;
		} else if (c == ':' && top >= 0) {
			if (nkeys == cap) {
				size_t ncap = cap ? cap * 2 : 64;
				struct key *nk = realloc(keys, ncap * sizeof(*nk));

				if (!nk)
					break;
				keys = nk;
				cap = ncap;
			}
			keys[nkeys++] = last;
		} else if (c == '{' || c == '[') {
			if (top + 1 >= (int)NP_ARRAY_SIZE(stack))
				break;
			top++;
			stack[top].first = nkeys;
			stack[top].object = c == '{';
		} else if ((c == '}' || c == ']') && top >= 0) {
			size_t first = stack[top].first, n = nkeys - first;

			if (stack[top].object && n > 1) {
				qsort(keys + first, n, sizeof(*keys), key_cmp);
				for (size_t k = first + 1; k < nkeys; k++) {
					if (!key_cmp(&keys[k - 1], &keys[k])) {
						size_t l = keys[k].len < name_len - 1 ? keys[k].len :
							   name_len - 1;

						memcpy(name, keys[k].s, l);
						name[l] = '\0';
						found = true;
						break;
					}
				}
			}
			nkeys = first;
			top--;
		}
	}
	free(keys);
	return found;
}

static bool alloc_never_fails;

void np_json_set_alloc_never_fails(bool on)
{
	alloc_never_fails = on;
}

/* One json-c parse; *end where it stopped. */
static struct json_object *parse_once(const char *text, size_t len, enum json_tokener_error *jerr,
				      size_t *end, bool *oom)
{
	struct json_tokener *tok = json_tokener_new_ex(MAX_DEPTH);
	struct json_object *obj;

	*oom = !tok;
	if (!tok)
		return NULL;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, text, (int)len);
	*jerr = json_tokener_get_error(tok);
#if JSON_C_VERSION_NUM >= ((0 << 16) | (15 << 8))
	*end = json_tokener_get_parse_end(tok);
#else
	*end = (size_t)tok->char_offset;
#endif
	json_tokener_free(tok);
	if (obj && *jerr != json_tokener_success) {
		json_object_put(obj);
		obj = NULL;
	}
	return obj;
}

/* The parsed tree has fewer members than the text: a key twice in one
 * object, or (json-c before 0.17, which drops a member it cannot allocate
 * without a word) memory ran out.  A text whose members all parse the
 * second time had no key twice.  (Parsing is deterministic; an escaped
 * spelling of a key twice fails both times.) */
static int members_lost(const char *text, size_t len, size_t members, struct np_error *err)
{
	enum json_tokener_error jerr;
	struct json_object *obj;
	char name[64];
	size_t end;
	bool oom;

	if (find_twice(text, len, name, sizeof(name)))
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
			      "key \"%s\" appears twice in one object", name);
	obj = parse_once(text, len, &jerr, &end, &oom);
	if (oom || !obj || tree_members(obj, 0) == members) {
		json_object_put(obj);
		return np_err(err, -ENOMEM, NP_PHASE_INPUT, NULL, "out of memory");
	}
	json_object_put(obj);
	return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "a key appears twice in one object");
}

/* json-c before 0.17 also ignores a failed append to its string buffer: a
 * string that runs out of memory is cut short or empty, silently.  A second
 * parse that agrees is the proof; later versions fail the parse instead. */
static bool agrees_again(const char *text, size_t len, struct json_object *obj)
{
#if JSON_C_VERSION_NUM < ((0 << 16) | (17 << 8))
	enum json_tokener_error jerr;
	struct json_object *again;
	size_t end;
	bool oom, same;

	if (alloc_never_fails)
		return true;
	again = parse_once(text, len, &jerr, &end, &oom);
	same = again && json_object_equal(obj, again);
	json_object_put(again);
	return same;
#else
	(void)text;
	(void)len;
	(void)obj;
	return true;
#endif
}

int np_json_parse(const char *text, size_t len, struct json_object **ret, struct np_error *err)
{
	enum json_tokener_error jerr = json_tokener_success, jerr2;
	struct json_object *obj;
	size_t end = 0, end2, members;
	bool oom;

	if (memchr(text, '\0', len))
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "a NUL byte (not a text file?)");
	if (len > INT32_MAX)
		return np_err(err, -EFBIG, NP_PHASE_INPUT, NULL, "too large");
	obj = parse_once(text, len, &jerr, &end, &oom);
	if (!obj && !oom && !alloc_never_fails) {
		/* json-c before 0.17 reports an allocation failure as a syntax
		 * error: a text that parses the second time was valid, and
		 * memory ran out.  (Parsing is deterministic.) */
		obj = parse_once(text, len, &jerr2, &end2, &oom);
		if (obj || oom) {
			json_object_put(obj);
			obj = NULL;
			oom = true;
		}
	}
	if (oom)
		return np_err(err, -ENOMEM, NP_PHASE_INPUT, NULL, "out of memory");
	if (!obj) {
		if (jerr == json_tokener_continue)
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
				      "not valid JSON (the text ends inside a value)");
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "not valid JSON (%s at byte %zu)",
			      json_tokener_error_desc(jerr), end);
	}
	for (; end < len; end++) {
		if (!strchr(" \t\r\n", text[end])) {
			json_object_put(obj);
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
				      "not valid JSON (text after the document at byte %zu)", end);
		}
	}
	members = text_members(text, len, &end);
	if (end < len) {
		json_object_put(obj);
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
			      "not valid JSON (unexpected character at byte %zu)", end);
	}
	if (tree_members(obj, 0) != members) {
		json_object_put(obj);
		return members_lost(text, len, members, err);
	}
	if (!agrees_again(text, len, obj)) {
		json_object_put(obj);
		return np_err(err, -ENOMEM, NP_PHASE_INPUT, NULL, "out of memory");
	}
	*ret = obj;
	return 0;
}

const char *np_json_text(struct json_object *obj, int flags)
{
	struct json_object *back;
	const char *text;
	bool same;

	/* json-c (0.16 at least) ignores a failed append to its print
	 * buffer: the text can come back cut or with a piece missing
	 * ("rx-checksum{"), found by tests/cli/alloc.bats.  What is written
	 * to a state file or printed must be the document: read it back
	 * when an allocation failed.  A failed allocation sets errno
	 * (malloc(3)) and json-c's serializers never clear it (0.13 to 0.18;
	 * only its getters and its parser do), so errno still 0 says none
	 * did.  Reading every text back was a tenth of a `set`'s CPU: the
	 * pristine snapshot and the journal are 10 KB each on 64 queues. */
	errno = 0;
	text = json_object_to_json_string_ext(obj, flags);
	if (!text || errno == 0)
		return text;
	back = json_tokener_parse(text);
	same = back && json_object_equal(obj, back);
	json_object_put(back);
	return same ? text : NULL;
}

/* A member's value after its key's closing quote (at p): digits only, then
 * the end of the member; 0 otherwise. */
static unsigned long long member_uint(const char *p)
{
	unsigned long long v = 0;
	int n = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != ':')
		return 0;
	while (isspace((unsigned char)*p))
		p++;
	for (; isdigit((unsigned char)*p); p++, n++) {
		if (n == 18)
			return 0;	/* beyond what a record holds */
		v = v * 10 + (unsigned long long)(*p - '0');
	}
	while (isspace((unsigned char)*p))
		p++;
	return n && (*p == ',' || *p == '}') ? v : 0;
}

unsigned long long np_json_top_uint(const char *text, const char *key)
{
	size_t klen = strlen(key);
	unsigned long long v = 0;
	const char *p = text;
	int depth = 0, seen = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p != '{')
		return 0;
	for (; *p; p++) {
		const char *s;

		if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			depth--;
		if (*p != '"')
			continue;
		/* a string, escapes and all; a key when a ':' follows */
		for (s = ++p; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		if (!*p)
			return 0;
		if (depth == 1 && (size_t)(p - s) == klen && !memcmp(s, key, klen)) {
			const char *q = p + 1;

			while (isspace((unsigned char)*q))
				q++;
			if (*q == ':' && seen++)
				return 0;	/* twice: the parser refuses it */
			if (*q == ':')
				v = member_uint(q);
		}
	}
	return v;
}
