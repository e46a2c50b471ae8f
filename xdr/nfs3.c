/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFS version 3 (RFC 1813): the argument encoders and result decoders of
 * each procedure.  The shared data types are in nfs3_types.c.
 *
 * Encoders validate what they are given (-EINVAL, sticky in the encoder);
 * decoders return -EBADMSG when the reply is malformed and leave the NFS
 * status to the caller.  Every result struct is zeroed first, so a field
 * that the decoded arm does not carry reads as 0/false.
 */
#include "nfs3.h"

#include <errno.h>
#include <string.h>

static int enc_fail(struct xdr_enc *e, int err)
{
	if (!e->err)
		e->err = err;
	return e->err;
}

/* A path (symlink target) of at most NFS3_MAXPATHLEN bytes. */
static int enc_nfspath3(struct xdr_enc *e, const char *path)
{
	size_t len;

	if (!path)
		return enc_fail(e, -EINVAL);
	len = strnlen(path, NFS3_MAXPATHLEN + 1);
	if (len > NFS3_MAXPATHLEN)
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque(e, NFS3_MAXPATHLEN, path, len);
}

static int dec_fixed(struct xdr_dec *d, uint8_t *dst, size_t n)
{
	const uint8_t *p;
	int ret = xdr_dec_opaque_fixed(d, n, &p);

	if (ret == 0)
		memcpy(dst, p, n);
	return ret;
}

/* The nfsstat3 and the post_op_attr that both arms begin with. */
static int dec_status_attr(struct xdr_dec *d, uint32_t *status,
			   struct post_op_attr *a)
{
	int ret = xdr_dec_u32(d, status);

	return ret ? ret : nfs3_dec_post_op_attr(d, a);
}

/* The nfsstat3 and the wcc_data that both arms begin with. */
static int dec_status_wcc(struct xdr_dec *d, uint32_t *status,
			  struct wcc_data *w)
{
	int ret = xdr_dec_u32(d, status);

	return ret ? ret : nfs3_dec_wcc_data(d, w);
}

/* ---- argument encoders ---- */

/*
 *	struct GETATTR3args {
 *		nfs_fh3  object;
 *	};
 * FSSTAT3args, FSINFO3args and PATHCONF3args are the same single handle.
 */
int nfs3_enc_getattr_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_getattr_args *a = args;

	return nfs3_enc_fh3(e, a ? &a->object : NULL);
}

/*
 *	union sattrguard3 switch (bool check) {
 *	case TRUE:
 *		nfstime3  obj_ctime;
 *	case FALSE:
 *		void;
 *	};
 *
 *	struct SETATTR3args {
 *		nfs_fh3      object;
 *		sattr3       new_attributes;
 *		sattrguard3  guard;
 *	};
 */
int nfs3_enc_setattr_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_setattr_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_fh3(e, &a->object);
	nfs3_enc_sattr3(e, &a->new_attributes);
	xdr_enc_bool(e, a->guard_check);
	if (a->guard_check)
		nfs3_enc_nfstime3(e, &a->guard_ctime);
	return e->err;
}

/*
 *	struct LOOKUP3args {
 *		diropargs3  what;
 *	};
 */
int nfs3_enc_lookup_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_lookup_args *a = args;

	return nfs3_enc_diropargs3(e, a ? &a->what : NULL);
}

/*
 *	struct ACCESS3args {
 *		nfs_fh3  object;
 *		uint32   access;
 *	};
 */
int nfs3_enc_access_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_access_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_fh3(e, &a->object);
	return xdr_enc_u32(e, a->access);
}

/*
 *	struct READLINK3args {
 *		nfs_fh3  symlink;
 *	};
 */
int nfs3_enc_readlink_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_readlink_args *a = args;

	return nfs3_enc_fh3(e, a ? &a->symlink : NULL);
}

/*
 *	struct READ3args {
 *		nfs_fh3  file;
 *		offset3  offset;
 *		count3   count;
 *	};
 *
 * A count over NFS3_MAXDATA would ask for a reply we refuse to decode.
 */
int nfs3_enc_read_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_read_args *a = args;

	if (!a || a->count > NFS3_MAXDATA)
		return enc_fail(e, -EINVAL);
	nfs3_enc_fh3(e, &a->file);
	xdr_enc_u64(e, a->offset);
	return xdr_enc_u32(e, a->count);
}

