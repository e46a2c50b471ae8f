/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFS version 2 (RFC 1094): names, the data types of section 2.3, the
 * argument encoders and the result decoders of the 18 procedures.  The
 * conversions to and from NFSv3 types are in nfs2_conv.c.
 *
 * Encoders validate what they are given (-EINVAL, sticky in the encoder);
 * decoders return -EBADMSG when the reply is malformed and leave the NFS
 * status to the caller.  Every result struct is zeroed first, so a field
 * that the decoded arm does not carry reads as 0/false/NULL.
 */
#include "nfs2.h"

#include <errno.h>
#include <string.h>

const char *const nfs2_proc_names[NFS2PROC_COUNT] = {
	[NFS2PROC_NULL] = "NULL",
	[NFS2PROC_GETATTR] = "GETATTR",
	[NFS2PROC_SETATTR] = "SETATTR",
	[NFS2PROC_ROOT] = "ROOT",
	[NFS2PROC_LOOKUP] = "LOOKUP",
	[NFS2PROC_READLINK] = "READLINK",
	[NFS2PROC_READ] = "READ",
	[NFS2PROC_WRITECACHE] = "WRITECACHE",
	[NFS2PROC_WRITE] = "WRITE",
	[NFS2PROC_CREATE] = "CREATE",
	[NFS2PROC_REMOVE] = "REMOVE",
	[NFS2PROC_RENAME] = "RENAME",
	[NFS2PROC_LINK] = "LINK",
	[NFS2PROC_SYMLINK] = "SYMLINK",
	[NFS2PROC_MKDIR] = "MKDIR",
	[NFS2PROC_RMDIR] = "RMDIR",
	[NFS2PROC_READDIR] = "READDIR",
	[NFS2PROC_STATFS] = "STATFS",
};

const char *nfs2_stat_name(uint32_t status)
{
	switch (status) {
	case NFS2_OK: return "NFS_OK";
	case NFS2ERR_PERM: return "NFSERR_PERM";
	case NFS2ERR_NOENT: return "NFSERR_NOENT";
	case NFS2ERR_IO: return "NFSERR_IO";
	case NFS2ERR_NXIO: return "NFSERR_NXIO";
	case NFS2ERR_ACCES: return "NFSERR_ACCES";
	case NFS2ERR_EXIST: return "NFSERR_EXIST";
	case NFS2ERR_NODEV: return "NFSERR_NODEV";
	case NFS2ERR_NOTDIR: return "NFSERR_NOTDIR";
	case NFS2ERR_ISDIR: return "NFSERR_ISDIR";
	case NFS2ERR_FBIG: return "NFSERR_FBIG";
	case NFS2ERR_NOSPC: return "NFSERR_NOSPC";
	case NFS2ERR_ROFS: return "NFSERR_ROFS";
	case NFS2ERR_NAMETOOLONG: return "NFSERR_NAMETOOLONG";
	case NFS2ERR_NOTEMPTY: return "NFSERR_NOTEMPTY";
	case NFS2ERR_DQUOT: return "NFSERR_DQUOT";
	case NFS2ERR_STALE: return "NFSERR_STALE";
	case NFS2ERR_WFLUSH: return "NFSERR_WFLUSH";
	}
	return NULL;
}

/* Record the first encoder error; later calls keep it (sticky). */
static int enc_fail(struct xdr_enc *e, int err)
{
	if (!e->err)
		e->err = err;
	return e->err;
}

/* ---- data types ---- */

/*
 *	struct nfs_fh {
 *		opaque data[NFS_FHSIZE];	(32 bytes, no length word)
 *	};
 */
int nfs2_enc_fh(struct xdr_enc *e, const struct nfs2_fh *fh)
{
	if (!fh)
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque_fixed(e, fh->data, NFS2_FHSIZE);
}

int nfs2_dec_fh(struct xdr_dec *d, struct nfs2_fh *fh)
{
	const uint8_t *p = xdr_dec_inline(d, NFS2_FHSIZE);

	if (!p)
		return -EBADMSG;
	memcpy(fh->data, p, NFS2_FHSIZE);
	return 0;
}

/*
 *	struct timeval {		(nfstime in nfs_prot.x)
 *		unsigned int seconds;
 *		unsigned int useconds;
 *	};
 *
 *	struct fattr {
 *		ftype        type;
 *		unsigned int mode;
 *		unsigned int nlink;
 *		unsigned int uid;
 *		unsigned int gid;
 *		unsigned int size;
 *		unsigned int blocksize;
 *		unsigned int rdev;
 *		unsigned int blocks;
 *		unsigned int fsid;
 *		unsigned int fileid;
 *		timeval      atime;
 *		timeval      mtime;
 *		timeval      ctime;
 *	};
 *
 * 17 words: checked once, then decoded straight.  The type is kept as
 * sent (an unknown ftype is not malformed: the conversion decides).
 */
