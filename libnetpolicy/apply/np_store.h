/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The state store: the one module that knows the state directory (default
 * /run/netpolicy, root only) and every file in it.  Per device IFNAME:
 *
 *   IFNAME.lock       flock()ed by every command that may change the device
 *   IFNAME.pristine   the device before netpolicy first changed it
 *   IFNAME.policy     the policy last applied (and its --cpus)
 *   IFNAME.tentative  a `set --confirm` awaiting confirmation: its token,
 *                     deadline, and the state and policy record to return to
 *   IFNAME.journal    a run in progress: the state to return to, the record
 *                     changes to make once it succeeds, step marks, "commit"
 *   IFNAME.sysctl     what the device's policy needs of the machine-wide
 *                     net.core sysctls and their values before any device
 *                     needed them (a plan reads every device's: apply/base.c)
 *
 * IFNAME stands for the device's key: its name, and, for a device of the
 * kernel backend whose network namespace can be told (/proc/self/ns/net),
 * "@netns-DEV-INO", that namespace's nsfs device and inode (stable while the
 * namespace exists): `ip netns exec` and containers share /run, and two
 * namespaces' devices of one name must never share records, journals,
 * locks or markers.  The simulator's devices (--model) and a fixture root
 * without /proc keep the bare name (a model's default state directory is
 * its own already).  Files of the bare name written before the key existed
 * are moved to the key of the namespace they record (np_store_open, under
 * both locks); without the lock they are read where they are when they are
 * this namespace's.
 *
 * Every file but the lock and the journal's marks is one JSON document with
 * a "format" name and a "version"; readers refuse anything else.  Writes go
 * to ".IFNAME.KIND.tmp" (O_EXCL), are fsync()ed, renamed over the file and
 * the directory is fsync()ed: a crash leaves the old file or the new one.
 * Reads open non-blocking without following links, refuse what is not a
 * regular file and read at most NP_STORE_MAX_FILE bytes.  The engine names
 * files by kind, never by path.
 */
#ifndef NP_STORE_H
#define NP_STORE_H

#include <net/if.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "plan/np_mixed.h"
#include "np_private.h"

#define NP_STORE_MAX_FILE (16u << 20)
/* IFNAME@netns-DEV-INO: the device's key (see above), with its NUL */
#define NP_STORE_STEM_MAX (IFNAMSIZ + 48)

/* The network namespace netpolicy works in, as a key that survives the
 * command: the nsfs device and inode of /proc/self/ns/net (what `ip netns
 * identify` compares).  -ENOENT for the simulator (--model) and a fixture
 * root without /proc: a namespace that cannot be told.  For `watch` and
 * anything else that must follow a device across commands: a device is
 * the same one when this, its ifindex and bus path (np_ident) are. */
int np_store_netns(struct np_ctx *ctx, unsigned long long *ret_dev, unsigned long long *ret_ino);

/* The calling thread's network namespace cookie (SO_NETNS_COOKIE): never
 * given to two namespaces while the machine runs.  0 where the namespace
 * cannot be told (np_store_netns) or the kernel has none (before 5.14). */
unsigned long long np_store_netns_cookie(struct np_ctx *ctx);

enum np_file {
	NP_FILE_PRISTINE,
	NP_FILE_POLICY,
	NP_FILE_TENTATIVE,
	NP_FILE_JOURNAL,
	NP_FILE_SYSCTL,
	/* a --confirm its watchdog reverted at the deadline ({"deadline": N}):
	 * a `confirm` that comes later says it was too late (exit 3) instead
	 * of "nothing to confirm"; removed by that confirm and by the next
	 * set or reset, which start from what the revert left */
	NP_FILE_EXPIRED,
	/* a try in progress (try_marker.c): its journal is not an interrupted
	 * run while the process that wrote this lives */
	NP_FILE_TRY,
	NP_FILE__COUNT
};

/* One device's files; the lock is held from np_store_open to np_store_close. */
struct np_store {
	struct np_ctx *ctx;
	int dirfd, lockfd;
	char ifname[IFNAMSIZ];
	char stem[NP_STORE_STEM_MAX];	/* the files' names before ".KIND" */
	unsigned long long cookie;	/* the namespace's (SO_NETNS_COOKIE), 0 unknown */
	bool stale;			/* without the lock: the key's files are a deleted
					 * namespace's, read as none (store.c) */
	/* np_store_open_text (fuzz_state): every file of the device reads as
	 * this text, through np_store_read's checks; no directory, no lock */
	const char *text;
	size_t text_len;
};

/* Takes s's device lock in its open directory (s->dirfd, s->stem): waits
 * for another holder as np_ctx_set_lock_wait() says, and sets s->lockfd. */
int np_store_lock_take(struct np_store *s, struct np_error *err);
/* Creates the directory (0700) if needed, refuses one that is a symlink, not
 * a directory, or writable by others; takes the device's lock (waiting for
 * another netpolicy) and removes temp files a killed run left.  A read-only
 * directory still locks (the lock file opens read-only); writes then fail,
 * and recovery refuses a journal there before touching the device
 * (np_engine_recover: NP_PHASE_STATE, the CLI's exit 9). */
