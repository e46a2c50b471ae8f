/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The UDP transport: each call is one datagram (the record without its
 * mark) on a connected, non-blocking datagram socket, and each datagram
 * that arrives is one reply.
 *
 * The socket keeps its local port for the client's whole life, so a
 * retransmission -- the same bytes, XID included -- comes from the address
 * and port that the server's duplicate request cache knows.  Nothing here
 * is a connection: a lost datagram is found by the retransmission timer
 * (clnt_io.c), and an ICMP "port unreachable" reported on the socket is
 * only noted, since the server may be restarting.  The congestion window
 * (rpc.c) keeps us from flooding the server's socket buffer.
 */
#include "rpc_int.h"

#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "../base/log.h"

/* Datagrams per wake-up before the thread looks at its timers again. */
#define RPC_UDP_READ_BUDGET 64
/* Socket buffers: room for a window of 32 KiB READ replies.  The kernel
 * caps the request at net.core.rmem_max / wmem_max. */
#define RPC_UDP_SOCKBUF (4u * 1024 * 1024)

static int udp_connect_start(struct rpc_clnt *c)
{
	int fd, ret = 0, sz = RPC_UDP_SOCKBUF;

	fd = socket(c->addr.ss_family,
		    SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_UDP);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	/* Again after an error: the port the server knows, if still free. */
	if (c->locallen > 0 &&
	    bind(fd, (struct sockaddr *)&c->local, c->locallen) < 0) {
		nf_log(NF_LOG_DEBUG, "%s: cannot bind the previous local port "
		       "again (%s), using another", c->server,
		       strerror(errno));
		close(fd);
		fd = socket(c->addr.ss_family,
			    SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    IPPROTO_UDP);
		if (fd < 0)
			return -errno;
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
		c->locallen = 0;
	}
	if (c->locallen == 0 && c->opts.resvport) {
		ret = rpc_bind_resvport(fd, c->addr.ss_family);
		if (ret == -EACCES)
			ret = 0; /* no privilege: an ordinary port (tcp.c) */
	}
	/* connect(): the kernel then delivers only the server's datagrams
	 * and reports its ICMP errors to us. */
	if (ret == 0 &&
	    connect(fd, (struct sockaddr *)&c->addr, c->addrlen) < 0)
		ret = -errno;
	if (ret < 0) {
		close(fd);
		return ret;
	}
	c->fd = fd;
	return 1;
}

static int udp_connect_finish(struct rpc_clnt *c)
{
	(void)c;
	return 0;
}

static void udp_close(struct rpc_clnt *c)
{
	if (c->fd < 0)
		return;
	close(c->fd);
	c->fd = -1;
}

/* An error queued on the socket by ICMP: the datagram is lost, the timer
 * will send it again. */
static bool soft_error(int err)
{
	return err == ECONNREFUSED || err == EHOSTUNREACH ||
	       err == ENETUNREACH || err == EHOSTDOWN || err == ENETDOWN ||
	       err == EMSGSIZE || err == ENOBUFS;
}

static int udp_recv(struct rpc_clnt *c)
{
	for (int i = 0; i < RPC_UDP_READ_BUDGET; i++) {
		ssize_t n = recv(c->fd, c->rbuf, RPC_RBUF_SIZE,
				 MSG_DONTWAIT | MSG_TRUNC);
		uint8_t *buf;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			if (soft_error(errno)) {
				nf_log(NF_LOG_DEBUG, "%s: udp: %s", c->server,
				       strerror(errno));
				continue;
			}
			return -errno;
		}
		if ((size_t)n > RPC_RBUF_SIZE) {
			/* Cannot happen over IPv4 (64 KiB buffer); drop it
			 * rather than decode a truncated reply. */
			pthread_mutex_lock(&c->lock);
			c->dropped++;
			pthread_mutex_unlock(&c->lock);
			continue;
		}
		/* One copy of at most 64 KiB: the buffer that decoded
		 * results point into must be the reply's own. */
		buf = malloc(n > 0 ? (size_t)n : 1);
		if (!buf)
			return 0; /* as if lost: the call is sent again */
		memcpy(buf, c->rbuf, (size_t)n);
		rpc_deliver(c, buf, (size_t)n);
	}
	return 0;
}

static int udp_send(struct rpc_clnt *c)
{
	struct rpc_call_ent *e;

	while ((e = rpc_sendq_peek(c))) {
		/* The transport thread alone sends, and e->msg does not
		 * change once queued.  Skip the record mark. */
		ssize_t n = send(c->fd, e->msg.buf + 4, e->msg.len - 4,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0) {
			int err = errno;

			if (err == EINTR) {
				rpc_sendq_advance(c, e, 0);
				continue;
			}
			if (err == EAGAIN || err == EWOULDBLOCK) {
				rpc_sendq_advance(c, e, 0);
				return 0;
			}
			if (!soft_error(err)) {
				rpc_sendq_advance(c, e, 0);
				return -err;
			}
			/* Lost on the way out: count it as sent and let
			 * the timer send it again. */
			nf_log(NF_LOG_DEBUG, "%s: udp send: %s", c->server,
			       strerror(err));
		}
		rpc_sendq_advance(c, e, e->msg.len);
	}
	return 0;
}

const struct rpc_xprt_ops rpc_udp_ops = {
	.name = "udp",
	.datagram = true,
	.connect_start = udp_connect_start,
	.connect_finish = udp_connect_finish,
	.recv = udp_recv,
	.send = udp_send,
	.close = udp_close,
};
