/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The TCP transport: record marking (record.c) on a non-blocking stream
 * socket.  A reconnection binds the local address and port of the previous
 * connection, so that the server's duplicate request cache, which is keyed
 * by the client's address and port, recognises the retransmitted XIDs.  To
 * make that port free at once, a connection is closed abortively (RST, no
 * TIME_WAIT on our side), as the kernel's client does.  And so that no
 * other socket of the machine takes it meanwhile, the port is ours alone
 * from the first connection on: bound explicitly (the kernel never shares
 * an explicitly bound port with another program's connect()), and held by
 * an unconnected socket bound to it while the connection is down, which
 * the next connection then uses.
 */
#include "rpc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "../base/log.h"

#define RPC_RESVPORT_MIN 665
#define RPC_RESVPORT_MAX 1023
/* Reconnect attempts on the previous local port while bind() finds it
 * busy, before any port will do. */
#define RPC_REBIND_TRIES 4u
/* Reads per wake-up before the thread looks at its timers again. */
#define RPC_READ_BUDGET 64

static void set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
}

static socklen_t any_addr(int family, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	ss->ss_family = (sa_family_t)family;
	if (family == AF_INET) {
		((struct sockaddr_in *)ss)->sin_addr.s_addr =
			htonl(INADDR_ANY);
		return sizeof(struct sockaddr_in);
	}
	((struct sockaddr_in6 *)ss)->sin6_addr = in6addr_any;
	return sizeof(struct sockaddr_in6);
}

/*
 * Binding a reserved port takes CAP_NET_BIND_SERVICE over the network
 * namespace, not uid 0: root of a user namespace (a rootless container)
 * has uid 0 and not that right.  Once the kernel refuses, every client of
 * the process connects from ordinary ports; that is said once, at info
 * level, since most servers accept them and one that does not refuses
 * with an error of its own.
 */
static atomic_bool resv_refused;

bool rpc_resvport_refused(void)
{
	return atomic_load(&resv_refused);
}

/* A reserved port, from a random starting point downwards. */
int rpc_bind_resvport(int fd, int family)
{
	const int span = RPC_RESVPORT_MAX - RPC_RESVPORT_MIN + 1;
	struct sockaddr_storage ss;
	socklen_t len = any_addr(family, &ss);
	int start = (int)(clock_mono_us() % (uint64_t)span);

	if (atomic_load(&resv_refused))
		return -EACCES;
	for (int i = 0; i < span; i++) {
		int port = RPC_RESVPORT_MIN + (start + span - i) % span;

		set_port(&ss, port);
		if (bind(fd, (struct sockaddr *)&ss, len) == 0)
			return 0;
		if (errno == EACCES || errno == EPERM) {
			if (!atomic_exchange(&resv_refused, true))
				nf_log(NF_LOG_INFO, "no privilege to bind a "
				       "reserved port (%s): connecting from "
				       "ordinary ports", strerror(errno));
			return -EACCES;
		}
		if (errno != EADDRINUSE)
			return -errno;
	}
	return -EADDRINUSE;
}

static int new_socket(struct rpc_clnt *c)
{
	int fd, one = 1;

	fd = socket(c->addr.ss_family,
		    SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	return fd;
}

/* Reserved ports tried before giving up on a connect that finds the
 * 4-tuple taken (SO_REUSEADDR lets bind() succeed on a port that still
 * has a connection to the same server in TIME_WAIT). */
#define RPC_RESVPORT_TRIES 128

/* A port of our own, as opposed to one that connect() picks and may share
 * with other programs' connections to other servers; those would keep us
 * from binding it again after a reconnection. */
static int bind_own_port(int fd, int family)
{
	struct sockaddr_storage ss;
	socklen_t len = any_addr(family, &ss);

	return bind(fd, (struct sockaddr *)&ss, len) == 0 ? 0 : -errno;
}

static int tcp_connect_start(struct rpc_clnt *c)
{
	bool same = c->locallen > 0;
	int tries = 0;

	for (;;) {
		int fd, ret = 0;
		bool bound = false;    /* to the previous local port */
		bool have_port = false;

		if (same && c->held_fd >= 0) {
			fd = c->held_fd;
			c->held_fd = -1;
			bound = true;
		} else {
			fd = new_socket(c);
		}
		if (fd < 0)
			return fd;
		if (same && !bound) {
			if (bind(fd, (struct sockaddr *)&c->local,
				 c->locallen) == 0) {
				bound = true;
			} else if (errno == EADDRINUSE &&
				   c->rebind_tries < RPC_REBIND_TRIES) {
				/* The port may be free again in a moment:
				 * try again after the reconnect backoff. */
				c->rebind_tries++;
				nf_log(NF_LOG_DEBUG,
				       "%s: previous local port busy, "
				       "attempt %u", c->server,
				       c->rebind_tries);
				close(fd);
				return -EADDRINUSE;
			} else {
				nf_log(NF_LOG_DEBUG,
				       "%s: cannot bind the previous local "
				       "port again (%s), using another",
				       c->server, strerror(errno));
			}
		}
		if (!bound && c->opts.resvport && tries < RPC_RESVPORT_TRIES) {
			ret = rpc_bind_resvport(fd, c->addr.ss_family);
			if (ret == 0) {
				have_port = true;
			} else if (ret == -EACCES) {
				ret = 0; /* no privilege: an ordinary port */
			} else if (ret == -EADDRINUSE) {
				/* Every reserved port is taken: fall back to
				 * an ordinary one (most servers accept it;
				 * one that does not says so clearly). */
				tries = RPC_RESVPORT_TRIES;
				ret = 0;
			}
		}
		/* Should even that fail, connect() picks one. */
		if (ret == 0 && !bound && !have_port)
			(void)bind_own_port(fd, c->addr.ss_family);
		if (tries == RPC_RESVPORT_TRIES && c->opts.resvport &&
		    !c->resv_warned) {
			c->resv_warned = true;
			/* Info, not a warning: most servers accept it, and
			 * one that does not refuses with its own error. */
			nf_log(NF_LOG_INFO, "%s: no reserved port free, "
			       "connecting from an unprivileged one",
			       c->server);
		}
		if (ret == 0 &&
		    connect(fd, (struct sockaddr *)&c->addr, c->addrlen) < 0)
			ret = -errno;
		if (ret == 0 || ret == -EINPROGRESS) {
			c->fd = fd;
			c->rebind_tries = 0;
			return ret == 0 ? 1 : 0;
		}
		close(fd);
		if (!bound && c->opts.resvport &&
		    (ret == -EADDRINUSE || ret == -EADDRNOTAVAIL) &&
		    tries < RPC_RESVPORT_TRIES) {
			tries++;
			continue;
		}
		if (bound && (ret == -EADDRINUSE || ret == -EADDRNOTAVAIL)) {
			nf_log(NF_LOG_DEBUG,
			       "%s: cannot connect from the previous local "
			       "port again (%s), using another",
			       c->server, strerror(-ret));
			same = false;
			continue;
		}
		return ret;
	}
}

static int tcp_connect_finish(struct rpc_clnt *c)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		return -errno;
	return -err;
}

