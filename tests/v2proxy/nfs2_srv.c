/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NFSv2 procedures of nfs2to3proxy, each made of NFSv3 calls.  The
 * translation follows what a v2 server on a v3-capable file system does
 * (Linux nfsd's nfsproc.c): attributes come from the v3 reply when it has
 * them and from a GETATTR otherwise; v2 WRITEs are FILE_SYNC; CREATE with a
 * file type in its mode is MKNOD (a character device without a size is a
 * FIFO); 64-bit values that do not fit are cut (sizes, file ids) or mapped
 * (cookies, long handles: maps.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "v2proxy.h"

/* ---- types ---- */

static uint32_t stat_to_v2(uint32_t s)
{
	switch (s) {
	case NFS3ERR_BADHANDLE:
		return NFS2ERR_STALE;
	case NFS3ERR_JUKEBOX:
	case NFS3ERR_NOT_SYNC:
	case NFS3ERR_BAD_COOKIE:
	case NFS3ERR_NOTSUPP:
	case NFS3ERR_TOOSMALL:
	case NFS3ERR_SERVERFAULT:
	case NFS3ERR_BADTYPE:
		return NFS2ERR_IO;
	}
	return s; /* the same numbers below 10000 (XDEV, INVAL, MLINK too) */
}

static uint32_t lo32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void fattr_to_v2(const struct fattr3 *a, struct nfs2_fattr *o)
{
	static const uint32_t fmt[] = {
		[NF3REG] = NFS2MODE_REG, [NF3DIR] = NFS2MODE_DIR,
		[NF3BLK] = NFS2MODE_BLK, [NF3CHR] = NFS2MODE_CHR,
		[NF3LNK] = NFS2MODE_LNK, [NF3SOCK] = NFS2MODE_SOCK,
		[NF3FIFO] = NFS2MODE_FIFO,
	};
	bool known = a->type >= NF3REG && a->type <= NF3FIFO;

	memset(o, 0, sizeof(*o));
	o->type = a->type == NF3FIFO ? NF2FIFO : known ? a->type : NF2NON;
	o->mode = (a->mode & 07777) | (known ? fmt[a->type] : 0);
	o->nlink = a->nlink;
	o->uid = a->uid;
	o->gid = a->gid;
	o->size = lo32(a->size);
	o->blocksize = 512;
	o->blocks = lo32((a->used + 511) / 512);
	if (a->type == NF3CHR || a->type == NF3BLK)
		o->rdev = (a->rdev.specdata2 & 0xffu) |
			  (a->rdev.specdata1 << 8) |
			  ((a->rdev.specdata2 & ~0xffu) << 12);
	o->fsid = (uint32_t)a->fsid;
	o->fileid = (uint32_t)a->fileid;
	o->atime.seconds = a->atime.seconds;
	o->atime.useconds = a->atime.nseconds / 1000;
	o->mtime.seconds = a->mtime.seconds;
	o->mtime.useconds = a->mtime.nseconds / 1000;
	o->ctime.seconds = a->ctime.seconds;
	o->ctime.useconds = a->ctime.nseconds / 1000;
}

static void time_to_v3(const struct nfs2_time *t, uint32_t *how,
		       struct nfstime3 *o)
{
	if (t->seconds == NFS2_SATTR_NOT_SET) {
		*how = DONT_CHANGE;
	} else if (t->useconds == NFS2_USEC_SERVER_TIME) {
		*how = SET_TO_SERVER_TIME;
	} else {
		*how = SET_TO_CLIENT_TIME;
		o->seconds = t->seconds;
		o->nseconds = (t->useconds % 1000000u) * 1000u;
	}
}

static void sattr_to_v3(const struct nfs2_sattr *s, struct sattr3 *o)
{
	memset(o, 0, sizeof(*o));
	if (s->mode != NFS2_SATTR_NOT_SET) {
		o->set_mode = true;
		o->mode = s->mode & 07777;
	}
	if (s->uid != NFS2_SATTR_NOT_SET) {
		o->set_uid = true;
		o->uid = s->uid;
	}
	if (s->gid != NFS2_SATTR_NOT_SET) {
		o->set_gid = true;
		o->gid = s->gid;
	}
	if (s->size != NFS2_SATTR_NOT_SET) {
		o->set_size = true;
		o->size = s->size;
	}
	time_to_v3(&s->atime, &o->set_atime, &o->atime);
	time_to_v3(&s->mtime, &o->set_mtime, &o->mtime);
}

/* ---- arguments ---- */

/* A v2 handle; *stale when it is not one of ours. */
static int dec_fh(struct xdr_dec *d, struct nfs_fh3 *fh, bool *stale)
{
	struct nfs2_fh fh2;

	if (nfs2_dec_fh(d, &fh2))
		return -EBADMSG;
	if (map_fh_to_v3(&fh2, fh))
		*stale = true;
	return 0;
}

struct dirop {
	struct nfs_fh3 dir;
	char name[NFS2_MAXNAMLEN + 1];
};

static int dec_dirop(struct xdr_dec *d, struct dirop *o, bool *stale)
{
	const char *name;
	uint32_t len;

	if (dec_fh(d, &o->dir, stale) ||
	    xdr_dec_string(d, NFS2_MAXNAMLEN, &name, &len))
		return -EBADMSG;
	memcpy(o->name, name, len);
	o->name[len] = '\0';
	return 0;
}

static struct diropargs3 dirop3(const struct dirop *o)
{
	return (struct diropargs3){ &o->dir, o->name };
}

/* ---- calls ---- */

struct ctx {
	struct conn *c;
	const struct rpc_cred *cred;
	struct xdr_enc *e;
};

/* One NFSv3 call; false when the server could not be asked (the v2
 * client then gets SYSTEM_ERR). */
static bool call3(struct ctx *x, uint32_t proc, enc_fn enc, const void *args,
		  dec_fn dec, void *res, uint8_t **buf)
{
	return up_call(&x->c->nfs, proc, x->cred, enc, args, dec, res,
		       buf) == 0;
}

/* The attributes: from the reply if it had them, else a GETATTR.
 * Returns an nfsstat3, or UINT32_MAX when the server could not be asked. */
static uint32_t attrs(struct ctx *x, const struct nfs_fh3 *fh,
		      const struct post_op_attr *have, struct fattr3 *out)
{
	struct nfs3_getattr_args a = { *fh };
	struct nfs3_getattr_res r;
	uint8_t *buf;

	if (have && have->present) {
		*out = have->attr;
		return NFS3_OK;
	}
	if (!call3(x, NFS3PROC_GETATTR, nfs3_enc_getattr_args, &a,
		   nfs3_dec_getattr_res, &r, &buf))
		return UINT32_MAX;
	free(buf);
	*out = r.obj_attributes;
	return r.status;
}

/* attrstat: status, then the attributes on success. */
static uint32_t reply_attrstat(struct ctx *x, uint32_t status,
			       const struct nfs_fh3 *fh,
			       const struct post_op_attr *have)
{
	struct nfs2_fattr a2;
	struct fattr3 a;

	if (status == NFS3_OK)
		status = attrs(x, fh, have, &a);
	if (status == UINT32_MAX)
		return RPC_SYSTEM_ERR;
	xdr_enc_u32(x->e, stat_to_v2(status));
	if (status == NFS3_OK) {
		fattr_to_v2(&a, &a2);
		nfs2_enc_fattr(x->e, &a2);
	}
	return RPC_SUCCESS;
}

/* diropres: status, then handle and attributes on success.  A v3 reply
 * without the handle is completed with a LOOKUP. */
static uint32_t reply_diropres(struct ctx *x, uint32_t status,
			       const struct post_op_fh3 *obj,
			       const struct post_op_attr *have,
			       const struct dirop *where)
{
	struct nfs_fh3 fh;
	struct nfs2_fattr a2;
	struct nfs2_fh fh2;
	struct fattr3 a;

	if (status == NFS3_OK && obj && obj->present) {
		fh = obj->fh;
		status = attrs(x, &fh, have, &a);
	} else if (status == NFS3_OK) {
		struct nfs3_lookup_args la = { dirop3(where) };
		struct nfs3_lookup_res lr;
		uint8_t *buf;

		if (!call3(x, NFS3PROC_LOOKUP, nfs3_enc_lookup_args, &la,
			   nfs3_dec_lookup_res, &lr, &buf))
			return RPC_SYSTEM_ERR;
		free(buf);
		status = lr.status;
		fh = lr.object;
		if (status == NFS3_OK)
			status = attrs(x, &fh, &lr.obj_attributes, &a);
	}
	if (status == UINT32_MAX)
		return RPC_SYSTEM_ERR;
	xdr_enc_u32(x->e, stat_to_v2(status));
	if (status == NFS3_OK) {
		map_fh_to_v2(&fh, &fh2);
		nfs2_enc_fh(x->e, &fh2);
		fattr_to_v2(&a, &a2);
		nfs2_enc_fattr(x->e, &a2);
	}
	return RPC_SUCCESS;
}

static uint32_t reply_stat(struct ctx *x, uint32_t status)
{
	xdr_enc_u32(x->e, stat_to_v2(status));
	return RPC_SUCCESS;
}

/* ---- procedures ---- */

static uint32_t do_getattr(struct ctx *x, const struct nfs_fh3 *fh)
{
	return reply_attrstat(x, NFS3_OK, fh, NULL);
}

static uint32_t do_setattr(struct ctx *x, struct xdr_dec *d,
			   const struct nfs_fh3 *fh)
{
	struct nfs3_setattr_args a = { .object = *fh };
	struct nfs3_setattr_res r;
	struct nfs2_sattr s;
	uint8_t *buf;
	uint32_t ret;

	if (nfs2_dec_sattr(d, &s))
		return RPC_GARBAGE_ARGS;
	sattr_to_v3(&s, &a.new_attributes);
	if (!call3(x, NFS3PROC_SETATTR, nfs3_enc_setattr_args, &a,
		   nfs3_dec_setattr_res, &r, &buf))
		return RPC_SYSTEM_ERR;
	ret = reply_attrstat(x, r.status, fh, &r.obj_wcc.after);
	free(buf);
	return ret;
}

static uint32_t do_lookup(struct ctx *x, const struct dirop *w)
{
	struct nfs3_lookup_args a = { dirop3(w) };
	struct nfs3_lookup_res r;
	struct post_op_fh3 obj;
	uint8_t *buf;
	uint32_t ret;

	if (!call3(x, NFS3PROC_LOOKUP, nfs3_enc_lookup_args, &a,
		   nfs3_dec_lookup_res, &r, &buf))
		return RPC_SYSTEM_ERR;
	obj.present = true;
	obj.fh = r.object;
	ret = reply_diropres(x, r.status, &obj, &r.obj_attributes, w);
	free(buf);
	return ret;
}

static uint32_t do_readlink(struct ctx *x, const struct nfs_fh3 *fh)
{
	struct nfs3_readlink_args a = { *fh };
	struct nfs3_readlink_res r;
	uint8_t *buf;

	if (!call3(x, NFS3PROC_READLINK, nfs3_enc_readlink_args, &a,
		   nfs3_dec_readlink_res, &r, &buf))
		return RPC_SYSTEM_ERR;
	if (r.status == NFS3_OK && r.len > NFS2_MAXPATHLEN)
		r.status = NFS3ERR_NAMETOOLONG;
	xdr_enc_u32(x->e, stat_to_v2(r.status));
	if (r.status == NFS3_OK)
		xdr_enc_opaque(x->e, NFS2_MAXPATHLEN, r.data, r.len);
	free(buf);
	return RPC_SUCCESS;
}

static uint32_t do_read(struct ctx *x, struct xdr_dec *d,
			const struct nfs_fh3 *fh)
{
	struct nfs3_read_args a = { .file = *fh };
	struct nfs3_read_res r;
	struct nfs2_fattr a2;
	struct fattr3 at;
	uint32_t off, count, total, status;
	uint8_t *buf;

	if (xdr_dec_u32(d, &off) || xdr_dec_u32(d, &count) ||
	    xdr_dec_u32(d, &total))
		return RPC_GARBAGE_ARGS;
	a.offset = off;
	a.count = count < NFS2_MAXDATA ? count : NFS2_MAXDATA;
	if (!call3(x, NFS3PROC_READ, nfs3_enc_read_args, &a,
		   nfs3_dec_read_res, &r, &buf))
		return RPC_SYSTEM_ERR;
	status = r.status;
	if (status == NFS3_OK)
		status = attrs(x, fh, &r.file_attributes, &at);
	if (status == UINT32_MAX) {
		free(buf);
		return RPC_SYSTEM_ERR;
	}
	xdr_enc_u32(x->e, stat_to_v2(status));
	if (status == NFS3_OK) {
		fattr_to_v2(&at, &a2);
		nfs2_enc_fattr(x->e, &a2);
		xdr_enc_opaque(x->e, NFS2_MAXDATA, r.data,
			       r.data_len < a.count ? r.data_len : a.count);
	}
	free(buf);
	return RPC_SUCCESS;
}

static uint32_t do_write(struct ctx *x, struct xdr_dec *d,
			 const struct nfs_fh3 *fh)
{
	struct nfs3_write_args a = { .file = *fh, .stable = FILE_SYNC };
	struct nfs3_write_res r;
	uint32_t begin, off, total, len, done = 0, ret;
	const uint8_t *data;
	uint8_t *buf = NULL;

	if (xdr_dec_u32(d, &begin) || xdr_dec_u32(d, &off) ||
	    xdr_dec_u32(d, &total) ||
	    xdr_dec_opaque(d, NFS2_MAXDATA, &data, &len))
		return RPC_GARBAGE_ARGS;
	/* v2 has no short writes: send the rest until all is written. */
	do {
		free(buf);
		a.offset = (uint64_t)off + done;
		a.count = len - done;
		a.data = data + done;
		if (!call3(x, NFS3PROC_WRITE, nfs3_enc_write_args, &a,
			   nfs3_dec_write_res, &r, &buf))
			return RPC_SYSTEM_ERR;
		if (r.status == NFS3_OK && (r.count == 0 || r.count > a.count))
			r.status = NFS3ERR_IO;
		if (r.status == NFS3_OK)
			done += r.count;
	} while (r.status == NFS3_OK && done < len);
	ret = reply_attrstat(x, r.status, fh, &r.file_wcc.after);
	free(buf);
	return ret;
}

/* CREATE (and MKDIR, fmt NFS2MODE_DIR): a regular file, or with the file
 * type fmt taken from the mode a special file or a directory. */
static uint32_t do_create(struct ctx *x, const struct dirop *w,
			  const struct nfs2_sattr *s, uint32_t fmt)
{
	struct nfs3_diropres r;
	uint8_t *buf;
	uint32_t ret;
	bool ok;

	if (fmt == 0 || fmt == NFS2MODE_REG) {
		struct nfs3_create_args a = { .where = dirop3(w),
					      .mode = UNCHECKED };

		sattr_to_v3(s, &a.obj_attributes);
		ok = call3(x, NFS3PROC_CREATE, nfs3_enc_create_args, &a,
			   nfs3_dec_diropres, &r, &buf);
	} else if (fmt == NFS2MODE_DIR) {
		struct nfs3_mkdir_args a = { .where = dirop3(w) };

		sattr_to_v3(s, &a.attributes);
		ok = call3(x, NFS3PROC_MKDIR, nfs3_enc_mkdir_args, &a,
			   nfs3_dec_diropres, &r, &buf);
	} else {
		struct nfs3_mknod_args a = { .where = dirop3(w) };
		uint32_t rdev = s->size;

		sattr_to_v3(s, &a.attributes);
		a.attributes.set_size = false;
		switch (fmt) {
		case NFS2MODE_CHR:
			a.type = rdev == NFS2_FIFO_DEV ? NF3FIFO : NF3CHR;
			break;
		case NFS2MODE_BLK:
			a.type = NF3BLK;
			break;
		case NFS2MODE_FIFO:
			a.type = NF3FIFO;
			break;
		case NFS2MODE_SOCK:
			a.type = NF3SOCK;
			break;
		default:
			return reply_stat(x, NFS3ERR_INVAL);
		}
		if (a.type == NF3CHR || a.type == NF3BLK) {
			a.spec.specdata1 = (rdev & 0xfff00u) >> 8;
			a.spec.specdata2 = (rdev & 0xffu) |
					   ((rdev >> 12) & 0xfff00u);
		}
		ok = call3(x, NFS3PROC_MKNOD, nfs3_enc_mknod_args, &a,
			   nfs3_dec_diropres, &r, &buf);
	}
	if (!ok)
		return RPC_SYSTEM_ERR;
	ret = reply_diropres(x, r.status, &r.obj, &r.obj_attributes, w);
	free(buf);
	return ret;
}

static uint32_t do_remove(struct ctx *x, uint32_t proc, const struct dirop *w)
{
	struct nfs3_remove_args a = { dirop3(w) };
	struct nfs3_wccstat_res r;
	uint8_t *buf;

	if (!call3(x, proc, nfs3_enc_remove_args, &a, nfs3_dec_wccstat_res,
		   &r, &buf))
		return RPC_SYSTEM_ERR;
	free(buf);
	return reply_stat(x, r.status);
}

static uint32_t do_rename(struct ctx *x, const struct dirop *from,
			  const struct dirop *to)
{
	struct nfs3_rename_args a = { dirop3(from), dirop3(to) };
	struct nfs3_rename_res r;
	uint8_t *buf;

	if (!call3(x, NFS3PROC_RENAME, nfs3_enc_rename_args, &a,
		   nfs3_dec_rename_res, &r, &buf))
		return RPC_SYSTEM_ERR;
	free(buf);
	return reply_stat(x, r.status);
}

static uint32_t do_link(struct ctx *x, const struct nfs_fh3 *fh,
			const struct dirop *to)
{
	struct nfs3_link_args a = { *fh, dirop3(to) };
	struct nfs3_link_res r;
	uint8_t *buf;

	if (!call3(x, NFS3PROC_LINK, nfs3_enc_link_args, &a,
		   nfs3_dec_link_res, &r, &buf))
		return RPC_SYSTEM_ERR;
	free(buf);
	return reply_stat(x, r.status);
}

static uint32_t do_symlink(struct ctx *x, const struct dirop *w,
			   const char *target, const struct nfs2_sattr *s)
{
	struct nfs3_symlink_args a = { .where = dirop3(w),
				       .symlink_data = target };
	struct nfs3_diropres r;
	uint8_t *buf;

	sattr_to_v3(s, &a.symlink_attributes);
	if (!call3(x, NFS3PROC_SYMLINK, nfs3_enc_symlink_args, &a,
		   nfs3_dec_diropres, &r, &buf))
		return RPC_SYSTEM_ERR;
	free(buf);
	return reply_stat(x, r.status);
}

/*
 *	union readdirres switch (stat status) {
 *	case NFS_OK: struct { entry *entries; bool eof; } readdirok;
 *	default: void;
 *	};
 * As many entries as fit in count bytes of reply.
 */
static uint32_t do_readdir(struct ctx *x, struct xdr_dec *d,
			   const struct nfs_fh3 *fh)
{
	struct nfs3_readdir_args a = { .dir = *fh };
	struct nfs3_readdir_res r;
	struct nfs3_entry ent;
	uint32_t cookie2, count;
	size_t used = 4 + 8; /* status; final FALSE and eof */
	bool eof;
	uint8_t *buf;

	if (xdr_dec_u32(d, &cookie2) || xdr_dec_u32(d, &count))
		return RPC_GARBAGE_ARGS;
	if (map_cookie_to_v3(cookie2, &a.cookie, a.cookieverf))
		return reply_stat(x, NFS3ERR_INVAL);
	a.count = count < NFS2_MAXDATA ? count : NFS2_MAXDATA;
	if (!call3(x, NFS3PROC_READDIR, nfs3_enc_readdir_args, &a,
		   nfs3_dec_readdir_res, &r, &buf))
		return RPC_SYSTEM_ERR;
	xdr_enc_u32(x->e, stat_to_v2(r.status));
	if (r.status != NFS3_OK) {
		free(buf);
		return RPC_SUCCESS;
	}
	eof = r.eof;
	while (nfs3_readdir_next(&r.entries, &ent) == 1) {
		size_t sz = 4 + 4 + 4 + ent.namelen + xdr_pad(ent.namelen) + 4;

		if (used + sz > count || ent.namelen > NFS2_MAXNAMLEN) {
			eof = false;
			break;
		}
		used += sz;
		xdr_enc_bool(x->e, true);
		xdr_enc_u32(x->e, (uint32_t)ent.fileid);
		xdr_enc_opaque(x->e, NFS2_MAXNAMLEN, ent.name, ent.namelen);
		xdr_enc_u32(x->e, map_cookie_to_v2(ent.cookie, r.cookieverf));
	}
	xdr_enc_bool(x->e, false);
	xdr_enc_bool(x->e, eof);
	free(buf);
	return RPC_SUCCESS;
}

static uint32_t do_statfs(struct ctx *x, const struct nfs_fh3 *fh)
{
	struct nfs3_fsstat_args a = { *fh };
	struct nfs3_fsstat_res r;
	uint32_t bsize = 4096;
	uint8_t *buf;

	if (!call3(x, NFS3PROC_FSSTAT, nfs3_enc_fsstat_args, &a,
		   nfs3_dec_fsstat_res, &r, &buf))
		return RPC_SYSTEM_ERR;
	free(buf);
	xdr_enc_u32(x->e, stat_to_v2(r.status));
	if (r.status != NFS3_OK)
		return RPC_SUCCESS;
	/* A bigger block when the counts would not fit 32 bits. */
	while (r.tbytes / bsize > UINT32_MAX && bsize < (1u << 30))
		bsize *= 2;
	xdr_enc_u32(x->e, NFS2_MAXDATA); /* tsize */
	xdr_enc_u32(x->e, bsize);
	xdr_enc_u32(x->e, lo32(r.tbytes / bsize));
	xdr_enc_u32(x->e, lo32(r.fbytes / bsize));
	xdr_enc_u32(x->e, lo32(r.abytes / bsize));
	return RPC_SUCCESS;
}

uint32_t nfs2_serve(struct conn *c, uint32_t proc,
		    const struct rpc_cred *cred, struct xdr_dec *d,
		    struct xdr_enc *e)
{
	struct ctx x = { c, cred, e };
	struct dirop w, w2;
	struct nfs_fh3 fh;
	struct nfs2_sattr s;
	bool stale = false;

	switch (proc) {
	case NFS2PROC_NULL:
	case NFS2PROC_ROOT:
	case NFS2PROC_WRITECACHE:
		return RPC_SUCCESS;
	case NFS2PROC_GETATTR:
	case NFS2PROC_SETATTR:
	case NFS2PROC_READLINK:
	case NFS2PROC_READ:
	case NFS2PROC_WRITE:
	case NFS2PROC_READDIR:
	case NFS2PROC_STATFS:
	case NFS2PROC_LINK:
		if (dec_fh(d, &fh, &stale))
			return RPC_GARBAGE_ARGS;
		break;
	case NFS2PROC_LOOKUP:
	case NFS2PROC_CREATE:
	case NFS2PROC_REMOVE:
	case NFS2PROC_RENAME:
	case NFS2PROC_SYMLINK:
	case NFS2PROC_MKDIR:
	case NFS2PROC_RMDIR:
		if (dec_dirop(d, &w, &stale))
			return RPC_GARBAGE_ARGS;
		break;
	default:
		return RPC_PROC_UNAVAIL;
	}
	/* The rest of the arguments of the procedures that have more. */
	switch (proc) {
	case NFS2PROC_LINK:
	case NFS2PROC_RENAME:
		if (dec_dirop(d, &w2, &stale))
			return RPC_GARBAGE_ARGS;
		break;
	case NFS2PROC_CREATE:
	case NFS2PROC_MKDIR:
		if (nfs2_dec_sattr(d, &s))
			return RPC_GARBAGE_ARGS;
		break;
	}
	if (stale)
		return reply_stat(&x, NFS3ERR_STALE);

	switch (proc) {
	case NFS2PROC_GETATTR:
		return do_getattr(&x, &fh);
	case NFS2PROC_SETATTR:
		return do_setattr(&x, d, &fh);
	case NFS2PROC_LOOKUP:
		return do_lookup(&x, &w);
	case NFS2PROC_READLINK:
		return do_readlink(&x, &fh);
	case NFS2PROC_READ:
		return do_read(&x, d, &fh);
	case NFS2PROC_WRITE:
		return do_write(&x, d, &fh);
	case NFS2PROC_CREATE:
		return do_create(&x, &w, &s,
				 s.mode == NFS2_SATTR_NOT_SET
					 ? 0
					 : s.mode & NFS2MODE_FMT);
	case NFS2PROC_MKDIR:
		return do_create(&x, &w, &s, NFS2MODE_DIR);
	case NFS2PROC_REMOVE:
		return do_remove(&x, NFS3PROC_REMOVE, &w);
	case NFS2PROC_RMDIR:
		return do_remove(&x, NFS3PROC_RMDIR, &w);
	case NFS2PROC_RENAME:
		return do_rename(&x, &w, &w2);
	case NFS2PROC_LINK:
		return do_link(&x, &fh, &w2);
	case NFS2PROC_SYMLINK: {
		char target[NFS2_MAXPATHLEN + 1];
		const char *p;
		uint32_t len;

		if (xdr_dec_string(d, NFS2_MAXPATHLEN, &p, &len) ||
		    nfs2_dec_sattr(d, &s))
			return RPC_GARBAGE_ARGS;
		memcpy(target, p, len);
		target[len] = '\0';
		return do_symlink(&x, &w, target, &s);
	}
	case NFS2PROC_READDIR:
		return do_readdir(&x, d, &fh);
	case NFS2PROC_STATFS:
		return do_statfs(&x, &fh);
	}
	return RPC_PROC_UNAVAIL;
}
