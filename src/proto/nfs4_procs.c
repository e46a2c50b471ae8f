/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 and 4.2 behind the version-neutral client: each NFSv3
 * procedure becomes one COMPOUND (after the SEQUENCE the session adds),
 * and its results are turned back into the NFSv3 result, so that the
 * caches and the FUSE layer never see the difference:
 *
 *   GETATTR      PUTFH GETATTR
 *   SETATTR      PUTFH SETATTR GETATTR          (wcc: after only)
 *   LOOKUP       PUTFH LOOKUP|LOOKUPP GETFH GETATTR
 *   ACCESS       PUTFH ACCESS GETATTR           (the same bits as v3)
 *   READLINK     PUTFH READLINK
 *   READ         PUTFH READ GETATTR    (GETATTR only where asked)
 *   WRITE        PUTFH WRITE GETATTR
 *   CREATE       PUTFH SAVEFH OPEN(create) GETFH GETATTR CLOSE
 *                RESTOREFH GETATTR   (mknod of a regular file; creates
 *                that open go through nfs4_open.h)
 *   MKDIR, SYMLINK, MKNOD
 *                PUTFH SAVEFH CREATE GETFH GETATTR RESTOREFH GETATTR
 *   REMOVE, RMDIR  PUTFH REMOVE GETATTR
 *   RENAME       PUTFH SAVEFH PUTFH RENAME GETATTR RESTOREFH GETATTR
 *   LINK         PUTFH SAVEFH PUTFH LINK GETATTR RESTOREFH GETATTR
 *
 * Every call that changes a directory reads the directory's attributes
 * after it, and its change_info4 becomes the wcc "before"
 * (nfs4_wcc_from_cinfo()): without them the directory's cached
 * attributes would be dropped at each create, and the kernel's next
 * look at the directory (a permission check on the way to the next
 * name) would cost a GETATTR of its own.
 *   READDIR(PLUS) PUTFH READDIR GETATTR, entries rewritten in the v3
 *                format
 *   FSSTAT, FSINFO, PATHCONF  PUTFH GETATTR of the file system's values
 *   COMMIT       PUTFH COMMIT GETATTR
 *
 * State (nfs4_open.h): the FUSE layer OPENs a file at each open and
 * create and CLOSEs it at the user's last release; READ, WRITE and a
 * SETATTR of the size look the caller's open up (file handle, uid of the
 * call) when they are encoded and carry its stateid with seqid 0 (the
 * current one, RFC 8881 §8.2.2), or the anonymous stateid (all zeros,
 * §8.2.3) where that user has no open of the file; other SETATTRs carry
 * the anonymous one, COMMIT none.  CREATE (mknod) opens and closes in
 * the same COMPOUND (CLOSE names the current stateid) under the same
 * open-owner per user, with no delegation wanted.
 *
 * Owners and groups go through nfs4_idmap.h both ways.  Handles longer
 * than NFS3_FHSIZE (64 bytes), which the upper layers cannot hold, fail
 * with NFS3ERR_SERVERFAULT and a log line.
 */
#include "nfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../xdr/nfs4.h"
#include "../base/log.h"
#include "nfs4_idmap.h"
#include "nfs4_open.h"
#include "nfs4_session.h"
#include "nfs4_walk.h"

/* One call: the v3 arguments and results and what the COMPOUND needs. */
struct v4call {
	struct nfs_client *c;
	enum nfs3_proc proc;
	const void *args;
	void *res;
	uint32_t uid;              /* the caller's, for the open-owner */
	/* encoding scratch: must live until the call is encoded */
	char owner[NFS4_IDMAP_NAME_MAX];
	char group[NFS4_IDMAP_NAME_MAX];
	char oo[32];               /* open-owner */
	struct nfs4_walk w;
	struct nfs4_readdir_res rd; /* READDIR: entries into the reply */
	/* asynchronous calls */
	nfs_done_fn done;
	void *done_ctx;
	struct nfs3_read_args read_args; /* READ: a copy, for a resend */
	bool open_sid;             /* built with an open's stateid */
	bool anon_sid;             /* build with the anonymous one only */
};


uint32_t nfs4_stat_to_nfs3(uint32_t st)
{
	switch (st) {
	case NFS4_OK: case NFS4ERR_PERM: case NFS4ERR_NOENT: case NFS4ERR_IO:
	case NFS4ERR_NXIO: case NFS4ERR_ACCESS: case NFS4ERR_EXIST:
	case NFS4ERR_XDEV: case NFS4ERR_NOTDIR: case NFS4ERR_ISDIR:
	case NFS4ERR_INVAL: case NFS4ERR_FBIG: case NFS4ERR_NOSPC:
	case NFS4ERR_ROFS: case NFS4ERR_MLINK: case NFS4ERR_NAMETOOLONG:
	case NFS4ERR_NOTEMPTY: case NFS4ERR_DQUOT: case NFS4ERR_STALE:
	case NFS4ERR_BADHANDLE: case NFS4ERR_BAD_COOKIE:
	case NFS4ERR_NOTSUPP: case NFS4ERR_TOOSMALL:
	case NFS4ERR_SERVERFAULT: case NFS4ERR_BADTYPE:
		return st; /* the same number in v3 */
	case NFS4ERR_DELAY: case NFS4ERR_GRACE: case NFS4ERR_LOCKED:
		return NFS3ERR_JUKEBOX;
	case NFS4ERR_FHEXPIRED:
		return NFS3ERR_STALE;
	case NFS4ERR_SYMLINK:
		return NFS3ERR_NOTDIR;
	case NFS4ERR_WRONGSEC: case NFS4ERR_SHARE_DENIED:
	case NFS4ERR_OPENMODE: case NFS4ERR_WRONG_CRED:
		return NFS3ERR_ACCES;
	case NFS4ERR_BADOWNER: case NFS4ERR_BADCHAR: case NFS4ERR_BADNAME:
	case NFS4ERR_BAD_RANGE: case NFS4ERR_ATTRNOTSUPP:
		return NFS3ERR_INVAL;
	case NFS4ERR_MOVED:
		return NFS3ERR_REMOTE;
	case NFS4ERR_FILE_OPEN:
		return NFS3ERR_ACCES;
	}
	nf_log(NF_LOG_INFO, "NFSv4 status %s (%u) reported as EIO",
	       nfs4_stat_name(st) ? nfs4_stat_name(st) : "unknown", st);
	return NFS3ERR_IO;
}

