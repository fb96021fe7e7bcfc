/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the JSON readers and writers of np_state share (model/, and the sim's
 * model checks): the field tables both directions walk, and the readers'
 * typed getters.  Every getter names the JSON path of what it refuses
 * ("devices[0].channels.max_combined: expected an integer") and returns
 * -EINVAL (-ENOMEM) with err filled; `path` is the path of the object.
 */
#ifndef NP_JSON_UTIL_H
#define NP_JSON_UTIL_H

#include <json-c/json.h>

#include "model/np_serialize.h"

/* DUPLEX_* as in <linux/ethtool.h> */
#define NP_DUPLEX_HALF 0x00
#define NP_DUPLEX_FULL 0x01
#define NP_DUPLEX_UNKNOWN 0xff

#define JPATH 192	/* "devices[12].queues.rx[1023].rps_flow_cnt" and more */

/* --- field tables (json_fields.c) --------------------------------------- */

struct np_u32field {
	const char *key;
	size_t off;
};

/* The four counts first, then their four maximums, in the same order. */
#define NP_U32FIELDS 8
extern const struct np_u32field np_channel_fields[NP_U32FIELDS];
extern const struct np_u32field np_ring_fields[NP_U32FIELDS];

static inline uint32_t *np_u32at(void *base, const struct np_u32field *f)
{
	return (uint32_t *)((char *)base + f->off);
}

#define NP_IRQ_KINDS 4
extern const char *const np_irq_kind_names[NP_IRQ_KINDS];
#define NP_IRQ_SOURCES 3
extern const char *const np_irq_source_names[NP_IRQ_SOURCES];
bool np_coal_is_bool(int field);

/* --- typed getters (json_read.c) ---------------------------------------- */

void np_j_path(char *buf, const char *path, const char *key);
void np_j_path_idx(char *buf, const char *path, const char *key, size_t i);
int np_j_bad(struct np_error *err, const char *path, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int np_j_oom(struct np_error *err);
int np_j_member(struct json_object *o, const char *path, const char *key, enum json_type type,
		struct json_object **ret, struct np_error *err);
int np_j_int_value(struct json_object *v, const char *path, const char *key, int64_t min,
		   int64_t max, int64_t *ret, struct np_error *err);
int np_j_get_int(struct json_object *o, const char *path, const char *key, int64_t min,
		 int64_t max, int64_t *ret, struct np_error *err);
int np_j_get_u32(struct json_object *o, const char *path, const char *key, uint32_t *ret,
		 struct np_error *err);
int np_j_get_u64(struct json_object *o, const char *path, const char *key, uint64_t *ret,
		 struct np_error *err);
int np_j_get_bool(struct json_object *o, const char *path, const char *key, bool *ret,
		  struct np_error *err);
int np_j_get_string(struct json_object *o, const char *path, const char *key, const char **ret,
		    struct np_error *err);
int np_j_get_strbuf(struct json_object *o, const char *path, const char *key, char *buf,
		    size_t len, struct np_error *err);
/* A cpulist; bits at or above nbits (when nbits) are refused. */
int np_j_mask_value(const char *s, const char *path, const char *key, unsigned nbits,
		    const char *unit, struct np_cpumask *ret, struct np_error *err);
int np_j_get_mask(struct json_object *o, const char *path, const char *key, unsigned nbits,
		  struct np_cpumask *ret, struct np_error *err);
/* A per-file reading: its value, or null with "<key>_error" saying why (*eret). */
int np_j_get_u32_file(struct json_object *o, const char *path, const char *key, uint32_t *ret,
		      int *eret, struct np_error *err);
int np_j_get_mask_file(struct json_object *o, const char *path, const char *key, unsigned nbits,
		       const char *unit, struct np_cpumask *ret, int *eret, struct np_error *err);
/* A knob object: 1 (supported; its path in kpath), 0 (not: *kerr set) or -EINVAL. */
int np_j_knob(struct json_object *o, const char *path, const char *key, struct json_object **ret,
	      char *kpath, int *kerr, struct np_error *err);
int np_j_get_u32_fields(struct json_object *o, const char *path, void *base,
			const struct np_u32field *f, size_t n, struct np_error *err);
/* The u32s of array arr (path.key) into a new array *ret, left NULL when
 * arr is empty; *ret is set before the entries are read, so the caller's
 * cleanup frees it on an error too. */
int np_j_u32_array(struct json_object *arr, const char *path, const char *key, uint32_t **ret,
		   struct np_error *err);
/* An array member whose elements are objects; *n its length. */
int np_j_get_objects(struct json_object *o, const char *path, const char *key,
		     struct json_object **ret, size_t *n, struct np_error *err);
/* Entry i names its own index in `key`. */
int np_j_check_index(struct json_object *e, const char *path, const char *key, size_t i,
		     struct np_error *err);

#endif
