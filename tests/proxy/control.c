// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The control socket: a Unix stream socket taking one text command per
 * line and answering each with one line, "ok ..." or "error: ...".
 *
 *   <fault setting> VALUE   any of drop-calls, drop-replies, dup-calls,
 *                           dup-replies, reorder, corrupt-replies,
 *                           corrupt-mode, delay-ms, cut-every (0: off),
 *                           drop-reply-once, drop-reply-once-cut,
 *                           once-procs, delay-reply-procs
 *   cut-now                 close every connection now
 *   blackhole SECONDS       forward nothing for that long (0 ends it)
 *   clear                   every fault off, blackhole ended
 *   stats                   the counters, as in the summary line
 *   ping                    "ok", to wait until the proxy is up
 *
 * A test may connect, send one command, read one line and close; or keep
 * one connection for the whole run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "nfsproxy.h"

#define CTL_MAX_CLIENTS	8
#define CTL_LINE	512

struct ctl_client {
	int fd;
	size_t len;
	char line[CTL_LINE];
};

static int ctl_fd = -1;
static char ctl_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
static struct ctl_client clients[CTL_MAX_CLIENTS];

int control_open(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct stat st;
	int i;

	for (i = 0; i < CTL_MAX_CLIENTS; i++)
		clients[i].fd = -1;
	if (strlen(path) >= sizeof(sun.sun_path))
		return -ENAMETOOLONG;
	/* A stale socket from an earlier run may go; anything else stays. */
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			return -EEXIST;
		unlink(path);
	}
	strcpy(sun.sun_path, path);
	ctl_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (ctl_fd < 0)
		return -errno;
	if (bind(ctl_fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
	    listen(ctl_fd, 8) < 0) {
		int err = -errno;

		close(ctl_fd);
		ctl_fd = -1;
		return err;
	}
	strcpy(ctl_path, path);
	return 0;
}

void control_close(void)
{
	int i;

	for (i = 0; i < CTL_MAX_CLIENTS; i++)
		if (clients[i].fd >= 0)
			close(clients[i].fd);
	if (ctl_fd >= 0) {
		close(ctl_fd);
		unlink(ctl_path);
	}
	ctl_fd = -1;
}

/* Fills pfd with the listening socket and the clients; returns the count. */
int control_poll_fill(struct pollfd *pfd, int max)
{
	int i, n = 0;

	if (ctl_fd < 0 || max < 1 + CTL_MAX_CLIENTS)
		return 0;
	pfd[n].fd = ctl_fd;
	pfd[n++].events = POLLIN;
	for (i = 0; i < CTL_MAX_CLIENTS; i++) {
		pfd[n].fd = clients[i].fd;
		pfd[n++].events = POLLIN;
	}
	return n;
}

static void reply(struct ctl_client *c, const char *text)
{
	char buf[CTL_LINE + 64];
	int n = snprintf(buf, sizeof(buf), "%s\n", text);

	/* A client that does not read its answers loses them. */
	if (send(c->fd, buf, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		plog("control: reply lost: %s", strerror(errno));
}

static void command(struct ctl_client *c, char *line)
{
	char *name, *val, *extra, *save = NULL, out[CTL_LINE];
	const char *err = NULL;
	uint64_t ms, now = now_ms();
	struct faults f = P.f;

	name = strtok_r(line, " \t\r", &save);
	val = strtok_r(NULL, " \t\r", &save);
	extra = strtok_r(NULL, " \t\r", &save);
	if (!name)
		return;
	plog("control %s%s%s", name, val ? " " : "", val ? val : "");
	if (extra) {
		reply(c, "error: too many words");
	} else if (!strcmp(name, "ping")) {
		reply(c, "ok");
	} else if (!strcmp(name, "stats")) {
		stats_line(out, sizeof(out));
		reply(c, out);
	} else if (!strcmp(name, "cut-now")) {
		flows_cut_all();
		reply(c, "ok");
	} else if (!strcmp(name, "clear")) {
		faults_clear(&P.f);
		cut_reschedule(now);
		blackhole_start(now, 0);
		timers_run(now);
		reply(c, "ok");
	} else if (!strcmp(name, "blackhole")) {
		if (parse_seconds(val, &ms)) {
			reply(c, "error: bad number of seconds");
			return;
		}
		blackhole_start(now, ms);
		timers_run(now);
		reply(c, "ok");
	} else if (fault_set(&f, name, val, &err) == 0) {
		P.f = f;
		if (!strcmp(name, "cut-every"))
			cut_reschedule(now);
		reply(c, "ok");
	} else {
		snprintf(out, sizeof(out), "error: %s", err);
		reply(c, out);
	}
}

static void client_close(struct ctl_client *c)
{
	close(c->fd);
	c->fd = -1;
	c->len = 0;
}

static void client_read(struct ctl_client *c)
{
	ssize_t n;
	char *nl;

	n = read(c->fd, c->line + c->len, sizeof(c->line) - 1 - c->len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		client_close(c);
		return;
	}
	c->len += (size_t)n;
	c->line[c->len] = '\0';
	while ((nl = strchr(c->line, '\n'))) {
		size_t used = (size_t)(nl - c->line) + 1;

		*nl = '\0';
		command(c, c->line);
		memmove(c->line, c->line + used, c->len - used + 1);
		c->len -= used;
	}
	if (c->len == sizeof(c->line) - 1) {
		reply(c, "error: line too long");
		client_close(c);
	}
}

static void control_accept(void)
{
	int i, fd = accept4(ctl_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	for (i = 0; i < CTL_MAX_CLIENTS; i++) {
		if (clients[i].fd < 0) {
			clients[i].fd = fd;
			clients[i].len = 0;
			return;
		}
	}
	close(fd);
}

/* pfd/n: what control_poll_fill() filled, after poll(). */
void control_ready(const struct pollfd *pfd, int n)
{
	int i;

	if (n == 0)
		return;
	for (i = 1; i < n; i++)
		if (clients[i - 1].fd >= 0 && pfd[i].fd == clients[i - 1].fd &&
		    (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
			client_read(&clients[i - 1]);
	if (pfd[0].revents & POLLIN)
		control_accept();
}
