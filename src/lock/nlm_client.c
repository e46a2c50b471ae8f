/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small synchronous RPC client for the lock manager's calls: NLM to the
 * server, SM_MON/SM_STAT to a statd, PMAP SET/UNSET.
 *
 * Why not src/rpc/: the server identifies an NLM client by the address its
 * calls come from (nfs-ganesha keys NSM clients by address unless
 * NSM_Use_Caller_Name is set) and calls it back there, so these calls must
 * leave from clientaddr=, which the pipelined transport cannot bind.  Lock
 * calls are few and short (a blocking LOCK is answered BLOCKED at once), so
 * one call at a time per connection is enough.
 *
 * A reply whose XID is not the current call's (the late answer to a _MSG
 * or _RES message we did not wait for) is read and dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../base/log.h"
#include "../proto/pmap_client.h"
#include "../rpc/record.h"
#include "lock_int.h"

#define LK_MAX_REPLY (64u * 1024u)

void lk_conn_init(struct lk_conn *c, const struct rpc_addr *peer,
		  const struct rpc_addr *src, uint32_t prog, uint32_t vers,
		  int proto)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->mu, NULL);
	c->fd = -1;
	c->peer = *peer;
	if (src && src->len && rpc_addr_family(src) == rpc_addr_family(peer)) {
		c->src = *src;
		rpc_addr_set_port(&c->src, 0);
	}
	c->prog = prog;
	c->vers = vers;
	c->proto = proto;
	c->xid = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16) ^
		 (uint32_t)random();
}

static void conn_drop(struct lk_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

void lk_conn_close(struct lk_conn *c)
{
	pthread_mutex_lock(&c->mu);
	conn_drop(c);
	pthread_mutex_unlock(&c->mu);
	pthread_mutex_destroy(&c->mu);
}

static int conn_open(struct lk_conn *c, int timeout_ms)
{
	struct rpc_addr to = c->peer;
	struct pollfd pfd;
	socklen_t sl;
	int fd, one = 1, soerr = 0, ret;
	uint16_t port;

	if (rpc_addr_port(&to) == 0) {
		ret = pmap_clnt_getport(&c->peer, c->prog, c->vers, c->proto,
					&port);
		if (ret)
			return ret;
		rpc_addr_set_port(&to, port);
	}
	fd = socket(rpc_addr_family(&to),
		    (c->proto == IPPROTO_TCP ? SOCK_STREAM : SOCK_DGRAM) |
			    SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -errno;
	if (c->src.len) {
		if (bind(fd, &c->src.u.sa, c->src.len) < 0) {
			ret = -errno;
			close(fd);
			return ret;
		}
	}
	if (c->proto == IPPROTO_TCP)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, &to.u.sa, to.len) < 0) {
		if (errno != EINPROGRESS) {
			ret = -errno;
			close(fd);
			return ret;
		}
		pfd.fd = fd;
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, timeout_ms) <= 0) {
			close(fd);
			return -ETIMEDOUT;
		}
		sl = sizeof(soerr);
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
		if (soerr) {
			close(fd);
			return -soerr;
		}
	}
	c->fd = fd;
	return 0;
}

