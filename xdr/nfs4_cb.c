/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 callbacks (RFC 8881 sections 16 and 20): the CB_COMPOUND the
 * server sends on the backchannel, the arguments of the callbacks this
 * client answers (CB_SEQUENCE, CB_RECALL, CB_GETATTR, CB_NOTIFY_LOCK,
 * CB_RECALL_ANY, CB_LAYOUTRECALL) and the reply it sends back.  The
 * other direction (encoding the arguments, decoding the reply) is here
 * too, for the tests and the test servers.
 *
 * A callback this code does not decode cannot be skipped (its arguments
 * have no length): the walk stops there and the reply answers it alone,
 * which is what the protocol does at the first failure anyway.
 */
#include "nfs4.h"

#include <errno.h>
#include <string.h>

static int enc_fail(struct xdr_enc *e, int err)
{
	if (!e->err)
		e->err = err;
	return e->err;
}

static int dec_fixed(struct xdr_dec *d, uint8_t *dst, size_t n)
{
	const uint8_t *p;
	int ret = xdr_dec_opaque_fixed(d, n, &p);

	if (ret == 0)
		memcpy(dst, p, n);
	return ret;
}

/* ---- CB_SEQUENCE ---- */

/*
 * CB_SEQUENCE4args: sessionid, sequenceid, slotid, highest_slotid,
 * cachethis, referring_call_lists (referring_call_list4<>: a sessionid
 * and referring_call4<>, each a sequenceid and a slotid).
 */
int nfs4_enc_cb_sequence_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_cb_sequence_args *a = args;

	if (!a || (a->nreferring && !a->referring && !a->raw) ||
	    a->nreferring > NFS4_MAXREFCALLS || a->raw_len % 4)
		return enc_fail(e, -EINVAL);
	xdr_enc_opaque_fixed(e, a->sessionid, NFS4_SESSIONID_SIZE);
	xdr_enc_u32(e, a->sequenceid);
	xdr_enc_u32(e, a->slotid);
	xdr_enc_u32(e, a->highest_slotid);
	xdr_enc_bool(e, a->cachethis);
	if (!a->referring) {
		xdr_enc_u32(e, a->nlists);
		return xdr_enc_opaque_fixed(e, a->raw, a->raw_len);
	}
	xdr_enc_u32(e, a->nreferring);
	for (uint32_t i = 0; i < a->nreferring; i++) {
		xdr_enc_opaque_fixed(e, a->referring[i].sessionid,
				     NFS4_SESSIONID_SIZE);
		xdr_enc_u32(e, 1);
		xdr_enc_u32(e, a->referring[i].sequenceid);
		xdr_enc_u32(e, a->referring[i].slotid);
	}
	return e->err;
}

int nfs4_dec_cb_sequence_args(struct xdr_dec *d, void *args)
{
	struct nfs4_cb_sequence_args *a = args;
	uint32_t ncalls;

	memset(a, 0, sizeof(*a));
	if (dec_fixed(d, a->sessionid, NFS4_SESSIONID_SIZE) ||
	    xdr_dec_u32(d, &a->sequenceid) || xdr_dec_u32(d, &a->slotid) ||
	    xdr_dec_u32(d, &a->highest_slotid) ||
	    xdr_dec_bool(d, &a->cachethis) || xdr_dec_u32(d, &a->nlists) ||
	    a->nlists > NFS4_MAXREFCALLS)
		return -EBADMSG;
	a->raw = d->p;
	for (uint32_t i = 0; i < a->nlists; i++) {
		if (!xdr_dec_inline(d, NFS4_SESSIONID_SIZE) ||
		    xdr_dec_u32(d, &ncalls) ||
		    ncalls > NFS4_MAXREFCALLS - a->nreferring ||
		    !xdr_dec_inline(d, (size_t)ncalls * 8))
			return -EBADMSG;
		a->nreferring += ncalls;
	}
	a->raw_len = (uint32_t)(d->p - a->raw);
	return 0;
}

void nfs4_cb_referring_start(const struct nfs4_cb_sequence_args *a,
			     struct nfs4_cb_referring_it *it)
{
	memset(it, 0, sizeof(*it));
	if (!a->raw)
		return;
	xdr_dec_init(&it->d, a->raw, a->raw_len);
	it->lists_left = a->nlists;
}

