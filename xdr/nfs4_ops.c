/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 (RFC 8881 section 18): the arguments and results of the
 * operations that set up and use a session and walk the namespace, and
 * the table of every operation's codecs.  The file operations are in
 * nfs4_ops_io.c.
 *
 * Encoders validate what they are given (-EINVAL, sticky in the encoder);
 * decoders zero the result, read the status and, on NFS4_OK, the rest, and
 * return -EBADMSG when it is malformed.
 */
#include "nfs4.h"

#include <errno.h>
#include <string.h>

#include "rpc_msg.h"

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

/* An opaque (not a string: NUL bytes allowed) into the buffer. */
static int dec_opaque_str(struct xdr_dec *d, uint32_t max, struct nfs4_str *s)
{
	const uint8_t *p;
	int ret = xdr_dec_opaque(d, max, &p, &s->len);

	if (ret == 0)
		s->s = (const char *)p;
	return ret;
}

/* A component4: a name of 1..NFS4_MAXNAMLEN bytes. */
static int enc_component(struct xdr_enc *e, const struct nfs4_str *name)
{
	if (!name || name->len == 0 || name->len > NFS4_MAXNAMLEN || !name->s)
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque(e, NFS4_MAXNAMLEN, name->s, name->len);
}

/* The status every result begins with; the result zeroed first. */
static int dec_status(struct xdr_dec *d, void *res, size_t size,
		      uint32_t *status)
{
	memset(res, 0, size);
	if (xdr_dec_u32(d, status))
		return -EBADMSG;
	return 0;
}

/* ---- results that are a status alone ---- */

int nfs4_enc_status_res(struct xdr_enc *e, const void *res)
{
	const struct nfs4_status_res *r = res;

	if (!r)
		return enc_fail(e, -EINVAL);
	return xdr_enc_u32(e, r->status);
}

int nfs4_dec_status_res(struct xdr_dec *d, void *res)
{
	struct nfs4_status_res *r = res;

	return dec_status(d, r, sizeof(*r), &r->status);
}

/* ---- EXCHANGE_ID ---- */

/* nfs_impl_id4: domain (utf8str_cis), name (utf8str_cs), date (nfstime4);
 * sent as an optional (array of at most one). */
static int enc_impl_id(struct xdr_enc *e, bool has, const struct nfs4_impl_id *id)
{
	xdr_enc_u32(e, has ? 1 : 0);
	if (!has)
		return e->err;
	nfs4_enc_str(e, NFS4_MAXSTR, &id->domain);
	nfs4_enc_str(e, NFS4_MAXSTR, &id->name);
	return nfs4_enc_time(e, &id->date);
}

static int dec_impl_id(struct xdr_dec *d, bool *has, struct nfs4_impl_id *id)
{
	uint32_t n;

	if (xdr_dec_u32(d, &n) || n > 1)
		return -EBADMSG;
	*has = n == 1;
	if (!*has)
		return 0;
	if (nfs4_dec_str(d, NFS4_MAXSTR, &id->domain) ||
	    nfs4_dec_str(d, NFS4_MAXSTR, &id->name))
		return -EBADMSG;
	return nfs4_dec_time(d, &id->date);
}

/*
 * EXCHANGE_ID4args: client_owner4 (verifier4, opaque ownerid<1024>),
 * flags, state_protect4_a (SP4_NONE here: the discriminant alone),
 * client_impl_id<1>.
 */
int nfs4_enc_exchange_id_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_exchange_id_args *a = args;

	if (!a || !a->ownerid || a->ownerid_len == 0 ||
	    a->ownerid_len > NFS4_OPAQUE_LIMIT)
		return enc_fail(e, -EINVAL);
	xdr_enc_opaque_fixed(e, a->verifier, NFS4_VERIFIER_SIZE);
	xdr_enc_opaque(e, NFS4_OPAQUE_LIMIT, a->ownerid, a->ownerid_len);
	xdr_enc_u32(e, a->flags);
	xdr_enc_u32(e, NFS4_SP4_NONE);
	return enc_impl_id(e, a->has_impl_id, &a->impl_id);
}

