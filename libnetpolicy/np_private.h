/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal declarations shared between the library's files. */
#ifndef NP_PRIVATE_H
#define NP_PRIVATE_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "netpolicy/netpolicy.h"
#include "model/np_state.h"
#include "np_test_hooks.h"

#define NP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- errors and results (opaque in the public header) ---------------------- */

struct np_error {
	int code;		/* negative errno, 0 when no error */
	enum np_phase phase;
	const char *knob;	/* static string ("channels", "irq-affinity") or NULL */
	int step;		/* index of the plan step, or -1 */
	char msg[256];		/* netpolicy's words */
	char extack[256];	/* the kernel's words, when it gave any */
};

#define NP_DROPPED_MAX 8

struct np_apply_result {
	bool changed;			/* the device was changed (and kept so) */
	unsigned n_writes;		/* state-changing kernel calls made, rollback included */
	bool rolled_back;		/* a failure was rolled back ... */
	bool rollback_incomplete;	/* ... but the device still differs (journal kept) */
	char rollback_msg[256];		/* what still differs, when incomplete */
	bool recovered;			/* an interrupted earlier apply was rolled back first */
	bool recovery_wrote;		/* ... and that changed the device (np_apply_result_changed) */
	bool vanished;			/* the device disappeared: nothing left to roll back */
	char notes[512];		/* values the driver rounded, "; "-separated */
	/* Refinements the driver refused and the apply left out (not with
	 * NP_APPLY_STRICT): the knob and the kernel's reason. */
	unsigned n_dropped;
	struct np_dropped {
		char knob[16];
		char field[24];		/* coalesce: the one field left out, "" the knob */
		int code;		/* the driver's -errno */
		char reason[240];
	} dropped[NP_DROPPED_MAX];
	unsigned long long token;	/* NP_APPLY_TENTATIVE: what np_revert_tentative() needs */
	long long deadline;		/* NP_APPLY_TENTATIVE: reverted after (CLOCK_REALTIME s) */
	bool interrupted;		/* the cancel callback stopped the run: rolled back */
	bool unrecorded;		/* changed, but a record or the journal could not be
					 * updated (err says which); the next command repairs */
	bool other_writer;		/* another writer changed the device during the run */
	char renamed_to[16];		/* vanished: the device now has this name */
};

struct np_mixed_record;
struct np_active {
	char policy[32];
	char cpus[256];		/* the --cpus it was planned with, "" for the default */
	char drop[128];		/* knobs the driver refused, left out (np_plan_opts.drop) */
	uint32_t link_speed;	/* Mb/s it was planned for, 0 unknown */
	long long written;	/* when the record was last written (seconds), 0 none */
	struct np_mixed_record *mixed;	/* the mixed policy's record, else NULL */
	char weights[64];	/* mixed: "latency=1,throughput=2,cpu=1" */
};