static int remaining_ms(const struct timespec *deadline)
{
	struct timespec now;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (deadline->tv_sec - now.tv_sec) * 1000 +
	     (deadline->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : (int)ms;
}

static int wait_fd(int fd, short ev, const struct timespec *deadline)
{
	struct pollfd pfd = { .fd = fd, .events = ev };
	int n = poll(&pfd, 1, remaining_ms(deadline));

	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	if (n == 0)
		return -ETIMEDOUT;
	return 0;
}

static int send_all(int fd, const uint8_t *p, size_t n,
		    const struct timespec *deadline)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EAGAIN || errno == EINTR) {
				int ret = wait_fd(fd, POLLOUT, deadline);

				if (ret)
					return ret;
				continue;
			}
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int recv_all(int fd, uint8_t *p, size_t n,
		    const struct timespec *deadline)
{
	while (n) {
		ssize_t r = recv(fd, p, n, 0);

		if (r == 0)
			return -ECONNRESET;
		if (r < 0) {
			if (errno == EAGAIN || errno == EINTR) {
				int ret = wait_fd(fd, POLLIN, deadline);

				if (ret)
					return ret;
				continue;
			}
			return -errno;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* One record (all its fragments) into a malloc'd buffer, through the
 * shared record reader; exactly the record's bytes are read, so a record
 * that follows stays in the socket for the next call. */
static int recv_record(int fd, uint8_t **out, size_t *outlen,
		       const struct timespec *deadline)
{
	struct rpc_record_reader rr;
	int ret;

	rpc_record_reader_init(&rr, LK_MAX_REPLY);
	do {
		uint8_t *dst, mark[4];
		size_t want = rpc_record_direct(&rr, &dst), used;

		if (want) {
			ret = recv_all(fd, dst, want, deadline);
			if (ret == 0)
				ret = rpc_record_commit(&rr, want, out, outlen);
		} else {
			ret = recv_all(fd, mark, sizeof(mark), deadline);
			if (ret == 0)
				ret = rpc_record_feed(&rr, mark, sizeof(mark),
						      &used, out, outlen);
		}
	} while (ret == 0);
	rpc_record_reader_free(&rr);
	if (ret == 1)
		return 0;
	return ret == -EMSGSIZE ? -EIO : ret;
}

static int encode_call(struct lk_conn *c, uint32_t xid, uint32_t proc,
		       const struct rpc_cred *cred, xdr_enc_fn enc,
		       const void *args, struct xdr_enc *e)
{
	struct rpc_cred none = { .flavor = RPC_AUTH_NONE };
	bool tcp = c->proto == IPPROTO_TCP;

	if (xdr_enc_init(e, 512, tcp ? 4 : 0))
		return -ENOMEM;
	rpcmsg_enc_call(e, xid, c->prog, c->vers, proc, cred ? cred : &none);
	if (enc)
		enc(e, args);
	if (xdr_enc_error(e)) {
		int ret = xdr_enc_error(e);

		xdr_enc_release(e);
		return ret;
	}
	if (tcp)
		xdr_put_u32(e->buf, 0x80000000u | (uint32_t)(e->len - 4));
	return 0;
}

static int decode_reply(uint8_t *buf, size_t len, xdr_dec_fn dec, void *res,
			struct rpc_reply *reply)
{
	struct rpc_reply_hdr h;
	struct xdr_dec d;
	int ret;

	xdr_dec_init(&d, buf, len);
	ret = rpcmsg_dec_reply(&d, &h);
	if (ret) {
		free(buf);
		return -EIO;
	}
	ret = rpcmsg_reply_errno(&h);
	if (ret == 0 && dec && dec(&d, res))
		ret = -EIO;
	if (ret == 0 && reply) {
		reply->buf = buf;
		reply->len = len;
	} else {
		free(buf);
	}
	return ret;
}

int lk_conn_recv_reply(int fd, uint32_t xid, xdr_dec_fn dec, void *res,
		       struct rpc_reply *reply,
		       const struct timespec *deadline)
{
	for (;;) {
		uint8_t *buf;
		size_t len;
		uint32_t rxid;
		int ret = recv_record(fd, &buf, &len, deadline);

		if (ret)
			return ret;
		if (rpcmsg_dec_xid(buf, len, &rxid) || rxid != xid) {
			free(buf); /* a late reply to an earlier message */
			continue;
		}
		return decode_reply(buf, len, dec, res, reply);
	}
}

static int call_tcp(struct lk_conn *c, uint32_t xid, struct xdr_enc *e,
		    xdr_dec_fn dec, void *res, struct rpc_reply *reply,
		    const struct timespec *deadline, bool want_reply)
{
	int ret = 0;

	if (c->fd < 0)
		ret = conn_open(c, remaining_ms(deadline));
	if (ret)
		return ret;
	ret = send_all(c->fd, e->buf, e->len, deadline);
	if (ret || !want_reply)
		return ret;
	return lk_conn_recv_reply(c->fd, xid, dec, res, reply, deadline);
}

static int call_udp(struct lk_conn *c, uint32_t xid, struct xdr_enc *e,
		    xdr_dec_fn dec, void *res, struct rpc_reply *reply,
		    const struct timespec *deadline, bool want_reply)
{
	int ret = 0;

	if (c->fd < 0)
		ret = conn_open(c, remaining_ms(deadline));
	if (ret)
		return ret;
	for (;;) {
		struct timespec resend;
		uint8_t *buf;
		ssize_t n;
		uint32_t rxid;

		if (send(c->fd, e->buf, e->len, MSG_NOSIGNAL) < 0)
			return -errno;
		if (!want_reply)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &resend);
		resend.tv_sec += 1;
		if (resend.tv_sec > deadline->tv_sec)
			resend = *deadline;
		for (;;) {
			ret = wait_fd(c->fd, POLLIN, &resend);
			if (ret == -ETIMEDOUT && remaining_ms(deadline) > 0)
				break; /* send again */
			if (ret)
				return ret;
			buf = malloc(LK_MAX_REPLY);
			if (!buf)
				return -ENOMEM;
			n = recv(c->fd, buf, LK_MAX_REPLY, 0);
			if (n < 0) {
				ret = -errno;
				free(buf);
				if (ret == -EAGAIN || ret == -EINTR)
					continue;
				return ret;
			}
			if (rpcmsg_dec_xid(buf, (size_t)n, &rxid) ||
			    rxid != xid) {
				free(buf);
				continue;
			}
			return decode_reply(buf, (size_t)n, dec, res, reply);
		}
	}
}

static int do_call(struct lk_conn *c, uint32_t proc,
		   const struct rpc_cred *cred, xdr_enc_fn enc,
		   const void *args, xdr_dec_fn dec, void *res,
		   struct rpc_reply *reply, int timeout_ms, bool want_reply)
{
	struct timespec deadline;
	struct xdr_enc e;
	uint32_t xid;
	int ret = -EIO;

	if (reply) {
		reply->buf = NULL;
		reply->len = 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&c->mu);
	xid = ++c->xid;
	ret = encode_call(c, xid, proc, cred, enc, args, &e);
	if (ret)
		goto out;
	for (int attempt = 0; attempt < 2; attempt++) {
		if (c->proto == IPPROTO_TCP)
			ret = call_tcp(c, xid, &e, dec, res, reply, &deadline,
				       want_reply);
		else
			ret = call_udp(c, xid, &e, dec, res, reply, &deadline,
				       want_reply);
		if (ret == 0 || ret == -EPROTONOSUPPORT ||
		    ret == -EOPNOTSUPP || ret == -EACCES || ret == -EINVAL ||
		    ret == -EPROTO)
			break;
		/* The connection is in an unknown state: start afresh (a
		 * retransmission with the same XID, as the DRC expects). */
		conn_drop(c);
		if (remaining_ms(&deadline) == 0)
			break;
	}
	xdr_enc_release(&e);
out:
	pthread_mutex_unlock(&c->mu);
	return ret;
}

int lk_conn_call(struct lk_conn *c, uint32_t proc, const struct rpc_cred *cred,
		 xdr_enc_fn enc, const void *args, xdr_dec_fn dec, void *res,
		 struct rpc_reply *reply, int timeout_ms)
{
	return do_call(c, proc, cred, enc, args, dec, res, reply, timeout_ms,
		       true);
}

int lk_conn_send(struct lk_conn *c, uint32_t proc, const struct rpc_cred *cred,
		 xdr_enc_fn enc, const void *args)
{
	return do_call(c, proc, cred, enc, args, NULL, NULL, NULL, 5000,
		       false);
}