int nfs2_dec_fattr(struct xdr_dec *d, struct nfs2_fattr *a)
{
	const uint8_t *p = xdr_dec_inline(d, NFS2_FATTR_SIZE);

	if (!p)
		return -EBADMSG;
	a->type = xdr_get_u32(p);
	a->mode = xdr_get_u32(p + 4);
	a->nlink = xdr_get_u32(p + 8);
	a->uid = xdr_get_u32(p + 12);
	a->gid = xdr_get_u32(p + 16);
	a->size = xdr_get_u32(p + 20);
	a->blocksize = xdr_get_u32(p + 24);
	a->rdev = xdr_get_u32(p + 28);
	a->blocks = xdr_get_u32(p + 32);
	a->fsid = xdr_get_u32(p + 36);
	a->fileid = xdr_get_u32(p + 40);
	a->atime.seconds = xdr_get_u32(p + 44);
	a->atime.useconds = xdr_get_u32(p + 48);
	a->mtime.seconds = xdr_get_u32(p + 52);
	a->mtime.useconds = xdr_get_u32(p + 56);
	a->ctime.seconds = xdr_get_u32(p + 60);
	a->ctime.useconds = xdr_get_u32(p + 64);
	return 0;
}

int nfs2_enc_fattr(struct xdr_enc *e, const struct nfs2_fattr *a)
{
	uint8_t *p;

	if (!a)
		return enc_fail(e, -EINVAL);
	p = xdr_enc_reserve(e, NFS2_FATTR_SIZE);
	if (!p)
		return e->err;
	xdr_put_u32(p, a->type);
	xdr_put_u32(p + 4, a->mode);
	xdr_put_u32(p + 8, a->nlink);
	xdr_put_u32(p + 12, a->uid);
	xdr_put_u32(p + 16, a->gid);
	xdr_put_u32(p + 20, a->size);
	xdr_put_u32(p + 24, a->blocksize);
	xdr_put_u32(p + 28, a->rdev);
	xdr_put_u32(p + 32, a->blocks);
	xdr_put_u32(p + 36, a->fsid);
	xdr_put_u32(p + 40, a->fileid);
	xdr_put_u32(p + 44, a->atime.seconds);
	xdr_put_u32(p + 48, a->atime.useconds);
	xdr_put_u32(p + 52, a->mtime.seconds);
	xdr_put_u32(p + 56, a->mtime.useconds);
	xdr_put_u32(p + 60, a->ctime.seconds);
	xdr_put_u32(p + 64, a->ctime.useconds);
	return 0;
}

/*
 *	struct sattr {
 *		unsigned int mode;
 *		unsigned int uid;
 *		unsigned int gid;
 *		unsigned int size;
 *		timeval      atime;
 *		timeval      mtime;
 *	};
 *
 * RFC 1094: "A value of -1 indicates a field that should be ignored."
 * No value is refused here; nfs2_sattr_from_sattr3() builds valid ones.
 */
void nfs2_sattr_none(struct nfs2_sattr *s)
{
	s->mode = s->uid = s->gid = s->size = NFS2_SATTR_NOT_SET;
	s->atime.seconds = s->atime.useconds = NFS2_SATTR_NOT_SET;
	s->mtime.seconds = s->mtime.useconds = NFS2_SATTR_NOT_SET;
}

int nfs2_enc_sattr(struct xdr_enc *e, const struct nfs2_sattr *s)
{
	uint8_t *p;

	if (!s)
		return enc_fail(e, -EINVAL);
	p = xdr_enc_reserve(e, NFS2_SATTR_SIZE);
	if (!p)
		return e->err;
	xdr_put_u32(p, s->mode);
	xdr_put_u32(p + 4, s->uid);
	xdr_put_u32(p + 8, s->gid);
	xdr_put_u32(p + 12, s->size);
	xdr_put_u32(p + 16, s->atime.seconds);
	xdr_put_u32(p + 20, s->atime.useconds);
	xdr_put_u32(p + 24, s->mtime.seconds);
	xdr_put_u32(p + 28, s->mtime.useconds);
	return 0;
}