/* Fill err (if non-NULL) and return code (a negative errno).  knob is static. */
int np_err(struct np_error *err, int code, enum np_phase phase, const char *knob,
	   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Copy the kernel's extended-ack text into err->extack. */
void np_err_extack(struct np_error *err, const char *text);

/* "EBUSY" or "16" -> 16; 0 if unknown (never strerror() text: locale-dependent). */
int np_errno_parse(const char *s);
/* "EBUSY" for 16 (or -16); NULL if unknown. */
const char *np_errno_name(int code);

/* --- logging --------------------------------------------------------------- */

void np_log(struct np_ctx *ctx, enum np_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* --- backends -------------------------------------------------------------- */

/* Files and sysctls the apply engine writes, by kind (index = queue or IRQ). */
enum np_attr {
	NP_ATTR_RPS_CPUS,		/* queues/rx-N/rps_cpus (hex mask) */
	NP_ATTR_RPS_FLOW_CNT,		/* queues/rx-N/rps_flow_cnt */
	NP_ATTR_XPS_CPUS,		/* queues/tx-N/xps_cpus (hex mask) */
	NP_ATTR_XPS_RXQS,		/* queues/tx-N/xps_rxqs (hex mask) */
	NP_ATTR_IRQ_AFFINITY,		/* /proc/irq/N/smp_affinity_list, index = IRQ number */
	NP_ATTR_NAPI_DEFER_HARD_IRQS,	/* /sys/class/net/IF/napi_defer_hard_irqs */
	NP_ATTR_GRO_FLUSH_TIMEOUT,	/* /sys/class/net/IF/gro_flush_timeout */
	NP_ATTR_SOCK_FLOW_ENTRIES,	/* /proc/sys/net/core/rps_sock_flow_entries */
	NP_ATTR_BUSY_POLL,		/* /proc/sys/net/core/busy_poll */
	NP_ATTR_BUSY_READ,		/* /proc/sys/net/core/busy_read */
	NP_ATTR_RMEM_MAX,		/* /proc/sys/net/core/rmem_max */
	NP_ATTR_WMEM_MAX,		/* /proc/sys/net/core/wmem_max */
	NP_ATTR_TCP_RMEM,		/* /proc/sys/net/ipv4/tcp_rmem ("MIN DEF MAX") */
	NP_ATTR_TCP_WMEM,		/* /proc/sys/net/ipv4/tcp_wmem */
	NP_ATTR_MAX_BACKLOG,		/* /proc/sys/net/core/netdev_max_backlog */
	NP_ATTR_NAPI_THREAD_AFFINITY,	/* sched_setaffinity of a NAPI kthread, index = pid */
	NP_ATTR_PM_QOS,			/* cpuN/power/pm_qos_resume_latency_us, index = CPU */
	NP_ATTR__COUNT
};

struct np_backend;

/* What a write can change besides what it wrote, for the engine to read
 * again (np_backend_ops.refresh) instead of the whole device. */
enum np_read_part {
	/* a queue-reopening step: channels, the RSS table (a default one is
	 * re-spread), the queues and their files, the IRQs (re-requested,
	 * affinity back to default), the NAPI files, instances and kthreads
	 * (doc/kernel.md, "What a channel or ring change does") */
	NP_READ_QUEUES = 1u << 0,
	NP_READ_RINGS = 1u << 1,
	NP_READ_COALESCE = 1u << 2,
};

/* A device's traffic counters (rtnetlink stats64) and its link (try). */
struct np_link_stats {
	uint64_t rx_bytes, tx_bytes, rx_packets, tx_packets;
	uint64_t rx_dropped, tx_dropped, rx_errors, tx_errors;
	bool up;		/* operstate up, or unknown (no carrier reporting) */
};

struct np_backend_ops {
	const char *name;
	/* its writes run with this process's capabilities (the kernel's): an
	 * EPERM may be the caller's lack, not a driver's answer as in a model */
	bool process_caps;
	int (*discover)(struct np_backend *be, const char *ifname, struct np_state *st,
			struct np_error *err);
	/* Read again only `parts` (enum np_read_part) of st, a reading of this
	 * backend's: what a step that reopened queues or that the driver
	 * rounds may have changed.  -ENODEV when the device is gone. */
	int (*refresh)(struct np_backend *be, struct np_state *st, unsigned parts,
		       struct np_error *err);
	int (*list_devices)(struct np_backend *be, char ***ret, size_t *ret_n, struct np_error *err);
	int (*set_channels)(struct np_backend *be, const struct np_dev *dev,
			    const struct np_channels *want, struct np_error *err);
	int (*set_rings)(struct np_backend *be, const struct np_dev *dev,
			 const struct np_rings *want, struct np_error *err);
	/* Send only the fields whose bit is set in `fields`. */
	int (*set_coalesce)(struct np_backend *be, const struct np_dev *dev,
			    const struct np_coalesce *want, uint32_t fields, struct np_error *err);
	int (*set_feature)(struct np_backend *be, const struct np_dev *dev, const char *name,
			   bool on, struct np_error *err);
	/* n == 0 restores the driver's default table. */
	/* napi-set of the NP_NAPI_HAS_* fields of one NAPI instance (want->id) */
	int (*set_napi)(struct np_backend *be, const struct np_dev *dev,
			const struct np_napi_inst *want, uint32_t fields, struct np_error *err);
	/* ETHTOOL_PERQUEUE coalescing of one queue: the `fields` of val
	 * (np_rxq.coal), the queue's other fields as they are */
	int (*set_queue_coalesce)(struct np_backend *be, const struct np_dev *dev, unsigned queue,
				  const uint32_t *val, uint32_t fields, struct np_error *err);
	int (*set_rss_indir)(struct np_backend *be, const struct np_dev *dev, const uint32_t *indir,
			     uint32_t n, struct np_error *err);
	int (*write_attr)(struct np_backend *be, const struct np_dev *dev, enum np_attr attr,
			  unsigned index, const char *value, struct np_error *err);
	/* ntuple rules and extra RSS contexts (the mixed policy).  A rule goes
	 * to rule->fs.location (RX_CLS_LOC_ANY: the driver's choice, where it
	 * places rules itself); *ret_loc is where it went.  A context is made
	 * with ctx->id (0: the kernel's choice, *ret_id) and ctx's table
	 * (n_indir 0: the driver's default spread); ctx_set changes the table
	 * of an existing one. */
	int (*rule_insert)(struct np_backend *be, const struct np_dev *dev,
			   const struct np_rule *rule, uint32_t *ret_loc, struct np_error *err);
	int (*rule_delete)(struct np_backend *be, const struct np_dev *dev, uint32_t loc,
			   struct np_error *err);
	int (*ctx_create)(struct np_backend *be, const struct np_dev *dev,
			  const struct np_rss_ctx *ctx, uint32_t *ret_id, struct np_error *err);
	int (*ctx_set)(struct np_backend *be, const struct np_dev *dev,
		       const struct np_rss_ctx *ctx, struct np_error *err);
	int (*ctx_delete)(struct np_backend *be, const struct np_dev *dev, uint32_t id,
			  struct np_error *err);
	/* The device's counters and link; NULL: the backend has none (a
	 * simulated device moves no traffic: counters 0, link up). */
	int (*link_stats)(struct np_backend *be, const char *ifname, struct np_link_stats *ret,
			  struct np_error *err);
	void (*free)(struct np_backend *be);
};

struct np_backend {
	const struct np_backend_ops *ops;
	struct np_ctx *ctx;
};

int np_backend_kernel_new(struct np_ctx *ctx, struct np_backend **ret, struct np_error *err);
int np_backend_sim_new(struct np_ctx *ctx, const char *model, struct np_backend **ret,
		       struct np_error *err);
/* The same on a model held in memory (np_ctx_set_model_text). */
int np_backend_sim_new_text(struct np_ctx *ctx, const char *name, const char *text, size_t len,
			    struct np_backend **ret, struct np_error *err);

/* --- context --------------------------------------------------------------- */

struct np_ctx {
	int rootfd;			/* "/" or a fixture tree: sysfs and procfs are read below it */
	unsigned root_gen;		/* bumped when rootfd changes: caches of the tree drop */
	char state_dir[PATH_MAX];
	bool state_dir_set;		/* given: not the backend's default */
	char *model;			/* sim backend model file, or NULL */
	np_log_fn log_fn;
	void *log_ud;
	struct np_backend *be;		/* created on first use */
	np_step_fn step_fn;
	void *step_ud;
	np_cancel_fn cancel_fn;
	void *cancel_ud;
	unsigned confirm_secs;		/* NP_APPLY_TENTATIVE */
	np_tentative_fn tentative_fn;
	void *tentative_ud;
	struct np_work_counts counts;	/* what commands cost (np_test_hooks.h) */
	int lock_wait;			/* seconds, -1 for ever (np_ctx_set_lock_wait) */
	char policy_dir[PATH_MAX];	/* custom policies; "" for NP_POLICY_DIR */
	struct np_custom_policy *policies;	/* loaded from it, cached */
	unsigned long long stale_said;	/* the deleted namespace's records last reported */
	/* The key whose records were found to be this namespace's (store.c,
	 * np_store_stale_check) and the cookie they were checked against;
	 * "" none yet.  Cleared when the state directory changes. */
	char records_ours[64];
	unsigned long long records_ours_cookie;
};

int np_ctx_backend(struct np_ctx *ctx, struct np_backend **ret, struct np_error *err);

/* --- files below a root directory fd ---------------------------------------- */

/* Read a small text file (path relative to dirfd, no leading '/'), strip the
 * trailing newline.  Returns the length or -errno (-ENOSPC when it does not fit). */
int np_read_file_at(int dirfd, const char *path, char *buf, size_t len);
int np_read_u32_at(int dirfd, const char *path, uint32_t *ret);
int np_read_u64_at(int dirfd, const char *path, uint64_t *ret);
/* Three decimal ints separated by blanks ("MIN\tDEFAULT\tMAX" of tcp_rmem
 * and tcp_wmem), each at most INT32_MAX: 0, -EINVAL or -ERANGE. */
int np_parse_triple(const char *buf, uint32_t v[3]);
/* A decimal integer from -1 ("none" in sysfs) up to 2^24. */
int np_read_int_at(int dirfd, const char *path, int *ret);
/* The last component of a symlink's target ("../../../virtio2" -> "virtio2"). */
int np_read_link_name_at(int dirfd, const char *path, char *buf, size_t len);
/* A whole user-given text file (path relative to dirfd, or absolute), at most
 * max bytes, NUL-terminated (*ret_len excludes the NUL; may be NULL); the
 * caller frees.  -EINVAL for a FIFO, device or socket (never opened in a
 * way that blocks), -EISDIR, -EFBIG beyond max, -ENOMEM, or the read error. */
int np_text_file_read(int dirfd, const char *path, size_t max, char **ret, size_t *ret_len);
/* The same with flags: NP_TEXT_NOFOLLOW refuses a symbolic link (-ELOOP),
 * NP_TEXT_TRUSTED a file owned by anyone but root or the caller or
 * writable by group or others (-EPERM, the reason in why).  EINTR is
 * retried. */
#define NP_TEXT_NOFOLLOW 1u
#define NP_TEXT_TRUSTED 2u
int np_text_file_read_guarded(int dirfd, const char *path, size_t max, unsigned flags,
			      char *why, size_t why_len, char **ret, size_t *ret_len);
/* Size-prefixed public structs (util/sized.c): `in` (the caller's, NULL for
 * defaults) into `out` (the library's, `known` bytes): -EINVAL when its sz
 * is too small to be one, -E2BIG when a byte this library does not know is
 * set.  np_sized_out copies the library's `src` into the caller's `dst`,
 * as much as dst->sz holds (-EINVAL when it holds not even sz). */
int np_sized_in(const void *in, void *out, size_t known);
int np_sized_out(void *dst, const void *src, size_t known);
struct stat;
/* 0 when only root (or the caller) can change the file sb describes, else
 * -EPERM with the reason ("owned by uid 65534, not by root"). */
int np_stat_trusted(const struct stat *sb, char *why, size_t why_len);
/* A directory's fd when it passes np_stat_trusted, else -errno (-EPERM)
 * with the reason in why. */
int np_trusted_dir_open(int dirfd, const char *path, char *why, size_t why_len);
/* Its error text ("not a regular file", "file too large", strerror). */
const char *np_text_file_strerror(int code);
/* Write value in one write(2); returns 0 or -errno. */
int np_write_file_at(int dirfd, const char *path, const char *value);
/* Write all of p to fd, retrying short writes and EINTR; 0 or -errno. */
int np_write_all(int fd, const char *p, size_t len);
/* A directory's fd (O_CLOEXEC), or -errno. */
int np_open_dir_at(int dirfd, const char *path);
/* fn on each entry name of the directory just opened at fd (read from
 * where the fd is; it stays open, usable for openat) until fn returns nonzero; that
 * value, 0, or -errno.  getdents64 on the fd itself: no DIR stream, whose
 * setup costs an fstat and two fcntl per directory. */
int np_dir_names(int fd, int (*fn)(const char *name, void *arg), void *arg);
/* 0 when path exists, or -errno. */
int np_exists_at(int dirfd, const char *path);
/* fn on each line (newline kept) until it returns nonzero; for the few
 * files too big for one buffer (the /proc/interrupts fallback). */
int np_for_each_line_at(int dirfd, const char *path, int (*fn)(char *line, void *arg), void *arg);

/* What the calling thread opened, looked up and read through the functions
 * above since the last reset: for the counted-read tests and bench/. */
struct np_io_stats {
	uint64_t opens;		/* files and directories opened */
	uint64_t lookups;	/* existence checks and symlinks read */
	uint64_t bytes;		/* bytes read */
};
void np_io_stats_get(struct np_io_stats *ret);
void np_io_stats_reset(void);

#endif
