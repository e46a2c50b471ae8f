/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_cb.h"

#include <errno.h>
#include <string.h>

#include "../../xdr/nfs4.h"
#include "../../xdr/rpc_msg.h"
#include "../base/log.h"
#include "nfs4_session.h"

/* CB_SEQUENCE on the backchannel's one slot: its sequence id must be the
 * next one, or the last one again (a retry, answered the same: nothing
 * is cached, and nothing we answer has effects to repeat). */
static uint32_t cb_sequence(struct nfs4_session *s,
			    const struct nfs4_cb_sequence_args *a,
			    struct nfs4_cb_sequence_res *res)
{
	memset(res, 0, sizeof(*res));
	if (memcmp(a->sessionid, s->sessionid, NFS4_SESSIONID_SIZE))
		res->status = NFS4ERR_BADSESSION;
	else if (a->slotid != 0)
		res->status = NFS4ERR_BADSLOT;
	else if (a->sequenceid != s->cb_seqid + 1 &&
		 a->sequenceid != s->cb_seqid)
		res->status = NFS4ERR_SEQ_MISORDERED;
	if (res->status != NFS4_OK)
		return res->status;
	s->cb_seqid = a->sequenceid;
	memcpy(res->sessionid, a->sessionid, NFS4_SESSIONID_SIZE);
	res->sequenceid = a->sequenceid;
	res->slotid = 0;
	res->highest_slotid = 0;
	res->target_highest_slotid = 0;
	return NFS4_OK;
}

/* CB_RECALL: the recall hook's answer. */
static uint32_t cb_recall(struct nfs4_session *s,
			  const struct nfs4_cb_recall_args *a)
{
	nfs4_recall_fn fn;
	void *ctx;

	pthread_mutex_lock(&s->lock);
	fn = s->recall;
	ctx = s->recall_ctx;
	pthread_mutex_unlock(&s->lock);
	return fn ? fn(ctx, a) : NFS4ERR_BADHANDLE;
}

/* CB_GETATTR: the hook's answer. */
static uint32_t cb_getattr(struct nfs4_session *s,
			   const struct nfs4_cb_getattr_args *a,
			   struct nfs4_fattr *out)
{
	nfs4_cb_getattr_fn fn;
	void *ctx;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&s->lock);
	fn = s->cb_getattr;
	ctx = s->cb_getattr_ctx;
	pthread_mutex_unlock(&s->lock);
	return fn ? fn(ctx, a, out) : NFS4ERR_BADHANDLE;
}

/* CB_NOTIFY_LOCK: given to the lock-notification hook; false when there
 * is none (then refused as not supported). */
static bool cb_notify_lock(struct nfs4_session *s,
			   const union nfs4_cb_args *args)
{
	nfs4_notify_lock_fn fn;
	void *ctx;

	pthread_mutex_lock(&s->lock);
	fn = s->notify_lock;
	ctx = s->notify_lock_ctx;
	pthread_mutex_unlock(&s->lock);
	if (fn)
		fn(ctx, &args->notify_lock);
	return fn != NULL;
}

/* CB_COMPOUND: CB_SEQUENCE first, then CB_RECALL, CB_GETATTR and
 * CB_NOTIFY_LOCK answered and every other operation refused (the
 * compound stops at the first failure). */
static int cb_compound(struct nfs4_session *s, struct xdr_dec *d,
		       struct xdr_enc *e)
{
	struct nfs4_cb_compound_args ca;
	struct nfs4_cb_reply r;
	union nfs4_cb_args args;
	uint32_t op;
	int ret;

	if (nfs4_cb_dec_compound_args(d, &ca))
		return -EBADMSG;
	nfs4_cb_reply_start(&r, e, &ca.tag);
	if (ca.minorversion != s->minor)
		return nfs4_cb_reply_status(&r, NFS4ERR_MINOR_VERS_MISMATCH);
	for (unsigned i = 0; (ret = nfs4_cb_next_op(&ca, &op, &args)) == 1;
	     i++) {
		if (i == 0 && op == NFS4CBOP_SEQUENCE) {
			struct nfs4_cb_sequence_res sr;

			if (cb_sequence(s, &args.sequence, &sr) != NFS4_OK)
				return nfs4_cb_reply_add(&r, op, &sr);
			nfs4_cb_reply_add(&r, op, &sr);
			continue;
		}
		if (i == 0 || op == NFS4CBOP_SEQUENCE) {
			struct nfs4_status_res st = {
				i == 0 ? NFS4ERR_OP_NOT_IN_SESSION
				       : NFS4ERR_SEQUENCE_POS };

			return nfs4_cb_reply_add(&r, op, &st);
		}
		if (op == NFS4CBOP_NOTIFY_LOCK && cb_notify_lock(s, &args)) {
			struct nfs4_status_res st = { NFS4_OK };

			nfs4_cb_reply_add(&r, op, &st);
			continue;
		}
		if (op == NFS4CBOP_RECALL) {
			struct nfs4_status_res st = {
				cb_recall(s, &args.recall) };

			nfs4_cb_reply_add(&r, op, &st);
			if (st.status != NFS4_OK)
				return xdr_enc_error(e);
			continue;
		}
		if (op == NFS4CBOP_GETATTR) {
			struct nfs4_getattr_res gr;

			gr.status = cb_getattr(s, &args.getattr, &gr.attrs);
			nfs4_cb_reply_add(&r, op, &gr);
			if (gr.status != NFS4_OK)
				return xdr_enc_error(e);
			continue;
		}
		nf_log(NF_LOG_DEBUG, "NFSv4 callback %s refused (not "
		       "supported)", nfs4_cb_op_name(op) ?
		       nfs4_cb_op_name(op) : "unknown");
		return nfs4_cb_reply_unsupported(&r, op);
	}
	if (ret == -EOPNOTSUPP)
		return nfs4_cb_reply_unsupported(&r, op);
	return ret < 0 ? ret : xdr_enc_error(e);
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
