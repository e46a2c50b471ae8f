/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lseek(SEEK_DATA/SEEK_HOLE), fallocate and copy_file_range through the
 * NFSv4.2 operations (proto/nfs42_ops.h), and what each does where the
 * mount has none (NFSv3, NFSv2, NFSv4.1) or the server answers NOTSUPP.
 * The first such answer is remembered for the mount (fs->v42_missing),
 * so the server is asked once:
 *
 *   lseek            SEEK; else ENOSYS, after which the kernel answers
 *                    every SEEK_DATA/SEEK_HOLE of the mount itself as a
 *                    local file system without holes does (data up to
 *                    the size it knows, one hole from there), and asks
 *                    no more.
 *   fallocate        ALLOCATE (mode 0, FALLOC_FL_KEEP_SIZE), DEALLOCATE
 *                    (FALLOC_FL_PUNCH_HOLE); else EOPNOTSUPP, as from a
 *                    local file system without them.  Not ENOSYS: the
 *                    kernel would then refuse both kinds for good, where
 *                    a server may lack only one.
 *   copy_file_range  COPY; else ENOSYS: the kernel marks the mount as
 *                    without copy_file_range and copies through the page
 *                    cache itself (READs and WRITEs), for this call and
 *                    every later one, so copy_file_range(2) and cp still
 *                    succeed.  (EOPNOTSUPP or EXDEV would make it copy
 *                    too, but ask again at every call.)
 *
 * Caches: our write-behind of the file (of the source and destination
 * for COPY) reaches the server before the operation, which must see
 * those bytes.  A punched or copied-into range changes the data: the
 * daemon's blocks of the file are dropped (and READs in flight
 * disowned); the kernel drops its pages of the range itself.  The
 * attributes after the operation come in its reply, so the new size is
 * what the next stat sees.
 */
#include "fs.h"
#include "fs_wait.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <unistd.h>

#include "../base/trace.h"
#include "../proto/nfs42_ops.h"

/* Bytes one COPY is asked for at most: a synchronous COPY holds a
 * session slot and the caller until the server is done, and a soft
 * mount gives up on a call after timeo; copy_file_range(2) may copy
 * less than asked, and its callers go on from there. */
#define COPY_MAX (256ull << 20)

/* ---- lseek ---- */

static int seek_call(fuse_req_t req, struct inode *i, uint64_t off,
		     bool hole, struct nfs42_seek_res *res)
{
	struct fs_wait w;
	struct rpc_cred cred;
	int ret;

	fs_req_cred(req, &cred);
	fs_wait_begin(&w, req);
	ret = nfs42_seek(fs_of(req)->nfs, &cred, &i->fh, off, hole, res,
			 &w.stop);
	fs_wait_end(&w);
	return ret;
}

void fs_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
	      struct fuse_file_info *fi)
{
	struct fs *fs = fs_of(req);
	bool hole = whence == SEEK_HOLE;
	struct nfs42_seek_res res;
	struct inode *i;
	int64_t at;
	int ret;

	(void)fi;
	if (whence != SEEK_DATA && whence != SEEK_HOLE) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (fs_v42_lacks(fs, FS_NO_SEEK, "lseek")) {
		fuse_reply_err(req, ENOSYS);
		return;
	}
	i = fs_inode(req, ino);
	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (off < 0) {
		fuse_reply_err(req, ENXIO);
		return;
	}
	/* Bytes still gathered here are data the server must count. */
	if (i->wb && (ret = fs_writes_settle(req, i))) {
		fuse_reply_err(req, -ret);
		return;
	}
	ret = seek_call(req, i, (uint64_t)off, hole, &res);
	if (ret == -ENOTSUP || (ret == 0 && res.status == NFS3ERR_NOTSUPP)) {
		fs_v42_mark_missing(fs, FS_NO_SEEK, "lseek",
				    "SEEK not supported");
		fuse_reply_err(req, ENOSYS);
		return;
	}
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	at = nfs42_seek_answer(&res, hole);
	if (at < 0)
		fuse_reply_err(req, (int)-at);
	else
		fuse_reply_lseek(req, (off_t)at);
}

