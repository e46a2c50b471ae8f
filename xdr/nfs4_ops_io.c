/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 and 4.2 (RFC 8881 section 18, RFC 7862 section 15): the
 * arguments and results of the file operations: access, open and close,
 * I/O, directory changes, READDIR, attributes, locks, stateids, 4.2's
 * SEEK, ALLOCATE, DEALLOCATE and COPY, and RFC 8276's extended
 * attributes.
 *
 * As in nfs4_ops.c: encoders validate (-EINVAL, sticky), decoders zero
 * the result, read the status and the arm it selects, and return -EBADMSG
 * when the reply is malformed.
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

static int dec_status(struct xdr_dec *d, void *res, size_t size,
		      uint32_t *status)
{
	memset(res, 0, size);
	return xdr_dec_u32(d, status) ? -EBADMSG : 0;
}

/* component4: 1..NFS4_MAXNAMLEN bytes. */
static int enc_component(struct xdr_enc *e, const struct nfs4_str *name)
{
	if (!name || name->len == 0 || name->len > NFS4_MAXNAMLEN || !name->s)
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque(e, NFS4_MAXNAMLEN, name->s, name->len);
}

static int dec_component(struct xdr_dec *d, struct nfs4_str *name)
{
	if (nfs4_dec_str(d, NFS4_MAXNAMLEN, name) || name->len == 0)
		return -EBADMSG;
	return 0;
}

/* ---- ACCESS ---- */

/* ACCESS4args: access (uint32). */
int nfs4_enc_access_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_access_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	return xdr_enc_u32(e, a->access);
}

/* ACCESS4resok: supported, access. */
int nfs4_dec_access_res(struct xdr_dec *d, void *res)
{
	struct nfs4_access_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (xdr_dec_u32(d, &r->supported))
		return -EBADMSG;
	return xdr_dec_u32(d, &r->access);
}

/* ---- OPEN ---- */

/*
 * openflag4: opentype; for OPEN4_CREATE a createhow4: the mode, then
 * UNCHECKED4/GUARDED4 a fattr4, EXCLUSIVE4 a verifier4, EXCLUSIVE4_1 a
 * verifier4 and a fattr4.
 */
static int enc_openflag(struct xdr_enc *e, const struct nfs4_open_args *a)
{
	xdr_enc_u32(e, a->opentype);
	if (a->opentype == NFS4_OPEN_NOCREATE)
		return e->err;
	if (a->opentype != NFS4_OPEN_CREATE)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->createmode);
	switch (a->createmode) {
	case NFS4_CREATE_UNCHECKED:
	case NFS4_CREATE_GUARDED:
		return nfs4_enc_fattr(e, &a->createattrs);
	case NFS4_CREATE_EXCLUSIVE:
		return xdr_enc_opaque_fixed(e, a->verifier, NFS4_VERIFIER_SIZE);
	case NFS4_CREATE_EXCLUSIVE4_1:
		xdr_enc_opaque_fixed(e, a->verifier, NFS4_VERIFIER_SIZE);
		return nfs4_enc_fattr(e, &a->createattrs);
	}
	return enc_fail(e, -EINVAL);
}

/*
 * open_claim4: the claim type, then CLAIM_NULL and CLAIM_DELEGATE_PREV a
 * component4, CLAIM_PREVIOUS the delegation type held, CLAIM_DELEGATE_CUR
 * a stateid4 and a component4, CLAIM_DELEG_CUR_FH a stateid4, CLAIM_FH
 * and CLAIM_DELEG_PREV_FH nothing.
 */
static int enc_claim(struct xdr_enc *e, const struct nfs4_open_args *a)
{
	xdr_enc_u32(e, a->claim);
	switch (a->claim) {
	case NFS4_CLAIM_NULL:
	case NFS4_CLAIM_DELEGATE_PREV:
		return enc_component(e, &a->name);
	case NFS4_CLAIM_PREVIOUS:
		return xdr_enc_u32(e, a->delegate_type);
	case NFS4_CLAIM_DELEGATE_CUR:
		nfs4_enc_stateid(e, &a->delegate_stateid);
		return enc_component(e, &a->name);
	case NFS4_CLAIM_FH:
	case NFS4_CLAIM_DELEG_PREV_FH:
		return e->err;
	case NFS4_CLAIM_DELEG_CUR_FH:
		return nfs4_enc_stateid(e, &a->delegate_stateid);
	}
	return enc_fail(e, -EINVAL);
}

