/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulated sysfs and procfs files: RPS/RFS/XPS queue files, IRQ
 * affinity, the device's NAPI files and the net.core sysctls, parsed and
 * refused the way the kernel's store functions do.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np_sim.h"

static void lowest_only(struct np_cpumask *m)
{
	int first = np_cpumask_next(m, 0);

	np_cpumask_zero(m);
	if (first >= 0)
		np_cpumask_set(m, (unsigned)first);
}

static const struct {
	const char *knob;
	const char *file;	/* for messages; %u = queue or IRQ */
} attrs[NP_ATTR__COUNT] = {
	[NP_ATTR_RPS_CPUS] = { "rps", "queues/rx-%u/rps_cpus" },
	[NP_ATTR_RPS_FLOW_CNT] = { "rfs", "queues/rx-%u/rps_flow_cnt" },
	[NP_ATTR_XPS_CPUS] = { "xps", "queues/tx-%u/xps_cpus" },
	[NP_ATTR_XPS_RXQS] = { "xps", "queues/tx-%u/xps_rxqs" },
	[NP_ATTR_IRQ_AFFINITY] = { "irq-affinity", "/proc/irq/%u/smp_affinity_list" },
	[NP_ATTR_NAPI_DEFER_HARD_IRQS] = { "napi", "napi_defer_hard_irqs" },
	[NP_ATTR_GRO_FLUSH_TIMEOUT] = { "napi", "gro_flush_timeout" },
	[NP_ATTR_SOCK_FLOW_ENTRIES] = { "sysctl", "/proc/sys/net/core/rps_sock_flow_entries" },
	[NP_ATTR_BUSY_POLL] = { "sysctl", "/proc/sys/net/core/busy_poll" },
	[NP_ATTR_BUSY_READ] = { "sysctl", "/proc/sys/net/core/busy_read" },
	[NP_ATTR_RMEM_MAX] = { "sysctl", "/proc/sys/net/core/rmem_max" },
	[NP_ATTR_WMEM_MAX] = { "sysctl", "/proc/sys/net/core/wmem_max" },
	[NP_ATTR_TCP_RMEM] = { "sysctl", "/proc/sys/net/ipv4/tcp_rmem" },
	[NP_ATTR_TCP_WMEM] = { "sysctl", "/proc/sys/net/ipv4/tcp_wmem" },
	[NP_ATTR_MAX_BACKLOG] = { "sysctl", "/proc/sys/net/core/netdev_max_backlog" },
	[NP_ATTR_NAPI_THREAD_AFFINITY] = { "napi-threads", "sched_setaffinity(%u)" },
	[NP_ATTR_PM_QOS] = { "pm-qos", "/sys/devices/system/cpu/cpu%u/power/pm_qos_resume_latency_us" },
};

static int attr_fail(struct np_error *err, enum np_attr attr, unsigned index, int code)
{
	char file[96];

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(file, sizeof(file), attrs[attr].file, index);
#pragma GCC diagnostic pop
	return np_err(err, code, NP_PHASE_APPLY, attrs[attr].knob, "%s: %s", file,
		      strerror(-code));
}

/* kstrtoul-like: decimal, optional trailing newline, no sign. */
static int parse_ull(const char *v, unsigned long long *ret)
{
	unsigned long long x;
	char *end;

	while (*v == ' ' || *v == '\t')
		v++;
	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno)
		return -ERANGE;
	if (*end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*ret = x;
	return 0;
}

/* A hex mask as written to rps_cpus / xps_cpus: bits beyond nbits are
 * refused with -EOVERFLOW, as bitmap_parse() does. */
static int parse_hexmask(const char *v, unsigned nbits, struct np_cpumask *ret)
{
	int r = np_cpumask_parse_hex(v, ret);

	if (r == -ERANGE)
		return -EOVERFLOW;
	if (r < 0)
		return r;
	if (np_cpumask_next(ret, nbits) >= 0)
		return -EOVERFLOW;
	return 0;
}

static struct np_irq *find_irq(struct np_sim_model *m, unsigned irq)
{
	for (size_t i = 0; i < m->n_devs; i++)
		for (unsigned j = 0; j < m->devs[i].n_irq; j++)
			if (m->devs[i].irq[j].irq == irq)
				return &m->devs[i].irq[j];
	return NULL;
}

