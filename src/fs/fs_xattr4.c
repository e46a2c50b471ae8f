/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Extended attributes of an NFSv4 mount: system.nfs4_acl, the file's
 * NFSv4 ACL as the Linux client gives it (xdr/nfs4.h: the XDR of
 * fattr4_acl, read by nfs4_getfacl and written by nfs4_setfacl), through
 * GETATTR and SETATTR of the ACL attribute (proto/nfs4_acl_client.h).
 * The user.* names are fs_xattr42.c's; a listing names both.
 *
 *   - The POSIX ACL names, and every other one, are EOPNOTSUPP: NFSv4 has
 *     no POSIX ACLs (an NFSv3 mount has them through NFSACL, fs_xattr.c).
 *     With noacl, system.nfs4_acl is EOPNOTSUPP too, and never asked.
 *   - A file system whose supported_attrs lack the ACL attribute has
 *     none: getxattr and setxattr are EOPNOTSUPP and listxattr names
 *     nothing.  That is remembered per fsid (cache/aclfs.h, as the NFSv3
 *     "keeps no ACLs" rule, for as long as acdirmax) so that a listing
 *     does not ask for every file; a SETATTR answered ATTRNOTSUPP marks
 *     it too.
 *   - Who strings pass as the server sends them ("OWNER@",
 *     "user@domain", a number): the xattr format carries strings, and
 *     the server maps them, so nothing is mapped here.
 *   - A value given to setxattr is checked before anything is sent
 *     (nfs4_acl_from_xattr: bounded, well formed): EINVAL otherwise.
 *     An NFSv4 ACL can be replaced but not removed: removexattr is
 *     EINVAL.
 *   - The ACL read is kept in the file's ACL cache (cache/aclcache.h) with
 *     the ctime it was read at, as the POSIX ones are on NFSv3.  A
 *     SETATTR of the ACL may change the mode (RFC 8881 §6.4.1.1) and
 *     changes what the server's ACCESS answers: it drops the ACL, the
 *     ACCESS answers and the kernel's attributes, and takes the
 *     attributes of its reply.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "../base/clock.h"
#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "../proto/nfs4_acl_client.h"
#include "../proto/nfs4_session.h"
#include "fs_wait.h"

#define XATTR_NFS4_ACL "system.nfs4_acl"

static bool is_nfs4_acl(const char *name)
{
	return !strcmp(name, XATTR_NFS4_ACL);
}

/* How long "no ACL attribute here" is believed (as in fs_xattr.c). */
static int64_t notsupp_ttl(struct fs *fs)
{
	struct acache_params p;

	inode_get_params(fs->inodes, &p);
	return p.noac ? 0 : (int64_t)p.dirmax * CLOCK_NS_PER_SEC;
}

static void fs_mark(struct fs *fs, uint64_t fsid, uint64_t fileid,
		    bool supported)
{
	pthread_mutex_lock(&fs->aclfs_lock);
	if (supported)
		aclfs_forget(&fs->aclfs, fsid);
	else
		aclfs_mark(&fs->aclfs, fsid, ACLFS_NOTSUPP, fileid,
			   clock_mono_ns(), notsupp_ttl(fs));
	pthread_mutex_unlock(&fs->aclfs_lock);
}

/* Is the file system of i known to have no ACL attribute?  Cached
 * attributes tell its fsid; without them, ask the server. */
static bool fs_lacks_acl(fuse_req_t req, struct inode *i, const char *op)
{
	struct fs *fs = fs_of(req);
	struct fattr3 a;
	enum aclfs_why why;

	if (!inode_get_attr(i, &a))
		return false;
	pthread_mutex_lock(&fs->aclfs_lock);
	why = aclfs_none(&fs->aclfs, a.fsid, clock_mono_ns());
	pthread_mutex_unlock(&fs->aclfs_lock);
	if (why != ACLFS_NOTSUPP)
		return false;
	STAT_INC(acl_none_fs);
	TRACE("%s %s: file system %#llx has no ACL attribute → no GETATTR",
	      op, fs_name_of(i), (unsigned long long)a.fsid);
	return true;
}

