/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1/4.2 (RFC 8881, RFC 7862): COMPOUND framing and the reply walk,
 * the names of operations and statuses, and the codecs of the common
 * types.  Operation codecs are in nfs4_ops.c and nfs4_ops_io.c, fattr4 in
 * nfs4_attr.c, the callbacks in nfs4_cb.c.
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

/* ---- names ---- */

const char *const nfs4_op_names[NFS4_OP_NAMES] = {
	[NFS4OP_ACCESS] = "ACCESS",
	[NFS4OP_CLOSE] = "CLOSE",
	[NFS4OP_COMMIT] = "COMMIT",
	[NFS4OP_CREATE] = "CREATE",
	[NFS4OP_DELEGPURGE] = "DELEGPURGE",
	[NFS4OP_DELEGRETURN] = "DELEGRETURN",
	[NFS4OP_GETATTR] = "GETATTR",
	[NFS4OP_GETFH] = "GETFH",
	[NFS4OP_LINK] = "LINK",
	[NFS4OP_LOCK] = "LOCK",
	[NFS4OP_LOCKT] = "LOCKT",
	[NFS4OP_LOCKU] = "LOCKU",
	[NFS4OP_LOOKUP] = "LOOKUP",
	[NFS4OP_LOOKUPP] = "LOOKUPP",
	[NFS4OP_NVERIFY] = "NVERIFY",
	[NFS4OP_OPEN] = "OPEN",
	[NFS4OP_OPENATTR] = "OPENATTR",
	[NFS4OP_OPEN_CONFIRM] = "OPEN_CONFIRM",
	[NFS4OP_OPEN_DOWNGRADE] = "OPEN_DOWNGRADE",
	[NFS4OP_PUTFH] = "PUTFH",
	[NFS4OP_PUTPUBFH] = "PUTPUBFH",
	[NFS4OP_PUTROOTFH] = "PUTROOTFH",
	[NFS4OP_READ] = "READ",
	[NFS4OP_READDIR] = "READDIR",
	[NFS4OP_READLINK] = "READLINK",
	[NFS4OP_REMOVE] = "REMOVE",
	[NFS4OP_RENAME] = "RENAME",
	[NFS4OP_RENEW] = "RENEW",
	[NFS4OP_RESTOREFH] = "RESTOREFH",
	[NFS4OP_SAVEFH] = "SAVEFH",
	[NFS4OP_SECINFO] = "SECINFO",
	[NFS4OP_SETATTR] = "SETATTR",
	[NFS4OP_SETCLIENTID] = "SETCLIENTID",
	[NFS4OP_SETCLIENTID_CONFIRM] = "SETCLIENTID_CONFIRM",
	[NFS4OP_VERIFY] = "VERIFY",
	[NFS4OP_WRITE] = "WRITE",
	[NFS4OP_RELEASE_LOCKOWNER] = "RELEASE_LOCKOWNER",
	[NFS4OP_BACKCHANNEL_CTL] = "BACKCHANNEL_CTL",
	[NFS4OP_BIND_CONN_TO_SESSION] = "BIND_CONN_TO_SESSION",
	[NFS4OP_EXCHANGE_ID] = "EXCHANGE_ID",
	[NFS4OP_CREATE_SESSION] = "CREATE_SESSION",
	[NFS4OP_DESTROY_SESSION] = "DESTROY_SESSION",
	[NFS4OP_FREE_STATEID] = "FREE_STATEID",
	[NFS4OP_GET_DIR_DELEGATION] = "GET_DIR_DELEGATION",
	[NFS4OP_GETDEVICEINFO] = "GETDEVICEINFO",
	[NFS4OP_GETDEVICELIST] = "GETDEVICELIST",
	[NFS4OP_LAYOUTCOMMIT] = "LAYOUTCOMMIT",
	[NFS4OP_LAYOUTGET] = "LAYOUTGET",
	[NFS4OP_LAYOUTRETURN] = "LAYOUTRETURN",
	[NFS4OP_SECINFO_NO_NAME] = "SECINFO_NO_NAME",
	[NFS4OP_SEQUENCE] = "SEQUENCE",
	[NFS4OP_SET_SSV] = "SET_SSV",
	[NFS4OP_TEST_STATEID] = "TEST_STATEID",
	[NFS4OP_WANT_DELEGATION] = "WANT_DELEGATION",
	[NFS4OP_DESTROY_CLIENTID] = "DESTROY_CLIENTID",
	[NFS4OP_RECLAIM_COMPLETE] = "RECLAIM_COMPLETE",
	[NFS4OP_ALLOCATE] = "ALLOCATE",
	[NFS4OP_COPY] = "COPY",
	[NFS4OP_COPY_NOTIFY] = "COPY_NOTIFY",
	[NFS4OP_DEALLOCATE] = "DEALLOCATE",
	[NFS4OP_IO_ADVISE] = "IO_ADVISE",
	[NFS4OP_LAYOUTERROR] = "LAYOUTERROR",
	[NFS4OP_LAYOUTSTATS] = "LAYOUTSTATS",
	[NFS4OP_OFFLOAD_CANCEL] = "OFFLOAD_CANCEL",
	[NFS4OP_OFFLOAD_STATUS] = "OFFLOAD_STATUS",
	[NFS4OP_READ_PLUS] = "READ_PLUS",
	[NFS4OP_SEEK] = "SEEK",
	[NFS4OP_WRITE_SAME] = "WRITE_SAME",
	[NFS4OP_CLONE] = "CLONE",
	[NFS4OP_GETXATTR] = "GETXATTR",
	[NFS4OP_SETXATTR] = "SETXATTR",
	[NFS4OP_LISTXATTRS] = "LISTXATTRS",
	[NFS4OP_REMOVEXATTR] = "REMOVEXATTR",
};

