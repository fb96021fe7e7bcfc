/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* try: the run's data, shared by cmd_try.c (the loop) and render_try.c
 * (statistics and report). */
#ifndef NP_CLI_TRY_H
#define NP_CLI_TRY_H

#include <regex.h>

#include "cli.h"
#include "try_stats.h"

#define TRY_MAX_COND 16
/* the measures a run records: the metric, then the library's */
#define TRY_N_MEASURES (1 + NP_TRY_MEASURE__COUNT)

/* the last lines of a failed run's output kept for its report */
#define TRY_TAIL_LINES 5
#define TRY_TAIL_MAX 1024

struct try_run {
	int round, position;	/* 1-based */
	int status;		/* exit status, 128+N for signal N, -1 timed out */
	int exit_code;		/* its exit status, -1 when a signal ended it */
	int signal;		/* the signal that ended it, 0 none */
	bool timed_out;		/* --timeout stopped it (then signal is the stop's) */
	double v[TRY_N_MEASURES];
};

struct try_cond {
	const char *name;		/* "baseline" or the policy's */
	const struct np_policy *policy;	/* NULL: the baseline */
	struct try_run runs[TRY_STATS_MAX];
	int n_runs;
	/* render_try.c: per measure against the baseline */
	double median[TRY_N_MEASURES], min[TRY_N_MEASURES], max[TRY_N_MEASURES];
	double ratio[TRY_N_MEASURES], p[TRY_N_MEASURES];
	int verdict[TRY_N_MEASURES];	/* 0 none, +1 higher, -1 lower */
};

struct try_ctx {
	struct cli *c;
	struct try_cond cond[TRY_MAX_COND];
	int n_cond;
	bool lower_better;	/* the metric's direction */
	double alpha;		/* per comparison: 0.05 over the number of policies */
	bool completed;		/* every run was made */
	int winner;		/* index of the condition kept or to keep, -1 none */
	bool kept;
	int log_dirfd;		/* --log, -1 without */
	/* the run that failed and stopped the try: cond[failed].runs[n_runs]
	 * (not counted in n_runs: no statistics of it), -1 none */
	int failed;
	char tail[TRY_TAIL_MAX];	/* its output's last lines, '\n' between */
	int stop_signal;	/* the SIGINT, SIGTERM or SIGHUP that stopped the try, 0 none */
	bool restored;		/* the device's return to the baseline was verified */
	/* what the measurement cannot show, said before or during the runs */
#define TRY_MAX_WARN 3
	char warn[TRY_MAX_WARN][256];
	int n_warn;
	bool warned_fixed, warned_same;
};

/* try_files.c: the --log directory made if need be and opened when it is
 * trusted (owned by root or the caller, writable by nobody else), else
 * said on stderr and -1. */
int try_log_dir_open(const char *dir);
/* A log file in it, emptied: no link followed, none of another owner
 * emptied (-1, errno EPERM), nothing but a regular file. */
int try_log_file_open(int dirfd, const char *name);
/* The metric in the workload's output fd (see try_files.c): 1 found (*ret),
 * 0 none, -EDOM not a finite number, -ETIME the pattern took too long,
 * -EINTR a signal came, other -errno. */
int try_metric(const regex_t *re, int fd, double *ret);
/* try_json.c: the metric as --metric-json PATH names it in the JSON
 * document of the output fd: 1 found (*ret), 0 none there, -EDOM not a
 * finite number, -EBADMSG no JSON document, -EFBIG too much output, other
 * -errno. */
int try_metric_json(const char *path, int fd, double *ret);
/* Whether PATH is one (dot-separated members, none empty). */
bool try_json_path_valid(const char *path);
/* The last TRY_TAIL_LINES lines of the workload's output fd into buf
 * (lines cut at 160 bytes, control characters as '?'); "" when empty. */
void try_output_tail(int fd, char *buf, size_t size);

/* try_metric.c: the value of re's first group in the last line of buf (n
 * bytes, and one more for the '\0' written there; NULs become spaces) it
 * matches where a number starts: 1 found (*ret), 0 none (*ret 0), -EDOM
 * not a finite number. */
int try_find_metric(const regex_t *re, char *buf, size_t n, double *ret);

/* The name of measure m (0 is "metric" or, without --metric, "wall_s"). */
const char *try_measure_name(const struct try_ctx *t, int m);
/* 0.05 over the number of policies: the p under which a difference is called */
double try_alpha(const struct try_ctx *t);
/* doc's "warnings": the ones said so far. */
void try_warnings_json(struct try_ctx *t, struct json_object *doc);
/* Before the first run: a warning when the rounds cannot reach the
 * threshold (t->alpha set). */
void try_check_rounds(struct try_ctx *t);
/* After each baseline run: a warning when the metric looks like the
 * duration of a fixed-length command, or has not varied. */
void try_check_baseline(struct try_ctx *t);
/* Medians, ranges, tests and the winner. */
void try_analyse(struct try_ctx *t);
/* The report, text or JSON. */
void try_report(struct try_ctx *t);
/* The order of round r (0-based): the conditions rotated by r. */
int try_order(const struct try_ctx *t, int round, int pos);

#endif
