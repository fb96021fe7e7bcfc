/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as a machine model (netpolicy-model(5)), then
 * what `netpolicy --model FILE set POLICY --dry-run` does with it: load and
 * check the model, discover each of its devices and plan every built-in
 * policy for it.  A model is untrusted input: refused with an error, or
 * planned within bounds, never a crash or an allocation without bound.
 * The input is the model's text in memory (np_ctx_set_model_text): the
 * parser and checks a model file goes through, without a file per run.
 */
#include <stdint.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "fuzz_alloc.h"
#include "plan/np_plan.h"
#include "plan/np_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct np_ctx *ctx = NULL;
	char **names = NULL;
	size_t n = 0;

	np_fuzz_alloc_setup();
	/* no state directory: plans start from the device alone */
	if (np_ctx_new(&ctx, NULL) < 0 || np_ctx_set_state_dir(ctx, "/nonexistent/np-fuzz", NULL) < 0)
		abort();
	if (np_ctx_set_model_text(ctx, "fuzz-input", (const char *)data, size, NULL) < 0 ||
	    np_list_devices(ctx, &names, &n, NULL) < 0)
		goto out;
	for (size_t i = 0; i < n && i < 4; i++) {
		struct np_state *st = NULL;

		if (np_discover(ctx, names[i], &st, NULL) < 0)
			continue;
		/* every built-in policy, mixed included (its default classes) */
		for (size_t p = 0; p < np_policy_count(); p++) {
			const struct np_policy *policy = np_policy_at(p);
			struct np_plan *plan = NULL;
			struct json_object *j = NULL;

			if (np_plan_compute(ctx, policy, NULL, st, &plan, NULL) == 0) {
				if (np_plan_to_json(plan, &j) < 0)
					abort();
				json_object_put(j);
			}
			np_plan_free(plan);
		}
		np_state_free(st);
	}
	np_list_free(names, n);
out:
	np_ctx_free(ctx);
	return 0;
}