/* state_protect_ops4: must_enforce and must_allow, two bitmaps. */
static int skip_sp_ops(struct xdr_dec *d)
{
	struct nfs4_bitmap b;

	if (nfs4_dec_bitmap(d, &b, NULL))
		return -EBADMSG;
	return nfs4_dec_bitmap(d, &b, NULL);
}

/*
 * state_protect4_r: SP4_NONE void; SP4_MACH_CRED state_protect_ops4;
 * SP4_SSV ssv_prot_info4 (state_protect_ops4, hash_alg, encr_alg, ssv_len,
 * window, gsshandle4_t handles<>).  Only the kind is kept: this client
 * asks for SP4_NONE.
 */
static int dec_state_protect_r(struct xdr_dec *d, uint32_t *how)
{
	uint32_t v, n;
	const uint8_t *p;

	if (xdr_dec_u32(d, how))
		return -EBADMSG;
	switch (*how) {
	case NFS4_SP4_NONE:
		return 0;
	case NFS4_SP4_MACH_CRED:
		return skip_sp_ops(d);
	case NFS4_SP4_SSV:
		if (skip_sp_ops(d))
			return -EBADMSG;
		for (int i = 0; i < 4; i++)
			if (xdr_dec_u32(d, &v))
				return -EBADMSG;
		if (xdr_dec_u32(d, &n) || n > NFS4_MAXOPS)
			return -EBADMSG;
		for (uint32_t i = 0; i < n; i++)
			if (xdr_dec_opaque(d, NFS4_OPAQUE_LIMIT, &p, &v))
				return -EBADMSG;
		return 0;
	}
	return -EBADMSG;
}

/*
 * EXCHANGE_ID4resok: clientid (uint64), sequenceid, flags,
 * state_protect4_r, server_owner4 (minor_id uint64, major_id
 * opaque<1024>), server_scope opaque<1024>, server_impl_id<1>.
 */
int nfs4_dec_exchange_id_res(struct xdr_dec *d, void *res)
{
	struct nfs4_exchange_id_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (xdr_dec_u64(d, &r->clientid) || xdr_dec_u32(d, &r->sequenceid) ||
	    xdr_dec_u32(d, &r->flags) ||
	    dec_state_protect_r(d, &r->state_protect) ||
	    xdr_dec_u64(d, &r->server_minor_id) ||
	    dec_opaque_str(d, NFS4_OPAQUE_LIMIT, &r->server_major_id) ||
	    dec_opaque_str(d, NFS4_OPAQUE_LIMIT, &r->server_scope))
		return -EBADMSG;
	return dec_impl_id(d, &r->has_impl_id, &r->impl_id);
}

/* ---- CREATE_SESSION ---- */

/* channel_attrs4: six uint32 then rdma_ird<1>. */
static int enc_channel_attrs(struct xdr_enc *e, const struct nfs4_channel_attrs *c)
{
	xdr_enc_u32(e, c->headerpadsize);
	xdr_enc_u32(e, c->maxrequestsize);
	xdr_enc_u32(e, c->maxresponsesize);
	xdr_enc_u32(e, c->maxresponsesize_cached);
	xdr_enc_u32(e, c->maxoperations);
	xdr_enc_u32(e, c->maxrequests);
	xdr_enc_u32(e, c->has_rdma_ird ? 1 : 0);
	if (c->has_rdma_ird)
		xdr_enc_u32(e, c->rdma_ird);
	return e->err;
}

static int dec_channel_attrs(struct xdr_dec *d, struct nfs4_channel_attrs *c)
{
	const uint8_t *p = xdr_dec_inline(d, 28);
	uint32_t n;

	if (!p)
		return -EBADMSG;
	c->headerpadsize = xdr_get_u32(p);
	c->maxrequestsize = xdr_get_u32(p + 4);
	c->maxresponsesize = xdr_get_u32(p + 8);
	c->maxresponsesize_cached = xdr_get_u32(p + 12);
	c->maxoperations = xdr_get_u32(p + 16);
	c->maxrequests = xdr_get_u32(p + 20);
	n = xdr_get_u32(p + 24);
	if (n > 1)
		return -EBADMSG;
	c->has_rdma_ird = n == 1;
	return n ? xdr_dec_u32(d, &c->rdma_ird) : 0;
}