/* ---- fallocate ---- */

static int space_call(fuse_req_t req, struct inode *i, bool dealloc,
		      uint64_t off, uint64_t len, struct nfs42_space_res *res)
{
	struct fs_wait w;
	struct rpc_cred cred;
	int ret;

	fs_req_cred(req, &cred);
	fs_wait_begin(&w, req);
	ret = nfs42_space(fs_of(req)->nfs, &cred, &i->fh, dealloc, off, len,
			  res, &w.stop);
	fs_wait_end(&w);
	return ret;
}

/*
 * FALLOC_FL_KEEP_SIZE: ALLOCATE grows a file it reaches past the end
 * of (RFC 7862 §15.1), so only the part inside the file is asked for;
 * the space past it is not reserved.  *len is cut; 0 leaves nothing.
 */
static int keep_size_clip(fuse_req_t req, struct inode *i, uint64_t off,
			  uint64_t *len)
{
	struct fattr3 a;
	double left;
	int ret;

	if (!inode_fresh_attr(i, &a, &left) &&
	    (ret = fs_getattr_rpc(req, i, &a)))
		return ret;
	if (off >= a.size)
		*len = 0;
	else if (*len > a.size - off)
		*len = a.size - off;
	return 0;
}

/* The operation (and its reply) for the request: 0, or the errno. */
static int fallocate_range(fuse_req_t req, struct inode *i, bool dealloc,
			   bool keep_size, uint64_t off, uint64_t len)
{
	struct fs *fs = fs_of(req);
	unsigned bit = dealloc ? FS_NO_DEALLOC : FS_NO_ALLOC;
	const char *op = dealloc ? "deallocate" : "allocate";
	struct nfs42_space_res res;
	int ret;

	/* The server must hold our bytes before it keeps or punches the
	 * range, or a WRITE sent after would undo the punch. */
	if (i->wb && (ret = fs_writes_settle(req, i)))
		return ret;
	if (keep_size && !dealloc && (ret = keep_size_clip(req, i, off, &len)))
		return ret;
	if (len == 0)
		return 0;
	ret = space_call(req, i, dealloc, off, len, &res);
	if (ret == -ENOTSUP || (ret == 0 && res.status == NFS3ERR_NOTSUPP)) {
		fs_v42_mark_missing(fs, bit, "fallocate", dealloc
				    ? "DEALLOCATE not supported"
				    : "ALLOCATE not supported");
		return -EOPNOTSUPP;
	}
	if (ret)
		return ret;
	fs_wchanged(fs, i);
	/* Punched bytes read as zeros now: none of ours may be served,
	 * nor those of a READ sent before. */
	if (dealloc)
		fs_purge_data(fs, i, op);
	fs_learn_wcc(fs, i, &res.wcc, op);
	return nfs_stat_errno(res.status);
}

void fs_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset,
		  off_t length, struct fuse_file_info *fi)
{
	struct fs *fs = fs_of(req);
	bool dealloc = mode & FALLOC_FL_PUNCH_HOLE;
	struct inode *i;

	(void)fi;
	/* PUNCH_HOLE comes with KEEP_SIZE (the kernel sees to it);
	 * ZERO_RANGE and the rest have no NFS operation. */
	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE) ||
	    (dealloc && !(mode & FALLOC_FL_KEEP_SIZE))) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	if (offset < 0 || length <= 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	/* As vfs_fallocate() checks a local file system's s_maxbytes. */
	if ((uint64_t)offset + (uint64_t)length > fs->nfs->info.maxfilesize) {
		fuse_reply_err(req, EFBIG);
		return;
	}
	/* Both at once: the version lacks both, and says so once. */
	if (!nfs42_available(fs->nfs))
		fs_v42_mark_missing(fs, FS_NO_ALLOC | FS_NO_DEALLOC,
				    "fallocate", fs_v42_why(fs));
	if (fs_v42_missing(fs, dealloc ? FS_NO_DEALLOC : FS_NO_ALLOC)) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	i = fs_inode(req, ino);
	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	fuse_reply_err(req, -fallocate_range(req, i, dealloc,
					     mode & FALLOC_FL_KEEP_SIZE,
					     (uint64_t)offset,
					     (uint64_t)length));
}

