/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv2 (RFC 1094) behind the version-neutral client.  Each entry takes
 * the NFSv3 arguments of xdr/nfs3.h, puts the NFSv2 call on the wire
 * (xdr/nfs2.c) and turns the NFSv2 result back into the NFSv3 one, so that
 * the caches and the FUSE layer never see the difference.  What v2 cannot
 * say is refused before anything is sent:
 *
 *   - handles are 32 bytes (a handle of any other length: -EINVAL);
 *   - sizes and offsets are 32 bits: a READ starting past NFS2_MAXFILESIZE
 *     gives -EOVERFLOW, a WRITE or a SETATTR of the size reaching past it
 *     -EFBIG (nothing is ever cut to 32 bits and sent);
 *   - directory cookies are 32 bits: a larger one is -EINVAL (ours only
 *     ever come from v2 entries, so this does not happen);
 *   - SETATTR has no guard: a guarded SETATTR is -ENOTSUP.
 *
 * What v2 lacks:
 *   - no wcc data: every wcc_data has no pre-op part; the post-op part is
 *     the attributes the reply carries (attrstat), so the attribute cache
 *     learns from replies and otherwise relies on its timeouts;
 *   - no ACCESS, PATHCONF, COMMIT: no entry (-ENOTSUP without a call);
 *     v2 WRITEs are synchronous, so each is reported FILE_SYNC and the
 *     write-back never needs a COMMIT;
 *   - FSINFO is answered from STATFS (tsize; time_delta 1 s; the 32-bit
 *     file size limit);
 *   - MKNOD is a CREATE whose mode carries the file type (the Sun
 *     convention: a FIFO is a character device with no size, a device
 *     number travels in the size field);
 *   - READDIRPLUS is a READDIR whose entries have neither attributes nor
 *     handles (READDIRPLUS3 allows both to be absent): the FUSE layer then
 *     LOOKUPs the names it needs, as for any such entry.
 *
 * Results that need more than the reply bytes get a fixup (nfs.h): WRITE
 * (the count, which v2 does not echo), READ (eof, which v2 does not send)
 * and the two READDIRs (entries rewritten in the NFSv3 format into a
 * buffer that replaces the reply buffer).
 */
#include "nfs.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "../../xdr/nfs2.h"

/* The write verifier of every v2 WRITE: there is none on the wire, and
 * FILE_SYNC data never needs to be sent again. */
static const uint8_t nfs2_verf[NFS3_WRITEVERFSIZE] = { 'n', 'f', 's', 'v',
						       '2', 0, 0, 0 };

/* ---- arguments ---- */

static int dirop_from(const struct diropargs3 *a, struct nfs2_fh *fh,
		      struct nfs2_diropargs *out)
{
	size_t len;

	if (!a->dir || !a->name || nfs2_fh_from_fh3(a->dir, fh))
		return -EINVAL;
	len = strnlen(a->name, NFS2_MAXNAMLEN + 1);
	if (len == 0)
		return -EINVAL;
	if (len > NFS2_MAXNAMLEN)
		return -ENAMETOOLONG;
	out->dir = fh;
	out->name = a->name;
	return 0;
}

static int sattr_from(const struct sattr3 *s, struct nfs2_sattr *out)
{
	struct timespec ts;
	struct nfstime3 now = { 0, 0 };

	if (s->set_atime == SET_TO_SERVER_TIME ||
	    s->set_mtime == SET_TO_SERVER_TIME) {
		clock_gettime(CLOCK_REALTIME, &ts);
		now.seconds = (uint32_t)ts.tv_sec;
		now.nseconds = (uint32_t)ts.tv_nsec;
	}
	return nfs2_sattr_from_sattr3(s, out, &now);
}

/* GETATTR, READLINK, STATFS (for FSSTAT and FSINFO): a bare handle.  The
 * three v3 argument structs are one nfs_fh3 each. */
