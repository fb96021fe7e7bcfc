/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The floor under `show`: a process that reads what only sysfs offers
 * about each queue of DEVICE (rps_cpus and rps_flow_cnt of every rx-N,
 * xps_cpus and xps_rxqs of every tx-N), as discovery does (open, one read,
 * close, below one fd of queues/), and nothing else.  bench_scale.sh times
 * it beside `ethtool -l` and `show --json`: what `show` costs above it is
 * netpolicy's own.
 *
 * Usage: np_bench_queue_files DEVICE   (in the device's namespace)
 * Exit 0 with the number of files read on stdout; 1 if none could be.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int read_one(int qfd, const char *queue, const char *file)
{
	char path[96], buf[1024];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", queue, file);
	fd = openat(qfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	(void)!read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return 1;
}

int main(int argc, char **argv)
{
	char path[96];
	struct dirent *de;
	DIR *d;
	int qfd, n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DEVICE\n", argv[0]);
		return 2;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", argv[1]);
	qfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = qfd < 0 ? NULL : fdopendir(dup(qfd));
	if (!d) {
		perror(path);
		return 1;
	}
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "rx-", 3)) {
			n += read_one(qfd, de->d_name, "rps_cpus");
			n += read_one(qfd, de->d_name, "rps_flow_cnt");
		} else if (!strncmp(de->d_name, "tx-", 3)) {
			n += read_one(qfd, de->d_name, "xps_cpus");
			n += read_one(qfd, de->d_name, "xps_rxqs");
		}
	}
	closedir(d);
	close(qfd);
	printf("%d\n", n);
	return n ? 0 : 1;
}
