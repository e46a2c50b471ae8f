// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfs4_delegproxy: a test-only NFSv4.1 proxy that grants read delegations
 * (and with --write-delegations write ones) and recalls them, asks a
 * write delegation's holder for the size others see (CB_GETATTR), and
 * tells blocked lock waiters that a lock may be free (CB_NOTIFY_LOCK), in
 * front of a server that does none of it.
 *
 *   nfs4_delegproxy --to 127.0.0.1:PORT [--listen PORT] [--ready-file FILE]
 *                   [--stats-file FILE] [--recall-timeout SECONDS]
 *                   [--write-delegations] [--revoke]
 *
 * Each client connection gets a connection of its own to the server, and
 * whole RPC records go across (sent on as one fragment each); deleg.c
 * decides what is rewritten, held or answered here.  --listen (default 0:
 * a free port) is on 127.0.0.1 only, and --to must be a 127.0.0.0/8
 * address: this is a test tool.  The port is written to --ready-file.
 * --revoke revokes delegations where they would be recalled (revoke.c).
 *
 * Write delegations are granted only with --write-delegations: without
 * it the proxy behaves as the tests written before them expect, whatever
 * the client asks for.
 *
 * Log: one line per event on stderr ("accept conn=N", "session ...",
 * "grant ... type=read|write", "recall ...", "recall-reply ...", "hold
 * ...", "release ... on=return|timeout|close|cb-getattr|
 * cb-getattr-timeout", "return ...", "timeout ...", "drop ...",
 * "cb-getattr ...", "cb-getattr-reply conn=N status=S size=X change=Y",
 * "patch ...", "blocked ...", "notify ...", "notify-reply ...",
 * "waiter-granted ...", "error ...", "close conn=N WHY"), and at exit
 * "summary" with the counters.  The counters ("granted N", one per line)
 * are written again to --stats-file after every event, whole (a rename),
 * so a test can read them at any time; cb_getattr_size and
 * cb_getattr_change are the last values a holder told, not counters.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "delegproxy.h"
#include "revoke.h"

/* Larger than any NFSv4 message of this client (1 MiB READ or WRITE). */
#define MAX_RECORD (16u << 20)
/* Past this many bytes waiting to go out on one side, the other side is
 * not read: a slow reader slows its peer instead of filling memory. */
#define OUT_HIGH (4u << 20)
#define MAX_CONNS 64

struct dp_stats dp_st;
unsigned int dp_recall_timeout_s = 15;
bool dp_grant_writes;

static struct dp_conn *conns;
static unsigned int conn_next_id = 1;
static int lfd = -1;
static struct sockaddr_in to_addr;
static const char *stats_path;
static bool stats_dirty = true;
static volatile sig_atomic_t stop_signal;

uint64_t dp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void dp_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