/*
 *	struct WRITE3args {
 *		nfs_fh3     file;
 *		offset3     offset;
 *		count3      count;
 *		stable_how  stable;
 *		opaque      data<>;
 *	};
 */
int nfs3_enc_write_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_write_args *a = args;

	if (!a || a->count > NFS3_MAXDATA || a->stable > FILE_SYNC ||
	    (a->count && !a->data))
		return enc_fail(e, -EINVAL);
	nfs3_enc_fh3(e, &a->file);
	xdr_enc_u64(e, a->offset);
	xdr_enc_u32(e, a->count);
	xdr_enc_u32(e, a->stable);
	return xdr_enc_opaque(e, NFS3_MAXDATA, a->data, a->count);
}

/*
 *	union createhow3 switch (createmode3 mode) {
 *	case UNCHECKED:
 *	case GUARDED:
 *		sattr3       obj_attributes;
 *	case EXCLUSIVE:
 *		createverf3  verf;
 *	};
 *
 *	struct CREATE3args {
 *		diropargs3  where;
 *		createhow3  how;
 *	};
 */
int nfs3_enc_create_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_create_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_diropargs3(e, &a->where);
	switch (a->mode) {
	case UNCHECKED:
	case GUARDED:
		xdr_enc_u32(e, a->mode);
		return nfs3_enc_sattr3(e, &a->obj_attributes);
	case EXCLUSIVE:
		xdr_enc_u32(e, a->mode);
		return xdr_enc_opaque_fixed(e, a->verf, NFS3_CREATEVERFSIZE);
	}
	return enc_fail(e, -EINVAL);
}

/*
 *	struct MKDIR3args {
 *		diropargs3  where;
 *		sattr3      attributes;
 *	};
 */
int nfs3_enc_mkdir_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_mkdir_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_diropargs3(e, &a->where);
	return nfs3_enc_sattr3(e, &a->attributes);
}

/*
 *	struct symlinkdata3 {
 *		sattr3    symlink_attributes;
 *		nfspath3  symlink_data;
 *	};
 *
 *	struct SYMLINK3args {
 *		diropargs3    where;
 *		symlinkdata3  symlink;
 *	};
 */
int nfs3_enc_symlink_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_symlink_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_diropargs3(e, &a->where);
	nfs3_enc_sattr3(e, &a->symlink_attributes);
	return enc_nfspath3(e, a->symlink_data);
}

/*
 *	struct devicedata3 {
 *		sattr3     dev_attributes;
 *		specdata3  spec;
 *	};
 *
 *	union mknoddata3 switch (ftype3 type) {
 *	case NF3CHR:
 *	case NF3BLK:
 *		devicedata3  device;
 *	case NF3SOCK:
 *	case NF3FIFO:
 *		sattr3       pipe_attributes;
 *	default:
 *		void;
 *	};
 *
 *	struct MKNOD3args {
 *		diropargs3  where;
 *		mknoddata3  what;
 *	};
 *
 * NF3REG, NF3DIR and NF3LNK take the void arm (the server answers
 * NFS3ERR_BADTYPE); a value that is not an ftype3 is refused.
 */
int nfs3_enc_mknod_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_mknod_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_diropargs3(e, &a->where);
	switch (a->type) {
	case NF3CHR:
	case NF3BLK:
		xdr_enc_u32(e, a->type);
		nfs3_enc_sattr3(e, &a->attributes);
		xdr_enc_u32(e, a->spec.specdata1);
		return xdr_enc_u32(e, a->spec.specdata2);
	case NF3SOCK:
	case NF3FIFO:
		xdr_enc_u32(e, a->type);
		return nfs3_enc_sattr3(e, &a->attributes);
	case NF3REG:
	case NF3DIR:
	case NF3LNK:
		return xdr_enc_u32(e, a->type);
	}
	return enc_fail(e, -EINVAL);
}

/*
 *	struct REMOVE3args {
 *		diropargs3  object;
 *	};
 * RMDIR3args is the same.
 */
int nfs3_enc_remove_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_remove_args *a = args;

	return nfs3_enc_diropargs3(e, a ? &a->object : NULL);
}

/*
 *	struct RENAME3args {
 *		diropargs3  from;
 *		diropargs3  to;
 *	};
 */
