/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What test_serialize and test_sim_backend share: the fixture models, a
 * private temporary directory, JSON and state helpers (serialize_common.c). */
#ifndef NP_TEST_SERIALIZE_COMMON_H
#define NP_TEST_SERIALIZE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "model/np_serialize.h"

#define N_MODELS 9
extern const char *const models[N_MODELS];
extern char srcdir[1024], tmpdir[256];

void setup_dirs(void);
void cleanup_dirs(void);
const char *fixture(const char *name);
const char *copy_model(const char *name, const char *as);
struct json_object *read_json(const char *path);
void write_json(const char *path, struct json_object *o);
struct json_object *dev0(struct json_object *root);
struct json_object *get(struct json_object *o, const char *key);
struct np_ctx *ctx_for(const char *model, struct np_error *err);
struct np_backend *backend(struct np_ctx *ctx);
struct np_state *discover(struct np_ctx *ctx, const char *ifname);
const char *mask(const struct np_cpumask *m);
char *to_text(const struct np_state *st);
bool states_equal(const struct np_state *a, const struct np_state *b);
bool round_trip(const struct np_state *st);
void set_int(struct json_object *o, const char *k, int64_t v);
void set_str(struct json_object *o, const char *k, const char *v);

#endif
