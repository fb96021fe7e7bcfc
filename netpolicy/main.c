/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* netpolicy: command table, option parsing, exit codes. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "try_stats.h"
/* --root and the step hook are for tests, not API: only the test build
 * (tests/netpolicy-test, -DNP_TEST_HOOKS) has them */
#include "np_test_hooks.h"

#define CLI_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The interface in one place: these two tables make the option parser and
 * --help, and tests/cli/interface.bats checks netpolicy(8)'s SYNOPSIS and
 * OPTIONS and the bash completion against --help, and the parser against
 * the tables (an option a command does not list is refused).
 */
struct command {
	const char *name;
	bool device;		/* takes a DEVICE before the command word */
	int (*run)(struct cli *c);
	const char *args;	/* after the command word, for --help */
	const char *summary;
	bool internal;		/* the --confirm watchdog: started by netpolicy only */
	bool applies;		/* changes devices: a signal rolls the run back */
};

static const struct command commands[] = {
	{ "show", true, cmd_show, "", "current state of DEVICE (all devices when none is named)", false, false },
	{ "status", false, cmd_status, "", "one line per device: policy, drift, pending", false, false },
	{ "set", true, cmd_set, "POLICY", "plan POLICY for DEVICE and apply it atomically", false, true },
	{ "reset", true, cmd_reset, "", "return DEVICE to its state before netpolicy changed it", false, true },
	{ "check", true, cmd_check, "[POLICY]", "exit 0 if DEVICE matches its policy, 5 and the diff if not", false, false },
	{ "confirm", true, cmd_confirm, "", "keep a tentative 'set --confirm' apply", false, false },
	{ "__revert", true, cmd_revert, "TOKEN SECS", "the --confirm watchdog", true, false },
	{ "plan", false, cmd_plan, "[DEVICE]", "bring every configured device to its policy", false, true },
	{ "exec", true, cmd_exec, "CLASS -- CMD [ARG...]", "run CMD on the CPUs of CLASS of DEVICE (mixed policy)", false, false },
	{ "policies", false, cmd_policies, "", "each policy, what it sets and why", false, false },
	{ "try", true, cmd_try, "[POLICY...] -- COMMAND [ARG...]", "run COMMAND under each policy in rounds; say which helps", false, true },
	{ "metrics", true, cmd_metrics, "", "policy state as Prometheus text (all devices when none is named)", false, false },
	{ "watch", false, cmd_watch, "[DEVICE...]", "apply a policy again when its device loses it", false, true },
};

enum {
	OPT_STATE_DIR = 256, OPT_MODEL, OPT_ROOT, OPT_VERSION, OPT_CPUS, OPT_CONFIRM, OPT_CONFIG,
	OPT_POLICY_DIR, OPT_WAIT, OPT_STRICT, OPT_IRQBALANCE_BAN, OPT_FLOW, OPT_DEFAULT, OPT_WEIGHT,
	OPT_ROUNDS, OPT_SETTLE, OPT_TIMEOUT, OPT_METRIC, OPT_METRIC_JSON, OPT_LOWER, OPT_KEEP, OPT_LOG, OPT_OUTPUT,
};

struct cli_option {
	const char *name;
	int key;		/* short option letter, or OPT_* */
	const char *arg;	/* the argument's name, NULL for none */
	const char *commands;	/* NULL: every command; else the commands it applies to */
	const char *help;
};