static int enc_fh_only(struct xdr_enc *e, const struct nfs_fh3 *fh3)
{
	struct nfs2_fh fh;

	if (nfs2_fh_from_fh3(fh3, &fh))
		return -EINVAL;
	return nfs2_enc_fh(e, &fh);
}

static int enc_getattr(struct xdr_enc *e, const void *args)
{
	return enc_fh_only(e, &((const struct nfs3_getattr_args *)args)->object);
}

static int enc_readlink(struct xdr_enc *e, const void *args)
{
	return enc_fh_only(e,
			   &((const struct nfs3_readlink_args *)args)->symlink);
}

static int enc_fsstat(struct xdr_enc *e, const void *args)
{
	return enc_fh_only(e, &((const struct nfs3_fsstat_args *)args)->fsroot);
}

static int enc_fsinfo(struct xdr_enc *e, const void *args)
{
	return enc_fh_only(e, &((const struct nfs3_fsinfo_args *)args)->fsroot);
}

static int enc_setattr(struct xdr_enc *e, const void *args)
{
	const struct nfs3_setattr_args *a = args;
	struct nfs2_setattr_args v2;
	int ret;

	if (a->guard_check)
		return -ENOTSUP;
	if (nfs2_fh_from_fh3(&a->object, &v2.file))
		return -EINVAL;
	ret = sattr_from(&a->new_attributes, &v2.attributes);
	if (ret)
		return ret;
	return nfs2_enc_setattr_args(e, &v2);
}

static int enc_lookup(struct xdr_enc *e, const void *args)
{
	const struct nfs3_lookup_args *a = args;
	struct nfs2_lookup_args v2;
	struct nfs2_fh dir;
	int ret = dirop_from(&a->what, &dir, &v2.what);

	if (ret)
		return ret;
	return nfs2_enc_lookup_args(e, &v2);
}

static int enc_read(struct xdr_enc *e, const void *args)
{
	const struct nfs3_read_args *a = args;
	struct nfs2_read_args v2;
	int ret;

	if (nfs2_fh_from_fh3(&a->file, &v2.file))
		return -EINVAL;
	/* A count over NFS2_MAXDATA or reaching past the limit is cut: a
	 * short read, which the callers take as such. */
	ret = nfs2_read_range(a->offset, a->count, &v2.offset, &v2.count);
	if (ret)
		return ret;
	v2.totalcount = v2.count;
	return nfs2_enc_read_args(e, &v2);
}

static int enc_write(struct xdr_enc *e, const void *args)
{
	const struct nfs3_write_args *a = args;
	struct nfs2_write_args v2;
	int ret;

	if (nfs2_fh_from_fh3(&a->file, &v2.file))
		return -EINVAL;
	/* The write-back cannot take a short write: all or nothing. */
	if (a->count > NFS2_MAXDATA)
		return -EINVAL;
	ret = nfs2_write_range(a->offset, a->count, &v2.offset, &v2.count);
	if (ret)
		return ret;
	if (v2.count != a->count)
		return -EFBIG;
	v2.beginoffset = 0;
	v2.totalcount = 0;
	v2.data = a->data;
	return nfs2_enc_write_args(e, &v2);
}

static int enc_create(struct xdr_enc *e, const void *args)
{
	const struct nfs3_create_args *a = args;
	struct nfs2_create_args v2;
	struct nfs2_fh dir;
	int ret = dirop_from(&a->where, &dir, &v2.where);

	if (ret)
		return ret;
	/* v2 has one kind of CREATE: neither GUARDED nor EXCLUSIVE can be
	 * said.  EXCLUSIVE carries no attributes (a SETATTR follows). */
	if (a->mode == EXCLUSIVE)
		nfs2_sattr_none(&v2.attributes);
	else if ((ret = sattr_from(&a->obj_attributes, &v2.attributes)))
		return ret;
	return nfs2_enc_create_args(e, &v2);
}

