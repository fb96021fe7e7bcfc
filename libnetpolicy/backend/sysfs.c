/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-device and per-queue sysfs files, and the net.core sysctls, below
 * rootfd.  A file that is missing or refuses to be read is recorded in the
 * knob's err, never a failure of the whole discovery. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "np_kernel.h"

/* 2048 bits in 32-bit groups: 64 * 9 characters. */
#define MASK_LEN 1024
#define LIST_LEN 16384

static int devpath(char *buf, size_t len, const char *ifname, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int devpath(char *buf, size_t len, const char *ifname, const char *fmt, ...)
{
	va_list ap;
	int n, m;

	n = snprintf(buf, len, "sys/class/net/%s/", ifname);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= len - (size_t)n)
		return -ENAMETOOLONG;
	return 0;
}

static int read_hex(int rootfd, const char *path, struct np_cpumask *ret)
{
	char buf[MASK_LEN];
	int r;

	r = np_read_file_at(rootfd, path, buf, sizeof(buf));
	if (r < 0)
		return r;
	return np_cpumask_parse_hex(buf, ret);
}

static bool read_local_cpus(int rootfd, const char *ifname, const char *where,
			    struct np_cpumask *ret)
{
	char path[128], *buf;
	bool ok = false;

	if (devpath(path, sizeof(path), ifname, "%s/local_cpulist", where) < 0)
		return false;
	buf = malloc(LIST_LEN);
	if (buf && np_read_file_at(rootfd, path, buf, LIST_LEN) >= 0)
		ok = !np_cpumask_parse_list(buf, ret);
	free(buf);
	return ok;
}

/* The bus device: "device/", or for virtio (no PCI attributes of its own)
 * the PCI function above it, "device/../".  Local CPUs that are offline
 * are of no use; none at all means "anywhere". */
static void read_numa(int rootfd, struct np_dev *dev, const struct np_topology *topo)
{
	static const char *const where[] = { "device", "device/.." };
	struct np_cpumask m;
	char path[128];
	int node = -1;

	np_cpumask_zero(&dev->local_cpus);
	for (size_t i = 0; i < NP_ARRAY_SIZE(where); i++) {
		if (devpath(path, sizeof(path), dev->ifname, "%s/numa_node", where[i]) < 0 ||
		    np_read_int_at(rootfd, path, &node) == -ENOENT)
			continue;
		if (read_local_cpus(rootfd, dev->ifname, where[i], &m)) {
			if (topo)
				np_cpumask_and(&m, &m, &topo->online);
			dev->local_cpus = m;
		}
		break;
	}
	dev->numa_node = node < 0 ? -1 : node;
	if (np_cpumask_empty(&dev->local_cpus) && topo)
		dev->local_cpus = topo->online;
}

/* What ethtool's drvinfo would say, for trees ethtool cannot see
 * (fixtures); the ethtool reading wins when there is one.  devlink: the
 * name the device/ link points to, "" when it could not be read. */
static void read_driver(int rootfd, struct np_dev *dev, const char *devlink)
{
	char path[128], sub[32] = "", target[PATH_MAX];
	ssize_t n;

	if (!dev->driver[0] &&
	    !devpath(path, sizeof(path), dev->ifname, "device/driver"))
		(void)np_read_link_name_at(rootfd, path, dev->driver, sizeof(dev->driver));
	if (dev->bus_info[0] || devpath(path, sizeof(path), dev->ifname, "device") < 0)
		return;
	if (!devpath(path, sizeof(path), dev->ifname, "device/subsystem"))
		(void)np_read_link_name_at(rootfd, path, sub, sizeof(sub));
	if (strcmp(sub, "virtio") != 0) {
		if (devlink[0])
			memcpy(dev->bus_info, devlink, strlen(devlink) + 1);
		return;
	}
	/* virtio_net reports the PCI function: the directory above virtioN in
	 * the class link ".../0000:00:03.0/virtio2/net/eth0". */
	snprintf(path, sizeof(path), "sys/class/net/%s", dev->ifname);
	n = readlinkat(rootfd, path, target, sizeof(target) - 1);
	if (n < 0)
		return;
	target[n] = '\0';
	for (int i = 0; i < 4; i++) {
		char *slash = strrchr(target, '/');

		if (!slash)
			return;
		if (i < 3)
			*slash = '\0';
		else if (strlen(slash + 1) < sizeof(dev->bus_info))
			strcpy(dev->bus_info, slash + 1);
	}
}