int nfs3_enc_rename_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_rename_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_diropargs3(e, &a->from);
	return nfs3_enc_diropargs3(e, &a->to);
}

/*
 *	struct LINK3args {
 *		nfs_fh3     file;
 *		diropargs3  link;
 *	};
 */
int nfs3_enc_link_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_link_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_fh3(e, &a->file);
	return nfs3_enc_diropargs3(e, &a->link);
}

/*
 *	struct READDIR3args {
 *		nfs_fh3      dir;
 *		cookie3      cookie;
 *		cookieverf3  cookieverf;
 *		count3       count;
 *	};
 */
int nfs3_enc_readdir_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_readdir_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_fh3(e, &a->dir);
	xdr_enc_u64(e, a->cookie);
	xdr_enc_opaque_fixed(e, a->cookieverf, NFS3_COOKIEVERFSIZE);
	return xdr_enc_u32(e, a->count);
}

/*
 *	struct READDIRPLUS3args {
 *		nfs_fh3      dir;
 *		cookie3      cookie;
 *		cookieverf3  cookieverf;
 *		count3       dircount;
 *		count3       maxcount;
 *	};
 */
int nfs3_enc_readdirplus_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_readdirplus_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_fh3(e, &a->dir);
	xdr_enc_u64(e, a->cookie);
	xdr_enc_opaque_fixed(e, a->cookieverf, NFS3_COOKIEVERFSIZE);
	xdr_enc_u32(e, a->dircount);
	return xdr_enc_u32(e, a->maxcount);
}

/*
 *	struct FSSTAT3args {
 *		nfs_fh3  fsroot;
 *	};
 */
int nfs3_enc_fsstat_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_fsstat_args *a = args;

	return nfs3_enc_fh3(e, a ? &a->fsroot : NULL);
}

/*
 *	struct FSINFO3args {
 *		nfs_fh3  fsroot;
 *	};
 */
int nfs3_enc_fsinfo_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_fsinfo_args *a = args;

	return nfs3_enc_fh3(e, a ? &a->fsroot : NULL);
}

/*
 *	struct PATHCONF3args {
 *		nfs_fh3  object;
 *	};
 */
int nfs3_enc_pathconf_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_pathconf_args *a = args;

	return nfs3_enc_fh3(e, a ? &a->object : NULL);
}

/*
 *	struct COMMIT3args {
 *		nfs_fh3  file;
 *		offset3  offset;
 *		count3   count;
 *	};
 */
int nfs3_enc_commit_args(struct xdr_enc *e, const void *args)
{
	const struct nfs3_commit_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs3_enc_fh3(e, &a->file);
	xdr_enc_u64(e, a->offset);
	return xdr_enc_u32(e, a->count);
}

/* ---- result decoders ---- */

/*
 *	union GETATTR3res switch (nfsstat3 status) {
 *	case NFS3_OK:
 *		GETATTR3resok  resok;    (fattr3 obj_attributes)
 *	default:
 *		void;
 *	};
 */
int nfs3_dec_getattr_res(struct xdr_dec *d, void *res)
{
	struct nfs3_getattr_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = xdr_dec_u32(d, &r->status);
	if (ret || r->status != NFS3_OK)
		return ret;
	return nfs3_dec_fattr3(d, &r->obj_attributes);
}

/*
 *	union SETATTR3res switch (nfsstat3 status) {
 *	case NFS3_OK:
 *		SETATTR3resok   resok;   (wcc_data obj_wcc)
 *	default:
 *		SETATTR3resfail resfail; (wcc_data obj_wcc)
 *	};
 */
int nfs3_dec_setattr_res(struct xdr_dec *d, void *res)
{
	struct nfs3_setattr_res *r = res;

	memset(r, 0, sizeof(*r));
	return dec_status_wcc(d, &r->status, &r->obj_wcc);
}

/*
 *	struct LOOKUP3resok {
 *		nfs_fh3       object;
 *		post_op_attr  obj_attributes;
 *		post_op_attr  dir_attributes;
 *	};
 *	struct LOOKUP3resfail {
 *		post_op_attr  dir_attributes;
 *	};
 */