const char *nfs4_op_name(uint32_t op)
{
	if (op == NFS4OP_ILLEGAL)
		return "ILLEGAL";
	if (op < NFS4_OP_NAMES)
		return nfs4_op_names[op];
	return NULL;
}

static const char *const cb_op_names[] = {
	[NFS4CBOP_GETATTR] = "CB_GETATTR",
	[NFS4CBOP_RECALL] = "CB_RECALL",
	[NFS4CBOP_LAYOUTRECALL] = "CB_LAYOUTRECALL",
	[NFS4CBOP_NOTIFY] = "CB_NOTIFY",
	[NFS4CBOP_PUSH_DELEG] = "CB_PUSH_DELEG",
	[NFS4CBOP_RECALL_ANY] = "CB_RECALL_ANY",
	[NFS4CBOP_RECALLABLE_OBJ_AVAIL] = "CB_RECALLABLE_OBJ_AVAIL",
	[NFS4CBOP_RECALL_SLOT] = "CB_RECALL_SLOT",
	[NFS4CBOP_SEQUENCE] = "CB_SEQUENCE",
	[NFS4CBOP_WANTS_CANCELLED] = "CB_WANTS_CANCELLED",
	[NFS4CBOP_NOTIFY_LOCK] = "CB_NOTIFY_LOCK",
	[NFS4CBOP_NOTIFY_DEVICEID] = "CB_NOTIFY_DEVICEID",
	[NFS4CBOP_OFFLOAD] = "CB_OFFLOAD",
};

const char *nfs4_cb_op_name(uint32_t op)
{
	if (op == NFS4CBOP_ILLEGAL)
		return "CB_ILLEGAL";
	if (op < sizeof(cb_op_names) / sizeof(cb_op_names[0]))
		return cb_op_names[op];
	return NULL;
}