static int enc_mkdir(struct xdr_enc *e, const void *args)
{
	const struct nfs3_mkdir_args *a = args;
	struct nfs2_mkdir_args v2;
	struct nfs2_fh dir;
	int ret = dirop_from(&a->where, &dir, &v2.where);

	if (ret)
		return ret;
	ret = sattr_from(&a->attributes, &v2.attributes);
	if (ret)
		return ret;
	return nfs2_enc_mkdir_args(e, &v2);
}

static int enc_symlink(struct xdr_enc *e, const void *args)
{
	const struct nfs3_symlink_args *a = args;
	struct nfs2_symlink_args v2;
	struct nfs2_fh dir;
	int ret = dirop_from(&a->where, &dir, &v2.from);

	if (ret)
		return ret;
	if (!a->symlink_data)
		return -EINVAL;
	if (strnlen(a->symlink_data, NFS2_MAXPATHLEN + 1) > NFS2_MAXPATHLEN)
		return -ENAMETOOLONG;
	ret = sattr_from(&a->symlink_attributes, &v2.attributes);
	if (ret)
		return ret;
	v2.to = a->symlink_data;
	return nfs2_enc_symlink_args(e, &v2);
}

/*
 * MKNOD as a CREATE (the Sun and Linux v2 convention): the file type in
 * the mode; a FIFO as a character device whose size is not set; a device
 * number in the size field, as Linux's new_encode_dev() packs it.
 */
static int enc_mknod(struct xdr_enc *e, const void *args)
{
	const struct nfs3_mknod_args *a = args;
	struct nfs2_create_args v2;
	struct nfs2_fh dir;
	uint32_t maj = a->spec.specdata1, min = a->spec.specdata2;
	int ret = dirop_from(&a->where, &dir, &v2.where);

	if (ret)
		return ret;
	ret = sattr_from(&a->attributes, &v2.attributes);
	if (ret)
		return ret;
	if (v2.attributes.mode == NFS2_SATTR_NOT_SET)
		v2.attributes.mode = 0;
	v2.attributes.mode &= 07777;
	v2.attributes.size = NFS2_SATTR_NOT_SET;
	switch (a->type) {
	case NF3FIFO:
		v2.attributes.mode |= NFS2MODE_CHR;
		break;
	case NF3SOCK:
		v2.attributes.mode |= NFS2MODE_SOCK;
		break;
	case NF3CHR:
	case NF3BLK:
		if (maj > 0xfffu || min > 0xfffffu)
			return -EOVERFLOW;
		v2.attributes.mode |= a->type == NF3CHR ? NFS2MODE_CHR
							 : NFS2MODE_BLK;
		v2.attributes.size = (min & 0xffu) | (maj << 8) |
				     ((min & ~0xffu) << 12);
		break;
	default:
		return -EINVAL;
	}
	return nfs2_enc_create_args(e, &v2);
}

static int enc_remove(struct xdr_enc *e, const void *args)
{
	const struct nfs3_remove_args *a = args;
	struct nfs2_remove_args v2;
	struct nfs2_fh dir;
	int ret = dirop_from(&a->object, &dir, &v2.what);

	if (ret)
		return ret;
	return nfs2_enc_remove_args(e, &v2);
}

static int enc_rename(struct xdr_enc *e, const void *args)
{
	const struct nfs3_rename_args *a = args;
	struct nfs2_rename_args v2;
	struct nfs2_fh from, to;
	int ret = dirop_from(&a->from, &from, &v2.from);

	if (ret)
		return ret;
	ret = dirop_from(&a->to, &to, &v2.to);
	if (ret)
		return ret;
	return nfs2_enc_rename_args(e, &v2);
}

