/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFS version 3 (RFC 1813): the names of procedures and statuses, and the
 * codecs of the data types shared by the procedures (section 2.5/2.6).
 * The per-procedure codecs are in nfs3.c.
 */
#include "nfs3.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#define NFS3_FATTR3_SIZE 84 /* 5 * uint32 + 8 * uint64 (rdev, times: 2 * 4) */
#define NFS3_WCC_ATTR_SIZE 24

const char *const nfs3_proc_names[NFS3PROC_COUNT] = {
	[NFS3PROC_NULL] = "NULL",
	[NFS3PROC_GETATTR] = "GETATTR",
	[NFS3PROC_SETATTR] = "SETATTR",
	[NFS3PROC_LOOKUP] = "LOOKUP",
	[NFS3PROC_ACCESS] = "ACCESS",
	[NFS3PROC_READLINK] = "READLINK",
	[NFS3PROC_READ] = "READ",
	[NFS3PROC_WRITE] = "WRITE",
	[NFS3PROC_CREATE] = "CREATE",
	[NFS3PROC_MKDIR] = "MKDIR",
	[NFS3PROC_SYMLINK] = "SYMLINK",
	[NFS3PROC_MKNOD] = "MKNOD",
	[NFS3PROC_REMOVE] = "REMOVE",
	[NFS3PROC_RMDIR] = "RMDIR",
	[NFS3PROC_RENAME] = "RENAME",
	[NFS3PROC_LINK] = "LINK",
	[NFS3PROC_READDIR] = "READDIR",
	[NFS3PROC_READDIRPLUS] = "READDIRPLUS",
	[NFS3PROC_FSSTAT] = "FSSTAT",
	[NFS3PROC_FSINFO] = "FSINFO",
	[NFS3PROC_PATHCONF] = "PATHCONF",
	[NFS3PROC_COMMIT] = "COMMIT",
};

const struct nfs_fh3 *nfs3_args_fh(enum nfs3_proc proc, const void *args,
				   const struct nfs_fh3 **other)
{
	*other = NULL;
	switch (proc) {
	case NFS3PROC_NULL:
	case NFS3PROC_COUNT:
		return NULL;
	case NFS3PROC_LOOKUP:
		return ((const struct nfs3_lookup_args *)args)->what.dir;
	case NFS3PROC_CREATE:
		return ((const struct nfs3_create_args *)args)->where.dir;
	case NFS3PROC_MKDIR:
		return ((const struct nfs3_mkdir_args *)args)->where.dir;
	case NFS3PROC_SYMLINK:
		return ((const struct nfs3_symlink_args *)args)->where.dir;
	case NFS3PROC_MKNOD:
		return ((const struct nfs3_mknod_args *)args)->where.dir;
	case NFS3PROC_REMOVE:
	case NFS3PROC_RMDIR:
		return ((const struct nfs3_remove_args *)args)->object.dir;
	case NFS3PROC_RENAME: {
		const struct nfs3_rename_args *a = args;

		*other = a->to.dir;
		return a->from.dir;
	}
	case NFS3PROC_LINK: {
		const struct nfs3_link_args *a = args;

		*other = a->link.dir;
		return &a->file;
	}
	case NFS3PROC_GETATTR:
		return &((const struct nfs3_getattr_args *)args)->object;
	case NFS3PROC_SETATTR:
		return &((const struct nfs3_setattr_args *)args)->object;
	case NFS3PROC_ACCESS:
		return &((const struct nfs3_access_args *)args)->object;
	case NFS3PROC_READLINK:
		return &((const struct nfs3_readlink_args *)args)->symlink;
	case NFS3PROC_READ:
		return &((const struct nfs3_read_args *)args)->file;
	case NFS3PROC_WRITE:
		return &((const struct nfs3_write_args *)args)->file;
	case NFS3PROC_READDIR:
		return &((const struct nfs3_readdir_args *)args)->dir;
	case NFS3PROC_READDIRPLUS:
		return &((const struct nfs3_readdirplus_args *)args)->dir;
	case NFS3PROC_FSSTAT:
		return &((const struct nfs3_fsstat_args *)args)->fsroot;
	case NFS3PROC_FSINFO:
		return &((const struct nfs3_fsinfo_args *)args)->fsroot;
	case NFS3PROC_PATHCONF:
		return &((const struct nfs3_pathconf_args *)args)->object;
	case NFS3PROC_COMMIT:
		return &((const struct nfs3_commit_args *)args)->file;
	}
	return NULL;
}

