/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Handlers for attributes and names, the helpers the other fs_*.c files
 * share, and the operations table.
 */
#include "fs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "log.h"

struct fs *fs_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

void fs_req_cred(fuse_req_t req, struct rpc_cred *cred)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);
	gid_t groups[RPC_AUTH_SYS_MAXGIDS];
	int n;

	memset(cred, 0, sizeof(*cred));
	cred->flavor = RPC_AUTH_SYS;
	cred->machinename = fs_of(req)->machinename;
	cred->uid = ctx->uid;
	cred->gid = ctx->gid;
	/* A process with more than 16 groups is cut to the first 16, as the
	 * kernel client does with AUTH_SYS; the server may then deny what
	 * the 17th group would have allowed. */
	n = fuse_req_getgroups(req, RPC_AUTH_SYS_MAXGIDS, groups);
	if (n > (int)RPC_AUTH_SYS_MAXGIDS)
		n = RPC_AUTH_SYS_MAXGIDS;
	for (int i = 0; i < n; i++)
		cred->gids[i] = groups[i];
	cred->ngids = n > 0 ? (uint32_t)n : 0;
}

struct inode *fs_inode(fuse_req_t req, fuse_ino_t ino)
{
	struct inode *i = inode_get(fs_of(req)->inodes, ino);

	if (!i)
		nf_log(NF_LOG_ERR, "kernel named unknown node %llu",
		       (unsigned long long)ino);
	return i;
}

static void on_interrupt(fuse_req_t req, void *data)
{
	(void)req;
	*(volatile int *)data = 1;
}

int fs_call(fuse_req_t req, enum nfs3_proc proc, const void *args, void *res,
	    struct rpc_reply *reply)
{
	struct rpc_cred cred;
	volatile int interrupted = 0;
	int ret;

	fs_req_cred(req, &cred);
	fuse_req_interrupt_func(req, on_interrupt, (void *)&interrupted);
	ret = nfs_call(fs_of(req)->nfs, proc, &cred, args, res, reply,
		       &interrupted);
	/* After this, libfuse will not call on_interrupt again, so the flag
	 * on our stack may go away. */
	fuse_req_interrupt_func(req, NULL, NULL);
	return ret;
}

static mode_t ftype_to_mode(uint32_t type)
{
	switch (type) {
	case NF3REG: return S_IFREG;
	case NF3DIR: return S_IFDIR;
	case NF3BLK: return S_IFBLK;
	case NF3CHR: return S_IFCHR;
	case NF3LNK: return S_IFLNK;
	case NF3SOCK: return S_IFSOCK;
	case NF3FIFO: return S_IFIFO;
	}
	return S_IFREG;
}

void fs_fattr_to_stat(const struct fattr3 *a, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = a->fileid;
	st->st_mode = ftype_to_mode(a->type) | (a->mode & 07777);
	st->st_nlink = a->nlink;
	st->st_uid = a->uid;
	st->st_gid = a->gid;
	st->st_size = (off_t)a->size;
	st->st_blocks = (blkcnt_t)((a->used + 511) / 512);
	st->st_blksize = 4096;
	st->st_rdev = makedev(a->rdev.specdata1, a->rdev.specdata2);
	st->st_atim.tv_sec = a->atime.seconds;
	st->st_atim.tv_nsec = a->atime.nseconds;
	st->st_mtim.tv_sec = a->mtime.seconds;
	st->st_mtim.tv_nsec = a->mtime.nseconds;
	st->st_ctim.tv_sec = a->ctime.seconds;
	st->st_ctim.tv_nsec = a->ctime.nseconds;
}

double fs_attr_timeout(struct fs *fs, const struct fattr3 *a)
{
	if (fs->opts->noac)
		return 0.0;
	return a->type == NF3DIR ? fs->opts->acdirmin : fs->opts->acregmin;
}

void fs_learn(struct inode *ino, const struct post_op_attr *a)
{
	if (ino && a->present)
		inode_set_attr(ino, &a->attr);
}

void fs_learn_wcc(struct inode *ino, const struct wcc_data *w)
{
	if (!ino)
		return;
	if (w->after.present)
		inode_set_attr(ino, &w->after.attr);
	else
		inode_invalidate_attr(ino);
}

