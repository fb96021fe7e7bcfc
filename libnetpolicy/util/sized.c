/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The public structs that cross the API by value begin with `size_t sz`,
 * the size the caller was compiled with (libbpf's options rule).  A program
 * built against an older header passes a shorter struct: the members it
 * does not know read as zero.  One built against a newer header passes a
 * longer one: accepted only when every byte this library does not know is
 * zero, since a member it cannot honour must not be silently ignored.
 */
#include <errno.h>
#include <string.h>

#include "np_private.h"

int np_sized_in(const void *in, void *out, size_t known)
{
	size_t sz;

	memset(out, 0, known);
	*(size_t *)out = known;
	if (!in)
		return 0;
	sz = *(const size_t *)in;
	if (sz < sizeof(size_t))
		return -EINVAL;
	for (size_t i = known; i < sz; i++)
		if (((const unsigned char *)in)[i])
			return -E2BIG;
	memcpy((char *)out + sizeof(size_t), (const char *)in + sizeof(size_t),
	       (sz < known ? sz : known) - sizeof(size_t));
	return 0;
}

int np_sized_out(void *dst, const void *src, size_t known)
{
	size_t sz = *(const size_t *)dst;

	if (sz < sizeof(size_t))
		return -EINVAL;
	/* what the caller has room for; the rest of its struct is zeroed */
	memset((char *)dst + sizeof(size_t), 0, sz - sizeof(size_t));
	memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
	       (sz < known ? sz : known) - sizeof(size_t));
	return 0;
}