int np_store_open(struct np_ctx *ctx, const char *ifname, struct np_store *s,
		  struct np_error *err);
/* Without creating anything and without the lock (show, check, dry runs):
 * -ENOENT when there is no state directory. */
int np_store_open_readonly(struct np_ctx *ctx, const char *ifname, struct np_store *s,
			   struct np_error *err);
/* Tests only (tests/fuzz/fuzz_state.c): a store whose every file of IFNAME
 * reads as text (not copied: it must outlive the store), through the same
 * np_store_read checks and loaders as a file; nothing can be written. */
int np_store_open_text(struct np_ctx *ctx, const char *ifname, const char *text, size_t len,
		       struct np_store *s, struct np_error *err);
/* One look at the device's records without the lock and without creating
 * anything: opens read-only, runs fn, closes.  Nothing recorded (no state
 * directory, or fn's -ENOENT) is 0; otherwise fn's result (say 1 for found). */
typedef int (*np_store_peek_fn)(struct np_store *s, void *ud, struct np_error *err);
int np_store_peek(struct np_ctx *ctx, const char *ifname, np_store_peek_fn fn, void *ud,
		  struct np_error *err);
/* Releases the lock.  forget: the device does not exist, remove the lock
 * file too (while holding it: lockers check the inode they locked). */
void np_store_close(struct np_store *s, bool forget);

/* A positive integer field `key` of the file's document (of the journal's
 * header), 0 when absent or unreadable. */
unsigned long long np_store_recorded(struct np_store *s, enum np_file f, const char *key);
/* Records of the key that carry another namespace's cookie are a deleted
 * namespace's (store.c): with the lock they are moved aside, without
 * it s->stale is set and the key reads as empty; either way it is said. */
void np_store_stale_check(struct np_store *s);

/* The device's lock file as (st_dev, st_ino): the one held, else the one
 * the directory names (without locking); -ENOENT when there is none.  The
 * --confirm watchdog tells a directory emptied under it (another lock file,
 * or none) from records a command removed (the same lock file). */
int np_store_lock_id(struct np_store *s, unsigned long long ret[2]);
/* An inotify descriptor (non-blocking) that becomes readable when a file
 * of the state directory is created, replaced or removed. */
int np_store_watch(struct np_store *s, int *ret_fd, struct np_error *err);

bool np_store_has(const struct np_store *s, enum np_file f);
/* unlink + fsync(dir); absent is fine.  A failure is an error. */
int np_store_remove(struct np_store *s, enum np_file f, struct np_error *err);

/* A whole file (bounded, regular), NUL-terminated; the caller frees.
 * -ENOENT when absent, without touching err. */
int np_store_read(struct np_store *s, enum np_file f, char **ret, size_t *ret_len,
		  struct np_error *err);
/* Atomic replace with `text` (see above). */
int np_store_write(struct np_store *s, enum np_file f, const char *text, struct np_error *err);
/* Open the existing file for appending (the journal's marks). */
int np_store_open_append(struct np_store *s, enum np_file f, int *ret_fd, struct np_error *err);
const char *np_store_file_name(enum np_file f);

/* try_marker.c: the marker of a try in progress, written by the try's
 * process (holding the lock) and removed when its run ends. */
struct np_try_live {
	long pid;
	unsigned round;			/* 0: before the first condition */
	char condition[64];
};
int np_store_try_mark(struct np_store *s, const char *condition, unsigned round,
		      struct np_error *err);
void np_store_try_unmark(struct np_store *s);
/* 1 and ret filled when the marker's process is alive (the same pid and
 * start time); 0 when there is none, it is damaged or its process is gone. */
int np_store_try_live(struct np_store *s, struct np_try_live *ret);

/* --- records ----------------------------------------------------------------- */

/* Which device a record belongs to: a device deleted and re-created under
 * its name, renamed, or seen from another network namespace is another. */
struct np_ident {
	int ifindex;
	char bus_info[32];		/* ethtool's bus path ("0000:03:00.0"), "" for virtual */
	unsigned long long netns;	/* inode of the network namespace, 0 unknown */
};
void np_ident_of(struct np_ctx *ctx, const struct np_state *st, struct np_ident *ret);
bool np_ident_same(const struct np_ident *a, const struct np_ident *b);

/* Version 2 (written since the mixed policy) adds "mixed", version 3
 * "link_speed"; versions 1 and 2 are still read (has_mixed false, speed 0).
 * Always zeroed before it is filled: records are compared whole (memcmp). */
struct np_policy_record {
	char policy[32];	/* "" = none */
	char cpus[256];		/* the --cpus it was planned with, "" for the default */
	char drop[128];		/* knobs the driver refused, left out ("" none) */
	uint32_t link_speed;	/* Mb/s it was planned for (np_plan.link_speed), 0 unknown */
	bool has_mixed;		/* the mixed policy: its options and classes */
	struct np_mixed_record mixed;
};

