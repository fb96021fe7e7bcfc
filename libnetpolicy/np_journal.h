/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The state directory: per-device lock, pristine snapshot, write-ahead
 * journal and active-policy record. */
#ifndef NP_JOURNAL_H
#define NP_JOURNAL_H

#include "np_private.h"

/* Creates the directory (0700) if needed and refuses one that is a symlink,
 * not a directory, or writable by others. */
int np_statedir_open(struct np_ctx *ctx, int *ret_dirfd, struct np_error *err);
/* Exclusive per-device lock, waiting for another netpolicy on the device. */
int np_device_lock(struct np_ctx *ctx, int dirfd, const char *ifname, int *ret_fd,
		   struct np_error *err);

/* Atomic (temp file, fsync, rename, fsync dir). */
int np_state_save(int dirfd, const char *file, const struct np_state *st, struct np_error *err);
/* -ENOENT when absent. */
int np_state_load(int dirfd, const char *file, struct np_state **ret, struct np_error *err);
int np_text_save(int dirfd, const char *file, const char *text, struct np_error *err);
int np_file_remove(int dirfd, const char *file);
/* A whole small file, NUL-terminated; the caller frees. */
int np_slurp_file(int dirfd, const char *file, char **ret);

struct np_journal;
/* Writes the state to return to on failure, durably, before any step. */
int np_journal_begin(int dirfd, const char *ifname, const struct np_state *before,
		     const char *what, struct np_journal **ret, struct np_error *err);
/* Appends "start|done STEP KNOB WHAT" and syncs it. */
int np_journal_mark(struct np_journal *j, const char *event, unsigned step, const char *knob,
		    const char *what);
/* Done: remove the journal (keep = leave it for a later recovery). */
void np_journal_end(struct np_journal *j, bool keep);
/* The state an interrupted apply left to return to; -ENOENT when none.
 * ret_last describes the last step the journal saw started. */
int np_journal_load(int dirfd, const char *ifname, struct np_state **ret, char *last,
		    size_t last_len, struct np_error *err);

#endif
