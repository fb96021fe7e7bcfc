/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* irqbalance moves IRQs between CPUs about every 10 seconds (its default
 * --interval), so it undoes the IRQ placement of a policy.  netpolicy finds
 * it, says so in plans and in check, and with --irqbalance-ban asks it to
 * leave the device's queue IRQs alone through its control socket; it never
 * stops or reconfigures the service itself.
 *
 * The socket (irqbalance.c, init_socket/sock_handle in irqbalance 1.8+):
 * /run/irqbalance/irqbalance<PID>.sock, SOCK_STREAM, one request per
 * connection, accepted only with SCM_CREDENTIALS of uid 0.  "setup" answers
 * "SLEEP n [IRQ i LOAD l DIFF d CLASS c]... BANNED mask" (the IRQ entries are
 * the banned IRQs); "settings ban irqs I J ..." replaces the banned list
 * (hence netpolicy sends the union of the old list and the device's IRQs).
 * The list lasts until irqbalance restarts: the persistent ways are
 * IRQBALANCE_ARGS="--banirq=N ..." or IRQBALANCE_BANNED_CPULIST in
 * /etc/default/irqbalance (irqbalance(1)). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"

/* What find saw, kept for the rest of the command (the notes, the ban and
 * the owners of every device ask again). */
static struct {
	bool done;
	long pid;
	char socket[sizeof(((struct cli_irqbalance *)0)->socket)];
} found;

void cli_irqbalance_forget(void)
{
	found.done = false;
}

static void look(const struct cli *c)
{
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;

	found.done = true;
	found.pid = 0;
	found.socket[0] = '\0';
	/* a simulated machine (--model) has no irqbalance of this host's: one
	 * running here is not the model's (nor a package build's business) */
	if (c->model && !c->root)
		return;
	/* its socket names its pid; a socket left by a crash has no process */
	cli_below_root(c, dir, sizeof(dir), "/run/irqbalance");
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, "irqbalance", 10) || !isdigit((unsigned char)de->d_name[10]))
			continue;
		pid = strtol(de->d_name + 10, &end, 10);
		if (strcmp(end, ".sock") || !cli_pid_is(c, pid, "irqbalance"))
			continue;
		/* a path the socket API cannot take is no socket for us */
		if ((size_t)snprintf(found.socket, sizeof(found.socket), "%.3800s/%.200s", dir,
				     de->d_name) >= sizeof(found.socket))
			found.socket[0] = '\0';
		found.pid = pid;
		break;
	}
	if (d)
		closedir(d);
	/* built without its UI socket, or bound to an abstract one: its
	 * systemd unit still names it (Debian's runs it in the foreground,
	 * with no pid file) */
	if (!found.pid)
		found.pid = cli_service_pid(c, "irqbalance", NULL);
}

int cli_irqbalance_find(const struct cli *c, struct cli_irqbalance *ib)
{
	memset(ib, 0, sizeof(*ib));
	if (!found.done)
		look(c);
	ib->pid = found.pid;
	memcpy(ib->socket, found.socket, sizeof(ib->socket));
	return ib->pid ? 1 : 0;
}

/* One request, and its answer when reply is given.  SCM_CREDENTIALS with
 * our own ids: irqbalance checks that the uid is 0. */
static int request(const char *path, const char *msg, char *reply, size_t len)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = strlen(msg) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	struct ucred cred = { .pid = getpid(), .uid = getuid(), .gid = getgid() };
	struct cmsghdr *cm;
	size_t got = 0;
	int fd, r = 0;

	if (strlen(path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	strcpy(addr.sun_path, path);
	memset(&ctl, 0, sizeof(ctl));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_CREDENTIALS;
	cm->cmsg_len = CMSG_LEN(sizeof(cred));
	memcpy(CMSG_DATA(cm), &cred, sizeof(cred));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || sendmsg(fd, &mh, 0) < 0) {
		r = -errno;
		goto out;
	}
	if (reply) {
		ssize_t n;

		while (got + 1 < len && (n = recv(fd, reply + got, len - 1 - got, 0)) > 0)
			got += (size_t)n;
		reply[got] = '\0';
		if (!got)
			r = -EPROTO;	/* it answers nothing to a user it refuses */
	}
out:
	close(fd);
	return r;
}

/* The device's queue IRQs (the ones a policy places), from its state. */
static size_t device_irqs(struct cli *c, int *irqs, size_t max)
{
	struct json_object *obj = NULL, *arr, *e, *v;
	struct np_state *st = NULL;
	CLI_ERROR(err);
	size_t n = 0;

	if (!err || np_discover(c->ctx, c->device, &st, err) < 0)
		return 0;
	if (np_state_to_json(st, &obj) >= 0 && json_object_object_get_ex(obj, "irqs", &arr))
		for (size_t i = 0; i < json_object_array_length(arr) && n < max; i++) {
			e = json_object_array_get_idx(arr, i);
			if (json_object_object_get_ex(e, "kind", &v) &&
			    !strcmp(json_object_get_string(v), "other"))
				continue;
			if (json_object_object_get_ex(e, "irq", &v))
				irqs[n++] = json_object_get_int(v);
		}
	json_object_put(obj);
	np_state_free(st);
	return n;
}