static const struct cli_option options[] = {
	{ "json", 'j', NULL, NULL, "one JSON document on stdout (netpolicy-json(7))" },
	{ "verbose", 'v', NULL, NULL, "say what is being done, on stderr" },
	{ "quiet", 'q', NULL, NULL, "print nothing but errors" },
	{ "state-dir", OPT_STATE_DIR, "DIR", NULL, "locks, journals and snapshots (default /run/netpolicy)" },
	{ "model", OPT_MODEL, "FILE", NULL, "use a simulated machine described in FILE" },
#ifdef NP_TEST_HOOKS
	/* an installed system tool must not read its kernel interfaces (and
	 * /etc, /run) below a directory its caller names */
	{ "root", OPT_ROOT, "DIR", NULL, "read sysfs and procfs below DIR (test fixtures)" },
#endif
	{ "policy-dir", OPT_POLICY_DIR, "DIR", NULL, "custom policies (default " NP_POLICY_DIR ")" },
	{ "wait", OPT_WAIT, "SECS", NULL, "wait at most SECS for a device another netpolicy holds (exit 7)" },
	{ "dry-run", 'n', NULL, "set reset plan try", "print the plan, change nothing" },
	{ "cpus", OPT_CPUS, "LIST", "set check", "CPUs the policy may use (default: online, not isolated)" },
	{ "confirm", OPT_CONFIRM, "SECS", "set", "roll back after SECS unless 'DEVICE confirm' comes first" },
	{ "flow", OPT_FLOW, "CLASS:SPEC", "set",
	  "mixed: steer the flows SPEC names to CLASS (repeat it; netpolicy-flows(7))" },
	{ "default", OPT_DEFAULT, "CLASS", "set", "mixed: the class of unclassified traffic (throughput)" },
	{ "weight", OPT_WEIGHT, "CLASS=N,...", "set",
	  "mixed: the classes' shares of queues and cores (latency=1,throughput=2,cpu=1)" },
	{ "strict", OPT_STRICT, NULL, "set plan", "all or nothing: a knob the driver refuses fails the apply" },
	{ "config", OPT_CONFIG, "FILE", "plan metrics",
	  "the devices and their policies (default " NP_CONFIG_PATH ")" },
	{ "irqbalance-ban", OPT_IRQBALANCE_BAN, NULL, "set plan",
	  "ask a running irqbalance to leave the device's queue IRQs alone" },
	{ "rounds", OPT_ROUNDS, "N", "try", "runs of COMMAND under each condition (default 5)" },
	{ "settle", OPT_SETTLE, "SECS", "try", "wait SECS after each change before COMMAND (default 1)" },
	{ "timeout", OPT_TIMEOUT, "SECS", "try", "stop a run of COMMAND after SECS, 0 never (default 600)" },
	{ "metric", OPT_METRIC, "REGEX", "try",
	  "the measure: REGEX's group in COMMAND's output (default: wall time)" },
	{ "metric-json", OPT_METRIC_JSON, "PATH", "try",
	  "the measure: the number at PATH in COMMAND's JSON output" },
	{ "lower-is-better", OPT_LOWER, NULL, "try", "a lower metric is better (latency)" },
	{ "keep", OPT_KEEP, "best|none", "try", "best: apply the significant winner as set does" },
	{ "log", OPT_LOG, "DIR", "try", "keep each run's output in DIR/ROUND-CONDITION.log" },
	{ "output", OPT_OUTPUT, "FILE", "metrics",
	  "write FILE (replaced at once: a textfile collector's .prom) instead of stdout" },
	{ "help", 'h', NULL, NULL, "this text" },
	{ "version", OPT_VERSION, NULL, NULL, "print the version" },
};

/* Does `list` (space-separated words) contain `word`? */
static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* --help, or `help COMMAND`: that command's lines only (only, not NULL);
 * within 80 columns, descriptions continued under themselves. */
