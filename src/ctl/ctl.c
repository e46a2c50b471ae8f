/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control socket and its thread.
 *
 * One thread polls the listening socket, a wake-up pipe (ctl_stop) and
 * every open connection.  A connection first sends one command line; the
 * thread reads it without blocking (a slow client cannot hold up another),
 * runs it, writes the answer with a send timeout and closes.  A `trace`
 * connection is handed to the trace hub and stays in the poll set only to
 * notice when the client goes away; the hub writes to it from whatever
 * thread traces, never blocking (trace.h).
 */
#include "ctl_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../base/clock.h"
#include "../base/log.h"
#include "../base/safedir.h"
#include "../base/trace.h"

/* ---- the socket file ---- */

/* Make dir ours and private (safedir.h): a directory of that name that
 * another user made first is refused, whatever its mode. */
static int prepare_dir(const char *dir)
{
	char why[CTL_PATH_MAX + 160];
	int ret = safedir_make(dir, safedir_last(dir), why, sizeof(why));

	if (ret)
		nf_log(NF_LOG_ERR, "ctl: %s", why);
	return ret;
}

static void fill_addr(struct sockaddr_un *sun, const char *path)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path, path, strlen(path) + 1); /* < CTL_PATH_MAX */
}

/* Is a daemon answering on path?  A refused connection means the file
 * was left by one that died. */
static bool socket_alive(const char *path)
{
	struct sockaddr_un sun;
	bool alive;
	int fd;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	fill_addr(&sun, path);
	alive = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	close(fd);
	return alive;
}

/*
 * A daemon whose mount has just ended still answers until its loop has
 * returned and given the socket up (ctl_stop comes first after it).  A
 * mount made again on the same directory at once (`umount; mount`) waits
 * for that, a bounded while, rather than start without a control socket
 * and leave nfsfusectl talking to the departing daemon.
 */
#define CTL_TAKEOVER_WAIT_MS 2000
#define CTL_TAKEOVER_STEP_MS 10

static bool socket_held(const char *path)
{
	int64_t until = clock_mono_ms() + CTL_TAKEOVER_WAIT_MS;

	while (socket_alive(path)) {
		if (clock_mono_ms() >= until)
			return true;
		usleep(CTL_TAKEOVER_STEP_MS * 1000);
	}
	return false;
}

static int listen_on(struct ctl *c)
{
	struct sockaddr_un sun;
	struct stat st;
	int fd, ret;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	fill_addr(&sun, c->path);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		if (errno != EADDRINUSE) {
			ret = -errno;
			goto fail;
		}
		if (socket_held(c->path)) {
			ret = -EADDRINUSE;
			goto fail;
		}
		nf_log(NF_LOG_INFO, "ctl: replacing stale socket %s",
		       c->path);
		if (unlink(c->path) < 0 && errno != ENOENT) {
			ret = -errno;
			goto fail;
		}
		if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
			ret = -errno;
			goto fail;
		}
	}
	/* The directory is 0700 already: nobody else can reach the file in
	 * the moment before chmod. */
	if (chmod(c->path, 0600) < 0 || lstat(c->path, &st) < 0 ||
	    listen(fd, 8) < 0) {
		ret = -errno;
		unlink(c->path);
		goto fail;
	}
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	c->lfd = fd;
	return 0;
fail:
	close(fd);
	return ret;
}

/* Remove the socket file unless another daemon has replaced it since. */
static void unlink_if_ours(struct ctl *c)
{
	struct stat st;

	if (lstat(c->path, &st) == 0 && st.st_dev == c->dev &&
	    st.st_ino == c->ino)
		unlink(c->path);
}

/* ---- connections ---- */

static void conn_close(struct ctl *c, unsigned i)
{
	struct ctl_conn *k = c->conns[i];

	if (k->trace)
		trace_unsubscribe(k->fd); /* no send to fd after this */
	close(k->fd);
	free(k);
	c->conns[i] = c->conns[--c->nconns];
}

static int send_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Blocking from now on, but never for more than CTL_SEND_TIMEOUT_S a
 * write: the answer goes out in one go. */