int nfs2_dec_sattr(struct xdr_dec *d, struct nfs2_sattr *s)
{
	const uint8_t *p = xdr_dec_inline(d, NFS2_SATTR_SIZE);

	if (!p)
		return -EBADMSG;
	s->mode = xdr_get_u32(p);
	s->uid = xdr_get_u32(p + 4);
	s->gid = xdr_get_u32(p + 8);
	s->size = xdr_get_u32(p + 12);
	s->atime.seconds = xdr_get_u32(p + 16);
	s->atime.useconds = xdr_get_u32(p + 20);
	s->mtime.seconds = xdr_get_u32(p + 24);
	s->mtime.useconds = xdr_get_u32(p + 28);
	return 0;
}

/*
 *	typedef string filename<MAXNAMLEN>;
 *
 *	struct diropargs {
 *		fhandle  dir;
 *		filename name;
 *	};
 *
 * The name must be 1..NFS2_MAXNAMLEN bytes; strnlen() so that an
 * unterminated or huge name is not scanned to its end.
 */
int nfs2_enc_diropargs(struct xdr_enc *e, const struct nfs2_diropargs *a)
{
	size_t len;

	if (!a || !a->dir || !a->name)
		return enc_fail(e, -EINVAL);
	len = strnlen(a->name, NFS2_MAXNAMLEN + 1);
	if (len == 0 || len > NFS2_MAXNAMLEN)
		return enc_fail(e, -EINVAL);
	nfs2_enc_fh(e, a->dir);
	return xdr_enc_opaque(e, NFS2_MAXNAMLEN, a->name, len);
}

/*
 *	typedef string path<MAXPATHLEN>;
 */
static int enc_path(struct xdr_enc *e, const char *path)
{
	size_t len;

	if (!path)
		return enc_fail(e, -EINVAL);
	len = strnlen(path, NFS2_MAXPATHLEN + 1);
	if (len > NFS2_MAXPATHLEN)
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque(e, NFS2_MAXPATHLEN, path, len);
}

/* ---- argument encoders ---- */

/* NULL, ROOT, WRITECACHE: void. */
int nfs2_enc_void_args(struct xdr_enc *e, const void *args)
{
	(void)args;
	return e->err;
}

/*
 * GETATTR, READLINK, STATFS:
 *	fhandle file;
 */
int nfs2_enc_getattr_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_getattr_args *a = args;

	return nfs2_enc_fh(e, a ? &a->file : NULL);
}

int nfs2_enc_readlink_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_readlink_args *a = args;

	return nfs2_enc_fh(e, a ? &a->file : NULL);
}

int nfs2_enc_statfs_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_statfs_args *a = args;

	return nfs2_enc_fh(e, a ? &a->file : NULL);
}

/*
 *	struct sattrargs {
 *		fhandle file;
 *		sattr   attributes;
 *	};
 */
int nfs2_enc_setattr_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_setattr_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs2_enc_fh(e, &a->file);
	return nfs2_enc_sattr(e, &a->attributes);
}

/*
 * LOOKUP, REMOVE, RMDIR:
 *	diropargs what;
 */
int nfs2_enc_lookup_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_lookup_args *a = args;

	return nfs2_enc_diropargs(e, a ? &a->what : NULL);
}

int nfs2_enc_remove_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_remove_args *a = args;

	return nfs2_enc_diropargs(e, a ? &a->what : NULL);
}

int nfs2_enc_rmdir_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_rmdir_args *a = args;

	return nfs2_enc_diropargs(e, a ? &a->what : NULL);
}

/*
 *	struct readargs {
 *		fhandle      file;
 *		unsigned int offset;
 *		unsigned int count;
 *		unsigned int totalcount;
 *	};
 *
 * A count over NFS2_MAXDATA asks for a reply we would refuse to decode.
 */
int nfs2_enc_read_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_read_args *a = args;
	uint8_t *p;

	if (!a || a->count > NFS2_MAXDATA)
		return enc_fail(e, -EINVAL);
	nfs2_enc_fh(e, &a->file);
	p = xdr_enc_reserve(e, 12);
	if (!p)
		return e->err;
	xdr_put_u32(p, a->offset);
	xdr_put_u32(p + 4, a->count);
	xdr_put_u32(p + 8, a->totalcount);
	return 0;
}

/*
 *	struct writeargs {
 *		fhandle      file;
 *		unsigned int beginoffset;
 *		unsigned int offset;
 *		unsigned int totalcount;
 *		nfsdata      data;		(opaque<NFS_MAXDATA>)
 *	};
 */
int nfs2_enc_write_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_write_args *a = args;

	if (!a || a->count > NFS2_MAXDATA || (a->count && !a->data))
		return enc_fail(e, -EINVAL);
	nfs2_enc_fh(e, &a->file);
	xdr_enc_u32(e, a->beginoffset);
	xdr_enc_u32(e, a->offset);
	xdr_enc_u32(e, a->totalcount);
	return xdr_enc_opaque(e, NFS2_MAXDATA, a->data, a->count);
}