static int enc_link(struct xdr_enc *e, const void *args)
{
	const struct nfs3_link_args *a = args;
	struct nfs2_link_args v2;
	struct nfs2_fh dir;
	int ret;

	if (nfs2_fh_from_fh3(&a->file, &v2.from))
		return -EINVAL;
	ret = dirop_from(&a->link, &dir, &v2.to);
	if (ret)
		return ret;
	return nfs2_enc_link_args(e, &v2);
}

static int enc_readdir_v2(struct xdr_enc *e, const struct nfs_fh3 *dir,
			  uint64_t cookie, uint32_t count)
{
	struct nfs2_readdir_args v2;

	if (nfs2_fh_from_fh3(dir, &v2.dir) || cookie > UINT32_MAX)
		return -EINVAL;
	v2.cookie = (uint32_t)cookie;
	v2.count = count < NFS2_MAXDATA ? count : NFS2_MAXDATA;
	return nfs2_enc_readdir_args(e, &v2);
}

static int enc_readdir(struct xdr_enc *e, const void *args)
{
	const struct nfs3_readdir_args *a = args;

	return enc_readdir_v2(e, &a->dir, a->cookie, a->count);
}

static int enc_readdirplus(struct xdr_enc *e, const void *args)
{
	const struct nfs3_readdirplus_args *a = args;

	/* The v3 entries we make of it are bigger than the v2 ones, but
	 * they go to our own buffer, not over the wire. */
	return enc_readdir_v2(e, &a->dir, a->cookie, a->dircount);
}

/* ---- results ---- */

static void attr_from(const struct nfs2_fattr *a, struct post_op_attr *out)
{
	out->present = true;
	nfs2_fattr_to_fattr3(a, &out->attr);
}

/* attrstat -> wcc_data: no pre-op part; the post-op part on success. */
static int dec_attrstat_wcc(struct xdr_dec *d, uint32_t *status,
			    struct wcc_data *wcc)
{
	struct nfs2_attrstat r;
	int ret = nfs2_dec_attrstat(d, &r);

	if (ret)
		return ret;
	memset(wcc, 0, sizeof(*wcc));
	*status = nfs2_stat_to_nfsstat3(r.status);
	if (r.status == NFS2_OK)
		attr_from(&r.attributes, &wcc->after);
	return 0;
}

static int dec_getattr(struct xdr_dec *d, void *res)
{
	struct nfs3_getattr_res *out = res;
	struct nfs2_attrstat r;
	int ret = nfs2_dec_attrstat(d, &r);

	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	out->status = nfs2_stat_to_nfsstat3(r.status);
	if (r.status == NFS2_OK)
		nfs2_fattr_to_fattr3(&r.attributes, &out->obj_attributes);
	return 0;
}

static int dec_setattr(struct xdr_dec *d, void *res)
{
	struct nfs3_setattr_res *out = res;

	return dec_attrstat_wcc(d, &out->status, &out->obj_wcc);
}

static int dec_lookup(struct xdr_dec *d, void *res)
{
	struct nfs3_lookup_res *out = res;
	struct nfs2_diropres r;
	int ret = nfs2_dec_diropres(d, &r);

	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	out->status = nfs2_stat_to_nfsstat3(r.status);
	if (r.status == NFS2_OK) {
		nfs2_fh_to_fh3(&r.file, &out->object);
		attr_from(&r.attributes, &out->obj_attributes);
	}
	return 0;
}

static int dec_readlink(struct xdr_dec *d, void *res)
{
	struct nfs3_readlink_res *out = res;
	struct nfs2_readlink_res r;
	int ret = nfs2_dec_readlink_res(d, &r);

	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	out->status = nfs2_stat_to_nfsstat3(r.status);
	out->data = r.data;
	out->len = r.len;
	return 0;
}

static int dec_read(struct xdr_dec *d, void *res)
{
	struct nfs3_read_res *out = res;
	struct nfs2_read_res r;
	int ret = nfs2_dec_read_res(d, &r);

	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	out->status = nfs2_stat_to_nfsstat3(r.status);
	if (r.status == NFS2_OK) {
		attr_from(&r.attributes, &out->file_attributes);
		out->data = r.data;
		out->count = out->data_len = r.count;
	}
	return 0;
}

