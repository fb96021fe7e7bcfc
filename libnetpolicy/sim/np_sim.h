/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulated backend's pieces, shared by its files:
 *   model_io.c  the model file: strict parsing, re-reading, atomic saving;
 *   fault.c     injected faults and call counting around every operation;
 *   driver.c    the drivers' ethtool operations (channels, rings, ...);
 *   files.c     the sysfs and procfs files (RPS/XPS, IRQ affinity, sysctls);
 *   sim.c       the backend: discover, list, the ops table.
 */
#ifndef NP_SIM_H
#define NP_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "model/np_serialize.h"

/* A model of 2048 CPUs and a few devices of 1024 queues is a few MiB. */
#define NP_MODEL_MAX_SIZE (16u << 20)

/* The operations a fault can name (their names: np_sim_op_names). */
enum np_sim_op {
	NP_SIM_OP_DISCOVER,
	NP_SIM_OP_SET_CHANNELS,
	NP_SIM_OP_SET_RINGS,
	NP_SIM_OP_SET_COALESCE,
	NP_SIM_OP_SET_FEATURE,
	NP_SIM_OP_SET_RSS_INDIR,
	NP_SIM_OP_WRITE_ATTR,
	NP_SIM_OP_RULE_INSERT,
	NP_SIM_OP_RULE_DELETE,
	NP_SIM_OP_CTX_CREATE,
	NP_SIM_OP_CTX_SET,
	NP_SIM_OP_CTX_DELETE,
	NP_SIM_OP_SET_NAPI,
	NP_SIM_OP_SET_QUEUE_COALESCE,
	NP_SIM_OP__COUNT
};

/* What a fault does to the call it hits. */
enum np_sim_mode {
	NP_SIM_MODE_FAIL, NP_SIM_MODE_IGNORE, NP_SIM_MODE_ROUND, NP_SIM_MODE_VANISH,
	/* set_coalesce behaviours (behave.c), on every call from the after-th:
	 * the request is taken but its `fields` keep their values; rx-usecs
	 * and tx-usecs are one timer; a usecs change is refused in a request
	 * that leaves adaptive moderation on */
	NP_SIM_MODE_KEEP, NP_SIM_MODE_COUPLE, NP_SIM_MODE_ADAPTIVE_USECS,
};

struct np_sim_fault {
	enum np_sim_op op;
	uint64_t after;		/* fires on the call that finds calls[op] == after */
	enum np_sim_mode mode;
	int code;		/* NP_SIM_MODE_FAIL: negative errno */
	char extack[200];
	char device[IFNAMSIZ];	/* "" = any device */
	/* set_coalesce: fires on every call from the after-th on whose
	 * request carries this field (a driver refusing one value) */
	uint32_t fields;
	bool every;		/* fires on every call from the after-th on */
	char knob[16];		/* "" = any; else only calls writing this knob */
};

struct np_sim_model {
	struct json_object *root;	/* as loaded: top-level keys we do not model survive a save */
	struct np_topology topo;
	struct np_sysctl sys;
	struct np_pm pm;	/* "pm_qos": err -ENODATA when the model has none */
	struct np_dev *devs;
	size_t n_devs;
	struct np_sim_fault *faults;
	size_t n_faults;
	uint64_t calls[NP_SIM_OP__COUNT];	/* counted only for ops that have faults */
	/* "managed_irqs": vectors the kernel spreads itself (PCI_IRQ_AFFINITY,
	 * IRQ_NO_BALANCING): their affinity writes fail with EIO and a channel
	 * change leaves them where they are */
	unsigned *managed;
	size_t n_managed;
	/* "driver_rules": false: the model's devices take whatever their
	 * ethtool data allows, not what np_drivers.h says the driver does */
	bool no_driver_rules;
};

struct np_sim {
	struct np_backend be;
	char *path;		/* the model file, or (text) the name messages use */
	const char *text;	/* np_ctx_set_model_text: the model, not a file */
	size_t text_len;
	struct np_sim_model m;
	bool loaded;
	bool dirty;		/* the model changed (or a fault counter moved): save it */
	struct stat sb;		/* of the file as we last loaded or saved it */
};

/* One simulated operation in progress (np_sim_begin() fills it). */
struct np_sim_call {
	enum np_sim_op op;
	enum np_phase phase;
	const char *knob;
	struct np_dev *dev;		/* NULL when the device is gone */
	const struct np_sim_fault *fault;	/* an "ignore" or "round" fault that fired */
	uint32_t fields;		/* set_coalesce: the fields the request carries */
};

static inline struct np_sim *np_sim_of(struct np_backend *be)
{
	return (struct np_sim *)be;
}

static inline bool np_sim_fault_is(const struct np_sim_call *c, enum np_sim_mode mode)
{
	return c->fault && c->fault->mode == mode;
}