static int write_mask_attr(struct np_sim *s, struct np_sim_call *c, enum np_attr attr,
			   unsigned index, const char *value, struct np_error *err)
{
	const struct np_topology *t = &s->m.topo;
	struct np_dev *d = c->dev;
	struct np_cpumask m, *dst;
	int r, ferr;

	if (attr == NP_ATTR_RPS_CPUS || attr == NP_ATTR_RPS_FLOW_CNT) {
		if (index >= d->n_rxq)
			return attr_fail(err, attr, index, -ENOENT);
		ferr = attr == NP_ATTR_RPS_CPUS ? d->rxq[index].rps_err : d->rxq[index].flow_err;
	} else {
		if (index >= d->n_txq)
			return attr_fail(err, attr, index, -ENOENT);
		ferr = attr == NP_ATTR_XPS_CPUS ? d->txq[index].xps_err : d->txq[index].xps_rxqs_err;
	}
	if (ferr)
		return attr_fail(err, attr, index, ferr);
	if (attr == NP_ATTR_RPS_FLOW_CNT) {
		unsigned long long x;

		r = parse_ull(value, &x);
		if (r == 0 && x > (1ull << 31))
			r = -EINVAL;
		if (r < 0)
			return attr_fail(err, attr, index, r);
		/* the kernel keeps a power-of-two table and shows its size */
		x = np_sim_roundup_pow2((uint32_t)x);
		if (np_sim_fault_is(c, NP_SIM_MODE_ROUND))
			x &= ~3ull;
		if (!np_sim_fault_is(c, NP_SIM_MODE_IGNORE) && d->rxq[index].rps_flow_cnt != x) {
			d->rxq[index].rps_flow_cnt = (uint32_t)x;
			s->dirty = true;
		}
		return 0;
	}
	r = parse_hexmask(value, attr == NP_ATTR_XPS_RXQS ? d->num_rx_queues : t->nr_cpus, &m);
	if (r < 0)
		return attr_fail(err, attr, index, r);
	if (attr == NP_ATTR_RPS_CPUS) {
		/* store_rps_map(): only housekeeping (not isolated) CPUs, and
		 * of those only the online ones make it into the map */
		if (!np_cpumask_empty(&m)) {
			np_cpumask_andnot(&m, &m, &t->isolated);
			if (np_cpumask_empty(&m))
				return attr_fail(err, attr, index, -EINVAL);
		}
		np_cpumask_and(&m, &m, &t->online);
		dst = &d->rxq[index].rps_cpus;
	} else if (attr == NP_ATTR_XPS_CPUS) {
		np_cpumask_and(&m, &m, &t->online);
		dst = &d->txq[index].xps_cpus;
	} else {
		dst = &d->txq[index].xps_rxqs;
	}
	if (np_sim_fault_is(c, NP_SIM_MODE_ROUND))
		lowest_only(&m);
	if (!np_sim_fault_is(c, NP_SIM_MODE_IGNORE) && !np_cpumask_equal(dst, &m)) {
		*dst = m;
		s->dirty = true;
	}
	return 0;
}

static int write_irq(struct np_sim *s, struct np_sim_call *c, unsigned irq, const char *value,
		     struct np_error *err)
{
	const struct np_topology *t = &s->m.topo;
	struct np_irq *q = find_irq(&s->m, irq);
	struct np_cpumask m, eff;
	int r, first;

	if (!q)
		return attr_fail(err, NP_ATTR_IRQ_AFFINITY, irq, -ENOENT);
	if (q->err)
		return attr_fail(err, NP_ATTR_IRQ_AFFINITY, irq, q->err);
	/* irq_can_set_affinity_usr() (kernel/irq/manage.c) */
	if (np_sim_irq_managed(&s->m, irq))
		return attr_fail(err, NP_ATTR_IRQ_AFFINITY, irq, -EIO);
	r = np_cpumask_parse_list(value, &m);
	if (r == 0 && np_cpumask_next(&m, t->nr_cpus) >= 0)
		r = -ERANGE;
	if (r < 0)
		return attr_fail(err, NP_ATTR_IRQ_AFFINITY, irq, r);
	np_cpumask_and(&eff, &m, &t->online);
	/* "at least one online CPU still has to be targeted" */
	if (np_cpumask_empty(&eff))
		return attr_fail(err, NP_ATTR_IRQ_AFFINITY, irq, -EINVAL);
	if (np_sim_fault_is(c, NP_SIM_MODE_ROUND)) {
		lowest_only(&eff);
		m = eff;
	}
	if (np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	first = np_cpumask_next(&eff, 0);
	np_cpumask_zero(&eff);
	np_cpumask_set(&eff, (unsigned)first);
	if (!np_cpumask_equal(&q->affinity, &m) || !np_cpumask_equal(&q->effective, &eff)) {
		q->affinity = m;
		q->effective = eff;
		s->dirty = true;
	}
	return 0;
}

/* sched_setaffinity(2) on a NAPI kthread: ESRCH for a pid that is none of
 * the device's threads, EINVAL when no online CPU is left in the mask; the
 * thread keeps the CPUs of the mask that can exist. */
static int write_thread(struct np_sim *s, struct np_sim_call *c, unsigned pid, const char *value,
			struct np_error *err)
{
	const struct np_topology *t = &s->m.topo;
	struct np_napi_thread *th = NULL;
	struct np_cpumask m, on;
	int r;