/* OPEN4args: seqid, share_access, share_deny, open_owner4, openflag4,
 * open_claim4. */
int nfs4_enc_open_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_open_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->seqid);
	xdr_enc_u32(e, a->share_access);
	xdr_enc_u32(e, a->share_deny);
	nfs4_enc_owner(e, &a->owner);
	enc_openflag(e, a);
	return enc_claim(e, a);
}

/*
 * open_delegation4: the type, then READ an open_read_delegation4
 * (stateid4, recall, nfsace4 permissions), WRITE an
 * open_write_delegation4 (stateid4, recall, nfs_space_limit4, nfsace4),
 * NONE_EXT a why_no_delegation4 (the reason, and for CONTENTION and
 * RESOURCE a bool).
 */
static int dec_delegation(struct xdr_dec *d, struct nfs4_open_delegation *g)
{
	if (xdr_dec_u32(d, &g->type))
		return -EBADMSG;
	switch (g->type) {
	case NFS4_OPEN_DELEGATE_NONE:
		return 0;
	case NFS4_OPEN_DELEGATE_READ:
		if (nfs4_dec_stateid(d, &g->stateid) ||
		    xdr_dec_bool(d, &g->recall))
			return -EBADMSG;
		return nfs4_dec_ace(d, &g->permissions);
	case NFS4_OPEN_DELEGATE_WRITE:
		if (nfs4_dec_stateid(d, &g->stateid) ||
		    xdr_dec_bool(d, &g->recall) || xdr_dec_u32(d, &g->limitby))
			return -EBADMSG;
		if (g->limitby == NFS4_LIMIT_SIZE) {
			if (xdr_dec_u64(d, &g->filesize))
				return -EBADMSG;
		} else if (g->limitby == NFS4_LIMIT_BLOCKS) {
			if (xdr_dec_u32(d, &g->num_blocks) ||
			    xdr_dec_u32(d, &g->bytes_per_block))
				return -EBADMSG;
		} else {
			return -EBADMSG;
		}
		return nfs4_dec_ace(d, &g->permissions);
	case NFS4_OPEN_DELEGATE_NONE_EXT:
		if (xdr_dec_u32(d, &g->why_none))
			return -EBADMSG;
		if (g->why_none == NFS4_WND_CONTENTION ||
		    g->why_none == NFS4_WND_RESOURCE)
			return xdr_dec_bool(d, &g->will_push_or_signal);
		return 0;
	}
	return -EBADMSG;
}

static int enc_delegation(struct xdr_enc *e, const struct nfs4_open_delegation *g)
{
	xdr_enc_u32(e, g->type);
	switch (g->type) {
	case NFS4_OPEN_DELEGATE_NONE:
		return e->err;
	case NFS4_OPEN_DELEGATE_READ:
		nfs4_enc_stateid(e, &g->stateid);
		xdr_enc_bool(e, g->recall);
		return nfs4_enc_ace(e, &g->permissions);
	case NFS4_OPEN_DELEGATE_WRITE:
		nfs4_enc_stateid(e, &g->stateid);
		xdr_enc_bool(e, g->recall);
		xdr_enc_u32(e, g->limitby);
		if (g->limitby == NFS4_LIMIT_SIZE) {
			xdr_enc_u64(e, g->filesize);
		} else if (g->limitby == NFS4_LIMIT_BLOCKS) {
			xdr_enc_u32(e, g->num_blocks);
			xdr_enc_u32(e, g->bytes_per_block);
		} else {
			return enc_fail(e, -EINVAL);
		}
		return nfs4_enc_ace(e, &g->permissions);
	case NFS4_OPEN_DELEGATE_NONE_EXT:
		xdr_enc_u32(e, g->why_none);
		if (g->why_none == NFS4_WND_CONTENTION ||
		    g->why_none == NFS4_WND_RESOURCE)
			xdr_enc_bool(e, g->will_push_or_signal);
		return e->err;
	}
	return enc_fail(e, -EINVAL);
}

