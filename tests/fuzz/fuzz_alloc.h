/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The targets that parse JSON: under ASan (every libFuzzer build, and make
 * check's replay in a sanitizer build) malloc never returns NULL, it aborts
 * (allocator_may_return_null=0, ASan's default), so np_json_parse's second
 * parse of each text, which only tells a hidden allocation failure of json-c
 * < 0.17 from a real error, can find nothing: skipped there. */
#ifndef NP_FUZZ_ALLOC_H
#define NP_FUZZ_ALLOC_H

#include "np_test_hooks.h"

#if defined(__SANITIZE_ADDRESS__)
#define NP_FUZZ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NP_FUZZ_ASAN 1
#endif
#endif

static inline void np_fuzz_alloc_setup(void)
{
#ifdef NP_FUZZ_ASAN
	np_json_set_alloc_never_fails(true);
#endif
}

#endif
