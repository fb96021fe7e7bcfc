/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The two builders every store document is made with (records.c for the
 * snapshot, policy record and marker, records_mixed.c for the policy
 * record's mixed member), in a file of their own so that the mixed part
 * needs no import of the records it is a part of.
 */
#include <stdbool.h>

#include "apply/np_store.h"

/* Add v (consumed) under key; false (and o freed) when memory ran out.
 * A NULL v is a json_object_new_*() that failed, never a JSON null: added
 * as such it made a record without its format (found by alloc.bats). */
bool np_doc_add(struct json_object **o, const char *key, struct json_object *v)
{
	if (*o && v && json_object_object_add(*o, key, v) == 0)
		return true;
	json_object_put(v);
	json_object_put(*o);
	*o = NULL;
	return false;
}

/* Append v (consumed) to the array; false (and a freed) as np_doc_add(). */
bool np_doc_push(struct json_object **a, struct json_object *v)
{
	if (*a && v && json_object_array_add(*a, v) == 0)
		return true;
	json_object_put(v);
	json_object_put(*a);
	*a = NULL;
	return false;
}