/* OPEN4resok: stateid4, change_info4, rflags, attrset (bitmap4),
 * open_delegation4. */
int nfs4_dec_open_res(struct xdr_dec *d, void *res)
{
	struct nfs4_open_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (nfs4_dec_stateid(d, &r->stateid) ||
	    nfs4_dec_change_info(d, &r->cinfo) || xdr_dec_u32(d, &r->rflags) ||
	    nfs4_dec_bitmap(d, &r->attrset, NULL))
		return -EBADMSG;
	return dec_delegation(d, &r->delegation);
}

int nfs4_enc_open_res(struct xdr_enc *e, const void *res)
{
	const struct nfs4_open_res *r = res;

	if (!r)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, r->status);
	if (r->status != NFS4_OK)
		return e->err;
	nfs4_enc_stateid(e, &r->stateid);
	nfs4_enc_change_info(e, &r->cinfo);
	xdr_enc_u32(e, r->rflags);
	nfs4_enc_bitmap(e, &r->attrset);
	return enc_delegation(e, &r->delegation);
}

/* OPEN_DOWNGRADE4args: open_stateid, seqid, share_access, share_deny. */
int nfs4_enc_open_downgrade_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_open_downgrade_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs4_enc_stateid(e, &a->stateid);
	xdr_enc_u32(e, a->seqid);
	xdr_enc_u32(e, a->share_access);
	return xdr_enc_u32(e, a->share_deny);
}

/* OPEN_DOWNGRADE4resok, CLOSE4res, LOCKU4res: a stateid4 on success. */
int nfs4_dec_stateid_res(struct xdr_dec *d, void *res)
{
	struct nfs4_stateid_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	return nfs4_dec_stateid(d, &r->stateid);
}

/* CLOSE4args: seqid, open_stateid. */
int nfs4_enc_close_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_close_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->seqid);
	return nfs4_enc_stateid(e, &a->stateid);
}

/* ---- I/O ---- */

/* READ4args: stateid, offset, count. */
int nfs4_enc_read_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_read_args *a = args;

	if (!a || a->count > NFS4_MAXDATA)
		return enc_fail(e, -EINVAL);
	nfs4_enc_stateid(e, &a->stateid);
	xdr_enc_u64(e, a->offset);
	return xdr_enc_u32(e, a->count);
}

/* READ4resok: eof (bool), data (opaque<>). */
int nfs4_dec_read_res(struct xdr_dec *d, void *res)
{
	struct nfs4_read_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (xdr_dec_bool(d, &r->eof))
		return -EBADMSG;
	return xdr_dec_opaque(d, NFS4_MAXDATA, &r->data, &r->data_len);
}

/* WRITE4args: stateid, offset, stable, data (opaque<>). */
int nfs4_enc_write_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_write_args *a = args;

	if (!a || a->data_len > NFS4_MAXDATA || (a->data_len && !a->data) ||
	    a->stable > NFS4_FILE_SYNC)
		return enc_fail(e, -EINVAL);
	nfs4_enc_stateid(e, &a->stateid);
	xdr_enc_u64(e, a->offset);
	xdr_enc_u32(e, a->stable);
	return xdr_enc_opaque(e, NFS4_MAXDATA, a->data, a->data_len);
}

/* WRITE4resok: count, committed, writeverf. */
int nfs4_dec_write_res(struct xdr_dec *d, void *res)
{
	struct nfs4_write_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (xdr_dec_u32(d, &r->count) || xdr_dec_u32(d, &r->committed) ||
	    r->committed > NFS4_FILE_SYNC)
		return -EBADMSG;
	return dec_fixed(d, r->verifier, NFS4_VERIFIER_SIZE);
}

/* COMMIT4args: offset, count. */
int nfs4_enc_commit_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_commit_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	xdr_enc_u64(e, a->offset);
	return xdr_enc_u32(e, a->count);
}

/* COMMIT4resok: writeverf. */
int nfs4_dec_commit_res(struct xdr_dec *d, void *res)
{
	struct nfs4_commit_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	return dec_fixed(d, r->verifier, NFS4_VERIFIER_SIZE);
}