int nfs3_dec_lookup_res(struct xdr_dec *d, void *res)
{
	struct nfs3_lookup_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = xdr_dec_u32(d, &r->status);
	if (ret)
		return ret;
	if (r->status == NFS3_OK) {
		ret = nfs3_dec_fh3(d, &r->object);
		if (ret)
			return ret;
		ret = nfs3_dec_post_op_attr(d, &r->obj_attributes);
		if (ret)
			return ret;
	}
	return nfs3_dec_post_op_attr(d, &r->dir_attributes);
}

/*
 *	struct ACCESS3resok {
 *		post_op_attr  obj_attributes;
 *		uint32        access;
 *	};
 *	struct ACCESS3resfail {
 *		post_op_attr  obj_attributes;
 *	};
 */
int nfs3_dec_access_res(struct xdr_dec *d, void *res)
{
	struct nfs3_access_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_attr(d, &r->status, &r->obj_attributes);
	if (ret || r->status != NFS3_OK)
		return ret;
	return xdr_dec_u32(d, &r->access);
}

/*
 *	struct READLINK3resok {
 *		post_op_attr  symlink_attributes;
 *		nfspath3      data;
 *	};
 *	struct READLINK3resfail {
 *		post_op_attr  symlink_attributes;
 *	};
 */
int nfs3_dec_readlink_res(struct xdr_dec *d, void *res)
{
	struct nfs3_readlink_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_attr(d, &r->status, &r->symlink_attributes);
	if (ret || r->status != NFS3_OK)
		return ret;
	return xdr_dec_string(d, NFS3_MAXPATHLEN, &r->data, &r->len);
}

/*
 *	struct READ3resok {
 *		post_op_attr  file_attributes;
 *		count3        count;
 *		bool          eof;
 *		opaque        data<>;
 *	};
 *	struct READ3resfail {
 *		post_op_attr  file_attributes;
 *	};
 *
 * count and the opaque's length should agree; both are kept and the caller
 * compares.  A length over NFS3_MAXDATA is malformed.
 */
int nfs3_dec_read_res(struct xdr_dec *d, void *res)
{
	struct nfs3_read_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_attr(d, &r->status, &r->file_attributes);
	if (ret || r->status != NFS3_OK)
		return ret;
	ret = xdr_dec_u32(d, &r->count);
	if (ret)
		return ret;
	ret = xdr_dec_bool(d, &r->eof);
	if (ret)
		return ret;
	return xdr_dec_opaque(d, NFS3_MAXDATA, &r->data, &r->data_len);
}

/*
 *	struct WRITE3resok {
 *		wcc_data    file_wcc;
 *		count3      count;
 *		stable_how  committed;
 *		writeverf3  verf;
 *	};
 *	struct WRITE3resfail {
 *		wcc_data    file_wcc;
 *	};
 *
 * A committed value that is not a stable_how is malformed: the caller
 * could not tell whether the data must be committed.
 */
int nfs3_dec_write_res(struct xdr_dec *d, void *res)
{
	struct nfs3_write_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_wcc(d, &r->status, &r->file_wcc);
	if (ret || r->status != NFS3_OK)
		return ret;
	ret = xdr_dec_u32(d, &r->count);
	if (ret)
		return ret;
	ret = xdr_dec_u32(d, &r->committed);
	if (ret)
		return ret;
	if (r->committed > FILE_SYNC)
		return -EBADMSG;
	return dec_fixed(d, r->verf, NFS3_WRITEVERFSIZE);
}

/*
 *	struct CREATE3resok {
 *		post_op_fh3   obj;
 *		post_op_attr  obj_attributes;
 *		wcc_data      dir_wcc;
 *	};
 *	struct CREATE3resfail {
 *		wcc_data      dir_wcc;
 *	};
 * MKDIR3res, SYMLINK3res and MKNOD3res are the same.
 */
int nfs3_dec_diropres(struct xdr_dec *d, void *res)
{
	struct nfs3_diropres *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = xdr_dec_u32(d, &r->status);
	if (ret)
		return ret;
	if (r->status == NFS3_OK) {
		ret = nfs3_dec_post_op_fh3(d, &r->obj);
		if (ret)
			return ret;
		ret = nfs3_dec_post_op_attr(d, &r->obj_attributes);
		if (ret)
			return ret;
	}
	return nfs3_dec_wcc_data(d, &r->dir_wcc);
}

