/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * np_list_free: the string lists the API returns (np_list_devices, the
 * backends' device lists, the policy file cache).  Here, below everything
 * that makes such a list, so that no backend imports discovery for it.
 */
#include <stdlib.h>

#include "np_private.h"

void np_list_free(char **list, size_t n)
{
	if (!list)
		return;
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}