/* ---- directory changes ---- */

/*
 * CREATE4args: createtype4 (the type, then NF4LNK a linktext4, NF4BLK and
 * NF4CHR a specdata4, others nothing), objname, createattrs (fattr4).
 */
int nfs4_enc_create_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_create_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->type);
	switch (a->type) {
	case NF4LNK:
		if (a->linkdata.len == 0 || a->linkdata.len > NFS4_MAXPATHLEN)
			return enc_fail(e, -EINVAL);
		nfs4_enc_str(e, NFS4_MAXPATHLEN, &a->linkdata);
		break;
	case NF4BLK:
	case NF4CHR:
		xdr_enc_u32(e, a->devdata.specdata1);
		xdr_enc_u32(e, a->devdata.specdata2);
		break;
	case NF4SOCK:
	case NF4FIFO:
	case NF4DIR:
		break;
	default:
		return enc_fail(e, -EINVAL);
	}
	enc_component(e, &a->name);
	return nfs4_enc_fattr(e, &a->attrs);
}

/* CREATE4resok: change_info4, attrset (bitmap4). */
int nfs4_dec_create_res(struct xdr_dec *d, void *res)
{
	struct nfs4_create_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (nfs4_dec_change_info(d, &r->cinfo))
		return -EBADMSG;
	return nfs4_dec_bitmap(d, &r->attrset, NULL);
}

/* REMOVE4args: target (component4). */
int nfs4_enc_remove_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_remove_args *a = args;

	return enc_component(e, a ? &a->name : NULL);
}

/* REMOVE4resok, LINK4resok: change_info4. */
int nfs4_dec_cinfo_res(struct xdr_dec *d, void *res)
{
	struct nfs4_cinfo_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	return nfs4_dec_change_info(d, &r->cinfo);
}

/* RENAME4args: oldname, newname (component4). */
int nfs4_enc_rename_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_rename_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	enc_component(e, &a->oldname);
	return enc_component(e, &a->newname);
}

/* RENAME4resok: source_cinfo, target_cinfo. */
int nfs4_dec_rename_res(struct xdr_dec *d, void *res)
{
	struct nfs4_rename_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (nfs4_dec_change_info(d, &r->source))
		return -EBADMSG;
	return nfs4_dec_change_info(d, &r->target);
}

/* LINK4args: newname (component4). */
int nfs4_enc_link_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_link_args *a = args;

	return enc_component(e, a ? &a->newname : NULL);
}

/* READLINK4resok: link (linktext4). */
int nfs4_dec_readlink_res(struct xdr_dec *d, void *res)
{
	struct nfs4_readlink_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	return nfs4_dec_str(d, NFS4_MAXPATHLEN, &r->link);
}

/* ---- READDIR ---- */

/* READDIR4args: cookie, cookieverf, dircount, maxcount, attr_request. */
int nfs4_enc_readdir_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_readdir_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	xdr_enc_u64(e, a->cookie);
	xdr_enc_opaque_fixed(e, a->cookieverf, NFS4_VERIFIER_SIZE);
	xdr_enc_u32(e, a->dircount);
	xdr_enc_u32(e, a->maxcount);
	return nfs4_enc_bitmap(e, &a->request);
}

/* entry4 after its value_follows: cookie, name (component4), attrs. */
static int dec_entry(struct xdr_dec *d, struct nfs4_entry *e)
{
	if (xdr_dec_u64(d, &e->cookie) || dec_component(d, &e->name))
		return -EBADMSG;
	return nfs4_dec_fattr(d, &e->attrs);
}

int nfs4_readdir_next(struct xdr_dec *it, struct nfs4_entry *e)
{
	bool follows;

	if (xdr_dec_bool(it, &follows))
		return -EBADMSG;
	if (!follows)
		return 0;
	return dec_entry(it, e) ? -EBADMSG : 1;
}

/*
 * READDIR4resok: cookieverf, dirlist4 (entries as an XDR optional chain:
 * value_follows, entry4, ...; then eof).
 */
