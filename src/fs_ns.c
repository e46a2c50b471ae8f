/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Handlers that add, remove and move names in directories. */
#include "fs.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* The creator's mode, less the umask the kernel already applied; owner and
 * group follow from the AUTH_SYS identity of the call. */
static void sattr_mode(struct sattr3 *s, mode_t mode)
{
	memset(s, 0, sizeof(*s));
	s->set_mode = true;
	s->mode = mode & 07777;
}

static int check_name(fuse_req_t req, struct inode *dir, const char *name)
{
	if (!dir) {
		fuse_reply_err(req, ESTALE);
		return -1;
	}
	if (strlen(name) > NFS3_MAXNAMLEN) {
		fuse_reply_err(req, ENAMETOOLONG);
		return -1;
	}
	return 0;
}

static void reply_diropres_call(fuse_req_t req, struct inode *dir,
				enum nfs3_proc proc, const void *args,
				const char *name)
{
	struct nfs3_diropres res;
	int ret = fs_call(req, proc, args, &res, NULL);

	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_reply_created(req, dir, &res, name, NULL);
}

void fs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode, dev_t rdev)
{
	struct inode *dir = fs_inode(req, parent);
	struct nfs3_mknod_args args;

	if (check_name(req, dir, name))
		return;
	memset(&args, 0, sizeof(args));
	args.where.dir = &dir->fh;
	args.where.name = name;
	sattr_mode(&args.attributes, mode);
	switch (mode & S_IFMT) {
	case S_IFREG: {
		/* mknod(2) of a regular file is a plain create. */
		struct nfs3_create_args c;

		memset(&c, 0, sizeof(c));
		c.where = args.where;
		c.mode = GUARDED;
		c.obj_attributes = args.attributes;
		reply_diropres_call(req, dir, NFS3PROC_CREATE, &c, name);
		return;
	}
	case S_IFCHR:
		args.type = NF3CHR;
		break;
	case S_IFBLK:
		args.type = NF3BLK;
		break;
	case S_IFIFO:
		args.type = NF3FIFO;
		break;
	case S_IFSOCK:
		args.type = NF3SOCK;
		break;
	default:
		fuse_reply_err(req, EINVAL);
		return;
	}
	args.spec.specdata1 = major(rdev);
	args.spec.specdata2 = minor(rdev);
	reply_diropres_call(req, dir, NFS3PROC_MKNOD, &args, name);
}

void fs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode)
{
	struct inode *dir = fs_inode(req, parent);
	struct nfs3_mkdir_args args;

	if (check_name(req, dir, name))
		return;
	args.where.dir = &dir->fh;
	args.where.name = name;
	sattr_mode(&args.attributes, mode);
	reply_diropres_call(req, dir, NFS3PROC_MKDIR, &args, name);
}

void fs_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		const char *name)
{
	struct inode *dir = fs_inode(req, parent);
	struct nfs3_symlink_args args;

	if (check_name(req, dir, name))
		return;
	if (strlen(link) > NFS3_MAXPATHLEN) {
		fuse_reply_err(req, ENAMETOOLONG);
		return;
	}
	args.where.dir = &dir->fh;
	args.where.name = name;
	memset(&args.symlink_attributes, 0, sizeof(args.symlink_attributes));
	args.symlink_data = link;
	reply_diropres_call(req, dir, NFS3PROC_SYMLINK, &args, name);
}

static void remove_name(fuse_req_t req, fuse_ino_t parent, const char *name,
			enum nfs3_proc proc)
{
	struct inode *dir = fs_inode(req, parent);
	struct nfs3_remove_args args;
	struct nfs3_wccstat_res res;
	int ret;

	if (check_name(req, dir, name))
		return;
	args.object.dir = &dir->fh;
	args.object.name = name;
	ret = fs_call(req, proc, &args, &res, NULL);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn_wcc(fs_of(req), dir, &res.dir_wcc, "remove");
	fuse_reply_err(req, -nfs_stat_errno(res.status));
}

void fs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	remove_name(req, parent, name, NFS3PROC_REMOVE);
}

void fs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	remove_name(req, parent, name, NFS3PROC_RMDIR);
}

void fs_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
	       fuse_ino_t newparent, const char *newname, unsigned int flags)
{
	struct inode *from = fs_inode(req, parent);
	struct inode *to = fs_inode(req, newparent);
	struct nfs3_rename_args args;
	struct nfs3_rename_res res;
	int ret;

	/* NFSv3 RENAME replies atomically or not at all; it has no way to
	 * refuse an existing target or to swap two names. */
	if (flags) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (check_name(req, from, name) || check_name(req, to, newname))
		return;
	args.from.dir = &from->fh;
	args.from.name = name;
	args.to.dir = &to->fh;
	args.to.name = newname;
	ret = fs_call(req, NFS3PROC_RENAME, &args, &res, NULL);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn_wcc(fs_of(req), from, &res.fromdir_wcc, "rename");
	fs_learn_wcc(fs_of(req), to, &res.todir_wcc, "rename");
	fuse_reply_err(req, -nfs_stat_errno(res.status));
}

void fs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
	     const char *newname)
{
	struct inode *i = fs_inode(req, ino);
	struct inode *dir = fs_inode(req, newparent);
	struct nfs3_link_args args;
	struct nfs3_link_res res;
	struct fuse_entry_param e;
	int ret;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (check_name(req, dir, newname))
		return;
	args.file = i->fh;
	args.link.dir = &dir->fh;
	args.link.name = newname;
	ret = fs_call(req, NFS3PROC_LINK, &args, &res, NULL);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn_wcc(fs_of(req), dir, &res.linkdir_wcc, "link");
	if (res.status != NFS3_OK) {
		fs_learn(fs_of(req), i, &res.file_attributes, "link");
		fuse_reply_err(req, -nfs_stat_errno(res.status));
		return;
	}
	/* The link count changed: attributes without it would be stale. */
	ret = fs_make_entry(req, dir, &i->fh, &res.file_attributes, newname, &e);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	if (fuse_reply_entry(req, &e))
		inode_forget(fs_of(req)->inodes, e.ino, 1);
}