/*
 * callback_sec_parms4: the flavor, then for AUTH_SYS an authsys_parms
 * (stamp, machinename<255>, uid, gid, gids<16>: none sent here).
 */
static int enc_cb_sec(struct xdr_enc *e, const struct nfs4_cb_sec *s)
{
	xdr_enc_u32(e, s->flavor);
	switch (s->flavor) {
	case RPC_AUTH_NONE:
		return e->err;
	case RPC_AUTH_SYS:
		xdr_enc_u32(e, s->stamp);
		xdr_enc_string(e, RPC_AUTH_SYS_MAXNAME,
			       s->machinename ? s->machinename : "");
		xdr_enc_u32(e, s->uid);
		xdr_enc_u32(e, s->gid);
		return xdr_enc_u32(e, 0);
	}
	return enc_fail(e, -EINVAL);
}

/*
 * CREATE_SESSION4args: clientid, sequenceid, flags, fore and back
 * channel_attrs4, cb_program, callback_sec_parms4 sec_parms<>.
 */
int nfs4_enc_create_session_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_create_session_args *a = args;

	if (!a || a->nsec > 2)
		return enc_fail(e, -EINVAL);
	xdr_enc_u64(e, a->clientid);
	xdr_enc_u32(e, a->sequenceid);
	xdr_enc_u32(e, a->flags);
	enc_channel_attrs(e, &a->fore);
	enc_channel_attrs(e, &a->back);
	xdr_enc_u32(e, a->cb_program);
	xdr_enc_u32(e, a->nsec);
	for (uint32_t i = 0; i < a->nsec; i++)
		enc_cb_sec(e, &a->sec[i]);
	return e->err;
}

/* CREATE_SESSION4resok: sessionid (16 bytes), sequenceid, flags, fore and
 * back channel_attrs4. */
int nfs4_dec_create_session_res(struct xdr_dec *d, void *res)
{
	struct nfs4_create_session_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (dec_fixed(d, r->sessionid, NFS4_SESSIONID_SIZE) ||
	    xdr_dec_u32(d, &r->sequenceid) || xdr_dec_u32(d, &r->flags) ||
	    dec_channel_attrs(d, &r->fore))
		return -EBADMSG;
	return dec_channel_attrs(d, &r->back);
}

/* ---- SEQUENCE ---- */

/* SEQUENCE4args: sessionid, sequenceid, slotid, highest_slotid, cachethis. */
int nfs4_enc_sequence_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_sequence_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	xdr_enc_opaque_fixed(e, a->sessionid, NFS4_SESSIONID_SIZE);
	xdr_enc_u32(e, a->sequenceid);
	xdr_enc_u32(e, a->slotid);
	xdr_enc_u32(e, a->highest_slotid);
	return xdr_enc_bool(e, a->cachethis);
}

int nfs4_dec_sequence_args(struct xdr_dec *d, void *args)
{
	struct nfs4_sequence_args *a = args;

	memset(a, 0, sizeof(*a));
	if (dec_fixed(d, a->sessionid, NFS4_SESSIONID_SIZE) ||
	    xdr_dec_u32(d, &a->sequenceid) || xdr_dec_u32(d, &a->slotid) ||
	    xdr_dec_u32(d, &a->highest_slotid))
		return -EBADMSG;
	return xdr_dec_bool(d, &a->cachethis);
}

/* SEQUENCE4resok: sessionid, sequenceid, slotid, highest_slotid,
 * target_highest_slotid, status_flags. */