int nfs4_cb_referring_next(struct nfs4_cb_referring_it *it,
			   struct nfs4_cb_referring *c)
{
	while (it->calls_left == 0) {
		if (it->lists_left == 0)
			return 0;
		if (dec_fixed(&it->d, it->sessionid, NFS4_SESSIONID_SIZE) ||
		    xdr_dec_u32(&it->d, &it->calls_left))
			return -EBADMSG;
		it->lists_left--;
	}
	memcpy(c->sessionid, it->sessionid, NFS4_SESSIONID_SIZE);
	if (xdr_dec_u32(&it->d, &c->sequenceid) ||
	    xdr_dec_u32(&it->d, &c->slotid))
		return -EBADMSG;
	it->calls_left--;
	return 1;
}

/* CB_SEQUENCE4resok: sessionid, sequenceid, slotid, highest_slotid,
 * target_highest_slotid. */
int nfs4_enc_cb_sequence_res(struct xdr_enc *e, const void *res)
{
	const struct nfs4_cb_sequence_res *r = res;

	if (!r)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, r->status);
	if (r->status != NFS4_OK)
		return e->err;
	xdr_enc_opaque_fixed(e, r->sessionid, NFS4_SESSIONID_SIZE);
	xdr_enc_u32(e, r->sequenceid);
	xdr_enc_u32(e, r->slotid);
	xdr_enc_u32(e, r->highest_slotid);
	return xdr_enc_u32(e, r->target_highest_slotid);
}

int nfs4_dec_cb_sequence_res(struct xdr_dec *d, void *res)
{
	struct nfs4_cb_sequence_res *r = res;

	memset(r, 0, sizeof(*r));
	if (xdr_dec_u32(d, &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (dec_fixed(d, r->sessionid, NFS4_SESSIONID_SIZE) ||
	    xdr_dec_u32(d, &r->sequenceid) || xdr_dec_u32(d, &r->slotid) ||
	    xdr_dec_u32(d, &r->highest_slotid))
		return -EBADMSG;
	return xdr_dec_u32(d, &r->target_highest_slotid);
}

/* ---- CB_RECALL, CB_GETATTR, CB_NOTIFY_LOCK, CB_RECALL_ANY ---- */

/* CB_RECALL4args: stateid, truncate, fh. */
int nfs4_enc_cb_recall_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_cb_recall_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs4_enc_stateid(e, &a->stateid);
	xdr_enc_bool(e, a->truncate);
	return nfs4_enc_fh(e, &a->fh);
}

int nfs4_dec_cb_recall_args(struct xdr_dec *d, void *args)
{
	struct nfs4_cb_recall_args *a = args;

	memset(a, 0, sizeof(*a));
	if (nfs4_dec_stateid(d, &a->stateid) || xdr_dec_bool(d, &a->truncate))
		return -EBADMSG;
	return nfs4_dec_fh(d, &a->fh);
}

/* CB_GETATTR4args: fh, attr_request. */
int nfs4_enc_cb_getattr_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_cb_getattr_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs4_enc_fh(e, &a->fh);
	return nfs4_enc_bitmap(e, &a->request);
}

int nfs4_dec_cb_getattr_args(struct xdr_dec *d, void *args)
{
	struct nfs4_cb_getattr_args *a = args;

	memset(a, 0, sizeof(*a));
	if (nfs4_dec_fh(d, &a->fh))
		return -EBADMSG;
	return nfs4_dec_bitmap(d, &a->request, NULL);
}

/* CB_NOTIFY_LOCK4args: fh, lock_owner. */
int nfs4_enc_cb_notify_lock_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_cb_notify_lock_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs4_enc_fh(e, &a->fh);
	return nfs4_enc_owner(e, &a->lock_owner);
}

int nfs4_dec_cb_notify_lock_args(struct xdr_dec *d, void *args)
{
	struct nfs4_cb_notify_lock_args *a = args;

	memset(a, 0, sizeof(*a));
	if (nfs4_dec_fh(d, &a->fh))
		return -EBADMSG;
	return nfs4_dec_owner(d, &a->lock_owner);
}

/* CB_RECALL_ANY4args: objects_to_keep, type_mask (bitmap4). */
int nfs4_enc_cb_recall_any_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_cb_recall_any_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->objects_to_keep);
	return nfs4_enc_bitmap(e, &a->type_mask);
}

int nfs4_dec_cb_recall_any_args(struct xdr_dec *d, void *args)
{
	struct nfs4_cb_recall_any_args *a = args;

	memset(a, 0, sizeof(*a));
	if (xdr_dec_u32(d, &a->objects_to_keep))
		return -EBADMSG;
	return nfs4_dec_bitmap(d, &a->type_mask, NULL);
}

/* ---- CB_LAYOUTRECALL ---- */

/*
 * CB_LAYOUTRECALL4args: layout type, iomode, changed, layoutrecall4 (the
 * recall type, then FILE a layoutrecall_file4: fh, offset, length,
 * stateid; FSID an fsid4; ALL nothing).
 */