int nfs4_dec_readdir_res(struct xdr_dec *d, void *res)
{
	struct nfs4_readdir_res *r = res;
	struct nfs4_entry scratch;
	int ret;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (dec_fixed(d, r->cookieverf, NFS4_VERIFIER_SIZE))
		return -EBADMSG;
	r->entries = *d;
	/* Each entry takes at least 24 bytes: the walk ends. */
	while ((ret = nfs4_readdir_next(d, &scratch)) == 1)
		r->nentries++;
	if (ret)
		return -EBADMSG;
	return xdr_dec_bool(d, &r->eof);
}

/* ---- attributes ---- */

/* SETATTR4args: stateid, obj_attributes (fattr4). */
int nfs4_enc_setattr_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_setattr_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs4_enc_stateid(e, &a->stateid);
	return nfs4_enc_fattr(e, &a->attrs);
}

/* SETATTR4res: status, attrsset (bitmap4) whatever the status. */
int nfs4_dec_setattr_res(struct xdr_dec *d, void *res)
{
	struct nfs4_setattr_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	return nfs4_dec_bitmap(d, &r->attrsset, NULL);
}

/* VERIFY4args, NVERIFY4args: obj_attributes (fattr4). */
int nfs4_enc_verify_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_verify_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	return nfs4_enc_fattr(e, &a->attrs);
}

/* ---- locks ---- */

/* LOCK4denied: offset, length, locktype, owner (lock_owner4). */
static int dec_denied(struct xdr_dec *d, struct nfs4_lock_denied *l)
{
	if (xdr_dec_u64(d, &l->offset) || xdr_dec_u64(d, &l->length) ||
	    xdr_dec_u32(d, &l->locktype))
		return -EBADMSG;
	return nfs4_dec_owner(d, &l->owner);
}

static bool locktype_ok(uint32_t t)
{
	return t >= NFS4_READ_LT && t <= NFS4_WRITEW_LT;
}

/* A range the server takes: not empty, and either to the end of the file
 * (all ones) or ending within 64 bits (RFC 8881 18.10.3: else INVAL). */
static bool range_ok(uint64_t offset, uint64_t length)
{
	return length != 0 &&
	       (length == UINT64_MAX || length <= UINT64_MAX - offset);
}

/*
 * LOCK4args: locktype, reclaim, offset, length, locker4 (new_lock_owner,
 * then open_to_lock_owner4: open_seqid, open_stateid, lock_seqid,
 * lock_owner4; or exist_lock_owner4: lock_stateid, lock_seqid).
 */
int nfs4_enc_lock_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_lock_args *a = args;

	if (!a || !locktype_ok(a->locktype) || !range_ok(a->offset, a->length))
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->locktype);
	xdr_enc_bool(e, a->reclaim);
	xdr_enc_u64(e, a->offset);
	xdr_enc_u64(e, a->length);
	xdr_enc_bool(e, a->new_lock_owner);
	if (a->new_lock_owner) {
		xdr_enc_u32(e, a->open_seqid);
		nfs4_enc_stateid(e, &a->open_stateid);
		xdr_enc_u32(e, a->lock_seqid);
		return nfs4_enc_owner(e, &a->lock_owner);
	}
	nfs4_enc_stateid(e, &a->lock_stateid);
	return xdr_enc_u32(e, a->lock_seqid);
}

/* LOCK4res: NFS4_OK a lock stateid, NFS4ERR_DENIED a LOCK4denied. */
int nfs4_dec_lock_res(struct xdr_dec *d, void *res)
{
	struct nfs4_lock_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status == NFS4_OK)
		return nfs4_dec_stateid(d, &r->stateid);
	if (r->status == NFS4ERR_DENIED)
		return dec_denied(d, &r->denied);
	return 0;
}

/* LOCKT4args: locktype, offset, length, owner (lock_owner4). */
int nfs4_enc_lockt_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_lockt_args *a = args;

	if (!a || !locktype_ok(a->locktype) || !range_ok(a->offset, a->length))
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->locktype);
	xdr_enc_u64(e, a->offset);
	xdr_enc_u64(e, a->length);
	return nfs4_enc_owner(e, &a->owner);
}