int nfs4_enc_sequence_res(struct xdr_enc *e, const void *res)
{
	const struct nfs4_sequence_res *r = res;

	if (!r)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, r->status);
	if (r->status != NFS4_OK)
		return e->err;
	xdr_enc_opaque_fixed(e, r->sessionid, NFS4_SESSIONID_SIZE);
	xdr_enc_u32(e, r->sequenceid);
	xdr_enc_u32(e, r->slotid);
	xdr_enc_u32(e, r->highest_slotid);
	xdr_enc_u32(e, r->target_highest_slotid);
	return xdr_enc_u32(e, r->status_flags);
}

int nfs4_dec_sequence_res(struct xdr_dec *d, void *res)
{
	struct nfs4_sequence_res *r = res;
	const uint8_t *p;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	p = xdr_dec_inline(d, NFS4_SESSIONID_SIZE + 20);
	if (!p)
		return -EBADMSG;
	memcpy(r->sessionid, p, NFS4_SESSIONID_SIZE);
	p += NFS4_SESSIONID_SIZE;
	r->sequenceid = xdr_get_u32(p);
	r->slotid = xdr_get_u32(p + 4);
	r->highest_slotid = xdr_get_u32(p + 8);
	r->target_highest_slotid = xdr_get_u32(p + 12);
	r->status_flags = xdr_get_u32(p + 16);
	return 0;
}

/* ---- session and client id teardown, reclaim, connection binding ---- */

/* DESTROY_SESSION4args: sessionid. */
int nfs4_enc_destroy_session_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_destroy_session_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque_fixed(e, a->sessionid, NFS4_SESSIONID_SIZE);
}

/* DESTROY_CLIENTID4args: clientid. */
int nfs4_enc_destroy_clientid_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_destroy_clientid_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	return xdr_enc_u64(e, a->clientid);
}

/* RECLAIM_COMPLETE4args: one_fs (bool). */
int nfs4_enc_reclaim_complete_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_reclaim_complete_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	return xdr_enc_bool(e, a->one_fs);
}

/* BIND_CONN_TO_SESSION4args: sessionid, dir, use_conn_in_rdma_mode. */
int nfs4_enc_bind_conn_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_bind_conn_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	xdr_enc_opaque_fixed(e, a->sessionid, NFS4_SESSIONID_SIZE);
	xdr_enc_u32(e, a->dir);
	return xdr_enc_bool(e, a->use_rdma);
}

int nfs4_dec_bind_conn_res(struct xdr_dec *d, void *res)
{
	struct nfs4_bind_conn_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (dec_fixed(d, r->sessionid, NFS4_SESSIONID_SIZE) ||
	    xdr_dec_u32(d, &r->dir))
		return -EBADMSG;
	return xdr_dec_bool(d, &r->use_rdma);
}

/* ---- filehandles and names ---- */

/* PUTFH4args: object (nfs_fh4). */
int nfs4_enc_putfh_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_putfh_args *a = args;

	if (!a || a->fh.len == 0)
		return enc_fail(e, -EINVAL);
	return nfs4_enc_fh(e, &a->fh);
}

/* GETFH4resok: object (nfs_fh4). */
int nfs4_dec_getfh_res(struct xdr_dec *d, void *res)
{
	struct nfs4_getfh_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	return nfs4_dec_fh(d, &r->fh);
}

/* LOOKUP4args: objname (component4). */
int nfs4_enc_lookup_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_lookup_args *a = args;

	return enc_component(e, a ? &a->name : NULL);
}

/* GETATTR4args: attr_request (bitmap4). */
int nfs4_enc_getattr_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_getattr_args *a = args;

	return nfs4_enc_bitmap(e, a ? &a->request : NULL);
}

/* GETATTR4resok: obj_attributes (fattr4). */
int nfs4_dec_getattr_res(struct xdr_dec *d, void *res)
{
	struct nfs4_getattr_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	return nfs4_dec_fattr(d, &r->attrs);
}

int nfs4_enc_getattr_res(struct xdr_enc *e, const void *res)
{
	const struct nfs4_getattr_res *r = res;

	if (!r)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, r->status);
	if (r->status != NFS4_OK)
		return e->err;
	return nfs4_enc_fattr(e, &r->attrs);
}

