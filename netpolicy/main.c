/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* netpolicy: command table, option parsing, exit codes. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
/* --root and the step hook are for tests, not API */
#include "np_test_hooks.h"

struct command {
	const char *name;
	bool device;		/* takes a DEVICE before the command word */
	int (*run)(struct cli *c);
	const char *options;	/* long options it accepts besides the global ones */
	const char *summary;
	bool hidden;		/* internal: not in --help */
	bool applies;		/* changes devices: a signal rolls the run back */
};

static const struct command commands[] = {
	{ "show", true, cmd_show, "", "current state of DEVICE (all devices when none is named)", false, false },
	{ "set", true, cmd_set, "dry-run cpus confirm strict irqbalance-ban", "plan POLICY for DEVICE and apply it atomically", false, true },
	{ "reset", true, cmd_reset, "dry-run", "return DEVICE to its state before netpolicy changed it", false, true },
	{ "confirm", true, cmd_confirm, "", "keep a tentative 'set --confirm' apply", false, false },
	{ "__revert", true, cmd_revert, "", "the --confirm watchdog", true, false },
	{ "check", true, cmd_check, "cpus", "exit 0 if DEVICE matches its policy, 5 and the diff if not", false, false },
	{ "plan", false, cmd_plan, "dry-run config strict irqbalance-ban", "bring every configured device to its policy", false, true },
	{ "policies", false, cmd_policies, "", "what each policy sets and why", false, false },
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: netpolicy [OPTIONS] DEVICE COMMAND [ARGS]\n"
		"       netpolicy [OPTIONS] COMMAND [ARGS]\n\n"
		"Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!commands[i].hidden)
			fprintf(out, "  %s%-9s %s\n", commands[i].device ? "DEVICE " : "       ",
			commands[i].name, commands[i].summary);
	fprintf(out,
		"\nOptions:\n"
		"  -j, --json           one JSON document on stdout\n"
		"  -v, --verbose        say what is being done, on stderr\n"
		"  -q, --quiet          print nothing but errors\n"
		"      --state-dir DIR  locks, journals and snapshots (default /run/netpolicy)\n"
		"      --model FILE     use a simulated machine described in FILE\n"
		"  -n, --dry-run        set, reset, plan: print the plan, change nothing\n"
		"      --cpus LIST      set: CPUs the policy may use (default: online, not isolated)\n"
		"      --confirm SECS   set: roll back after SECS unless 'DEVICE confirm' comes first\n"
		"      --strict         set, plan: all or nothing (a knob the driver refuses fails the\n"
		"                       apply even when the policy could do without it)\n"
		"      --config FILE    plan: the devices and their policies (default " NP_CONFIG_PATH ")\n"
		"      --irqbalance-ban set, plan: ask a running irqbalance to leave the device's IRQs alone\n"
		"  -h, --help           this text\n"
		"      --version        print the version\n"
		"\nExit status: 0 done, 1 error (nothing changed), 2 usage, 3 apply failed (or was\n"
		"interrupted by a signal) and rolled back, 4 rollback incomplete, 5 drift found by\n"
		"check, 6 changed but a record or the output could not be written.  See netpolicy(8).\n");
}

int cli_usage_error(const char *fmt, ...)
{
	char raw[512], msg[1024];
	va_list ap;

	/* the words quoted come from the command line: escape them */
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	np_escape(raw, msg, sizeof(msg));
	fprintf(stderr, "netpolicy: %s (see 'netpolicy --help')\n", msg);
	return NP_EXIT_USAGE;
}

int cli_out_of_memory(void)
{
	fprintf(stderr, "netpolicy: out of memory\n");
	return NP_EXIT_ERROR;
}

