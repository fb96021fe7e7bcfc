/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pieces the kernel backend is made of, one file each. */
#ifndef NP_KERNEL_H
#define NP_KERNEL_H

#include "np_private.h"

/* ethnl/: ethtool generic netlink over libmnl, extended acks on; one
 * transport and one file per operation.  Each operation falls back to its
 * SIOCETHTOOL equivalent when the family lacks the op (asked from the
 * family's op list at open, never from the kernel version). */
struct np_ethnl;
int np_ethnl_open(struct np_ethnl **ret, struct np_error *err);
void np_ethnl_close(struct np_ethnl *nl);
/* A failed socket call (not the kernel's answer) stops the rest of the
 * backend operation it happened in; the next operation starts here and
 * finds the socket usable again (transport.c). */
void np_ethnl_op_start(struct np_ethnl *nl);
/* Fills driver, bus_info, link, channels, rings, coalesce, features, rss.
 * An op the driver lacks sets that knob's err and is not a failure; only a
 * vanished device (-ENODEV) or a broken socket fails the whole read. */
int np_ethnl_read(struct np_ethnl *nl, struct np_dev *dev, struct np_error *err);
/* Again only the readings of `parts` (enum np_read_part): channels and the
 * RSS table for NP_READ_QUEUES, rings, coalescing. */
int np_ethnl_reread(struct np_ethnl *nl, struct np_dev *dev, unsigned parts,
		    struct np_error *err);
int np_ethnl_set_channels(struct np_ethnl *nl, const struct np_dev *dev,
			  const struct np_channels *want, struct np_error *err);
int np_ethnl_set_rings(struct np_ethnl *nl, const struct np_dev *dev,
		       const struct np_rings *want, struct np_error *err);
int np_ethnl_set_coalesce(struct np_ethnl *nl, const struct np_dev *dev,
			  const struct np_coalesce *want, uint32_t fields, struct np_error *err);
int np_ethnl_set_feature(struct np_ethnl *nl, const struct np_dev *dev, const char *name,
			 bool on, struct np_error *err);
/* ethnl/netdev.c: the netdev family on the same socket.  Fills dev->napis
 * (err -EOPNOTSUPP on a kernel without napi-get); fails only when the
 * socket does. */
int np_netdev_read(struct np_ethnl *nl, struct np_dev *dev);
/* napi-set of the NP_NAPI_HAS_* fields of want on NAPI want->id. */
int np_netdev_napi_set(struct np_ethnl *nl, const struct np_dev *dev,
		       const struct np_napi_inst *want, uint32_t fields, struct np_error *err);
int np_ethnl_set_rss_indir(struct np_ethnl *nl, const struct np_dev *dev,
			   const uint32_t *indir, uint32_t n, struct np_error *err);

/* kernel.c: what discovery reads from files below rootfd for st->dev (whose
 * ifname and ethtool readings are set) and st->topo: queues, NUMA, IRQs,
 * sysctls.  O(the device's queues and IRQs), whatever the CPU count. */
int np_kernel_read_files(int rootfd, struct np_state *st, struct np_error *err);

/* rtnl.c: rtnetlink through libnl-route-3, on the backend's one socket. */
struct nl_sock;
int np_rtnl_open(struct nl_sock **ret, struct np_error *err);
void np_rtnl_close(struct nl_sock *sk);
int np_rtnl_read(struct nl_sock *sk, const char *ifname, struct np_dev *dev,
		 struct np_error *err);
/* Interfaces with a /sys/class/net/IF/device link or a real driver (not lo). */
/* The link's stats64 counters and whether it is up. */
int np_rtnl_stats(struct nl_sock *sk, const char *ifname, struct np_link_stats *ret,
		  struct np_error *err);
int np_rtnl_list(struct nl_sock *sk, char ***ret, size_t *ret_n, struct np_error *err);

/* sysfs_ns.c: whether the sysfs below rootfd is the calling thread's network
 * namespace's: 1 it is (or it is no sysfs: a fixture), 0 another's,
 * -errno when it cannot be told (-EPERM without CAP_SYS_ADMIN).  The
 * device's own sysfs ifindex against netlink's, for when it cannot:
 * -ESTALE (err filled) when they differ. */
#define NP_SYSFS_STALE_HINT "its files would be another device's; mount sysfs for this " \
	"namespace (as `ip netns exec` does) or run netpolicy with CAP_SYS_ADMIN, which does"
int np_sysfs_netns_at(int rootfd);
int np_sysfs_dev_ours(int rootfd, const struct np_dev *dev, struct np_error *err);

/* sysfs.c: per-device and per-queue files below rootfd. */
int np_sysfs_read_dev(int rootfd, struct np_dev *dev, const struct np_topology *topo,
		      struct np_error *err);