/* ---- building ---- */

static int check_name(const char *name)
{
	size_t n = name ? strnlen(name, NFS4_MAXNAMLEN + 1) : 0;

	if (n == 0)
		return -EINVAL;
	return n > NFS4_MAXNAMLEN ? -ENAMETOOLONG : 0;
}

/* sattr3 to fattr4, owner and group mapped to strings in q. */
static int sattr_to4(struct v4call *q, const struct sattr3 *s,
		     struct nfs4_fattr *out)
{
	if (s->set_uid)
		nfs4_idmap_user(s->uid, q->owner, sizeof(q->owner));
	if (s->set_gid)
		nfs4_idmap_group(s->gid, q->group, sizeof(q->group));
	return nfs4_fattr_from_sattr3(s, s->set_uid ? q->owner : NULL,
				      s->set_gid ? q->group : NULL, out);
}

static int build(struct nfs4_compound *cmp, void *ctx);

/* The stateid of the caller's open of fh for READ, WRITE and a size
 * change (need: the share access the operation needs), with seqid 0 (the
 * current one: an OPEN of the same file by the same user may bump it
 * while this call is on the wire); the anonymous stateid, already in
 * *sid, where the caller has no open that allows it.  -EIO for an open
 * the server lost (a recovery could not have it again): the I/O fails
 * rather than going out under another stateid. */
static int io_stateid(struct v4call *q, const struct nfs_fh3 *fh,
		      uint32_t need, struct nfs4_stateid *sid)
{
	struct nfs4_stateid own;
	int ret;

	if (q->anon_sid)
		return 0;
	ret = nfs4_opens_stateid_for(q->c->v4opens, fh, q->uid, need, &own);
	if (ret == -EIO)
		return ret;
	if (ret == 0) {
		*sid = own;
		sid->seqid = 0;
		q->open_sid = true;
	}
	return 0;
}

/* ---- parsing ---- */

/* GETFH then GETATTR into a post_op_fh3 and a post_op_attr. */
static int step_fh_attr(struct nfs4_compound_res *r, struct v4call *q,
			struct post_op_fh3 *fh, struct post_op_attr *attr)
{
	struct nfs4_getfh_res gf;
	int ret = nfs4_walk_next(r, &q->w, NFS4OP_GETFH, &gf);

	fh->present = false;
	attr->present = false;
	if (ret <= 0)
		return ret;
	if (nfs4_fh_to_fh3(&gf.fh, &fh->fh)) {
		q->w.st4 = NFS4ERR_SERVERFAULT;
		q->w.stopped = true;
		return 0;
	}
	fh->present = true;
	return nfs4_walk_attr(r, &q->w, attr);
}

static int parse(struct nfs4_compound_res *r, void *ctx);

/* ---- READDIR ---- */

static int rd_request(bool plus, struct nfs4_bitmap *b)
{
	memset(b, 0, sizeof(*b));
	if (plus) {
		*b = nfs4_fattr3_request;
		nfs4_bitmap_set(b, NFS4_FATTR_FILEHANDLE);
	} else {
		nfs4_bitmap_set(b, NFS4_FATTR_FILEID);
		nfs4_bitmap_set(b, NFS4_FATTR_TYPE);
	}
	nfs4_bitmap_set(b, NFS4_FATTR_RDATTR_ERROR);
	return 0;
}

/* The v4 entries into a new buffer in the v3 format that
 * nfs3_readdir_next() and nfs3_readdirplus_next() read; it takes the
 * place of the reply buffer, into which the v4 entries point. */
