/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Open files: close-to-open revalidation, READ, UNSTABLE WRITE and the
 * COMMIT that makes the writes durable before close() returns.
 *
 * If the server restarts between WRITE and COMMIT its write verifier
 * changes and the uncommitted bytes may be gone; without a copy of them
 * here the honest answer is EIO at the next flush or fsync.
 */
#include "fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

struct open_file {
	struct inode *ino;
	pthread_mutex_t lock;    /* protects everything below */
	bool uncommitted;        /* UNSTABLE writes not yet committed */
	bool have_verf;
	uint8_t verf[NFS3_WRITEVERFSIZE];
	int err;                 /* write error to report at flush/fsync */
};

static struct open_file *of_of(struct fuse_file_info *fi)
{
	return (struct open_file *)(uintptr_t)fi->fh;
}

static uint32_t access_for_flags(int flags)
{
	switch (flags & O_ACCMODE) {
	case O_RDONLY:
		return ACCESS3_READ;
	case O_WRONLY:
		return ACCESS3_MODIFY | ACCESS3_EXTEND;
	default:
		return ACCESS3_READ | ACCESS3_MODIFY | ACCESS3_EXTEND;
	}
}

/*
 * Close-to-open: ask the server, at open, both whether this caller may open
 * the file this way and what its attributes are now.  ACCESS returns the
 * attributes too, so one round trip does both; GETATTR is the fallback for
 * a server that leaves them out.
 */
static int open_check(fuse_req_t req, struct inode *ino, int flags)
{
	struct nfs3_access_args args = { .object = ino->fh,
					 .access = access_for_flags(flags) };
	struct nfs3_access_res res;
	struct fattr3 a;
	int ret;

	ret = fs_call(req, NFS3PROC_ACCESS, &args, &res, NULL);
	if (ret)
		return ret;
	fs_learn(ino, &res.obj_attributes);
	if (res.status != NFS3_OK)
		return nfs_stat_errno(res.status);
	if ((res.access & args.access) != args.access)
		return -EACCES;
	if (!res.obj_attributes.present)
		return fs_getattr_rpc(req, ino, &a);
	return 0;
}

static int truncate_to_zero(fuse_req_t req, struct inode *ino)
{
	struct nfs3_setattr_args args;
	struct nfs3_setattr_res res;
	int ret;

	memset(&args, 0, sizeof(args));
	args.object = ino->fh;
	args.new_attributes.set_size = true;
	args.new_attributes.size = 0;
	ret = fs_call(req, NFS3PROC_SETATTR, &args, &res, NULL);
	if (ret)
		return ret;
	fs_learn_wcc(ino, &res.obj_wcc);
	return nfs_stat_errno(res.status);
}

static struct open_file *handle_new(struct inode *ino)
{
	struct open_file *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->ino = ino;
	pthread_mutex_init(&h->lock, NULL);
	return h;
}

static void handle_free(struct open_file *h)
{
	pthread_mutex_destroy(&h->lock);
	free(h);
}

void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct inode *i = fs_inode(req, ino);
	struct open_file *h;
	int ret;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	ret = open_check(req, i, fi->flags);
	if (ret == 0 && (fi->flags & O_TRUNC))
		ret = truncate_to_zero(req, i);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	h = handle_new(i);
	if (!h) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fi->fh = (uintptr_t)h;
	/* Whether the kernel may keep its page cache is the cache layer's
	 * decision; until it can prove the data unchanged, it may not. */
	fi->keep_cache = 0;
	if (fuse_reply_open(req, fi))
		handle_free(h);
}

void fs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
	       mode_t mode, struct fuse_file_info *fi)
{
	struct inode *dir = fs_inode(req, parent);
	struct nfs3_create_args args;
	struct nfs3_diropres res;
	struct open_file *h;
	int ret;

	if (!dir) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (strlen(name) > NFS3_MAXNAMLEN) {
		fuse_reply_err(req, ENAMETOOLONG);
		return;
	}
	memset(&args, 0, sizeof(args));
	args.where.dir = &dir->fh;
	args.where.name = name;
	args.mode = (fi->flags & O_EXCL) ? GUARDED : UNCHECKED;
	args.obj_attributes.set_mode = true;
	args.obj_attributes.mode = mode & 07777;
	if (fi->flags & O_TRUNC) {
		args.obj_attributes.set_size = true;
		args.obj_attributes.size = 0;
	}
	ret = fs_call(req, NFS3PROC_CREATE, &args, &res, NULL);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	h = handle_new(NULL);
	if (!h) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fi->fh = (uintptr_t)h;
	fi->keep_cache = 0;
	/* The handle learns its inode at the first write: fs_reply_created
	 * replies, so it cannot hand the inode back to us here. */
	fs_reply_created(req, dir, &res, name, fi);
}

/* The inode behind an open file.  Created files learn it late (above). */
static struct inode *handle_inode(fuse_req_t req, struct open_file *h,
				  fuse_ino_t ino)
{
	if (!h->ino)
		h->ino = fs_inode(req, ino);
	return h->ino;
}

