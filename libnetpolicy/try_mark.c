/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* np_try_mark: which condition and round a try is in, for show, check and
 * metrics of the device while it runs (apply/try_marker.c). */
#include <errno.h>

#include "np_try.h"

int np_try_mark(struct np_try *t, const char *condition, unsigned round, struct np_error *err)
{
	if (!t || t->ended || !t->e.journal)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "the run has ended");
	return np_store_try_mark(&t->e.store, condition, round, err);
}
