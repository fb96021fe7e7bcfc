/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnetpolicy: the export macro, the library version, the error object and phases.
 *
 * Part of the API that <netpolicy/netpolicy.h> declares (its conventions
 * and compatibility rule hold here); include that header.
 */
#ifndef NETPOLICY_BASE_H
#define NETPOLICY_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netpolicy/version.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef NP_EXPORT
#define NP_EXPORT __attribute__((visibility("default")))
#endif

/**
 * np_version() - the version of the library linked in
 *
 * The NP_VERSION_* macros say which header a program was compiled with; this
 * says which library it runs with, and the two may differ.
 *
 * Return: "MAJOR.MINOR.PATCH", static.
 */
NP_EXPORT const char *np_version(void);

struct json_object;
struct np_ctx;
struct np_state;
struct np_policy;
struct np_plan;

enum np_phase {
	NP_PHASE_NONE = 0,
	NP_PHASE_INPUT,		/* bad arguments: device name, policy, options */
	NP_PHASE_DISCOVER,
	NP_PHASE_PLAN,
	NP_PHASE_APPLY,
	NP_PHASE_VERIFY,
	NP_PHASE_ROLLBACK,
	NP_PHASE_LOCK,		/* another netpolicy held the device past the lock wait */
	NP_PHASE_STATE,		/* the state directory cannot be written where it must be
				 * (an interrupted run's journal to act on): nothing changed */
};

/*
 * An error: made once, before the work it describes, so that filling it
 * never allocates (an out-of-memory failure is still reported).  Opaque, so
 * it can grow.  Functions keep the first error given to them; clear it to
 * reuse it.  The accessors take NULL (no error).
 */
struct np_error;
/**
 * np_error_new() - make an error object
 *
 * Make it before the work whose failure it describes: filling it never
 * allocates.
 *
 * Return: the object, or NULL when out of memory.
 */
NP_EXPORT struct np_error *np_error_new(void);
/**
 * np_error_free() - free an error object
 * @err: the object, or NULL (nothing is done)
 */
NP_EXPORT void np_error_free(struct np_error *err);
/**
 * np_error_clear() - forget the error an object holds, to reuse it
 * @err: the object, or NULL
 */
NP_EXPORT void np_error_clear(struct np_error *err);
/**
 * np_escape() - a string made safe to print
 * @in: the string
 * @out: where the escaped string goes, NUL-terminated, truncated to fit
 * @len: the size of @out in bytes
 *
 * Control characters and DEL are written as \n, \t, \r or \xHH.  Every
 * message of the library is escaped so; use it for names a caller prints.
 *
 * Return: the length of the escaped string.
 */
NP_EXPORT size_t np_escape(const char *in, char *out, size_t len);
/**
 * np_suggest() - the candidate a mistyped word most likely meant
 * @word: the word as typed
 * @cands: the words it may have meant
 * @n: how many there are
 *
 * Distance is the number of letters inserted, deleted, replaced or two
 * neighbours swapped; a candidate is close enough within one edit for a
 * word of up to four letters, within a third of the word's length beyond.
 *
 * Return: the closest candidate close enough (the first of equals), or NULL.
 */
NP_EXPORT const char *np_suggest(const char *word, const char *const *cands, size_t n);
/**
 * np_error_code() - the error's code
 * @err: the error, or NULL
 *
 * Return: a negative errno, 0 when there is no error.
 */
NP_EXPORT int np_error_code(const struct np_error *err);
/**
 * np_error_phase() - where the error happened
 * @err: the error, or NULL
 *
 * Return: the phase (NP_PHASE_NONE when there is no error).
 */
NP_EXPORT enum np_phase np_error_phase(const struct np_error *err);
/**
 * np_error_knob() - the knob the error concerns
 * @err: the error, or NULL
 *
 * Return: "channels", "irq-affinity", ... (valid as long as the library
 * is loaded), or NULL when none.
 */
NP_EXPORT const char *np_error_knob(const struct np_error *err);
/**
 * np_error_step() - the plan step the error happened in
 * @err: the error, or NULL
 *
 * Return: the step's index, or -1.
 */
NP_EXPORT int np_error_step(const struct np_error *err);
/**
 * np_error_message() - netpolicy's words for the error
 * @err: the error, or NULL
 *
 * Return: the message, "" when none.
 */
NP_EXPORT const char *np_error_message(const struct np_error *err);
/**
 * np_error_extack() - the kernel's words for the error (netlink extack)
 * @err: the error, or NULL
 *
 * Return: the kernel's message, "" when it gave none.
 */
NP_EXPORT const char *np_error_extack(const struct np_error *err);
/**
 * np_error_format() - the error as one line
 * @err: the error, or NULL
 * @buf: where the line goes
 * @len: the size of @buf
 *
 * "channels: requested channel count exceeds maximum" style.
 *
 * Return: @buf.
 */
NP_EXPORT const char *np_error_format(const struct np_error *err, char *buf, size_t len);
/**
 * np_phase_name() - a phase's name
 * @phase: the phase
 *
 * Return: "discover", "apply", ... (static).
 */
NP_EXPORT const char *np_phase_name(enum np_phase phase);

#ifdef __cplusplus
}
#endif
#endif