static int entries_to_v3(struct v4call *q, bool plus, struct xdr_dec *out,
			 uint32_t *nout, struct rpc_reply *reply)
{
	struct xdr_dec it = q->rd.entries;
	struct nfs4_entry e4;
	struct xdr_enc e;
	uint32_t n = 0;
	int ret;

	if (xdr_enc_init(&e, (size_t)(it.end - it.p) * 2 + 64, 0))
		return -ENOMEM;
	while ((ret = nfs4_readdir_next(&it, &e4)) == 1) {
		struct nfs4_attr3 a3;
		struct post_op_attr pa = { false };
		struct nfs_fh3 fh;
		bool has_fh = false;
		uint64_t fileid = e4.attrs.fileid;

		if (e4.name.len > NFS3_MAXNAMLEN)
			continue;
		if (nfs4_bitmap_isset(&e4.attrs.mask,
				      NFS4_FATTR_MOUNTED_ON_FILEID))
			fileid = e4.attrs.mounted_on_fileid;
		xdr_enc_bool(&e, true);
		xdr_enc_u64(&e, fileid);
		xdr_enc_opaque(&e, NFS3_MAXNAMLEN, e4.name.s, e4.name.len);
		xdr_enc_u64(&e, e4.cookie);
		if (plus) {
			if (nfs4_bitmap_isset(&e4.attrs.mask, NFS4_FATTR_TYPE) &&
			    nfs4_bitmap_isset(&e4.attrs.mask,
					      NFS4_FATTR_FILEID)) {
				nfs4_fattr_to_attr3(&e4.attrs, &a3);
				pa.present = true;
				pa.attr = a3.attr;
				pa.attr.change = a3.change;
				pa.attr.uid = nfs4_idmap_uid(a3.owner.s,
							     a3.owner.len);
				pa.attr.gid = nfs4_idmap_gid(
					a3.owner_group.s, a3.owner_group.len);
			}
			has_fh = nfs4_bitmap_isset(&e4.attrs.mask,
						   NFS4_FATTR_FILEHANDLE) &&
				 nfs4_fh_to_fh3(&e4.attrs.filehandle, &fh) == 0;
			/* Attributes without the handle would name nothing. */
			nfs3_enc_post_op_attr(&e, has_fh ? &pa
					      : &(struct post_op_attr){ false });
			xdr_enc_bool(&e, has_fh);
			if (has_fh)
				nfs3_enc_fh3(&e, &fh);
		}
		n++;
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
	xdr_dec_init(out, reply->buf, reply->len);
	*nout = n;
	return 0;
}

/* After the reply is parsed: what needs the reply buffer replaced. */
static int finish(struct v4call *q, struct rpc_reply *reply)
{
	if (q->proc == NFS3PROC_READDIR) {
		struct nfs3_readdir_res *r = q->res;

		if (r->status != NFS3_OK)
			return 0;
		return entries_to_v3(q, false, &r->entries, &r->nentries,
				     reply);
	}
	if (q->proc == NFS3PROC_READDIRPLUS) {
		struct nfs3_readdirplus_res *r = q->res;

		if (r->status != NFS3_OK)
			return 0;
		return entries_to_v3(q, true, &r->entries, &r->nentries,
				     reply);
	}
	return 0;
}

/* Calls whose reply the server keeps for a retransmission: those whose
 * second execution would not do what the first did, and the
 * asynchronous writes, which cannot be sent again as new calls (their
 * arguments are gone by then).  Their replies are small. */
static bool once_only(enum nfs3_proc proc)
{
	switch (proc) {
	case NFS3PROC_WRITE: case NFS3PROC_COMMIT:
	case NFS3PROC_SETATTR: case NFS3PROC_CREATE: case NFS3PROC_MKDIR:
	case NFS3PROC_SYMLINK: case NFS3PROC_MKNOD: case NFS3PROC_REMOVE:
	case NFS3PROC_RMDIR: case NFS3PROC_RENAME: case NFS3PROC_LINK:
		return true;
	default:
		return false;
	}
}

static bool needs_reply(enum nfs3_proc proc)
{
	return proc == NFS3PROC_READDIR || proc == NFS3PROC_READDIRPLUS ||
	       proc == NFS3PROC_READ || proc == NFS3PROC_READLINK;
}

/* ---- the table's entry points ---- */

static int v4_call(struct nfs_client *c, enum nfs3_proc proc,
		   const struct rpc_cred *cred, const void *args, void *res,
		   struct rpc_reply *reply, volatile int *interrupted)
{
	struct v4call q = { .c = c, .proc = proc, .args = args, .res = res,
			    .uid = cred ? cred->uid : 0 };
	struct rpc_reply own = { NULL, 0 };
	int ret;

	if (proc == NFS3PROC_NULL)
		return rpc_clnt_call(c->rpc, NFS4_PROC_NULL, cred, NULL, NULL,
				     NULL, NULL, reply, interrupted);
	if (!reply && needs_reply(proc))
		reply = &own;
	ret = nfs4_session_call(c->v4, cred, once_only(proc) ?
				NFS4_CALL_CACHETHIS : 0, build, parse, &q,
				reply, interrupted);
	/* A truncate by path takes the stateid of an open the caller's
	 * other processes hold; their last close may end that open while
	 * the SETATTR is on the wire.  The server then refused it and did
	 * nothing: it goes again with the anonymous stateid, which needs
	 * no open (the next open's might end the same way), as the Linux
	 * client retries. */
	if (ret == 0 && proc == NFS3PROC_SETATTR && q.open_sid &&
	    (q.w.st4 == NFS4ERR_BAD_STATEID ||
	     q.w.st4 == NFS4ERR_OLD_STATEID)) {
		q.anon_sid = true;
		rpc_reply_release(reply);
		ret = nfs4_session_call(c->v4, cred, NFS4_CALL_CACHETHIS, build,
					parse, &q, reply, interrupted);
	}
	if (ret == 0)
		ret = finish(&q, reply);
	if (reply == &own || (ret && reply))
		rpc_reply_release(reply);
	return ret;
}

static void v4_async_done(void *ctx, int err, struct rpc_reply *reply)
{
	struct v4call *q = ctx;

	if (err == 0) {
		err = finish(q, reply);
		if (err)
			rpc_reply_release(reply);
	}
	q->done(q->done_ctx, err, q->res, reply);
	free(q);
}

static int v4_call_async(struct nfs_client *c, enum nfs3_proc proc,
			 const struct rpc_cred *cred, const void *args,
			 void *res, nfs_done_fn done, void *ctx)
{
	struct v4call *q = calloc(1, sizeof(*q));
	unsigned flags = 0;
	int ret;

	if (!q)
		return -ENOMEM;
	*q = (struct v4call){ .c = c, .proc = proc, .args = args, .res = res,
			      .uid = cred ? cred->uid : 0, .done = done,
			      .done_ctx = ctx };
	/* args is read while encoding, which happens before this returns,
	 * and again for a retry (after a reconnection, a wait or a
	 * recovery): READ's (no pointers) are copied for that; WRITE's are
	 * the write-back's chunk, which stays until done runs. */
	if (proc == NFS3PROC_READ) {
		q->read_args = *(const struct nfs3_read_args *)args;
		q->args = &q->read_args;
		flags = NFS4_CALL_RESENDABLE;
	}
	if (proc == NFS3PROC_WRITE)
		flags = NFS4_CALL_RESENDABLE;
	if (once_only(proc))
		flags |= NFS4_CALL_CACHETHIS;
	ret = nfs4_session_call_async(c->v4, cred, flags, build, parse, q,
				      v4_async_done, q);
	if (ret)
		free(q);
	return ret;
}

/* ---- each procedure's COMPOUND ---- */

static int build_dirop(struct nfs4_compound *cmp, struct v4call *q,
		       const struct diropargs3 *d)
{
	struct nfs4_lookup_args la;
	int ret = check_name(d->name);

	if (ret)
		return ret;
	nfs4_add_putfh3(cmp, d->dir);
	if (q->proc != NFS3PROC_LOOKUP)
		return 0;
	if (!strcmp(d->name, "."))
		return 0;
	if (!strcmp(d->name, ".."))
		return nfs4_add_lookupp(cmp);
	la.name = nfs4_str(d->name);
	return nfs4_add_lookup(cmp, &la);
}

static int build_create(struct nfs4_compound *cmp, struct v4call *q)
{
	const struct nfs3_create_args *a = q->args;
	struct nfs4_open_args o = {
		.share_access = NFS4_SHARE_ACCESS_WRITE |
				NFS4_SHARE_WANT_NO_DELEG,
		.share_deny = NFS4_SHARE_DENY_NONE,
		.opentype = NFS4_OPEN_CREATE,
		.claim = NFS4_CLAIM_NULL,
		.name = nfs4_str(a->where.name),
	};
	struct nfs4_close_args cl = { .stateid = nfs4_current_stateid };
	int ret;

	o.owner.clientid = q->c->v4->clientid;
	snprintf(q->oo, sizeof(q->oo), "open-uid-%u", (unsigned)q->uid);
	o.owner.owner = (const uint8_t *)q->oo;
	o.owner.owner_len = (uint32_t)strlen(q->oo);
	switch (a->mode) {
	case UNCHECKED:
	case GUARDED:
		o.createmode = a->mode == UNCHECKED ? NFS4_CREATE_UNCHECKED
						    : NFS4_CREATE_GUARDED;
		ret = sattr_to4(q, &a->obj_attributes, &o.createattrs);
		if (ret)
			return ret;
		break;
	case EXCLUSIVE:
		/* The attributes follow in a SETATTR, as with v3. */
		o.createmode = NFS4_CREATE_EXCLUSIVE4_1;
		memcpy(o.verifier, a->verf, NFS4_VERIFIER_SIZE);
		break;
	default:
		return -EINVAL;
	}
	build_dirop(cmp, q, &a->where);
	nfs4_add_savefh(cmp);
	nfs4_add_open(cmp, &o);
	nfs4_add_getfh(cmp);
	nfs4_add_getattr3(cmp);
	nfs4_add_close(cmp, &cl);
	nfs4_add_restorefh(cmp);
	return nfs4_add_getattr3(cmp);
}

static int build_mkobj(struct nfs4_compound *cmp, struct v4call *q)
{
	struct nfs4_create_args ca = { 0 };
	const struct diropargs3 *where;
	const struct sattr3 *sa;
	int ret;

	switch (q->proc) {
	case NFS3PROC_MKDIR: {
		const struct nfs3_mkdir_args *a = q->args;

		where = &a->where;
		sa = &a->attributes;
		ca.type = NF4DIR;
		break;
	}
	case NFS3PROC_SYMLINK: {
		const struct nfs3_symlink_args *a = q->args;

		where = &a->where;
		sa = &a->symlink_attributes;
		ca.type = NF4LNK;
		if (!a->symlink_data ||
		    strnlen(a->symlink_data, NFS4_MAXPATHLEN + 1) >
			    NFS4_MAXPATHLEN)
			return -ENAMETOOLONG;
		ca.linkdata = nfs4_str(a->symlink_data);
		break;
	}
	default: {
		const struct nfs3_mknod_args *a = q->args;

		where = &a->where;
		sa = &a->attributes;
		/* ftype3 and nfs_ftype4 number devices, sockets and fifos
		 * alike. */
		if (a->type != NF3CHR && a->type != NF3BLK &&
		    a->type != NF3SOCK && a->type != NF3FIFO)
			return -EINVAL;
		ca.type = a->type;
		ca.devdata.specdata1 = a->spec.specdata1;
		ca.devdata.specdata2 = a->spec.specdata2;
	}
	}
	ret = sattr_to4(q, sa, &ca.attrs);
	if (ret)
		return ret;
	ca.name = nfs4_str(where->name);
	build_dirop(cmp, q, where);
	nfs4_add_savefh(cmp);
	nfs4_add_create(cmp, &ca);
	nfs4_add_getfh(cmp);
	nfs4_add_getattr3(cmp);
	nfs4_add_restorefh(cmp);
	return nfs4_add_getattr3(cmp);
}

static int build(struct nfs4_compound *cmp, void *ctx)
{
	struct v4call *q = ctx;

	switch (q->proc) {
	case NFS3PROC_GETATTR: {
		const struct nfs3_getattr_args *a = q->args;

		nfs4_add_putfh3(cmp, &a->object);
		return nfs4_add_getattr3(cmp);
	}
	case NFS3PROC_SETATTR: {
		const struct nfs3_setattr_args *a = q->args;
		struct nfs4_setattr_args sa = { .stateid = nfs4_anon_stateid };
		int ret = sattr_to4(q, &a->new_attributes, &sa.attrs);

		if (ret)
			return ret;
		/* Only a size change needs an open's (RFC 8881 §18.30.3). */
		if (a->new_attributes.set_size &&
		    (ret = io_stateid(q, &a->object, NFS4_SHARE_ACCESS_WRITE,
				      &sa.stateid)))
			return ret;
		nfs4_add_putfh3(cmp, &a->object);
		nfs4_add_setattr(cmp, &sa);
		return nfs4_add_getattr3(cmp);
	}
	case NFS3PROC_LOOKUP: {
		const struct nfs3_lookup_args *a = q->args;
		int ret = build_dirop(cmp, q, &a->what);

		if (ret)
			return ret;
		nfs4_add_getfh(cmp);
		return nfs4_add_getattr3(cmp);
	}
	case NFS3PROC_ACCESS: {
		const struct nfs3_access_args *a = q->args;
		struct nfs4_access_args aa = { .access = a->access & 0x3f };

		nfs4_add_putfh3(cmp, &a->object);
		nfs4_add_access(cmp, &aa);
		return nfs4_add_getattr3(cmp);
	}
	case NFS3PROC_READLINK: {
		const struct nfs3_readlink_args *a = q->args;

		nfs4_add_putfh3(cmp, &a->symlink);
		return nfs4_add_readlink(cmp);
	}
	case NFS3PROC_READ: {
		const struct nfs3_read_args *a = q->args;
		struct nfs4_read_args ra = { .stateid = nfs4_anon_stateid,
					     .offset = a->offset,
					     .count = a->count };

		if (io_stateid(q, &a->file, NFS4_SHARE_ACCESS_READ,
			       &ra.stateid))
			return -EIO;
		nfs4_add_putfh3(cmp, &a->file);
		nfs4_add_read(cmp, &ra);
		return a->no_attr ? 0 : nfs4_add_getattr3(cmp);
	}
	case NFS3PROC_WRITE: {
		const struct nfs3_write_args *a = q->args;
		struct nfs4_write_args wa = { .stateid = nfs4_anon_stateid,
					      .offset = a->offset,
					      .stable = a->stable,
					      .data = a->data,
					      .data_len = a->count };

		if (io_stateid(q, &a->file, NFS4_SHARE_ACCESS_WRITE,
			       &wa.stateid))
			return -EIO;
		nfs4_add_putfh3(cmp, &a->file);
		nfs4_add_write(cmp, &wa);
		return nfs4_add_getattr3(cmp);
	}
	case NFS3PROC_CREATE:
		return build_create(cmp, q);
	case NFS3PROC_MKDIR:
	case NFS3PROC_SYMLINK:
	case NFS3PROC_MKNOD:
		return build_mkobj(cmp, q);
	case NFS3PROC_REMOVE:
	case NFS3PROC_RMDIR: {
		const struct nfs3_remove_args *a = q->args;
		struct nfs4_remove_args ra = { nfs4_str(a->object.name) };
		int ret = build_dirop(cmp, q, &a->object);

		if (ret)
			return ret;
		nfs4_add_remove(cmp, &ra);
		return nfs4_add_getattr3(cmp);
	}
	case NFS3PROC_RENAME: {
		const struct nfs3_rename_args *a = q->args;
		struct nfs4_rename_args ra = { nfs4_str(a->from.name),
					       nfs4_str(a->to.name) };

		if (check_name(a->from.name) || check_name(a->to.name))
			return -EINVAL;
		nfs4_add_putfh3(cmp, a->from.dir);
		nfs4_add_savefh(cmp);
		nfs4_add_putfh3(cmp, a->to.dir);
		nfs4_add_rename(cmp, &ra);
		nfs4_add_getattr3(cmp);
		nfs4_add_restorefh(cmp);
		return nfs4_add_getattr3(cmp);
	}
	case NFS3PROC_LINK: {
		const struct nfs3_link_args *a = q->args;
		struct nfs4_link_args la = { nfs4_str(a->link.name) };

		if (check_name(a->link.name))
			return -EINVAL;
		nfs4_add_putfh3(cmp, &a->file);
		nfs4_add_savefh(cmp);
		nfs4_add_putfh3(cmp, a->link.dir);
		nfs4_add_link(cmp, &la);
		nfs4_add_getattr3(cmp);
		nfs4_add_restorefh(cmp);
		return nfs4_add_getattr3(cmp);
	}
	case NFS3PROC_READDIR:
	case NFS3PROC_READDIRPLUS: {
		struct nfs4_readdir_args ra;
		const struct nfs_fh3 *dir;
		bool plus = q->proc == NFS3PROC_READDIRPLUS;
		int ret;

		if (plus) {
			const struct nfs3_readdirplus_args *a = q->args;

			dir = &a->dir;
			ra.cookie = a->cookie;
			memcpy(ra.cookieverf, a->cookieverf, 8);
			ra.dircount = a->dircount;
			ra.maxcount = a->maxcount;
		} else {
			const struct nfs3_readdir_args *a = q->args;

			dir = &a->dir;
			ra.cookie = a->cookie;
			memcpy(ra.cookieverf, a->cookieverf, 8);
			ra.dircount = a->count;
			ra.maxcount = a->count;
		}
		rd_request(plus, &ra.request);
		nfs4_add_putfh3(cmp, dir);
		ret = nfs4_add_readdir(cmp, &ra);
		/* The directory's attributes after, as NFSv3's listings
		 * bring them: a listing shows a change by someone else. */
		return ret ? ret : nfs4_add_getattr3(cmp);
	}
	case NFS3PROC_FSSTAT:
	case NFS3PROC_FSINFO:
	case NFS3PROC_PATHCONF: {
		/* The three argument structs are one handle each. */
		const struct nfs_fh3 *fh = q->args;
		struct nfs4_getattr_args ga = { .request =
							nfs4_fattr3_request };
		static const unsigned fs_bits[] = {
			NFS4_FATTR_FILES_AVAIL, NFS4_FATTR_FILES_FREE,
			NFS4_FATTR_FILES_TOTAL, NFS4_FATTR_SPACE_AVAIL,
			NFS4_FATTR_SPACE_FREE, NFS4_FATTR_SPACE_TOTAL,
			NFS4_FATTR_MAXREAD, NFS4_FATTR_MAXWRITE,
			NFS4_FATTR_MAXFILESIZE, NFS4_FATTR_TIME_DELTA,
			NFS4_FATTR_MAXNAME,
		};

		for (size_t i = 0; i < sizeof(fs_bits) / sizeof(fs_bits[0]);
		     i++)
			nfs4_bitmap_set(&ga.request, fs_bits[i]);
		nfs4_add_putfh3(cmp, fh);
		return nfs4_add_getattr(cmp, &ga);
	}
	case NFS3PROC_COMMIT: {
		const struct nfs3_commit_args *a = q->args;
		struct nfs4_commit_args ca = { a->offset, a->count };

		nfs4_add_putfh3(cmp, &a->file);
		nfs4_add_commit(cmp, &ca);
		return nfs4_add_getattr3(cmp);
	}
	default:
		return -ENOTSUP;
	}
}

/* ---- each procedure's results ---- */

static int parse_fsattrs(struct v4call *q, const struct nfs4_fattr *f)
{
	switch (q->proc) {
	case NFS3PROC_FSSTAT: {
		struct nfs3_fsstat_res *r = q->res;

		r->tbytes = f->space_total;
		r->fbytes = f->space_free;
		r->abytes = f->space_avail;
		r->tfiles = f->files_total;
		r->ffiles = f->files_free;
		r->afiles = f->files_avail;
		return 0;
	}
	case NFS3PROC_FSINFO: {
		struct nfs3_fsinfo_res *r = q->res;
		uint64_t rmax = f->maxread, wmax = f->maxwrite;

		if (rmax == 0 || rmax > NFS3_MAXDATA)
			rmax = NFS3_MAXDATA;
		if (wmax == 0 || wmax > NFS3_MAXDATA)
			wmax = NFS3_MAXDATA;
		/* What the session carries bounds a READ or a WRITE too. */
		if (q->c->v4->max_resp > 1024 && rmax > q->c->v4->max_resp - 1024)
			rmax = q->c->v4->max_resp - 1024;
		if (q->c->v4->max_req > 1024 && wmax > q->c->v4->max_req - 1024)
			wmax = q->c->v4->max_req - 1024;
		r->rtmax = r->rtpref = (uint32_t)rmax;
		r->wtmax = r->wtpref = (uint32_t)wmax;
		r->rtmult = r->wtmult = 4096;
		r->dtpref = 64u << 10;
		r->maxfilesize = f->maxfilesize ? f->maxfilesize : INT64_MAX;
		r->time_delta.seconds = (uint32_t)f->time_delta.seconds;
		r->time_delta.nseconds = f->time_delta.nseconds;
		if (!nfs4_bitmap_isset(&f->mask, NFS4_FATTR_TIME_DELTA))
			r->time_delta.seconds = 1;
		r->properties = FSF3_LINK | FSF3_SYMLINK | FSF3_HOMOGENEOUS |
				FSF3_CANSETTIME;
		return 0;
	}
	default: {
		struct nfs3_pathconf_res *r = q->res;

		r->linkmax = 32000;
		r->name_max = f->maxname ? f->maxname : NFS4_MAXNAMLEN;
		r->no_trunc = true;
		r->chown_restricted = true;
		r->case_insensitive = false;
		r->case_preserving = true;
		return 0;
	}
	}
}

static int parse_ops(struct nfs4_compound_res *r, struct v4call *q)
{
	struct nfs4_status_res sr;
	int ret;

	switch (q->proc) {
	case NFS3PROC_GETATTR: {
		struct nfs3_getattr_res *res = q->res;
		struct post_op_attr pa;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0)
			return ret;
		ret = nfs4_walk_attr(r, &q->w, &pa);
		if (ret == 0 && !pa.present && q->w.st4 == NFS4_OK)
			q->w.st4 = r->status ? r->status : NFS4ERR_SERVERFAULT;
		res->obj_attributes = pa.attr;
		return ret;
	}
	case NFS3PROC_SETATTR: {
		struct nfs3_setattr_res *res = q->res;
		struct nfs4_setattr_res sa;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_SETATTR, &sa)) <= 0)
			return ret;
		return nfs4_walk_attr(r, &q->w, &res->obj_wcc.after);
	}
	case NFS3PROC_LOOKUP: {
		struct nfs3_lookup_res *res = q->res;
		const struct nfs3_lookup_args *a = q->args;
		struct post_op_fh3 fh;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0)
			return ret;
		if (strcmp(a->what.name, ".") &&
		    (ret = nfs4_walk_next(r, &q->w, strcmp(a->what.name, "..")
				? NFS4OP_LOOKUP : NFS4OP_LOOKUPP, &sr)) <= 0)
			return ret;
		ret = step_fh_attr(r, q, &fh, &res->obj_attributes);
		res->object = fh.fh;
		return ret;
	}
	case NFS3PROC_ACCESS: {
		struct nfs3_access_res *res = q->res;
		struct nfs4_access_res ar;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_ACCESS, &ar)) <= 0)
			return ret;
		res->access = ar.access;
		return nfs4_walk_attr(r, &q->w, &res->obj_attributes);
	}
	case NFS3PROC_READLINK: {
		struct nfs3_readlink_res *res = q->res;
		struct nfs4_readlink_res rl;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_READLINK, &rl)) <= 0)
			return ret;
		res->data = rl.link.s;
		res->len = rl.link.len;
		return 0;
	}
	case NFS3PROC_READ: {
		struct nfs3_read_res *res = q->res;
		struct nfs4_read_res rr;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_READ, &rr)) <= 0)
			return ret;
		res->count = rr.data_len;
		res->eof = rr.eof;
		res->data = rr.data;
		res->data_len = rr.data_len;
		if (((const struct nfs3_read_args *)q->args)->no_attr)
			return 0;
		return nfs4_walk_attr(r, &q->w, &res->file_attributes);
	}
	case NFS3PROC_WRITE: {
		struct nfs3_write_res *res = q->res;
		struct nfs4_write_res wr;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_WRITE, &wr)) <= 0)
			return ret;
		res->count = wr.count;
		res->committed = wr.committed;
		memcpy(res->verf, wr.verifier, NFS3_WRITEVERFSIZE);
		return nfs4_walk_attr(r, &q->w, &res->file_wcc.after);
	}
	case NFS3PROC_CREATE: {
		struct nfs3_diropres *res = q->res;
		struct nfs4_open_res or;
		struct nfs4_stateid_res cr;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_SAVEFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_OPEN, &or)) <= 0)
			return ret;
		ret = step_fh_attr(r, q, &res->obj, &res->obj_attributes);
		if (ret || q->w.stopped)
			return ret;
		/* The file stands made whatever became of its CLOSE. */
		ret = nfs4_compound_next(r, NFS4OP_CLOSE, &cr);
		if (ret == -ENODATA)
			return 0;
		if (ret)
			return ret;
		if (cr.status != NFS4_OK) {
			nf_log(NF_LOG_INFO, "CLOSE after create: %s",
			       nfs4_stat_name(cr.status));
			return 0;
		}
		return nfs4_walk_dir_after(r, &q->w, &or.cinfo, &res->dir_wcc);
	}
	case NFS3PROC_MKDIR:
	case NFS3PROC_SYMLINK:
	case NFS3PROC_MKNOD: {
		struct nfs3_diropres *res = q->res;
		struct nfs4_create_res cr;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_SAVEFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_CREATE, &cr)) <= 0)
			return ret;
		if ((ret = step_fh_attr(r, q, &res->obj, &res->obj_attributes)))
			return ret;
		return nfs4_walk_dir_after(r, &q->w, &cr.cinfo, &res->dir_wcc);
	}
	case NFS3PROC_REMOVE:
	case NFS3PROC_RMDIR: {
		struct nfs3_wccstat_res *res = q->res;
		struct nfs4_cinfo_res cr;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_REMOVE, &cr)) <= 0)
			return ret;
		if ((ret = nfs4_walk_attr(r, &q->w, &res->dir_wcc.after)))
			return ret;
		nfs4_wcc_from_cinfo(&cr.cinfo, &res->dir_wcc);
		return 0;
	}
	case NFS3PROC_RENAME: {
		struct nfs3_rename_res *res = q->res;
		struct nfs4_rename_res rr;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_SAVEFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_RENAME, &rr)) <= 0)
			return ret;
		if ((ret = nfs4_walk_attr(r, &q->w, &res->todir_wcc.after)))
			return ret;
		nfs4_wcc_from_cinfo(&rr.target, &res->todir_wcc);
		return nfs4_walk_dir_after(r, &q->w, &rr.source,
					   &res->fromdir_wcc);
	}
	case NFS3PROC_LINK: {
		struct nfs3_link_res *res = q->res;
		struct nfs4_cinfo_res lr;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_SAVEFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_LINK, &lr)) <= 0)
			return ret;
		if ((ret = nfs4_walk_attr(r, &q->w, &res->linkdir_wcc.after)))
			return ret;
		nfs4_wcc_from_cinfo(&lr.cinfo, &res->linkdir_wcc);
		if (q->w.stopped)
			return 0;
		if (nfs4_compound_next(r, NFS4OP_RESTOREFH, &sr) ||
		    sr.status != NFS4_OK)
			return 0;
		return nfs4_walk_attr(r, &q->w, &res->file_attributes);
	}
	case NFS3PROC_READDIR:
	case NFS3PROC_READDIRPLUS: {
		uint8_t *verf = q->proc == NFS3PROC_READDIR
			? ((struct nfs3_readdir_res *)q->res)->cookieverf
			: ((struct nfs3_readdirplus_res *)q->res)->cookieverf;
		bool *eof = q->proc == NFS3PROC_READDIR
			? &((struct nfs3_readdir_res *)q->res)->eof
			: &((struct nfs3_readdirplus_res *)q->res)->eof;
		struct post_op_attr *dir = q->proc == NFS3PROC_READDIR
			? &((struct nfs3_readdir_res *)q->res)->dir_attributes
			: &((struct nfs3_readdirplus_res *)q->res)->dir_attributes;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_READDIR, &q->rd)) <= 0)
			return ret;
		memcpy(verf, q->rd.cookieverf, NFS3_COOKIEVERFSIZE);
		*eof = q->rd.eof;
		return nfs4_walk_attr(r, &q->w, dir);
	}
	case NFS3PROC_FSSTAT:
	case NFS3PROC_FSINFO:
	case NFS3PROC_PATHCONF: {
		struct nfs4_getattr_res gr;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_GETATTR, &gr)) <= 0)
			return ret;
		return parse_fsattrs(q, &gr.attrs);
	}
	case NFS3PROC_COMMIT: {
		struct nfs3_commit_res *res = q->res;
		struct nfs4_commit_res cr;

		if ((ret = nfs4_walk_next(r, &q->w, NFS4OP_PUTFH, &sr)) <= 0 ||
		    (ret = nfs4_walk_next(r, &q->w, NFS4OP_COMMIT, &cr)) <= 0)
			return ret;
		memcpy(res->verf, cr.verifier, NFS3_WRITEVERFSIZE);
		return nfs4_walk_attr(r, &q->w, &res->file_wcc.after);
	}
	default:
		return -EBADMSG;
	}
}