#define S(x) case x: return #x
const char *nfs4_stat_name(uint32_t status)
{
	switch (status) {
	S(NFS4_OK); S(NFS4ERR_PERM); S(NFS4ERR_NOENT); S(NFS4ERR_IO);
	S(NFS4ERR_NXIO); S(NFS4ERR_ACCESS); S(NFS4ERR_EXIST); S(NFS4ERR_XDEV);
	S(NFS4ERR_NOTDIR); S(NFS4ERR_ISDIR); S(NFS4ERR_INVAL); S(NFS4ERR_FBIG);
	S(NFS4ERR_NOSPC); S(NFS4ERR_ROFS); S(NFS4ERR_MLINK);
	S(NFS4ERR_NAMETOOLONG); S(NFS4ERR_NOTEMPTY); S(NFS4ERR_DQUOT);
	S(NFS4ERR_STALE); S(NFS4ERR_BADHANDLE); S(NFS4ERR_BAD_COOKIE);
	S(NFS4ERR_NOTSUPP); S(NFS4ERR_TOOSMALL); S(NFS4ERR_SERVERFAULT);
	S(NFS4ERR_BADTYPE); S(NFS4ERR_DELAY); S(NFS4ERR_SAME);
	S(NFS4ERR_DENIED); S(NFS4ERR_EXPIRED); S(NFS4ERR_LOCKED);
	S(NFS4ERR_GRACE); S(NFS4ERR_FHEXPIRED); S(NFS4ERR_SHARE_DENIED);
	S(NFS4ERR_WRONGSEC); S(NFS4ERR_CLID_INUSE); S(NFS4ERR_RESOURCE);
	S(NFS4ERR_MOVED); S(NFS4ERR_NOFILEHANDLE);
	S(NFS4ERR_MINOR_VERS_MISMATCH); S(NFS4ERR_STALE_CLIENTID);
	S(NFS4ERR_STALE_STATEID); S(NFS4ERR_OLD_STATEID);
	S(NFS4ERR_BAD_STATEID); S(NFS4ERR_BAD_SEQID); S(NFS4ERR_NOT_SAME);
	S(NFS4ERR_LOCK_RANGE); S(NFS4ERR_SYMLINK); S(NFS4ERR_RESTOREFH);
	S(NFS4ERR_LEASE_MOVED); S(NFS4ERR_ATTRNOTSUPP); S(NFS4ERR_NO_GRACE);
	S(NFS4ERR_RECLAIM_BAD); S(NFS4ERR_RECLAIM_CONFLICT); S(NFS4ERR_BADXDR);
	S(NFS4ERR_LOCKS_HELD); S(NFS4ERR_OPENMODE); S(NFS4ERR_BADOWNER);
	S(NFS4ERR_BADCHAR); S(NFS4ERR_BADNAME); S(NFS4ERR_BAD_RANGE);
	S(NFS4ERR_LOCK_NOTSUPP); S(NFS4ERR_OP_ILLEGAL); S(NFS4ERR_DEADLOCK);
	S(NFS4ERR_FILE_OPEN); S(NFS4ERR_ADMIN_REVOKED);
	S(NFS4ERR_CB_PATH_DOWN); S(NFS4ERR_BADIOMODE); S(NFS4ERR_BADLAYOUT);
	S(NFS4ERR_BAD_SESSION_DIGEST); S(NFS4ERR_BADSESSION);
	S(NFS4ERR_BADSLOT); S(NFS4ERR_COMPLETE_ALREADY);
	S(NFS4ERR_CONN_NOT_BOUND_TO_SESSION); S(NFS4ERR_DELEG_ALREADY_WANTED);
	S(NFS4ERR_BACK_CHAN_BUSY); S(NFS4ERR_LAYOUTTRYLATER);
	S(NFS4ERR_LAYOUTUNAVAILABLE); S(NFS4ERR_NOMATCHING_LAYOUT);
	S(NFS4ERR_RECALLCONFLICT); S(NFS4ERR_UNKNOWN_LAYOUTTYPE);
	S(NFS4ERR_SEQ_MISORDERED); S(NFS4ERR_SEQUENCE_POS);
	S(NFS4ERR_REQ_TOO_BIG); S(NFS4ERR_REP_TOO_BIG);
	S(NFS4ERR_REP_TOO_BIG_TO_CACHE); S(NFS4ERR_RETRY_UNCACHED_REP);
	S(NFS4ERR_UNSAFE_COMPOUND); S(NFS4ERR_TOO_MANY_OPS);
	S(NFS4ERR_OP_NOT_IN_SESSION); S(NFS4ERR_HASH_ALG_UNSUPP);
	S(NFS4ERR_CLIENTID_BUSY); S(NFS4ERR_PNFS_IO_HOLE);
	S(NFS4ERR_SEQ_FALSE_RETRY); S(NFS4ERR_BAD_HIGH_SLOT);
	S(NFS4ERR_DEADSESSION); S(NFS4ERR_ENCR_ALG_UNSUPP);
	S(NFS4ERR_PNFS_NO_LAYOUT); S(NFS4ERR_NOT_ONLY_OP);
	S(NFS4ERR_WRONG_CRED); S(NFS4ERR_WRONG_TYPE);
	S(NFS4ERR_DIRDELEG_UNAVAIL); S(NFS4ERR_REJECT_DELEG);
	S(NFS4ERR_RETURNCONFLICT); S(NFS4ERR_DELEG_REVOKED);
	S(NFS4ERR_PARTNER_NOTSUPP); S(NFS4ERR_PARTNER_NO_AUTH);
	S(NFS4ERR_UNION_NOTSUPP); S(NFS4ERR_OFFLOAD_DENIED);
	S(NFS4ERR_WRONG_LFS); S(NFS4ERR_BADLABEL); S(NFS4ERR_OFFLOAD_NO_REQS);
	S(NFS4ERR_NOXATTR); S(NFS4ERR_XATTR2BIG);
	}
	return NULL;
}
#undef S

