/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The throughput policy's machine-wide ceilings below the planner: the
 * tcp_rmem/tcp_wmem triple parser, discovery of rmem_max, wmem_max,
 * tcp_rmem, tcp_wmem and netdev_max_backlog from a procfs tree (one absent:
 * ENOENT, as in a child network namespace), the files they are written to,
 * and their model JSON both ways (older models without them still load). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "backend/np_kernel.h"
#include "model/np_serialize.h"
#include "tap.h"

static char root[64];

static int put(const char *path, const char *value)
{
	char p[256], *slash;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, path);
	for (slash = p + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(p, 0755);
		*slash = '/';
	}
	f = fopen(p, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\n", value);
	return fclose(f);
}

static void test_triple(void)
{
	uint32_t v[3] = { 0, 0, 0 };

	is_int(np_parse_triple("4096\t131072\t6291456", v), 0, "tab-separated triple");
	ok(v[0] == 4096 && v[1] == 131072 && v[2] == 6291456, "its three values");
	is_int(np_parse_triple("4096 16384 4194304\n", v), 0, "blank-separated, newline");
	is_int(np_parse_triple("4096 131072", v), -EINVAL, "two values: EINVAL");
	is_int(np_parse_triple("1 2 3 4", v), -EINVAL, "four values: EINVAL");
	is_int(np_parse_triple("4096 x 1", v), -EINVAL, "not a number: EINVAL");
	is_int(np_parse_triple("4096 1 2147483648", v), -ERANGE, "above INT_MAX: ERANGE");
}

static void test_discover_write(void)
{
	struct np_dev dev = { .ifname = "np0" };
	struct np_error err = { 0 };
	struct np_sysctl s;
	char buf[64] = "", path[128];
	int fd;

	snprintf(root, sizeof(root), "/tmp/np-test-ceil.XXXXXX");
	if (!mkdtemp(root)) {
		ok(0, "mkdtemp");
		return;
	}
	put("proc/sys/net/core/rmem_max", "212992");
	put("proc/sys/net/core/wmem_max", "425984");
	put("proc/sys/net/ipv4/tcp_rmem", "4096\t131072\t6291456");
	put("proc/sys/net/ipv4/tcp_wmem", "4096\t16384\t4194304");
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	np_sysfs_read_sysctl(fd, &s);
	ok(!s.core_mem_err && s.rmem_max == 212992 && s.wmem_max == 425984, "rmem_max, wmem_max");
	ok(!s.tcp_mem_err && s.tcp_rmem[2] == 6291456 && s.tcp_wmem[1] == 16384 &&
	   s.tcp_wmem[2] == 4194304, "tcp_rmem, tcp_wmem");
	is_int(s.backlog_err, -ENOENT, "no netdev_max_backlog (a child namespace): ENOENT");

	/* a child namespace's view since 6.11: there, mode 0444 */
	snprintf(path, sizeof(path), "%s/proc/sys/net/core/wmem_max", root);
	chmod(path, 0444);
	np_sysfs_read_sysctl(fd, &s);
	is_int(s.core_mem_err, -EACCES, "a read-only wmem_max: EACCES, even for root");
	chmod(path, 0644);

	put("proc/sys/net/core/netdev_max_backlog", "1000");
	put("proc/sys/net/ipv4/tcp_wmem", "4096 16384");
	np_sysfs_read_sysctl(fd, &s);
	ok(!s.backlog_err && s.netdev_max_backlog == 1000, "netdev_max_backlog");
	is_int(s.tcp_mem_err, -EINVAL, "a short tcp_wmem: EINVAL");

	is_int(np_sysfs_write_attr(fd, &dev, NP_ATTR_TCP_RMEM, 0, "4096 131072 8388608", &err), 0,
	       "write tcp_rmem");
	np_read_file_at(fd, "proc/sys/net/ipv4/tcp_rmem", buf, sizeof(buf));
	is_str(buf, "4096 131072 8388608", "net.ipv4.tcp_rmem written under ipv4");
	is_int(np_sysfs_write_attr(fd, &dev, NP_ATTR_RMEM_MAX, 0, "626688", &err), 0,
	       "write rmem_max");
	np_read_file_at(fd, "proc/sys/net/core/rmem_max", buf, sizeof(buf));
	is_str(buf, "626688", "net.core.rmem_max written under core");
	is_int(np_sysfs_write_attr(fd, &dev, NP_ATTR_MAX_BACKLOG, 0, "2032", &err), 0,
	       "write netdev_max_backlog");
	np_read_file_at(fd, "proc/sys/net/core/netdev_max_backlog", buf, sizeof(buf));
	is_str(buf, "2032", "net.core.netdev_max_backlog written");
	close(fd);
	{
		char cmd[96];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			ok(0, "cleanup");
	}
}

static void test_json(void)
{
	struct np_sysctl s = { .rmem_max = 626688, .wmem_max = 212992,
			       .tcp_rmem = { 4096, 131072, 6291456 },
			       .tcp_wmem = { 4096, 16384, 6250496 },
			       .backlog_err = -ENOENT }, back;
	struct np_error err = { 0 };
	struct json_object *o = np_sysctl_to_json(&s), *old;

	is_str(json_object_to_json_string_ext(json_object_object_get(o, "tcp_wmem"),
					      JSON_C_TO_STRING_PLAIN), "[4096,16384,6250496]",
	       "tcp_wmem as [MIN, DEFAULT, MAX]");
	is_int(np_sysctl_from_json(o, "sysctl", &back, &err), 0, "read back (%s)", err.msg);
	ok(back.rmem_max == 626688 && back.tcp_wmem[2] == 6250496 && back.tcp_rmem[1] == 131072,
	   "the values round-trip");
	is_int(back.backlog_err, -ENOENT, "the absent backlog round-trips as ENOENT");
	json_object_put(o);

	old = json_tokener_parse("{\"rps_sock_flow_entries\": 0, \"busy_poll\": 0, "
				 "\"busy_read\": 0}");
	is_int(np_sysctl_from_json(old, "sysctl", &back, &err), 0, "an older model loads");
	ok(back.core_mem_err == -ENOENT && back.tcp_mem_err == -ENOENT &&
	   back.backlog_err == -ENOENT, "without the ceilings: ENOENT, nothing planned");
	json_object_object_add(old, "tcp_rmem", json_tokener_parse("[4096, 131072]"));
	ok(np_sysctl_from_json(old, "sysctl", &back, &err) < 0 &&
	   strstr(err.msg, "expected [MIN, DEFAULT, MAX]"), "a short tcp_rmem is refused: %s",
	   err.msg);
	json_object_put(old);
}

int main(void)
{
	test_triple();
	test_discover_write();
	test_json();
	return tap_done();
}