/* Sizes of the v3 result structures, to zero them before the walk. */
static size_t res_size(enum nfs3_proc proc)
{
	switch (proc) {
	case NFS3PROC_GETATTR: return sizeof(struct nfs3_getattr_res);
	case NFS3PROC_SETATTR: return sizeof(struct nfs3_setattr_res);
	case NFS3PROC_LOOKUP: return sizeof(struct nfs3_lookup_res);
	case NFS3PROC_ACCESS: return sizeof(struct nfs3_access_res);
	case NFS3PROC_READLINK: return sizeof(struct nfs3_readlink_res);
	case NFS3PROC_READ: return sizeof(struct nfs3_read_res);
	case NFS3PROC_WRITE: return sizeof(struct nfs3_write_res);
	case NFS3PROC_CREATE: case NFS3PROC_MKDIR: case NFS3PROC_SYMLINK:
	case NFS3PROC_MKNOD: return sizeof(struct nfs3_diropres);
	case NFS3PROC_REMOVE: case NFS3PROC_RMDIR:
		return sizeof(struct nfs3_wccstat_res);
	case NFS3PROC_RENAME: return sizeof(struct nfs3_rename_res);
	case NFS3PROC_LINK: return sizeof(struct nfs3_link_res);
	case NFS3PROC_READDIR: return sizeof(struct nfs3_readdir_res);
	case NFS3PROC_READDIRPLUS: return sizeof(struct nfs3_readdirplus_res);
	case NFS3PROC_FSSTAT: return sizeof(struct nfs3_fsstat_res);
	case NFS3PROC_FSINFO: return sizeof(struct nfs3_fsinfo_res);
	case NFS3PROC_PATHCONF: return sizeof(struct nfs3_pathconf_res);
	case NFS3PROC_COMMIT: return sizeof(struct nfs3_commit_res);
	default: return 0;
	}
}