int np_sysfs_read_sysctl(int rootfd, struct np_sysctl *ret);
/* Each online CPU's idle states and resume-latency limit (pm_qos.c);
 * what cannot be read is an entry's error; -ENOMEM. */
int np_pm_read(int rootfd, const struct np_topology *topo, struct np_pm *ret);
/* Only the resume-latency files of pm (read by np_pm_read with topo): what
 * netpolicy and others write; the idle states are kept as read. */
void np_pm_reread_limits(int rootfd, const struct np_topology *topo, struct np_pm *pm);
/* Only the queues (rx-N/tx-N and their files) and the NAPI files: what a
 * queue-reopening step changes. */
int np_sysfs_read_queues(int rootfd, struct np_dev *dev, struct np_error *err);
int np_sysfs_write_attr(int rootfd, const struct np_dev *dev, enum np_attr attr,
			unsigned index, const char *value, struct np_error *err);

/* napi_threads.c: the device's NAPI kthreads (napi-get's pids, else by
 * name in /proc while threaded) with their CPUs; sched_setaffinity of one. */
int np_napi_threads_read(int rootfd, struct np_dev *dev, struct np_error *err);
int np_napi_thread_set_affinity(int rootfd, const struct np_dev *dev, unsigned pid,
				const char *cpulist, struct np_error *err);

/* quirks.c: correct what a driver claims but cannot do. */
void np_quirks_apply(int rootfd, struct np_dev *dev);

/* topology.c */
int np_topology_read(int rootfd, struct np_topology *ret, struct np_error *err);
/* The same, with cpu/online and cpu/isolated taken from a key that
 * np_topology_key() returned (NULL: read them). */
int np_topology_read_key(int rootfd, const char *key, struct np_topology *ret,
			 struct np_error *err);
/* What a CPU hotplug or a cpuset partition change alters (cpu/online and
 * cpu/isolated), as one string to compare: two small files instead of the
 * machine's per-CPU files.  *ret is the caller's to free. */
int np_topology_key(int rootfd, char **ret);

/* irq.c: the device's IRQs from msi_irqs and /proc/interrupts names. */
int np_irq_read(int rootfd, struct np_dev *dev, struct np_error *err);
/* irq_match.c: "123" -> 123; the whole string must be digits. */
int np_irq_number(const char *s, int *ret);
/* Match an IRQ name against the driver patterns (doc/kernel.md); true when it
 * belongs to the device, with its kind and queue (-1 for non-queue IRQs). */
bool np_irq_match(const char *driver, const char *ifname, const char *bus_info,
		  const char *name, enum np_irq_kind *kind, int *queue);
/* irq_match.c: a driver naming its vectors by notification block (gve):
 * the block numbers np_irq_match() gave, turned into Tx and Rx queues once
 * all n IRQs of the device are known. */
void np_irq_split_blocks(const char *driver, struct np_irq *v, size_t n);

/* steer.c: rules and the contexts they use, read into dev->steer (only
 * -ENOMEM fails: a driver without them has steer.err / ctx_err set); the
 * backend's rule and context operations. */
/* ethnl/queue_coal.c: per-queue coalescing through ETHTOOL_PERQUEUE (no
 * netlink op has it).  read: every queue's dev->coalesce.per_queue fields
 * into dev->rxq[].coal; set: one queue's `fields` of val, the rest as the
 * driver has them; parse: a GCOALESCE reply of n queues' room. */
int np_queue_coal_read(const char *ifname, struct np_dev *dev);
int np_queue_coal_set(const char *ifname, unsigned queue, const uint32_t *val, uint32_t fields);
int np_queue_coal_parse(const void *buf, size_t len, unsigned n, uint32_t fields,
			struct np_rxq *rxq);

int np_kernel_steer_read(struct np_ethnl *nl, struct np_dev *dev);
int np_kernel_rule_insert(struct np_ethnl *nl, const struct np_dev *dev, const struct np_rule *rule,
			  uint32_t *ret_loc, struct np_error *err);
int np_kernel_rule_delete(struct np_ethnl *nl, const struct np_dev *dev, uint32_t loc,
			  struct np_error *err);
int np_kernel_ctx_create(struct np_ethnl *nl, const struct np_dev *dev,
			 const struct np_rss_ctx *ctx, uint32_t *ret_id, struct np_error *err);
int np_kernel_ctx_set(struct np_ethnl *nl, const struct np_dev *dev, const struct np_rss_ctx *ctx,
		      struct np_error *err);
int np_kernel_ctx_delete(struct np_ethnl *nl, const struct np_dev *dev, uint32_t id,
			 struct np_error *err);

#endif
