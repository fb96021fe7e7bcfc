/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CLI is a thin shell over libnetpolicy: parse words, call the library,
 * print.  Everything it prints about a device comes from the library's JSON. */
#ifndef NP_CLI_H
#define NP_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>
#include <netpolicy/netpolicy.h>

/* Exit codes are an API: scripts and Ansible read them. */
enum {
	NP_EXIT_OK = 0,
	NP_EXIT_ERROR = 1,	/* nothing was changed */
	NP_EXIT_USAGE = 2,
	NP_EXIT_ROLLED_BACK = 3,
	NP_EXIT_ROLLBACK_FAILED = 4,
	NP_EXIT_DRIFT = 5,
	/* The device was changed (and kept so), but a record could not be
	 * updated or the output could not be written: never 1, which says
	 * nothing was changed.  The next command completes the records. */
	NP_EXIT_UNRECORDED = 6,
	NP_EXIT_BUSY = 7,	/* --wait expired: another netpolicy holds the device */
	NP_EXIT_PARTIAL = 8,	/* plan: some devices changed, others failed */
	NP_EXIT_STATE = 9,	/* an interrupted run's journal in a state directory that
				 * cannot be written: refused, nothing was changed */
	NP_EXIT_COMMAND = 10,	/* try: the workload failed (or timed out) under a
				 * condition; the device is back at its baseline */
};

/* The exit code (exit_code.c, the one place that decides them): of a
 * failed call (its error's phase), of an apply, reset or recovery (r, its
 * result and error), of `confirm`. */
int cli_exit_of_error(const struct np_error *err);
int cli_exit_of_apply(int r, const struct np_apply_result *res, const struct np_error *err);
int cli_exit_of_confirm(int r, const struct np_apply_result *res, const struct np_error *err);
/* try: a run of the workload that ended with status (its exit status,
 * 128+N for signal N, -1 when it timed out or gave no metric). */
int cli_exit_of_workload(int status);
/* plan over several devices: each device's exit code and whether it
 * changed, added as they run; the run's code from all of them. */
struct cli_run_tally {
	int rc;			/* the highest device code */
	bool failed;		/* a device left as it was or rolled back */
	bool incomplete;	/* a device's rollback did not finish */
	bool changed;		/* a device was changed (and kept so) */
};
void cli_tally_add(struct cli_run_tally *t, int rc, bool changed);
int cli_exit_of_run(const struct cli_run_tally *t);

/* The version of the JSON documents' contract (netpolicy-json(7)): raised
 * when a member changes meaning or type or goes away, not when one is added. */
#define NP_JSON_SCHEMA 1

struct cli {
	struct np_ctx *ctx;
	const char *device;	/* NULL for commands without one */
	int argc;		/* words after the command */
	char **argv;
	bool json, verbose, quiet, dry_run, force;
	bool strict;		/* NP_APPLY_STRICT */
	const char *cpus;
	const char *config;
	int confirm;		/* seconds, 0 = none */
	int wait;		/* --wait: seconds to wait for a device's lock, -1 = for ever */
	const char *state_dir;	/* as given, for the watchdog */
	const char *model;
	bool irqbalance_ban;	/* set, plan: ask irqbalance to leave the IRQs alone */
	/* set mixed: --flow (in order), --default, --weight (joined by ',') */
#define CLI_FLOWS_MAX 32
	const char *flows[CLI_FLOWS_MAX];
	size_t n_flows;
	const char *default_class;
	char weights[128];
	const char *root;	/* --root DIR (tests): sysfs, procfs, /etc, /run below DIR */
	/* plan: the per-device JSON documents set would print are appended to
	 * this array instead, to be printed as one document */
	struct json_object *json_out;
	/* try: its options, and the COMMAND after "--" */
	int try_rounds;
	double try_settle, try_timeout;
	const char *try_metric, *try_keep, *try_log;
	const char *try_metric_json;	/* --metric-json PATH */
	const char *output;	/* metrics --output FILE */
	bool try_lower;
	int cmd_argc;
	char **cmd_argv;
	bool changed;		/* a device was changed (for the exit status of output errors) */
	bool out_failed;	/* a document could not be built (memory ran out): not printed */
	bool signal_said;	/* the command said what a signal stopped (try's report) */
	/* watch --json: what made watch re-apply; each document is then one
	 * line (JSON Lines) with the time and this trigger */
	const char *trigger;
	int out_errno;		/* why writing the JSON document failed, 0: it did not */
};

/* signals.c: the first SIGINT, SIGTERM or SIGHUP received while applying
 * (0 = none); cli_catch_signals() makes the library stop and roll back at it. */
int cli_signal_received(void);
void cli_catch_signals(struct np_ctx *ctx);
/* Note the dispositions netpolicy was started with (before it changes any);
 * give them back, with an empty signal mask, before exec runs a command. */