/* IFNAME.sysctl: only the machine-wide values (rps_sock_flow_entries,
 * busy_poll, busy_read, rmem_max, wmem_max, the max of tcp_rmem and
 * tcp_wmem, netdev_max_backlog) are kept; the *_err fields are 0.  A record
 * from before the ceilings lacks them: need 0, pristine NP_SYSCTL_UNKNOWN
 * (the plan takes the live value). */
#define NP_SYSCTL_UNKNOWN UINT32_MAX
struct np_sysctl_record {
	struct np_sysctl need;		/* 0: this device needs nothing of it */
	struct np_sysctl pristine;	/* before any device needed it */
	struct np_pm_share pm;		/* per-CPU wake-up needs (records_pm.c) */
};
/* Its "pm_qos" member, both ways (absent: none). */
int np_pm_record_add(struct json_object *doc, const struct np_pm_share *pm);
int np_pm_record_read(struct json_object *doc, const char *what, struct np_pm_share *ret,
		      struct np_error *err);

struct np_tentative {
	unsigned long long token;	/* < 2^53: exact in JSON */
	long long deadline;		/* CLOCK_REALTIME seconds */
	bool has_policy;		/* the record to restore on revert (else: none) */
	struct np_policy_record policy;
	struct np_state *before;	/* the state to return to */
	/* IFNAME.sysctl to restore on revert: has_sysctl false, none (its
	 * needs are the tentative policy's, which a revert undoes).
	 * sysctl_known false: a marker without it, the record is kept. */
	bool sysctl_known, has_sysctl;
	struct np_sysctl_record sysctl;
};

/* Building the store's documents: v (consumed) added under key or appended;
 * false, with the document freed and set NULL, when v is NULL (an
 * allocation that failed) or the add failed, so a chain of && stops there. */
bool np_doc_add(struct json_object **o, const char *key, struct json_object *v);
bool np_doc_push(struct json_object **a, struct json_object *v);

/* A state a record holds (np_state_from_json_full): one it cannot hold is
 * a damaged record named `what` (NP_PHASE_APPLY), not an input error. */
int np_state_from_record(struct json_object *obj, const char *what, struct np_state **ret,
			 struct np_error *err);
/* -ENOENT when absent (err untouched); -EINVAL for a damaged file. */
int np_store_pristine_load(struct np_store *s, struct np_state **ret, struct np_ident *ret_id,
			   struct np_error *err);
int np_store_pristine_save(struct np_store *s, const struct np_state *st,
			   const struct np_ident *id, struct np_error *err);
int np_store_policy_load(struct np_store *s, struct np_policy_record *ret, struct np_error *err);
int np_store_tentative_load(struct np_store *s, struct np_tentative *ret, struct np_error *err);
void np_tentative_release(struct np_tentative *t);

int np_store_sysctl_load(struct np_store *s, struct np_sysctl_record *ret, struct np_error *err);
int np_store_sysctl_save(struct np_store *s, const struct np_sysctl_record *rec,
			 struct np_error *err);
/* Every other device's sysctl record in the directory (s's own left out),
 * read without their locks (each file is replaced atomically); damaged ones
 * are skipped, one that could not be read for want of memory is -ENOMEM.
 * same_netns: the record's device is of s's network namespace (its key's
 * "@netns-" part is s's).  fn returning < 0 stops the walk
 * (apply/records_others.c). */
int np_store_sysctl_others(struct np_store *s,
			   int (*fn)(const char *ifname, const struct np_sysctl_record *rec,
				     bool same_netns, void *ud),
			   void *ud);

/* The documents (the journal embeds them as what to write at commit). */
int np_policy_record_to_json(const struct np_policy_record *rec, struct json_object **ret);
int np_policy_record_from_json(struct json_object *obj, const char *what,
			       struct np_policy_record *ret, struct np_error *err);
int np_sysctl_record_to_json(const struct np_sysctl_record *rec, struct json_object **ret);
int np_sysctl_record_from_json(struct json_object *obj, const char *what,
			       struct np_sysctl_record *ret, struct np_error *err);
int np_tentative_to_json(const struct np_tentative *t, struct json_object **ret);
int np_tentative_from_json(struct json_object *obj, const char *what, struct np_tentative *ret,
			   struct np_error *err);
/* Write a record document (policy or tentative) as is. */
int np_store_write_json(struct np_store *s, enum np_file f, struct json_object *doc,
			struct np_error *err);

/* A JSON document parsed strictly (np_json_parse: one value, nothing after
 * it, no key twice, no NUL), an object; errors name `what`. */
int np_json_parse_strict(const char *text, size_t len, const char *what,
			 struct json_object **ret, struct np_error *err);
/* "format" is `format` and "version" is `version`. */
int np_json_check_format(struct json_object *obj, const char *format, int version,
			 const char *what, struct np_error *err);

#endif