/* v2 has no eof: the data reaches the file size (as Linux decides). */
static int fix_read(const void *args, void *res, struct rpc_reply *reply)
{
	const struct nfs3_read_args *a = args;
	struct nfs3_read_res *r = res;

	(void)reply;
	if (r->status == NFS3_OK)
		r->eof = r->count == 0 ||
			 a->offset + r->count >= r->file_attributes.attr.size;
	return 0;
}

static int dec_write(struct xdr_dec *d, void *res)
{
	struct nfs3_write_res *out = res;

	memset(out, 0, sizeof(*out));
	return dec_attrstat_wcc(d, &out->status, &out->file_wcc);
}

/* A v2 WRITE writes everything or fails, and is on stable storage when
 * it is answered. */
static int fix_write(const void *args, void *res, struct rpc_reply *reply)
{
	const struct nfs3_write_args *a = args;
	struct nfs3_write_res *r = res;

	(void)reply;
	if (r->status == NFS3_OK) {
		r->count = a->count;
		r->committed = FILE_SYNC;
		memcpy(r->verf, nfs2_verf, sizeof(r->verf));
	}
	return 0;
}

/* diropres -> diropres3 (CREATE, MKDIR, MKNOD): no directory wcc. */
static int dec_diropres(struct xdr_dec *d, void *res)
{
	struct nfs3_diropres *out = res;
	struct nfs2_diropres r;
	int ret = nfs2_dec_diropres(d, &r);

	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	out->status = nfs2_stat_to_nfsstat3(r.status);
	if (r.status == NFS2_OK) {
		out->obj.present = true;
		nfs2_fh_to_fh3(&r.file, &out->obj.fh);
		attr_from(&r.attributes, &out->obj_attributes);
	}
	return 0;
}

/*
 * REMOVE, RMDIR, RENAME, LINK and SYMLINK answer a bare status in v2: the
 * v3 result (size bytes, its status first) gets the status and nothing
 * else, so no wcc data and, for SYMLINK, no handle (the caller LOOKUPs the
 * new name; RFC 1813 lets a v3 server leave it out as well).
 */
static int dec_bare_status(struct xdr_dec *d, void *res, size_t size)
{
	struct nfs2_stat_res r;
	uint32_t status;
	int ret = nfs2_dec_stat_res(d, &r);

	if (ret)
		return ret;
	status = nfs2_stat_to_nfsstat3(r.status);
	memset(res, 0, size);
	memcpy(res, &status, sizeof(status));
	return 0;
}

#define DEC_BARE_STATUS(fn, type)                                            \
	_Static_assert(offsetof(type, status) == 0, #type " starts with its " \
		       "status");                                            \
	static int fn(struct xdr_dec *d, void *res)                          \
	{                                                                    \
		return dec_bare_status(d, res, sizeof(type));                \
	}

DEC_BARE_STATUS(dec_symlink, struct nfs3_diropres)
DEC_BARE_STATUS(dec_wccstat, struct nfs3_wccstat_res)
DEC_BARE_STATUS(dec_rename, struct nfs3_rename_res)
DEC_BARE_STATUS(dec_link, struct nfs3_link_res)

/*
 * READDIR and READDIRPLUS.  The decoder leaves the v2 entry list (checked
 * by nfs2_dec_readdir_res) in res->entries; the fixup then writes the same
 * entries in the v3 format that nfs3_readdir_next() (or
 * nfs3_readdirplus_next(), with no attributes and no handle) reads, into a
 * new buffer that takes the place of the reply buffer: the entries cannot
 * be rewritten in place, since v3 entries are bigger.
 */