/* SECINFO_NO_NAME4args: secinfo_style4. */
int nfs4_enc_secinfo_no_name_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_secinfo_no_name_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	return xdr_enc_u32(e, a->style);
}

#define RPCSEC_GSS_FLAVOR 6u

/*
 * SECINFO4resok: secinfo4<>, each the flavor and, for RPCSEC_GSS, an
 * rpcsec_gss_info (oid opaque<>, qop, service).  Flavors past
 * NFS4_MAXSECINFO are read and dropped.
 */
int nfs4_dec_secinfo_res(struct xdr_dec *d, void *res)
{
	struct nfs4_secinfo_res *r = res;
	struct nfs4_secinfo s;
	uint32_t n;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (xdr_dec_u32(d, &n) || n > NFS4_MAXOPS)
		return -EBADMSG;
	for (uint32_t i = 0; i < n; i++) {
		memset(&s, 0, sizeof(s));
		if (xdr_dec_u32(d, &s.flavor))
			return -EBADMSG;
		if (s.flavor == RPCSEC_GSS_FLAVOR &&
		    (dec_opaque_str(d, NFS4_OPAQUE_LIMIT, &s.oid) ||
		     xdr_dec_u32(d, &s.qop) || xdr_dec_u32(d, &s.service)))
			return -EBADMSG;
		if (r->count < NFS4_MAXSECINFO)
			r->flavors[r->count++] = s;
	}
	return 0;
}

/* ---- the table ---- */

#define OP(op, name, enc, dec, args_t, res_t)                               \
	[op] = { op, name, enc, NULL, sizeof(args_t), NULL, dec, sizeof(res_t) }
#define OP_VOID(op, name, dec, res_t)                                        \
	[op] = { op, name, NULL, NULL, 0, NULL, dec, sizeof(res_t) }