void cli_save_signals(void);
/* heap.c: the heap a device command fills, mapped in one call */
void cli_heap_prefault(void);
/* netns_sysfs.c: as root in a network namespace whose /sys is another
 * namespace's (`unshare -n`), a mount namespace of its own with this
 * namespace's sysfs on /sys; else nothing. */
void cli_own_sysfs(void);
void cli_restore_signals(void);
bool cli_stdout_broken(int out_err);
/* hints.c: " (did you mean '--dry-run'?)" (dashes before the name), ""
 * when no name is close; the usage error for a device command given
 * before its device ("set throughput eth0"), naming the right order. */
const char *cli_did_you_mean(const char *word, const char *const *names, size_t n,
			     const char *dashes);
int cli_order_hint(const char *name, const char *args, char **words, int nwords);
/* wrap.c: text printed within 80 columns, long lines continued indented
 * by `indent` (0: under a "  label:" line's value) */
void cli_print_wrapped(FILE *out, const char *text, size_t indent);
/* the same, broken only at spaces (sentences, not lists) */
void cli_print_prose(FILE *out, const char *text, size_t indent);
void cli_end_by_sigpipe(void);

/* The library's error, result and record objects, freed when the variable
 * goes out of scope.  An error object that could not be made is NULL, which
 * every library call takes (the failure is then reported by its code). */
static inline void cli_error_freep(struct np_error **e)
{
	np_error_free(*e);
}

static inline void cli_result_freep(struct np_apply_result **r)
{
	np_apply_result_free(*r);
}

static inline void cli_active_freep(struct np_active **a)
{
	np_active_free(*a);
}

#define CLI_ERROR(name) \
	struct np_error *name __attribute__((cleanup(cli_error_freep))) = np_error_new()
#define CLI_RESULT(name) \
	struct np_apply_result *name __attribute__((cleanup(cli_result_freep))) = \
		np_apply_result_new()
#define CLI_ACTIVE(name) \
	struct np_active *name __attribute__((cleanup(cli_active_freep))) = NULL
/* For a result object that could not be made. */
int cli_out_of_memory(void);

/* Print "netpolicy: DEV: msg" for a library error; return the exit code. */
int cli_fail(const struct cli *c, const struct np_error *err);
/* Print a usage error and return NP_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a JSON document; one that could not be built or formatted is not
 * printed (c->out_failed, reported by main with the exit status). */
void cli_print_json(struct cli *c, struct json_object *obj);
/* The exit status r once stdout is flushed: a write error is exit 1 (6 when
 * the change was made), a closed pipe ends quietly (output.c). */
int cli_output_status(int r, bool changed, int out_err);
/* Building documents without json-c's assertions: o or v NULL (an
 * allocation that failed) or a failed add mark c->out_failed; v is
 * consumed either way.  cli_jnull adds an intended null. */
void cli_jadd(struct cli *c, struct json_object *o, const char *key, struct json_object *v);
void cli_jnull(struct cli *c, struct json_object *o, const char *key);
void cli_jpush(struct cli *c, struct json_object *arr, struct json_object *v);

int cmd_show(struct cli *c);
int cmd_status(struct cli *c);
/* show's text of a mixed device's classes (render_mixed.c); nothing for others */
void render_mixed(FILE *out, struct json_object *dev);
/* show's text of the CPUs' wake-up latency limits (render_pm.c); nothing
 * when the state has none */
void render_pm_qos(FILE *out, struct json_object *pm);
/* show's NAPI per class of a mixed device into dev's "mixed" (show_napi.c) */
void cli_mixed_napi(struct cli *c, struct json_object *dev);
int cmd_set(struct cli *c);
int cmd_reset(struct cli *c);
int cmd_policies(struct cli *c);
int cmd_watch(struct cli *c);
int cmd_exec(struct cli *c);
int cmd_plan(struct cli *c);
int cmd_try(struct cli *c);
/* plan with no configuration file: the default policy, dry run only */
#define NP_DEFAULT_POLICY "throughput"
int cli_plan_default(struct cli *c, const char *only, const char *config_path);
/* The file `plan` reads: --config, else NP_CONFIG_PATH (below --root). */
const char *cli_config_path(const struct cli *c, char *buf, size_t len);
int cmd_check(struct cli *c);
/* check's plan of c->device for policy name (cmd_set.c); metrics uses it */
int cli_check_plan(struct cli *c, const struct np_active *active, const char *name,
		   bool record_cpus, struct np_plan **ret, struct np_error *err);
int cmd_metrics(struct cli *c);
int cmd_confirm(struct cli *c);
int cmd_revert(struct cli *c);
/* show, check, dry runs: say what a later change would do first (an
 * interrupted run to roll back, a --confirm pending or expired, a try in
 * progress); reads only.  True while a try is in progress. */
bool cli_note_pending(struct cli *c, struct json_object *obj);
int cli_spawn_watchdog(struct cli *c, unsigned long long token, long long deadline);
/* The pending --confirm's token (0: none), read without the lock. */
unsigned long long cli_pending_token(struct cli *c);
/* A command ended pending --confirm `token` (confirmed it, reset the device,
 * replaced it): its watchdog has nothing left to guard and is stopped, so
 * a state directory emptied later cannot make it revert a change that is
 * no longer pending. */
