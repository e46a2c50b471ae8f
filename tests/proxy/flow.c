// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flows: TCP connection pairs with RPC record marking, and UDP client
 * mappings.
 *
 * TCP records are reassembled from their fragments and sent on as a single
 * last fragment: the receiver sees the same RPC message, and every fault
 * applies to a whole message.  Half-closes are passed on: when one side
 * stops sending, the other side's write half is shut once everything queued
 * for it (including delayed and held messages) has gone out.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nfsproxy.h"

#define LAST_FRAG	0x80000000u

static const char *const side_name[] = { "client", "server" };

static struct flow *flow_new(void)
{
	struct flow *fl;

	if (P.nflows >= PROXY_MAX_FLOWS)
		return NULL;
	fl = calloc(1, sizeof(*fl));
	if (!fl)
		return NULL;
	fl->cfd = fl->sfd = -1;
	fl->next = P.flows;
	P.flows = fl;
	P.nflows++;
	return fl;
}

/* Marks fl dead and closes its sockets; memory goes in flow_free_dead(). */
void flow_close(struct flow *fl, const char *why)
{
	if (fl->dead)
		return;
	fl->dead = true;
	P.st.closes++;
	plog("close %s %s", fl->name, why);
	if (fl->cfd >= 0)
		close(fl->cfd);
	if (fl->sfd >= 0)
		close(fl->sfd);
	fl->cfd = fl->sfd = -1;
}

static void flow_free(struct flow *fl)
{
	int d;

	for (d = DIR_CALL; d <= DIR_REPLY; d++) {
		free(fl->in[d].buf);
		free(fl->out[d].buf);
		msg_free(fl->held[d]);
	}
	free(fl);
}

void flow_free_dead(void)
{
	struct flow **pp = &P.flows, *fl;

	while ((fl = *pp)) {
		if (fl->dead && fl->refs == 0) {
			*pp = fl->next;
			P.nflows--;
			flow_free(fl);
		} else {
			pp = &fl->next;
		}
	}
}

static void close_errno(struct flow *fl, const char *what, int err)
{
	char why[128];

	snprintf(why, sizeof(why), "%s: %s", what, strerror(err));
	flow_close(fl, why);
}

/* ---- TCP ---- */

static size_t backlog(const struct flow *fl, enum dir dir)
{
	return fl->out[dir].len + fl->queued[dir];
}

/* Passes on a half-close once nothing more can go that way. */
static void maybe_shut(struct flow *fl, enum dir dir)
{
	int fd = dir == DIR_CALL ? fl->sfd : fl->cfd;

	if (fl->dead || fl->udp || !fl->eof[dir] || fl->shut[dir] ||
	    backlog(fl, dir) || fl->held[dir] ||
	    (dir == DIR_CALL && fl->connecting))
		return;
	shutdown(fd, SHUT_WR);
	fl->shut[dir] = true;
	if (fl->shut[DIR_CALL] && fl->shut[DIR_REPLY])
		flow_close(fl, "eof");
}

static void tcp_flush(struct flow *fl, enum dir dir)
{
	struct outbuf *ob = &fl->out[dir];
	int fd = dir == DIR_CALL ? fl->sfd : fl->cfd;

	if (fl->dead || (dir == DIR_CALL && fl->connecting))
		return;
	while (ob->len) {
		ssize_t n = send(fd, ob->buf + ob->off, ob->len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n < 0) {
			close_errno(fl, dir == DIR_CALL ? "send to server" :
				    "send to client", errno);
			return;
		}
		ob->off += (size_t)n;
		ob->len -= (size_t)n;
	}
	ob->off = 0;
	maybe_shut(fl, dir);
}

static int outbuf_append(struct outbuf *ob, uint32_t mark,
			 const uint8_t *data, size_t len)
{
	size_t need = ob->len + 4 + len;

	if (ob->off && ob->off + need > ob->cap) {
		memmove(ob->buf, ob->buf + ob->off, ob->len);
		ob->off = 0;
	}
	if (ob->off + need > ob->cap) {
		size_t cap = ob->cap ? ob->cap * 2 : 4096;
		uint8_t *p;

		if (cap < need)
			cap = need;
		p = realloc(ob->buf, cap);
		if (!p)
			return -ENOMEM;
		ob->buf = p;
		ob->cap = cap;
	}
	ob->buf[ob->off + ob->len] = (uint8_t)(mark >> 24);
	ob->buf[ob->off + ob->len + 1] = (uint8_t)(mark >> 16);
	ob->buf[ob->off + ob->len + 2] = (uint8_t)(mark >> 8);
	ob->buf[ob->off + ob->len + 3] = (uint8_t)mark;
	memcpy(ob->buf + ob->off + ob->len + 4, data, len);
	ob->len += 4 + len;
	return 0;
}

