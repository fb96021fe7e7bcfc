/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * try's statistics and report.  Each condition is compared with the
 * baseline, measure by measure, by the Mann-Whitney U test of their runs
 * (try_stats.c); a difference is called only when p is below 0.05 divided
 * by the number of policies compared (Bonferroni: with four policies, one
 * of them "winning" by chance is as unlikely as with one).  The winner is
 * the policy with the best median metric among those significantly better
 * than the baseline.
 */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "try_run.h"

#define TRY_ALPHA 0.05
/* a wall time at most this share, plus TRY_FIXED_START_S (starting the
 * command, and seeing it end), above a whole number of seconds looks like
 * a command that runs for a fixed time */
#define TRY_FIXED_SHARE 0.02
#define TRY_FIXED_START_S 0.1

double try_alpha(const struct try_ctx *t)
{
	return TRY_ALPHA / (t->n_cond > 1 ? t->n_cond - 1 : 1);
}

/* A warning: on stderr now (not with -q), or in the JSON document. */
static void warn(struct try_ctx *t, const char *fmt, ...)
{
	va_list ap;
	char *w;

	if (t->n_warn == TRY_MAX_WARN)
		return;
	w = t->warn[t->n_warn++];
	va_start(ap, fmt);
	vsnprintf(w, sizeof(t->warn[0]), fmt, ap);
	va_end(ap);
	if (!t->c->quiet && !t->c->json)
		fprintf(stderr, "netpolicy: %s: try: warning: %s\n", t->c->device, w);
}

void try_warnings_json(struct try_ctx *t, struct json_object *doc)
{
	struct json_object *warns = json_object_new_array();

	for (int i = 0; i < t->n_warn; i++)
		cli_jpush(t->c, warns, json_object_new_string(t->warn[i]));
	cli_jadd(t->c, doc, "warnings", warns);
}

void try_check_rounds(struct try_ctx *t)
{
	int rounds = t->c->try_rounds, least;
	double p = try_least_p((size_t)rounds);

	if (t->n_cond < 2 || p < t->alpha)
		return;
	least = try_least_rounds(t->alpha);
	warn(t, "with %d round%s no difference can be called: the rank test's smallest p is "
	     "%.3g, not below %.3g (0.05 over %d %s); %d rounds can", rounds,
	     rounds > 1 ? "s" : "", p, t->alpha, t->n_cond - 1,
	     t->n_cond > 2 ? "policies" : "policy", least);
}

void try_check_baseline(struct try_ctx *t)
{
	const struct try_cond *b = &t->cond[0];
	const struct try_run *r = &b->runs[b->n_runs - 1];
	double x = r->v[0], w = r->v[1 + NP_TRY_WALL], whole = floor(w);
	bool same = b->n_runs > 1;

	/* the duration of a command that runs for a fixed time: a whole
	 * number of seconds and a little (iperf3 -t 10: 10.01 s) */
	if (!t->warned_fixed && whole >= 1 && w - whole <= TRY_FIXED_SHARE * whole +
	    TRY_FIXED_START_S && fabs(x - w) <= TRY_FIXED_SHARE * w + TRY_FIXED_START_S) {
		t->warned_fixed = true;
		warn(t, "the metric, %.4g, is the run's wall time, %.4g s: a command that runs "
		     "for a fixed time (iperf3 -t, netperf -l, sleep) takes as long under every "
		     "policy; measure what it prints (--metric, --metric-json)", x, w);
	}
	for (int i = 0; i < b->n_runs - 1; i++)
		same = same && b->runs[i].v[0] == x;
	if (same && !t->warned_same) {
		t->warned_same = true;
		warn(t, "the metric was %.6g in each of the %d baseline runs: a measure varies "
		     "from run to run; is it a setting or the duration the command prints?",
		     x, b->n_runs);
	}
}

const char *try_measure_name(const struct try_ctx *t, int m)
{
	if (m == 0)
		return t->c->try_metric || t->c->try_metric_json ? "metric" : "wall_s";
	return np_try_measure_name((enum np_try_measure)(m - 1));
}

