/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the lock manager's callback listener: its TCP
 * record reassembly (lk_listener_stream, the part of the connection code
 * that reads no socket) and its dispatch of NLM GRANTED/GRANTED_MSG, the
 * statd reboot notice and everything else (lk_listener_dispatch), all from
 * src/lock/listener.c, linked with the real lock manager: GRANTED looks up
 * the waiter list, a notice goes to the reboot handling.  Nothing is
 * replaced; the sockets are the harness's own: a UNIX stream pair for the
 * TCP connection, and loopback UDP sockets for the listener's NLM and
 * statd sockets and for the server's NLM (where GRANTED_RES goes).
 *
 * Input:
 *   byte 0   bits 0-1 the caller's address: 0 the server (127.0.0.1),
 *            1 another host (192.0.2.1), 2 loopback but not the server
 *            (127.0.0.2), 3 ::1; bit 2 datagrams instead of a stream;
 *            bit 3 the datagrams arrive on the statd socket, not NLM's;
 *            bit 4 the stream's record limit is the listener's 64 KiB
 *            rather than 256 bytes (to reach the limit quickly);
 *   then chunks as in fuzz_record.c: a 2-byte big-endian length (low 15
 *   bits) and that many bytes (clipped).  On a stream each chunk is one
 *   read of the connection (the split points are fuzzed); as datagrams
 *   each is one datagram.
 *
 * One lock waits (svid 7, owner "owner", handle "handle!", range 16+32)
 * so that a GRANTED can match it.  Checked: every reply the listener
 * writes is one whole record (stream) or datagram that decodes as an
 * accepted RPC reply, answering the calls in order (its XIDs are a
 * subsequence of the calls' XIDs); GRANTED_RES goes only to our server,
 * only for a GRANTED_MSG from it, and decodes; the waiter is granted only
 * by a call from the server; the stream stops only at a record over the
 * limit.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "fuzz_records.h"
#include "lock_int.h"
#include "record.h"

FUZZ_DEFINE_SINK;

#define LISTENER_MAX_RECORD (64 * 1024) /* LK_MAX_RECORD */
#define SM_PROG 0x4e465301u

static struct lockmgr lm;
static struct lk_waiter waiter;
static int stream_fd[2];     /* [0] the listener's end */
static int nlm_udp, sm_udp;  /* the listener's datagram sockets */
static int out_udp;          /* the server's NLM; and our UDP peer */
static struct rpc_addr out_addr;

static int udp_socket(struct rpc_addr *bound)
{
	struct rpc_addr a;
	socklen_t sl = sizeof(a.u);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	rpc_addr_parse(&a, "127.0.0.1", 0);
	if (fd < 0 || bind(fd, &a.u.sa, a.len) < 0 ||
	    getsockname(fd, &a.u.sa, &sl) < 0) {
		perror("fuzz_listener: udp socket");
		abort();
	}
	if (bound)
		*bound = a;
	return fd;
}

static void setup(void)
{
	int sz = 1 << 20;

	memset(&lm, 0, sizeof(lm));
	pthread_mutex_init(&lm.mu, NULL);
	pthread_cond_init(&lm.wake, NULL);
	pthread_cond_init(&lm.wait_cv, NULL);
	rpc_addr_parse(&lm.cfg.server, "127.0.0.1", 2049);
	lm.nlm_vers = NLM_V4;
	lm.nlm_tcp_fd = -1;
	lm.sm_prog = SM_PROG;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
		       stream_fd) < 0)
		abort();
	setsockopt(stream_fd[0], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	nlm_udp = lm.nlm_udp_fd = udp_socket(NULL);
	sm_udp = lm.sm_fd = udp_socket(NULL);
	out_udp = udp_socket(&out_addr);
	setsockopt(out_udp, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	lk_conn_init(&lm.nlm, &out_addr, NULL, NLM_PROGRAM, NLM_V4,
		     IPPROTO_UDP);

	waiter.svid = 7;
	memcpy(waiter.oh, "owner", 5);
	waiter.oh_len = 5;
	waiter.fh.len = 7;
	memcpy(waiter.fh.data, "handle!", 7);
	waiter.start = 16;
	waiter.len = 32;
	waiter.result = -EINPROGRESS;
	lm.waiting = &waiter;
	lm.nwaiting = 1;
}

/* The XIDs of the calls, in order; replies must follow them. */
struct xids {
	uint32_t *v;
	size_t n, next;
};

static void xid_add(struct xids *x, const uint8_t *rec, size_t len)
{
	uint32_t xid;

	if (rpcmsg_dec_xid(rec, len, &xid))
		return;
	x->v[x->n++] = xid;
}

/* A reply's XID is that of a call after the one answered last. */
static void xid_answered(struct xids *x, uint32_t xid)
{
	while (x->next < x->n && x->v[x->next] != xid)
		x->next++;
	FUZZ_CHECK(x->next < x->n);
	x->next++;
}

static void check_reply(struct xids *x, const uint8_t *p, size_t len)
{
	struct rpc_reply_hdr h;
	struct xdr_dec d;

	xdr_dec_init(&d, p, len);
	FUZZ_CHECK(rpcmsg_dec_reply(&d, &h) == 0);
	FUZZ_CHECK(h.reply_stat == MSG_ACCEPTED);
	xid_answered(x, h.xid);
}

/* What reached the server's NLM socket (GRANTED_RES) or, for datagrams,
 * our peer's (the replies). */
static void drain_udp(struct xids *x, bool from_server, size_t *grants)
{
	uint8_t buf[9000];
	ssize_t n;

	while ((n = recv(out_udp, buf, sizeof(buf), 0)) >= 0) {
		struct rpc_call_hdr h;
		struct nlm_res res;
		struct xdr_dec d;

		FUZZ_CHECK(n >= 8);
		if (xdr_get_u32(buf + 4) == RPC_REPLY) {
			check_reply(x, buf, (size_t)n);
			continue;
		}
		xdr_dec_init(&d, buf, (size_t)n);
		FUZZ_CHECK(from_server);
		FUZZ_CHECK(rpcmsg_dec_call(&d, &h) == 0);
		FUZZ_CHECK(h.prog == NLM_PROGRAM && h.vers == NLM_V4 &&
			   h.proc == NLMPROC_GRANTED_RES);
		FUZZ_CHECK(nlm_dec_res(&d, &res) == 0);
		FUZZ_CHECK(xdr_dec_left(&d) == 0);
		FUZZ_CHECK(res.stat == NLM_GRANTED || res.stat == NLM_DENIED);
		(*grants)++;
	}
	FUZZ_CHECK(errno == EAGAIN || errno == EWOULDBLOCK);
}

/* The reply stream so far: whole records, each one fragment. */
static void drain_stream(struct xids *x, uint8_t **buf, size_t *len)
{
	uint8_t tmp[8192];
	ssize_t n;

	while ((n = recv(stream_fd[1], tmp, sizeof(tmp), 0)) > 0) {
		uint8_t *nb = realloc(*buf, *len + (size_t)n);

		if (!nb)
			abort();
		memcpy(nb + *len, tmp, (size_t)n);
		*buf = nb;
		*len += (size_t)n;
	}
	while (*len >= 4) {
		uint32_t m = xdr_get_u32(*buf);
		size_t flen = m & ~RPC_RECORD_LAST;

		FUZZ_CHECK(m & RPC_RECORD_LAST);
		if (flen > *len - 4)
			break; /* the rest comes with the next drain */
		check_reply(x, *buf + 4, flen);
		memmove(*buf, *buf + 4 + flen, *len - 4 - flen);
		*len -= 4 + flen;
	}
}

/* The calls in the stream, by a reassembly independent of record.c's,
 * up to the first record over max. */
static void stream_calls(struct xids *x, const uint8_t *s, size_t len,
			 size_t max, bool *over)
{
	struct fuzz_records r;

	fuzz_records_parse(&r, s, len, max);
	for (size_t i = 0; i < r.n; i++)
		xid_add(x, r.recs[i], r.lens[i]);
	*over = r.over;
	fuzz_records_free(&r);
}

static const char *const from_host[4] = { "127.0.0.1", "192.0.2.1",
					  "127.0.0.2", "::1" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct rpc_record_reader rr;
	struct rpc_addr from;
	struct xids x = { 0 };
	uint8_t *stream, *replies = NULL;
	size_t off, slen = 0, rlen = 0, grants = 0, max;
	bool dgram, server, over, open = true;

	if (!ready) {
		setup();
		ready = true;
	}
	if (size < 1)
		return 0;
	rpc_addr_parse(&from, from_host[data[0] & 3], 999);
	server = (data[0] & 3) == 0;
	dgram = data[0] & 4;
	max = data[0] & 16 ? LISTENER_MAX_RECORD : 256;
	waiter.granted = false;
	x.v = calloc(size / 4 + 1, sizeof(*x.v));
	stream = malloc(size);
	if (!x.v || !stream)
		abort();

	/* The calls first: the stream's records, or each datagram. */
	for (off = 1; off < size;) {
		size_t n = size - off;

		if (n >= 2) {
			size_t want = (size_t)(data[off] & 0x7f) << 8 |
				      data[off + 1];

			off += 2;
			n = size - off;
			if (want < n)
				n = want;
		}
		if (dgram)
			xid_add(&x, data + off, n);
		memcpy(stream + slen, data + off, n);
		slen += n;
		off += n;
	}
	if (!dgram)
		stream_calls(&x, stream, slen, max, &over);

	rpc_record_reader_init(&rr, max);
	for (off = 1; off < size && open;) {
		size_t n = size - off;
		uint8_t *chunk;

		if (n >= 2) {
			size_t want = (size_t)(data[off] & 0x7f) << 8 |
				      data[off + 1];

			off += 2;
			n = size - off;
			if (want < n)
				n = want;
		}
		/* A heap copy of exactly the chunk, for ASan. */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			abort();
		memcpy(chunk, data + off, n);
		if (dgram) {
			struct lk_reply_sink s = {
				.fd = data[0] & 8 ? sm_udp : nlm_udp,
				.to = out_addr,
			};

			lk_listener_dispatch(&lm, chunk, n, &from, &s);
		} else {
			open = lk_listener_stream(&lm, &rr, stream_fd[0],
						  &from, chunk, n);
		}
		free(chunk);
		off += n;
		if (!dgram)
			drain_stream(&x, &replies, &rlen);
		drain_udp(&x, server, &grants);
	}
	/* The connection closes only at a record over the limit. */
	if (!dgram)
		FUZZ_CHECK(open == !over);
	FUZZ_CHECK(rlen == 0); /* no partial reply left behind */
	FUZZ_CHECK(!waiter.granted || server);
	rpc_record_reader_free(&rr);
	free(replies);
	free(stream);
	free(x.v);
	return 0;
}