void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	     struct fuse_file_info *fi)
{
	struct fs *fs = fs_of(req);
	struct open_file *h = of_of(fi);
	struct inode *i = handle_inode(req, h, ino);
	struct nfs3_read_args args;
	struct nfs3_read_res res;
	struct rpc_reply reply = { 0 };
	int ret;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (size > fs->nfs->rsize)
		size = fs->nfs->rsize;
	args.file = i->fh;
	args.offset = (uint64_t)off;
	args.count = (uint32_t)size;
	ret = fs_call(req, NFS3PROC_READ, &args, &res, &reply);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn(i, &res.file_attributes);
	if (res.status != NFS3_OK) {
		rpc_reply_release(&reply);
		fuse_reply_err(req, -nfs_stat_errno(res.status));
		return;
	}
	/* A server that returns more than we asked for is not believed. */
	if (res.data_len > size || res.count != res.data_len) {
		nf_log(NF_LOG_WARNING, "READ reply with %u bytes for %zu asked",
		       res.data_len, size);
		rpc_reply_release(&reply);
		fuse_reply_err(req, EIO);
		return;
	}
	/* A short read without eof is legal; the kernel asks again for the
	 * rest, so returning what we have is enough. */
	fuse_reply_buf(req, (const char *)res.data, res.data_len);
	rpc_reply_release(&reply);
}

static void note_verf(struct open_file *h, const uint8_t *verf)
{
	pthread_mutex_lock(&h->lock);
	if (h->have_verf && memcmp(h->verf, verf, NFS3_WRITEVERFSIZE) &&
	    h->uncommitted) {
		/* The server restarted since earlier UNSTABLE writes: they
		 * may be lost, and we keep no copy to send again. */
		nf_log(NF_LOG_WARNING, "write verifier changed: server "
		       "restarted, uncommitted data may be lost");
		h->err = -EIO;
	}
	memcpy(h->verf, verf, NFS3_WRITEVERFSIZE);
	h->have_verf = true;
	pthread_mutex_unlock(&h->lock);
}

void fs_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
	      off_t off, struct fuse_file_info *fi)
{
	struct fs *fs = fs_of(req);
	struct open_file *h = of_of(fi);
	struct inode *i = handle_inode(req, h, ino);
	size_t done = 0;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	while (done < size) {
		struct nfs3_write_args args;
		struct nfs3_write_res res;
		size_t n = size - done;
		int ret;

		if (n > fs->nfs->wsize)
			n = fs->nfs->wsize;
		args.file = i->fh;
		args.offset = (uint64_t)off + done;
		args.count = (uint32_t)n;
		args.stable = UNSTABLE;
		args.data = buf + done;
		ret = fs_call(req, NFS3PROC_WRITE, &args, &res, NULL);
		if (ret == 0) {
			fs_learn_wcc(i, &res.file_wcc);
			ret = nfs_stat_errno(res.status);
		}
		if (ret == 0 && (res.count == 0 || res.count > n))
			ret = -EIO;
		if (ret) {
			if (done)
				break;
			fuse_reply_err(req, -ret);
			return;
		}
		note_verf(h, res.verf);
		if (res.committed == UNSTABLE) {
			pthread_mutex_lock(&h->lock);
			h->uncommitted = true;
			pthread_mutex_unlock(&h->lock);
		}
		done += res.count;
	}
	fuse_reply_write(req, done);
}

/* COMMIT everything written through h; the deferred error, if any. */
static int commit(fuse_req_t req, struct open_file *h)
{
	struct nfs3_commit_args args;
	struct nfs3_commit_res res;
	bool uncommitted;
	int ret;

	pthread_mutex_lock(&h->lock);
	uncommitted = h->uncommitted;
	ret = h->err;
	h->err = 0;
	pthread_mutex_unlock(&h->lock);
	if (ret || !uncommitted || !h->ino)
		return ret;

	memset(&args, 0, sizeof(args));
	args.file = h->ino->fh;
	ret = fs_call(req, NFS3PROC_COMMIT, &args, &res, NULL);
	if (ret)
		return ret;
	fs_learn_wcc(h->ino, &res.file_wcc);
	ret = nfs_stat_errno(res.status);
	if (ret)
		return ret;
	pthread_mutex_lock(&h->lock);
	if (h->have_verf && memcmp(h->verf, res.verf, NFS3_WRITEVERFSIZE)) {
		nf_log(NF_LOG_WARNING, "COMMIT verifier differs from WRITE's: "
		       "server restarted, uncommitted data may be lost");
		ret = -EIO;
	}
	memcpy(h->verf, res.verf, NFS3_WRITEVERFSIZE);
	h->uncommitted = false;
	pthread_mutex_unlock(&h->lock);
	return ret;
}

void fs_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct open_file *h = of_of(fi);

	handle_inode(req, h, ino);
	fuse_reply_err(req, -commit(req, h));
}

void fs_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
	      struct fuse_file_info *fi)
{
	struct open_file *h = of_of(fi);

	(void)datasync;
	handle_inode(req, h, ino);
	fuse_reply_err(req, -commit(req, h));
}

void fs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct open_file *h = of_of(fi);
	int ret;

	handle_inode(req, h, ino);
	ret = commit(req, h);
	if (ret)
		nf_log(NF_LOG_WARNING, "data of node %llu may not have "
		       "reached the server: %s", (unsigned long long)ino,
		       strerror(-ret));
	handle_free(h);
	fuse_reply_err(req, 0);
}

int fs_lock_acquired(fuse_req_t req, struct inode *ino)
{
	struct fattr3 a;

	/* Until the data cache lands, nothing here outlives a request but the
	 * kernel's page cache; drop it so the next read asks the server. */
	fuse_lowlevel_notify_inval_inode(fs_of(req)->se, ino->id, 0, 0);
	return fs_getattr_rpc(req, ino, &a);
}

int fs_lock_releasing(fuse_req_t req, struct inode *ino)
{
	/* Writes are synchronous UNSTABLE WRITEs: what is written is on the
	 * server, and COMMIT happens at flush. */
	(void)req;
	(void)ino;
	return 0;
}
