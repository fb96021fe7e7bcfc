/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* np_version: the version this copy of the library was built as. */
#include "netpolicy/netpolicy.h"

const char *np_version(void)
{
	return NP_VERSION_STRING;
}