int nfs4_enc_cb_layoutrecall_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_cb_layoutrecall_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->layout_type);
	xdr_enc_u32(e, a->iomode);
	xdr_enc_bool(e, a->changed);
	xdr_enc_u32(e, a->recall_type);
	switch (a->recall_type) {
	case NFS4_LAYOUTRECALL_FILE:
		nfs4_enc_fh(e, &a->fh);
		xdr_enc_u64(e, a->offset);
		xdr_enc_u64(e, a->length);
		return nfs4_enc_stateid(e, &a->stateid);
	case NFS4_LAYOUTRECALL_FSID:
		xdr_enc_u64(e, a->fsid.major);
		return xdr_enc_u64(e, a->fsid.minor);
	case NFS4_LAYOUTRECALL_ALL:
		return e->err;
	}
	return enc_fail(e, -EINVAL);
}

int nfs4_dec_cb_layoutrecall_args(struct xdr_dec *d, void *args)
{
	struct nfs4_cb_layoutrecall_args *a = args;

	memset(a, 0, sizeof(*a));
	if (xdr_dec_u32(d, &a->layout_type) || xdr_dec_u32(d, &a->iomode) ||
	    xdr_dec_bool(d, &a->changed) || xdr_dec_u32(d, &a->recall_type))
		return -EBADMSG;
	switch (a->recall_type) {
	case NFS4_LAYOUTRECALL_FILE:
		if (nfs4_dec_fh(d, &a->fh) || xdr_dec_u64(d, &a->offset) ||
		    xdr_dec_u64(d, &a->length))
			return -EBADMSG;
		return nfs4_dec_stateid(d, &a->stateid);
	case NFS4_LAYOUTRECALL_FSID:
		if (xdr_dec_u64(d, &a->fsid.major))
			return -EBADMSG;
		return xdr_dec_u64(d, &a->fsid.minor);
	case NFS4_LAYOUTRECALL_ALL:
		return 0;
	}
	return -EBADMSG;
}

/* ---- the table ---- */

#define CB(op, name, enc_a, dec_a, args_t, enc_r, dec_r, res_t)             \
	[op] = { op, name, enc_a, dec_a, sizeof(args_t), enc_r, dec_r,       \
		 sizeof(res_t) }

static const struct xdr_proc_codec cb_codecs[] = {
	CB(NFS4CBOP_SEQUENCE, "CB_SEQUENCE", nfs4_enc_cb_sequence_args,
	   nfs4_dec_cb_sequence_args, struct nfs4_cb_sequence_args,
	   nfs4_enc_cb_sequence_res, nfs4_dec_cb_sequence_res,
	   struct nfs4_cb_sequence_res),
	CB(NFS4CBOP_RECALL, "CB_RECALL", nfs4_enc_cb_recall_args,
	   nfs4_dec_cb_recall_args, struct nfs4_cb_recall_args,
	   nfs4_enc_status_res, nfs4_dec_status_res, struct nfs4_status_res),
	CB(NFS4CBOP_GETATTR, "CB_GETATTR", nfs4_enc_cb_getattr_args,
	   nfs4_dec_cb_getattr_args, struct nfs4_cb_getattr_args,
	   nfs4_enc_getattr_res, nfs4_dec_getattr_res,
	   struct nfs4_getattr_res),
	CB(NFS4CBOP_NOTIFY_LOCK, "CB_NOTIFY_LOCK",
	   nfs4_enc_cb_notify_lock_args, nfs4_dec_cb_notify_lock_args,
	   struct nfs4_cb_notify_lock_args, nfs4_enc_status_res,
	   nfs4_dec_status_res, struct nfs4_status_res),
	CB(NFS4CBOP_RECALL_ANY, "CB_RECALL_ANY", nfs4_enc_cb_recall_any_args,
	   nfs4_dec_cb_recall_any_args, struct nfs4_cb_recall_any_args,
	   nfs4_enc_status_res, nfs4_dec_status_res, struct nfs4_status_res),
	CB(NFS4CBOP_LAYOUTRECALL, "CB_LAYOUTRECALL",
	   nfs4_enc_cb_layoutrecall_args, nfs4_dec_cb_layoutrecall_args,
	   struct nfs4_cb_layoutrecall_args, nfs4_enc_status_res,
	   nfs4_dec_status_res, struct nfs4_status_res),
};

const struct xdr_proc_codec *nfs4_cb_op_codec(uint32_t op)
{
	if (op >= sizeof(cb_codecs) / sizeof(cb_codecs[0]) ||
	    !cb_codecs[op].name)
		return NULL;
	return &cb_codecs[op];
}

