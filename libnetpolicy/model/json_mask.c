/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A CPU mask as the JSON string of its cpulist ("0-3,8", "" when empty), the
 * form of every mask in the state document (netpolicy-json(7)); shared by
 * the device writer and the NAPI writer, below both.
 */
#include <json-c/json.h>

#include "model/np_serialize.h"

#define MASKBUF 8192	/* the longest cpulist of NP_CPUS_MAX CPUs ("0,2,4,...") */

struct json_object *np_cpumask_to_json_str(const struct np_cpumask *m)
{
	char buf[MASKBUF];

	if (np_cpumask_format_list(m, buf, sizeof(buf)) < 0)
		return NULL;
	return json_object_new_string(buf);
}