static int parse(struct nfs4_compound_res *r, void *ctx)
{
	struct v4call *q = ctx;
	int ret;

	memset(q->res, 0, res_size(q->proc));
	q->w.st4 = NFS4_OK;
	q->w.stopped = false;
	ret = parse_ops(r, q);
	if (ret)
		return ret;
	/* every v3 result begins with its status */
	*(uint32_t *)q->res = nfs4_stat_to_nfs3(q->w.st4);
	return 0;
}

/* Which procedures exist (dec non-NULL); the calls go through v4_call. */
#define P4(num) [num] = { .wire_proc = NFS4_PROC_COMPOUND, \
			  .dec = nfs3_dec_getattr_res }

static const struct nfs_proc nfs4_procs[NFS3PROC_COUNT] = {
	[NFS3PROC_NULL] = { .wire_proc = NFS4_PROC_NULL },
	P4(NFS3PROC_GETATTR), P4(NFS3PROC_SETATTR), P4(NFS3PROC_LOOKUP),
	P4(NFS3PROC_ACCESS), P4(NFS3PROC_READLINK), P4(NFS3PROC_READ),
	P4(NFS3PROC_WRITE), P4(NFS3PROC_CREATE), P4(NFS3PROC_MKDIR),
	P4(NFS3PROC_SYMLINK), P4(NFS3PROC_MKNOD), P4(NFS3PROC_REMOVE),
	P4(NFS3PROC_RMDIR), P4(NFS3PROC_RENAME), P4(NFS3PROC_LINK),
	P4(NFS3PROC_READDIR), P4(NFS3PROC_READDIRPLUS), P4(NFS3PROC_FSSTAT),
	P4(NFS3PROC_FSINFO), P4(NFS3PROC_PATHCONF), P4(NFS3PROC_COMMIT),
};