static void usage_lines(FILE *out, const struct command *only)
{
	fprintf(out,
		"Usage: netpolicy [OPTIONS] DEVICE COMMAND [ARGS]\n"
		"       netpolicy [OPTIONS] COMMAND [ARGS]\n\n"
		"Commands:\n");
	for (size_t i = 0; i < CLI_ARRAY_SIZE(commands); i++) {
		const struct command *cmd = &commands[i];
		char words[64];

		if (cmd->internal || (only && cmd != only))
			continue;
		snprintf(words, sizeof(words), "%s%s%s%s", cmd->device ? "DEVICE " : "", cmd->name,
			 cmd->args[0] ? " " : "", cmd->args);
		if (strlen(words) > 22)
			fprintf(out, "  %s\n  %-22s %s\n", words, "", cmd->summary);
		else
			fprintf(out, "  %-22s %s\n", words, cmd->summary);
		for (size_t k = 0; k < CLI_ARRAY_SIZE(options); k++)
			if (options[k].commands && in_list(options[k].commands, cmd->name))
				fprintf(out, "  %-22s   --%s%s%s\n", "", options[k].name,
					options[k].arg ? " " : "", options[k].arg ? options[k].arg : "");
	}
	if (only) {
		fprintf(out, "\nSee 'netpolicy --help' for the options of every command.\n");
		return;
	}
	fputs("\nOptions:\n", out);
	for (size_t k = 0; k < CLI_ARRAY_SIZE(options); k++) {
		const struct cli_option *o = &options[k];
		char words[40], cmds[40] = "";

		snprintf(words, sizeof(words), "%c%c%c --%s%s%s", o->key < 256 ? '-' : ' ',
			 o->key < 256 ? o->key : ' ', o->key < 256 ? ',' : ' ', o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		if (o->commands)
			snprintf(cmds, sizeof(cmds), "(%s) ", o->commands);
		fprintf(out, "  %-22s %s%s\n", words, cmds, o->help);
	}
	fputs("\nExit status: 0 done, 1 error (nothing changed), 2 usage, 3 apply failed (or\n"
	      "was interrupted by a signal) and rolled back, 4 rollback incomplete, 5 drift\n"
	      "found by check, 6 changed but a record or the output could not be written,\n"
	      "7 device busy (--wait expired), 8 plan changed some devices and failed on\n"
	      "others, 9 an interrupted run's journal in a state directory that cannot be\n"
	      "written (nothing changed), 10 try's COMMAND failed (the device is back at its\n"
	      "baseline).  See netpolicy(8).\n", out);
}

static void usage(FILE *out, const struct command *only)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (mem) {
		usage_lines(mem, only);
		if (fclose(mem) == 0 && text) {
			cli_print_wrapped(out, text, 25);
			free(text);
			return;
		}
		free(text);
	}
	usage_lines(out, only);
}

static void log_to_stderr(void *userdata, enum np_log_level level, const char *msg)
{
	const struct cli *c = userdata;

	if (level <= NP_LOG_WARNING || (level == NP_LOG_NOTICE && !c->quiet) || c->verbose)
		fprintf(stderr, "netpolicy: %s\n", msg);
}

/* After each step written: say it with --verbose.  The test build
 * (tests/netpolicy-test, -DNP_TEST_HOOKS) also honours
 * NETPOLICY_TEST_STOP_AFTER_STEP=K: it stops itself (SIGSTOP) after step K so
 * tests can kill it mid-apply or race it.  The installed binary has no such
 * hook: an environment variable must not be able to freeze a system tool. */
static void on_step(void *userdata, unsigned step, const char *knob, const char *what)
{
	const struct cli *c = userdata;

	if (c->verbose)
		fprintf(stderr, "netpolicy: %s: step %u: %s %s\n", c->device, step, knob, what);
#ifdef NP_TEST_HOOKS
	{
		const char *k = getenv("NETPOLICY_TEST_STOP_AFTER_STEP");

		if (k && (unsigned)atoi(k) == step) {
			fprintf(stderr, "netpolicy: test hook: stopped after step %u (%s %s)\n",
				step, knob, what);
			raise(SIGSTOP);
		}
	}
#endif
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < CLI_ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* " (did you mean 'set'?)" for a mistyped command word, "" when none is close. */
static const char *command_hint(const char *word)
{
	const char *names[CLI_ARRAY_SIZE(commands) + 1];
	size_t n = 0;

	for (size_t i = 0; i < CLI_ARRAY_SIZE(commands); i++)
		if (!commands[i].internal)
			names[n++] = commands[i].name;
	names[n++] = "help";
	return cli_did_you_mean(word, names, n, "");
}

/* The same for a mistyped long option ("--dryrun"). */
static const char *option_hint(const char *word)
{
	const char *names[CLI_ARRAY_SIZE(options)];

	for (size_t k = 0; k < CLI_ARRAY_SIZE(options); k++)
		names[k] = options[k].name;
	return strncmp(word, "--", 2) ? "" :
		cli_did_you_mean(word + 2, names, CLI_ARRAY_SIZE(options), "--");
}

static const struct cli_option *find_option(int key)
{
	for (size_t k = 0; k < CLI_ARRAY_SIZE(options); k++)
		if (options[k].key == key)
			return &options[k];
	return NULL;
}

/* The option as the user wrote it, for messages: "--bogus", "-x". */
static const char *bad_option_word(char **argv, int optopt_)
{
	static char word[4];
	const char *w = argv[optind - 1];

	if (w && w[0] == '-' && w[1] == '-') {
		static char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(w, "="), w);
		return name;
	}
	snprintf(word, sizeof(word), "-%c", optopt_ ? optopt_ : '?');
	return word;
}