static void udp_send(struct flow *fl, enum dir dir, const uint8_t *data,
		     size_t len)
{
	ssize_t n;

	/* Lost datagrams are what UDP clients expect: errors only logged. */
	if (dir == DIR_CALL)
		n = send(fl->sfd, data, len, 0);
	else
		n = sendto(P.lfd, data, len, 0, (struct sockaddr *)&fl->caddr,
			   fl->caddrlen);
	if (n < 0)
		plog("send %s %s failed: %s", fl->name, side_name[!dir],
		     strerror(errno));
}

void flow_send(struct flow *fl, enum dir dir, const uint8_t *data,
	       size_t len)
{
	if (fl->dead || fl->shut[dir])
		return;
	if (fl->udp) {
		udp_send(fl, dir, data, len);
		return;
	}
	/* len <= PROXY_MAX_RECORD: faults never make a record longer. */
	if (outbuf_append(&fl->out[dir], LAST_FRAG | (uint32_t)len, data,
			  len)) {
		flow_close(fl, "out of memory");
		return;
	}
	tcp_flush(fl, dir);
}

static int recin_grow(struct recin *r, size_t need)
{
	size_t cap;
	uint8_t *p;

	if (need <= r->cap)
		return 0;
	cap = r->cap ? r->cap * 2 : 4096;
	if (cap < need)
		cap = need;
	if (cap > PROXY_MAX_RECORD)
		cap = PROXY_MAX_RECORD;
	p = realloc(r->buf, cap);
	if (!p)
		return -ENOMEM;
	r->buf = p;
	r->cap = cap;
	return 0;
}

/* A whole record: hand it on; the next one starts from scratch. */
static int recin_done(struct flow *fl, enum dir dir)
{
	struct recin *r = &fl->in[dir];
	uint8_t *data = r->buf;
	size_t len = r->len;

	/* Shorter than an XID: not an RPC message at all. */
	if (len < 4)
		return -EBADMSG;
	r->buf = NULL;
	r->len = r->cap = 0;
	proxy_message(fl, dir, data, len);
	return 0;
}

/*
 * Feeds bytes read from one side into its record parser.  -EMSGSIZE for a
 * record over PROXY_MAX_RECORD, -EBADMSG for one too short to hold an XID.
 */