void cli_watchdog_end(unsigned long long token);

/* Plan POLICY for c->device and apply it (or print it with --dry-run), as set
 * does; returns the exit code. */
int cli_set_device(struct cli *c, const struct np_policy *policy, const struct np_plan_opts *opts);
/* The mixed options of the command line into opts (NP_PLAN_OPTS_MIXED). */
void cli_mixed_opts(const struct cli *c, struct np_plan_opts *opts);
/* The mixed options a device was set with (its record) into opts, to plan
 * it again the same way; flows must have room for CLI_FLOWS_MAX. */
void cli_active_mixed_opts(const struct np_active *a, struct np_plan_opts *opts,
			   const char **flows);
/* Print a JSON document, or append it to c->json_out. */
void cli_emit_json(struct cli *c, struct json_object *obj);
/* Apply a plan and report (text or JSON); returns the exit code. */
int cli_apply(struct cli *c, const struct np_policy *policy, const struct np_plan_opts *opts);
/* For plan --json: a device that failed before it had a plan still gets a
 * document saying why.  Returns rc. */
int cli_device_failed(struct cli *c, const struct np_policy *policy, int rc, const char *why);
/* A plan that was not applied: mark it so and print it. */
int cli_print_dry_run(struct cli *c, struct json_object *plan_json);
int cli_apply_report(struct cli *c, struct json_object *plan_json, int r,
		     const struct np_apply_result *res, const struct np_error *err);

/* irqbalance (netpolicy/irqbalance.c) */
struct cli_irqbalance {
	long pid;		/* 0: not running */
	char socket[4096];	/* its control socket, "" if none */
	int irqs[256];		/* the device's queue IRQs */
	size_t n_irqs;
	bool all_banned;	/* irqbalance already leaves them all alone */
};
/* 1 and *ib filled if irqbalance runs (below --root for tests), else 0. */
int cli_irqbalance_find(const struct cli *c, struct cli_irqbalance *ib);
/* find looks once per command; this makes the next call look again */
void cli_irqbalance_forget(void);
/* find, plus the device's queue IRQs and whether irqbalance has banned them */
int cli_irqbalance_status(struct cli *c, struct cli_irqbalance *ib);
/* On stderr: irqbalance will undo (drift: has likely undone) the IRQ
 * placement of c->device, and what to do about it. */
void cli_irqbalance_note(struct cli *c, bool drift);
/* Add c->device's queue IRQs to irqbalance's banned list: 1 done, 0 nothing
 * to do, -errno (said on stderr) when it could not be asked. */
int cli_irqbalance_ban(struct cli *c);

/* owners.c: who else sets the device's knobs (irqbalance, NetworkManager,
 * a systemd .link file, tuned), for notes, metrics and watch's back-off */
#define CLI_OWNERS_MAX 8
#define CLI_OWNER_KNOBS 64
struct cli_owner {
	char name[32];		/* "irqbalance", "NetworkManager", "systemd.link", "tuned" */
	char source[400];	/* what tells: "pid N", the file */
	char knobs[CLI_OWNER_KNOBS];	/* what it sets: "channels, rings, coalesce, ..." */
};
struct cli_owners {
	struct cli_owner list[CLI_OWNERS_MAX];
	size_t n;
};
/* The first call reads what tells (services, their files) and keeps it
 * for the command's other devices; watch forgets it for a fresh look. */
void cli_owners_find(const struct cli *c, const char *ifname, struct cli_owners *ret);
void cli_owners_forget(void);
/* The pid of service `name` (its comm) from pidfile (NULL: none), else its
 * systemd unit's cgroup, checked against /proc/PID/comm; 0 when not running. */
long cli_service_pid(const struct cli *c, const char *name, const char *pidfile);
/* /proc/PID/comm (below --root) is name */
bool cli_pid_is(const struct cli *c, long pid, const char *name);
/* path below --root (tests' fake /proc, /etc and /run), else path itself
 * (services.c) */
void cli_below_root(const struct cli *c, char *buf, size_t len, const char *path);
/* On stderr, for set, dry runs and check (drift): who else sets knobs of
 * c->device, irqbalance aside (cli_irqbalance_note). */
void cli_owners_note(struct cli *c, bool drift);
/* Who may keep changing `what` ("channels", "irq ...") of the device:
 * "irqbalance (pid N), systemd.link (/etc/systemd/network/x.link)", "" when
 * nothing can be told. */
void cli_fight_who(const struct cli *c, const char *ifname, const char *what, char *buf,
		   size_t len);

void render_state(FILE *out, struct json_object *state);
/* verb: "would change" (dry run), "changed" (applied), "differs in" (check) */
/* all: every change on its own line (-v), else runs of queues collapsed */
void render_plan(FILE *out, struct json_object *plan, const char *verb, bool all);

#endif