/* A number of seconds within [lo, hi], or -1. */
static int parse_seconds(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi)
		return -1;
	return (int)v;
}

/* What the options say besides struct cli: where things are, which
 * options were given, and how many words follow "--". */
struct args {
	const char *state_dir, *model, *root, *policy_dir;
	bool given[CLI_ARRAY_SIZE(options)];
	int n_after;		/* words after "--" (try's COMMAND), -1: no "--" */
};

/* The options that take a count: their range and what they count. */
static int number_option(struct cli *c, int opt)
{
	static const struct {
		int key;
		size_t at;
		long lo, hi;
		const char *name, *unit;
		bool dbl;	/* a double in struct cli, else an int */
	} nums[] = {
		{ OPT_CONFIRM, offsetof(struct cli, confirm), 1, 86400, "confirm", "seconds", false },
		{ OPT_WAIT, offsetof(struct cli, wait), 0, 86400, "wait", "seconds", false },
		{ OPT_ROUNDS, offsetof(struct cli, try_rounds), 1, TRY_STATS_MAX, "rounds", "rounds",
		  false },
		{ OPT_SETTLE, offsetof(struct cli, try_settle), 0, 3600, "settle", "seconds", true },
		{ OPT_TIMEOUT, offsetof(struct cli, try_timeout), 0, 86400, "timeout", "seconds",
		  true },
	};

	for (size_t i = 0; i < CLI_ARRAY_SIZE(nums); i++) {
		char *field = (char *)c + nums[i].at;
		int v;

		if (nums[i].key != opt)
			continue;
		v = parse_seconds(optarg, nums[i].lo, nums[i].hi);
		if (nums[i].dbl)
			*(double *)field = v;
		else
			*(int *)field = v;
		if (v < 0)
			return cli_usage_error("--%s: '%s' is not a number of %s (%ld-%ld)",
					       nums[i].name, optarg, nums[i].unit, nums[i].lo,
					       nums[i].hi);
		return 0;
	}
	return -1;
}

/* One option: -1 to go on, else the exit code to stop with. */
static int parse_option(struct cli *c, struct args *a, int opt)
{
	switch (opt) {
	case 'j': c->json = true; break;
	case 'v': c->verbose = true; break;
	case 'q': c->quiet = true; break;
	case 'h':
		/* longer than stdio's buffer: the failed write's errno is
		 * gone by the final flush */
		errno = 0;
		usage(stdout, NULL);
		return cli_output_status(NP_EXIT_OK, false, ferror(stdout) ? errno : 0);
	case OPT_STATE_DIR: a->state_dir = optarg; break;
	case OPT_MODEL: a->model = optarg; break;
#ifdef NP_TEST_HOOKS
	case OPT_ROOT: a->root = optarg; break;
#endif
	case OPT_POLICY_DIR: a->policy_dir = optarg; break;
	case 'n': c->dry_run = true; break;
	case OPT_CPUS: c->cpus = optarg; break;
	case OPT_CONFIG: c->config = optarg; break;
	case OPT_STRICT: c->strict = true; break;
	case OPT_IRQBALANCE_BAN: c->irqbalance_ban = true; break;
	case OPT_FLOW:
		if (c->n_flows == CLI_FLOWS_MAX)
			return cli_usage_error("--flow: at most %d flows", CLI_FLOWS_MAX);
		c->flows[c->n_flows++] = optarg;
		break;
	case OPT_DEFAULT: c->default_class = optarg; break;
	case OPT_WEIGHT:
		/* repeated: the later ones add to (or override) the earlier */
		if (strlen(c->weights) + strlen(optarg) + 2 > sizeof(c->weights))
			return cli_usage_error("--weight: too long");
		if (c->weights[0])
			strcat(c->weights, ",");
		strcat(c->weights, optarg);
		break;
	case OPT_METRIC: c->try_metric = optarg; break;
	case OPT_METRIC_JSON: c->try_metric_json = optarg; break;
	case OPT_LOWER: c->try_lower = true; break;
	case OPT_KEEP: c->try_keep = optarg; break;
	case OPT_LOG: c->try_log = optarg; break;
	case OPT_OUTPUT: c->output = optarg; break;
	case OPT_VERSION:
		printf("netpolicy %s\n", PACKAGE_VERSION);
		return cli_output_status(NP_EXIT_OK, false, 0);
	default: {
		int r = number_option(c, opt);

		return r < 0 ? cli_usage_error("unknown option") : r ? r : -1;
	}
	}
	return -1;
}