static int dec_readdir_common(struct xdr_dec *d, uint32_t *status,
			      struct xdr_dec *entries, uint32_t *nentries,
			      bool *eof)
{
	struct nfs2_readdir_res r;
	int ret = nfs2_dec_readdir_res(d, &r);

	if (ret)
		return ret;
	*status = nfs2_stat_to_nfsstat3(r.status);
	if (r.status == NFS2_OK) {
		*entries = r.entries;
		*nentries = r.nentries;
		*eof = r.eof;
	}
	return 0;
}

static int dec_readdir(struct xdr_dec *d, void *res)
{
	struct nfs3_readdir_res *out = res;

	memset(out, 0, sizeof(*out));
	return dec_readdir_common(d, &out->status, &out->entries,
				  &out->nentries, &out->eof);
}

static int dec_readdirplus(struct xdr_dec *d, void *res)
{
	struct nfs3_readdirplus_res *out = res;

	memset(out, 0, sizeof(*out));
	return dec_readdir_common(d, &out->status, &out->entries,
				  &out->nentries, &out->eof);
}

static int entries_to_v3(struct xdr_dec *entries, uint32_t nentries,
			 bool plus, struct rpc_reply *reply)
{
	struct xdr_dec it = *entries;
	struct nfs2_entry e2;
	struct xdr_enc e;
	int ret;

	/* fileid, name, cookie (+ two absent optionals) and the bools. */
	if (xdr_enc_init(&e, (size_t)nentries * (plus ? 36 : 28) +
				     (size_t)(entries->end - entries->p) + 4,
			 0))
		return -ENOMEM;
	while ((ret = nfs2_readdir_next(&it, &e2)) == 1) {
		xdr_enc_bool(&e, true);
		xdr_enc_u64(&e, e2.fileid);
		xdr_enc_opaque(&e, NFS3_MAXNAMLEN, e2.name, e2.namelen);
		xdr_enc_u64(&e, e2.cookie);
		if (plus) {
			xdr_enc_bool(&e, false); /* name_attributes */
			xdr_enc_bool(&e, false); /* name_handle */
		}
	}
	xdr_enc_bool(&e, false);
	if (ret == 0)
		ret = xdr_enc_error(&e);
	if (ret) {
		xdr_enc_release(&e);
		return ret < 0 ? ret : -EIO;
	}
	rpc_reply_release(reply);
	reply->buf = e.buf;
	reply->len = e.len;
	xdr_dec_init(entries, reply->buf, reply->len);
	return 0;
}

static int fix_readdir(const void *args, void *res, struct rpc_reply *reply)
{
	struct nfs3_readdir_res *r = res;

	(void)args;
	if (r->status != NFS3_OK)
		return 0;
	return entries_to_v3(&r->entries, r->nentries, false, reply);
}

static int fix_readdirplus(const void *args, void *res,
			   struct rpc_reply *reply)
{
	struct nfs3_readdirplus_res *r = res;

	(void)args;
	if (r->status != NFS3_OK)
		return 0;
	return entries_to_v3(&r->entries, r->nentries, true, reply);
}

static uint64_t mul64(uint32_t a, uint32_t b)
{
	return (uint64_t)a * b;
}

static int dec_fsstat(struct xdr_dec *d, void *res)
{
	struct nfs3_fsstat_res *out = res;
	struct nfs2_statfs_res r;
	int ret = nfs2_dec_statfs_res(d, &r);

	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	out->status = nfs2_stat_to_nfsstat3(r.status);
	if (r.status == NFS2_OK) {
		out->tbytes = mul64(r.blocks, r.bsize);
		out->fbytes = mul64(r.bfree, r.bsize);
		out->abytes = mul64(r.bavail, r.bsize);
		/* v2 does not count files. */
	}
	return 0;
}

