/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: discover a NIC's tuning state, plan a policy for it and
 * apply the plan atomically.
 *
 * Conventions: every function that can fail returns 0 or a negative errno
 * and, when given one, fills an error object (struct np_error, made once
 * with np_error_new).  Out-parameters are written only on success.  Every
 * *_free(NULL) is a no-op.  The library never prints and never exits;
 * diagnostics go through the log callback.
 *
 * Compatibility rule.  libnetpolicy is built as a static archive
 * (libnetpolicy.a, with pkg-config): there is no soname and no promise of
 * binary compatibility between releases; a program is linked with the
 * archive of the header it was compiled with.  What is promised, within one
 * major version (NP_VERSION_MAJOR), is source compatibility and the JSON:
 *  - every type a caller could need to grow is opaque (contexts, states,
 *    policies, plans, errors, apply results, the active record, configs) and
 *    read through accessors; new information comes as new accessors;
 *  - the few structs passed by value (np_plan_opts, np_pending,
 *    np_socket_opts) begin with `size_t sz`, which the caller sets to the
 *    size it was compiled with (NP_PLAN_OPTS(), or sizeof); they only gain
 *    members at their end; the library reads members past a shorter sz as
 *    zero, refuses a longer struct whose unknown bytes are not zero
 *    (-E2BIG) and writes no further than sz;
 *  - enums only gain values; an accessor returning an enum may return a
 *    value the caller does not know, and the caller must accept that;
 *  - a function's meaning never changes under its name: a changed behaviour
 *    is a new function, and the old one stays (documented as superseded)
 *    until the next soname bump;
 *  - the JSON documents (np_*_to_json) follow netpolicy-model(5): members
 *    are added, never renamed or retyped;
 *  - nothing else is API: symbols not declared here are not exported.
 * json-c in the ABI is deliberate: the *_to_json functions hand back a
 * json_object the caller composes into its own document (the CLI adds
 * members to a plan's), and json-c keeps its own ABI stable (libjson-c.so.5);
 * a string would only be parsed again.
 */
#ifndef NETPOLICY_NETPOLICY_H
#define NETPOLICY_NETPOLICY_H

/* One header per job; each includes the ones it builds on, and compiles on
 * its own (tests/pkg/install.bats). */
#include <netpolicy/base.h>
#include <netpolicy/context.h>
#include <netpolicy/discover.h>
#include <netpolicy/plan.h>
#include <netpolicy/apply.h>
#include <netpolicy/watch.h>
#include <netpolicy/config.h>
#include <netpolicy/classes.h>
#include <netpolicy/try.h>

#endif