/* Every option before the words: -1 to go on, else the exit code. */
static int parse_options(int argc, char **argv, struct cli *c, struct args *a)
{
	struct option opts[CLI_ARRAY_SIZE(options) + 1] = {};
	char shortopts[2 * CLI_ARRAY_SIZE(options) + 2] = ":";
	int opt, r;

	for (size_t k = 0; k < CLI_ARRAY_SIZE(options); k++) {
		opts[k] = (struct option){ options[k].name,
					   options[k].arg ? required_argument : no_argument, NULL,
					   options[k].key };
		if (options[k].key < 256) {
			size_t n = strlen(shortopts);

			shortopts[n] = (char)options[k].key;
			if (options[k].arg)
				shortopts[++n] = ':';
		}
	}
	/* getopt keeps what follows "--" in place, at the end */
	for (int i = 1; i < argc && a->n_after < 0; i++)
		if (!strcmp(argv[i], "--"))
			a->n_after = argc - i - 1;
	/* our own one-line messages, not getopt's as well */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		const struct cli_option *o = find_option(opt);

		if (opt == '?') {
			const char *w = bad_option_word(argv, optopt);

			return cli_usage_error("unknown option '%s'%s", w, option_hint(w));
		}
		if (opt == ':')
			return cli_usage_error("option '%s' needs an argument",
					       bad_option_word(argv, optopt));
		if (o)
			a->given[o - options] = true;
		r = parse_option(c, a, opt);
		if (r >= 0)
			return r;
	}
	return -1;
}

/* The command and its device from the words after the options; the
 * command's own words into c.  -1 to go on, else the exit code. */
static int find_invocation(struct cli *c, const struct args *a, char **words, int nwords,
			   const struct command **ret)
{
	const struct command *cmd;

	if (nwords < 1)
		return cli_usage_error("no command given");
	/* "netpolicy help [COMMAND]": --help, or the command's lines */
	if (!strcmp(words[0], "help") && nwords <= 2) {
		cmd = nwords == 2 ? find_command(words[1]) : NULL;
		if (nwords == 2 && (!cmd || cmd->internal))
			return cli_usage_error("help: unknown command '%s'%s", words[1],
					       command_hint(words[1]));
		usage(stdout, cmd);
		return cli_output_status(NP_EXIT_OK, false, 0);
	}
	/* "netpolicy show" and "netpolicy eth0 show": a word that is not a
	 * command is the device, and the command follows it. */
	cmd = find_command(words[0]);
	if (!cmd || (nwords >= 2 && find_command(words[1]))) {
		if (nwords < 2)
			return cli_usage_error("no command given for device '%s'%s", words[0],
					       command_hint(words[0]));
		cmd = find_command(words[1]);
		if (!cmd)
			return cli_usage_error("unknown command '%s'%s", words[1],
					       command_hint(words[1]));
		if (!cmd->device)
			return cli_usage_error("'%s' does not take a device", cmd->name);
		c->device = words[0];
		words += 2;
		nwords -= 2;
	} else {
		words += 1;
		nwords -= 1;
	}
	/* "netpolicy show eth0": show and metrics take no word of their own,
	 * so the one after them is the device, as in "netpolicy eth0 show" */
	if (cmd->device && !c->device && !cmd->args[0] && nwords == 1 &&
	    (!strcmp(cmd->name, "show") || !strcmp(cmd->name, "metrics"))) {
		c->device = words[0];
		nwords = 0;
	}
	/* show and metrics alone take every device; the others act on one */
	if (cmd->device && !c->device && strcmp(cmd->name, "show") && strcmp(cmd->name, "metrics"))
		return cli_order_hint(cmd->name, cmd->args, words, nwords);
	if (cmd->run == cmd_try && a->n_after >= 0 && a->n_after <= nwords) {
		c->cmd_argc = a->n_after;
		c->cmd_argv = words + nwords - a->n_after;
		nwords -= a->n_after;
	}
	c->argc = nwords;
	c->argv = words;
	/* Options that belong to some commands only: refused elsewhere rather
	 * than ignored (a script's typo must not pass silently). */
	for (size_t k = 0; k < CLI_ARRAY_SIZE(options); k++)
		if (a->given[k] && options[k].commands && !in_list(options[k].commands, cmd->name))
			return cli_usage_error("%s: option --%s does not apply", cmd->name,
					       options[k].name);
	*ret = cmd;
	return -1;
}

