/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the ONC RPC message headers (xdr/rpc_msg.h).
 *
 * Input: selector byte, then a whole RPC message (no record mark).
 * Selector % 3:
 *   0  rpcmsg_dec_reply, then rpcmsg_reply_errno and rpcmsg_reply_str;
 *      an accepted reply is encoded again with rpcmsg_enc_accepted_reply;
 *   1  rpcmsg_dec_call; the header is encoded again with rpcmsg_enc_call
 *      and must decode to the same fields;
 *   2  rpcmsg_dec_xid.
 */
#include "fuzz.h"
#include "rpc_msg.h"

FUZZ_DEFINE_SINK;

static void check_reply(struct xdr_dec *d)
{
	struct rpc_reply_hdr h, h2;
	struct xdr_enc e;
	struct xdr_dec d2;
	char text[128], tiny[8];
	const char *s;
	int ret;

	memset(&h, 0, sizeof(h));
	ret = rpcmsg_dec_reply(d, &h);
	FUZZ_CHECK(d->p <= d->end);
	if (ret)
		return;
	ret = rpcmsg_reply_errno(&h);
	FUZZ_CHECK(ret <= 0);
	s = rpcmsg_reply_str(&h, text, sizeof(text));
	FUZZ_CHECK(s && strlen(s) < sizeof(text));
	s = rpcmsg_reply_str(&h, tiny, sizeof(tiny));
	FUZZ_CHECK(s && strlen(s) < sizeof(tiny));
	fuzz_sink += (uint32_t)strlen(text);

	if (h.reply_stat != MSG_ACCEPTED)
		return;
	if (xdr_enc_init(&e, 64, 0))
		abort();
	FUZZ_CHECK(rpcmsg_enc_accepted_reply(&e, h.xid, h.accept_stat) == 0);
	if (h.accept_stat == RPC_PROG_MISMATCH) {
		xdr_enc_u32(&e, h.mismatch_low);
		xdr_enc_u32(&e, h.mismatch_high);
	}
	FUZZ_CHECK(xdr_enc_error(&e) == 0);
	xdr_dec_init(&d2, e.buf, e.len);
	memset(&h2, 0, sizeof(h2));
	ret = rpcmsg_dec_reply(&d2, &h2);
	/* An accept_stat the decoder does not know may be refused. */
	if (ret == 0) {
		FUZZ_CHECK(h2.xid == h.xid);
		FUZZ_CHECK(h2.reply_stat == MSG_ACCEPTED);
		FUZZ_CHECK(h2.accept_stat == h.accept_stat);
	}
	xdr_enc_release(&e);
}

static void check_call(struct xdr_dec *d)
{
	struct rpc_call_hdr h, h2;
	struct xdr_enc e;
	struct xdr_dec d2;
	int ret;

	ret = rpcmsg_dec_call(d, &h);
	FUZZ_CHECK(d->p <= d->end);
	if (ret)
		return;
	FUZZ_CHECK(h.cred.ngids <= RPC_AUTH_SYS_MAXGIDS);
	if (xdr_enc_init(&e, 64, 0))
		abort();
	/* Flavors other than AUTH_NONE and AUTH_SYS are the encoder's to
	 * refuse. */
	if (rpcmsg_enc_call(&e, h.xid, h.prog, h.vers, h.proc, &h.cred) == 0) {
		xdr_dec_init(&d2, e.buf, e.len);
		FUZZ_CHECK(rpcmsg_dec_call(&d2, &h2) == 0);
		FUZZ_CHECK(xdr_dec_left(&d2) == 0);
		FUZZ_CHECK(h2.xid == h.xid && h2.prog == h.prog &&
			   h2.vers == h.vers && h2.proc == h.proc);
		FUZZ_CHECK(h2.cred_flavor == h.cred_flavor);
		if (h.cred_flavor == RPC_AUTH_SYS) {
			FUZZ_CHECK(h2.cred.stamp == h.cred.stamp &&
				   h2.cred.uid == h.cred.uid &&
				   h2.cred.gid == h.cred.gid &&
				   h2.cred.ngids == h.cred.ngids);
			FUZZ_CHECK(memcmp(h2.cred.gids, h.cred.gids,
					  h.cred.ngids * sizeof(uint32_t)) == 0);
		}
	}
	xdr_enc_release(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xdr_dec d;
	uint32_t xid;
	uint8_t *buf;
	size_t len;

	if (size < 1)
		return 0;
	buf = fuzz_copy(data + 1, size - 1, &len);
	xdr_dec_init(&d, buf, len);
	switch (data[0] % 3) {
	case 0:
		check_reply(&d);
		break;
	case 1:
		check_call(&d);
		break;
	default:
		if (rpcmsg_dec_xid(buf, len, &xid) == 0) {
			FUZZ_CHECK(len >= 4);
			fuzz_sink += xid;
		}
		break;
	}
	free(buf);
	return 0;
}