const char *dp_hex(const uint8_t *p, size_t n, char *out, size_t outlen)
{
	size_t i;

	if (!outlen)
		return out;
	out[0] = '\0';
	for (i = 0; i < n && 2 * i + 2 < outlen; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
	return out;
}

static void stats_text(char *b, size_t bl, const char *sep)
{
	static const struct {
		const char *name;
		const uint64_t *v;
	} counters[] = {
#define C(x) { #x, &dp_st.x }
		C(granted), C(granted_write), C(recalls_sent),
		C(recall_replies), C(recall_replies_ok), C(returned), C(held),
		C(released_on_return), C(released_on_timeout),
		C(released_on_close), C(dropped_on_close), C(blocked_denied),
		C(notifies_sent), C(notify_replies), C(notify_replies_ok),
		C(cb_getattrs_sent), C(cb_getattr_replies),
		C(cb_getattr_replies_ok), C(cb_getattr_timeouts),
		C(cb_getattr_size), C(cb_getattr_change), C(errors),
#undef C
	};
	size_t i, n = 0;
	int w;

	if (bl)
		b[0] = '\0';
	for (i = 0; i < sizeof(counters) / sizeof(counters[0]) && n < bl;
	     i++) {
		w = snprintf(b + n, bl - n, "%s %llu%s", counters[i].name,
			     (unsigned long long)*counters[i].v, sep);
		if (w < 0)
			return;
		n += (size_t)w;
	}
	revoke_stats_text(b, bl, sep);
}

/* Written whole under a temporary name, so a reader never sees half. */
static int write_whole(const char *path, const char *text)
{
	char tmp[4096];
	FILE *f;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return -1;
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fputs(text, f);
	if (fclose(f) != 0 || rename(tmp, path) < 0)
		return -1;
	return 0;
}

void dp_stats_changed(void)
{
	stats_dirty = true;
}

/* Once per turn of the loop, not per message: a WRITE-heavy run would
 * otherwise rewrite the file for every call. */
static void stats_write(void)
{
	char text[2048];

	if (!stats_path || !stats_dirty)
		return;
	stats_dirty = false;
	stats_text(text, sizeof(text), "\n");
	if (write_whole(stats_path, text))
		dp_log("error cannot write %s: %s", stats_path,
		       strerror(errno));
}

struct dp_conn *dp_conn_by_id(unsigned int id)
{
	struct dp_conn *c;

	for (c = conns; c; c = c->next)
		if (c->id == id)
			return c;
	return NULL;
}

/* ---- sockets ---- */

static void conn_close(struct dp_conn *c, const char *why)
{
	if (c->dead)
		return;
	c->dead = true;
	dp_log("close conn=%u %s", c->id, why);
	deleg_conn_closed(c);
	revoke_conn_closed(c);
}

static bool buf_reserve(struct dp_buf *b, size_t more)
{
	size_t cap;
	uint8_t *np;

	if (b->cap - b->len >= more)
		return true;
	if (more > SIZE_MAX / 2 - b->len)
		return false;
	cap = b->cap ? b->cap : 4096;
	while (cap - b->len < more)
		cap *= 2;
	np = realloc(b->p, cap);
	if (!np)
		return false;
	b->p = np;
	b->cap = cap;
	return true;
}

static void side_flush(struct dp_conn *c, struct dp_side *s)
{
	while (s->out_off < s->out.len) {
		ssize_t w = send(s->fd, s->out.p + s->out_off,
				 s->out.len - s->out_off, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (w <= 0) {
			conn_close(c, s == &c->cli ? "send to client failed" :
						   "send to server failed");
			return;
		}
		s->out_off += (size_t)w;
	}
	if (s->out_off == s->out.len) {
		s->out.len = s->out_off = 0;
	} else if (s->out_off > s->out.len / 2) {
		memmove(s->out.p, s->out.p + s->out_off,
			s->out.len - s->out_off);
		s->out.len -= s->out_off;
		s->out_off = 0;
	}
}

bool dp_send(struct dp_conn *c, struct dp_side *s, const uint8_t *p,
	     size_t len)
{
	if (c->dead)
		return false;
	if (len > MAX_RECORD || !buf_reserve(&s->out, len + 4)) {
		conn_close(c, "message too large or out of memory");
		return false;
	}
	/* One fragment, the last: record marking, RFC 5531 §11. */
	xdr_put_u32(s->out.p + s->out.len, 0x80000000u | (uint32_t)len);
	memcpy(s->out.p + s->out.len + 4, p, len);
	if (s == &c->cli)
		revoke_outgoing(c, s->out.p + s->out.len + 4, len);
	s->out.len += len + 4;
	side_flush(c, s);
	return !c->dead;
}

/* Bytes read from s fed to the record reader; whole records go to deleg.c. */
static void side_input(struct dp_conn *c, struct dp_side *s,
		       const uint8_t *p, size_t n)
{
	size_t k;
	uint32_t mark;

	while (n && !c->dead) {
		if (!s->in_frag) {
			k = 4 - s->mark_got < n ? 4 - s->mark_got : n;
			memcpy(s->mark + s->mark_got, p, k);
			s->mark_got += k;
			p += k;
			n -= k;
			if (s->mark_got < 4)
				return;
			s->mark_got = 0;
			mark = xdr_get_u32(s->mark);
			s->frag_last = mark & 0x80000000u;
			s->frag_left = mark & 0x7fffffffu;
			if (s->frag_left > MAX_RECORD - s->in.len) {
				conn_close(c, "record too large");
				return;
			}
			if (!buf_reserve(&s->in, s->frag_left)) {
				conn_close(c, "out of memory");
				return;
			}
			s->in_frag = true;
		}
		k = s->frag_left < n ? s->frag_left : n;
		memcpy(s->in.p + s->in.len, p, k);
		s->in.len += k;
		s->frag_left -= (uint32_t)k;
		p += k;
		n -= k;
		if (s->frag_left)
			continue;
		s->in_frag = false;
		if (!s->frag_last)
			continue;
		if (s == &c->cli)
			deleg_from_client(c, s->in.p, s->in.len);
		else
			deleg_from_server(c, s->in.p, s->in.len);
		s->in.len = 0;
	}
}

static void side_read(struct dp_conn *c, struct dp_side *s)
{
	static uint8_t buf[256 * 1024];
	ssize_t r = recv(s->fd, buf, sizeof(buf), 0);

	if (r < 0 && (errno == EINTR || errno == EAGAIN ||
		      errno == EWOULDBLOCK))
		return;
	if (r <= 0) {
		conn_close(c, s == &c->cli ? "eof from client" :
					   "eof from server");
		return;
	}
	side_input(c, s, buf, (size_t)r);
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ? -1 : 0;
}

static void accept_one(void)
{
	struct dp_conn *c, *x;
	int cfd, sfd, one = 1, n = 0;

	cfd = accept(lfd, NULL, NULL);
	if (cfd < 0)
		return;
	for (x = conns; x; x = x->next)
		n++;
	sfd = n < MAX_CONNS ? socket(AF_INET, SOCK_STREAM, 0) : -1;
	if (sfd < 0 ||
	    connect(sfd, (struct sockaddr *)&to_addr, sizeof(to_addr)) < 0) {
		dp_log("error cannot connect to the server: %s",
		       n < MAX_CONNS ? strerror(errno) : "too many clients");
		dp_st.errors++;
		if (sfd >= 0)
			close(sfd);
		close(cfd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c || set_nonblock(cfd) || set_nonblock(sfd)) {
		free(c);
		close(cfd);
		close(sfd);
		return;
	}
	setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(sfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->id = conn_next_id++;
	c->cli.fd = cfd;
	c->srv.fd = sfd;
	c->next = conns;
	conns = c;
	dp_log("accept conn=%u", c->id);
}

static void conn_free(struct dp_conn *c)
{
	close(c->cli.fd);
	close(c->srv.fd);
	free(c->cli.in.p);
	free(c->cli.out.p);
	free(c->srv.in.p);
	free(c->srv.out.p);
	free(c->pend);
	free(c);
}

static void reap(void)
{
	struct dp_conn **pp = &conns, *c;

	while ((c = *pp)) {
		if (c->dead) {
			*pp = c->next;
			conn_free(c);
		} else {
			pp = &c->next;
		}
	}
}

/* ---- the loop ---- */

static short side_events(const struct dp_side *s, const struct dp_side *peer)
{
	short ev = 0;

	if (peer->out.len - peer->out_off < OUT_HIGH)
		ev |= POLLIN;
	if (s->out_off < s->out.len)
		ev |= POLLOUT;
	return ev;
}

static void side_ready(struct dp_conn *c, struct dp_side *s, short rev)
{
	if (c->dead)
		return;
	if (rev & POLLOUT)
		side_flush(c, s);
	if (!c->dead && (rev & (POLLIN | POLLHUP | POLLERR)))
		side_read(c, s);
}

static int run(const sigset_t *mask)
{
	static struct pollfd pfd[1 + 2 * MAX_CONNS];
	static struct dp_conn *owner[1 + 2 * MAX_CONNS];
	struct dp_conn *c;
	struct timespec ts;
	uint64_t now, next;
	int n, i, ms;

	while (!stop_signal) {
		now = dp_now_ms();
		next = deleg_timers(now);
		reap();
		stats_write();
		n = 0;
		pfd[n].fd = lfd;
		pfd[n++].events = POLLIN;
		for (c = conns; c && n + 2 <= 1 + 2 * MAX_CONNS; c = c->next) {
			owner[n] = c;
			pfd[n].fd = c->cli.fd;
			pfd[n++].events = side_events(&c->cli, &c->srv);
			owner[n] = c;
			pfd[n].fd = c->srv.fd;
			pfd[n++].events = side_events(&c->srv, &c->cli);
		}
		ms = next ? (int)(next > now ? next - now : 0) : 1000;
		if (ms > 1000)
			ms = 1000;
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (long)(ms % 1000) * 1000000;
		if (ppoll(pfd, (nfds_t)n, &ts, mask) < 0) {
			if (errno == EINTR)
				continue;
			dp_log("error poll: %s", strerror(errno));
			return 1;
		}
		if (pfd[0].revents & POLLIN)
			accept_one();
		for (i = 1; i < n; i++)
			if (pfd[i].revents)
				side_ready(owner[i],
					   pfd[i].fd == owner[i]->cli.fd ?
					   &owner[i]->cli : &owner[i]->srv,
					   pfd[i].revents);
	}
	return 0;
}

/* ---- set-up ---- */

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void signals_setup(sigset_t *orig)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* Blocked except inside ppoll(), so that no signal slips in
	 * between the check of stop_signal and the wait. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, orig);
	sigdelset(orig, SIGTERM);
	sigdelset(orig, SIGINT);
}

static int parse_port(const char *s, unsigned int *port)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > 65535)
		return -1;
	*port = (unsigned int)v;
	return 0;
}

