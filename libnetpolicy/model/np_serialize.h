/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one JSON form of np_state (schema: netpolicy-model(5)), both ways.
 * np_state_to_json() is public (netpolicy.h); the pieces and the readers
 * are for the journal, the sim backend and the tests.
 *
 * Readers validate strictly and name the JSON path of what is wrong
 * ("devices[0].channels.max_combined: expected an integer"); `path` is the
 * path of the object passed in, "" for a document's root.  They write their
 * out-parameter only on success and fail with -EINVAL (-ENOMEM).
 */
#ifndef NP_SERIALIZE_H
#define NP_SERIALIZE_H

#include <json-c/json.h>

#include "np_private.h"

/* Values of np_rss.hfunc (the kernel's ETH_RSS_HASH_* bits). */
#define NP_RSS_HASH_TOP   (1u << 0)
#define NP_RSS_HASH_XOR   (1u << 1)
#define NP_RSS_HASH_CRC32 (1u << 2)

/* Writers: a new object, or NULL when memory ran out. */
struct json_object *np_cpumask_to_json_str(const struct np_cpumask *m);	/* "0-3,8", "" */
struct json_object *np_topology_to_json(const struct np_topology *t);
struct json_object *np_sysctl_to_json(const struct np_sysctl *s);
/* A device's NAPI instances (model/napi_json.c) */
struct json_object *np_napis_to_json(const struct np_napis *n);
int np_napis_from_json(struct json_object *dev, const char *path, struct np_napis *ret,
		       struct np_error *err);
/* Its NAPI kthreads (absent member: none) */
struct json_object *np_napi_threads_to_json(const struct np_dev *d);
int np_napi_threads_from_json(struct json_object *dev, const char *path, unsigned nbits,
			      struct np_dev *d, struct np_error *err);
/* One device as in a model: the state object without "sysctl" and "topology". */
struct json_object *np_dev_to_json(const struct np_dev *d);

/* ntuple rules and RSS contexts (model/steer.c): the "ntuple" and
 * "rss_contexts" members of a device object. */
int np_steer_to_json(const struct np_steer *s, struct json_object *dev);
int np_steer_from_json(struct json_object *dev, const char *path, struct np_steer *ret,
		       struct np_error *err);

/* Readers.  topo bounds the CPU masks of the device (NULL or nr_cpus 0: no bound). */
int np_topology_from_json(struct json_object *obj, const char *path, struct np_topology *ret,
			  struct np_error *err);
int np_sysctl_from_json(struct json_object *obj, const char *path, struct np_sysctl *ret,
			struct np_error *err);
int np_dev_from_json(struct json_object *obj, const char *path, const struct np_topology *topo,
		     struct np_dev *ret, struct np_error *err);
/* The per-CPU wake-up latency ("pm_qos", model/pm_qos.c): the online
 * CPUs' entries; the reader makes nr_cpus entries, -ENOENT for those not
 * listed. */
struct json_object *np_pm_to_json(const struct np_pm *pm, const struct np_cpumask *online);
int np_pm_from_json(struct json_object *obj, const char *path, unsigned nr_cpus,
		    struct np_pm *ret, struct np_error *err);
/* A state from its three parts (topology and sysctl may be NULL: zeroed). */
int np_state_from_json(struct json_object *dev, struct json_object *topology,
		       struct json_object *sysctl, struct np_state *ret, struct np_error *err);
/* The inverse of np_state_to_json(): a new state. */
int np_state_from_json_full(struct json_object *obj, struct np_state **ret, struct np_error *err);

/* Consistency a driver guarantees (counts within maximums, queues matching
 * channels, RSS entries below the ring count, the NUMA node existing): what
 * the sim backend demands of a model's device on top of the readers' checks. */
int np_dev_check(const struct np_dev *d, const char *path, const struct np_topology *topo,
		 struct np_error *err);

/* A whole text as one JSON document, strictly: nothing after the value, no
 * NUL byte, no key twice in an object.  -EINVAL (err says why) or -ENOMEM. */
int np_json_parse(const char *text, size_t len, struct json_object **ret, struct np_error *err);
/* The value of the top-level member key of an object's text when it is a
 * positive integer (digits only), found without building the document:
 * 0 when the text is no object, the member is missing, is not such an
 * integer or appears twice.  Text the parser refuses may still answer. */
unsigned long long np_json_top_uint(const char *text, const char *key);
/* json_object_to_json_string_ext() checked: the text, owned by obj, or NULL
 * when memory ran out (json-c may return a damaged text then). */
const char *np_json_text(struct json_object *obj, int flags);

/* Dense machine-wide core numbers and SMT thread numbers, as discovery
 * assigns them (in CPU order, among online CPUs), for the CPUs whose
 * given[c] is false.  -ENOMEM or 0. */
int np_topology_derive_cores(struct np_topology *t, const bool *given);

#endif