struct queue_counts {
	unsigned rx, tx;
};

static int count_queue(const char *name, void *arg)
{
	struct queue_counts *n = arg;
	unsigned q;
	char kind[3], tail;

	if (sscanf(name, "%2[rtx]-%u%c", kind, &q, &tail) != 2 || q >= 1u << 16)
		return 0;
	if (!strcmp(kind, "rx") && q + 1 > n->rx)
		n->rx = q + 1;
	else if (!strcmp(kind, "tx") && q + 1 > n->tx)
		n->tx = q + 1;
	return 0;
}

/* rx-N and tx-N in queues/ (open at qfd): the real queue counts (highest
 * N + 1). */
static void count_queues(int qfd, unsigned *n_rx, unsigned *n_tx)
{
	struct queue_counts n = { 0 };

	/* a failing read ends the listing with what it found, as readdir(3)
	 * would */
	(void)np_dir_names(qfd, count_queue, &n);
	*n_rx = n.rx;
	*n_tx = n.tx;
}

/* Per-queue files relative to the queues/ directory: one path lookup of
 * the device instead of one per file. */
static void read_rxq(int qfd, unsigned q, struct np_rxq *rx)
{
	char path[48];

	snprintf(path, sizeof(path), "rx-%u/rps_cpus", q);
	rx->rps_err = read_hex(qfd, path, &rx->rps_cpus);
	snprintf(path, sizeof(path), "rx-%u/rps_flow_cnt", q);
	rx->flow_err = np_read_u32_at(qfd, path, &rx->rps_flow_cnt);
}

/* xps_cpus answers ENOENT on single-queue devices: recorded, not fatal. */
static void read_txq(int qfd, unsigned q, struct np_txq *tx)
{
	char path[48];

	snprintf(path, sizeof(path), "tx-%u/xps_cpus", q);
	tx->xps_err = read_hex(qfd, path, &tx->xps_cpus);
	snprintf(path, sizeof(path), "tx-%u/xps_rxqs", q);
	tx->xps_rxqs_err = read_hex(qfd, path, &tx->xps_rxqs);
}

static void read_napi(int rootfd, const char *ifname, struct np_napi *napi)
{
	char path[128];
	int r;

	r = devpath(path, sizeof(path), ifname, "napi_defer_hard_irqs");
	if (!r)
		r = np_read_u32_at(rootfd, path, &napi->defer_hard_irqs);
	if (!r)
		r = devpath(path, sizeof(path), ifname, "gro_flush_timeout");
	if (!r)
		r = np_read_u64_at(rootfd, path, &napi->gro_flush_timeout);
	napi->err = r;
	/* 5.12; "threaded" NAPI: Documentation/networking/napi.rst */
	napi->threaded_err = devpath(path, sizeof(path), ifname, "threaded");
	if (!napi->threaded_err)
		napi->threaded_err = np_read_u32_at(rootfd, path, &napi->threaded);
}

int np_sysfs_read_queues(int rootfd, struct np_dev *dev, struct np_error *err)
{
	struct np_rxq *rxq = NULL;
	struct np_txq *txq = NULL;
	unsigned n_rx = 0, n_tx = 0;
	char path[128];
	int qfd, r;

	read_napi(rootfd, dev->ifname, &dev->napi);
	/* one fd of queues/ to list it and to open every queue file below */
	r = devpath(path, sizeof(path), dev->ifname, "queues");
	qfd = r < 0 ? r : np_open_dir_at(rootfd, path);
	if (qfd >= 0)
		count_queues(qfd, &n_rx, &n_tx);
	if (qfd < 0 && qfd != -ENOENT)
		return np_err(err, qfd, NP_PHASE_DISCOVER, NULL, "/sys/class/net/%s/queues: %s",
			      dev->ifname, strerror(-qfd));
	rxq = calloc(n_rx ? n_rx : 1, sizeof(*rxq));
	txq = calloc(n_tx ? n_tx : 1, sizeof(*txq));
	if (!rxq || !txq) {
		free(rxq);
		free(txq);
		if (qfd >= 0)
			close(qfd);
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	}
	for (unsigned q = 0; q < n_rx; q++)
		read_rxq(qfd, q, &rxq[q]);
	for (unsigned q = 0; q < n_tx; q++)
		read_txq(qfd, q, &txq[q]);
	if (qfd >= 0)
		close(qfd);
	free(dev->rxq);
	free(dev->txq);
	dev->rxq = rxq;
	dev->txq = txq;
	dev->n_rxq = n_rx;
	dev->n_txq = n_tx;
	return 0;
}

