/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the lock manager's TCP reply reader
 * (lk_conn_recv_reply in src/lock/nlm_client.c): it reads one record at a
 * time off the socket through the shared record reader's zero-copy path,
 * drops replies to other XIDs, and decodes the one it waits for.
 *
 * Input:
 *   byte 0      the result decoder: % 4: 0 nlm_res, 1 nlm4_testres,
 *               2 nlm_testres (v1/v3), 3 none;
 *   bytes 1..4  the XID of the call waited for (big-endian);
 *   the rest    the byte stream the server sends, written whole to a UNIX
 *               stream socket whose far end is then shut down (the reader
 *               asks for exact sizes, so how the kernel splits the stream
 *               does not matter to it).
 *
 * The reader is called until it fails.  A reference (below: a plain
 * reassembly, 64 KiB limit) says what it must hand out: each reply it
 * returns is the next complete record with the XID waited for, byte for
 * byte, and the decoded result points into it; it fails with -ECONNRESET
 * only when no such record is left, with -EIO only for a record over the
 * limit or one that does not decode, never with a timeout.
 */
#include <errno.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "fuzz_records.h"
#include "lock_int.h"
#include "record.h"

FUZZ_DEFINE_SINK;

#define MAX_REPLY (64u * 1024u) /* LK_MAX_REPLY */

/* The reference's records, and the next one a reply may match. */
struct ref {
	struct fuzz_records r;
	size_t next;
};

/* Moves the cursor to the next record answering xid; false if none. */
static bool ref_seek(struct ref *ref, uint32_t xid)
{
	for (; ref->next < ref->r.n; ref->next++) {
		uint32_t x;

		if (rpcmsg_dec_xid(ref->r.recs[ref->next],
				   ref->r.lens[ref->next], &x) == 0 && x == xid)
			return true;
	}
	return false;
}

static bool inside(const struct rpc_reply *r, const void *p, size_t n)
{
	const uint8_t *b = p;

	return n == 0 || (b >= r->buf && b <= r->buf + r->len &&
			  n <= (size_t)(r->buf + r->len - b));
}

/* Writes the stream into a socket pair; returns the reading end. */
static int stream_socket(const uint8_t *s, size_t len)
{
	int sv[2], sz = (int)len + 4096;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		abort();
	setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	while (len) {
		ssize_t w = send(sv[1], s, len, MSG_NOSIGNAL);

		if (w <= 0)
			abort(); /* the buffer is larger than the input */
		s += w;
		len -= (size_t)w;
	}
	close(sv[1]);
	return sv[0];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	union {
		struct nlm_res res;
		struct nlm_testres testres;
	} u;
	static const xdr_dec_fn decs[4] = { nlm_dec_res, nlm_dec_testres_v4,
					    nlm_dec_testres_v1, NULL };
	struct timespec deadline;
	struct ref ref;
	xdr_dec_fn dec;
	uint32_t xid;
	int fd, ret;

	/* Larger inputs would only fill socket buffers. */
	if (size < 5 || size > 256 * 1024)
		return 0;
	dec = decs[data[0] % 4];
	xid = xdr_get_u32(data + 1);
	memset(&ref, 0, sizeof(ref));
	fuzz_records_parse(&ref.r, data + 5, size - 5, MAX_REPLY);
	fd = stream_socket(data + 5, size - 5);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += 60; /* never reached: the stream ends */

	for (;;) {
		struct rpc_reply reply = { NULL, 0 };
		uint32_t rx;

		memset(&u, 0x5a, sizeof(u));
		ret = lk_conn_recv_reply(fd, xid, dec, &u, &reply, &deadline);
		if (ret) {
			FUZZ_CHECK(reply.buf == NULL && reply.len == 0);
			break;
		}
		FUZZ_CHECK(reply.buf && reply.len <= MAX_REPLY);
		FUZZ_CHECK(rpcmsg_dec_xid(reply.buf, reply.len, &rx) == 0 &&
			   rx == xid);
		FUZZ_CHECK(ref_seek(&ref, xid));
		FUZZ_CHECK(reply.len == ref.r.lens[ref.next] &&
			   memcmp(reply.buf, ref.r.recs[ref.next],
				  reply.len) == 0);
		ref.next++;
		if (dec == nlm_dec_res) {
			FUZZ_CHECK(inside(&reply, u.res.cookie.data,
					  u.res.cookie.len));
			fuzz_touch(u.res.cookie.data, u.res.cookie.len);
		} else if (dec) {
			FUZZ_CHECK(inside(&reply, u.testres.cookie.data,
					  u.testres.cookie.len));
			fuzz_touch(u.testres.cookie.data,
				   u.testres.cookie.len);
		}
		rpc_reply_release(&reply);
	}
	if (ret == -ECONNRESET)
		FUZZ_CHECK(!ref.r.over && !ref_seek(&ref, xid));
	else if (ret == -EIO)
		FUZZ_CHECK(ref.r.over || ref_seek(&ref, xid));
	else
		/* The reply to our call said no (rpcmsg_reply_errno). */
		FUZZ_CHECK(ref_seek(&ref, xid) &&
			   (ret == -EPROTONOSUPPORT || ret == -EOPNOTSUPP ||
			    ret == -EINVAL || ret == -EPROTO ||
			    ret == -EACCES));
	close(fd);
	fuzz_records_free(&ref.r);
	return 0;
}
