/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_cb.h"

#include <errno.h>
#include <string.h>

#include "../../xdr/nfs4_more.h"
#include "../../xdr/rpc_msg.h"
#include "../base/log.h"
#include "nfs4_session.h"

/* CB_COMPOUND: CB_SEQUENCE first, then every operation refused. */
static int cb_compound(struct nfs4_session *s, struct xdr_dec *d,
		       struct xdr_enc *e)
{
	struct nfs4more_cb_head h;
	struct nfs4more_cb_sequence_args sa;
	uint32_t op, st = NFS4_OK;

	if (nfs4more_dec_cb_head(d, &h))
		return -EBADMSG;
	if (h.minorversion != s->minor) {
		return nfs4more_enc_cb_res_head(e, NFS4ERR_MINOR_VERS_MISMATCH,
						&h.tag, 0);
	}
	if (h.nops == 0)
		return nfs4more_enc_cb_res_head(e, NFS4_OK, &h.tag, 0);
	if (xdr_dec_u32(d, &op))
		return -EBADMSG;
	if (op != NFS4CBOP_SEQUENCE) {
		nfs4more_enc_cb_res_head(e, NFS4ERR_OP_NOT_IN_SESSION, &h.tag,
					 1);
		return nfs4more_enc_cb_status_res(e, op,
						  NFS4ERR_OP_NOT_IN_SESSION);
	}
	if (nfs4more_dec_cb_sequence_args(d, &sa))
		return -EBADMSG;
	/* One slot; its sequence id must be the next one, or the last
	 * one again (a retry, answered the same: nothing is cached). */
	if (memcmp(sa.sessionid, s->sessionid, NFS4_SESSIONID_SIZE))
		st = NFS4ERR_BADSESSION;
	else if (sa.slotid != 0)
		st = NFS4ERR_BADSLOT;
	else if (sa.sequenceid != s->cb_seqid + 1 &&
		 sa.sequenceid != s->cb_seqid)
		st = NFS4ERR_SEQ_MISORDERED;
	if (st != NFS4_OK) {
		nfs4more_enc_cb_res_head(e, st, &h.tag, 1);
		return nfs4more_enc_cb_sequence_res(e, st, &sa, 0);
	}
	s->cb_seqid = sa.sequenceid;
	if (h.nops == 1) {
		nfs4more_enc_cb_res_head(e, NFS4_OK, &h.tag, 1);
		return nfs4more_enc_cb_sequence_res(e, NFS4_OK, &sa, 0);
	}
	/* The next operation is refused, and the compound stops there. */
	if (xdr_dec_u32(d, &op))
		op = NFS4CBOP_ILLEGAL;
	nf_log(NF_LOG_DEBUG, "NFSv4 callback %s refused (not supported)",
	       nfs4_cb_op_name(op) ? nfs4_cb_op_name(op) : "unknown");
	nfs4more_enc_cb_res_head(e, NFS4ERR_NOTSUPP, &h.tag, 2);
	nfs4more_enc_cb_sequence_res(e, NFS4_OK, &sa, 0);
	return nfs4more_enc_cb_status_res(e, op, NFS4ERR_NOTSUPP);
}

int nfs4_cb_dispatch(void *ctx, const uint8_t *msg, size_t len,
		     struct xdr_enc *reply)
{
	struct nfs4_session *s = ctx;
	struct rpc_call_hdr h;
	struct xdr_dec d;
	size_t at;

	xdr_dec_init(&d, msg, len);
	if (rpcmsg_dec_call(&d, &h))
		return -EBADMSG;
	__atomic_fetch_add(&s->cb_calls, 1, __ATOMIC_RELAXED);
	if (h.prog != NFS4_CB_PROGRAM)
		return rpcmsg_enc_accepted_reply(reply, h.xid,
						 RPC_PROG_UNAVAIL);
	if (h.vers != 1) {
		rpcmsg_enc_accepted_reply(reply, h.xid, RPC_PROG_MISMATCH);
		xdr_enc_u32(reply, 1);
		return xdr_enc_u32(reply, 1);
	}
	if (h.proc == NFS4_CB_PROC_NULL)
		return rpcmsg_enc_accepted_reply(reply, h.xid, RPC_SUCCESS);
	if (h.proc != NFS4_CB_PROC_COMPOUND)
		return rpcmsg_enc_accepted_reply(reply, h.xid,
						 RPC_PROC_UNAVAIL);
	rpcmsg_enc_accepted_reply(reply, h.xid, RPC_SUCCESS);
	at = reply->len;
	if (cb_compound(s, &d, reply)) {
		/* Could not read it: GARBAGE_ARGS instead. */
		reply->len = at - 4;
		return xdr_enc_u32(reply, RPC_GARBAGE_ARGS);
	}
	return xdr_enc_error(reply);
}