static void conn_blocking(int fd)
{
	struct timeval tv = { .tv_sec = CTL_SEND_TIMEOUT_S };
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* A whole line arrived: answer it.  Returns true to keep the connection
 * (a trace listener). */
static bool conn_run(struct ctl *c, struct ctl_conn *k, char *line)
{
	struct ctl_out out = { .s = g_string_new(NULL), .peer = &k->peer };
	enum ctl_result r;
	GString *msg;
	bool keep = false;

	r = ctl_dispatch(c, line, &out);
	conn_blocking(k->fd);
	msg = g_string_new(NULL);
	if (r == CTL_ERROR) {
		/* one line: newlines of a hook's message become "; " */
		g_string_append(msg, "ERR ");
		for (const char *p = out.s->str; *p; p++) {
			if (*p != '\n')
				g_string_append_c(msg, *p);
			else if (p[1])
				g_string_append(msg, "; ");
		}
		g_string_append_c(msg, '\n');
	} else if (r == CTL_TRACE) {
		/* Subscribe first, so that "OK" promises a live stream; a
		 * trace line may then overtake "OK", which the client
		 * tolerates (trace lines start with a time stamp). */
		if (trace_subscribe(k->fd) == 0) {
			k->trace = true;
			keep = true;
			g_string_append(msg, "OK\n");
		} else {
			g_string_append(msg, "ERR too many trace listeners\n");
		}
	} else {
		g_string_append(msg, "OK\n");
		g_string_append_len(msg, out.s->str, (gssize)out.s->len);
	}
	if (send_all(k->fd, msg->str, msg->len) < 0)
		keep = false;
	g_string_free(msg, TRUE);
	g_string_free(out.s, TRUE);
	return keep;
}

/* Data (or EOF) on connection i.  Returns false when it was closed. */
static bool conn_input(struct ctl *c, unsigned i)
{
	struct ctl_conn *k = c->conns[i];
	char *nl;
	ssize_t n;

	if (k->trace) {
		char sink[256];

		n = recv(k->fd, sink, sizeof(sink), MSG_DONTWAIT);
		if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EINTR)))
			return true;
		conn_close(c, i); /* the listener went away */
		return false;
	}
	n = recv(k->fd, k->buf + k->len, sizeof(k->buf) - 1 - k->len,
		 MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	if (n <= 0) {
		conn_close(c, i);
		return false;
	}
	k->len += (size_t)n;
	k->buf[k->len] = '\0';
	nl = memchr(k->buf, '\n', k->len);
	if (!nl && k->len < sizeof(k->buf) - 1)
		return true;
	if (!nl) {
		conn_blocking(k->fd);
		send_all(k->fd, "ERR command line too long\n", 26);
		conn_close(c, i);
		return false;
	}
	*nl = '\0';
	if (nl > k->buf && nl[-1] == '\r')
		nl[-1] = '\0';
	if (conn_run(c, k, k->buf))
		return true;
	conn_close(c, i);
	return false;
}

/* The peer's identity.  Without SO_PEERGROUPS (before Linux 4.13) the
 * peer has no supplementary groups as far as commands know: they then
 * allow less, never more. */
static void peer_of(int fd, const struct ucred *cred, struct ctl_peer *p)
{
	socklen_t glen = sizeof(p->groups);

	p->pid = cred->pid;
	p->uid = cred->uid;
	p->gid = cred->gid;
	p->ngroups = 0;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, p->groups, &glen) == 0)
		p->ngroups = glen / sizeof(gid_t);
}

static void accept_one(struct ctl *c)
{
	struct ctl_conn *k;
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	int fd;

	fd = accept4(c->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	/* The file mode keeps others out already; say no to anyone who got
	 * in some other way (a descriptor passed on). */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0 ||
	    (cred.uid != geteuid() && cred.uid != 0) ||
	    c->nconns >= CTL_MAX_CONNS) {
		close(fd);
		return;
	}
	k = calloc(1, sizeof(*k));
	if (!k) {
		close(fd);
		return;
	}
	k->fd = fd;
	peer_of(fd, &cred, &k->peer);
	k->deadline_ms = clock_mono_ms() + CTL_CMD_TIMEOUT_MS;
	c->conns[c->nconns++] = k;
}