static int getattr_fh(fuse_req_t req, const struct nfs_fh3 *fh,
		      struct fattr3 *a)
{
	struct nfs3_getattr_args args = { .object = *fh };
	struct nfs3_getattr_res res;
	int ret = fs_call(req, NFS3PROC_GETATTR, &args, &res, NULL);

	if (ret)
		return ret;
	if (res.status != NFS3_OK)
		return nfs_stat_errno(res.status);
	*a = res.obj_attributes;
	return 0;
}

int fs_getattr_rpc(fuse_req_t req, struct inode *ino, struct fattr3 *a)
{
	int ret = getattr_fh(req, &ino->fh, a);

	if (ret == 0)
		inode_set_attr(ino, a);
	return ret;
}

int fs_make_entry(fuse_req_t req, const struct nfs_fh3 *fh,
		  const struct post_op_attr *a, struct fuse_entry_param *e)
{
	struct fs *fs = fs_of(req);
	struct fattr3 attr;
	struct inode *ino;
	int ret;

	if (a && a->present) {
		attr = a->attr;
	} else {
		ret = getattr_fh(req, fh, &attr);
		if (ret)
			return ret;
	}
	ino = inode_remember(fs->inodes, fh);
	if (!ino)
		return -ENOMEM;
	inode_set_attr(ino, &attr);
	memset(e, 0, sizeof(*e));
	e->ino = ino->id;
	fs_fattr_to_stat(&attr, &e->attr);
	e->attr_timeout = e->entry_timeout = fs_attr_timeout(fs, &attr);
	return 0;
}

/* The kernel did not take the entry (the request was interrupted): give
 * back the lookup that fs_make_entry counted for it. */
static void entry_not_taken(fuse_req_t req, const struct fuse_entry_param *e)
{
	inode_forget(fs_of(req)->inodes, e->ino, 1);
}

static int lookup_name(fuse_req_t req, struct inode *dir, const char *name,
		       struct fuse_entry_param *e)
{
	struct nfs3_lookup_args args = { .what = { &dir->fh, name } };
	struct nfs3_lookup_res res;
	int ret;

	if (strlen(name) > NFS3_MAXNAMLEN)
		return -ENAMETOOLONG;
	ret = fs_call(req, NFS3PROC_LOOKUP, &args, &res, NULL);
	if (ret)
		return ret;
	fs_learn(dir, &res.dir_attributes);
	if (res.status != NFS3_OK)
		return nfs_stat_errno(res.status);
	return fs_make_entry(req, &res.object, &res.obj_attributes, e);
}

void fs_reply_created(fuse_req_t req, struct inode *dir,
		      const struct nfs3_diropres *r, const char *name,
		      struct fuse_file_info *fi)
{
	struct fuse_entry_param e;
	int ret;

	fs_learn_wcc(dir, &r->dir_wcc);
	if (r->status != NFS3_OK) {
		fuse_reply_err(req, -nfs_stat_errno(r->status));
		return;
	}
	/* RFC 1813 lets a server create the object without returning its
	 * handle; then we must look the name up like anyone else. */
	if (r->obj.present)
		ret = fs_make_entry(req, &r->obj.fh, &r->obj_attributes, &e);
	else
		ret = lookup_name(req, dir, name, &e);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	if (fi ? fuse_reply_create(req, &e, fi) : fuse_reply_entry(req, &e))
		entry_not_taken(req, &e);
}

static void fs_init(void *userdata, struct fuse_conn_info *conn)
{
	struct fs *fs = userdata;

	/* max_read stays as the mount options left it: libfuse insists that
	 * both agree, and fs_read() splits what exceeds rsize anyway. */
	conn->max_write = fs->nfs->wsize;
	if (conn->max_readahead > fs->nfs->rsize * 4)
		conn->max_readahead = fs->nfs->rsize * 4;
	if (conn->capable & FUSE_CAP_READDIRPLUS && fs->opts->rdirplus)
		conn->want |= FUSE_CAP_READDIRPLUS;
	else
		conn->want &= ~FUSE_CAP_READDIRPLUS;
	conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
	if (conn->capable & FUSE_CAP_ASYNC_READ)
		conn->want |= FUSE_CAP_ASYNC_READ;
	/* The server decides permissions (ACCESS, and every call's AUTH_SYS
	 * identity); the kernel keeps its page cache only where close-to-open
	 * says it may. */
	conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
	conn->want |= FUSE_CAP_ATOMIC_O_TRUNC & conn->capable;
}

