/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The accessors of what an apply did and of the active-policy record: the
 * structs stay private so that they can grow without breaking callers. */
#include <stdlib.h>

#include "np_private.h"

struct np_apply_result *np_apply_result_new(void)
{
	return calloc(1, sizeof(struct np_apply_result));
}

void np_apply_result_free(struct np_apply_result *res)
{
	free(res);
}

bool np_apply_result_changed(const struct np_apply_result *res)
{
	/* an interrupted run's changes undone first change the device too,
	 * whatever the command's own plan did */
	return res && (res->changed || res->recovery_wrote);
}

unsigned np_apply_result_writes(const struct np_apply_result *res)
{
	return res ? res->n_writes : 0;
}

bool np_apply_result_rolled_back(const struct np_apply_result *res)
{
	return res && res->rolled_back;
}

bool np_apply_result_rollback_incomplete(const struct np_apply_result *res)
{
	return res && res->rollback_incomplete;
}

const char *np_apply_result_rollback_msg(const struct np_apply_result *res)
{
	return res ? res->rollback_msg : "";
}

bool np_apply_result_recovered(const struct np_apply_result *res)
{
	return res && res->recovered;
}

bool np_apply_result_vanished(const struct np_apply_result *res)
{
	return res && res->vanished;
}

const char *np_apply_result_notes(const struct np_apply_result *res)
{
	return res ? res->notes : "";
}

unsigned np_apply_result_n_dropped(const struct np_apply_result *res)
{
	return res ? res->n_dropped : 0;
}

const char *np_apply_result_dropped_knob(const struct np_apply_result *res, unsigned i)
{
	return res && i < res->n_dropped ? res->dropped[i].knob : NULL;
}

const char *np_apply_result_dropped_reason(const struct np_apply_result *res, unsigned i)
{
	return res && i < res->n_dropped ? res->dropped[i].reason : NULL;
}

const char *np_apply_result_dropped_field(const struct np_apply_result *res, unsigned i)
{
	return res && i < res->n_dropped ? res->dropped[i].field : NULL;
}

const char *np_apply_result_dropped_errno(const struct np_apply_result *res, unsigned i)
{
	return res && i < res->n_dropped ? np_errno_name(res->dropped[i].code) : NULL;
}

unsigned long long np_apply_result_token(const struct np_apply_result *res)
{
	return res ? res->token : 0;
}

long long np_apply_result_deadline(const struct np_apply_result *res)
{
	return res ? res->deadline : 0;
}

bool np_apply_result_interrupted(const struct np_apply_result *res)
{
	return res && res->interrupted;
}

bool np_apply_result_unrecorded(const struct np_apply_result *res)
{
	return res && res->unrecorded;
}

bool np_apply_result_other_writer(const struct np_apply_result *res)
{
	return res && res->other_writer;
}

const char *np_apply_result_renamed_to(const struct np_apply_result *res)
{
	return res ? res->renamed_to : "";
}

void np_active_free(struct np_active *active)
{
	if (active)
		free(active->mixed);
	free(active);
}

const char *np_active_name(const struct np_active *active)
{
	return active ? active->policy : "";
}

const char *np_active_cpus(const struct np_active *active)
{
	return active ? active->cpus : "";
}

const char *np_active_drop(const struct np_active *active)
{
	return active ? active->drop : "";
}

uint32_t np_active_link_speed(const struct np_active *active)
{
	return active ? active->link_speed : 0;
}

long long np_active_written(const struct np_active *active)
{
	return active ? active->written : 0;
}