static void *ctl_thread(void *arg)
{
	struct ctl *c = arg;
	struct pollfd pfd[2 + CTL_MAX_CONNS];
	struct ctl_conn *polled[CTL_MAX_CONNS];

	for (;;) {
		int64_t now = clock_mono_ms(), next = -1;
		unsigned n = 0, np;
		int timeout;

		pfd[0] = (struct pollfd){ .fd = c->wake[0], .events = POLLIN };
		pfd[1] = (struct pollfd){
			.fd = c->nconns < CTL_MAX_CONNS ? c->lfd : -1,
			.events = POLLIN };
		for (unsigned i = 0; i < c->nconns; i++) {
			struct ctl_conn *k = c->conns[i];

			if (!k->trace && (next < 0 || k->deadline_ms < next))
				next = k->deadline_ms;
			polled[n] = k;
			pfd[2 + n++] = (struct pollfd){ .fd = k->fd,
							.events = POLLIN };
		}
		np = n;
		timeout = next < 0 ? -1 : next <= now ? 0 : (int)(next - now);
		if (poll(pfd, 2 + np, timeout) < 0 && errno != EINTR) {
			nf_log(NF_LOG_ERR, "ctl: poll: %s", strerror(errno));
			break;
		}
		if (pfd[0].revents)
			break;
		/* Connections first (their indexes move as they close),
		 * found again by pointer. */
		for (unsigned j = 0; j < np; j++) {
			if (!pfd[2 + j].revents)
				continue;
			for (unsigned i = 0; i < c->nconns; i++) {
				if (c->conns[i] == polled[j]) {
					conn_input(c, i);
					break;
				}
			}
		}
		now = clock_mono_ms();
		for (unsigned i = 0; i < c->nconns;) {
			if (!c->conns[i]->trace &&
			    c->conns[i]->deadline_ms <= now)
				conn_close(c, i); /* never sent its line */
			else
				i++;
		}
		if (pfd[1].revents)
			accept_one(c);
	}
	return NULL;
}

/* ---- start and stop ---- */

int ctl_start(const char *mountpoint, const struct ctl_hooks *h,
	      struct ctl **out)
{
	char dir[CTL_PATH_MAX];
	sigset_t all, old;
	struct ctl *c;
	int ret;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->h = *h;
	c->started_ms = clock_mono_ms();
	c->lfd = c->wake[0] = c->wake[1] = -1;
	ret = ctl_sock_path(mountpoint, c->path, sizeof(c->path),
			    c->mountpoint, sizeof(c->mountpoint));
	if (ret == 0)
		ret = ctl_sock_dir(dir, sizeof(dir));
	if (ret == 0)
		ret = prepare_dir(dir);
	if (ret)
		goto fail;
	ret = listen_on(c);
	if (ret)
		goto fail;
	if (pipe2(c->wake, O_CLOEXEC) < 0) {
		ret = -errno;
		goto fail_unlink;
	}
	/* Signals are for the FUSE loop, not for this thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = -pthread_create(&c->thread, NULL, ctl_thread, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		goto fail_unlink;
	*out = c;
	return 0;

fail_unlink:
	unlink_if_ours(c);
fail:
	if (c->wake[0] >= 0) {
		close(c->wake[0]);
		close(c->wake[1]);
	}
	if (c->lfd >= 0)
		close(c->lfd);
	nf_log(NF_LOG_WARNING, "ctl: no control socket for %s: %s",
	       mountpoint, strerror(-ret));
	free(c);
	return ret;
}

void ctl_stop(struct ctl *c)
{
	char b = 0;

	if (!c)
		return;
	while (write(c->wake[1], &b, 1) < 0 && errno == EINTR)
		;
	pthread_join(c->thread, NULL);
	while (c->nconns)
		conn_close(c, 0);
	unlink_if_ours(c);
	close(c->lfd);
	close(c->wake[0]);
	close(c->wake[1]);
	free(c);
}

const char *ctl_socket_path(const struct ctl *c)
{
	return c->path;
}