static const struct xdr_proc_codec op_codecs[] = {
	OP(NFS4OP_EXCHANGE_ID, "EXCHANGE_ID", nfs4_enc_exchange_id_args,
	   nfs4_dec_exchange_id_res, struct nfs4_exchange_id_args,
	   struct nfs4_exchange_id_res),
	OP(NFS4OP_CREATE_SESSION, "CREATE_SESSION",
	   nfs4_enc_create_session_args, nfs4_dec_create_session_res,
	   struct nfs4_create_session_args, struct nfs4_create_session_res),
	[NFS4OP_SEQUENCE] = { NFS4OP_SEQUENCE, "SEQUENCE",
		nfs4_enc_sequence_args, nfs4_dec_sequence_args,
		sizeof(struct nfs4_sequence_args), nfs4_enc_sequence_res,
		nfs4_dec_sequence_res, sizeof(struct nfs4_sequence_res) },
	OP(NFS4OP_DESTROY_SESSION, "DESTROY_SESSION",
	   nfs4_enc_destroy_session_args, nfs4_dec_status_res,
	   struct nfs4_destroy_session_args, struct nfs4_status_res),
	OP(NFS4OP_DESTROY_CLIENTID, "DESTROY_CLIENTID",
	   nfs4_enc_destroy_clientid_args, nfs4_dec_status_res,
	   struct nfs4_destroy_clientid_args, struct nfs4_status_res),
	OP(NFS4OP_RECLAIM_COMPLETE, "RECLAIM_COMPLETE",
	   nfs4_enc_reclaim_complete_args, nfs4_dec_status_res,
	   struct nfs4_reclaim_complete_args, struct nfs4_status_res),
	OP(NFS4OP_BIND_CONN_TO_SESSION, "BIND_CONN_TO_SESSION",
	   nfs4_enc_bind_conn_args, nfs4_dec_bind_conn_res,
	   struct nfs4_bind_conn_args, struct nfs4_bind_conn_res),
	OP_VOID(NFS4OP_PUTROOTFH, "PUTROOTFH", nfs4_dec_status_res,
		struct nfs4_status_res),
	OP(NFS4OP_PUTFH, "PUTFH", nfs4_enc_putfh_args, nfs4_dec_status_res,
	   struct nfs4_putfh_args, struct nfs4_status_res),
	OP_VOID(NFS4OP_GETFH, "GETFH", nfs4_dec_getfh_res,
		struct nfs4_getfh_res),
	OP(NFS4OP_LOOKUP, "LOOKUP", nfs4_enc_lookup_args, nfs4_dec_status_res,
	   struct nfs4_lookup_args, struct nfs4_status_res),
	OP_VOID(NFS4OP_LOOKUPP, "LOOKUPP", nfs4_dec_status_res,
		struct nfs4_status_res),
	[NFS4OP_GETATTR] = { NFS4OP_GETATTR, "GETATTR",
		nfs4_enc_getattr_args, NULL, sizeof(struct nfs4_getattr_args),
		nfs4_enc_getattr_res, nfs4_dec_getattr_res,
		sizeof(struct nfs4_getattr_res) },
	OP(NFS4OP_SECINFO_NO_NAME, "SECINFO_NO_NAME",
	   nfs4_enc_secinfo_no_name_args, nfs4_dec_secinfo_res,
	   struct nfs4_secinfo_no_name_args, struct nfs4_secinfo_res),
	OP(NFS4OP_ACCESS, "ACCESS", nfs4_enc_access_args, nfs4_dec_access_res,
	   struct nfs4_access_args, struct nfs4_access_res),
	[NFS4OP_OPEN] = { NFS4OP_OPEN, "OPEN", nfs4_enc_open_args, NULL,
		sizeof(struct nfs4_open_args), nfs4_enc_open_res,
		nfs4_dec_open_res, sizeof(struct nfs4_open_res) },
	OP(NFS4OP_OPEN_DOWNGRADE, "OPEN_DOWNGRADE",
	   nfs4_enc_open_downgrade_args, nfs4_dec_stateid_res,
	   struct nfs4_open_downgrade_args, struct nfs4_stateid_res),
	OP(NFS4OP_CLOSE, "CLOSE", nfs4_enc_close_args, nfs4_dec_stateid_res,
	   struct nfs4_close_args, struct nfs4_stateid_res),
	OP(NFS4OP_READ, "READ", nfs4_enc_read_args, nfs4_dec_read_res,
	   struct nfs4_read_args, struct nfs4_read_res),
	OP(NFS4OP_WRITE, "WRITE", nfs4_enc_write_args, nfs4_dec_write_res,
	   struct nfs4_write_args, struct nfs4_write_res),
	OP(NFS4OP_COMMIT, "COMMIT", nfs4_enc_commit_args, nfs4_dec_commit_res,
	   struct nfs4_commit_args, struct nfs4_commit_res),
	OP(NFS4OP_CREATE, "CREATE", nfs4_enc_create_args, nfs4_dec_create_res,
	   struct nfs4_create_args, struct nfs4_create_res),
	OP(NFS4OP_REMOVE, "REMOVE", nfs4_enc_remove_args, nfs4_dec_cinfo_res,
	   struct nfs4_remove_args, struct nfs4_cinfo_res),
	OP(NFS4OP_RENAME, "RENAME", nfs4_enc_rename_args, nfs4_dec_rename_res,
	   struct nfs4_rename_args, struct nfs4_rename_res),
	OP(NFS4OP_LINK, "LINK", nfs4_enc_link_args, nfs4_dec_cinfo_res,
	   struct nfs4_link_args, struct nfs4_cinfo_res),
	OP_VOID(NFS4OP_READLINK, "READLINK", nfs4_dec_readlink_res,
		struct nfs4_readlink_res),
	OP(NFS4OP_READDIR, "READDIR", nfs4_enc_readdir_args,
	   nfs4_dec_readdir_res, struct nfs4_readdir_args,
	   struct nfs4_readdir_res),
	OP(NFS4OP_SETATTR, "SETATTR", nfs4_enc_setattr_args,
	   nfs4_dec_setattr_res, struct nfs4_setattr_args,
	   struct nfs4_setattr_res),
	OP_VOID(NFS4OP_SAVEFH, "SAVEFH", nfs4_dec_status_res,
		struct nfs4_status_res),
	OP_VOID(NFS4OP_RESTOREFH, "RESTOREFH", nfs4_dec_status_res,
		struct nfs4_status_res),
	OP(NFS4OP_VERIFY, "VERIFY", nfs4_enc_verify_args, nfs4_dec_status_res,
	   struct nfs4_verify_args, struct nfs4_status_res),
	OP(NFS4OP_NVERIFY, "NVERIFY", nfs4_enc_verify_args,
	   nfs4_dec_status_res, struct nfs4_verify_args,
	   struct nfs4_status_res),
	OP(NFS4OP_LOCK, "LOCK", nfs4_enc_lock_args, nfs4_dec_lock_res,
	   struct nfs4_lock_args, struct nfs4_lock_res),
	OP(NFS4OP_LOCKT, "LOCKT", nfs4_enc_lockt_args, nfs4_dec_lockt_res,
	   struct nfs4_lockt_args, struct nfs4_lockt_res),
	OP(NFS4OP_LOCKU, "LOCKU", nfs4_enc_locku_args, nfs4_dec_stateid_res,
	   struct nfs4_locku_args, struct nfs4_stateid_res),
	OP(NFS4OP_DELEGRETURN, "DELEGRETURN", nfs4_enc_stateid_args,
	   nfs4_dec_status_res, struct nfs4_stateid_args,
	   struct nfs4_status_res),
	OP(NFS4OP_FREE_STATEID, "FREE_STATEID", nfs4_enc_stateid_args,
	   nfs4_dec_status_res, struct nfs4_stateid_args,
	   struct nfs4_status_res),
	OP(NFS4OP_TEST_STATEID, "TEST_STATEID", nfs4_enc_test_stateid_args,
	   nfs4_dec_test_stateid_res, struct nfs4_test_stateid_args,
	   struct nfs4_test_stateid_res),
	OP(NFS4OP_SEEK, "SEEK", nfs4_enc_seek_args, nfs4_dec_seek_res,
	   struct nfs4_seek_args, struct nfs4_seek_res),
	OP(NFS4OP_ALLOCATE, "ALLOCATE", nfs4_enc_allocate_args,
	   nfs4_dec_status_res, struct nfs4_allocate_args,
	   struct nfs4_status_res),
	OP(NFS4OP_DEALLOCATE, "DEALLOCATE", nfs4_enc_allocate_args,
	   nfs4_dec_status_res, struct nfs4_allocate_args,
	   struct nfs4_status_res),
	OP(NFS4OP_COPY, "COPY", nfs4_enc_copy_args, nfs4_dec_copy_res,
	   struct nfs4_copy_args, struct nfs4_copy_res),
	OP(NFS4OP_GETXATTR, "GETXATTR", nfs4_enc_getxattr_args,
	   nfs4_dec_getxattr_res, struct nfs4_getxattr_args,
	   struct nfs4_getxattr_res),
	OP(NFS4OP_SETXATTR, "SETXATTR", nfs4_enc_setxattr_args,
	   nfs4_dec_cinfo_res, struct nfs4_setxattr_args,
	   struct nfs4_cinfo_res),
	OP(NFS4OP_LISTXATTRS, "LISTXATTRS", nfs4_enc_listxattrs_args,
	   nfs4_dec_listxattrs_res, struct nfs4_listxattrs_args,
	   struct nfs4_listxattrs_res),
	OP(NFS4OP_REMOVEXATTR, "REMOVEXATTR", nfs4_enc_removexattr_args,
	   nfs4_dec_cinfo_res, struct nfs4_removexattr_args,
	   struct nfs4_cinfo_res),
};

const struct xdr_proc_codec *nfs4_op_codec(uint32_t op)
{
	if (op >= sizeof(op_codecs) / sizeof(op_codecs[0]) ||
	    !op_codecs[op].name)
		return NULL;
	return &op_codecs[op];
}
