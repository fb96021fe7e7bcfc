/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One np_ctx per user: no global state anywhere in the library. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan/policy/np_policy_file.h"
#include "np_private.h"
#include "np_test_hooks.h"

#define NP_DEFAULT_STATE_DIR "/run/netpolicy"
/* The simulated backend's default: its own directory per model file, so a
 * --model run never loads or deletes the real device's snapshot, nor leaves
 * a journal the kernel backend would "recover" onto a real NIC (a model made
 * from `show --json` of a real device has the real device's name). */
#define NP_SIM_STATE_DIR_PREFIX "/run/netpolicy-sim."

int np_ctx_new(struct np_ctx **ret, struct np_error *err)
{
	struct np_ctx *ctx;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	ctx->rootfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ctx->rootfd < 0) {
		int r = -errno;

		free(ctx);
		return np_err(err, r, NP_PHASE_NONE, NULL, "cannot open /: %s", strerror(-r));
	}
	snprintf(ctx->state_dir, sizeof(ctx->state_dir), "%s", NP_DEFAULT_STATE_DIR);
	ctx->lock_wait = -1;
	*ret = ctx;
	return 0;
}

void np_ctx_free(struct np_ctx *ctx)
{
	if (!ctx)
		return;
	if (ctx->be)
		ctx->be->ops->free(ctx->be);
	if (ctx->rootfd >= 0)
		close(ctx->rootfd);
	free(ctx->model);
	np_policy_cache_free(ctx);
	free(ctx);
}

void np_ctx_set_lock_wait(struct np_ctx *ctx, int seconds)
{
	ctx->lock_wait = seconds < 0 ? -1 : seconds;
}

void np_ctx_set_log(struct np_ctx *ctx, np_log_fn fn, void *userdata)
{
	ctx->log_fn = fn;
	ctx->log_ud = userdata;
}

void np_ctx_work_counts(const struct np_ctx *ctx, struct np_work_counts *ret)
{
	*ret = ctx->counts;
}

int np_ctx_set_root(struct np_ctx *ctx, const char *dir, struct np_error *err)
{
	int fd;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return np_err(err, -errno, NP_PHASE_INPUT, NULL, "root directory %s: %s", dir,
			      strerror(errno));
	close(ctx->rootfd);
	ctx->rootfd = fd;
	ctx->root_gen++;
	return 0;
}

int np_ctx_set_state_dir(struct np_ctx *ctx, const char *dir, struct np_error *err)
{
	char cwd[PATH_MAX];
	int n;

	if (!dir || !*dir)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "empty state directory");
	/* Absolute, so the --confirm watchdog (which starts elsewhere) and
	 * every later command find the same files. */
	if (dir[0] == '/')
		n = snprintf(ctx->state_dir, sizeof(ctx->state_dir), "%s", dir);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(ctx->state_dir, sizeof(ctx->state_dir), "%s/%s", cwd, dir);
	else
		return np_err(err, -errno, NP_PHASE_INPUT, NULL, "cannot resolve %s: %s", dir,
			      strerror(errno));
	if (n < 0 || (size_t)n >= sizeof(ctx->state_dir))
		return np_err(err, -ENAMETOOLONG, NP_PHASE_INPUT, NULL, "state directory path too long");
	ctx->state_dir_set = true;
	ctx->records_ours[0] = '\0';
	return 0;
}

static void sim_state_dir(struct np_ctx *ctx, const char *file);

int np_ctx_set_model(struct np_ctx *ctx, const char *file, struct np_error *err)
{
	char *copy;

	if (ctx->be)
		return np_err(err, -EBUSY, NP_PHASE_INPUT, NULL,
			      "the backend is already in use; set the model first");
	copy = strdup(file);
	if (!copy)
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	free(ctx->model);
	ctx->model = copy;
	if (!ctx->state_dir_set)
		sim_state_dir(ctx, file);
	return 0;
}

int np_ctx_set_model_text(struct np_ctx *ctx, const char *name, const char *text, size_t len,
			  struct np_error *err)
{
	int r;

	r = np_ctx_set_model(ctx, name, err);
	if (r < 0)
		return r;
	return np_backend_sim_new_text(ctx, name, text, len, &ctx->be, err);
}

/* NP_SIM_STATE_DIR_PREFIX and a hash (FNV-1a, 64 bits) of the model's
 * absolute path: one directory per model file, the same from any cwd. */
static void sim_state_dir(struct np_ctx *ctx, const char *file)
{
	char abs[PATH_MAX], cwd[PATH_MAX];
	uint64_t h = 0xcbf29ce484222325ull;

	if (!realpath(file, abs)) {
		if (file[0] != '/' && getcwd(cwd, sizeof(cwd)) &&
		    (size_t)snprintf(abs, sizeof(abs), "%s/%s", cwd, file) < sizeof(abs))
			;
		else
			snprintf(abs, sizeof(abs), "%s", file);
	}
	for (const unsigned char *p = (const unsigned char *)abs; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	snprintf(ctx->state_dir, sizeof(ctx->state_dir), NP_SIM_STATE_DIR_PREFIX "%016llx",
		 (unsigned long long)h);
}

const char *np_ctx_state_dir(const struct np_ctx *ctx)
{
	return ctx->state_dir;
}

const char *np_ctx_backend_name(const struct np_ctx *ctx)
{
	if (ctx->be)
		return ctx->be->ops->name;
	return ctx->model ? "sim" : "kernel";
}
