/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* netpolicy: command table, option parsing, exit codes. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct command {
	const char *name;
	bool device;		/* takes a DEVICE before the command word */
	int (*run)(struct cli *c);
	const char *options;	/* long options it accepts besides the global ones */
	const char *summary;
};

static const struct command commands[] = {
	{ "show", true, cmd_show, "", "current state of DEVICE (all devices when none is named)" },
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: netpolicy [OPTIONS] DEVICE COMMAND [ARGS]\n"
		"       netpolicy [OPTIONS] COMMAND [ARGS]\n\n"
		"Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %s%-9s %s\n", commands[i].device ? "DEVICE " : "       ",
			commands[i].name, commands[i].summary);
	fprintf(out,
		"\nOptions:\n"
		"  -j, --json           one JSON document on stdout\n"
		"  -v, --verbose        say what is being done, on stderr\n"
		"  -q, --quiet          print nothing but errors\n"
		"      --state-dir DIR  locks, journals and snapshots (default /run/netpolicy)\n"
		"      --model FILE     use a simulated machine described in FILE\n"
		"  -h, --help           this text\n"
		"      --version        print the version\n"
		"\nExit status: 0 done, 1 error (nothing changed), 2 usage, 3 apply failed and rolled back,\n"
		"4 rollback incomplete, 5 drift found by check.  See netpolicy(8).\n");
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("netpolicy: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see 'netpolicy --help')\n", stderr);
	return NP_EXIT_USAGE;
}

int cli_fail(const struct cli *c, const struct np_error *err)
{
	char buf[600];

	np_error_format(err, buf, sizeof(buf));
	if (c->device)
		fprintf(stderr, "netpolicy: %s: %s\n", c->device, buf);
	else
		fprintf(stderr, "netpolicy: %s\n", buf);
	switch (err->phase) {
	case NP_PHASE_INPUT:
		return NP_EXIT_USAGE;
	default:
		return NP_EXIT_ERROR;
	}
}

void cli_print_json(struct json_object *obj)
{
	puts(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
						 JSON_C_TO_STRING_SPACED |
						 JSON_C_TO_STRING_NOSLASHESCAPE));
}

static void log_to_stderr(void *userdata, enum np_log_level level, const char *msg)
{
	const struct cli *c = userdata;

	if (level <= NP_LOG_WARNING || c->verbose)
		fprintf(stderr, "netpolicy: %s\n", msg);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

enum { OPT_STATE_DIR = 256, OPT_MODEL, OPT_ROOT, OPT_VERSION };

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
		{}
	};
	const char *state_dir = NULL, *model = NULL, *root = NULL;
	const struct command *cmd;
	struct np_error err;
	struct cli c = {};
	char **words;
	int nwords, opt, r;

	while ((opt = getopt_long(argc, argv, "jvqh", opts, NULL)) != -1) {
		switch (opt) {
		case 'j': c.json = true; break;
		case 'v': c.verbose = true; break;
		case 'q': c.quiet = true; break;
		case 'h': usage(stdout); return NP_EXIT_OK;
		case OPT_STATE_DIR: state_dir = optarg; break;
		case OPT_MODEL: model = optarg; break;
		case OPT_ROOT: root = optarg; break;
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
	c.argc = nwords;
	c.argv = words;

	np_error_clear(&err);
	if (c.device && np_ifname_validate(c.device, &err) < 0)
		return cli_fail(&c, &err);
	r = np_ctx_new(&c.ctx, &err);
	if (r < 0)
		return cli_fail(&c, &err);
	np_ctx_set_log(c.ctx, log_to_stderr, &c);
	if ((state_dir && np_ctx_set_state_dir(c.ctx, state_dir, &err) < 0) ||
	    (model && np_ctx_set_model(c.ctx, model, &err) < 0) ||
	    (root && np_ctx_set_root(c.ctx, root, &err) < 0)) {
		r = cli_fail(&c, &err);
		np_ctx_free(c.ctx);
		return r;
	}
	r = cmd->run(&c);
	np_ctx_free(c.ctx);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "netpolicy: cannot write output: %s\n", strerror(errno));
		if (r == NP_EXIT_OK)
			r = NP_EXIT_ERROR;
	}
	return r;
}