/* model_io.c */
void np_sim_model_clear(struct np_sim_model *m);
int np_sim_bad(struct np_error *err, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int np_sim_json_add(struct json_object *o, const char *key, struct json_object *v);
int np_sim_load(struct np_sim *s, struct np_error *err);
int np_sim_sync(struct np_sim *s, struct np_error *err);
int np_sim_save(struct np_sim *s, struct np_error *err);

/* fault.c */
int np_sim_faults_parse(struct np_sim_model *m, struct np_error *err);
int np_sim_calls_add(struct json_object *o, const struct np_sim_model *m);
struct np_dev *np_sim_find_dev(struct np_sim_model *m, const char *ifname);
int np_sim_fail(struct np_error *err, enum np_phase phase, const char *knob, int code,
		const char *extack);
int np_sim_begin(struct np_sim *s, struct np_sim_call *c, const char *ifname, bool need_dev,
		 struct np_error *err);
int np_sim_finish(struct np_sim *s, int r, struct np_error *err);
bool np_sim_irq_managed(const struct np_sim_model *m, unsigned irq);

/* behave.c: the set_coalesce behaviours of the fault c->fault holds.
 * Before the driver stores val (the request merged into the current values
 * cur, `fields` sent): -EINVAL when it refuses the request; after: what
 * it keeps of val. */
int np_sim_coal_refuses(const struct np_sim_call *c, const uint32_t *cur, const uint32_t *val,
			uint32_t fields, struct np_error *err);
void np_sim_coal_stores(const struct np_sim_call *c, const uint32_t *cur, uint32_t *val,
			uint32_t fields);

/* driver.c */
uint32_t np_sim_roundup_pow2(uint32_t v);
bool np_sim_no_channel_setter(const struct np_sim *s, const struct np_dev *d);
int np_sim_set_channels(struct np_backend *be, const struct np_dev *dev,
			const struct np_channels *want, struct np_error *err);
int np_sim_set_rings(struct np_backend *be, const struct np_dev *dev,
		     const struct np_rings *want, struct np_error *err);
int np_sim_set_coalesce(struct np_backend *be, const struct np_dev *dev,
			const struct np_coalesce *want, uint32_t fields, struct np_error *err);
int np_sim_set_feature(struct np_backend *be, const struct np_dev *dev, const char *name,
		       bool on, struct np_error *err);
int np_sim_set_napi(struct np_backend *be, const struct np_dev *dev,
		    const struct np_napi_inst *want, uint32_t fields, struct np_error *err);
int np_sim_set_rss_indir(struct np_backend *be, const struct np_dev *dev,
			 const uint32_t *indir, uint32_t n, struct np_error *err);

/* queue_coal.c: ETHTOOL_PERQUEUE coalescing; np_sim_queue_coal_all: a
 * device-wide write reaching every queue, as on the drivers that have it */
int np_sim_set_queue_coalesce(struct np_backend *be, const struct np_dev *dev, unsigned queue,
			      const uint32_t *val, uint32_t fields, struct np_error *err);
void np_sim_queue_coal_all(struct np_dev *d);

/* files.c */
int np_sim_write_attr(struct np_backend *be, const struct np_dev *dev, enum np_attr attr,
		      unsigned index, const char *value, struct np_error *err);

/* sim_steer.c: ntuple rules and RSS contexts, and the check a channel
 * change makes (-EINVAL with the kernel's text when a rule or context uses
 * a queue at or beyond nrx); np_sim_steer_check: a model's rules and
 * contexts as a driver would hold them (queues that exist, contexts the
 * rules name), for the model checks. */
int np_sim_rule_insert(struct np_backend *be, const struct np_dev *dev, const struct np_rule *rule,
		       uint32_t *ret_loc, struct np_error *err);
int np_sim_rule_delete(struct np_backend *be, const struct np_dev *dev, uint32_t loc,
		       struct np_error *err);
int np_sim_ctx_create(struct np_backend *be, const struct np_dev *dev,
		      const struct np_rss_ctx *ctx, uint32_t *ret_id, struct np_error *err);
int np_sim_ctx_set(struct np_backend *be, const struct np_dev *dev, const struct np_rss_ctx *ctx,
		   struct np_error *err);
int np_sim_ctx_delete(struct np_backend *be, const struct np_dev *dev, uint32_t id,
		      struct np_error *err);
/* steer_check.c: the queues rule r delivers to end below nrx (0 when it
 * drops); -ENOENT/-EINVAL with why filled otherwise */
int np_sim_rule_queues_ok(const struct np_steer *s, const struct np_rule *r, uint32_t nrx,
			  char *why, size_t len);
int np_sim_steer_shrink_check(const struct np_dev *d, uint32_t nrx, char *why, size_t len);
int np_sim_steer_check(const struct np_dev *d, char *why, size_t len);

#endif
