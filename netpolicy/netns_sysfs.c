/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `unshare -n` and `nsenter --net` leave /sys showing the old network
 * namespace's devices (np_sysfs_same_netns()), and the library refuses to
 * work on a device through it.  Run as root in such a namespace, netpolicy
 * does what `ip netns exec` does, for itself and what it starts: a mount
 * namespace of its own, its mounts slaves of the machine's (nothing mounted
 * here is seen outside; the state directory is the same directory), with a
 * sysfs of this network namespace mounted on /sys.  When that cannot be
 * done, nothing is changed and the library's refusal says why.
 */
#include <sched.h>
#include <sys/mount.h>

#include "cli.h"

void cli_own_sysfs(void)
{
	/* 1: ours; below 0: cannot be told (not root), the library checks
	 * each device's ifindex instead */
	if (np_sysfs_same_netns(NULL) != 0)
		return;
	if (unshare(CLONE_NEWNS) < 0)
		return;
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		return;
	(void)mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
}
