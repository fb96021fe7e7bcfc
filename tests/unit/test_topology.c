/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Discovery from sysfs/procfs trees: topology, per-device sysfs files,
 * sysctls and attribute writes (tests/fixtures/sysfs), plus rtnetlink on
 * the loopback device every network namespace has. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/np_kernel.h"
#include "fixture.h"
#include "tap.h"

/* A scratch tree in /tmp; files given as "path=content" pairs. */
static char tmproot[64];

static int mktree(const char *const *files)
{
	char cmd[256];

	if (tmproot[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmproot);
		if (system(cmd) != 0)
			return -1;
	}
	snprintf(tmproot, sizeof(tmproot), "/tmp/np-test-topo.XXXXXX");
	if (!mkdtemp(tmproot))
		return -1;
	for (; *files; files++) {
		char path[512], *eq, *slash;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", tmproot, *files);
		eq = strchr(path, '=');
		*eq = '\0';
		for (slash = path + strlen(tmproot) + 1; (slash = strchr(slash, '/')); slash++) {
			*slash = '\0';
			mkdir(path, 0755);
			*slash = '/';
		}
		f = fopen(path, "w");
		if (!f)
			return -1;
		fprintf(f, "%s\n", eq + 1);
		fclose(f);
	}
	return open(tmproot, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void rmtree(void)
{
	char cmd[256];

	if (!tmproot[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmproot);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmproot);
	tmproot[0] = '\0';
}

/* np_topology_read of the fixture tree fd: checks that it succeeds, the
 * check named by what. */
static bool read_topo(int fd, struct np_topology *t, const char *what)
{
	struct np_error err = { 0 };
	int r = np_topology_read(fd, t, &err);

	is_int(r, 0, "%s (%s)", what, err.msg);
	return r == 0;
}

static void test_two_sockets(void)
{
	struct np_topology t;
	int fd = open_fixture("2s-mlx5");
	unsigned seen[16] = { 0 };

	if (!read_topo(fd, &t, "2s: topology read"))
		return;
	is_int(t.nr_cpus, 32, "2s: 32 CPUs");
	is_str(list(&t.possible), "0-31", "2s: possible");
	is_str(list(&t.online), "0-31", "2s: online");
	is_str(list(&t.isolated), "2-3", "2s: isolated");
	is_str(list(&t.nohz_full), "2-3", "2s: nohz_full");
	is_int(t.nr_nodes, 2, "2s: 2 nodes");
	is_str(list(&t.node_cpus[0]), "0-7,16-23", "2s: node 0 CPUs");
	is_str(list(&t.node_cpus[1]), "8-15,24-31", "2s: node 1 CPUs");
	is_int(t.nr_cores, 16, "2s: 16 physical cores");
	is_int(t.nr_packages, 2, "2s: 2 packages");
	ok(t.smt, "2s: SMT");
	is_int(t.cpus[0].core, 0, "2s: cpu0 core 0");
	is_int(t.cpus[16].core, 0, "2s: cpu16 is cpu0's sibling");
	is_int(t.cpus[0].thread, 0, "2s: cpu0 thread 0");
	is_int(t.cpus[16].thread, 1, "2s: cpu16 thread 1");
	is_int(t.cpus[4].core_id, 8, "2s: cpu4 core_id 8 (sparse)");
	is_int(t.cpus[4].core, 4, "2s: cpu4 dense core 4");
	is_int(t.cpus[8].core, 8, "2s: cpu8 (package 1, core_id 0) is its own core");
	is_int(t.cpus[8].package_id, 1, "2s: cpu8 package 1");
	is_int(t.cpus[24].core, 8, "2s: cpu24 sibling of cpu8");
	is_int(t.cpus[24].thread, 1, "2s: cpu24 thread 1");
	is_int(t.cpus[9].node, 1, "2s: cpu9 on node 1");
	is_int(t.cpus[17].node, 0, "2s: cpu17 on node 0");
	bool all_online = true, two_each = true;
	for (unsigned i = 0; i < t.nr_cpus; i++) {
		all_online &= t.cpus[i].online;
		if (t.cpus[i].core >= 0 && t.cpus[i].core < 16)
			seen[t.cpus[i].core]++;
	}
	for (unsigned i = 0; i < 16; i++)
		two_each &= seen[i] == 2;
	ok(all_online, "2s: every CPU online");
	is_int(t.nr_llcs, 0, "2s: the fixture has no cacheinfo: LLCs unknown");
	is_int(t.cpus[3].llc, -1, "2s: llc -1");
	ok(two_each, "2s: every core has exactly two threads");
	np_topology_clear(&t);
	close(fd);
}

static void test_vm(void)
{
	struct np_topology t;
	int fd = open_fixture("vm-virtio");

	if (!read_topo(fd, &t, "vm: topology read without topology files or nodes"))
		return;
	is_int(t.nr_cpus, 1, "vm: 1 CPU");
	is_int(t.nr_nodes, 1, "vm: one node without a node directory");
	is_str(list(&t.node_cpus[0]), "0", "vm: node 0 has the CPU");
	is_int(t.nr_cores, 1, "vm: 1 core");
	is_int(t.nr_packages, 1, "vm: 1 package");
	ok(!t.smt, "vm: no SMT");
	ok(np_cpumask_empty(&t.isolated), "vm: absent isolated is empty");
	ok(np_cpumask_empty(&t.nohz_full), "vm: absent nohz_full is empty");
	ok(t.cpus[0].online && t.cpus[0].core == 0 && t.cpus[0].thread == 0 && t.cpus[0].node == 0,
	   "vm: cpu0 is core 0 thread 0 node 0");
	np_topology_clear(&t);
	close(fd);
}

static void test_offline(void)
{
	struct np_topology t;
	int fd = open_fixture("offline-cpu");

	if (!read_topo(fd, &t, "offline: topology read"))
		return;
	is_int(t.nr_cpus, 8, "offline: nr_cpus is highest possible + 1");
	is_str(list(&t.online), "0-1,3", "offline: online");
	ok(!t.cpus[2].online && !t.cpus[5].online, "offline: cpu2, cpu5 not online");
	ok(t.cpus[3].online, "offline: cpu3 online");
	is_int(t.cpus[2].core, 0, "offline: offline CPU zeroed");
	is_int(t.nr_cores, 3, "offline: 3 cores");
	is_int(t.cpus[3].core, 2, "offline: cpu3 is core 2 (dense)");
	ok(!t.smt, "offline: no SMT");
	ok(np_cpumask_empty(&t.isolated), "offline: empty isolated file");
	ok(np_cpumask_empty(&t.nohz_full), "offline: nohz_full '  (null)' (padded to 8 possible CPUs) is empty");
	is_int(t.nr_nodes, 1, "offline: one node");
	is_str(list(&t.node_cpus[0]), "0-1,3", "offline: node 0 has the online CPUs");
	np_topology_clear(&t);
	close(fd);
}

static void test_odd_trees(void)
{
	struct np_error err = { 0 };
	struct np_topology t;
	int fd, r;

	fd = mktree((const char *const[]){ "sys/devices/system/cpu/possible=0-4095",
					   "sys/devices/system/cpu/online=0-4095", NULL });
	r = np_topology_read(fd, &t, &err);
	is_int(r, -E2BIG, "more than NP_CPUS_MAX CPUs: -E2BIG");
	ok(strstr(err.msg, "2047") != NULL, "E2BIG message names the limit: %s", err.msg);
	close(fd);

	np_error_clear(&err);
	fd = mktree((const char *const[]){ "sys/devices/system/cpu/online=0", NULL });
	r = np_topology_read(fd, &t, &err);
	is_int(r, -ENOENT, "no possible file: -ENOENT");
	ok(strstr(err.msg, "possible") != NULL, "message names the file: %s", err.msg);
	close(fd);

	/* cpu1 lacks topology files; its fallback must not merge it with cpu0
	 * (which really is package 0, core_id 1) */
	np_error_clear(&err);
	fd = mktree((const char *const[]){
		"sys/devices/system/cpu/possible=0-1", "sys/devices/system/cpu/online=0-1",
		"sys/devices/system/cpu/cpu0/topology/core_id=1",
		"sys/devices/system/cpu/cpu0/topology/physical_package_id=0",
		"sys/devices/system/node/node0/cpulist=0",
		"sys/devices/system/node/node2/cpulist=1",
		"sys/devices/system/node/node3/cpulist=", NULL });
	r = np_topology_read(fd, &t, &err);
	is_int(r, 0, "mixed tree read (%s)", err.msg);
	if (!r) {
		is_int(t.nr_cores, 2, "CPU without topology is its own core");
		ok(!t.smt, "no SMT from the fallback");
		is_int(t.nr_nodes, 4, "sparse node ids: nr_nodes is highest + 1");
		ok(np_cpumask_empty(&t.node_cpus[1]), "missing node1 has no CPUs");
		is_int(t.cpus[1].node, 2, "cpu1 on node 2");
		np_topology_clear(&t);
	}
	close(fd);
	rmtree();
}

#define CPU "sys/devices/system/cpu/"

/* The last-level cache and the cluster of each CPU: 8 CPUs, 4 cores with
 * SMT (CPU n and n + 4), L1d, L1i and L2 per core, an L3 per 2 cores (an
 * EPYC CCX in small); a cluster per core. */
static void test_cache(void)
{
	static const char *const l3[] = { "0-1,4-5", "0-1,4-5", "2-3,6-7", "2-3,6-7" };
	const char *files[8 * 16 + 8];
	char buf[8 * 16][96];
	struct np_error err = { 0 };
	struct np_topology t;
	unsigned n = 0, b = 0;
	int fd, r;

	files[n++] = CPU "possible=0-7";
	files[n++] = CPU "online=0-7";
	for (unsigned c = 0; c < 8; c++) {
		unsigned core = c % 4;

#define PUT(...) (snprintf(buf[b], sizeof(buf[b]), __VA_ARGS__), files[n++] = buf[b++])
		PUT(CPU "cpu%u/topology/core_id=%u", c, core);
		PUT(CPU "cpu%u/topology/physical_package_id=0", c);
		PUT(CPU "cpu%u/topology/cluster_cpus_list=%u,%u", c, core, core + 4);
		PUT(CPU "cpu%u/cache/index0/level=1", c);
		PUT(CPU "cpu%u/cache/index0/type=Data", c);
		PUT(CPU "cpu%u/cache/index0/shared_cpu_list=%u,%u", c, core, core + 4);
		PUT(CPU "cpu%u/cache/index1/level=1", c);
		PUT(CPU "cpu%u/cache/index1/type=Instruction", c);
		PUT(CPU "cpu%u/cache/index2/level=2", c);
		PUT(CPU "cpu%u/cache/index2/type=Unified", c);
		PUT(CPU "cpu%u/cache/index2/shared_cpu_list=%u,%u", c, core, core + 4);
		PUT(CPU "cpu%u/cache/index3/level=3", c);
		PUT(CPU "cpu%u/cache/index3/type=Unified", c);
		PUT(CPU "cpu%u/cache/index3/shared_cpu_list=%s", c, l3[core]);
	}
	files[n] = NULL;
	fd = mktree(files);
	r = np_topology_read(fd, &t, &err);
	is_int(r, 0, "cache: tree read (%s)", err.msg);
	if (!r) {
		is_int(t.nr_llcs, 2, "cache: 2 LLCs (index3, level 3)");
		ok(t.cpus[0].llc == 0 && t.cpus[1].llc == 0 && t.cpus[4].llc == 0 &&
		   t.cpus[5].llc == 0, "cache: CPUs 0-1,4-5 share LLC 0");
		ok(t.cpus[2].llc == 1 && t.cpus[3].llc == 1 && t.cpus[6].llc == 1 &&
		   t.cpus[7].llc == 1, "cache: CPUs 2-3,6-7 share LLC 1");
		is_int(t.nr_clusters, 4, "cache: 4 clusters (one per core here)");
		ok(t.cpus[1].cluster == 1 && t.cpus[5].cluster == 1 && t.cpus[2].cluster == 2,
		   "cache: a cluster is its cluster_cpus_list");
		is_int(np_cpu_llc(&t, 6), 1, "cache: np_cpu_llc");
		np_topology_clear(&t);
	}
	close(fd);

	/* no index3 (the last level the kernel reports is the L2, shared by
	 * two cores): the highest unified level is the LLC; no clusters */
	n = 0;
	for (unsigned i = 0; files[i]; i++)
		if (!strstr(files[i], "index3") && !strstr(files[i], "cluster"))
			files[n++] = files[i];
	files[n] = NULL;
	for (unsigned i = 0; files[i]; i++)
		if (strstr(files[i], "index2/shared_cpu_list")) {
			unsigned c = (unsigned)atoi(strstr(files[i], "cpu/cpu") + 7);
			char l2[96];

			snprintf(l2, sizeof(l2), CPU "cpu%u/cache/index2/shared_cpu_list=%s", c,
				 l3[c % 4]);
			files[i] = strdup(l2);
		}
	fd = mktree(files);
	r = np_topology_read(fd, &t, &err);
	is_int(r, 0, "cache without index3: tree read (%s)", err.msg);
	if (!r) {
		is_int(t.nr_llcs, 2, "cache without index3: the L2s are the LLCs");
		ok(t.cpus[5].llc == 0 && t.cpus[6].llc == 1, "cache without index3: by shared_cpu_list");
		is_int(t.nr_clusters, 0, "cache without index3: no cluster files, no clusters");
		is_int(t.cpus[0].cluster, -1, "cache without index3: cluster -1");
		np_topology_clear(&t);
	}
	close(fd);
	for (unsigned i = 0; files[i]; i++)
		if (strstr(files[i], "index2/shared_cpu_list"))
			free((char *)files[i]);

	/* one online CPU without cacheinfo: no LLCs at all, as before */
	fd = mktree((const char *const[]){
		CPU "possible=0-1", CPU "online=0-1",
		CPU "cpu0/cache/index0/level=3", CPU "cpu0/cache/index0/type=Unified",
		CPU "cpu0/cache/index0/shared_cpu_list=0-1", NULL });
	r = np_topology_read(fd, &t, &err);
	is_int(r, 0, "partial cacheinfo: tree read (%s)", err.msg);
	if (!r) {
		is_int(t.nr_llcs, 1, "partial cacheinfo: cpu0's list covers cpu1, which is not read");
		np_topology_clear(&t);
	}
	close(fd);
	fd = mktree((const char *const[]){
		CPU "possible=0-2", CPU "online=0-2",
		CPU "cpu0/cache/index0/level=3", CPU "cpu0/cache/index0/type=Unified",
		CPU "cpu0/cache/index0/shared_cpu_list=0-1", NULL });
	r = np_topology_read(fd, &t, &err);
	is_int(r, 0, "missing cacheinfo: tree read (%s)", err.msg);
	if (!r) {
		is_int(t.nr_llcs, 0, "missing cacheinfo on cpu2: LLCs unknown");
		ok(t.cpus[0].llc == -1 && t.cpus[2].llc == -1, "missing cacheinfo: every llc -1");
		np_topology_clear(&t);
	}
	close(fd);
	rmtree();
}

static void test_live(void)
{
	struct np_error err = { 0 };
	struct np_topology t;
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC), r;

	r = np_topology_read(fd, &t, &err);
	is_int(r, 0, "live: topology of this machine (%s)", err.msg);
	if (!r) {
		is_int(np_cpumask_weight(&t.online), sysconf(_SC_NPROCESSORS_ONLN),
		       "live: online CPUs match sysconf");
		ok(t.nr_cores >= 1 && t.nr_packages >= 1 && t.nr_nodes >= 1,
		   "live: %u cores, %u packages, %u nodes", t.nr_cores, t.nr_packages,
		   t.nr_nodes);
		/* the machine's caches, where its kernel reports them: only
		 * that they are consistent, not what they are */
		if (access("/sys/devices/system/cpu/cpu0/cache/index0/level", F_OK) == 0) {
			bool in_range = true;

			np_cpumask_for_each(c, &t.online)
				in_range &= np_cpu_llc(&t, (unsigned)c) >= 0 || !t.nr_llcs;
			ok(t.nr_llcs <= np_cpumask_weight(&t.online) && in_range,
			   "live: %u LLCs, every online CPU in one", t.nr_llcs);
		} else {
			is_int(t.nr_llcs, 0, "live: no cacheinfo, no LLCs");
		}
		np_topology_clear(&t);
	}
	close(fd);
}

/* np_sysfs_read_dev of dev on the fixture tree fd whose topology is t:
 * checks that it succeeds, the check named by tag. */
static bool read_dev(int fd, struct np_dev *dev, const struct np_topology *t, const char *tag)
{
	struct np_error err = { 0 };
	int r = np_sysfs_read_dev(fd, dev, t, &err);

	is_int(r, 0, "%s: sysfs read (%s)", tag, err.msg);
	return r == 0;
}

static void test_sysfs_mlx5(void)
{
	struct np_error err = { 0 };
	struct np_topology t;
	struct np_dev dev = { .ifname = "ens1f0" };
	struct np_sysctl sys;
	int fd = open_fixture("2s-mlx5"), r;

	np_topology_read(fd, &t, &err);
	if (read_dev(fd, &dev, &t, "mlx5")) {
		is_int(dev.numa_node, 1, "mlx5: numa_node 1");
		is_str(list(&dev.local_cpus), "8-15,24-31", "mlx5: local CPUs");
		is_int(dev.n_rxq, 8, "mlx5: 8 rx queues");
		is_int(dev.n_txq, 8, "mlx5: 8 tx queues");
		ok(!dev.rxq[0].rps_err && np_cpumask_empty(&dev.rxq[0].rps_cpus),
		   "mlx5: rx-0 no RPS");
		is_str(list(&dev.rxq[3].rps_cpus), "8-15", "mlx5: rx-3 rps_cpus");
		is_int(dev.rxq[3].rps_flow_cnt, 4096, "mlx5: rx-3 rps_flow_cnt");
		is_str(list(&dev.txq[1].xps_cpus), "9", "mlx5: tx-1 xps_cpus");
		ok(!dev.txq[7].xps_err && !dev.txq[7].xps_rxqs_err, "mlx5: tx-7 read");
		is_int(dev.napi.err, 0, "mlx5: napi files read");
		is_str(dev.driver, "mlx5_core", "mlx5: driver from the device link");
		is_str(dev.bus_info, "0000:81:00.0", "mlx5: bus_info from the device link");
	}
	np_dev_clear(&dev);

	snprintf(dev.driver, sizeof(dev.driver), "ethtool-said");
	snprintf(dev.ifname, sizeof(dev.ifname), "ens1f0");
	np_sysfs_read_dev(fd, &dev, &t, &err);
	is_str(dev.driver, "ethtool-said", "mlx5: a driver name already known is kept");
	np_dev_clear(&dev);

	np_error_clear(&err);
	snprintf(dev.ifname, sizeof(dev.ifname), "nosuch0");
	r = np_sysfs_read_dev(fd, &dev, &t, &err);
	is_int(r, -ENODEV, "missing device: -ENODEV");
	is_str(err.msg, "no such device", "missing device message");
	np_dev_clear(&dev);

	np_error_clear(&err);
	snprintf(dev.ifname, sizeof(dev.ifname), "../x");
	r = np_sysfs_read_dev(fd, &dev, &t, &err);
	is_int(r, -EINVAL, "a name with '/' is refused");
	np_dev_clear(&dev);

	np_sysfs_read_sysctl(fd, &sys);
	ok(!sys.flow_entries_err && !sys.busy_err && !sys.rps_sock_flow_entries,
	   "mlx5 tree: sysctls read");
	np_topology_clear(&t);
	close(fd);
}

static void test_sysfs_vm(void)
{
	struct np_error err = { 0 };
	struct np_topology t;
	struct np_dev dev = { .ifname = "eth0" };
	struct np_sysctl sys;
	int fd = open_fixture("vm-virtio");

	np_topology_read(fd, &t, &err);
	if (read_dev(fd, &dev, &t, "virtio")) {
		is_int(dev.numa_node, -1, "virtio: numa_node from the PCI parent, -1");
		is_str(list(&dev.local_cpus), "0", "virtio: local CPUs");
		is_int(dev.n_rxq, 2, "virtio: 2 rx queues");
		is_int(dev.n_txq, 2, "virtio: 2 tx queues");
		is_int(dev.napi.err, -ENOENT, "virtio: no napi files is an err, not a failure");
		is_int(dev.txq[1].xps_rxqs_err, -ENOENT, "virtio: tx-1 xps_rxqs absent");
		is_str(list(&dev.txq[1].xps_cpus), "0", "virtio: tx-1 xps_cpus");
		is_str(dev.driver, "virtio_net", "virtio: driver");
		is_str(dev.bus_info, "0000:00:03.0", "virtio: bus_info is the PCI function");
	}
	np_dev_clear(&dev);
	np_sysfs_read_sysctl(fd, &sys);
	ok(sys.flow_entries_err == -ENOENT && sys.busy_err == -ENOENT,
	   "virtio tree: absent sysctls recorded");
	np_topology_clear(&t);
	close(fd);
}

static void test_sysfs_offline(void)
{
	struct np_error err = { 0 };
	struct np_topology t;
	struct np_dev dev = { .ifname = "eth0" };
	struct np_sysctl sys;
	int fd = open_fixture("offline-cpu");

	np_topology_read(fd, &t, &err);
	if (read_dev(fd, &dev, &t, "e1000e")) {
		is_str(list(&dev.local_cpus), "0-1,3", "e1000e: local CPUs limited to online");
		is_int(dev.n_rxq, 1, "e1000e: 1 rx queue");
		is_int(dev.txq[0].xps_err, -ENOENT, "e1000e: single queue xps_cpus ENOENT");
		is_int(dev.txq[0].xps_rxqs_err, 0, "e1000e: xps_rxqs read");
		is_int(dev.napi.defer_hard_irqs, 2, "e1000e: napi_defer_hard_irqs");
		is_int(dev.napi.gro_flush_timeout, 20000, "e1000e: gro_flush_timeout");
	}
	np_dev_clear(&dev);

	snprintf(dev.ifname, sizeof(dev.ifname), "veth0");
	read_dev(fd, &dev, &t, "veth");
	is_int(dev.numa_node, -1, "veth: no NUMA node");
	is_str(list(&dev.local_cpus), "0-1,3", "veth: local CPUs are the online ones");
	is_str(dev.driver, "", "veth: no device, no driver from sysfs");
	np_dev_clear(&dev);

	np_sysfs_read_sysctl(fd, &sys);
	ok(!sys.flow_entries_err && sys.rps_sock_flow_entries == 32768 && sys.busy_poll == 50 &&
	   sys.busy_read == 50, "offline tree: sysctl values");
	np_topology_clear(&t);
	close(fd);
}

static void check_write(int fd, enum np_attr attr, unsigned index, const char *file,
			const char *value)
{
	struct np_dev dev = { .ifname = "np0" };
	struct np_error err = { 0 };
	char buf[64] = "";
	int r;

	r = np_sysfs_write_attr(fd, &dev, attr, index, value, &err);
	is_int(r, 0, "write %s (%s)", file, err.msg);
	np_read_file_at(fd, file, buf, sizeof(buf));
	is_str(buf, value, "%s holds what was written", file);
}

static void test_write(void)
{
	struct np_dev dev = { .ifname = "np0" };
	struct np_error err = { 0 };
	int fd, r;

	fd = mktree((const char *const[]){
		"sys/class/net/np0/queues/rx-1/rps_cpus=0",
		"sys/class/net/np0/queues/rx-1/rps_flow_cnt=0",
		"sys/class/net/np0/queues/tx-2/xps_cpus=0",
		"sys/class/net/np0/queues/tx-2/xps_rxqs=0",
		"sys/class/net/np0/napi_defer_hard_irqs=0",
		"sys/class/net/np0/gro_flush_timeout=0",
		"proc/irq/42/smp_affinity_list=0",
		"proc/sys/net/core/rps_sock_flow_entries=0",
		"proc/sys/net/core/busy_poll=0",
		"proc/sys/net/core/busy_read=0", NULL });
	check_write(fd, NP_ATTR_RPS_CPUS, 1, "sys/class/net/np0/queues/rx-1/rps_cpus", "f");
	check_write(fd, NP_ATTR_RPS_FLOW_CNT, 1, "sys/class/net/np0/queues/rx-1/rps_flow_cnt",
		    "2048");
	check_write(fd, NP_ATTR_XPS_CPUS, 2, "sys/class/net/np0/queues/tx-2/xps_cpus", "4");
	check_write(fd, NP_ATTR_XPS_RXQS, 2, "sys/class/net/np0/queues/tx-2/xps_rxqs", "2");
	check_write(fd, NP_ATTR_NAPI_DEFER_HARD_IRQS, 0, "sys/class/net/np0/napi_defer_hard_irqs",
		    "2");
	check_write(fd, NP_ATTR_GRO_FLUSH_TIMEOUT, 0, "sys/class/net/np0/gro_flush_timeout",
		    "200000");
	check_write(fd, NP_ATTR_IRQ_AFFINITY, 42, "proc/irq/42/smp_affinity_list", "1-3");
	check_write(fd, NP_ATTR_SOCK_FLOW_ENTRIES, 0, "proc/sys/net/core/rps_sock_flow_entries",
		    "32768");
	check_write(fd, NP_ATTR_BUSY_POLL, 0, "proc/sys/net/core/busy_poll", "50");
	check_write(fd, NP_ATTR_BUSY_READ, 0, "proc/sys/net/core/busy_read", "50");

	r = np_sysfs_write_attr(fd, &dev, NP_ATTR_RPS_CPUS, 7, "1", &err);
	is_int(r, -ENOENT, "write to a missing queue: -ENOENT");
	is_int(err.phase, NP_PHASE_APPLY, "write error phase is apply");
	is_str(err.knob, "rps", "write error knob");
	is_str(err.msg, "/sys/class/net/np0/queues/rx-7/rps_cpus: No such file or directory",
	       "write error message");
	np_error_clear(&err);
	r = np_sysfs_write_attr(fd, &dev, NP_ATTR_IRQ_AFFINITY, 43, "1", &err);
	is_str(err.knob, "irq-affinity", "IRQ write error knob");
	np_error_clear(&err);
	r = np_sysfs_write_attr(fd, &dev, NP_ATTR__COUNT, 0, "1", &err);
	is_int(r, -EINVAL, "unknown attribute: -EINVAL");
	close(fd);
	rmtree();
}

static void test_rtnl(void)
{
	struct np_dev dev = { 0 };
	struct np_error err = { 0 };
	struct nl_sock *sk = NULL;
	char **names = NULL;
	size_t n = 0;
	int r;

	/* one socket for every request, as the kernel backend holds it */
	r = np_rtnl_open(&sk, &err);
	is_int(r, 0, "rtnl: socket (%s)", err.msg);
	if (r < 0)
		return;

	r = np_rtnl_read(sk, "lo", &dev, &err);
	is_int(r, 0, "rtnl: lo (%s)", err.msg);
	if (!r) {
		ok(dev.ifindex > 0, "rtnl: lo has an ifindex");
		ok(dev.mtu > 0, "rtnl: lo mtu %u", dev.mtu);
		ok(dev.num_tx_queues >= 1 && dev.num_rx_queues >= 1, "rtnl: lo has queues");
		ok(dev.operstate[0], "rtnl: lo operstate '%s'", dev.operstate);
	}
	np_error_clear(&err);
	r = np_rtnl_read(sk, "npnosuch0", &dev, &err);
	is_int(r, -ENODEV, "rtnl: missing device -ENODEV");
	is_str(err.msg, "no such device", "rtnl: missing device message");

	np_error_clear(&err);
	r = np_rtnl_list(sk, &names, &n, &err);
	is_int(r, 0, "rtnl: list (%s)", err.msg);
	bool has_lo = false, sorted = true;
	for (size_t i = 0; i < n; i++) {
		has_lo |= !strcmp(names[i], "lo");
		if (i && strcmp(names[i - 1], names[i]) > 0)
			sorted = false;
	}
	ok(!has_lo, "rtnl: list leaves out lo");
	ok(sorted, "rtnl: list sorted (%zu names)", n);
	np_list_free(names, n);
	np_rtnl_close(sk);
}

int main(void)
{
	test_two_sockets();
	test_vm();
	test_offline();
	test_odd_trees();
	test_cache();
	if (access("/sys/devices/system/cpu/online", R_OK) == 0)
		test_live();	/* this machine: not a build chroot without sysfs */
	else
		skip("live: no sysfs at /sys here (a build chroot): not read");
	test_sysfs_mlx5();
	test_sysfs_vm();
	test_sysfs_offline();
	test_write();
	test_rtnl();
	return tap_done();
}