/*
 *	struct REMOVE3resok {
 *		wcc_data  dir_wcc;
 *	};
 *	struct REMOVE3resfail {
 *		wcc_data  dir_wcc;
 *	};
 * RMDIR3res is the same.
 */
int nfs3_dec_wccstat_res(struct xdr_dec *d, void *res)
{
	struct nfs3_wccstat_res *r = res;

	memset(r, 0, sizeof(*r));
	return dec_status_wcc(d, &r->status, &r->dir_wcc);
}

/*
 *	struct RENAME3resok {       (and RENAME3resfail alike)
 *		wcc_data  fromdir_wcc;
 *		wcc_data  todir_wcc;
 *	};
 */
int nfs3_dec_rename_res(struct xdr_dec *d, void *res)
{
	struct nfs3_rename_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_wcc(d, &r->status, &r->fromdir_wcc);
	if (ret)
		return ret;
	return nfs3_dec_wcc_data(d, &r->todir_wcc);
}

/*
 *	struct LINK3resok {         (and LINK3resfail alike)
 *		post_op_attr  file_attributes;
 *		wcc_data      linkdir_wcc;
 *	};
 */
int nfs3_dec_link_res(struct xdr_dec *d, void *res)
{
	struct nfs3_link_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_attr(d, &r->status, &r->file_attributes);
	if (ret)
		return ret;
	return nfs3_dec_wcc_data(d, &r->linkdir_wcc);
}

/*
 *	struct dirlist3 {           (dirlistplus3 alike)
 *		entry3  *entries;
 *		bool    eof;
 *	};
 *
 * Walks the whole list once with the iterator of nfs3_types.c, checking
 * every bound, and leaves *list spanning the entries up to and including
 * the final FALSE, ready for nfs3_readdir_next()/nfs3_readdirplus_next().
 */
static int dec_dirlist(struct xdr_dec *d, bool plus, struct xdr_dec *list,
		       uint32_t *nentries, bool *eof)
{
	const uint8_t *start = d->p;
	struct nfs3_entryplus ep;
	struct nfs3_entry e;
	uint32_t n = 0;
	int ret;

	do {
		/* The iterator reads an empty cursor as the end of the list;
		 * here it is a truncated message. */
		if (xdr_dec_left(d) == 0 || n == UINT32_MAX)
			return -EBADMSG;
		ret = plus ? nfs3_readdirplus_next(d, &ep) :
			     nfs3_readdir_next(d, &e);
		if (ret < 0)
			return ret;
		n += (uint32_t)ret;
	} while (ret == 1);
	list->p = start;
	list->end = d->p;
	*nentries = n;
	return xdr_dec_bool(d, eof);
}

/*
 *	struct READDIR3resok {
 *		post_op_attr  dir_attributes;
 *		cookieverf3   cookieverf;
 *		dirlist3      reply;
 *	};
 *	struct READDIR3resfail {
 *		post_op_attr  dir_attributes;
 *	};
 */
int nfs3_dec_readdir_res(struct xdr_dec *d, void *res)
{
	struct nfs3_readdir_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_attr(d, &r->status, &r->dir_attributes);
	if (ret || r->status != NFS3_OK)
		return ret;
	ret = dec_fixed(d, r->cookieverf, NFS3_COOKIEVERFSIZE);
	if (ret)
		return ret;
	return dec_dirlist(d, false, &r->entries, &r->nentries, &r->eof);
}

/*
 *	struct READDIRPLUS3resok {
 *		post_op_attr  dir_attributes;
 *		cookieverf3   cookieverf;
 *		dirlistplus3  reply;
 *	};
 *	struct READDIRPLUS3resfail {
 *		post_op_attr  dir_attributes;
 *	};
 */
int nfs3_dec_readdirplus_res(struct xdr_dec *d, void *res)
{
	struct nfs3_readdirplus_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_attr(d, &r->status, &r->dir_attributes);
	if (ret || r->status != NFS3_OK)
		return ret;
	ret = dec_fixed(d, r->cookieverf, NFS3_COOKIEVERFSIZE);
	if (ret)
		return ret;
	return dec_dirlist(d, true, &r->entries, &r->nentries, &r->eof);
}