static bool cache_get(struct inode *i, void **val, size_t *len)
{
	struct fattr3 a;
	bool hit;

	if (!inode_get_attr(i, &a))
		return false;
	pthread_mutex_lock(&i->lock);
	hit = aclcache_get(&i->acl, &a.ctime, ACLCACHE_ACCESS, val, len);
	pthread_mutex_unlock(&i->lock);
	return hit && *len > 0;
}

/* Keep a copy of the value read with the attributes a. */
static void cache_put(struct inode *i, const struct fattr3 *a,
		      const void *val, size_t len)
{
	void *v[2] = { malloc(len), NULL };
	size_t n[2] = { len, 0 };

	if (!v[0])
		return;
	memcpy(v[0], val, len);
	pthread_mutex_lock(&i->lock);
	aclcache_put(&i->acl, &a->ctime, v, n);
	pthread_mutex_unlock(&i->lock);
}

static int st4_errno(uint32_t st4)
{
	if (st4 == NFS4ERR_ATTRNOTSUPP || st4 == NFS4ERR_NOTSUPP)
		return -EOPNOTSUPP;
	return nfs_stat_errno(nfs4_stat_to_nfs3(st4));
}

/* The ACL of i as the xattr value: a malloc'd *val of *len bytes. */
static int acl_read(fuse_req_t req, struct inode *i, const char *op,
		    void **val, size_t *len)
{
	struct fs *fs = fs_of(req);
	struct nfs4_getacl_res res;
	struct fs_wait w;
	struct rpc_reply reply;
	struct rpc_cred cred;
	uint64_t since;
	long need;
	int ret;

	if (fs->opts->noacl)
		return -EOPNOTSUPP;
	if (cache_get(i, val, len)) {
		STAT_INC(acl_hits);
		return 0;
	}
	if (fs_lacks_acl(req, i, op))
		return -EOPNOTSUPP;
	fs_req_cred(req, &cred);
	since = fs_wsince(fs);
	fs_wait_begin(&w, req);
	ret = nfs4_getacl(fs->nfs, &cred, &i->fh, &res, &reply,
			  &w.stop);
	fs_wait_end(&w);
	if (ret)
		return ret;
	fs_learn(fs, i, &res.attr, since, "getacl");
	if (res.st4 != NFS4_OK) {
		ret = st4_errno(res.st4);
		goto out;
	}
	if (res.attr.present)
		fs_mark(fs, res.attr.attr.fsid, res.attr.attr.fileid,
			res.supported);
	if (!res.supported || !res.has_acl) {
		TRACE("%s %s: the server %s", op, fs_name_of(i),
		      res.supported ? "sent no ACL"
				    : "does not keep ACLs there");
		ret = res.supported ? -ENODATA : -EOPNOTSUPP;
		goto out;
	}
	need = nfs4_acl_to_xattr(&res.acl, NULL, 0);
	if (need <= 0 || !(*val = malloc((size_t)need))) {
		ret = need <= 0 ? -EIO : -ENOMEM;
		goto out;
	}
	nfs4_acl_to_xattr(&res.acl, *val, (size_t)need);
	*len = (size_t)need;
	if (res.attr.present)
		cache_put(i, &res.attr.attr, *val, *len);
out:
	rpc_reply_release(&reply);
	return ret;
}

void fs_getxattr4(fuse_req_t req, struct inode *i, const char *name,
		  size_t size)
{
	void *val = NULL;
	size_t len = 0;
	int ret;

	if (!is_nfs4_acl(name)) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	ret = acl_read(req, i, "getxattr", &val, &len);
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fs_reply_xattr(req, val, len, size);
	free(val);
}

/* What an ACL of ours changed: the ACL, the server's ACCESS answers, the
 * mode perhaps, and so the kernel's attributes. */