static int parse_to(const char *s)
{
	char host[64];
	const char *colon = strrchr(s, ':');
	unsigned int port;

	if (!colon || (size_t)(colon - s) >= sizeof(host) ||
	    parse_port(colon + 1, &port) || port == 0)
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	memset(&to_addr, 0, sizeof(to_addr));
	to_addr.sin_family = AF_INET;
	to_addr.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &to_addr.sin_addr) != 1)
		return -1;
	/* Loopback only: a test tool never relays off the host. */
	return (ntohl(to_addr.sin_addr.s_addr) >> 24) == 127 ? 0 : -1;
}

static int open_listener(unsigned int port, unsigned int *bound)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	int one = 1;

	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		return -1;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(lfd, 16) < 0 || set_nonblock(lfd) ||
	    getsockname(lfd, (struct sockaddr *)&a, &al) < 0)
		return -1;
	*bound = ntohs(a.sin_port);
	return 0;
}

static void usage(FILE *out)
{
	fputs("usage: nfs4_delegproxy --to 127.0.0.1:PORT [--listen PORT]\n"
	      "         [--ready-file FILE] [--stats-file FILE]"
	      " [--recall-timeout SECONDS]\n"
	      "         [--write-delegations] [--revoke]\n", out);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "to", required_argument, NULL, 't' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ "stats-file", required_argument, NULL, 's' },
		{ "recall-timeout", required_argument, NULL, 'T' },
		{ "write-delegations", no_argument, NULL, 'w' },
		{ "revoke", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ready = NULL;
	unsigned int port = 0, bound, secs;
	bool have_to = false;
	char text[2048], num[16];
	sigset_t mask;
	struct dp_conn *c;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			if (parse_port(optarg, &port)) {
				fprintf(stderr, "nfs4_delegproxy: bad --listen %s\n",
					optarg);
				return 2;
			}
			break;
		case 't':
			if (parse_to(optarg)) {
				fprintf(stderr, "nfs4_delegproxy: --to needs "
					"127.x.y.z:PORT, not %s\n", optarg);
				return 2;
			}
			have_to = true;
			break;
		case 'r':
			ready = optarg;
			break;
		case 's':
			stats_path = optarg;
			break;
		case 'T':
			if (parse_port(optarg, &secs) || secs == 0) {
				fprintf(stderr, "nfs4_delegproxy: bad "
					"--recall-timeout %s\n", optarg);
				return 2;
			}
			dp_recall_timeout_s = secs;
			break;
		case 'w':
			dp_grant_writes = true;
			break;
		case 'R':
			revoke_enabled = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!have_to || optind != argc) {
		usage(stderr);
		return 2;
	}
	signals_setup(&mask);
	if (open_listener(port, &bound)) {
		fprintf(stderr, "nfs4_delegproxy: cannot listen on port %u: %s\n",
			port, strerror(errno));
		return 1;
	}
	dp_log("listening port=%u recall-timeout=%u write-delegations=%s%s",
	       bound, dp_recall_timeout_s, dp_grant_writes ? "yes" : "no",
	       revoke_enabled ? " revoke" : "");
	stats_write();
	snprintf(num, sizeof(num), "%u\n", bound);
	ret = 1;
	if (ready && write_whole(ready, num)) {
		fprintf(stderr, "nfs4_delegproxy: cannot write %s: %s\n", ready,
			strerror(errno));
		goto out;
	}
	ret = run(&mask);
	stats_write();
	stats_text(text, sizeof(text), " ");
	dp_log("summary %s", text);
out:
	for (c = conns; c; c = c->next)
		c->dead = true;
	reap();
	deleg_free_all();
	revoke_free_all();
	close(lfd);
	return ret;
}