/* The IRQs irqbalance has banned now; -errno when it cannot be asked. */
static int banned_irqs(const struct cli_irqbalance *ib, int *irqs, size_t max, size_t *ret_n)
{
	char reply[8192], *p;
	size_t n = 0;
	int r;

	if (!ib->socket[0])
		return -ENOTCONN;
	r = request(ib->socket, "setup", reply, sizeof(reply));
	if (r < 0)
		return r;
	for (p = strstr(reply, "IRQ "); p && n < max; p = strstr(p, "IRQ ")) {
		p += 4;
		irqs[n++] = (int)strtol(p, &p, 10);
	}
	*ret_n = n;
	return 0;
}

static bool contains(const int *a, size_t n, int x)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] == x)
			return true;
	return false;
}

/* "24 25 26" into buf */
static void list_irqs(char *buf, size_t len, const int *irqs, size_t n, const char *sep)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%d", i ? sep : "", irqs[i]);
}

int cli_irqbalance_status(struct cli *c, struct cli_irqbalance *ib)
{
	int banned[1024];
	size_t nb = 0;

	if (!cli_irqbalance_find(c, ib))
		return 0;
	ib->n_irqs = device_irqs(c, ib->irqs, sizeof(ib->irqs) / sizeof(ib->irqs[0]));
	ib->all_banned = false;
	if (ib->n_irqs && banned_irqs(ib, banned, sizeof(banned) / sizeof(banned[0]), &nb) >= 0) {
		ib->all_banned = true;
		for (size_t i = 0; i < ib->n_irqs; i++)
			if (!contains(banned, nb, ib->irqs[i]))
				ib->all_banned = false;
	}
	return 1;
}

/* A virtual device (veth, bridge: no device/ link in sysfs) has no IRQs of
 * its own (backend/irq.c), so nothing irqbalance could move: no need to
 * look for it among every process.  A model's devices are not in sysfs. */
static bool may_have_irqs(const struct cli *c)
{
	char path[PATH_MAX], rel[64];

	if (c->model)
		return true;
	snprintf(rel, sizeof(rel), "/sys/class/net/%s/device", c->device);
	cli_below_root(c, path, sizeof(path), rel);
	return access(path, F_OK) == 0;
}

void cli_irqbalance_note(struct cli *c, bool drift)
{
	struct cli_irqbalance ib;
	char list[512], args[1024];

	if (c->quiet || !may_have_irqs(c) || !cli_irqbalance_status(c, &ib) || !ib.n_irqs ||
	    ib.all_banned)
		return;
	list_irqs(list, sizeof(list), ib.irqs, ib.n_irqs, ",");
	list_irqs(args, sizeof(args), ib.irqs, ib.n_irqs, " --banirq=");
	if (drift)
		fprintf(stderr, "netpolicy: %s: irqbalance (pid %ld) is running and moves IRQs "
			"%s about every 10 s: IRQ affinity drift is likely its doing.\n", c->device,
			ib.pid, list);
	else
		fprintf(stderr, "netpolicy: %s: irqbalance (pid %ld) is running and will move "
			"IRQs %s back within about 10 s, undoing this policy's IRQ placement.\n",
			c->device, ib.pid, list);
	fprintf(stderr, "netpolicy: %s: keep it away from them: '--irqbalance-ban' (through its "
		"socket, until it restarts), or IRQBALANCE_ARGS=\"--banirq=%s\" in "
		"/etc/default/irqbalance; netpolicy does not stop irqbalance.\n", c->device, args);
}

int cli_irqbalance_ban(struct cli *c)
{
	struct cli_irqbalance ib;
	int banned[1024], all[1280];
	size_t nb = 0, n;
	char msg[8192];
	int r;

	if (!cli_irqbalance_find(c, &ib))
		return 0;	/* nothing to keep away */
	ib.n_irqs = device_irqs(c, ib.irqs, sizeof(ib.irqs) / sizeof(ib.irqs[0]));
	if (!ib.n_irqs)
		return 0;
	if (!ib.socket[0]) {
		fprintf(stderr, "netpolicy: %s: irqbalance (pid %ld) has no control socket; ban the "
			"IRQs in /etc/default/irqbalance instead (see netpolicy(8))\n", c->device, ib.pid);
		return -ENOTCONN;
	}
	r = banned_irqs(&ib, banned, sizeof(banned) / sizeof(banned[0]), &nb);
	if (r < 0) {
		fprintf(stderr, "netpolicy: %s: irqbalance (pid %ld): %s: %s\n", c->device, ib.pid,
			ib.socket, strerror(-r));
		return r;
	}
	n = nb;
	memcpy(all, banned, nb * sizeof(int));
	for (size_t i = 0; i < ib.n_irqs; i++)
		if (!contains(all, n, ib.irqs[i]))
			all[n++] = ib.irqs[i];
	if (n == nb)
		return 0;	/* already banned */
	snprintf(msg, sizeof(msg), "settings ban irqs ");
	list_irqs(msg + strlen(msg), sizeof(msg) - strlen(msg), all, n, " ");
	r = request(ib.socket, msg, NULL, 0);
	if (r < 0) {
		fprintf(stderr, "netpolicy: %s: irqbalance (pid %ld): %s: %s\n", c->device, ib.pid,
			ib.socket, strerror(-r));
		return r;
	}
	if (c->verbose)
		fprintf(stderr, "netpolicy: %s: irqbalance (pid %ld) now leaves IRQs %s alone\n",
			c->device, ib.pid, msg + strlen("settings ban irqs "));
	return 1;
}
