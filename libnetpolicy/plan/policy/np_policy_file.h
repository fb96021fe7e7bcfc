/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Custom policies (policy_file.c) and the table of the values every policy
 * sets (policy_keys.c): one loader and one printer for built-in and custom. */
#ifndef NP_POLICY_FILE_H
#define NP_POLICY_FILE_H

#include "plan/np_policy.h"
#include "plan/np_mixed.h"

/* NP_KEY_RULE: a word of names[] or a number (count_rule stored, the
 * number at off_n): channels = 8, rings = max */
enum np_key_type { NP_KEY_ENUM, NP_KEY_BOOL, NP_KEY_U32, NP_KEY_U64, NP_KEY_RULE };

struct np_policy_key {
	const char *name;		/* "channels", "rfs-entries" */
	enum np_key_type type;
	size_t off;			/* of the value in struct np_policy */
	const char *const *names;	/* NP_KEY_ENUM: word per value */
	size_t n_names;
	const char *knob;		/* the reason ("sets") it belongs to */
	size_t off_n;			/* NP_KEY_RULE: of the uint32_t number */
	int count_rule;			/* NP_KEY_RULE: the value meaning "a number" */
};

extern const struct np_policy_key np_policy_keys[];
extern const size_t np_policy_n_keys;

const struct np_policy_key *np_policy_key_find(const char *name);
int np_policy_key_value_json(const struct np_policy *p, const struct np_policy_key *k,
			     struct json_object **ret);
int np_policy_coal_json(int field, uint32_t v, struct json_object **ret);
/* Parse a value into p; -EINVAL with the reason in why. */
int np_policy_key_set(struct np_policy *p, const struct np_policy_key *k, const char *value,
		      char *why, size_t why_len);
int np_policy_coal_parse(int field, const char *value, uint32_t *ret, char *why, size_t why_len);
int np_policy_json_word(struct json_object *v, char *buf, size_t len);
/* features.NAME by the name in a file, NULL when no policy may set it. */
const struct np_policy_feature *np_policy_feature_find(const char *key);

/* A custom policy: a copy of its base with the file's values written in. */
struct np_custom_policy {
	struct np_policy p;	/* first: a policy pointer is a custom pointer */
	char name[32];
	char summary[200];
	char core[128];
	unsigned core_line;
	char *file;
	struct np_coal_value coal[NP_COAL__COUNT];
	struct np_feature_value feat[16];
	unsigned feat_line[16];
	unsigned key_line[16];
	unsigned coal_line[NP_COAL__COUNT];
	/* a mixed base's flow, default-class and weight, and their lines
	 * (the first flow's for all of them) */
	char *flows[NP_MIXED_FLOWS_MAX];
	char *default_class, *weights;
	unsigned flow_line, default_line, weight_line;
	struct np_custom_policy *next;	/* the ctx's cache */
};

const struct np_policy *np_policy_builtin(const char *name);
/* Lower case letters, digits, '-' and '_', at most 31. */
bool np_policy_name_ok(const char *s);
int np_policy_custom_new(const char *name, const char *file, struct np_custom_policy **ret);
void np_policy_custom_base(struct np_custom_policy *c, const struct np_policy *base);
/* One "key = value"; -ENOENT (unknown key), -EPERM (a mixed key, base not
 * mixed) or -EINVAL with the reason in why. */
int np_policy_custom_set(struct np_custom_policy *c, const char *key, const char *value,
			 unsigned line, char *why, size_t why_len);
/* features.NAME = on|off (policy_keys.c); -ENOENT for a feature no policy
 * may set, -EINVAL for a value that is not a boolean. */
int np_policy_custom_feature(struct np_custom_policy *c, const char *name, const char *value,
			     unsigned line, char *why, size_t why_len);
/* A file that gives a fixed rx or tx delay or frame count and no adaptive
 * key turns its base's adaptive moderation off (netpolicy-policy(5)). */
void np_policy_custom_adaptive(struct np_custom_policy *c);
/* The names of the ctx's policy directory's files, sorted. */
int np_policy_dir_names(struct np_ctx *ctx, char ***ret, size_t *ret_n);

/* Free the custom policies cached in the ctx. */
void np_policy_cache_free(struct np_ctx *ctx);

#endif