/*
 *	struct FSSTAT3resok {
 *		post_op_attr  obj_attributes;
 *		size3         tbytes;
 *		size3         fbytes;
 *		size3         abytes;
 *		size3         tfiles;
 *		size3         ffiles;
 *		size3         afiles;
 *		uint32        invarsec;
 *	};
 *	struct FSSTAT3resfail {
 *		post_op_attr  obj_attributes;
 *	};
 */
int nfs3_dec_fsstat_res(struct xdr_dec *d, void *res)
{
	struct nfs3_fsstat_res *r = res;
	const uint8_t *p;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_attr(d, &r->status, &r->obj_attributes);
	if (ret || r->status != NFS3_OK)
		return ret;
	p = xdr_dec_inline(d, 6 * 8 + 4);
	if (!p)
		return -EBADMSG;
	r->tbytes = xdr_get_u64(p);
	r->fbytes = xdr_get_u64(p + 8);
	r->abytes = xdr_get_u64(p + 16);
	r->tfiles = xdr_get_u64(p + 24);
	r->ffiles = xdr_get_u64(p + 32);
	r->afiles = xdr_get_u64(p + 40);
	r->invarsec = xdr_get_u32(p + 48);
	return 0;
}

/*
 *	struct FSINFO3resok {
 *		post_op_attr  obj_attributes;
 *		uint32        rtmax;
 *		uint32        rtpref;
 *		uint32        rtmult;
 *		uint32        wtmax;
 *		uint32        wtpref;
 *		uint32        wtmult;
 *		uint32        dtpref;
 *		size3         maxfilesize;
 *		nfstime3      time_delta;
 *		uint32        properties;
 *	};
 *	struct FSINFO3resfail {
 *		post_op_attr  obj_attributes;
 *	};
 */
int nfs3_dec_fsinfo_res(struct xdr_dec *d, void *res)
{
	struct nfs3_fsinfo_res *r = res;
	const uint8_t *p;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_attr(d, &r->status, &r->obj_attributes);
	if (ret || r->status != NFS3_OK)
		return ret;
	p = xdr_dec_inline(d, 7 * 4 + 8 + 8 + 4);
	if (!p)
		return -EBADMSG;
	r->rtmax = xdr_get_u32(p);
	r->rtpref = xdr_get_u32(p + 4);
	r->rtmult = xdr_get_u32(p + 8);
	r->wtmax = xdr_get_u32(p + 12);
	r->wtpref = xdr_get_u32(p + 16);
	r->wtmult = xdr_get_u32(p + 20);
	r->dtpref = xdr_get_u32(p + 24);
	r->maxfilesize = xdr_get_u64(p + 28);
	r->time_delta.seconds = xdr_get_u32(p + 36);
	r->time_delta.nseconds = xdr_get_u32(p + 40);
	r->properties = xdr_get_u32(p + 44);
	return 0;
}

/*
 *	struct PATHCONF3resok {
 *		post_op_attr  obj_attributes;
 *		uint32        linkmax;
 *		uint32        name_max;
 *		bool          no_trunc;
 *		bool          chown_restricted;
 *		bool          case_insensitive;
 *		bool          case_preserving;
 *	};
 *	struct PATHCONF3resfail {
 *		post_op_attr  obj_attributes;
 *	};
 */
int nfs3_dec_pathconf_res(struct xdr_dec *d, void *res)
{
	struct nfs3_pathconf_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_attr(d, &r->status, &r->obj_attributes);
	if (ret || r->status != NFS3_OK)
		return ret;
	if (xdr_dec_u32(d, &r->linkmax) || xdr_dec_u32(d, &r->name_max) ||
	    xdr_dec_bool(d, &r->no_trunc) ||
	    xdr_dec_bool(d, &r->chown_restricted) ||
	    xdr_dec_bool(d, &r->case_insensitive) ||
	    xdr_dec_bool(d, &r->case_preserving))
		return -EBADMSG;
	return 0;
}

/*
 *	struct COMMIT3resok {
 *		wcc_data    file_wcc;
 *		writeverf3  verf;
 *	};
 *	struct COMMIT3resfail {
 *		wcc_data    file_wcc;
 *	};
 */
int nfs3_dec_commit_res(struct xdr_dec *d, void *res)
{
	struct nfs3_commit_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = dec_status_wcc(d, &r->status, &r->file_wcc);
	if (ret || r->status != NFS3_OK)
		return ret;
	return dec_fixed(d, r->verf, NFS3_WRITEVERFSIZE);
}