/* ---- common types ---- */

/* stateid4: seqid (uint32), other (12 opaque bytes, no length). */
int nfs4_enc_stateid(struct xdr_enc *e, const struct nfs4_stateid *s)
{
	if (!s)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, s->seqid);
	return xdr_enc_opaque_fixed(e, s->other, NFS4_OTHER_SIZE);
}

int nfs4_dec_stateid(struct xdr_dec *d, struct nfs4_stateid *s)
{
	const uint8_t *p = xdr_dec_inline(d, 4 + NFS4_OTHER_SIZE);

	if (!p)
		return -EBADMSG;
	s->seqid = xdr_get_u32(p);
	memcpy(s->other, p + 4, NFS4_OTHER_SIZE);
	return 0;
}

/* nfs_fh4: opaque of at most 128 bytes. */
int nfs4_enc_fh(struct xdr_enc *e, const struct nfs4_fh *fh)
{
	if (!fh || fh->len > NFS4_FHSIZE)
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque(e, NFS4_FHSIZE, fh->data, fh->len);
}

int nfs4_dec_fh(struct xdr_dec *d, struct nfs4_fh *fh)
{
	const uint8_t *p;
	uint32_t len;
	int ret = xdr_dec_opaque(d, NFS4_FHSIZE, &p, &len);

	if (ret)
		return ret;
	fh->len = len;
	memcpy(fh->data, p, len);
	return 0;
}

/* bitmap4: a counted array of uint32 words, bit n in word n / 32. */
int nfs4_enc_bitmap(struct xdr_enc *e, const struct nfs4_bitmap *b)
{
	uint32_t n = NFS4_BITMAP_WORDS;

	if (!b)
		return enc_fail(e, -EINVAL);
	/* An empty bitmap is one zero word, as other clients send it (and
	 * Wireshark asks for). */
	while (n > 1 && b->w[n - 1] == 0)
		n--;
	xdr_enc_u32(e, n);
	for (uint32_t i = 0; i < n; i++)
		xdr_enc_u32(e, b->w[i]);
	return e->err;
}

int nfs4_dec_bitmap(struct xdr_dec *d, struct nfs4_bitmap *b, bool *beyond)
{
	uint32_t n, w;

	memset(b, 0, sizeof(*b));
	if (beyond)
		*beyond = false;
	if (xdr_dec_u32(d, &n) || n > NFS4_BITMAP_WIRE_MAX)
		return -EBADMSG;
	for (uint32_t i = 0; i < n; i++) {
		if (xdr_dec_u32(d, &w))
			return -EBADMSG;
		if (i < NFS4_BITMAP_WORDS)
			b->w[i] = w;
		else if (w && beyond)
			*beyond = true;
	}
	return 0;
}

/* nfstime4: seconds (int64), nseconds (uint32, below 10^9). */
int nfs4_enc_time(struct xdr_enc *e, const struct nfs4_time *t)
{
	if (!t || t->nseconds >= 1000000000u)
		return enc_fail(e, -EINVAL);
	xdr_enc_i64(e, t->seconds);
	return xdr_enc_u32(e, t->nseconds);
}

int nfs4_dec_time(struct xdr_dec *d, struct nfs4_time *t)
{
	const uint8_t *p = xdr_dec_inline(d, 12);

	if (!p)
		return -EBADMSG;
	t->seconds = (int64_t)xdr_get_u64(p);
	t->nseconds = xdr_get_u32(p + 8);
	return t->nseconds < 1000000000u ? 0 : -EBADMSG;
}

/* utf8 strings and opaques as (pointer, length). */
int nfs4_enc_str(struct xdr_enc *e, uint32_t max, const struct nfs4_str *s)
{
	if (!s || (s->len && !s->s))
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque(e, max, s->s, s->len);
}

int nfs4_dec_str(struct xdr_dec *d, uint32_t max, struct nfs4_str *s)
{
	return xdr_dec_string(d, max, &s->s, &s->len);
}

/* open_owner4, lock_owner4: clientid (uint64), owner (opaque<1024>). */
int nfs4_enc_owner(struct xdr_enc *e, const struct nfs4_owner *o)
{
	if (!o || (o->owner_len && !o->owner))
		return enc_fail(e, -EINVAL);
	xdr_enc_u64(e, o->clientid);
	return xdr_enc_opaque(e, NFS4_OPAQUE_LIMIT, o->owner, o->owner_len);
}