/* ---- CB_COMPOUND, the client's side ---- */

/* CB_COMPOUND4args: tag, minorversion, callback_ident, argarray. */
int nfs4_cb_dec_compound_args(struct xdr_dec *d,
			      struct nfs4_cb_compound_args *a)
{
	memset(a, 0, sizeof(*a));
	if (nfs4_dec_str(d, NFS4_MAXTAG, &a->tag) ||
	    xdr_dec_u32(d, &a->minorversion) ||
	    xdr_dec_u32(d, &a->callback_ident) || xdr_dec_u32(d, &a->nops) ||
	    a->nops > NFS4_MAXOPS)
		return -EBADMSG;
	a->d = *d;
	return 0;
}

int nfs4_cb_next_op(struct nfs4_cb_compound_args *a, uint32_t *op,
		    union nfs4_cb_args *args)
{
	const struct xdr_proc_codec *pc;

	if (a->next >= a->nops)
		return 0;
	if (xdr_dec_u32(&a->d, op))
		return -EBADMSG;
	a->next++;
	pc = nfs4_cb_op_codec(*op);
	if (!pc)
		return -EOPNOTSUPP;
	return pc->dec_args(&a->d, args) ? -EBADMSG : 1;
}

/* CB_COMPOUND4res: status, tag, resarray. */
int nfs4_cb_reply_start(struct nfs4_cb_reply *r, struct xdr_enc *e,
			const struct nfs4_str *tag)
{
	struct nfs4_str empty = { "", 0 };

	memset(r, 0, sizeof(*r));
	r->e = e;
	r->status_at = e->len;
	xdr_enc_u32(e, NFS4_OK);
	nfs4_enc_str(e, NFS4_MAXTAG, tag ? tag : &empty);
	r->nops_at = e->len;
	return xdr_enc_u32(e, 0);
}

int nfs4_cb_reply_status(struct nfs4_cb_reply *r, uint32_t status)
{
	if (r->e->err)
		return r->e->err;
	xdr_put_u32(r->e->buf + r->status_at, status);
	return 0;
}

static int reply_result(struct nfs4_cb_reply *r, uint32_t op, uint32_t status)
{
	struct xdr_enc *e = r->e;

	if (e->err)
		return e->err;
	if (r->nops >= NFS4_MAXOPS)
		return enc_fail(e, -E2BIG);
	r->nops++;
	xdr_put_u32(e->buf + r->nops_at, r->nops);
	xdr_put_u32(e->buf + r->status_at, status);
	return xdr_enc_u32(e, op);
}

int nfs4_cb_reply_add(struct nfs4_cb_reply *r, uint32_t op, const void *res)
{
	const struct xdr_proc_codec *pc = nfs4_cb_op_codec(op);

	if (!pc || !res)
		return enc_fail(r->e, -EINVAL);
	if (reply_result(r, op, *(const uint32_t *)res))
		return r->e->err;
	return pc->enc_res(r->e, res);
}

int nfs4_cb_reply_unsupported(struct nfs4_cb_reply *r, uint32_t op)
{
	bool known = nfs4_cb_op_name(op) && op != NFS4CBOP_ILLEGAL;
	uint32_t status = known ? NFS4ERR_NOTSUPP : NFS4ERR_OP_ILLEGAL;

	if (reply_result(r, known ? op : NFS4CBOP_ILLEGAL, status))
		return r->e->err;
	return xdr_enc_u32(r->e, status);
}

/* ---- CB_COMPOUND, the server's side ---- */

int nfs4_cb_compound_start(struct nfs4_compound *c, struct xdr_enc *e,
			   const char *tag, uint32_t minorversion,
			   uint32_t callback_ident)
{
	struct nfs4_str t = nfs4_str(tag ? tag : "");

	memset(c, 0, sizeof(*c));
	c->e = e;
	c->cb = true;
	nfs4_enc_str(e, NFS4_MAXTAG, &t);
	xdr_enc_u32(e, minorversion);
	xdr_enc_u32(e, callback_ident);
	c->nops_at = e->len;
	return xdr_enc_u32(e, 0);
}

int nfs4_cb_compound_add(struct nfs4_compound *c, uint32_t op,
			 const void *args)
{
	if (!c->cb)
		return enc_fail(c->e, -EINVAL);
	return nfs4_compound_add(c, op, args);
}

int nfs4_cb_dec_compound_res(struct xdr_dec *d, struct nfs4_compound_res *r)
{
	int ret = nfs4_dec_compound_res(d, r);

	r->cb = true;
	return ret;
}
