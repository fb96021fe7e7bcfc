/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Network device names, checked before any path is built from one. */
#include <errno.h>
#include <string.h>

#include "np_private.h"

int np_ifname_validate(const char *name, struct np_error *err)
{
	size_t len;

	if (!name || !*name)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "empty device name");
	len = strlen(name);
	if (len >= IFNAMSIZ)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
			      "device name '%.*s...' is longer than %d characters", 16, name,
			      IFNAMSIZ - 1);
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "invalid device name '%s'", name);
	/* The kernel's dev_valid_name(): no '/', ':' or white space; names are
	 * used to build sysfs paths, so this is also our path-traversal guard. */
	for (const char *p = name; *p; p++)
		if (*p == '/' || *p == ':' || *p == ' ' || *p == '\t' || *p == '\n' ||
		    (unsigned char)*p < 0x20)
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
				      "invalid device name '%s'", name);
	return 0;
}
