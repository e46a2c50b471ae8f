/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RPC transport: the record reader without sockets, then the client
 * against a tiny server thread on 127.0.0.1 that answers out of order,
 * drops the connection, stays silent, or sends an oversized record; then
 * the same over UDP: a lost datagram, replies out of order and twice, the
 * congestion window, soft timeouts.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/base/log.h"
#include "../../src/rpc/record.h"
#include "../../src/rpc/rpc.h"

#define TEST_PROG 400123u
#define TEST_VERS 1u

/* ---- the record reader ---- */

/* A stream of three records: one of 2 fragments (3 + 5 bytes), an empty
 * one, one of 3 fragments (0 + 4 + 1 bytes). */
static const uint8_t stream[] = {
	0x00, 0x00, 0x00, 0x03, 'a', 'b', 'c',
	0x80, 0x00, 0x00, 0x05, 'd', 'e', 'f', 'g', 'h',
	0x80, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x04, '1', '2', '3', '4',
	0x80, 0x00, 0x00, 0x01, '5',
};
static const char *const stream_records[] = { "abcdefgh", "", "12345" };

struct collected {
	char rec[3][16];
	size_t n;
};

static void feed_all(struct rpc_record_reader *r, const uint8_t *p,
		     size_t len, struct collected *out)
{
	while (len > 0) {
		uint8_t *rec = NULL;
		size_t used = 0, rec_len = 0;
		int ret = rpc_record_feed(r, p, len, &used, &rec, &rec_len);

		assert_true(ret >= 0);
		assert_true(used <= len);
		if (ret == 1) {
			assert_true(out->n < 3);
			assert_true(rec_len < 16);
			if (rec_len)
				memcpy(out->rec[out->n], rec, rec_len);
			out->rec[out->n][rec_len] = '\0';
			out->n++;
			free(rec);
		} else {
			assert_int_equal(used, len);
		}
		p += used;
		len -= used;
	}
}

static void check_collected(const struct collected *c)
{
	assert_int_equal(c->n, 3);
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(c->rec[i], stream_records[i]);
}

static void test_record_whole(void **state)
{
	struct rpc_record_reader r;
	struct collected c = { 0 };

	(void)state;
	rpc_record_reader_init(&r, RPC_RECORD_MAX);
	feed_all(&r, stream, sizeof(stream), &c);
	check_collected(&c);
	rpc_record_reader_free(&r);
}

static void test_record_split_everywhere(void **state)
{
	(void)state;
	/* two pieces, cut at every byte */
	for (size_t cut = 0; cut <= sizeof(stream); cut++) {
		struct rpc_record_reader r;
		struct collected c = { 0 };

		rpc_record_reader_init(&r, RPC_RECORD_MAX);
		feed_all(&r, stream, cut, &c);
		feed_all(&r, stream + cut, sizeof(stream) - cut, &c);
		check_collected(&c);
		rpc_record_reader_free(&r);
	}
	/* one byte at a time */
	{
		struct rpc_record_reader r;
		struct collected c = { 0 };

		rpc_record_reader_init(&r, RPC_RECORD_MAX);
		for (size_t i = 0; i < sizeof(stream); i++)
			feed_all(&r, stream + i, 1, &c);
		check_collected(&c);
		rpc_record_reader_free(&r);
	}
}

static void test_record_oversize(void **state)
{
	static const uint8_t one_big[] = { 0x80, 0x00, 0x00, 101 };
	static const uint8_t two_frags[] = { 0x00, 0x00, 0x00, 60 };
	static const uint8_t huge[] = { 0xff, 0xff, 0xff, 0xff };
	uint8_t body[60] = { 0 };
	struct rpc_record_reader r;
	uint8_t *rec = NULL;
	size_t used, rec_len;

	(void)state;
	rpc_record_reader_init(&r, 100);
	assert_int_equal(rpc_record_feed(&r, one_big, 4, &used, &rec,
					 &rec_len), -EMSGSIZE);
	rpc_record_reader_reset(&r);

	/* 60 + 60 > 100: the second mark is refused */
	assert_int_equal(rpc_record_feed(&r, two_frags, 4, &used, &rec,
					 &rec_len), 0);
	assert_int_equal(rpc_record_feed(&r, body, 60, &used, &rec,
					 &rec_len), 0);
	assert_int_equal(rpc_record_feed(&r, two_frags, 4, &used, &rec,
					 &rec_len), -EMSGSIZE);
	rpc_record_reader_reset(&r);

	/* 2^31-1 with the default limit: refused without allocating */
	rpc_record_reader_free(&r);
	rpc_record_reader_init(&r, RPC_RECORD_MAX);
	assert_int_equal(rpc_record_feed(&r, huge, 4, &used, &rec, &rec_len),
			 -EMSGSIZE);
	assert_null(r.buf);
	rpc_record_reader_free(&r);

	/* exactly the limit is fine */
	{
		uint8_t mark[4] = { 0x80, 0, 0, 100 };
		uint8_t full[100];

		memset(full, 7, sizeof(full));
		rpc_record_reader_init(&r, 100);
		assert_int_equal(rpc_record_feed(&r, mark, 4, &used, &rec,
						 &rec_len), 0);
		assert_int_equal(rpc_record_feed(&r, full, 100, &used, &rec,
						 &rec_len), 1);
		assert_int_equal(rec_len, 100);
		free(rec);
		rpc_record_reader_free(&r);
	}
}

static void test_record_direct(void **state)
{
	uint8_t mark[4] = { 0x80, 0, 0x10, 0 }; /* 4096 bytes, last */
	struct rpc_record_reader r;
	uint8_t *dst = NULL, *rec = NULL;
	size_t used, rec_len, n;

	(void)state;
	rpc_record_reader_init(&r, RPC_RECORD_MAX);
	assert_int_equal(rpc_record_direct(&r, &dst), 0);
	assert_int_equal(rpc_record_feed(&r, mark, 4, &used, &rec, &rec_len),
			 0);
	n = rpc_record_direct(&r, &dst);
	assert_int_equal(n, 4096);
	memset(dst, 0xaa, 1000);
	assert_int_equal(rpc_record_commit(&r, 1000, &rec, &rec_len), 0);
	n = rpc_record_direct(&r, &dst);
	assert_int_equal(n, 3096);
	memset(dst, 0xbb, n);
	assert_int_equal(rpc_record_commit(&r, n, &rec, &rec_len), 1);
	assert_int_equal(rec_len, 4096);
	assert_int_equal(rec[999], 0xaa);
	assert_int_equal(rec[1000], 0xbb);
	free(rec);
	assert_int_equal(rpc_record_commit(&r, 1, &rec, &rec_len), -EINVAL);
	rpc_record_reader_free(&r);
}

/* ---- a tiny server ---- */

struct srv;
typedef void (*scenario_fn)(struct srv *s);

struct srv {
	int lfd;
	int port;
	pthread_t th;
	scenario_fn fn;
	/* what the server saw */
	uint32_t xids[32];
	int peer_ports[32];
	int nseen;
	int nconns;
	int fail; /* set when the scenario went wrong */
	int stolen; /* another socket bound the client's port */
};