static const char *const nfs4_proc_names[] = { "NULL", "COMPOUND" };

const struct nfs_version nfs_version4 = {
	.vers = NFS4_VERSION,
	.procs = nfs4_procs,
	.names = nfs4_proc_names,
	.nnames = 2,
	.call = v4_call,
	.call_async = v4_call_async,
};

/* ---- the export's root: PUTROOTFH and a LOOKUP per component ---- */

struct root_walk {
	const char *comp[NFS4_MAXOPS - 4];
	char lens[NFS4_MAXOPS - 4];
	unsigned n;
	struct nfs_fh3 *out;
	uint32_t st4;
	unsigned failed_at;  /* component the walk stopped at */
};

static int build_root(struct nfs4_compound *cmp, void *ctx)
{
	struct root_walk *w = ctx;

	nfs4_add_putrootfh(cmp);
	for (unsigned i = 0; i < w->n; i++) {
		struct nfs4_lookup_args la = { { w->comp[i],
						 (uint32_t)w->lens[i] } };

		nfs4_add_lookup(cmp, &la);
	}
	return nfs4_add_getfh(cmp);
}

static int parse_root(struct nfs4_compound_res *r, void *ctx)
{
	struct root_walk *w = ctx;
	struct nfs4_status_res sr;
	struct nfs4_getfh_res gf;
	int ret;

	w->st4 = NFS4_OK;
	for (unsigned i = 0; i <= w->n; i++) {
		ret = nfs4_compound_next(r, i ? NFS4OP_LOOKUP
					      : NFS4OP_PUTROOTFH, &sr);
		if (ret == -ENODATA || (ret == 0 && sr.status != NFS4_OK)) {
			w->st4 = ret ? r->status : sr.status;
			w->failed_at = i;
			return 0;
		}
		if (ret)
			return ret;
	}
	ret = nfs4_compound_next(r, NFS4OP_GETFH, &gf);
	if (ret == -ENODATA || (ret == 0 && gf.status != NFS4_OK)) {
		w->st4 = ret ? r->status : gf.status;
		return 0;
	}
	if (ret)
		return ret;
	if (nfs4_fh_to_fh3(&gf.fh, w->out))
		w->st4 = NFS4ERR_SERVERFAULT;
	return 0;
}

int nfs4_root_fh(struct nfs_client *c, const struct rpc_cred *cred,
		 const char *path, struct nfs_fh3 *out, const char **failed,
		 size_t *failed_len)
{
	struct root_walk w = { .out = out };
	const char *p = path;
	int ret;

	*failed = NULL;
	*failed_len = 0;
	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n > NFS4_MAXNAMLEN || n > 127)
			return -ENAMETOOLONG;
		if (w.n == sizeof(w.comp) / sizeof(w.comp[0]))
			return -E2BIG;
		if (!(n == 1 && p[0] == '.')) {
			w.comp[w.n] = p;
			w.lens[w.n++] = (char)n;
		}
		p += n;
	}
	ret = nfs4_session_call(c->v4, cred, 0, build_root, parse_root, &w,
				NULL, NULL);
	if (ret)
		return ret;
	if (w.st4 != NFS4_OK && w.failed_at > 0) {
		*failed = w.comp[w.failed_at - 1];
		*failed_len = (size_t)w.lens[w.failed_at - 1];
	}
	return w.st4 == NFS4_OK ? 0 : nfs_stat_errno(nfs4_stat_to_nfs3(w.st4));
}
