/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as netpolicy.conf(5).  The parser must refuse
 * what it cannot take with a line number, never crash; what it takes names
 * valid devices, known policies and CPU lists that parse.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "fuzz_file.h"
#include "util/np_cpumask.h"
#include "plan/np_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[256];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct np_config *cfg = NULL;
	struct json_object *j = NULL;
	struct np_error err;

	np_fuzz_to_file(path, sizeof(path), "np-fuzz-config.XXXXXX", data, size);
	np_error_clear(&err);
	if (np_config_load(NULL, path, &cfg, &err) < 0) {
		if (!err.code)
			abort();
		return 0;
	}
	for (size_t i = 0; i < np_config_n_devices(cfg); i++) {
		struct np_cpumask m;
		const char *cpus = np_config_cpus(cfg, i);

		if (np_ifname_validate(np_config_ifname(cfg, i), NULL) < 0 ||
		    !np_config_policy(cfg, i) || (cpus && np_cpumask_parse_list(cpus, &m) < 0))
			abort();
	}
	if (np_config_to_json(cfg, &j) < 0)
		abort();
	json_object_put(j);
	np_config_free(cfg);
	return 0;
}