int np_sysfs_read_dev(int rootfd, struct np_dev *dev, const struct np_topology *topo,
		      struct np_error *err)
{
	char path[128], devlink[sizeof(dev->bus_info)];
	int r;

	r = np_ifname_validate(dev->ifname, err);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "sys/class/net/%s", dev->ifname);
	r = np_exists_at(rootfd, path);
	if (r == -ENOENT)
		return np_err(err, -ENODEV, NP_PHASE_DISCOVER, NULL, "no such device");
	if (r < 0)
		return np_err(err, r, NP_PHASE_DISCOVER, NULL, "/%s: %s", path, strerror(-r));
	/* A virtual device (veth, bridge) has no device/ link: no NUMA node,
	 * no bus, nothing below it to look for. */
	r = devpath(path, sizeof(path), dev->ifname, "device");
	if (!r)
		r = np_read_link_name_at(rootfd, path, devlink, sizeof(dev->bus_info));
	if (r == -ENOENT) {
		dev->numa_node = -1;
		np_cpumask_zero(&dev->local_cpus);
		if (topo)
			dev->local_cpus = topo->online;
	} else {
		if (r < 0)
			devlink[0] = '\0';
		read_numa(rootfd, dev, topo);
		read_driver(rootfd, dev, devlink);
	}
	return np_sysfs_read_queues(rootfd, dev, err);
}

/* A value netpolicy may raise: read-only for everyone (a child network
 * namespace's view of net.core.rmem_max since 6.11, mode 0444, which root
 * cannot write either) is EACCES, as a write would be. */
static int read_writable(int rootfd, const char *path, uint32_t *ret)
{
	int r = np_read_u32_at(rootfd, path, ret);
	struct stat st;

	if (r == 0 && fstatat(rootfd, path, &st, 0) == 0 && !(st.st_mode & 0222))
		r = -EACCES;
	return r;
}

static int read_triple(int rootfd, const char *path, uint32_t v[3])
{
	char buf[96];
	int r = np_read_file_at(rootfd, path, buf, sizeof(buf));

	if (r < 0)
		return r;
	return np_parse_triple(buf, v);
}

int np_sysfs_read_sysctl(int rootfd, struct np_sysctl *ret)
{
	struct np_sysctl s = { 0 };

	/* a network namespace may not have them: recorded per knob */
	s.flow_entries_err = np_read_u32_at(rootfd, "proc/sys/net/core/rps_sock_flow_entries",
					    &s.rps_sock_flow_entries);
	s.busy_err = np_read_u32_at(rootfd, "proc/sys/net/core/busy_poll", &s.busy_poll);
	if (!s.busy_err)
		s.busy_err = np_read_u32_at(rootfd, "proc/sys/net/core/busy_read", &s.busy_read);
	s.core_mem_err = read_writable(rootfd, "proc/sys/net/core/rmem_max", &s.rmem_max);
	if (!s.core_mem_err)
		s.core_mem_err = read_writable(rootfd, "proc/sys/net/core/wmem_max", &s.wmem_max);
	s.tcp_mem_err = read_triple(rootfd, "proc/sys/net/ipv4/tcp_rmem", s.tcp_rmem);
	if (!s.tcp_mem_err)
		s.tcp_mem_err = read_triple(rootfd, "proc/sys/net/ipv4/tcp_wmem", s.tcp_wmem);
	s.backlog_err = np_read_u32_at(rootfd, "proc/sys/net/core/netdev_max_backlog",
				       &s.netdev_max_backlog);
	*ret = s;
	return 0;
}