static int dec_fsinfo(struct xdr_dec *d, void *res)
{
	struct nfs3_fsinfo_res *out = res;
	struct nfs2_statfs_res r;
	uint32_t t;
	int ret = nfs2_dec_statfs_res(d, &r);

	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	out->status = nfs2_stat_to_nfsstat3(r.status);
	if (r.status != NFS2_OK)
		return 0;
	t = r.tsize && r.tsize < NFS2_MAXDATA ? r.tsize : NFS2_MAXDATA;
	out->rtmax = out->rtpref = out->wtmax = out->wtpref = t;
	out->rtmult = out->wtmult = 1;
	out->dtpref = t;
	out->maxfilesize = NFS2_MAXFILESIZE;
	out->time_delta.seconds = 1; /* v2 times are microseconds, but
					servers of its age kept seconds */
	out->properties = FSF3_LINK | FSF3_SYMLINK | FSF3_HOMOGENEOUS |
			  FSF3_CANSETTIME;
	return 0;
}

#define P2(num, wire, e, d) [num] = { .wire_proc = wire, .enc = e, .dec = d }
#define P2F(num, wire, e, d, f, args_type)                                   \
	[num] = { .wire_proc = wire, .enc = e, .dec = d, .fixup = f,         \
		  .args_size = sizeof(args_type) }

/* ACCESS, PATHCONF and COMMIT have no entry: -ENOTSUP without a call. */
static const struct nfs_proc nfs2_procs[NFS3PROC_COUNT] = {
	P2(NFS3PROC_NULL, NFS2PROC_NULL, NULL, NULL),
	P2(NFS3PROC_GETATTR, NFS2PROC_GETATTR, enc_getattr, dec_getattr),
	P2(NFS3PROC_SETATTR, NFS2PROC_SETATTR, enc_setattr, dec_setattr),
	P2(NFS3PROC_LOOKUP, NFS2PROC_LOOKUP, enc_lookup, dec_lookup),
	P2(NFS3PROC_READLINK, NFS2PROC_READLINK, enc_readlink, dec_readlink),
	P2F(NFS3PROC_READ, NFS2PROC_READ, enc_read, dec_read, fix_read,
	    struct nfs3_read_args),
	P2F(NFS3PROC_WRITE, NFS2PROC_WRITE, enc_write, dec_write, fix_write,
	    struct nfs3_write_args),
	P2(NFS3PROC_CREATE, NFS2PROC_CREATE, enc_create, dec_diropres),
	P2(NFS3PROC_MKDIR, NFS2PROC_MKDIR, enc_mkdir, dec_diropres),
	P2(NFS3PROC_SYMLINK, NFS2PROC_SYMLINK, enc_symlink, dec_symlink),
	P2(NFS3PROC_MKNOD, NFS2PROC_CREATE, enc_mknod, dec_diropres),
	P2(NFS3PROC_REMOVE, NFS2PROC_REMOVE, enc_remove, dec_wccstat),
	P2(NFS3PROC_RMDIR, NFS2PROC_RMDIR, enc_remove, dec_wccstat),
	P2(NFS3PROC_RENAME, NFS2PROC_RENAME, enc_rename, dec_rename),
	P2(NFS3PROC_LINK, NFS2PROC_LINK, enc_link, dec_link),
	P2F(NFS3PROC_READDIR, NFS2PROC_READDIR, enc_readdir, dec_readdir,
	    fix_readdir, struct nfs3_readdir_args),
	P2F(NFS3PROC_READDIRPLUS, NFS2PROC_READDIR, enc_readdirplus,
	    dec_readdirplus, fix_readdirplus, struct nfs3_readdirplus_args),
	P2(NFS3PROC_FSSTAT, NFS2PROC_STATFS, enc_fsstat, dec_fsstat),
	P2(NFS3PROC_FSINFO, NFS2PROC_STATFS, enc_fsinfo, dec_fsinfo),
};

const struct nfs_version nfs_version2 = {
	.vers = NFS2_VERSION,
	.procs = nfs2_procs,
	.names = nfs2_proc_names,
	.nnames = NFS2PROC_COUNT,
};