#define STATUS_FIRST(t) \
	_Static_assert(offsetof(struct t, status) == 0, #t "'s status first")
STATUS_FIRST(nfs3_getattr_res);
STATUS_FIRST(nfs3_setattr_res);
STATUS_FIRST(nfs3_lookup_res);
STATUS_FIRST(nfs3_access_res);
STATUS_FIRST(nfs3_readlink_res);
STATUS_FIRST(nfs3_read_res);
STATUS_FIRST(nfs3_write_res);
STATUS_FIRST(nfs3_diropres);
STATUS_FIRST(nfs3_wccstat_res);
STATUS_FIRST(nfs3_rename_res);
STATUS_FIRST(nfs3_link_res);
STATUS_FIRST(nfs3_readdir_res);
STATUS_FIRST(nfs3_readdirplus_res);
STATUS_FIRST(nfs3_fsstat_res);
STATUS_FIRST(nfs3_fsinfo_res);
STATUS_FIRST(nfs3_pathconf_res);
STATUS_FIRST(nfs3_commit_res);

uint32_t nfs3_res_status(enum nfs3_proc proc, const void *res)
{
	/* C gives a struct's first member the struct's address. */
	if (proc == NFS3PROC_NULL || proc >= NFS3PROC_COUNT || !res)
		return NFS3_OK;
	return *(const uint32_t *)res;
}

const char *nfs3_stat_name(uint32_t status)
{
	switch (status) {
	case NFS3_OK: return "NFS3_OK";
	case NFS3ERR_PERM: return "NFS3ERR_PERM";
	case NFS3ERR_NOENT: return "NFS3ERR_NOENT";
	case NFS3ERR_IO: return "NFS3ERR_IO";
	case NFS3ERR_NXIO: return "NFS3ERR_NXIO";
	case NFS3ERR_ACCES: return "NFS3ERR_ACCES";
	case NFS3ERR_EXIST: return "NFS3ERR_EXIST";
	case NFS3ERR_XDEV: return "NFS3ERR_XDEV";
	case NFS3ERR_NODEV: return "NFS3ERR_NODEV";
	case NFS3ERR_NOTDIR: return "NFS3ERR_NOTDIR";
	case NFS3ERR_ISDIR: return "NFS3ERR_ISDIR";
	case NFS3ERR_INVAL: return "NFS3ERR_INVAL";
	case NFS3ERR_FBIG: return "NFS3ERR_FBIG";
	case NFS3ERR_NOSPC: return "NFS3ERR_NOSPC";
	case NFS3ERR_ROFS: return "NFS3ERR_ROFS";
	case NFS3ERR_MLINK: return "NFS3ERR_MLINK";
	case NFS3ERR_NAMETOOLONG: return "NFS3ERR_NAMETOOLONG";
	case NFS3ERR_NOTEMPTY: return "NFS3ERR_NOTEMPTY";
	case NFS3ERR_DQUOT: return "NFS3ERR_DQUOT";
	case NFS3ERR_STALE: return "NFS3ERR_STALE";
	case NFS3ERR_REMOTE: return "NFS3ERR_REMOTE";
	case NFS3ERR_BADHANDLE: return "NFS3ERR_BADHANDLE";
	case NFS3ERR_NOT_SYNC: return "NFS3ERR_NOT_SYNC";
	case NFS3ERR_BAD_COOKIE: return "NFS3ERR_BAD_COOKIE";
	case NFS3ERR_NOTSUPP: return "NFS3ERR_NOTSUPP";
	case NFS3ERR_TOOSMALL: return "NFS3ERR_TOOSMALL";
	case NFS3ERR_SERVERFAULT: return "NFS3ERR_SERVERFAULT";
	case NFS3ERR_BADTYPE: return "NFS3ERR_BADTYPE";
	case NFS3ERR_JUKEBOX: return "NFS3ERR_JUKEBOX";
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

/*
 * nfs_fh3
 *
 *	struct nfs_fh3 {
 *		opaque data<NFS3_FHSIZE>;
 *	};
 */
/* nfstime3, as the wire can hold it (nfstime3_wire). */
static void put_time(uint8_t *p, const struct nfstime3 *t)
{
	struct nfstime3 w = nfstime3_wire(t);

	xdr_put_u32(p, (uint32_t)w.seconds);
	xdr_put_u32(p + 4, w.nseconds);
}

int nfs3_enc_nfstime3(struct xdr_enc *e, const struct nfstime3 *t)
{
	struct nfstime3 w = nfstime3_wire(t);

	xdr_enc_u32(e, (uint32_t)w.seconds);
	return xdr_enc_u32(e, w.nseconds);
}

int nfs3_enc_fh3(struct xdr_enc *e, const struct nfs_fh3 *fh)
{
	if (!fh || fh->len > NFS3_FHSIZE)
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque(e, NFS3_FHSIZE, fh->data, fh->len);
}

int nfs3_dec_fh3(struct xdr_dec *d, struct nfs_fh3 *fh)
{
	const uint8_t *p;
	uint32_t len;
	int ret = xdr_dec_opaque(d, NFS3_FHSIZE, &p, &len);

	if (ret)
		return ret;
	fh->len = len;
	memcpy(fh->data, p, len);
	return 0;
}

/*
 * fattr3
 *
 *	struct fattr3 {
 *		ftype3     type;
 *		mode3      mode;
 *		uint32     nlink;
 *		uid3       uid;
 *		gid3       gid;
 *		size3      size;
 *		size3      used;
 *		specdata3  rdev;
 *		uint64     fsid;
 *		fileid3    fileid;
 *		nfstime3   atime;
 *		nfstime3   mtime;
 *		nfstime3   ctime;
 *	};
 *
 * A fixed 84-byte record: checked once, then decoded straight.
 */
int nfs3_dec_fattr3(struct xdr_dec *d, struct fattr3 *a)
{
	const uint8_t *p = xdr_dec_inline(d, NFS3_FATTR3_SIZE);

	if (!p)
		return -EBADMSG;
	a->type = xdr_get_u32(p);
	a->mode = xdr_get_u32(p + 4);
	a->nlink = xdr_get_u32(p + 8);
	a->uid = xdr_get_u32(p + 12);
	a->gid = xdr_get_u32(p + 16);
	a->size = xdr_get_u64(p + 20);
	a->used = xdr_get_u64(p + 28);
	a->rdev.specdata1 = xdr_get_u32(p + 36);
	a->rdev.specdata2 = xdr_get_u32(p + 40);
	a->fsid = xdr_get_u64(p + 44);
	a->fileid = xdr_get_u64(p + 52);
	a->atime.seconds = xdr_get_u32(p + 60);
	a->atime.nseconds = xdr_get_u32(p + 64);
	a->mtime.seconds = xdr_get_u32(p + 68);
	a->mtime.nseconds = xdr_get_u32(p + 72);
	a->ctime.seconds = xdr_get_u32(p + 76);
	a->ctime.nseconds = xdr_get_u32(p + 80);
	a->change = 0;
	return 0;
}

int nfs3_enc_fattr3(struct xdr_enc *e, const struct fattr3 *a)
{
	uint8_t *p;

	if (!a)
		return enc_fail(e, -EINVAL);
	p = xdr_enc_reserve(e, NFS3_FATTR3_SIZE);
	if (!p)
		return e->err;
	xdr_put_u32(p, a->type);
	xdr_put_u32(p + 4, a->mode);
	xdr_put_u32(p + 8, a->nlink);
	xdr_put_u32(p + 12, a->uid);
	xdr_put_u32(p + 16, a->gid);
	xdr_put_u32(p + 20, (uint32_t)(a->size >> 32));
	xdr_put_u32(p + 24, (uint32_t)a->size);
	xdr_put_u32(p + 28, (uint32_t)(a->used >> 32));
	xdr_put_u32(p + 32, (uint32_t)a->used);
	xdr_put_u32(p + 36, a->rdev.specdata1);
	xdr_put_u32(p + 40, a->rdev.specdata2);
	xdr_put_u32(p + 44, (uint32_t)(a->fsid >> 32));
	xdr_put_u32(p + 48, (uint32_t)a->fsid);
	xdr_put_u32(p + 52, (uint32_t)(a->fileid >> 32));
	xdr_put_u32(p + 56, (uint32_t)a->fileid);
	put_time(p + 60, &a->atime);
	put_time(p + 68, &a->mtime);
	put_time(p + 76, &a->ctime);
	return 0;
}

/*
 * post_op_attr
 *
 *	union post_op_attr switch (bool attributes_follow) {
 *	case TRUE:
 *		fattr3   attributes;
 *	case FALSE:
 *		void;
 *	};
 */
int nfs3_dec_post_op_attr(struct xdr_dec *d, struct post_op_attr *a)
{
	int ret = xdr_dec_bool(d, &a->present);

	if (ret || !a->present)
		return ret;
	return nfs3_dec_fattr3(d, &a->attr);
}

int nfs3_enc_post_op_attr(struct xdr_enc *e, const struct post_op_attr *a)
{
	if (!a)
		return enc_fail(e, -EINVAL);
	xdr_enc_bool(e, a->present);
	if (a->present)
		nfs3_enc_fattr3(e, &a->attr);
	return e->err;
}

/*
 * wcc_attr, pre_op_attr
 *
 *	struct wcc_attr {
 *		size3     size;
 *		nfstime3  mtime;
 *		nfstime3  ctime;
 *	};
 *
 *	union pre_op_attr switch (bool attributes_follow) {
 *	case TRUE:
 *		wcc_attr  attributes;
 *	case FALSE:
 *		void;
 *	};
 */
static int dec_wcc_attr(struct xdr_dec *d, struct wcc_attr *a)
{
	const uint8_t *p = xdr_dec_inline(d, NFS3_WCC_ATTR_SIZE);

	if (!p)
		return -EBADMSG;
	a->size = xdr_get_u64(p);
	a->mtime.seconds = xdr_get_u32(p + 8);
	a->mtime.nseconds = xdr_get_u32(p + 12);
	a->ctime.seconds = xdr_get_u32(p + 16);
	a->ctime.nseconds = xdr_get_u32(p + 20);
	a->change = 0;
	return 0;
}

static int dec_pre_op_attr(struct xdr_dec *d, struct pre_op_attr *a)
{
	int ret = xdr_dec_bool(d, &a->present);

	if (ret || !a->present)
		return ret;
	return dec_wcc_attr(d, &a->attr);
}

static int enc_pre_op_attr(struct xdr_enc *e, const struct pre_op_attr *a)
{
	xdr_enc_bool(e, a->present);
	if (a->present) {
		xdr_enc_u64(e, a->attr.size);
		nfs3_enc_nfstime3(e, &a->attr.mtime);
		nfs3_enc_nfstime3(e, &a->attr.ctime);
	}
	return e->err;
}

/*
 * wcc_data
 *
 *	struct wcc_data {
 *		pre_op_attr   before;
 *		post_op_attr  after;
 *	};
 */
int nfs3_dec_wcc_data(struct xdr_dec *d, struct wcc_data *w)
{
	int ret = dec_pre_op_attr(d, &w->before);

	if (ret)
		return ret;
	return nfs3_dec_post_op_attr(d, &w->after);
}

int nfs3_enc_wcc_data(struct xdr_enc *e, const struct wcc_data *w)
{
	if (!w)
		return enc_fail(e, -EINVAL);
	enc_pre_op_attr(e, &w->before);
	return nfs3_enc_post_op_attr(e, &w->after);
}

/*
 * post_op_fh3
 *
 *	union post_op_fh3 switch (bool handle_follows) {
 *	case TRUE:
 *		nfs_fh3  handle;
 *	case FALSE:
 *		void;
 *	};
 */
int nfs3_dec_post_op_fh3(struct xdr_dec *d, struct post_op_fh3 *fh)
{
	int ret = xdr_dec_bool(d, &fh->present);

	if (ret || !fh->present)
		return ret;
	return nfs3_dec_fh3(d, &fh->fh);
}

/*
 * set_time (set_atime, set_mtime)
 *
 *	union set_atime switch (time_how set_it) {
 *	case SET_TO_CLIENT_TIME:
 *		nfstime3  atime;
 *	default:
 *		void;
 *	};
 *
 * Only the three time_how values exist; anything else is a caller bug.
 */
static int enc_set_time(struct xdr_enc *e, uint32_t how,
			const struct nfstime3 *t)
{
	switch (how) {
	case DONT_CHANGE:
	case SET_TO_SERVER_TIME:
		return xdr_enc_u32(e, how);
	case SET_TO_CLIENT_TIME:
		xdr_enc_u32(e, how);
		return nfs3_enc_nfstime3(e, t);
	}
	return enc_fail(e, -EINVAL);
}

/*
 * sattr3
 *
 *	union set_mode3 switch (bool set_it) {
 *	case TRUE:
 *		mode3  mode;
 *	default:
 *		void;
 *	};
 *	(set_uid3, set_gid3: uid3/gid3 alike; set_size3: size3 size)
 *
 *	struct sattr3 {
 *		set_mode3  mode;
 *		set_uid3   uid;
 *		set_gid3   gid;
 *		set_size3  size;
 *		set_atime  atime;
 *		set_mtime  mtime;
 *	};
 */
int nfs3_enc_sattr3(struct xdr_enc *e, const struct sattr3 *s)
{
	if (!s)
		return enc_fail(e, -EINVAL);
	xdr_enc_bool(e, s->set_mode);
	if (s->set_mode)
		xdr_enc_u32(e, s->mode);
	xdr_enc_bool(e, s->set_uid);
	if (s->set_uid)
		xdr_enc_u32(e, s->uid);
	xdr_enc_bool(e, s->set_gid);
	if (s->set_gid)
		xdr_enc_u32(e, s->gid);
	xdr_enc_bool(e, s->set_size);
	if (s->set_size)
		xdr_enc_u64(e, s->size);
	enc_set_time(e, s->set_atime, &s->atime);
	return enc_set_time(e, s->set_mtime, &s->mtime);
}

/*
 * diropargs3
 *
 *	struct diropargs3 {
 *		nfs_fh3    dir;
 *		filename3  name;
 *	};
 *
 * The name must be 1..NFS3_MAXNAMLEN bytes; strnlen() so that an
 * unterminated or huge name is not scanned to its end.
 */
int nfs3_enc_diropargs3(struct xdr_enc *e, const struct diropargs3 *a)
{
	size_t len;

	if (!a || !a->dir || !a->name)
		return enc_fail(e, -EINVAL);
	len = strnlen(a->name, NFS3_MAXNAMLEN + 1);
	if (len == 0 || len > NFS3_MAXNAMLEN)
		return enc_fail(e, -EINVAL);
	nfs3_enc_fh3(e, a->dir);
	return xdr_enc_opaque(e, NFS3_MAXNAMLEN, a->name, len);
}

/*
 * entry3, entryplus3
 *
 *	struct entry3 {
 *		fileid3    fileid;
 *		filename3  name;
 *		cookie3    cookie;
 *		entry3     *nextentry;
 *	};
 *
 *	struct entryplus3 {
 *		fileid3      fileid;
 *		filename3    name;
 *		cookie3      cookie;
 *		post_op_attr name_attributes;
 *		post_op_fh3  name_handle;
 *		entryplus3   *nextentry;
 *	};
 *
 * An optional-data pointer is a bool "value follows" before each entry,
 * FALSE at the end of the list.  One step of the list: 1 and *e filled
 * after a TRUE, 0 after the FALSE or on an empty cursor, -EBADMSG when the
 * entry is malformed.  The READDIR decoders in nfs3.c walk the list with
 * these very functions (refusing an empty cursor as truncation), so the
 * caller's second walk cannot meet anything the first did not check.
 */
static int dec_entry(struct xdr_dec *it, bool plus, struct nfs3_entryplus *e)
{
	bool follows;
	int ret;

	if (xdr_dec_left(it) == 0)
		return 0;
	ret = xdr_dec_bool(it, &follows);
	if (ret || !follows)
		return ret;
	memset(e, 0, sizeof(*e));
	ret = xdr_dec_u64(it, &e->fileid);
	if (ret)
		return ret;
	ret = xdr_dec_string(it, NFS3_MAXNAMLEN, &e->name, &e->namelen);
	if (ret)
		return ret;
	ret = xdr_dec_u64(it, &e->cookie);
	if (ret)
		return ret;
	if (plus) {
		ret = nfs3_dec_post_op_attr(it, &e->name_attributes);
		if (ret)
			return ret;
		ret = nfs3_dec_post_op_fh3(it, &e->name_handle);
		if (ret)
			return ret;
	}
	return 1;
}

int nfs3_readdir_next(struct xdr_dec *it, struct nfs3_entry *e)
{
	struct nfs3_entryplus ep;
	int ret = dec_entry(it, false, &ep);

	if (ret == 1) {
		e->fileid = ep.fileid;
		e->name = ep.name;
		e->namelen = ep.namelen;
		e->cookie = ep.cookie;
	}
	return ret;
}

int nfs3_readdirplus_next(struct xdr_dec *it, struct nfs3_entryplus *e)
{
	return dec_entry(it, true, e);
}
