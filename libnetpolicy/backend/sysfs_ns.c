/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whose devices /sys shows.  A sysfs mount lists the network devices of the
 * namespace that mounted it, not of the process reading it: after
 * `unshare -n` or `nsenter --net`, /sys/class/net/a0 is still the old
 * namespace's a0, while netlink already answers for the new one.  Every
 * sysfs mount of one network namespace shares one superblock (kernfs keys
 * its superblocks by the namespace tag), so a sysfs made now, for this
 * namespace, and never attached anywhere has the st_dev of /sys exactly
 * when /sys is this namespace's.  Making one needs CAP_SYS_ADMIN; without
 * it the device's own ifindex is compared (np_sysfs_dev_ours).
 *
 * That check is the dearest thing a `show` does after process start: the
 * close of the detached mount waits for an RCU grace period (0.1-3 ms on a
 * busy machine).  The CLI asks before it makes its context and the kernel
 * backend asks again, so the verdict is kept for the thread (a network
 * namespace is a thread's) with what it depends on: the thread's network
 * namespace and the superblock /sys shows.  Neither can change under a
 * kept verdict without one of them changing: a mounted /sys pins its
 * superblock, and a superblock's namespace is fixed for its life.  A new
 * sysfs on /sys (cli_own_sysfs) or a setns() is asked afresh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/magic.h>

#include "np_kernel.h"

#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC 0x00000001
#endif
#ifndef FSCONFIG_CMD_CREATE
#define FSCONFIG_CMD_CREATE 6
#endif
#ifndef FSMOUNT_CLOEXEC
#define FSMOUNT_CLOEXEC 0x00000001
#endif

/* A detached sysfs of the calling thread's network namespace, or -errno. */
static int fresh_sysfs(void)
{
#if defined(SYS_fsopen) && defined(SYS_fsconfig) && defined(SYS_fsmount)
	int fs, mnt = -1;

	fs = (int)syscall(SYS_fsopen, "sysfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
		mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, 0);
	if (mnt < 0)
		mnt = -errno;
	close(fs);
	return mnt;
#else
	return -ENOSYS;
#endif
}

/* The last verdict of this thread, and what it was for. */
static _Thread_local struct {
	bool valid;
	dev_t ns_dev, sys_dev;
	ino_t ns_ino;
	int ours;
} memo;

int np_sysfs_netns_at(int rootfd)
{
	struct stat ours, theirs, ns;
	struct statfs sfs;
	bool ns_known;
	int fd, fresh, r;

	fd = openat(rootfd, "sys", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = fstatfs(fd, &sfs) < 0 || fstat(fd, &theirs) < 0 ? -errno : 0;
	close(fd);
	if (r < 0)
		return r;
	/* a fixture tree is nobody's namespace */
	if (sfs.f_type != SYSFS_MAGIC)
		return 1;
	/* the real /proc, not rootfd's: it is this thread's namespace */
	ns_known = stat("/proc/thread-self/ns/net", &ns) == 0;
	if (ns_known && memo.valid && memo.ns_dev == ns.st_dev && memo.ns_ino == ns.st_ino &&
	    memo.sys_dev == theirs.st_dev)
		return memo.ours;
	fresh = fresh_sysfs();
	if (fresh < 0)
		return fresh;
	r = fstat(fresh, &ours) < 0 ? -errno : ours.st_dev == theirs.st_dev;
	close(fresh);
	memo.valid = ns_known && r >= 0;
	if (memo.valid) {
		memo.ns_dev = ns.st_dev;
		memo.ns_ino = ns.st_ino;
		memo.sys_dev = theirs.st_dev;
		memo.ours = r;
	}
	return r;
}

int np_sysfs_same_netns(struct np_error *err)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), r;

	if (fd < 0)
		return np_err(err, -errno, NP_PHASE_DISCOVER, NULL, "/: %s", strerror(errno));
	r = np_sysfs_netns_at(fd);
	close(fd);
	if (r < 0)
		return np_err(err, r, NP_PHASE_DISCOVER, NULL,
			      "cannot tell whose network namespace /sys is: %s", strerror(-r));
	return r;
}

int np_sysfs_dev_ours(int rootfd, const struct np_dev *dev, struct np_error *err)
{
	char path[IFNAMSIZ + 32];
	int ifindex = -1, r;

	snprintf(path, sizeof(path), "sys/class/net/%s/ifindex", dev->ifname);
	r = np_read_int_at(rootfd, path, &ifindex);
	/* a missing device is found by the reads themselves */
	if (r == -ENOENT || (r >= 0 && ifindex == dev->ifindex))
		return 0;
	return np_err(err, -ESTALE, NP_PHASE_DISCOVER, NULL,
		      "/sys/class/net/%s is another network namespace's device (ifindex %d, "
		      "netlink says %d): " NP_SYSFS_STALE_HINT, dev->ifname, ifindex, dev->ifindex);
}