/* LOCKT4res: NFS4ERR_DENIED a LOCK4denied, otherwise nothing. */
int nfs4_dec_lockt_res(struct xdr_dec *d, void *res)
{
	struct nfs4_lockt_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status == NFS4ERR_DENIED)
		return dec_denied(d, &r->denied);
	return 0;
}

/* LOCKU4args: locktype, seqid, lock_stateid, offset, length. */
int nfs4_enc_locku_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_locku_args *a = args;

	if (!a || !locktype_ok(a->locktype) || !range_ok(a->offset, a->length))
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->locktype);
	xdr_enc_u32(e, a->seqid);
	nfs4_enc_stateid(e, &a->stateid);
	xdr_enc_u64(e, a->offset);
	return xdr_enc_u64(e, a->length);
}

/* ---- stateids ---- */

/* DELEGRETURN4args, FREE_STATEID4args: a stateid4. */
int nfs4_enc_stateid_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_stateid_args *a = args;

	return nfs4_enc_stateid(e, a ? &a->stateid : NULL);
}

/* TEST_STATEID4args: stateids (stateid4<>). */
int nfs4_enc_test_stateid_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_test_stateid_args *a = args;

	if (!a || a->count == 0 || a->count > NFS4_MAXSTATEIDS || !a->stateids)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->count);
	for (uint32_t i = 0; i < a->count; i++)
		nfs4_enc_stateid(e, &a->stateids[i]);
	return e->err;
}

/* TEST_STATEID4resok: status_codes (nfsstat4<>). */
int nfs4_dec_test_stateid_res(struct xdr_dec *d, void *res)
{
	struct nfs4_test_stateid_res *r = res;
	const uint8_t *p;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (xdr_dec_u32(d, &r->count) || r->count > NFS4_MAXSTATEIDS)
		return -EBADMSG;
	p = xdr_dec_inline(d, (size_t)r->count * 4);
	if (!p)
		return -EBADMSG;
	xdr_dec_init(&r->codes, p, (size_t)r->count * 4);
	return 0;
}

/* ---- 4.2 ---- */

/* SEEK4args: stateid, offset, what (data_content4). */
int nfs4_enc_seek_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_seek_args *a = args;

	if (!a || a->what > NFS4_CONTENT_HOLE)
		return enc_fail(e, -EINVAL);
	nfs4_enc_stateid(e, &a->stateid);
	xdr_enc_u64(e, a->offset);
	return xdr_enc_u32(e, a->what);
}

/* SEEK4resok: eof, offset. */
int nfs4_dec_seek_res(struct xdr_dec *d, void *res)
{
	struct nfs4_seek_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (xdr_dec_bool(d, &r->eof))
		return -EBADMSG;
	return xdr_dec_u64(d, &r->offset);
}

/* ALLOCATE4args, DEALLOCATE4args: stateid, offset, length. */
int nfs4_enc_allocate_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_allocate_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs4_enc_stateid(e, &a->stateid);
	xdr_enc_u64(e, a->offset);
	return xdr_enc_u64(e, a->length);
}

/*
 * COPY4args: src_stateid, dst_stateid, src_offset, dst_offset, count,
 * consecutive, synchronous, source_server (netloc4<>: none, the copy is
 * within one server).
 */
int nfs4_enc_copy_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_copy_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs4_enc_stateid(e, &a->src_stateid);
	nfs4_enc_stateid(e, &a->dst_stateid);
	xdr_enc_u64(e, a->src_offset);
	xdr_enc_u64(e, a->dst_offset);
	xdr_enc_u64(e, a->count);
	xdr_enc_bool(e, a->consecutive);
	xdr_enc_bool(e, a->synchronous);
	return xdr_enc_u32(e, 0);
}

/* copy_requirements4: consecutive, synchronous. */
static int dec_copy_reqs(struct xdr_dec *d, struct nfs4_copy_res *r)
{
	if (xdr_dec_bool(d, &r->consecutive))
		return -EBADMSG;
	return xdr_dec_bool(d, &r->synchronous);
}