/* ---- copy_file_range ---- */

static int copy_call(fuse_req_t req, struct inode *src, uint64_t src_off,
		     struct inode *dst, uint64_t dst_off, uint64_t len,
		     struct nfs42_copy_res *res)
{
	struct fs_wait w;
	struct rpc_cred cred;
	int ret;

	fs_req_cred(req, &cred);
	fs_wait_begin(&w, req);
	ret = nfs42_copy(fs_of(req)->nfs, &cred, &src->fh, src_off, &dst->fh,
			 dst_off, len, res, &w.stop);
	fs_wait_end(&w);
	return ret;
}

/* The COPY for the request: bytes copied, or a negative errno (-ENOSYS:
 * the kernel is to copy). */
static int64_t copy_range(fuse_req_t req, struct inode *src, uint64_t off_in,
			  struct inode *dst, uint64_t off_out, uint64_t len)
{
	struct fs *fs = fs_of(req);
	struct nfs42_copy_res res;
	int ret;

	/* The server copies what it holds: our gathered bytes of the
	 * source first, and those of the destination before the copy
	 * lands, or they would overwrite it later. */
	if (src->wb && (ret = fs_writes_settle(req, src)))
		return ret;
	if (dst->wb && (ret = fs_writes_settle(req, dst)))
		return ret;
	ret = copy_call(req, src, off_in, dst, off_out,
			len < COPY_MAX ? len : COPY_MAX, &res);
	if (ret == -ENOTSUP || (ret == 0 && res.status == NFS3ERR_NOTSUPP)) {
		fs_v42_mark_missing(fs, FS_NO_COPY, "copy_file_range",
				    "COPY not supported, the kernel copies");
		return -ENOSYS;
	}
	if (ret)
		return ret;
	if (res.status == NFS3_OK)
		TRACE("copy_file_range %s → %s: COPY of %llu bytes on the "
		      "server", fs_name_of(src), fs_name_of(dst),
		      (unsigned long long)res.count);
	/* Whatever the outcome, the destination may hold new bytes. */
	fs_wchanged(fs, dst);
	fs_purge_data(fs, dst, "copy");
	inode_invalidate_attr(dst);
	if (res.dst_attr.present)
		inode_set_attr(fs->inodes, dst, &res.dst_attr.attr);
	if (res.status != NFS3_OK)
		return nfs_stat_errno(res.status);
	return res.count <= len ? (int64_t)res.count : -EIO;
}

void fs_copy_file_range(fuse_req_t req, fuse_ino_t ino_in, off_t off_in,
			struct fuse_file_info *fi_in, fuse_ino_t ino_out,
			off_t off_out, struct fuse_file_info *fi_out,
			size_t len, int flags)
{
	struct fs *fs = fs_of(req);
	struct inode *src, *dst;
	uint64_t want;
	int64_t n;

	(void)fi_in;
	(void)fi_out;
	if (flags) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (fs_v42_lacks(fs, FS_NO_COPY, "copy_file_range")) {
		fuse_reply_err(req, ENOSYS);
		return;
	}
	src = fs_inode(req, ino_in);
	dst = fs_inode(req, ino_out);
	if (!src || !dst) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (off_in < 0 || off_out < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	/* The destination ends where write(2)'s would. */
	want = len;
	if ((n = fs_size_clip(fs, (uint64_t)off_out, &want))) {
		fuse_reply_err(req, (int)-n);
		return;
	}
	n = copy_range(req, src, (uint64_t)off_in, dst, (uint64_t)off_out,
		       want);
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_write(req, (size_t)n);
}