/*
 * CREATE, MKDIR:
 *	struct createargs {
 *		diropargs where;
 *		sattr     attributes;
 *	};
 */
int nfs2_enc_create_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_create_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs2_enc_diropargs(e, &a->where);
	return nfs2_enc_sattr(e, &a->attributes);
}

int nfs2_enc_mkdir_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_mkdir_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs2_enc_diropargs(e, &a->where);
	return nfs2_enc_sattr(e, &a->attributes);
}

/*
 *	struct renameargs {
 *		diropargs from;
 *		diropargs to;
 *	};
 */
int nfs2_enc_rename_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_rename_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs2_enc_diropargs(e, &a->from);
	return nfs2_enc_diropargs(e, &a->to);
}

/*
 *	struct linkargs {
 *		fhandle   from;
 *		diropargs to;
 *	};
 */
int nfs2_enc_link_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_link_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs2_enc_fh(e, &a->from);
	return nfs2_enc_diropargs(e, &a->to);
}

/*
 *	struct symlinkargs {
 *		diropargs from;
 *		path      to;
 *		sattr     attributes;
 *	};
 */
int nfs2_enc_symlink_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_symlink_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs2_enc_diropargs(e, &a->from);
	enc_path(e, a->to);
	return nfs2_enc_sattr(e, &a->attributes);
}

/*
 *	typedef opaque nfscookie[NFS_COOKIESIZE];
 *
 *	struct readdirargs {
 *		fhandle      dir;
 *		nfscookie    cookie;
 *		unsigned int count;
 *	};
 *
 * The four cookie bytes are the big-endian u32 the caller holds.
 */
int nfs2_enc_readdir_args(struct xdr_enc *e, const void *args)
{
	const struct nfs2_readdir_args *a = args;

	if (!a)
		return enc_fail(e, -EINVAL);
	nfs2_enc_fh(e, &a->dir);
	xdr_enc_u32(e, a->cookie);
	return xdr_enc_u32(e, a->count);
}

/* ---- result decoders ---- */

/* NULL, ROOT, WRITECACHE: void.  Leftover bytes are the RPC layer's to
 * judge. */
int nfs2_dec_void_res(struct xdr_dec *d, void *res)
{
	(void)d;
	(void)res;
	return 0;
}

/*
 *	union attrstat switch (stat status) {
 *	case NFS_OK:
 *		fattr attributes;
 *	default:
 *		void;
 *	};
 * GETATTR, SETATTR and WRITE return it.
 */
int nfs2_dec_attrstat(struct xdr_dec *d, void *res)
{
	struct nfs2_attrstat *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = xdr_dec_u32(d, &r->status);
	if (ret || r->status != NFS2_OK)
		return ret;
	return nfs2_dec_fattr(d, &r->attributes);
}

int nfs2_dec_getattr_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_attrstat(d, res);
}

int nfs2_dec_setattr_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_attrstat(d, res);
}

int nfs2_dec_write_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_attrstat(d, res);
}

/*
 *	union diropres switch (stat status) {
 *	case NFS_OK:
 *		struct {
 *			fhandle file;
 *			fattr   attributes;
 *		} diropok;
 *	default:
 *		void;
 *	};
 * LOOKUP, CREATE and MKDIR return it.
 */
int nfs2_dec_diropres(struct xdr_dec *d, void *res)
{
	struct nfs2_diropres *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = xdr_dec_u32(d, &r->status);
	if (ret || r->status != NFS2_OK)
		return ret;
	ret = nfs2_dec_fh(d, &r->file);
	if (ret)
		return ret;
	return nfs2_dec_fattr(d, &r->attributes);
}

int nfs2_dec_lookup_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_diropres(d, res);
}

int nfs2_dec_create_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_diropres(d, res);
}

int nfs2_dec_mkdir_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_diropres(d, res);
}

/*
 *	stat status;
 * REMOVE, RENAME, LINK, SYMLINK and RMDIR return a bare status.
 */
int nfs2_dec_stat_res(struct xdr_dec *d, void *res)
{
	struct nfs2_stat_res *r = res;

	memset(r, 0, sizeof(*r));
	return xdr_dec_u32(d, &r->status);
}

int nfs2_dec_remove_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_stat_res(d, res);
}

int nfs2_dec_rename_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_stat_res(d, res);
}

int nfs2_dec_link_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_stat_res(d, res);
}

int nfs2_dec_symlink_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_stat_res(d, res);
}