/*
 * COPY4res: NFS4_OK a COPY4resok (write_response4: callback_id
 * (stateid4<1>), count, committed, writeverf; then copy_requirements4),
 * NFS4ERR_OFFLOAD_NO_REQS a copy_requirements4, otherwise nothing.
 */
int nfs4_dec_copy_res(struct xdr_dec *d, void *res)
{
	struct nfs4_copy_res *r = res;
	uint32_t n;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status == NFS4ERR_OFFLOAD_NO_REQS)
		return dec_copy_reqs(d, r);
	if (r->status != NFS4_OK)
		return 0;
	if (xdr_dec_u32(d, &n) || n > 1)
		return -EBADMSG;
	r->has_callback_id = n == 1;
	if (n && nfs4_dec_stateid(d, &r->callback_id))
		return -EBADMSG;
	if (xdr_dec_u64(d, &r->count) || xdr_dec_u32(d, &r->committed) ||
	    r->committed > NFS4_FILE_SYNC ||
	    dec_fixed(d, r->verifier, NFS4_VERIFIER_SIZE))
		return -EBADMSG;
	return dec_copy_reqs(d, r);
}

/* ---- extended attributes (RFC 8276) ---- */

/* GETXATTR4args: name (xattrkey4, a component4). */
int nfs4_enc_getxattr_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_getxattr_args *a = args;

	return enc_component(e, a ? &a->name : NULL);
}

/* GETXATTR4resok: value (xattrvalue4, opaque<>). */
int nfs4_dec_getxattr_res(struct xdr_dec *d, void *res)
{
	struct nfs4_getxattr_res *r = res;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (xdr_dec_opaque(d, NFS4_XATTR_VALUE_MAX, &r->value, &r->len))
		return -EBADMSG;
	return 0;
}

/* SETXATTR4args: option (setxattr_option4), key, value. */
int nfs4_enc_setxattr_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_setxattr_args *a = args;

	if (!a || a->option > NFS4_SETXATTR_REPLACE ||
	    a->len > NFS4_XATTR_VALUE_MAX || (a->len && !a->value))
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, a->option);
	enc_component(e, &a->name);
	return xdr_enc_opaque(e, NFS4_XATTR_VALUE_MAX, a->value, a->len);
}

/* REMOVEXATTR4args: key. */
int nfs4_enc_removexattr_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_removexattr_args *a = args;

	return enc_component(e, a ? &a->name : NULL);
}

/* LISTXATTRS4args: cookie, maxcount (of the names' bytes). */
int nfs4_enc_listxattrs_args(struct xdr_enc *e, const void *args)
{
	const struct nfs4_listxattrs_args *a = args;

	if (!a || a->maxcount == 0)
		return enc_fail(e, -EINVAL);
	xdr_enc_u64(e, a->cookie);
	return xdr_enc_u32(e, a->maxcount);
}

/*
 * LISTXATTRS4resok: cookie, names (xattrkey4<>), eof.  Every name is
 * checked here (a component4), so that the walk of them cannot fail.
 */
int nfs4_dec_listxattrs_res(struct xdr_dec *d, void *res)
{
	struct nfs4_listxattrs_res *r = res;
	const uint8_t *start;
	struct nfs4_str name;
	size_t at;

	if (dec_status(d, r, sizeof(*r), &r->status))
		return -EBADMSG;
	if (r->status != NFS4_OK)
		return 0;
	if (xdr_dec_u64(d, &r->cookie) || xdr_dec_u32(d, &r->count))
		return -EBADMSG;
	/* Each name takes 8 bytes at least: no count past what is left. */
	if (r->count > xdr_dec_left(d) / 8)
		return -EBADMSG;
	at = xdr_dec_left(d);
	start = d->p;
	for (uint32_t i = 0; i < r->count; i++)
		if (dec_component(d, &name))
			return -EBADMSG;
	xdr_dec_init(&r->names, start, at - xdr_dec_left(d));
	return xdr_dec_bool(d, &r->eof) ? -EBADMSG : 0;
}

int nfs4_listxattrs_next(struct nfs4_listxattrs_res *r, struct nfs4_str *name)
{
	if (xdr_dec_left(&r->names) == 0)
		return -ENODATA;
	return dec_component(&r->names, name);
}
