/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as the files other-owner detection reads (a
 * .link file, a NetworkManager keyfile, a tuned profile that may include
 * itself), below a --root made once per process with NetworkManager and
 * tuned "running" (pid files naming fake /proc entries).  The readers must
 * never crash or hang, read each file once and report at most
 * CLI_OWNERS_MAX owners with terminated strings.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[256];

static void put(const char *rel, const uint8_t *data, size_t size)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

static void dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		abort();
}

static const char *const dirs[] = { "/proc", "/proc/100", "/proc/200", "/run",
	"/run/tuned", "/run/NetworkManager", "/etc", "/etc/tuned", "/etc/tuned/p",
	"/etc/systemd", "/etc/systemd/network", "/etc/NetworkManager",
	"/etc/NetworkManager/system-connections" };
static const char *const files[] = { "/proc/100/comm", "/proc/200/comm",
	"/run/NetworkManager/NetworkManager.pid", "/run/tuned/tuned.pid",
	"/etc/tuned/active_profile", "/etc/systemd/network/10-x.link",
	"/etc/NetworkManager/system-connections/x.nmconnection", "/etc/tuned/p/tuned.conf" };

/* the root goes with the process */
static void remove_root(void)
{
	char path[512];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, files[i]);
		unlink(path);
	}
	for (size_t i = sizeof(dirs) / sizeof(dirs[0]); i-- > 0;) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		rmdir(path);
	}
	rmdir(root);
}

static void make_root(void)
{

	snprintf(root, sizeof(root), "%s/np-fuzz-owners.XXXXXX", np_fuzz_tmpdir());
	if (!mkdtemp(root))
		abort();
	atexit(remove_root);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		dir(dirs[i]);
	put("/proc/100/comm", (const uint8_t *)"NetworkManager\n", 15);
	put("/run/NetworkManager/NetworkManager.pid", (const uint8_t *)"100\n", 4);
	put("/proc/200/comm", (const uint8_t *)"tuned\n", 6);
	put("/run/tuned/tuned.pid", (const uint8_t *)"200\n", 4);
	put("/etc/tuned/active_profile", (const uint8_t *)"p\n", 2);
}

static void check(const struct cli_owners *o)
{
	if (o->n > CLI_OWNERS_MAX)
		abort();
	for (size_t i = 0; i < o->n; i++)
		if (!memchr(o->list[i].name, 0, sizeof(o->list[i].name)) ||
		    !memchr(o->list[i].source, 0, sizeof(o->list[i].source)) ||
		    !memchr(o->list[i].knobs, 0, sizeof(o->list[i].knobs)))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cli c = { .root = root };
	struct cli_owners o;

	if (!root[0])
		make_root();
	put("/etc/systemd/network/10-x.link", data, size);
	put("/etc/NetworkManager/system-connections/x.nmconnection", data, size);
	put("/etc/tuned/p/tuned.conf", data, size);
	/* two devices: the second is matched from what the first read */
	cli_owners_find(&c, "eth0", &o);
	check(&o);
	cli_owners_find(&c, "x", &o);
	check(&o);
	cli_owners_forget();
	return 0;
}