int nfs2_dec_rmdir_res(struct xdr_dec *d, void *res)
{
	return nfs2_dec_stat_res(d, res);
}

/*
 *	union readlinkres switch (stat status) {
 *	case NFS_OK:
 *		path data;
 *	default:
 *		void;
 *	};
 */
int nfs2_dec_readlink_res(struct xdr_dec *d, void *res)
{
	struct nfs2_readlink_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = xdr_dec_u32(d, &r->status);
	if (ret || r->status != NFS2_OK)
		return ret;
	return xdr_dec_string(d, NFS2_MAXPATHLEN, &r->data, &r->len);
}

/*
 *	union readres switch (stat status) {
 *	case NFS_OK:
 *		fattr   attributes;
 *		nfsdata data;		(opaque<NFS_MAXDATA>)
 *	default:
 *		void;
 *	};
 */
int nfs2_dec_read_res(struct xdr_dec *d, void *res)
{
	struct nfs2_read_res *r = res;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = xdr_dec_u32(d, &r->status);
	if (ret || r->status != NFS2_OK)
		return ret;
	ret = nfs2_dec_fattr(d, &r->attributes);
	if (ret)
		return ret;
	return xdr_dec_opaque(d, NFS2_MAXDATA, &r->data, &r->count);
}

/*
 *	struct entry {
 *		unsigned  fileid;
 *		filename  name;
 *		nfscookie cookie;
 *		entry     *nextentry;
 *	};
 *
 * An optional-data pointer is a bool "value follows" before each entry,
 * FALSE at the end of the list.  One step: 1 and *e filled after a TRUE,
 * 0 after the FALSE or on an empty cursor, -EBADMSG when malformed.  The
 * READDIR decoder walks the list with this very function (refusing an
 * empty cursor as truncation), so the caller's second walk cannot meet
 * anything the first did not check.
 */
int nfs2_readdir_next(struct xdr_dec *it, struct nfs2_entry *e)
{
	bool follows;
	int ret;

	if (xdr_dec_left(it) == 0)
		return 0;
	ret = xdr_dec_bool(it, &follows);
	if (ret || !follows)
		return ret;
	ret = xdr_dec_u32(it, &e->fileid);
	if (ret)
		return ret;
	ret = xdr_dec_string(it, NFS2_MAXNAMLEN, &e->name, &e->namelen);
	if (ret)
		return ret;
	ret = xdr_dec_u32(it, &e->cookie);
	if (ret)
		return ret;
	return 1;
}

/*
 *	union readdirres switch (stat status) {
 *	case NFS_OK:
 *		struct {
 *			entry *entries;
 *			bool  eof;
 *		} readdirok;
 *	default:
 *		void;
 *	};
 *
 * Leaves r->entries spanning the entries up to and including the final
 * FALSE, ready for nfs2_readdir_next().
 */
int nfs2_dec_readdir_res(struct xdr_dec *d, void *res)
{
	struct nfs2_readdir_res *r = res;
	const uint8_t *start;
	struct nfs2_entry e;
	uint32_t n = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = xdr_dec_u32(d, &r->status);
	if (ret || r->status != NFS2_OK)
		return ret;
	start = d->p;
	do {
		/* The iterator reads an empty cursor as the end of the list;
		 * here it is a truncated message. */
		if (xdr_dec_left(d) == 0 || n == UINT32_MAX)
			return -EBADMSG;
		ret = nfs2_readdir_next(d, &e);
		if (ret < 0)
			return ret;
		n += (uint32_t)ret;
	} while (ret == 1);
	r->entries.p = start;
	r->entries.end = d->p;
	r->nentries = n;
	return xdr_dec_bool(d, &r->eof);
}

/*
 *	union statfsres switch (stat status) {
 *	case NFS_OK:
 *		struct {
 *			unsigned tsize;
 *			unsigned bsize;
 *			unsigned blocks;
 *			unsigned bfree;
 *			unsigned bavail;
 *		} info;
 *	default:
 *		void;
 *	};
 */
int nfs2_dec_statfs_res(struct xdr_dec *d, void *res)
{
	struct nfs2_statfs_res *r = res;
	const uint8_t *p;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = xdr_dec_u32(d, &r->status);
	if (ret || r->status != NFS2_OK)
		return ret;
	p = xdr_dec_inline(d, 5 * 4);
	if (!p)
		return -EBADMSG;
	r->tsize = xdr_get_u32(p);
	r->bsize = xdr_get_u32(p + 4);
	r->blocks = xdr_get_u32(p + 8);
	r->bfree = xdr_get_u32(p + 12);
	r->bavail = xdr_get_u32(p + 16);
	return 0;
}