int cli_fail(const struct cli *c, const struct np_error *err)
{
	char buf[600];

	if (err)
		np_error_format(err, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "out of memory");
	if (c->device) {
		char dev[80];

		np_escape(c->device, dev, sizeof(dev));
		fprintf(stderr, "netpolicy: %s: %s\n", dev, buf);
	} else {
		fprintf(stderr, "netpolicy: %s\n", buf);
	}
	/* running out of memory is no usage error, whatever was being read */
	if (np_error_code(err) == -ENOMEM)
		return NP_EXIT_ERROR;
	switch (np_error_phase(err)) {
	case NP_PHASE_INPUT:
		return NP_EXIT_USAGE;
	default:
		return NP_EXIT_ERROR;
	}
}

/* Every document starts with the version of its contract, netpolicy-json(7):
 * a script checks it before reading anything else. */
void cli_print_json(struct json_object *obj)
{
	struct json_object *doc = json_object_new_object();

	if (doc && json_object_is_type(obj, json_type_object) &&
	    !json_object_object_add(doc, "schema", json_object_new_int(NP_JSON_SCHEMA))) {
		json_object_object_foreach(obj, key, val)
			json_object_object_add(doc, key, json_object_get(val));
		obj = doc;
	}
	puts(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
						 JSON_C_TO_STRING_SPACED |
						 JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
}

static void log_to_stderr(void *userdata, enum np_log_level level, const char *msg)
{
	const struct cli *c = userdata;

	if (level <= NP_LOG_WARNING || c->verbose)
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

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	/* The first one counts; later ones must not cut the rollback short. */
	if (!got_signal)
		got_signal = sig;
}

int cli_signal_received(void)
{
	return got_signal;
}

static bool cancel_requested(void *userdata)
{
	(void)userdata;
	return got_signal != 0;
}

/* SIGINT (Ctrl-C), SIGTERM (systemd, kill) and SIGHUP (a terminal closed
 * under an Ansible run) while changing a device: finish the step in hand,
 * roll the run back, then exit.  SA_RESTART: the rollback's own system
 * calls must not fail with EINTR at a second signal. */
static void catch_signals(struct np_ctx *ctx)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	np_ctx_set_cancel(ctx, cancel_requested, NULL);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

enum { OPT_STATE_DIR = 256, OPT_MODEL, OPT_ROOT, OPT_VERSION, OPT_CPUS, OPT_CONFIRM, OPT_CONFIG,
       OPT_STRICT, OPT_IRQBALANCE_BAN };

/* Options that belong to some commands only: refuse them elsewhere rather
 * than ignore them (a script's typo must not pass silently). */
static int check_options(const struct command *cmd, const struct cli *c)
{
	const struct { const char *name; bool given; } used[] = {
		{ "dry-run", c->dry_run },
		{ "cpus", c->cpus != NULL },
		{ "confirm", c->confirm != 0 },
		{ "config", c->config != NULL },
		{ "strict", c->strict },
		{ "irqbalance-ban", c->irqbalance_ban },
	};

	for (size_t i = 0; i < sizeof(used) / sizeof(used[0]); i++) {
		const char *p = strstr(cmd->options, used[i].name);
		size_t n = strlen(used[i].name);

		if (used[i].given && !(p && (p[n] == ' ' || p[n] == '\0')))
			return cli_usage_error("%s: option --%s does not apply", cmd->name, used[i].name);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "state-dir", required_argument, NULL, OPT_STATE_DIR },
		{ "model", required_argument, NULL, OPT_MODEL },
		/* read sysfs/procfs below DIR: for tests against fixture trees */
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "confirm", required_argument, NULL, OPT_CONFIRM },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "irqbalance-ban", no_argument, NULL, OPT_IRQBALANCE_BAN },
		{}
	};
	const char *state_dir = NULL, *model = NULL, *root = NULL;
	int out_err;
	const struct command *cmd;
	CLI_ERROR(err);
	struct cli c = {};
	char **words;
	int nwords, opt, r;

	/* A closed pipe (netpolicy ... | head) must never kill an apply half-way:
	 * a failed write of output is reported after the run. */
	signal(SIGPIPE, SIG_IGN);
	while ((opt = getopt_long(argc, argv, "jvqhn", opts, NULL)) != -1) {
		switch (opt) {
		case 'j': c.json = true; break;
		case 'v': c.verbose = true; break;
		case 'q': c.quiet = true; break;
		case 'h': usage(stdout); return NP_EXIT_OK;
		case OPT_STATE_DIR: state_dir = optarg; break;
		case OPT_MODEL: model = optarg; break;
		case OPT_ROOT: root = optarg; break;
		case 'n': c.dry_run = true; break;
		case OPT_CPUS: c.cpus = optarg; break;
		case OPT_CONFIG: c.config = optarg; break;
		case OPT_STRICT: c.strict = true; break;
		case OPT_IRQBALANCE_BAN: c.irqbalance_ban = true; break;
		case OPT_CONFIRM: {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || end == optarg || v < 1 || v > 86400)
				return cli_usage_error("--confirm: '%s' is not a number of seconds (1-86400)",
						       optarg);
			c.confirm = (int)v;
			break;
		}
		case OPT_VERSION: printf("netpolicy %s\n", PACKAGE_VERSION); return NP_EXIT_OK;
		default: return cli_usage_error("invalid option");
		}
	}
	words = argv + optind;
	nwords = argc - optind;
	if (nwords < 1)
		return cli_usage_error("no command given");

	/* "netpolicy show" and "netpolicy eth0 show": a word that is not a
	 * command is the device, and the command follows it. */
	cmd = find_command(words[0]);
	if (!cmd || (nwords >= 2 && find_command(words[1]))) {
		if (nwords < 2)
			return cli_usage_error("no command given for device '%s'", words[0]);
		cmd = find_command(words[1]);
		if (!cmd)
			return cli_usage_error("unknown command '%s'", words[1]);
		if (!cmd->device)
			return cli_usage_error("'%s' does not take a device", cmd->name);
		c.device = words[0];
		words += 2;
		nwords -= 2;
	} else {
		words += 1;
		nwords -= 1;
	}
	/* show alone lists every device; the others act on one */
	if (cmd->device && !c.device && strcmp(cmd->name, "show"))
		return cli_usage_error("%s: which device? ('netpolicy DEVICE %s ...')", cmd->name,
				       cmd->name);
	c.argc = nwords;
	c.argv = words;
	if (check_options(cmd, &c))
		return NP_EXIT_USAGE;

	np_error_clear(err);
	if (c.device && np_ifname_validate(c.device, err) < 0)
		return cli_fail(&c, err);
	r = np_ctx_new(&c.ctx, err);
	if (r < 0)
		return cli_fail(&c, err);
	np_ctx_set_log(c.ctx, log_to_stderr, &c);
	np_ctx_set_step_hook(c.ctx, on_step, &c);
	c.model = model;
	c.root = root;
	if ((state_dir && np_ctx_set_state_dir(c.ctx, state_dir, err) < 0) ||
	    (model && np_ctx_set_model(c.ctx, model, err) < 0) ||
	    (root && np_ctx_set_root(c.ctx, root, err) < 0)) {
		r = cli_fail(&c, err);
		np_ctx_free(c.ctx);
		return r;
	}
	c.state_dir = np_ctx_state_dir(c.ctx);
	if (cmd->applies && !c.dry_run)
		catch_signals(c.ctx);
	r = cmd->run(&c);
	np_ctx_free(c.ctx);
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		out_err = errno ? errno : EIO;
		fprintf(stderr, "netpolicy: cannot write output: %s%s\n", strerror(out_err),
			c.changed ? " (the change itself was applied)" : "");
		if (r == NP_EXIT_OK)
			r = c.changed ? NP_EXIT_UNRECORDED : NP_EXIT_ERROR;
	}
	if (got_signal && !c.quiet)
		fprintf(stderr, "netpolicy: %s received: stopped after the current run\n",
			got_signal == SIGINT ? "SIGINT" : got_signal == SIGTERM ? "SIGTERM" : "SIGHUP");
	return r;
}