int nfs4_dec_owner(struct xdr_dec *d, struct nfs4_owner *o)
{
	if (xdr_dec_u64(d, &o->clientid))
		return -EBADMSG;
	return xdr_dec_opaque(d, NFS4_OPAQUE_LIMIT, &o->owner, &o->owner_len);
}

/* change_info4: atomic (bool), before, after (changeid4, uint64). */
int nfs4_dec_change_info(struct xdr_dec *d, struct nfs4_change_info *c)
{
	if (xdr_dec_bool(d, &c->atomic) || xdr_dec_u64(d, &c->before))
		return -EBADMSG;
	return xdr_dec_u64(d, &c->after);
}

int nfs4_enc_change_info(struct xdr_enc *e, const struct nfs4_change_info *c)
{
	if (!c)
		return enc_fail(e, -EINVAL);
	xdr_enc_bool(e, c->atomic);
	xdr_enc_u64(e, c->before);
	return xdr_enc_u64(e, c->after);
}

/* ---- COMPOUND ---- */

/*
 * COMPOUND4args: tag (utf8str_cs), minorversion (uint32), argarray (a
 * counted array of nfs_argop4: the operation number, then its arguments).
 */
int nfs4_compound_start(struct nfs4_compound *c, struct xdr_enc *e,
			const char *tag, uint32_t minorversion)
{
	struct nfs4_str t = nfs4_str(tag ? tag : "");

	memset(c, 0, sizeof(*c));
	c->e = e;
	nfs4_enc_str(e, NFS4_MAXTAG, &t);
	xdr_enc_u32(e, minorversion);
	c->nops_at = e->len;
	return xdr_enc_u32(e, 0);
}

int nfs4_compound_add(struct nfs4_compound *c, uint32_t op, const void *args)
{
	const struct xdr_proc_codec *pc =
		c->cb ? nfs4_cb_op_codec(op) : nfs4_op_codec(op);
	struct xdr_enc *e = c->e;

	if (e->err)
		return e->err;
	if (!pc || (pc->enc_args && !args) || (!pc->enc_args && pc->args_size))
		return enc_fail(e, -EINVAL);
	if (c->nops >= NFS4_MAXOPS)
		return enc_fail(e, -E2BIG);
	xdr_enc_u32(e, op);
	if (pc->enc_args)
		pc->enc_args(e, args);
	if (e->err)
		return e->err;
	c->ops[c->nops++] = op;
	xdr_put_u32(e->buf + c->nops_at, c->nops);
	return 0;
}

/*
 * COMPOUND4res (and CB_COMPOUND4res, the same shape): status (nfsstat4),
 * tag, resarray (a counted array of nfs_resop4: the operation number, then
 * its result, which begins with its status).
 */
int nfs4_dec_compound_res(struct xdr_dec *d, struct nfs4_compound_res *r)
{
	memset(r, 0, sizeof(*r));
	if (xdr_dec_u32(d, &r->status) || nfs4_dec_str(d, NFS4_MAXTAG, &r->tag) ||
	    xdr_dec_u32(d, &r->nres) || r->nres > NFS4_MAXOPS)
		return -EBADMSG;
	r->d = *d;
	return 0;
}

int nfs4_compound_next(struct nfs4_compound_res *r, uint32_t op, void *res)
{
	const struct xdr_proc_codec *pc;
	uint32_t resop, status;
	int ret;

	if (r->stopped || r->next >= r->nres)
		return -ENODATA;
	pc = r->cb ? nfs4_cb_op_codec(op) : nfs4_op_codec(op);
	if (!pc || !pc->dec_res || !res)
		return -EINVAL;
	if (xdr_dec_u32(&r->d, &resop))
		return -EBADMSG;
	r->next++;
	if (resop == (r->cb ? (uint32_t)NFS4CBOP_ILLEGAL : (uint32_t)NFS4OP_ILLEGAL)) {
		/* The server did not know our operation: a status alone. */
		if (xdr_dec_u32(&r->d, &status) || status == NFS4_OK)
			return -EBADMSG;
		memset(res, 0, pc->res_size);
		*(uint32_t *)res = status;
	} else {
		if (resop != op)
			return -EBADMSG;
		ret = pc->dec_res(&r->d, res);
		if (ret)
			return ret;
		status = *(const uint32_t *)res;
	}
	if (status != NFS4_OK) {
		r->stopped = true;
		/* The server stops at the first failure. */
		if (r->next < r->nres)
			return -EBADMSG;
	}
	return 0;
}
