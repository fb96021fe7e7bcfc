/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* errno names both ways, for models (faults' "errno") and state files
 * (a per-file reading's "<key>_error" text). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "np_private.h"

static const struct {
	const char *name;
	int code;
} errnames[] = {
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "ESRCH", ESRCH }, { "EINTR", EINTR },
	{ "EIO", EIO },
	{ "ENXIO", ENXIO }, { "E2BIG", E2BIG }, { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES }, { "EFAULT", EFAULT }, { "EBUSY", EBUSY }, { "EEXIST", EEXIST },
	{ "ENODEV", ENODEV }, { "EINVAL", EINVAL }, { "ENFILE", ENFILE }, { "ENOSPC", ENOSPC },
	{ "EROFS", EROFS }, { "ERANGE", ERANGE }, { "ENOTTY", ENOTTY }, { "ENOSYS", ENOSYS },
	{ "ENODATA", ENODATA }, { "ETIME", ETIME }, { "EPROTO", EPROTO },
	{ "EOVERFLOW", EOVERFLOW }, { "EMSGSIZE", EMSGSIZE }, { "EOPNOTSUPP", EOPNOTSUPP },
	{ "ENOTSUP", ENOTSUP }, { "ENOBUFS", ENOBUFS }, { "ENETDOWN", ENETDOWN },
	{ "ETIMEDOUT", ETIMEDOUT }, { "ECANCELED", ECANCELED }, { "EALREADY", EALREADY },
	{ "EINPROGRESS", EINPROGRESS }, { "ENOLINK", ENOLINK }, { "EDQUOT", EDQUOT },
	{ "EBADMSG", EBADMSG },
	/* the kernel's own "operation not supported" (include/linux/errno.h),
	 * which some drivers return to user space as it is */
	{ "ENOTSUPP", 524 },
};

int np_errno_parse(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (!errno && !*end && end != s)
		return v > 0 && v < 4096 ? (int)v : 0;
	for (size_t i = 0; i < NP_ARRAY_SIZE(errnames); i++)
		if (!strcmp(s, errnames[i].name))
			return errnames[i].code;
	/* Never strerror() text: it depends on the locale that wrote it. */
	return 0;
}

const char *np_errno_name(int code)
{
	if (code < 0)
		code = -code;
	for (size_t i = 0; i < NP_ARRAY_SIZE(errnames); i++)
		if (errnames[i].code == code)
			return errnames[i].name;
	return NULL;
}