static void fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct inode *dir = fs_inode(req, parent);
	struct fuse_entry_param e;
	int ret;

	if (!dir) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	ret = lookup_name(req, dir, name, &e);
	if (ret == -ENOENT) {
		/* A negative entry with no lifetime: the kernel asks again
		 * next time, so a file created elsewhere is seen at once. */
		memset(&e, 0, sizeof(e));
		fuse_reply_entry(req, &e);
		return;
	}
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	if (fuse_reply_entry(req, &e))
		entry_not_taken(req, &e);
}

static void fs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	inode_forget(fs_of(req)->inodes, ino, nlookup);
	fuse_reply_none(req);
}

static void fs_forget_multi(fuse_req_t req, size_t count,
			    struct fuse_forget_data *forgets)
{
	struct fs *fs = fs_of(req);

	for (size_t i = 0; i < count; i++)
		inode_forget(fs->inodes, forgets[i].ino, forgets[i].nlookup);
	fuse_reply_none(req);
}

static void fs_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct inode *i = fs_inode(req, ino);
	struct fattr3 a;
	struct stat st;
	int ret;

	(void)fi;
	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	ret = fs_getattr_rpc(req, i, &a);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_fattr_to_stat(&a, &st);
	fuse_reply_attr(req, &st, fs_attr_timeout(fs_of(req), &a));
}

static void set_time(uint32_t *how, struct nfstime3 *t, bool now,
		     const struct timespec *ts)
{
	if (now) {
		*how = SET_TO_SERVER_TIME;
	} else {
		*how = SET_TO_CLIENT_TIME;
		t->seconds = (uint32_t)ts->tv_sec;
		t->nseconds = (uint32_t)ts->tv_nsec;
	}
}

static void fs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int to_set, struct fuse_file_info *fi)
{
	struct inode *i = fs_inode(req, ino);
	struct nfs3_setattr_args args;
	struct nfs3_setattr_res res;
	struct fattr3 a;
	struct stat st;
	int ret;

	(void)fi;
	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	memset(&args, 0, sizeof(args));
	args.object = i->fh;
	if (to_set & FUSE_SET_ATTR_MODE) {
		args.new_attributes.set_mode = true;
		args.new_attributes.mode = attr->st_mode & 07777;
	}
	if (to_set & FUSE_SET_ATTR_UID) {
		args.new_attributes.set_uid = true;
		args.new_attributes.uid = attr->st_uid;
	}
	if (to_set & FUSE_SET_ATTR_GID) {
		args.new_attributes.set_gid = true;
		args.new_attributes.gid = attr->st_gid;
	}
	if (to_set & FUSE_SET_ATTR_SIZE) {
		args.new_attributes.set_size = true;
		args.new_attributes.size = (uint64_t)attr->st_size;
	}
	if (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_ATIME_NOW))
		set_time(&args.new_attributes.set_atime,
			 &args.new_attributes.atime,
			 to_set & FUSE_SET_ATTR_ATIME_NOW, &attr->st_atim);
	if (to_set & (FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_MTIME_NOW))
		set_time(&args.new_attributes.set_mtime,
			 &args.new_attributes.mtime,
			 to_set & FUSE_SET_ATTR_MTIME_NOW, &attr->st_mtim);

	ret = fs_call(req, NFS3PROC_SETATTR, &args, &res, NULL);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn_wcc(i, &res.obj_wcc);
	if (res.status != NFS3_OK) {
		fuse_reply_err(req, -nfs_stat_errno(res.status));
		return;
	}
	if (res.obj_wcc.after.present)
		a = res.obj_wcc.after.attr;
	else if ((ret = fs_getattr_rpc(req, i, &a))) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_fattr_to_stat(&a, &st);
	fuse_reply_attr(req, &st, fs_attr_timeout(fs_of(req), &a));
}