	for (unsigned i = 0; i < c->dev->n_napi_thread; i++)
		if (c->dev->napi_thread[i].pid == pid)
			th = &c->dev->napi_thread[i];
	if (!th)
		return attr_fail(err, NP_ATTR_NAPI_THREAD_AFFINITY, pid, -ESRCH);
	r = np_cpumask_parse_list(value, &m);
	np_cpumask_and(&m, &m, &t->possible);
	np_cpumask_and(&on, &m, &t->online);
	if (r == 0 && np_cpumask_empty(&on))
		r = -EINVAL;
	if (r < 0)
		return attr_fail(err, NP_ATTR_NAPI_THREAD_AFFINITY, pid, r);
	if (np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	if (!np_cpumask_equal(&th->affinity, &m)) {
		th->affinity = m;
		s->dirty = true;
	}
	return 0;
}

/* The resume-latency file of a CPU: absent where the model says so, the
 * store's encoding otherwise (np_pm_parse: negative or not a number is
 * EINVAL, "0" lifts the limit, "n/a" is 0 us). */
static int write_pm(struct np_sim *s, struct np_sim_call *c, unsigned cpu, const char *value,
		    struct np_error *err)
{
	struct np_cpu_pm *p;
	uint32_t us;
	int r;

	if (s->m.pm.err || cpu >= s->m.pm.n)
		return attr_fail(err, NP_ATTR_PM_QOS, cpu, -ENOENT);
	p = &s->m.pm.cpu[cpu];
	if (p->err)
		return attr_fail(err, NP_ATTR_PM_QOS, cpu, p->err);
	r = np_pm_parse(value, &us);
	if (r < 0)
		return attr_fail(err, NP_ATTR_PM_QOS, cpu, r);
	if (np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	if (np_sim_fault_is(c, NP_SIM_MODE_ROUND) && us && us != NP_PM_NONE)
		us++;
	if (p->resume != us) {
		p->resume = us;
		s->dirty = true;
	}
	return 0;
}

/*
 * tcp_rmem, tcp_wmem: three ints (proc_dointvec_minmax, each at least 1; on
 * 6.18 a tcp_rmem value below 4096 is refused as well, measured); the kernel
 * does not order them.  Fewer than three is refused here although the kernel
 * keeps the rest: netpolicy always writes three.
 */
static int write_triple(struct np_sim *s, struct np_sim_call *c, enum np_attr attr,
			const char *value, struct np_error *err)
{
	uint32_t *dst = attr == NP_ATTR_TCP_RMEM ? s->m.sys.tcp_rmem : s->m.sys.tcp_wmem;
	uint32_t v[3], min = attr == NP_ATTR_TCP_RMEM ? 4096 : 1;
	int r;

	if (s->m.sys.tcp_mem_err)
		return attr_fail(err, attr, 0, s->m.sys.tcp_mem_err);
	r = np_parse_triple(value, v);
	for (int i = 0; r == 0 && i < 3; i++)
		if (v[i] < min)
			r = -EINVAL;
	if (r < 0)
		return attr_fail(err, attr, 0, -EINVAL);
	if (np_sim_fault_is(c, NP_SIM_MODE_ROUND))
		v[2] &= ~3u;
	if (np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	if (memcmp(dst, v, sizeof(v))) {
		memcpy(dst, v, sizeof(v));
		s->dirty = true;
	}
	return 0;
}

/* rmem_max, wmem_max: proc_dointvec_minmax from the smallest buffer a
 * socket may have (SOCK_MIN_RCVBUF, SOCK_MIN_SNDBUF: 2304 and 4608 bytes
 * on 64-bit builds) to INT_MAX; netdev_max_backlog: proc_dointvec. */
static int number_limits(struct np_sysctl *sys, enum np_attr attr, int *ferr,
			 unsigned long long *min, unsigned long long *max, uint32_t **dst)
{
	*max = INT32_MAX;
	*min = 0;
	switch (attr) {
	case NP_ATTR_RMEM_MAX:
	case NP_ATTR_WMEM_MAX:
		*ferr = sys->core_mem_err;
		*min = attr == NP_ATTR_RMEM_MAX ? 2304 : 4608;
		*dst = attr == NP_ATTR_RMEM_MAX ? &sys->rmem_max : &sys->wmem_max;
		return 1;
	case NP_ATTR_MAX_BACKLOG:
		*ferr = sys->backlog_err;
		*dst = &sys->netdev_max_backlog;
		return 1;
	default:
		return 0;
	}
}

static int write_number(struct np_sim *s, struct np_sim_call *c, enum np_attr attr,
			const char *value, struct np_error *err)
{
	unsigned long long min = 0;
	struct np_sysctl *sys = &s->m.sys;
	unsigned long long x, max = UINT32_MAX;
	uint32_t *dst32 = NULL;
	int ferr, r;

	switch (attr) {
	case NP_ATTR_NAPI_DEFER_HARD_IRQS:
	case NP_ATTR_GRO_FLUSH_TIMEOUT:
		ferr = c->dev->napi.err;
		max = attr == NP_ATTR_GRO_FLUSH_TIMEOUT ? UINT64_MAX : INT32_MAX;
		dst32 = &c->dev->napi.defer_hard_irqs;
		break;
	case NP_ATTR_SOCK_FLOW_ENTRIES:
		ferr = sys->flow_entries_err;
		max = INT32_MAX;
		dst32 = &sys->rps_sock_flow_entries;
		break;
	case NP_ATTR_TCP_RMEM:
	case NP_ATTR_TCP_WMEM:
		return write_triple(s, c, attr, value, err);
	default:
		if (number_limits(sys, attr, &ferr, &min, &max, &dst32))
			break;
		ferr = sys->busy_err;
		max = INT32_MAX;
		dst32 = attr == NP_ATTR_BUSY_POLL ? &sys->busy_poll : &sys->busy_read;
		break;
	}
	if (ferr)
		return attr_fail(err, attr, 0, ferr);
	r = parse_ull(value, &x);
	if (r == 0 && (x > max || x < min))
		r = attr == NP_ATTR_NAPI_DEFER_HARD_IRQS ? -ERANGE : -EINVAL;
	if (r == 0 && attr == NP_ATTR_SOCK_FLOW_ENTRIES) {
		/* rps_sock_flow_sysctl(): a power of two, at most 2^29 */
		x = np_sim_roundup_pow2((uint32_t)x);
		if (x > (1u << 29))
			r = -EINVAL;
	}
	if (r < 0)
		return attr_fail(err, attr, 0, r);
	if (np_sim_fault_is(c, NP_SIM_MODE_ROUND))
		x &= ~3ull;
	if (np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	if (attr == NP_ATTR_GRO_FLUSH_TIMEOUT) {
		if (c->dev->napi.gro_flush_timeout != x) {
			c->dev->napi.gro_flush_timeout = x;
			s->dirty = true;
		}
	} else if (*dst32 != x) {
		*dst32 = (uint32_t)x;
		s->dirty = true;
	}
	return 0;
}

int np_sim_write_attr(struct np_backend *be, const struct np_dev *dev, enum np_attr attr,
			  unsigned index, const char *value, struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_sim_call c = { .op = NP_SIM_OP_WRITE_ATTR, .phase = NP_PHASE_APPLY };
	bool global;
	int r;

	if ((unsigned)attr >= NP_ATTR__COUNT || !value)
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "unknown attribute");
	c.knob = attrs[attr].knob;
	/* /proc/irq and net.core exist whether or not the device does */
	global = attr == NP_ATTR_IRQ_AFFINITY || attr == NP_ATTR_SOCK_FLOW_ENTRIES ||
		 attr == NP_ATTR_BUSY_POLL || attr == NP_ATTR_BUSY_READ ||
		 attr == NP_ATTR_RMEM_MAX || attr == NP_ATTR_WMEM_MAX ||
		 attr == NP_ATTR_TCP_RMEM || attr == NP_ATTR_TCP_WMEM ||
		 attr == NP_ATTR_MAX_BACKLOG || attr == NP_ATTR_PM_QOS;
	r = np_sim_begin(s, &c, dev->ifname, !global, err);
	if (r < 0)
		return np_sim_finish(s, r, err);
	switch (attr) {
	case NP_ATTR_RPS_CPUS:
	case NP_ATTR_RPS_FLOW_CNT:
	case NP_ATTR_XPS_CPUS:
	case NP_ATTR_XPS_RXQS:
		r = write_mask_attr(s, &c, attr, index, value, err);
		break;
	case NP_ATTR_IRQ_AFFINITY:
		r = write_irq(s, &c, index, value, err);
		break;
	case NP_ATTR_NAPI_THREAD_AFFINITY:
		r = write_thread(s, &c, index, value, err);
		break;
	case NP_ATTR_PM_QOS:
		r = write_pm(s, &c, index, value, err);
		break;
	default:
		r = write_number(s, &c, attr, value, err);
		break;
	}
	return np_sim_finish(s, r, err);
}
