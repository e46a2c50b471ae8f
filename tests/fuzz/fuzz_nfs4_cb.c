/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the NFSv4.1 callback codecs (xdr/nfs4.h): what
 * the server sends on the backchannel and the reply the client builds.
 *
 * Input: selector byte, then (by selector % 3):
 *   0 a CB_COMPOUND request, answered as the client does: each decoded
 *     callback is round-tripped and answered; the first one not decoded
 *     is answered NOTSUPP or OP_ILLEGAL; the reply built must then walk
 *     cleanly as the server would read it;
 *   1 one callback's arguments: a byte picking it, then the arguments;
 *   2 one callback's result: a byte picking it, then the result.
 * Everything decoded is encoded again and must decode and encode
 * identically.
 */
#include <errno.h>

#include "fuzz.h"
#include "nfs4.h"

FUZZ_DEFINE_SINK;

static uint32_t cbops[32];
static unsigned ncbops;

static void init_ops(void)
{
	if (ncbops)
		return;
	for (uint32_t op = 0; op < 32; op++)
		if (nfs4_cb_op_codec(op))
			cbops[ncbops++] = op;
}

static void touch_args(uint32_t op, const union nfs4_cb_args *u)
{
	struct nfs4_cb_referring_it it;
	struct nfs4_cb_referring c;
	uint32_t n = 0;
	int ret;

	switch (op) {
	case NFS4CBOP_SEQUENCE:
		fuzz_touch(u->sequence.raw, u->sequence.raw_len);
		nfs4_cb_referring_start(&u->sequence, &it);
		while ((ret = nfs4_cb_referring_next(&it, &c)) == 1)
			n++;
		FUZZ_CHECK(ret == 0 && n == u->sequence.nreferring);
		FUZZ_CHECK(n <= NFS4_MAXREFCALLS);
		break;
	case NFS4CBOP_RECALL:
		FUZZ_CHECK(u->recall.fh.len <= NFS4_FHSIZE);
		break;
	case NFS4CBOP_NOTIFY_LOCK:
		fuzz_touch(u->notify_lock.lock_owner.owner,
			   u->notify_lock.lock_owner.owner_len);
		break;
	}
}

/* The answer the client gives to one decoded callback. */
static void answer(struct nfs4_cb_reply *rep, uint32_t op,
		   const union nfs4_cb_args *u)
{
	struct nfs4_cb_sequence_res sr;
	struct nfs4_getattr_res gr;
	struct nfs4_status_res st = { NFS4_OK };

	switch (op) {
	case NFS4CBOP_SEQUENCE:
		memset(&sr, 0, sizeof(sr));
		memcpy(sr.sessionid, u->sequence.sessionid, NFS4_SESSIONID_SIZE);
		sr.sequenceid = u->sequence.sequenceid;
		sr.slotid = u->sequence.slotid;
		FUZZ_CHECK(nfs4_cb_reply_add(rep, op, &sr) == 0);
		break;
	case NFS4CBOP_GETATTR:
		memset(&gr, 0, sizeof(gr));
		gr.attrs.mask.w[0] = u->getattr.request.w[0] &
				     (1u << NFS4_FATTR_CHANGE | 1u << NFS4_FATTR_SIZE);
		gr.attrs.change = 1;
		gr.attrs.size = 2;
		FUZZ_CHECK(nfs4_cb_reply_add(rep, op, &gr) == 0);
		break;
	case NFS4CBOP_LAYOUTRECALL:
		st.status = NFS4ERR_NOMATCHING_LAYOUT;
		FUZZ_CHECK(nfs4_cb_reply_add(rep, op, &st) == 0);
		break;
	default:
		FUZZ_CHECK(nfs4_cb_reply_add(rep, op, &st) == 0);
		break;
	}
}

/* The reply walks as the server reads it. */
static void check_reply(const struct xdr_enc *e, const uint32_t *done,
			unsigned ndone, bool unsupported)
{
	struct nfs4_compound_res r;
	struct xdr_dec d;
	union {
		struct nfs4_cb_sequence_res s;
		struct nfs4_getattr_res g;
		struct nfs4_status_res st;
	} res;

	xdr_dec_init(&d, e->buf, e->len);
	FUZZ_CHECK(nfs4_cb_dec_compound_res(&d, &r) == 0);
	FUZZ_CHECK(r.nres == ndone + (unsupported ? 1 : 0));
	for (unsigned i = 0; i < ndone; i++) {
		int ret = nfs4_compound_next(&r, done[i], &res);

		FUZZ_CHECK(ret == 0);
		if (res.st.status != NFS4_OK) {
			FUZZ_CHECK(i + 1 == ndone && !unsupported);
			break;
		}
	}
}

static void compound(struct xdr_dec *d)
{
	struct nfs4_cb_compound_args a;
	struct nfs4_cb_reply rep;
	union nfs4_cb_args *u;
	uint32_t done[NFS4_MAXOPS];
	unsigned ndone = 0;
	bool unsupported = false;
	struct xdr_enc e;
	uint32_t op;
	int ret;

	if (nfs4_cb_dec_compound_args(d, &a))
		return;
	FUZZ_CHECK(a.nops <= NFS4_MAXOPS);
	fuzz_touch(a.tag.s, a.tag.len);
	u = malloc(sizeof(*u));
	if (!u || xdr_enc_init(&e, 256, 0))
		abort();
	nfs4_cb_reply_start(&rep, &e, &a.tag);
	while ((ret = nfs4_cb_next_op(&a, &op, u)) == 1) {
		const struct xdr_proc_codec *pc = nfs4_cb_op_codec(op);

		touch_args(op, u);
		FUZZ_CHECK(fuzz_round_trip(pc->enc_args, pc->dec_args, u,
					   pc->args_size) == 0);
		answer(&rep, op, u);
		done[ndone++] = op;
		if (op == NFS4CBOP_LAYOUTRECALL)
			break;
	}
	if (ret == -EOPNOTSUPP) {
		FUZZ_CHECK(nfs4_cb_reply_unsupported(&rep, op) == 0);
		unsupported = true;
	} else {
		FUZZ_CHECK(ret == 0 || ret == 1 || ret == -EBADMSG);
	}
	FUZZ_CHECK(xdr_enc_error(&e) == 0);
	check_reply(&e, done, ndone, unsupported);
	xdr_enc_release(&e);
	free(u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct xdr_proc_codec *pc;
	struct xdr_dec d;
	uint8_t *buf;
	size_t len;
	unsigned sel;

	init_ops();
	if (size < 2)
		return 0;
	sel = data[0] % 3;
	if (sel == 0) {
		buf = fuzz_copy(data + 1, size - 1, &len);
		xdr_dec_init(&d, buf, len);
		compound(&d);
		free(buf);
		return 0;
	}
	pc = nfs4_cb_op_codec(cbops[data[1] % ncbops]);
	buf = fuzz_copy(data + 2, size - 2, &len);
	xdr_dec_init(&d, buf, len);
	if (sel == 1)
		fuzz_decode_check(pc->dec_args, pc->enc_args, pc->args_size,
				  NULL, &d);
	else
		fuzz_decode_check(pc->dec_res, pc->enc_res, pc->res_size,
				  NULL, &d);
	free(buf);
	return 0;
}