static void fs_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct inode *i = fs_inode(req, ino);
	struct nfs3_readlink_args args;
	struct nfs3_readlink_res res;
	struct rpc_reply reply = { 0 };
	char *target;
	int ret;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	args.symlink = i->fh;
	ret = fs_call(req, NFS3PROC_READLINK, &args, &res, &reply);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn(i, &res.symlink_attributes);
	if (res.status != NFS3_OK) {
		rpc_reply_release(&reply);
		fuse_reply_err(req, -nfs_stat_errno(res.status));
		return;
	}
	target = strndup(res.data, res.len);
	rpc_reply_release(&reply);
	if (!target) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fuse_reply_readlink(req, target);
	free(target);
}

static void fs_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	struct inode *i = fs_inode(req, ino);
	struct nfs3_access_args args;
	struct nfs3_access_res res;
	struct fattr3 a;
	bool dir;
	int ret;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (mask == F_OK) {
		fuse_reply_err(req, 0);
		return;
	}
	dir = inode_get_attr(i, &a) && a.type == NF3DIR;
	args.object = i->fh;
	args.access = 0;
	if (mask & R_OK)
		args.access |= ACCESS3_READ;
	if (mask & W_OK)
		args.access |= ACCESS3_MODIFY | ACCESS3_EXTEND |
			       (dir ? ACCESS3_DELETE : 0);
	if (mask & X_OK)
		args.access |= dir ? ACCESS3_LOOKUP : ACCESS3_EXECUTE;
	ret = fs_call(req, NFS3PROC_ACCESS, &args, &res, NULL);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn(i, &res.obj_attributes);
	if (res.status != NFS3_OK) {
		fuse_reply_err(req, -nfs_stat_errno(res.status));
		return;
	}
	/* DELETE is a hint for directories: a server may refuse it while
	 * still allowing creation, so W_OK asks only for MODIFY|EXTEND. */
	args.access &= ~ACCESS3_DELETE;
	fuse_reply_err(req, (res.access & args.access) == args.access ? 0
								       : EACCES);
}

static void fs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct inode *i = fs_inode(req, ino);
	struct nfs3_fsstat_args args;
	struct nfs3_fsstat_res res;
	struct statvfs sv;
	const unsigned long bsize = 4096;
	int ret;

	if (!i)
		i = inode_root(fs_of(req)->inodes);
	args.fsroot = i->fh;
	ret = fs_call(req, NFS3PROC_FSSTAT, &args, &res, NULL);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn(i, &res.obj_attributes);
	if (res.status != NFS3_OK) {
		fuse_reply_err(req, -nfs_stat_errno(res.status));
		return;
	}
	memset(&sv, 0, sizeof(sv));
	sv.f_bsize = bsize;
	sv.f_frsize = bsize;
	sv.f_blocks = res.tbytes / bsize;
	sv.f_bfree = res.fbytes / bsize;
	sv.f_bavail = res.abytes / bsize;
	sv.f_files = res.tfiles;
	sv.f_ffree = res.ffiles;
	sv.f_favail = res.afiles;
	sv.f_namemax = NFS3_MAXNAMLEN;
	fuse_reply_statfs(req, &sv);
}

const struct fuse_lowlevel_ops fs_ops = {
	.init = fs_init,
	.lookup = fs_lookup,
	.forget = fs_forget,
	.forget_multi = fs_forget_multi,
	.getattr = fs_getattr,
	.setattr = fs_setattr,
	.readlink = fs_readlink,
	.mknod = fs_mknod,
	.mkdir = fs_mkdir,
	.unlink = fs_unlink,
	.rmdir = fs_rmdir,
	.symlink = fs_symlink,
	.rename = fs_rename,
	.link = fs_link,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.flush = fs_flush,
	.release = fs_release,
	.fsync = fs_fsync,
	.opendir = fs_opendir,
	.readdir = fs_readdir,
	.readdirplus = fs_readdirplus,
	.releasedir = fs_releasedir,
	.fsyncdir = fs_fsyncdir,
	.statfs = fs_statfs,
	.access = fs_access,
	.create = fs_create,
};
