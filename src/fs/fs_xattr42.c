/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user.* extended attributes, through NFSv4.2's GETXATTR, SETXATTR,
 * LISTXATTRS and REMOVEXATTR (RFC 8276; proto/nfs42_xattr.h).
 *
 *   - Only the user namespace goes to the server: it is the only one RFC
 *     8276 has.  security.*, trusted.* and the rest stay EOPNOTSUPP (the
 *     kernel's look for security.capability before each write costs no
 *     call).
 *   - Where the mount is not NFSv4.2, or once the server answered
 *     NOTSUPP, every user.* request is EOPNOTSUPP without a call
 *     (fs->v42_missing), and a listing names none: what the Linux client
 *     does on such a mount.
 *   - Values are not cached: each getxattr is one call.
 *   - A set or a removal moves the file's ctime: its COMPOUND reads the
 *     attributes after it, which are learned as a SETATTR's are.
 *   - The kernel checks the caller's rights first (default_permissions:
 *     the mode bits, for regular files and directories only); the server
 *     checks them again as that caller.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "fs.h"
#include "fs_wait.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "../proto/nfs42_xattr.h"
#include "../proto/nfs4_session.h"

#define USER_PREFIX "user."
#define USER_PREFIX_LEN (sizeof(USER_PREFIX) - 1)

bool fs_xattr_is_user(const char *name)
{
	return !strncmp(name, USER_PREFIX, USER_PREFIX_LEN);
}

/* The errno of an RFC 8276 status; a server without them is remembered. */
static int xattr_errno(struct fs *fs, uint32_t st4, const char *op)
{
	switch (st4) {
	case NFS4_OK:
		return 0;
	case NFS4ERR_NOXATTR:
		return -ENODATA;
	case NFS4ERR_XATTR2BIG:
		return -E2BIG;
	case NFS4ERR_NOTSUPP:
	case NFS4ERR_OP_ILLEGAL:
		fs_v42_mark_missing(fs, FS_NO_XATTR, op,
				    "the server keeps no extended attributes");
		return -EOPNOTSUPP;
	default:
		return nfs_stat_errno(nfs4_stat_to_nfs3(st4));
	}
}

void fs_uxattr_get(fuse_req_t req, struct inode *i, const char *name,
		   size_t size)
{
	struct fs *fs = fs_of(req);
	struct nfs42_xattr_res res;
	struct rpc_cred cred;
	struct fs_wait w;
	char *buf = NULL;
	int ret;

	if (fs_v42_lacks(fs, FS_NO_XATTR, "getxattr")) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	if (size > 0 && !(buf = malloc(size))) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fs_req_cred(req, &cred);
	fs_wait_begin(&w, req);
	ret = nfs42_getxattr(fs->nfs, &cred, &i->fh, name + USER_PREFIX_LEN,
			     buf, size, &res, &w.stop);
	fs_wait_end(&w);
	if (ret == 0)
		ret = xattr_errno(fs, res.st4, "getxattr");
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fs_reply_xattr(req, buf, res.len, size);
	free(buf);
}

/* The attributes a set or a removal brought (its ctime moved). */
static void xattr_changed(struct fs *fs, struct inode *i,
			  const struct post_op_attr *a, uint64_t since)
{
	if (fs_wchanged_own(fs, i, &since) && a->present)
		fs_learn(fs, i, a, since, "setxattr");
	else
		inode_expire_attr(i);
}

static int change(fuse_req_t req, struct inode *i, const char *name,
		  const char *value, size_t size, int flags)
{
	struct fs *fs = fs_of(req);
	const char *op = value ? "setxattr" : "removexattr";
	uint32_t option = NFS4_SETXATTR_EITHER;
	struct nfs42_xattr_res res;
	struct rpc_cred cred;
	struct fs_wait w;
	uint64_t since;
	int ret;

	if (fs_v42_lacks(fs, FS_NO_XATTR, op))
		return -EOPNOTSUPP;
	if (flags & XATTR_CREATE)
		option = NFS4_SETXATTR_CREATE;
	else if (flags & XATTR_REPLACE)
		option = NFS4_SETXATTR_REPLACE;
	fs_req_cred(req, &cred);
	since = fs_wsince(fs);
	fs_wait_begin(&w, req);
	if (value)
		ret = nfs42_setxattr(fs->nfs, &cred, &i->fh,
				     name + USER_PREFIX_LEN, value, size,
				     option, &res, &w.stop);
	else
		ret = nfs42_removexattr(fs->nfs, &cred, &i->fh,
					name + USER_PREFIX_LEN, &res,
					&w.stop);
	fs_wait_end(&w);
	if (ret)
		return ret;
	xattr_changed(fs, i, &res.attr, since);
	TRACE("%s %s %s → %s", op, fs_name_of(i), name,
	      res.st4 == NFS4_OK ? "OK" : nfs4_stat_name(res.st4)
					  ? nfs4_stat_name(res.st4) : "?");
	return xattr_errno(fs, res.st4, op);
}

void fs_uxattr_set(fuse_req_t req, struct inode *i, const char *name,
		   const char *value, size_t size, int flags)
{
	/* An empty value is a value: not the removal. */
	fuse_reply_err(req, -change(req, i, name, value ? value : "", size,
				    flags));
}

void fs_uxattr_remove(fuse_req_t req, struct inode *i, const char *name)
{
	fuse_reply_err(req, -change(req, i, name, NULL, 0, 0));
}

int fs_uxattr_list(fuse_req_t req, struct inode *i, char **names,
		   size_t *len)
{
	struct fs *fs = fs_of(req);
	struct nfs42_xattr_res res;
	struct rpc_cred cred;
	struct fs_wait w;
	char *buf;
	int ret;

	*names = NULL;
	*len = 0;
	if (fs_v42_lacks(fs, FS_NO_XATTR, "listxattr"))
		return 0;
	buf = malloc(NFS42_XATTR_LIST_MAX);
	if (!buf)
		return -ENOMEM;
	fs_req_cred(req, &cred);
	fs_wait_begin(&w, req);
	ret = nfs42_listxattrs(fs->nfs, &cred, &i->fh, buf,
			       NFS42_XATTR_LIST_MAX, &res, &w.stop);
	fs_wait_end(&w);
	if (ret == 0)
		ret = xattr_errno(fs, res.st4, "listxattr");
	if (ret == -EOPNOTSUPP)
		ret = 0; /* none to name */
	else if (ret == 0) {
		*names = buf;
		*len = res.len;
		return 0;
	}
	free(buf);
	return ret;
}