static void summarise(struct try_cond *cd, const struct try_cond *base, int m, double alpha)
{
	double v[TRY_STATS_MAX], b[TRY_STATS_MAX], lo = INFINITY, hi = -INFINITY;

	for (int i = 0; i < cd->n_runs; i++) {
		v[i] = cd->runs[i].v[m];
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	for (int i = 0; i < base->n_runs; i++)
		b[i] = base->runs[i].v[m];
	cd->median[m] = try_median(v, (size_t)cd->n_runs);
	cd->min[m] = lo;
	cd->max[m] = hi;
	cd->p[m] = NAN;
	cd->ratio[m] = NAN;
	cd->verdict[m] = 0;
	if (cd == base || !cd->n_runs || !base->n_runs)
		return;
	if (base->median[m] != 0 && !isnan(base->median[m]))
		cd->ratio[m] = cd->median[m] / base->median[m];
	cd->p[m] = try_mann_whitney(v, (size_t)cd->n_runs, b, (size_t)base->n_runs, NULL);
	if (cd->p[m] < alpha && cd->median[m] != base->median[m])
		cd->verdict[m] = cd->median[m] > base->median[m] ? 1 : -1;
}

void try_analyse(struct try_ctx *t)
{
	const struct try_cond *base = &t->cond[0];
	double best = NAN;

	t->alpha = try_alpha(t);
	for (int i = 0; i < t->n_cond; i++)
		for (int m = 0; m < TRY_N_MEASURES; m++)
			summarise(&t->cond[i], base, m, t->alpha);
	t->winner = -1;
	for (int i = 1; i < t->n_cond; i++) {
		const struct try_cond *cd = &t->cond[i];
		int better = t->lower_better ? -1 : 1;

		if (cd->verdict[0] != better)
			continue;
		if (isnan(best) || (t->lower_better ? cd->median[0] < best : cd->median[0] > best)) {
			best = cd->median[0];
			t->winner = i;
		}
	}
}

/* "better" or "worse" for the metric, "higher" or "lower" for the others;
 * no verdict at all without a completed run on both sides */
static const char *verdict_word(const struct try_ctx *t, const struct try_cond *cd, int m)
{
	int v = cd->verdict[m];

	if (!cd->n_runs || !t->cond[0].n_runs)
		return "not measured";
	if (!v)
		return "no measurable difference";
	if (m == 0)
		return (v < 0) == t->lower_better ? "better" : "worse";
	return v > 0 ? "higher" : "lower";
}

/* The table's shorter word for "no measurable difference". */
static const char *text_verdict(const struct try_ctx *t, const struct try_cond *cd, int m)
{
	const char *w = verdict_word(t, cd, m);

	return strcmp(w, "no measurable difference") ? w : "no difference";
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "signal";
}

static struct json_object *jnum(double v)
{
	return isnan(v) || isinf(v) ? NULL : json_object_new_double(v);
}

static void jadd_num(struct cli *c, struct json_object *o, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		cli_jnull(c, o, key);
	else
		cli_jadd(c, o, key, jnum(v));
}

static struct json_object *run_json(struct try_ctx *t, const struct try_run *r, bool failed)
{
	struct cli *c = t->c;
	struct json_object *ro = json_object_new_object(), *tail;
	const char *p = t->tail;

	cli_jadd(c, ro, "round", json_object_new_int(r->round));
	cli_jadd(c, ro, "position", json_object_new_int(r->position));
	cli_jadd(c, ro, "completed", json_object_new_boolean(!failed));
	cli_jadd(c, ro, "exit", json_object_new_int(r->status));
	if (r->signal)
		cli_jadd(c, ro, "signal", json_object_new_int(r->signal));
	else
		cli_jnull(c, ro, "signal");
	cli_jadd(c, ro, "timed_out", json_object_new_boolean(r->timed_out));
	for (int m = 0; m < TRY_N_MEASURES; m++)
		jadd_num(c, ro, try_measure_name(t, m), failed && !m && strcmp(try_measure_name(t, 0), "wall_s") ? NAN : r->v[m]);
	if (!failed)
		return ro;
	tail = json_object_new_array();
	while (*p) {
		size_t l = strcspn(p, "\n");

		cli_jpush(c, tail, json_object_new_string_len(p, (int)l));
		p += l + (p[l] == '\n');
	}
	cli_jadd(c, ro, "output_tail", tail);
	return ro;
}

static struct json_object *cond_json(struct try_ctx *t, const struct try_cond *cd)
{
	struct cli *c = t->c;
	struct json_object *o = json_object_new_object(), *runs = json_object_new_array();
	struct json_object *sum = json_object_new_object();

	cli_jadd(c, o, "name", json_object_new_string(cd->name));
	for (int i = 0; i < cd->n_runs; i++)
		cli_jpush(c, runs, run_json(t, &cd->runs[i], false));
	/* the run that stopped the try, after the completed ones */
	if (t->failed == (int)(cd - t->cond))
		cli_jpush(c, runs, run_json(t, &cd->runs[cd->n_runs], true));
	cli_jadd(c, o, "runs", runs);
	for (int m = 0; m < TRY_N_MEASURES; m++) {
		struct json_object *s = json_object_new_object();

		jadd_num(c, s, "median", cd->median[m]);
		jadd_num(c, s, "min", cd->min[m]);
		jadd_num(c, s, "max", cd->max[m]);
		jadd_num(c, s, "ratio", cd->ratio[m]);
		jadd_num(c, s, "p", cd->p[m]);
		if (cd == &t->cond[0])
			cli_jnull(c, s, "verdict");
		else
			cli_jadd(c, s, "verdict",
				 json_object_new_string(verdict_word(t, cd, m)));
		cli_jadd(c, sum, try_measure_name(t, m), s);
	}
	cli_jadd(c, o, "summary", sum);
	return o;
}

static void report_json(struct try_ctx *t)
{
	struct cli *c = t->c;
	struct json_object *doc = json_object_new_object(), *conds = json_object_new_array();
	struct json_object *metric = json_object_new_object(), *cmd = json_object_new_array();

	cli_jadd(c, doc, "schema", json_object_new_int(NP_JSON_SCHEMA));
	cli_jadd(c, doc, "device", json_object_new_string(c->device));
	cli_jadd(c, doc, "changed", json_object_new_boolean(c->changed));
	for (int i = 0; i < c->cmd_argc; i++)
		cli_jpush(c, cmd, json_object_new_string(c->cmd_argv[i]));
	cli_jadd(c, doc, "command", cmd);
	cli_jadd(c, doc, "rounds", json_object_new_int(c->try_rounds));
	cli_jadd(c, doc, "completed", json_object_new_boolean(t->completed));
	if (t->stop_signal)
		cli_jadd(c, doc, "stopped_by", json_object_new_string(signal_name(t->stop_signal)));
	else
		cli_jnull(c, doc, "stopped_by");
	cli_jadd(c, doc, "restored", json_object_new_boolean(t->restored));
	cli_jadd(c, doc, "settle_s", json_object_new_double(c->try_settle));
	cli_jadd(c, doc, "timeout_s", json_object_new_double(c->try_timeout));
	if (c->try_metric)
		cli_jadd(c, metric, "pattern", json_object_new_string(c->try_metric));
	else
		cli_jnull(c, metric, "pattern");
	if (c->try_metric_json)
		cli_jadd(c, metric, "json_path", json_object_new_string(c->try_metric_json));
	else
		cli_jnull(c, metric, "json_path");
	cli_jadd(c, metric, "name", json_object_new_string(try_measure_name(t, 0)));
	cli_jadd(c, metric, "lower_is_better", json_object_new_boolean(t->lower_better));
	cli_jadd(c, doc, "metric", metric);
	cli_jadd(c, doc, "alpha", json_object_new_double(t->alpha));
	try_warnings_json(t, doc);
	for (int i = 0; i < t->n_cond; i++)
		cli_jpush(c, conds, cond_json(t, &t->cond[i]));
	cli_jadd(c, doc, "conditions", conds);
	if (t->winner > 0)
		cli_jadd(c, doc, "winner", json_object_new_string(t->cond[t->winner].name));
	else
		cli_jnull(c, doc, "winner");
	if (t->kept)
		cli_jadd(c, doc, "kept", json_object_new_string(t->cond[t->winner].name));
	else
		cli_jnull(c, doc, "kept");
	cli_print_json(c, doc);
	json_object_put(doc);
}

void try_report(struct try_ctx *t)
{
	struct cli *c = t->c;
	const struct try_cond *base = &t->cond[0];

	if (c->json) {
		report_json(t);
		return;
	}
	if (c->quiet)
		return;
	/* Two lines, so the header fits 80 columns whatever the device's name;
	 * the metric is named as given, a JSON path by its path. */
	printf("try %s: %s is better; a difference is called at p < %.3g\n", c->device,
	       t->lower_better ? "lower" : "higher", t->alpha);
	if (c->try_metric_json)
		printf("metric: %s in the command's JSON output\n", c->try_metric_json);
	else if (c->try_metric)
		printf("metric: --metric's match in the command's output\n");
	else
		printf("metric: the command's wall time (s)\n");
	/* 80 columns with a condition name of up to 10 characters
	 * ("throughput"): the text says "no difference" where JSON says "no
	 * measurable difference", the header line above saying what is
	 * measurable. */
	printf("%-10s %4s %10s %20s %6s  %s\n", "condition", "runs", "median", "min-max", "ratio",
	       "verdict");
	for (int i = 0; i < t->n_cond; i++) {
		const struct try_cond *cd = &t->cond[i];
		char range[64];

		if (!cd->n_runs) {
			if (i)
				printf("%-10s %4d %10s %20s %6s  %s\n", cd->name, 0, "-", "-", "-",
				       text_verdict(t, cd, 0));
			else
				printf("%-10s %4d %10s %20s\n", cd->name, 0, "-", "-");
			continue;
		}
		snprintf(range, sizeof(range), "%.4g-%.4g", cd->min[0], cd->max[0]);
		printf("%-10s %4d %10.4g %20s", cd->name, cd->n_runs, cd->median[0], range);
		if (i == 0)
			printf("\n");
		else if (!base->n_runs)
			printf(" %6s  %s\n", "-", text_verdict(t, cd, 0));
		else
			printf(" %6.3f  %s (p=%.2g)\n", cd->ratio[0],
			       text_verdict(t, cd, 0), cd->p[0]);
	}
	for (int i = 1; i < t->n_cond; i++) {
		const struct try_cond *cd = &t->cond[i];

		for (int m = 1; m < TRY_N_MEASURES; m++)
			if (cd->verdict[m])
				printf("  %s: %s %.4g against %.4g (x%.3f), %s (p=%.2g)\n", cd->name,
				       try_measure_name(t, m), cd->median[m], base->median[m],
				       cd->ratio[m], verdict_word(t, cd, m), cd->p[m]);
	}
	if (!t->completed && t->stop_signal)
		printf("stopped by %s: no policy is kept%s\n", signal_name(t->stop_signal),
		       t->restored ? "; the device is back at the baseline (verified)" : "");
	else if (!t->completed)
		printf("stopped before the last run: no policy is kept%s\n",
		       t->restored ? "; the device is back at the baseline (verified)" : "");
	else if (t->winner > 0)
		printf("best: %s%s\n", t->cond[t->winner].name,
		       t->kept ? " (kept: applied as 'set' would)" :
		       " (the device is back at its baseline; --keep best applies it)");
	else
		printf("no policy beat the baseline measurably; the device is back at its "
		       "baseline\n");
}
