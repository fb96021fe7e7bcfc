/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any text into the CPU list and mask parsers (--cpus,
 * the config's cpus =, sysfs masks).  A list that parses must format and
 * parse back to the same mask; so must a hex mask.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/np_cpumask.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct np_cpumask m, again;
	char text[1024], out[NP_CPUS_MAX * 8];

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	if (np_cpumask_parse_list(text, &m) == 0) {
		if (np_cpumask_format_list(&m, out, sizeof(out)) < 0 ||
		    np_cpumask_parse_list(out, &again) != 0 || memcmp(&m, &again, sizeof(m)))
			abort();
	}
	if (np_cpumask_parse_hex(text, &m) == 0) {
		if (np_cpumask_format_hex(&m, NP_CPUS_MAX, out, sizeof(out)) < 0 ||
		    np_cpumask_parse_hex(out, &again) != 0 || memcmp(&m, &again, sizeof(m)))
			abort();
	}
	return 0;
}