static void acl_changed(struct fs *fs, struct inode *i,
			const struct post_op_attr *a, uint64_t since)
{
	pthread_mutex_lock(&i->lock);
	aclcache_drop(&i->acl);
	access_clear(i->acc);
	pthread_mutex_unlock(&i->lock);
	/* The mode may follow the ACL: older answers would bring the old
	 * one back. */
	if (fs_wchanged_own(fs, i, &since) && a->present)
		fs_learn(fs, i, a, since, "setacl");
	else
		inode_invalidate_attr(i);
	if (fs->se)
		fuse_lowlevel_notify_inval_inode(fs->se, i->id, -1, 0);
}

static int acl_write(fuse_req_t req, struct inode *i, const char *value,
		     size_t size)
{
	struct fs *fs = fs_of(req);
	struct nfs4_setacl_res res;
	struct fs_wait w;
	struct nfs4_acl acl;
	struct rpc_cred cred;
	struct fattr3 a;
	uint64_t since;
	int ret;

	if (fs->opts->noacl)
		return -EOPNOTSUPP;
	if (nfs4_acl_from_xattr(value, size, &acl)) {
		nf_log(NF_LOG_DEBUG, "setxattr %s of node %llu: %zu bytes "
		       "that are not an NFSv4 ACL", XATTR_NFS4_ACL,
		       (unsigned long long)i->id, size);
		return -EINVAL;
	}
	if (fs_lacks_acl(req, i, "setxattr"))
		return -EOPNOTSUPP;
	fs_req_cred(req, &cred);
	since = fs_wsince(fs);
	fs_wait_begin(&w, req);
	ret = nfs4_setacl(fs->nfs, &cred, &i->fh, &acl, &res, &w.stop);
	fs_wait_end(&w);
	/* Whatever the outcome (an answer lost on the way too), what was
	 * cached may be the old ACL. */
	acl_changed(fs, i, ret == 0 ? &res.attr
				    : &(struct post_op_attr){ false },
		    since);
	if (ret)
		return ret;
	if (res.st4 == NFS4ERR_ATTRNOTSUPP && inode_get_attr(i, &a))
		fs_mark(fs, a.fsid, a.fileid, false);
	TRACE("setxattr %s: SETATTR of an ACL of %u entries → %s",
	      fs_name_of(i), acl.naces,
	      res.st4 == NFS4_OK ? "OK" : nfs4_stat_name(res.st4)
					  ? nfs4_stat_name(res.st4) : "?");
	return res.st4 == NFS4_OK ? 0 : st4_errno(res.st4);
}

void fs_setxattr4(fuse_req_t req, struct inode *i, const char *name,
		  const char *value, size_t size, int flags)
{
	/* XATTR_CREATE/XATTR_REPLACE: every file of a file system with
	 * ACLs has one; the Linux client ignores them too. */
	(void)flags;
	if (!is_nfs4_acl(name)) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	fuse_reply_err(req, -acl_write(req, i, value, size));
}

void fs_removexattr4(fuse_req_t req, struct inode *i, const char *name)
{
	(void)i;
	fuse_reply_err(req, is_nfs4_acl(name) ? EINVAL : EOPNOTSUPP);
}

/* system.nfs4_acl where the file has an ACL, then the user.* names
 * (fs_xattr42.c). */
void fs_listxattr4(fuse_req_t req, struct inode *i, size_t size)
{
	static const char acl[] = XATTR_NFS4_ACL;
	char *user = NULL, *names;
	size_t len = 0, ulen;
	void *val = NULL;
	int ret = acl_read(req, i, "listxattr", &val, &len);

	free(val);
	if (ret == 0)
		len = sizeof(acl);
	else if (ret == -EOPNOTSUPP || ret == -ENODATA)
		len = 0;
	else {
		fuse_reply_err(req, -ret);
		return;
	}
	ret = fs_uxattr_list(req, i, &user, &ulen);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	names = malloc(len + ulen + 1);
	if (!names) {
		free(user);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	memcpy(names, acl, len);
	if (ulen)
		memcpy(names + len, user, ulen);
	fs_reply_xattr(req, names, len + ulen, size);
	free(names);
	free(user);
}
