/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The write-ahead journal of one run (apply, rollback of a tentative apply,
 * reset).  Its header, written atomically before the first write to the
 * device, holds the state to return to, which device it is, and the record
 * changes to make once the device part succeeded ("commit": policy record,
 * tentative marker, pristine snapshot).  Then one line per step ("start",
 * "done") and finally "commit".  Recovery of a journal without "commit"
 * returns the device to the header's state and leaves the records as they
 * were (none was touched); with "commit" it makes the record changes again
 * (they are idempotent) and removes the journal.  So a kill between any two
 * writes leaves a state the next command completes.
 */
#ifndef NP_JOURNAL_H
#define NP_JOURNAL_H

#include "apply/np_store.h"

enum np_rec_op { NP_REC_KEEP = 0, NP_REC_SET, NP_REC_REMOVE };

/* What the run changes in the records when it succeeds. */
struct np_commit {
	enum np_rec_op policy, tentative, pristine;	/* pristine: KEEP or REMOVE */
	struct np_policy_record policy_rec;
	struct np_tentative tentative_rec;		/* .before borrowed */
	/* the device's machine-wide sysctl needs (IFNAME.sysctl): in the
	 * commit, so a kill after it cannot lose them */
	enum np_rec_op sysctl;
	struct np_sysctl_record sysctl_rec;
};

struct np_journal;

/* intent: the ntuple rules the run may insert (their locations ordinal:
 * a driver that places rules itself says where only after the insert), in
 * the header as "intent"; NULL or empty: none. */
int np_journal_begin(struct np_store *s, const struct np_ident *id, const struct np_state *before,
		     const char *what, const struct np_commit *commit,
		     const struct np_steer *intent, struct np_journal **ret, struct np_error *err);
/* "start|done STEP KNOB WHAT"; a "start" is synced before the step is made. */
int np_journal_mark(struct np_journal *j, const char *event, unsigned step, const char *knob,
		    const char *what, struct np_error *err);
/* The policy record as the run made it (the locations the driver chose for
 * rules it placed): "policy JSON", synced; recovery of a committed run
 * records this one rather than the header's. */
int np_journal_policy(struct np_journal *j, const struct np_policy_record *rec,
		      struct np_error *err);
/* The device part is done: "commit", synced.  From here the run counts. */
int np_journal_commit(struct np_journal *j, struct np_error *err);
/* Make the record changes and remove the journal; frees j. */
int np_journal_finish(struct np_journal *j, struct np_error *err);
/* The run was rolled back completely: remove the journal; frees j. */
int np_journal_drop(struct np_journal *j, struct np_error *err);
/* Keep the journal for a later recovery; frees j. */
void np_journal_keep(struct np_journal *j);

/* An interrupted run, as its journal says. */
struct np_journal_info {
	struct np_state *before;
	struct np_ident id;
	bool committed;
	char last[96];			/* "in step 3 xps tx-1", "before the first step" */
	struct json_object *commit;	/* the record changes (owned) */
	bool has_intent;		/* the header says which rules the run would insert */
	struct np_steer intent;		/* ... these (locations ordinal) */
};
/* -ENOENT (err untouched) when there is none; -EINVAL when damaged. */
int np_journal_load(struct np_store *s, struct np_journal_info *ret, struct np_error *err);
/* Finish a committed run: its record changes, then remove the journal. */
int np_journal_complete(struct np_store *s, struct np_journal_info *info, struct np_error *err);
void np_journal_info_release(struct np_journal_info *info);

/* apply/base.c: what plans start from besides the live device. */
struct np_plan;
struct np_plan_base;
/* Reads the device's pristine snapshot and every device's sysctl record;
 * what is missing or damaged stays empty; -ENOMEM when memory ran out.
 * Never creates the directory. */
int np_plan_base_load(struct np_ctx *ctx, const struct np_state *cur, struct np_plan_base *ret);
void np_plan_base_clear(struct np_plan_base *base);
/* After an apply: the device's sysctl needs (removed when it has none),
 * as a record change of a commit (KEEP when the record says so already). */
void np_plan_base_commit(struct np_store *s, const struct np_plan *plan, enum np_rec_op *ret_op,
			 struct np_sysctl_record *ret_rec);
/* After a reset: the device needs nothing any more. */
int np_plan_base_forget(struct np_store *s, struct np_error *err);
/* The machine-wide sysctls a reset of cur's device returns to: what the
 * other devices still need, at least their values before any device needed
 * them; as they are when no device has a record. */
int np_plan_base_reset_sys(struct np_ctx *ctx, const struct np_state *cur,
			   struct np_sysctl *goal);
/* The CPUs' wake-up limits a reset of cur's device returns to: as they
 * are, but the CPUs its record names: their values before any device
 * limited them, or the strictest the other devices still need; -ENOMEM. */
int np_plan_base_reset_pm(struct np_ctx *ctx, const struct np_state *cur, struct np_pm *goal);

#endif