/* The library's context as the options set it: -1 to go on, else the exit
 * code (the context freed). */
static int open_ctx(struct cli *c, const struct args *a)
{
	CLI_ERROR(err);
	int r;

	np_error_clear(err);
	if (c->device && np_ifname_validate(c->device, err) < 0)
		return cli_fail(c, err);
	/* before the context opens "/": it must see the new /sys */
	if (!a->model && !a->root)
		cli_own_sysfs();
	if (np_ctx_new(&c->ctx, err) < 0)
		return cli_fail(c, err);
	np_ctx_set_log(c->ctx, log_to_stderr, c);
	np_ctx_set_lock_wait(c->ctx, c->wait);
	np_ctx_set_step_hook(c->ctx, on_step, c);
	c->model = a->model;
	c->root = a->root;
	if ((a->state_dir && np_ctx_set_state_dir(c->ctx, a->state_dir, err) < 0) ||
	    (a->policy_dir && np_ctx_set_policy_dir(c->ctx, a->policy_dir, err) < 0) ||
	    (a->model && np_ctx_set_model(c->ctx, a->model, err) < 0)
#ifdef NP_TEST_HOOKS
	    || (a->root && np_ctx_set_root(c->ctx, a->root, err) < 0)
#endif
	    ) {
		r = cli_fail(c, err);
		np_ctx_free(c->ctx);
		return r;
	}
	c->state_dir = np_ctx_state_dir(c->ctx);
	return -1;
}

/* The exit code once the command ran: what its output's fate changes, and
 * a word on a signal that stopped it. */
static int finish(struct cli *c, int r)
{
	int sig;

	if (c->out_failed) {
		fprintf(stderr, "netpolicy: out of memory: the output could not be made%s\n",
			c->changed ? " (the change itself was applied)" : "");
		if (r == NP_EXIT_OK)
			r = c->changed ? NP_EXIT_UNRECORDED : NP_EXIT_ERROR;
	} else {
		r = cli_output_status(r, c->changed, c->out_errno);
	}
	sig = cli_signal_received();
	if (sig && !c->quiet && !c->signal_said)
		fprintf(stderr, "netpolicy: %s received: stopped after the current run\n",
			sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP");
	return r;
}

int main(int argc, char **argv)
{
	struct cli c = { .wait = -1, .try_rounds = 5, .try_settle = 1, .try_timeout = 600 };
	struct args a = { .n_after = -1 };
	const struct command *cmd = NULL;
	unsigned long long pending = 0;
	int r;

	/* A closed pipe (netpolicy ... | head) must never kill an apply half-way:
	 * a failed write of output is reported after the run. */
	cli_save_signals();
	signal(SIGPIPE, SIG_IGN);
	r = parse_options(argc, argv, &c, &a);
	if (r < 0)
		r = find_invocation(&c, &a, argv + optind, argc - optind, &cmd);
	/* a command found: its heap mapped before it fills it (heap.c) */
	if (r < 0) {
		cli_heap_prefault();
		r = open_ctx(&c, &a);
	}
	if (r >= 0)
		return r;
	if (cmd->applies && !c.dry_run)
		cli_catch_signals(c.ctx);
	/* a pending --confirm this command ends (confirm, reset, set) */
	if ((cmd->applies || cmd->run == cmd_confirm) && !c.dry_run && c.device)
		pending = cli_pending_token(&c);
	r = cmd->run(&c);
	if (pending && cli_pending_token(&c) != pending)
		cli_watchdog_end(pending);
	np_ctx_free(c.ctx);
	return finish(&c, r);
}