static void close_abortively(int fd)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(fd);
}

static void tcp_close(struct rpc_clnt *c)
{
	if (c->held_fd >= 0) {
		close(c->held_fd);
		c->held_fd = -1;
	}
	if (c->fd >= 0) {
		close_abortively(c->fd);
		c->fd = -1;
	}
}

/* The new socket is bound before the old one goes, so that the port is
 * never free (SO_REUSEADDR on both lets them share it for that moment).
 * When it cannot be, the reconnection binds the port afresh. */
static void tcp_drop(struct rpc_clnt *c)
{
	int held = -1;

	if (c->fd >= 0 && c->held_fd < 0) {
		held = new_socket(c);
		if (held >= 0 && bind(held, (struct sockaddr *)&c->local,
				      c->locallen) < 0) {
			nf_log(NF_LOG_DEBUG, "%s: cannot hold the local port "
			       "(%s)", c->server, strerror(errno));
			close(held);
			held = -1;
		}
	}
	tcp_close(c);
	c->held_fd = held;
}

static int record_error(struct rpc_clnt *c, int ret)
{
	if (ret == -EMSGSIZE)
		nf_log(NF_LOG_WARNING,
		       "%s: RPC record over %u bytes: resetting the "
		       "connection", c->server, RPC_RECORD_MAX);
	return ret;
}

/* Bytes that arrived in c->rbuf: cut them into records. */
static int feed(struct rpc_clnt *c, size_t n)
{
	size_t off = 0, used;
	uint8_t *rec;
	size_t rec_len;
	int ret;

	while (off < n) {
		ret = rpc_record_feed(&c->rr, c->rbuf + off, n - off, &used,
				      &rec, &rec_len);
		off += used;
		if (ret < 0)
			return record_error(c, ret);
		if (ret == 1)
			rpc_deliver(c, rec, rec_len);
	}
	return 0;
}

static int tcp_recv(struct rpc_clnt *c)
{
	for (int i = 0; i < RPC_READ_BUDGET; i++) {
		uint8_t *dst, *rec;
		size_t want, rec_len;
		ssize_t n;
		int ret;

		/* Large fragment bodies go straight into the record. */
		want = rpc_record_direct(&c->rr, &dst);
		if (want < RPC_RBUF_SIZE / 16) {
			dst = c->rbuf;
			want = RPC_RBUF_SIZE;
		}
		n = recv(c->fd, dst, want, MSG_DONTWAIT);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -errno;
		}
		if (dst == c->rbuf) {
			ret = feed(c, (size_t)n);
		} else {
			ret = rpc_record_commit(&c->rr, (size_t)n, &rec,
						&rec_len);
			if (ret == 1) {
				rpc_deliver(c, rec, rec_len);
				ret = 0;
			}
		}
		if (ret < 0)
			return ret;
		/* Less than asked for: the socket is empty for now, and
		 * poll says when more comes (no recv just to hear EAGAIN). */
		if ((size_t)n < want)
			return 0;
	}
	return 0;
}

static int tcp_send(struct rpc_clnt *c)
{
	struct rpc_call_ent *e;

	while ((e = rpc_sendq_peek(c))) {
		/* The transport thread alone moves e->sent and e->msg does
		 * not change once queued: safe to read without the lock. */
		ssize_t n = send(c->fd, e->msg.buf + e->sent,
				 e->msg.len - e->sent,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0) {
			int err = errno;

			rpc_sendq_advance(c, e, 0);
			if (err == EINTR)
				continue;
			if (err == EAGAIN || err == EWOULDBLOCK)
				return 0;
			return -err;
		}
		rpc_sendq_advance(c, e, (size_t)n);
	}
	return 0;
}

const struct rpc_xprt_ops rpc_tcp_ops = {
	.name = "tcp",
	.connect_start = tcp_connect_start,
	.connect_finish = tcp_connect_finish,
	.recv = tcp_recv,
	.send = tcp_send,
	.close = tcp_close,
	.drop = tcp_drop,
};