static int recin_feed(struct flow *fl, enum dir dir, const uint8_t *p,
		      size_t n)
{
	struct recin *r = &fl->in[dir];
	size_t take;
	int err;

	while (n && !fl->dead) {
		if (r->mark_got < 4) {
			take = n < 4 - r->mark_got ? n : 4 - r->mark_got;
			memcpy(r->mark + r->mark_got, p, take);
			r->mark_got += take;
			if (r->mark_got < 4)
				return 0;
			r->last = r->mark[0] & 0x80;
			r->frag_left = ((uint32_t)(r->mark[0] & 0x7f) << 24) |
				       (uint32_t)r->mark[1] << 16 |
				       (uint32_t)r->mark[2] << 8 | r->mark[3];
			if (r->frag_left > PROXY_MAX_RECORD - r->len)
				return -EMSGSIZE;
		} else {
			take = n < r->frag_left ? n : r->frag_left;
			if (recin_grow(r, r->len + take))
				return -ENOMEM;
			memcpy(r->buf + r->len, p, take);
			r->len += take;
			r->frag_left -= (uint32_t)take;
		}
		p += take;
		n -= take;
		if (r->frag_left == 0) {
			r->mark_got = 0;
			if (r->last) {
				err = recin_done(fl, dir);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

static void tcp_eof(struct flow *fl, enum dir dir)
{
	struct recin *r = &fl->in[dir];

	fl->eof[dir] = true;
	plog("eof %s from %s%s", fl->name, side_name[dir],
	     r->len || r->mark_got ? " (partial record discarded)" : "");
	free(r->buf);
	memset(r, 0, sizeof(*r));
	maybe_shut(fl, dir);
}

static void tcp_read(struct flow *fl, enum dir dir)
{
	static uint8_t buf[65536];
	int fd = dir == DIR_CALL ? fl->cfd : fl->sfd;
	ssize_t n;
	int err;

	n = read(fd, buf, sizeof(buf));
	if (n < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			close_errno(fl, dir == DIR_CALL ? "read from client" :
				    "read from server", errno);
		return;
	}
	if (n == 0) {
		tcp_eof(fl, dir);
		return;
	}
	err = recin_feed(fl, dir, buf, (size_t)n);
	if (err == -EMSGSIZE || err == -EBADMSG) {
		char why[64];

		P.st.malformed++;
		snprintf(why, sizeof(why), "%s from %s",
			 err == -EMSGSIZE ? "record over 16 MiB" :
			 "malformed record", side_name[dir]);
		flow_close(fl, why);
	} else if (err) {
		close_errno(fl, "record", -err);
	}
}

static void set_nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static void tcp_connect(struct flow *fl)
{
	fl->sfd = socket(P.to.ss_family, SOCK_STREAM | SOCK_NONBLOCK |
			 SOCK_CLOEXEC, 0);
	if (fl->sfd < 0) {
		close_errno(fl, "socket", errno);
		return;
	}
	set_nodelay(fl->sfd);
	if (connect(fl->sfd, (struct sockaddr *)&P.to, P.tolen) == 0)
		return;
	if (errno == EINPROGRESS) {
		fl->connecting = true;
		return;
	}
	close_errno(fl, "connect to server", errno);
}

/* Accepts one client; 0 when there is none left, else 1. */
int tcp_accept(void)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct flow *fl;
	char name[64];
	int cfd;

	cfd = accept4(P.lfd, (struct sockaddr *)&ss, &sl,
		      SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			plog("accept failed: %s", strerror(errno));
		return 0;
	}
	addr_str(&ss, name, sizeof(name));
	P.st.accepts++;
	plog("accept %s", name);
	fl = flow_new();
	if (!fl) {
		plog("close %s too many connections", name);
		close(cfd);
		return 1;
	}
	fl->cfd = cfd;
	fl->caddr = ss;
	fl->caddrlen = sl;
	snprintf(fl->name, sizeof(fl->name), "%s", name);
	set_nodelay(cfd);
	tcp_connect(fl);
	return 1;
}

static void tcp_connected(struct flow *fl)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if (getsockopt(fl->sfd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		err = errno;
	if (err) {
		close_errno(fl, "connect to server", err);
		return;
	}
	fl->connecting = false;
	tcp_flush(fl, DIR_CALL);
}

/* ---- UDP ---- */

static bool same_addr(const struct sockaddr_storage *a,
		      const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET) {
		const struct sockaddr_in *x = (const void *)a;
		const struct sockaddr_in *y = (const void *)b;

		return x->sin_port == y->sin_port &&
		       x->sin_addr.s_addr == y->sin_addr.s_addr;
	}
	if (a->ss_family == AF_INET6) {
		const struct sockaddr_in6 *x = (const void *)a;
		const struct sockaddr_in6 *y = (const void *)b;

		return x->sin6_port == y->sin6_port &&
		       !memcmp(&x->sin6_addr, &y->sin6_addr,
			       sizeof(x->sin6_addr));
	}
	return false;
}

static struct flow *udp_flow(const struct sockaddr_storage *ss,
			     socklen_t sl)
{
	struct flow *fl;
	char name[64];

	for (fl = P.flows; fl; fl = fl->next)
		if (!fl->dead && same_addr(&fl->caddr, ss))
			return fl;
	addr_str(ss, name, sizeof(name));
	fl = flow_new();
	if (!fl) {
		plog("udp-peer %s refused: too many clients", name);
		return NULL;
	}
	fl->udp = true;
	fl->caddr = *ss;
	fl->caddrlen = sl;
	snprintf(fl->name, sizeof(fl->name), "%s", name);
	P.st.accepts++;
	plog("udp-peer %s", name);
	fl->sfd = socket(P.to.ss_family, SOCK_DGRAM | SOCK_NONBLOCK |
			 SOCK_CLOEXEC, 0);
	if (fl->sfd < 0 ||
	    connect(fl->sfd, (struct sockaddr *)&P.to, P.tolen) < 0) {
		close_errno(fl, "udp socket to server", errno);
		return NULL;
	}
	return fl;
}

static void udp_deliver(struct flow *fl, enum dir dir, const uint8_t *buf,
			size_t len)
{
	uint8_t *data = malloc(len ? len : 1);

	if (!data)
		return;
	memcpy(data, buf, len);
	fl->last_active = now_ms();
	proxy_message(fl, dir, data, len);
}

/* Reads what the clients sent, a bounded batch per round. */
void udp_recv_client(void)
{
	static uint8_t buf[65536];
	struct sockaddr_storage ss;
	socklen_t sl;
	struct flow *fl;
	ssize_t n;
	int i;

	for (i = 0; i < 64; i++) {
		sl = sizeof(ss);
		n = recvfrom(P.lfd, buf, sizeof(buf), 0,
			     (struct sockaddr *)&ss, &sl);
		if (n < 0)
			return;
		fl = udp_flow(&ss, sl);
		if (fl)
			udp_deliver(fl, DIR_CALL, buf, (size_t)n);
	}
}

static void udp_recv_server(struct flow *fl)
{
	static uint8_t buf[65536];
	ssize_t n;
	int i;

	for (i = 0; i < 64 && !fl->dead; i++) {
		n = recv(fl->sfd, buf, sizeof(buf), 0);
		/* ECONNREFUSED: an ICMP error for an earlier datagram.  The
		 * client will retransmit; keep the mapping. */
		if (n < 0)
			return;
		udp_deliver(fl, DIR_REPLY, buf, (size_t)n);
	}
}

void flows_expire_udp(uint64_t now)
{
	struct flow *fl;

	for (fl = P.flows; fl; fl = fl->next)
		if (fl->udp && !fl->dead &&
		    now - fl->last_active > PROXY_UDP_IDLE_MS)
			flow_close(fl, "idle");
}

/* ---- both ---- */

void flows_cut_all(void)
{
	struct flow *fl;

	for (fl = P.flows; fl; fl = fl->next) {
		if (fl->dead)
			continue;
		P.st.cuts++;
		plog("cut %s", fl->name);
		flow_close(fl, "cut");
	}
}

/* What to poll fd of fl for; 0 means do not poll it at all. */
short flow_events(const struct flow *fl, int fd)
{
	short ev = 0;

	if (fl->dead)
		return 0;
	if (fl->udp)
		return fd == fl->sfd ? POLLIN : 0;
	if (fd == fl->cfd) {
		if (!fl->eof[DIR_CALL] &&
		    backlog(fl, DIR_CALL) < PROXY_HIGH_WATER)
			ev |= POLLIN;
		if (fl->out[DIR_REPLY].len)
			ev |= POLLOUT;
	} else if (fd == fl->sfd) {
		if (fl->connecting)
			return POLLOUT;
		if (!fl->eof[DIR_REPLY] &&
		    backlog(fl, DIR_REPLY) < PROXY_HIGH_WATER)
			ev |= POLLIN;
		if (fl->out[DIR_CALL].len)
			ev |= POLLOUT;
	}
	return ev;
}

void flow_ready(struct flow *fl, int fd, short revents)
{
	enum dir in, out;
	short want;

	if (fl->dead || (fd != fl->cfd && fd != fl->sfd))
		return;
	if (fl->udp) {
		if (revents & (POLLIN | POLLERR))
			udp_recv_server(fl);
		return;
	}
	if (fd == fl->sfd && fl->connecting) {
		tcp_connected(fl);
		return;
	}
	in = fd == fl->cfd ? DIR_CALL : DIR_REPLY;
	out = in == DIR_CALL ? DIR_REPLY : DIR_CALL;
	want = flow_events(fl, fd);
	if ((want & POLLIN) && (revents & (POLLIN | POLLHUP | POLLERR)))
		tcp_read(fl, in);
	if (!fl->dead && (want & POLLOUT) &&
	    (revents & (POLLOUT | POLLHUP | POLLERR)))
		tcp_flush(fl, out);
}