static int srv_accept(struct srv *s, int *peer_port)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	struct pollfd pfd = { .fd = s->lfd, .events = POLLIN };
	struct timeval tv = { .tv_sec = 5 };
	int fd;

	/* Only against a hang: a loaded machine may take long. */
	if (poll(&pfd, 1, 60000) != 1)
		return -1;
	fd = accept(s->lfd, (struct sockaddr *)&sin, &len);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	*peer_port = ntohs(sin.sin_port);
	s->nconns++;
	return fd;
}

static int read_full(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = read(fd, p, len);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One call: returns 0 with its xid and argument, -1 on EOF. */
static int srv_read_call(struct srv *s, int fd, int peer_port,
			 uint32_t *xid, uint32_t *arg)
{
	uint8_t mark[4], buf[1024];
	struct rpc_call_hdr h;
	struct xdr_dec d;
	uint32_t len;

	if (read_full(fd, mark, 4))
		return -1;
	len = xdr_get_u32(mark);
	if (!(len & 0x80000000u) || (len & 0x7fffffff) > sizeof(buf)) {
		s->fail = 1;
		return -1;
	}
	len &= 0x7fffffff;
	if (read_full(fd, buf, len))
		return -1;
	xdr_dec_init(&d, buf, len);
	if (rpcmsg_dec_call(&d, &h) || h.prog != TEST_PROG ||
	    h.vers != TEST_VERS || xdr_dec_u32(&d, arg)) {
		s->fail = 1;
		return -1;
	}
	if (h.cred_flavor != RPC_AUTH_SYS || h.cred.uid != 1234)
		s->fail = 1;
	*xid = h.xid;
	if (s->nseen < 32) {
		s->xids[s->nseen] = h.xid;
		s->peer_ports[s->nseen] = peer_port;
		__atomic_store_n(&s->nseen, s->nseen + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

/* A successful reply carrying one word, cut in nfrag fragments. */
static void srv_reply(int fd, uint32_t xid, uint32_t value, int nfrag)
{
	uint8_t body[28], out[28 + 3 * 4];
	size_t off = 0, pos = 0;
	struct xdr_enc e;

	xdr_enc_init(&e, 0, 0);
	rpcmsg_enc_accepted_reply(&e, xid, RPC_SUCCESS);
	xdr_enc_u32(&e, value);
	memcpy(body, e.buf, e.len);
	xdr_enc_release(&e);
	if (nfrag < 1 || nfrag > 3)
		nfrag = 1;
	for (int i = 0; i < nfrag; i++) {
		size_t n = i == nfrag - 1 ? sizeof(body) - pos
					  : sizeof(body) / 4;

		xdr_put_u32(out + off, (uint32_t)n |
				       (i == nfrag - 1 ? 0x80000000u : 0));
		memcpy(out + off + 4, body + pos, n);
		off += 4 + n;
		pos += n;
	}
	write_full(fd, out, off);
}

static void *srv_main(void *arg)
{
	struct srv *s = arg;

	s->fn(s);
	return NULL;
}

static void srv_start(struct srv *s, scenario_fn fn)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int one = 1;

	memset(s, 0, sizeof(*s));
	s->fn = fn;
	s->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(s->lfd >= 0);
	setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s->lfd, (struct sockaddr *)&sin, sizeof(sin)),
			 0);
	assert_int_equal(listen(s->lfd, 8), 0);
	assert_int_equal(getsockname(s->lfd, (struct sockaddr *)&sin, &len),
			 0);
	s->port = ntohs(sin.sin_port);
	assert_int_equal(pthread_create(&s->th, NULL, srv_main, s), 0);
}

static void srv_join(struct srv *s)
{
	pthread_join(s->th, NULL);
	close(s->lfd);
	assert_int_equal(s->fail, 0);
}

/* ---- the client side ---- */

static const struct rpc_cred test_cred = {
	.flavor = RPC_AUTH_SYS,
	.machinename = "test",
	.uid = 1234,
	.gid = 5678,
	.ngids = 1,
	.gids = { 5678 },
};

static int enc_u32(struct xdr_enc *e, const void *args)
{
	return xdr_enc_u32(e, *(const uint32_t *)args);
}

static int dec_u32(struct xdr_dec *d, void *res)
{
	return xdr_dec_u32(d, res);
}

static struct rpc_clnt *client(struct srv *s, unsigned timeo_ds,
			       unsigned retrans, bool soft)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rpc_clnt_opts o = {
		.proto = IPPROTO_TCP,
		.timeo_ds = timeo_ds,
		.retrans = retrans,
		.soft = soft,
		.server = "server 127.0.0.1",
	};
	struct rpc_clnt *c = NULL;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((uint16_t)s->port);
	assert_int_equal(rpc_clnt_create((struct sockaddr *)&sin, sizeof(sin),
					 TEST_PROG, TEST_VERS, &o, &c), 0);
	assert_non_null(c);
	return c;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct caller {
	struct rpc_clnt *c;
	uint32_t arg, res;
	int ret;
	volatile int *intr;
	pthread_t th;
};

static void *caller_main(void *p)
{
	struct caller *k = p;
	struct rpc_reply reply;

	k->ret = rpc_clnt_call(k->c, 1, &test_cred, enc_u32, &k->arg, dec_u32,
			       &k->res, &reply, k->intr);
	if (k->ret == 0) {
		assert_non_null(reply.buf);
		rpc_reply_release(&reply);
	}
	return NULL;
}

/* Async completions, collected under a lock. */
struct done_box {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int n;
	int err[8];
	uint32_t res[8];
};

static void done_cb(void *ctx, int err, struct xdr_dec *results,
		    struct rpc_reply *reply)
{
	struct done_box *b = ctx;
	uint32_t v = 0;

	if (err == 0) {
		assert_non_null(results);
		assert_int_equal(xdr_dec_u32(results, &v), 0);
	} else {
		assert_null(results);
	}
	rpc_reply_release(reply);
	pthread_mutex_lock(&b->lock);
	if (b->n < 8) {
		b->err[b->n] = err;
		b->res[b->n] = v;
	}
	b->n++;
	pthread_cond_broadcast(&b->cond);
	pthread_mutex_unlock(&b->lock);
}

static void done_wait(struct done_box *b, int n)
{
	/* Only against a hang: a loaded machine may take long. */
	double deadline = now_s() + 60;

	pthread_mutex_lock(&b->lock);
	while (b->n < n && now_s() < deadline) {
		pthread_mutex_unlock(&b->lock);
		usleep(5000);
		pthread_mutex_lock(&b->lock);
	}
	assert_int_equal(b->n, n);
	pthread_mutex_unlock(&b->lock);
}

/* Two calls, answered in the reverse order; then three async calls
 * answered in reverse, the middle reply cut in three fragments. */
static void scen_out_of_order(struct srv *s)
{
	uint32_t xid[3], arg[3];
	int port, fd = srv_accept(s, &port);

	if (fd < 0 || srv_read_call(s, fd, port, &xid[0], &arg[0]) ||
	    srv_read_call(s, fd, port, &xid[1], &arg[1])) {
		s->fail = 1;
		goto out;
	}
	srv_reply(fd, xid[1], arg[1] + 10, 1);
	srv_reply(fd, xid[0], arg[0] + 10, 2);
	for (int i = 0; i < 3; i++)
		if (srv_read_call(s, fd, port, &xid[i], &arg[i])) {
			s->fail = 1;
			goto out;
		}
	srv_reply(fd, xid[2], arg[2] + 10, 1);
	srv_reply(fd, xid[1], arg[1] + 10, 3);
	srv_reply(fd, xid[0], arg[0] + 10, 1);
	/* wait for the client to go */
	while (srv_read_call(s, fd, port, &xid[0], &arg[0]) == 0)
		;
out:
	if (fd >= 0)
		close(fd);
}

static void test_out_of_order(void **state)
{
	struct srv s;
	struct rpc_clnt *c;
	struct caller k[2];
	struct done_box b = { .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	struct rpc_proc_stats st;
	uint32_t args[3] = { 100, 200, 300 };

	(void)state;
	srv_start(&s, scen_out_of_order);
	c = client(&s, 600, 2, false);
	for (int i = 0; i < 2; i++) {
		k[i] = (struct caller){ .c = c, .arg = (uint32_t)i + 1 };
		assert_int_equal(pthread_create(&k[i].th, NULL, caller_main,
						&k[i]), 0);
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(k[i].th, NULL);
		assert_int_equal(k[i].ret, 0);
		assert_int_equal(k[i].res, k[i].arg + 10);
	}

	for (int i = 0; i < 3; i++)
		assert_int_equal(rpc_clnt_call_async(c, 2, &test_cred, enc_u32,
						     &args[i], done_cb, &b), 0);
	done_wait(&b, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(b.err[i], 0);
		/* completions come in reply order: 300, 200, 100 */
		assert_int_equal(b.res[i], args[2 - i] + 10);
	}

	assert_int_equal(rpc_clnt_get_stats(c, 1, &st), 0);
	assert_int_equal(st.calls, 2);
	assert_int_equal(st.errors, 0);
	assert_int_equal(st.retrans, 0);
	assert_true(st.bytes_sent > 0 && st.bytes_recv > 0);
	assert_true(st.rtt_us_p99 > 0);
	assert_int_equal(rpc_clnt_get_stats(c, 2, &st), 0);
	assert_int_equal(st.calls, 3);
	assert_int_equal(rpc_clnt_get_stats(c, 1000, &st), -EINVAL);
	assert_int_equal(rpc_clnt_dropped_replies(c), 0);
	rpc_clnt_destroy(c);
	srv_join(&s);
	assert_true(s.xids[0] != s.xids[1]);
}

/* ---- a waiting caller reads the socket: what is not its reply goes on
 * the transport thread ---- */

#define CB_XID 0x77777777u

struct thread_box {
	pthread_mutex_t lock;
	int n;
	pthread_t th;
	int err;
	uint32_t res;
};

static void done_thread_cb(void *ctx, int err, struct xdr_dec *results,
			   struct rpc_reply *reply)
{
	struct thread_box *b = ctx;
	uint32_t v = 0;

	if (err == 0)
		assert_int_equal(xdr_dec_u32(results, &v), 0);
	rpc_reply_release(reply);
	pthread_mutex_lock(&b->lock);
	b->n++;
	b->th = pthread_self();
	b->err = err;
	b->res = v;
	pthread_mutex_unlock(&b->lock);
}

static int callback_hook(void *ctx, const uint8_t *msg, size_t len,
			 struct xdr_enc *reply)
{
	struct thread_box *b = ctx;

	assert_true(len >= 8);
	pthread_mutex_lock(&b->lock);
	b->n++;
	b->th = pthread_self();
	pthread_mutex_unlock(&b->lock);
	rpcmsg_enc_accepted_reply(reply, xdr_get_u32(msg), RPC_SUCCESS);
	return 0;
}

/* An asynchronous call and a synchronous one; the asynchronous one is
 * answered, then the server calls the client and waits for its answer,
 * and only then answers the synchronous call, whose caller therefore
 * reads the socket all along. */
static void scen_async_and_callback(struct srv *s)
{
	uint32_t xid[2], arg[2], mark;
	uint8_t buf[256];
	struct xdr_enc e;
	int port, fd = srv_accept(s, &port);

	if (fd < 0 || srv_read_call(s, fd, port, &xid[0], &arg[0]) ||
	    srv_read_call(s, fd, port, &xid[1], &arg[1])) {
		s->fail = 1;
		goto out;
	}
	if (arg[0] != 7) { /* the asynchronous call first */
		uint32_t t = xid[0];

		xid[0] = xid[1];
		xid[1] = t;
		t = arg[0];
		arg[0] = arg[1];
		arg[1] = t;
	}
	srv_reply(fd, xid[0], arg[0] + 10, 1);
	xdr_enc_init(&e, 0, 4);
	rpcmsg_enc_call(&e, CB_XID, TEST_PROG + 1, 1, 0, &test_cred);
	xdr_put_u32(e.buf, 0x80000000u | (uint32_t)(e.len - 4));
	write_full(fd, e.buf, e.len);
	xdr_enc_release(&e);
	/* The client's answer: a REPLY with our XID. */
	if (read_full(fd, buf, 4)) {
		s->fail = 1;
		goto out;
	}
	mark = xdr_get_u32(buf) & 0x7fffffffu;
	if (mark < 8 || mark > sizeof(buf) || read_full(fd, buf, mark) ||
	    xdr_get_u32(buf) != CB_XID || xdr_get_u32(buf + 4) != RPC_REPLY) {
		s->fail = 1;
		goto out;
	}
	srv_reply(fd, xid[1], arg[1] + 10, 1);
	while (srv_read_call(s, fd, port, &xid[0], &arg[0]) == 0)
		;
out:
	if (fd >= 0)
		close(fd);
}

static void test_leader_hands_over(void **state)
{
	struct srv s;
	struct rpc_clnt *c;
	struct thread_box done = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct thread_box cb = { .lock = PTHREAD_MUTEX_INITIALIZER };
	uint32_t a = 7, b = 8, res = 0;

	(void)state;
	srv_start(&s, scen_async_and_callback);
	c = client(&s, 600, 2, false);
	rpc_clnt_set_callback(c, callback_hook, &cb);
	assert_int_equal(rpc_clnt_call_async(c, 2, &test_cred, enc_u32, &a,
					     done_thread_cb, &done), 0);
	assert_int_equal(rpc_clnt_call(c, 1, &test_cred, enc_u32, &b, dec_u32,
				       &res, NULL, NULL), 0);
	assert_int_equal(res, 18);
	/* Both ran before the server answered the synchronous call, and
	 * neither on its caller's thread. */
	pthread_mutex_lock(&done.lock);
	assert_int_equal(done.n, 1);
	assert_int_equal(done.err, 0);
	assert_int_equal(done.res, 17);
	assert_false(pthread_equal(done.th, pthread_self()));
	pthread_mutex_unlock(&done.lock);
	pthread_mutex_lock(&cb.lock);
	assert_int_equal(cb.n, 1);
	assert_false(pthread_equal(cb.th, pthread_self()));
	pthread_mutex_unlock(&cb.lock);
	assert_int_equal(rpc_clnt_dropped_replies(c), 0);
	rpc_clnt_destroy(c);
	srv_join(&s);
}


/* ---- many callers, large records: one record on the wire at a time ---- */

#define BIG_CALLERS 6
#define BIG_CALLS 3
#define BIG_LEN(arg) (1024u * 1024 + (arg) * 1000u)

struct big_arg {
	uint32_t arg;
};

/* The argument, then BIG_LEN(arg) bytes that each say which call they
 * belong to: an interleaved or torn record cannot pass for a whole one. */
static int enc_marked(struct xdr_enc *e, const void *args)
{
	uint32_t a = ((const struct big_arg *)args)->arg;
	uint32_t n = BIG_LEN(a);
	uint8_t *p;

	xdr_enc_u32(e, a);
	xdr_enc_u32(e, n);
	p = xdr_enc_reserve(e, n);
	if (!p)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		p[i] = (uint8_t)(a + i / 4096);
	return 0;
}

static int srv_read_big(struct srv *s, int fd, uint32_t *xid, uint32_t *arg)
{
	uint8_t mark[4], *buf;
	struct rpc_call_hdr h;
	struct xdr_dec d;
	const uint8_t *p;
	uint32_t len, n;
	int ret = -1;

	if (read_full(fd, mark, 4))
		return -1;
	len = xdr_get_u32(mark);
	if (!(len & 0x80000000u) || (len & 0x7fffffff) > (4u << 20)) {
		s->fail = 1;
		return -1;
	}
	len &= 0x7fffffff;
	buf = malloc(len);
	if (!buf || read_full(fd, buf, len))
		goto out;
	xdr_dec_init(&d, buf, len);
	if (rpcmsg_dec_call(&d, &h) || xdr_dec_u32(&d, arg) ||
	    xdr_dec_u32(&d, &n) || n != BIG_LEN(*arg) ||
	    !(p = xdr_dec_inline(&d, n)) || xdr_dec_inline(&d, 1)) {
		s->fail = 1;
		goto out;
	}
	for (uint32_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(*arg + i / 4096)) {
			s->fail = 1;
			goto out;
		}
	*xid = h.xid;
	ret = 0;
out:
	free(buf);
	return ret;
}

static void scen_big(struct srv *s)
{
	struct timeval none = { 0 };
	uint32_t xid, arg;
	int port, fd = srv_accept(s, &port);

	if (fd < 0) {
		s->fail = 1;
		return;
	}
	/* However slow the machine, wait for the client's next record. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &none, sizeof(none));
	/* Let the callers fill the socket, so that writes come out
	 * partial and callers find the wire busy. */
	usleep(200 * 1000);
	/* Every whole record is answered (a retransmission too) until
	 * the client goes; a torn one fails the test and ends the
	 * server, and the client's soft calls then time out. */
	while (srv_read_big(s, fd, &xid, &arg) == 0)
		srv_reply(fd, xid, arg + 10, 1);
	if (s->fail)
		shutdown(s->lfd, SHUT_RDWR);
	close(fd);
}

struct big_caller {
	struct rpc_clnt *c;
	uint32_t first;
	int bad;
	pthread_t th;
};

static void *big_caller_main(void *p)
{
	struct big_caller *k = p;

	for (uint32_t i = 0; i < BIG_CALLS; i++) {
		struct big_arg a = { k->first + i };
		uint32_t res = 0;

		if (rpc_clnt_call(k->c, 1, &test_cred, enc_marked, &a, dec_u32,
				  &res, NULL, NULL) || res != a.arg + 10)
			k->bad++;
	}
	return NULL;
}

static void test_many_big_calls(void **state)
{
	struct big_caller k[BIG_CALLERS];
	struct srv s;
	struct rpc_clnt *c;

	(void)state;
	srv_start(&s, scen_big);
	/* Soft, so that a broken record ends in an error, not a hang. */
	c = client(&s, 150, 1, true);
	for (int i = 0; i < BIG_CALLERS; i++) {
		k[i] = (struct big_caller){ .c = c, .first = 10u * (uint32_t)i };
		assert_int_equal(pthread_create(&k[i].th, NULL,
						big_caller_main, &k[i]), 0);
	}
	for (int i = 0; i < BIG_CALLERS; i++) {
		pthread_join(k[i].th, NULL);
		assert_int_equal(k[i].bad, 0);
	}
	rpc_clnt_destroy(c);
	srv_join(&s);
}

/* The server drops the connection after reading a call; the client must
 * come back from the same port with the same XID. */
/* Whether a socket of another program (no SO_REUSEADDR) could bind
 * the client's port: it must not while the client may reconnect. */
static bool port_free(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	bool free_now;

	if (fd < 0)
		return false;
	sin.sin_port = htons((uint16_t)port);
	free_now = bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0;
	close(fd);
	return free_now;
}

static void scen_drop_once(struct srv *s)
{
	uint32_t xid, arg;
	int port, fd = srv_accept(s, &port);

	if (fd < 0 || srv_read_call(s, fd, port, &xid, &arg)) {
		s->fail = 1;
		goto out;
	}
	close(fd);
	/* The client is reconnecting or about to: its port stays its own. */
	for (int i = 0; i < 100; i++)
		s->stolen |= port_free(port);
	fd = srv_accept(s, &port);
	if (fd < 0 || srv_read_call(s, fd, port, &xid, &arg)) {
		s->fail = 1;
		goto out;
	}
	srv_reply(fd, xid, arg + 10, 1);
	while (srv_read_call(s, fd, port, &xid, &arg) == 0)
		;
out:
	if (fd >= 0)
		close(fd);
}

static void test_reconnect_same_port(void **state)
{
	struct srv s;
	struct rpc_clnt *c;
	struct rpc_proc_stats st;
	uint32_t arg = 7, res = 0;
	int port;

	(void)state;
	srv_start(&s, scen_drop_once);
	/* A timeout of 300 s, beyond the test's own bound: only the
	 * reconnection can resend the call in time. */
	c = client(&s, 3000, 2, false);
	port = rpc_clnt_local_port(c);
	assert_true(port > 0);
	assert_int_equal(rpc_clnt_call(c, 3, &test_cred, enc_u32, &arg, dec_u32,
				       &res, NULL, NULL), 0);
	assert_int_equal(res, 17);
	assert_int_equal(rpc_clnt_local_port(c), port);
	assert_int_equal(rpc_clnt_get_stats(c, 3, &st), 0);
	assert_int_equal(st.retrans, 1);
	rpc_clnt_destroy(c);
	srv_join(&s);
	assert_int_equal(s.nconns, 2);
	assert_int_equal(s.nseen, 2);
	assert_int_equal(s.stolen, 0);
	assert_int_equal(s.xids[0], s.xids[1]);
	assert_int_equal(s.peer_ports[0], port);
	assert_int_equal(s.peer_ports[1], port);
}

/* Reads calls and never answers, until the client goes away. */
static void scen_silent(struct srv *s)
{
	uint32_t xid, arg;
	int port, fd = srv_accept(s, &port);

	if (fd < 0) {
		s->fail = 1;
		return;
	}
	while (srv_read_call(s, fd, port, &xid, &arg) == 0)
		;
	close(fd);
}

static void test_soft_timeout(void **state)
{
	struct srv s;
	struct rpc_clnt *c;
	struct rpc_proc_stats st;
	uint32_t arg = 1, res;
	double t0, dt;

	(void)state;
	srv_start(&s, scen_silent);
	/* timeouts 0.1 + 0.2 + 0.4 s, then a major one */
	c = client(&s, 1, 2, true);
	t0 = now_s();
	assert_int_equal(rpc_clnt_call(c, 4, &test_cred, enc_u32, &arg, dec_u32,
				       &res, NULL, NULL), -ETIMEDOUT);
	dt = now_s() - t0;
	assert_true(dt >= 0.6);
	assert_int_equal(rpc_clnt_get_stats(c, 4, &st), 0);
	assert_int_equal(st.calls, 1);
	assert_int_equal(st.errors, 1);
	assert_int_equal(st.retrans, 2);
	rpc_clnt_destroy(c);
	srv_join(&s);
	/* the first transmission and two retransmissions, one XID */
	assert_int_equal(s.nseen, 3);
	assert_int_equal(s.xids[0], s.xids[1]);
	assert_int_equal(s.xids[1], s.xids[2]);
}

static void *set_flag_later(void *p)
{
	usleep(200 * 1000);
	__atomic_store_n((volatile int *)p, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void test_interrupted(void **state)
{
	struct srv s;
	struct rpc_clnt *c;
	volatile int intr = 0;
	uint32_t arg = 1, res;
	pthread_t th;
	double t0, dt;

	(void)state;
	srv_start(&s, scen_silent);
	c = client(&s, 600, 2, false); /* hard */
	t0 = now_s();
	pthread_create(&th, NULL, set_flag_later, (void *)&intr);
	assert_int_equal(rpc_clnt_call(c, 5, &test_cred, enc_u32, &arg, dec_u32,
				       &res, NULL, &intr), -EINTR);
	dt = now_s() - t0;
	pthread_join(th, NULL);
	assert_true(dt >= 0.15);
	rpc_clnt_destroy(c);
	srv_join(&s);
	assert_int_equal(s.nseen, 1);
}

/* One call, answered 400 ms late; then whatever follows is read. */
static void scen_answer_late(struct srv *s)
{
	uint32_t xid, arg;
	int port, fd = srv_accept(s, &port);

	if (fd < 0) {
		s->fail = 1;
		return;
	}
	if (srv_read_call(s, fd, port, &xid, &arg)) {
		s->fail = 1;
		goto out;
	}
	usleep(400 * 1000);
	srv_reply(fd, xid, arg + 10, 1);
	while (srv_read_call(s, fd, port, &xid, &arg) == 0)
		;
out:
	close(fd);
}

/* A detachable call whose caller is interrupted is not abandoned: the
 * caller gets -EINPROGRESS, and the late reply goes to done(), decoded
 * results and all, as for an asynchronous call. */
static void test_interrupted_detach(void **state)
{
	struct srv s;
	struct rpc_clnt *c;
	struct done_box b = { .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	volatile int intr = 0;
	uint32_t arg = 7, res = 0;
	pthread_t th;

	(void)state;
	srv_start(&s, scen_answer_late);
	c = client(&s, 600, 2, false); /* hard */
	pthread_create(&th, NULL, set_flag_later, (void *)&intr);
	assert_int_equal(rpc_clnt_call_detach(c, 5, &test_cred, enc_u32, &arg,
					      dec_u32, &res, &intr, done_cb,
					      &b), -EINPROGRESS);
	pthread_join(th, NULL);
	assert_int_equal(res, 0); /* untouched: done() gets the results */
	done_wait(&b, 1);
	assert_int_equal(b.err[0], 0);
	assert_int_equal(b.res[0], arg + 10);
	assert_int_equal(rpc_clnt_dropped_replies(c), 0);
	rpc_clnt_destroy(c);
	srv_join(&s);
	assert_int_equal(s.nseen, 1);
	assert_int_equal(b.n, 1);
}

/* Hard mount: the first three transmissions go unanswered. */
static void scen_answer_fourth(struct srv *s)
{
	uint32_t xid, arg;
	int port, fd = srv_accept(s, &port);

	if (fd < 0) {
		s->fail = 1;
		return;
	}
	for (int i = 0; i < 4; i++)
		if (srv_read_call(s, fd, port, &xid, &arg)) {
			s->fail = 1;
			goto out;
		}
	srv_reply(fd, xid, arg + 10, 1);
	while (srv_read_call(s, fd, port, &xid, &arg) == 0)
		;
out:
	close(fd);
}

static void test_hard_retry(void **state)
{
	struct srv s;
	struct rpc_clnt *c;
	struct rpc_proc_stats st;
	uint32_t arg = 5, res = 0;

	(void)state;
	srv_start(&s, scen_answer_fourth);
	/* 0.1 + 0.2 (major: "not responding") + 0.4, then the answer */
	c = client(&s, 1, 1, false);
	assert_int_equal(rpc_clnt_call(c, 6, &test_cred, enc_u32, &arg, dec_u32,
				       &res, NULL, NULL), 0);
	assert_int_equal(res, 15);
	assert_int_equal(rpc_clnt_get_stats(c, 6, &st), 0);
	assert_int_equal(st.retrans, 3);
	assert_int_equal(st.errors, 0);
	rpc_clnt_destroy(c);
	srv_join(&s);
	assert_int_equal(s.nseen, 4);
	for (int i = 1; i < 4; i++)
		assert_int_equal(s.xids[i], s.xids[0]);
}

/* After the first call, a record mark of 16 MiB: the client must reset
 * the connection and send the call again. */
static void scen_oversize(struct srv *s)
{
	static const uint8_t big[8] = { 0x81, 0x00, 0x00, 0x00, 0, 0, 0, 1 };
	uint32_t xid, arg;
	int port, fd = srv_accept(s, &port);

	if (fd < 0 || srv_read_call(s, fd, port, &xid, &arg)) {
		s->fail = 1;
		goto out;
	}
	write_full(fd, big, sizeof(big));
	/* the client resets: wait for EOF, then the new connection */
	while (srv_read_call(s, fd, port, &xid, &arg) == 0)
		;
	close(fd);
	fd = srv_accept(s, &port);
	if (fd < 0 || srv_read_call(s, fd, port, &xid, &arg)) {
		s->fail = 1;
		goto out;
	}
	srv_reply(fd, xid, arg + 10, 1);
	while (srv_read_call(s, fd, port, &xid, &arg) == 0)
		;
out:
	if (fd >= 0)
		close(fd);
}

static void test_oversize_record(void **state)
{
	struct srv s;
	struct rpc_clnt *c;
	uint32_t arg = 9, res = 0;

	(void)state;
	srv_start(&s, scen_oversize);
	c = client(&s, 600, 2, false);
	assert_int_equal(rpc_clnt_call(c, 7, &test_cred, enc_u32, &arg, dec_u32,
				       &res, NULL, NULL), 0);
	assert_int_equal(res, 19);
	rpc_clnt_destroy(c);
	srv_join(&s);
	assert_int_equal(s.nconns, 2);
	assert_int_equal(s.nseen, 2);
	assert_int_equal(s.xids[0], s.xids[1]);
}

/* A PROG_MISMATCH reply and a reply to nobody. */
static void scen_mismatch(struct srv *s)
{
	uint32_t xid, arg;
	int port, fd = srv_accept(s, &port);
	struct xdr_enc e;

	if (fd < 0 || srv_read_call(s, fd, port, &xid, &arg)) {
		s->fail = 1;
		goto out;
	}
	srv_reply(fd, xid + 1000, 0, 1); /* nobody waits for it */
	xdr_enc_init(&e, 0, 4);
	rpcmsg_enc_accepted_reply(&e, xid, RPC_PROG_MISMATCH);
	xdr_enc_u32(&e, 2);
	xdr_enc_u32(&e, 3);
	xdr_put_u32(e.buf, 0x80000000u | (uint32_t)(e.len - 4));
	write_full(fd, e.buf, e.len);
	xdr_enc_release(&e);
	while (srv_read_call(s, fd, port, &xid, &arg) == 0)
		;
out:
	if (fd >= 0)
		close(fd);
}

struct trace_count {
	int n;
	int last_err;
};

static void trace_fn(void *ctx, const char *server, uint32_t xid,
		     const char *proc, size_t sent, size_t recvd,
		     uint64_t usec, int err)
{
	struct trace_count *t = ctx;

	(void)xid;
	(void)usec;
	assert_string_equal(server, "server 127.0.0.1");
	assert_string_equal(proc, "proc8");
	assert_true(sent > 0 && recvd > 0);
	t->n++;
	t->last_err = err;
}

static void test_rpc_error(void **state)
{
	struct srv s;
	struct rpc_clnt *c;
	struct rpc_reply reply = { .buf = (uint8_t *)1 };
	struct rpc_proc_stats st;
	struct trace_count t = { 0 };
	uint32_t arg = 1, res;

	(void)state;
	srv_start(&s, scen_mismatch);
	c = client(&s, 600, 2, false);
	rpc_clnt_set_trace(c, trace_fn, &t);
	assert_int_equal(rpc_clnt_call(c, 8, &test_cred, enc_u32, &arg, dec_u32,
				       &res, &reply, NULL), -EPROTONOSUPPORT);
	assert_null(reply.buf);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.last_err, -EPROTONOSUPPORT);
	assert_int_equal(rpc_clnt_get_stats(c, 8, &st), 0);
	assert_int_equal(st.errors, 1);
	assert_int_equal(rpc_clnt_dropped_replies(c), 1);
	rpc_clnt_destroy(c);
	srv_join(&s);
}

static void test_destroy_fails_outstanding(void **state)
{
	struct srv s;
	struct rpc_clnt *c;
	struct done_box b = { .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	struct caller k = { .arg = 1 };
	uint32_t args[3] = { 1, 2, 3 };

	(void)state;
	srv_start(&s, scen_silent);
	c = client(&s, 600, 2, false);
	for (int i = 0; i < 3; i++)
		assert_int_equal(rpc_clnt_call_async(c, 2, &test_cred, enc_u32,
						     &args[i], done_cb, &b), 0);
	k.c = c;
	pthread_create(&k.th, NULL, caller_main, &k);
	/* let the calls reach the server */
	for (int i = 0; i < 200 && __atomic_load_n(&s.nseen, __ATOMIC_ACQUIRE) < 4;
	     i++)
		usleep(5000);
	rpc_clnt_destroy(c);
	pthread_join(k.th, NULL);
	assert_int_equal(k.ret, -ESHUTDOWN);
	assert_int_equal(b.n, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(b.err[i], -ESHUTDOWN);
	srv_join(&s);
}

static void test_refused(void **state)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rpc_clnt_opts o = { .proto = IPPROTO_TCP, .timeo_ds = 10 };
	struct rpc_clnt *c = (struct rpc_clnt *)1;
	int fd;
	socklen_t len = sizeof(sin);

	(void)state;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	o.proto = IPPROTO_SCTP;
	assert_int_equal(rpc_clnt_create((struct sockaddr *)&sin, sizeof(sin),
					 1, 1, &o, &c), -EINVAL);
	assert_null(c);

	/* A port nobody listens on, and nobody can while the socket bound
	 * to it stays open (another test's server could take a port that
	 * was closed). */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	o.proto = IPPROTO_TCP;
	assert_int_equal(rpc_clnt_create((struct sockaddr *)&sin, sizeof(sin),
					 1, 1, &o, &c), -ECONNREFUSED);
	close(fd);
}

/* soft without softerr: a major timeout is -EIO (TCP) */
static void test_soft_timeout_eio(void **state)
{
	struct srv s;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rpc_clnt_opts o = {
		.proto = IPPROTO_TCP, .timeo_ds = 1, .retrans = 1,
		.soft = true, .timeout_eio = true, .server = "server x",
	};
	struct rpc_clnt *c;
	uint32_t arg = 1, res;

	(void)state;
	srv_start(&s, scen_silent);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((uint16_t)s.port);
	assert_int_equal(rpc_clnt_create((struct sockaddr *)&sin, sizeof(sin),
					 TEST_PROG, TEST_VERS, &o, &c), 0);
	assert_int_equal(rpc_clnt_call(c, 4, &test_cred, enc_u32, &arg, dec_u32,
				       &res, NULL, NULL), -EIO);
	rpc_clnt_destroy(c);
	srv_join(&s);
	assert_int_equal(s.nseen, 2);
}

/* ---- UDP ---- */

struct usrv;
typedef void (*uscenario_fn)(struct usrv *s);

struct usrv {
	int fd;
	int port;
	pthread_t th;
	uscenario_fn fn;
	uint32_t xids[64];
	int peer_ports[64];
	int nseen;
	int max_held;  /* most calls seen and not yet answered at once */
	int first_held; /* the first such batch */
	int fail;
	int stop;       /* [atomic] set by usrv_join */
};

struct ucall {
	uint32_t xid, arg;
	struct sockaddr_in from;
};

/* One datagram call within ms; 0, 1 on timeout, -1 on a bad call. */
static int usrv_recv(struct usrv *s, struct ucall *k, int ms)
{
	uint8_t buf[2048];
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };
	socklen_t len = sizeof(k->from);
	struct rpc_call_hdr h;
	struct xdr_dec d;
	ssize_t n;

	if (poll(&pfd, 1, ms) != 1)
		return 1;
	n = recvfrom(s->fd, buf, sizeof(buf), 0,
		     (struct sockaddr *)&k->from, &len);
	if (n <= 0)
		return -1;
	xdr_dec_init(&d, buf, (size_t)n);
	if (rpcmsg_dec_call(&d, &h) || h.prog != TEST_PROG ||
	    h.vers != TEST_VERS || xdr_dec_u32(&d, &k->arg) ||
	    h.cred_flavor != RPC_AUTH_SYS || h.cred.uid != 1234) {
		s->fail = 1;
		return -1;
	}
	k->xid = h.xid;
	if (s->nseen < 64) {
		s->xids[s->nseen] = h.xid;
		s->peer_ports[s->nseen] = ntohs(k->from.sin_port);
		__atomic_store_n(&s->nseen, s->nseen + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

static void usrv_reply(struct usrv *s, const struct ucall *k,
		       uint32_t value)
{
	struct xdr_enc e;

	xdr_enc_init(&e, 0, 0);
	rpcmsg_enc_accepted_reply(&e, k->xid, RPC_SUCCESS);
	xdr_enc_u32(&e, value);
	if (sendto(s->fd, e.buf, e.len, 0, (const struct sockaddr *)&k->from,
		   sizeof(k->from)) != (ssize_t)e.len)
		s->fail = 1;
	xdr_enc_release(&e);
}

static void *usrv_main(void *arg)
{
	struct usrv *s = arg;

	s->fn(s);
	return NULL;
}

static void usrv_start(struct usrv *s, uscenario_fn fn)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);

	memset(s, 0, sizeof(*s));
	s->fn = fn;
	s->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	assert_true(s->fd >= 0);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s->fd, (struct sockaddr *)&sin, sizeof(sin)),
			 0);
	assert_int_equal(getsockname(s->fd, (struct sockaddr *)&sin, &len),
			 0);
	s->port = ntohs(sin.sin_port);
	assert_int_equal(pthread_create(&s->th, NULL, usrv_main, s), 0);
}

static void usrv_join(struct usrv *s)
{
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	pthread_join(s->th, NULL);
	close(s->fd);
	assert_int_equal(s->fail, 0);
}

static struct rpc_clnt *uclient(struct usrv *s, unsigned timeo_ds,
				unsigned retrans, bool soft)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rpc_clnt_opts o = {
		.proto = IPPROTO_UDP,
		.timeo_ds = timeo_ds,
		.retrans = retrans,
		.soft = soft,
		.server = "server 127.0.0.1",
	};
	struct rpc_clnt *c = NULL;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((uint16_t)s->port);
	assert_int_equal(rpc_clnt_create((struct sockaddr *)&sin, sizeof(sin),
					 TEST_PROG, TEST_VERS, &o, &c), 0);
	assert_non_null(c);
	return c;
}

/* Drops the first datagram, answers the retransmission. */
static void uscen_drop_first(struct usrv *s)
{
	struct ucall k;

	/* 60 s: only against a hang, however loaded the machine. */
	if (usrv_recv(s, &k, 60000) || usrv_recv(s, &k, 60000)) {
		s->fail = 1;
		return;
	}
	usrv_reply(s, &k, k.arg + 10);
	/* a late third copy would be a bug: none within 0.5 s */
	if (usrv_recv(s, &k, 500) != 1)
		s->fail = 1;
}

static void test_udp_retransmit(void **state)
{
	struct usrv s;
	struct rpc_clnt *c;
	struct rpc_proc_stats st;
	uint32_t arg = 7, res = 0;
	double t0, dt;
	int port;

	(void)state;
	usrv_start(&s, uscen_drop_first);
	c = uclient(&s, 3, 3, false); /* 0.3 s */
	port = rpc_clnt_local_port(c);
	assert_true(port > 0);
	t0 = now_s();
	assert_int_equal(rpc_clnt_call(c, 3, &test_cred, enc_u32, &arg, dec_u32,
				       &res, NULL, NULL), 0);
	dt = now_s() - t0;
	assert_int_equal(res, 17);
	assert_true(dt >= 0.25);
	assert_int_equal(rpc_clnt_get_stats(c, 3, &st), 0);
	assert_int_equal(st.retrans, 1);
	assert_int_equal(st.errors, 0);
	usrv_join(&s);
	rpc_clnt_destroy(c);
	assert_int_equal(s.nseen, 2);
	assert_int_equal(s.xids[0], s.xids[1]);
	assert_int_equal(s.peer_ports[0], port);
	assert_int_equal(s.peer_ports[1], port);
}

/* Three calls answered in reverse order, the middle one twice. */
static void uscen_reverse(struct usrv *s)
{
	struct ucall k[3];

	for (int i = 0; i < 3; i++)
		if (usrv_recv(s, &k[i], 5000)) {
			s->fail = 1;
			return;
		}
	usrv_reply(s, &k[2], k[2].arg + 10);
	usrv_reply(s, &k[1], k[1].arg + 10);
	usrv_reply(s, &k[1], k[1].arg + 10);
	usrv_reply(s, &k[0], k[0].arg + 10);
}

static void test_udp_out_of_order(void **state)
{
	struct usrv s;
	struct rpc_clnt *c;
	struct done_box b = { .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	struct rpc_proc_stats st;
	uint32_t args[3] = { 100, 200, 300 };

	(void)state;
	usrv_start(&s, uscen_reverse);
	c = uclient(&s, 600, 2, false); /* no retransmission in this test */
	for (int i = 0; i < 3; i++)
		assert_int_equal(rpc_clnt_call_async(c, 2, &test_cred, enc_u32,
						     &args[i], done_cb, &b), 0);
	done_wait(&b, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(b.err[i], 0);
		assert_int_equal(b.res[i], args[2 - i] + 10);
	}
	usrv_join(&s);
	assert_int_equal(rpc_clnt_get_stats(c, 2, &st), 0);
	assert_int_equal(st.calls, 3);
	assert_int_equal(st.retrans, 0);
	assert_int_equal(rpc_clnt_dropped_replies(c), 1); /* the duplicate */
	rpc_clnt_destroy(c);
	assert_int_equal(s.nseen, 3);
	assert_true(s.xids[0] != s.xids[1] && s.xids[1] != s.xids[2]);
}

/* Holds every call it sees until none comes for 0.3 s, then answers the
 * lot: how many were in flight at once is the congestion window. */
#define UWIN_CALLS 40
static void uscen_window(struct usrv *s)
{
	struct ucall k[UWIN_CALLS];
	int answered = 0;

	while (answered < UWIN_CALLS) {
		int held = 0, r;

		while (answered + held < UWIN_CALLS &&
		       (r = usrv_recv(s, &k[held], held ? 300 : 5000)) == 0)
			held++;
		if (held == 0) {
			s->fail = 1;
			return;
		}
		if (s->first_held == 0)
			s->first_held = held;
		if (held > s->max_held)
			s->max_held = held;
		for (int i = 0; i < held; i++)
			usrv_reply(s, &k[i], k[i].arg + 10);
		answered += held;
	}
}

static void test_udp_window(void **state)
{
	struct usrv s;
	struct rpc_clnt *c;
	struct done_box b = { .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	uint32_t args[UWIN_CALLS];
	double deadline;

	(void)state;
	usrv_start(&s, uscen_window);
	c = uclient(&s, 600, 2, false);
	for (int i = 0; i < UWIN_CALLS; i++) {
		args[i] = (uint32_t)i;
		assert_int_equal(rpc_clnt_call_async(c, 2, &test_cred, enc_u32,
						     &args[i], done_cb, &b), 0);
	}
	deadline = now_s() + 60;
	pthread_mutex_lock(&b.lock);
	while (b.n < UWIN_CALLS && now_s() < deadline) {
		pthread_mutex_unlock(&b.lock);
		usleep(10000);
		pthread_mutex_lock(&b.lock);
	}
	pthread_mutex_unlock(&b.lock);
	assert_int_equal(b.n, UWIN_CALLS);
	usrv_join(&s);
	rpc_clnt_destroy(c);
	/* 8 at first; a full window of replies opens it by about one */
	assert_int_equal(s.first_held, 8);
	assert_true(s.max_held > 8);
	assert_true(s.max_held <= 16);
	assert_int_equal(s.nseen, UWIN_CALLS); /* nothing retransmitted */
}

/* Never answers: soft fails with -EIO (or -ETIMEDOUT), hard goes on
 * with the same XID until interrupted. */
static void uscen_silent(struct usrv *s)
{
	struct ucall k;

	/* Until the test is over, not until a quiet moment: on a loaded
	 * machine the client may say nothing for seconds. */
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE))
		if (usrv_recv(s, &k, 100) < 0)
			break;
}

/* Interrupt a call once the server has seen `want` more sends of it:
 * the state the test needs, however slowly the machine runs (60 s at
 * most). */
struct intr_after {
	volatile int *flag;
	struct usrv *s;
	int base, want;
};

static void *set_flag_after_sends(void *p)
{
	struct intr_after *a = p;

	for (int i = 0; i < 6000; i++) {
		if (__atomic_load_n(&a->s->nseen, __ATOMIC_ACQUIRE) - a->base >=
		    a->want)
			break;
		usleep(10000);
	}
	__atomic_store_n(a->flag, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void test_udp_soft_and_intr(void **state)
{
	struct usrv s;
	struct rpc_clnt *c;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rpc_clnt_opts o = {
		.proto = IPPROTO_UDP, .timeo_ds = 1, .retrans = 2,
		.soft = true, .timeout_eio = true, .server = "server u",
	};
	volatile int intr = 0;
	uint32_t arg = 1, res;
	pthread_t th;
	double t0, dt;
	int seen;

	(void)state;
	usrv_start(&s, uscen_silent);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((uint16_t)s.port);
	assert_int_equal(rpc_clnt_create((struct sockaddr *)&sin, sizeof(sin),
					 TEST_PROG, TEST_VERS, &o, &c), 0);
	t0 = now_s();
	/* 0.1 + 0.2 + 0.4 s */
	assert_int_equal(rpc_clnt_call(c, 4, &test_cred, enc_u32, &arg, dec_u32,
				       &res, NULL, NULL), -EIO);
	dt = now_s() - t0;
	assert_true(dt >= 0.6);
	rpc_clnt_destroy(c);
	seen = __atomic_load_n(&s.nseen, __ATOMIC_ACQUIRE);
	assert_int_equal(seen, 3);

	/* softerr */
	o.timeout_eio = false;
	assert_int_equal(rpc_clnt_create((struct sockaddr *)&sin, sizeof(sin),
					 TEST_PROG, TEST_VERS, &o, &c), 0);
	assert_int_equal(rpc_clnt_call(c, 4, &test_cred, enc_u32, &arg, dec_u32,
				       &res, NULL, NULL), -ETIMEDOUT);
	rpc_clnt_destroy(c);

	/* hard: retransmits (one XID) until interrupted */
	o.soft = false;
	c = uclient(&s, 1, 1, false);
	seen = __atomic_load_n(&s.nseen, __ATOMIC_ACQUIRE);
	{
		struct intr_after ia = { &intr, &s, seen, 2 };

		pthread_create(&th, NULL, set_flag_after_sends, &ia);
		t0 = now_s();
		assert_int_equal(rpc_clnt_call(c, 5, &test_cred, enc_u32,
					       &arg, dec_u32, &res, NULL,
					       &intr), -EINTR);
		dt = now_s() - t0;
		pthread_join(th, NULL);
	}
	/* A resend needs one timeout (0.1 s) at least. */
	assert_true(dt >= 0.1);
	rpc_clnt_destroy(c);
	usrv_join(&s);
	/* sent, then sent again with the same XID, before the interrupt */
	assert_true(s.nseen - seen >= 2);
	for (int i = seen + 1; i < s.nseen && i < 64; i++)
		assert_int_equal(s.xids[i], s.xids[seen]);
}

static int enc_big(struct xdr_enc *e, const void *args)
{
	static uint8_t zero[70000];

	(void)args;
	return xdr_enc_opaque(e, UINT32_MAX, zero, sizeof(zero));
}

/* A call too big for a datagram is refused at once. */
static void test_udp_too_big(void **state)
{
	struct usrv s;
	struct rpc_clnt *c;
	struct done_box b = { .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };

	(void)state;
	usrv_start(&s, uscen_silent);
	c = uclient(&s, 600, 2, false);
	assert_int_equal(rpc_clnt_call(c, 1, &test_cred, enc_big, NULL, NULL,
				       NULL, NULL, NULL), -EMSGSIZE);
	assert_int_equal(rpc_clnt_call_async(c, 1, &test_cred, enc_big, NULL,
					     done_cb, &b), -EMSGSIZE);
	rpc_clnt_destroy(c);
	usrv_join(&s);
	assert_int_equal(s.nseen, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_whole),
		cmocka_unit_test(test_record_split_everywhere),
		cmocka_unit_test(test_record_oversize),
		cmocka_unit_test(test_record_direct),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_leader_hands_over),
		cmocka_unit_test(test_many_big_calls),
		cmocka_unit_test(test_reconnect_same_port),
		cmocka_unit_test(test_soft_timeout),
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_interrupted_detach),
		cmocka_unit_test(test_hard_retry),
		cmocka_unit_test(test_oversize_record),
		cmocka_unit_test(test_rpc_error),
		cmocka_unit_test(test_destroy_fails_outstanding),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_soft_timeout_eio),
		cmocka_unit_test(test_udp_retransmit),
		cmocka_unit_test(test_udp_out_of_order),
		cmocka_unit_test(test_udp_window),
		cmocka_unit_test(test_udp_soft_and_intr),
		cmocka_unit_test(test_udp_too_big),
	};

	if (getenv("NFSFUSE_DEBUG"))
		nf_log_level = NF_LOG_DEBUG;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