enum where { W_RXQ, W_TXQ, W_IRQ, W_DEV, W_SYSCTL, W_CPU };

static const struct {
	const char *knob;
	enum where where;
	const char *file;
} attrs[NP_ATTR__COUNT] = {
	[NP_ATTR_RPS_CPUS] = { "rps", W_RXQ, "rps_cpus" },
	[NP_ATTR_RPS_FLOW_CNT] = { "rfs", W_RXQ, "rps_flow_cnt" },
	[NP_ATTR_XPS_CPUS] = { "xps", W_TXQ, "xps_cpus" },
	[NP_ATTR_XPS_RXQS] = { "xps", W_TXQ, "xps_rxqs" },
	[NP_ATTR_IRQ_AFFINITY] = { "irq-affinity", W_IRQ, "smp_affinity_list" },
	[NP_ATTR_NAPI_DEFER_HARD_IRQS] = { "napi", W_DEV, "napi_defer_hard_irqs" },
	[NP_ATTR_GRO_FLUSH_TIMEOUT] = { "napi", W_DEV, "gro_flush_timeout" },
	[NP_ATTR_SOCK_FLOW_ENTRIES] = { "rfs", W_SYSCTL, "core/rps_sock_flow_entries" },
	[NP_ATTR_BUSY_POLL] = { "busy-poll", W_SYSCTL, "core/busy_poll" },
	[NP_ATTR_BUSY_READ] = { "busy-poll", W_SYSCTL, "core/busy_read" },
	[NP_ATTR_RMEM_MAX] = { "socket-buffers", W_SYSCTL, "core/rmem_max" },
	[NP_ATTR_WMEM_MAX] = { "socket-buffers", W_SYSCTL, "core/wmem_max" },
	[NP_ATTR_TCP_RMEM] = { "socket-buffers", W_SYSCTL, "ipv4/tcp_rmem" },
	[NP_ATTR_TCP_WMEM] = { "socket-buffers", W_SYSCTL, "ipv4/tcp_wmem" },
	[NP_ATTR_MAX_BACKLOG] = { "backlog", W_SYSCTL, "core/netdev_max_backlog" },
	[NP_ATTR_PM_QOS] = { "pm-qos", W_CPU, "pm_qos_resume_latency_us" },
};

int np_sysfs_write_attr(int rootfd, const struct np_dev *dev, enum np_attr attr,
			unsigned index, const char *value, struct np_error *err)
{
	const char *knob, *file;
	char path[160];
	int r = 0;

	if ((unsigned)attr >= NP_ARRAY_SIZE(attrs) || !attrs[attr].file)
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "unknown attribute %d", attr);
	knob = attrs[attr].knob;
	file = attrs[attr].file;
	if (attrs[attr].where == W_RXQ || attrs[attr].where == W_TXQ ||
	    attrs[attr].where == W_DEV) {
		r = np_ifname_validate(dev->ifname, err);
		if (r < 0)
			return r;
	}
	switch (attrs[attr].where) {
	case W_RXQ:
		r = devpath(path, sizeof(path), dev->ifname, "queues/rx-%u/%s", index, file);
		break;
	case W_TXQ:
		r = devpath(path, sizeof(path), dev->ifname, "queues/tx-%u/%s", index, file);
		break;
	case W_DEV:
		r = devpath(path, sizeof(path), dev->ifname, "%s", file);
		break;
	case W_IRQ:
		snprintf(path, sizeof(path), "proc/irq/%u/%s", index, file);
		break;
	case W_SYSCTL:
		snprintf(path, sizeof(path), "proc/sys/net/%s", file);
		break;
	case W_CPU:
		snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%u/power/%s", index, file);
		break;
	}
	if (r < 0)
		return np_err(err, r, NP_PHASE_APPLY, knob, "path too long");
	r = np_write_file_at(rootfd, path, value);
	if (r == -EIO && attr == NP_ATTR_IRQ_AFFINITY)
		return np_err(err, r, NP_PHASE_APPLY, knob,
			      "/%s: %s (the kernel manages this IRQ's affinity)", path,
			      strerror(-r));
	if (r < 0)
		return np_err(err, r, NP_PHASE_APPLY, knob, "/%s: %s", path, strerror(-r));
	return 0;
}
