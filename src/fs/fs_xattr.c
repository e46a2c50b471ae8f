/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Extended attributes: only the two POSIX ACL names exist on an NFSv3
 * mount, as on a kernel one, and they go through NFSACL (xdr/nfsacl.h);
 * an NFSv4 mount has system.nfs4_acl instead (fs_xattr4.c).  The user.*
 * names go to fs_xattr42.c on every mount (only NFSv4.2 has them):
 *
 *   system.posix_acl_access   GETACL/SETACL of the access ACL
 *   system.posix_acl_default  the same for a directory's default ACL
 *
 * The semantics are the Linux client's (fs/nfs/nfs3acl.c):
 *   - every other name, and both when ACLs are off (noacl, or the server
 *     has no NFSACL), is EOPNOTSUPP; so is any ACL of a symlink;
 *   - an access ACL that says no more than the mode, and an empty or
 *     absent default ACL, read as ENODATA; listxattr names only the ACLs
 *     that exist;
 *   - SETACL always carries both ACLs of a directory, so setting one
 *     first reads the other; removing the access ACL sends the minimal
 *     ACL of the mode, removing the default ACL sends an empty one;
 *   - a default ACL on a non-directory: EACCES to set, nothing to remove.
 * The kernel hands us and expects the xattr format of
 * <linux/posix_acl_xattr.h> and leaves the mode to us: the server updates
 * it and the SETACL reply's attributes tell the cache.  With ACLs on we
 * ask for FUSE_POSIX_ACL (fs_init): the kernel then keeps the ACLs it read
 * here and checks every caller's permissions against them and the mode
 * before each call, as it does on a local disk.  It reads the access ACL
 * of a file to check a caller that is not the owner, and takes any error
 * but ENODATA as that check's answer; so while it enforces ACLs, a server
 * that answers GETACL with NOTSUPP for a file reads as "no ACL" (the mode
 * decides), as getfacl on a server without NFSACL shows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "../base/clock.h"
#include "../base/log.h"
#include "../base/trace.h"
#include "../base/userns.h"
#include "../proto/nfsacl_client.h"
#include "../base/stats.h"
#include "fs_wait.h"

#define XATTR_ACL_ACCESS "system.posix_acl_access"
#define XATTR_ACL_DEFAULT "system.posix_acl_default"

enum acl_kind { ACL_NONE = -1, ACL_ACCESS = 0, ACL_DEFAULT = 1 };
_Static_assert(ACL_ACCESS == (int)ACLCACHE_ACCESS &&
		       ACL_DEFAULT == (int)ACLCACHE_DEFAULT,
	       "one numbering for the two ACLs");

static enum acl_kind acl_kind(const char *name)
{
	if (!strcmp(name, XATTR_ACL_ACCESS))
		return ACL_ACCESS;
	if (!strcmp(name, XATTR_ACL_DEFAULT))
		return ACL_DEFAULT;
	return ACL_NONE;
}

/* Ids of named ACL entries between a user namespace and the server
 * (userns.h): in, an id without mapping shows as the overflow id; out,
 * it cannot be set (EINVAL, nothing sent). */
static bool id_in(void *ctx, bool group, uint32_t *id)
{
	(void)ctx;
	*id = group ? userns_gid_in(*id) : userns_uid_in(*id);
	return true;
}

static bool id_out(void *ctx, bool group, uint32_t *id)
{
	(void)ctx;
	return group ? userns_gid_out(*id, id) : userns_uid_out(*id, id);
}

static void ids_in(void *value, size_t size)
{
	if (value && size && userns_active())
		nfsacl_xattr_map_ids(value, size, id_in, NULL);
}

/* Attributes of i: cached ones (the type never changes; uid, gid and mode
 * are refreshed by the GETACL reply), or fetched. */
static int node_attr(fuse_req_t req, struct inode *i, struct fattr3 *a)
{
	if (inode_get_attr(i, a))
		return 0;
	return fs_getattr_rpc(req, i, a);
}

/* How long a file system's "no ACLs" is believed: as long as a
 * directory's attributes may be (acdirmax), nothing with noac. */
static int64_t aclfs_ttl(struct fs *fs)
{
	struct acache_params p;

	inode_get_params(fs->inodes, &p);
	return p.noac ? 0 : (int64_t)p.dirmax * CLOCK_NS_PER_SEC;
}

/* The mark rule t (fs->aclfs or fs->aclset) holds now for the file
 * system of a: what showed it (aclfs_why), or 0. */
static enum aclfs_why acl_fs_rule(struct fs *fs, const struct aclfs *t,
				  const struct fattr3 *a)
{
	enum aclfs_why why;

	pthread_mutex_lock(&fs->aclfs_lock);
	why = aclfs_none(t, a->fsid, clock_mono_ns());
	pthread_mutex_unlock(&fs->aclfs_lock);
	return why;
}

/* Has the server shown that the file system of a keeps no ACLs? */
static enum aclfs_why acl_fs_none(struct fs *fs, const struct fattr3 *a)
{
	return acl_fs_rule(fs, &fs->aclfs, a);
}

/* What a GETACL of a file (attributes a) says about its file system. */
static void acl_fs_learn(struct fs *fs, const struct fattr3 *a,
			 const struct nfsacl_getacl_res *res, bool dir)
{
	enum aclfs_why why = aclfs_rule(res->status, res->acl.count,
					res->acl.n, dir ? res->dfacl.n : 0);
	uint64_t fsid = res->attr.present ? res->attr.attr.fsid : a->fsid;

	if (!why && res->status != NFS3_OK)
		return;
	pthread_mutex_lock(&fs->aclfs_lock);
	if (why)
		aclfs_mark(&fs->aclfs, fsid, why, a->fileid, clock_mono_ns(),
			   aclfs_ttl(fs));
	else
		aclfs_forget(&fs->aclfs, fsid);
	pthread_mutex_unlock(&fs->aclfs_lock);
}

/* An ACL was set on the file system of a: it keeps them. */
static void acl_fs_keeps(struct fs *fs, const struct fattr3 *a)
{
	pthread_mutex_lock(&fs->aclfs_lock);
	aclfs_forget(&fs->aclfs, a->fsid);
	aclfs_forget(&fs->aclset, a->fsid);
	pthread_mutex_unlock(&fs->aclfs_lock);
}

/* The server refused SETACL of the file a: it will refuse the next one
 * on that file system too, for as long as attributes are believed. */
static void acl_fs_refused_set(struct fs *fs, const struct fattr3 *a)
{
	pthread_mutex_lock(&fs->aclfs_lock);
	aclfs_mark(&fs->aclset, a->fsid, ACLFS_SET_REFUSED, a->fileid,
		   clock_mono_ns(), aclfs_ttl(fs));
	pthread_mutex_unlock(&fs->aclfs_lock);
}

static bool acl_fs_refuses_set(struct fs *fs, const struct fattr3 *a)
{
	return acl_fs_rule(fs, &fs->aclset, a) != 0;
}

void fs_aclfs_format(struct fs *fs, bool refused_sets, char *buf,
		     size_t len)
{
	pthread_mutex_lock(&fs->aclfs_lock);
	aclfs_format(refused_sets ? &fs->aclset : &fs->aclfs,
		     clock_mono_ns(), buf, len);
	pthread_mutex_unlock(&fs->aclfs_lock);
}

/* GETACL of i (attributes a), both ACLs for a directory.  On 0 *reply
 * owns the lists. */
static int get_acls(fuse_req_t req, struct inode *i, const struct fattr3 *a,
		    bool dir, struct nfsacl_getacl_res *res,
		    struct rpc_reply *reply)
{
	struct fs *fs = fs_of(req);
	struct nfsacl_getacl_args args = {
		.fh = i->fh,
		.mask = NFSACL_ACL | NFSACL_ACLCNT |
			(dir ? NFSACL_DFACL | NFSACL_DFACLCNT : 0),
	};
	struct fs_wait w;
	struct rpc_cred cred;
	uint64_t since = fs_wsince(fs);
	int ret;

	fs_req_cred(req, &cred);
	fs_wait_begin(&w, req);
	ret = nfsacl_getacl(fs->acl, &cred, &args, res, reply, &w.stop);
	fs_wait_end(&w);
	if (ret)
		return ret == -EPROTONOSUPPORT ? -EOPNOTSUPP : ret;
	fs_learn(fs, i, &res->attr, since, "getacl");
	acl_fs_learn(fs, a, res, dir);
	if (res->status == NFS3_OK)
		return 0;
	rpc_reply_release(reply);
	if (res->status == NFS3ERR_NOTSUPP)
		return -EOPNOTSUPP;
	return nfs_stat_errno(res->status);
}

/* The ACL cache (cache/aclcache.h): a hit needs attributes still believed
 * and a ctime unchanged since the GETACL. */
static bool acl_cache_get(struct inode *i, enum acl_kind kind, void **val,
			  size_t *len)
{
	struct fattr3 a;
	bool hit;

	if (!inode_get_attr(i, &a))
		return false;
	pthread_mutex_lock(&i->lock);
	hit = aclcache_get(&i->acl, &a.ctime, (enum aclcache_kind)kind, val,
			   len);
	pthread_mutex_unlock(&i->lock);
	return hit;
}

/* Keep what GETACL said (its reply's attributes date it). */
static void acl_cache_put(struct inode *i, const struct nfsacl_getacl_res *res,
			  bool dir)
{
	const struct nfsacl_wire_list *l[2] = { &res->acl, &res->dfacl };
	void *v[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 };

	if (!res->attr.present)
		return;
	for (int k = 0; k < (dir ? 2 : 1); k++) {
		long need = nfsacl_to_xattr(l[k], k == ACL_ACCESS, NULL, 0);

		if (need < 0)
			goto fail;
		if (need == 0)
			continue;
		v[k] = malloc((size_t)need);
		if (!v[k] || nfsacl_to_xattr(l[k], k == ACL_ACCESS, v[k],
					     (size_t)need) != need)
			goto fail;
		n[k] = (size_t)need;
		ids_in(v[k], n[k]);
	}
	pthread_mutex_lock(&i->lock);
	aclcache_put(&i->acl, &res->attr.attr.ctime, v, n);
	pthread_mutex_unlock(&i->lock);
	return;
fail:
	free(v[0]);
	free(v[1]);
}

/* listxattr from the cache: the names of the ACLs that exist. */
static bool acl_list_cached(struct inode *i, bool dir, char *names,
			    size_t *len)
{
	static const char acc[] = XATTR_ACL_ACCESS, def[] = XATTR_ACL_DEFAULT;
	size_t n[2];
	void *v;

	if (!acl_cache_get(i, ACL_ACCESS, &v, &n[0]))
		return false;
	free(v);
	n[1] = 0;
	if (dir) {
		if (!acl_cache_get(i, ACL_DEFAULT, &v, &n[1]))
			return false;
		free(v);
	}
	*len = 0;
	if (n[0]) {
		memcpy(names, acc, sizeof(acc));
		*len += sizeof(acc);
	}
	if (n[1]) {
		memcpy(names + *len, def, sizeof(def));
		*len += sizeof(def);
	}
	return true;
}

static void acl_cache_drop(struct inode *i)
{
	pthread_mutex_lock(&i->lock);
	aclcache_drop(&i->acl);
	pthread_mutex_unlock(&i->lock);
}

/* Checks common to every ACL request; *dir tells the node's kind, *a
 * its attributes (cached ones will do: type, fsid and fileid stay). */
static int acl_usable(fuse_req_t req, struct inode *i, bool *dir,
		      struct fattr3 *a)
{
	int ret;

	if (!fs_of(req)->acl)
		return -EOPNOTSUPP;
	ret = node_attr(req, i, a);
	if (ret)
		return ret;
	if (a->type == NF3LNK)
		return -EOPNOTSUPP;
	*dir = a->type == NF3DIR;
	return 0;
}

/* An ACL read of i that its file system's rule answers "none" without
 * GETACL (aclfs.h): -ENODATA, or -EOPNOTSUPP where the server said
 * NOTSUPP and the kernel does not enforce ACLs; 0: ask the server. */
static int acl_none_by_fs(fuse_req_t req, struct inode *i,
			  const struct fattr3 *a, const char *op)
{
	struct fs *fs = fs_of(req);
	enum aclfs_why why = acl_fs_none(fs, a);

	if (!why)
		return 0;
	STAT_INC(acl_none_fs);
	TRACE("%s %s: file system %#llx keeps no ACLs → no GETACL", op,
	      fs_name_of(i),
	      (unsigned long long)a->fsid);
	return why == ACLFS_NOTSUPP && !fs->kernel_acl ? -EOPNOTSUPP
							: -ENODATA;
}

void fs_reply_xattr(fuse_req_t req, const void *buf, size_t len, size_t size)
{
	if (size == 0)
		fuse_reply_xattr(req, len);
	else if (size < len)
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, buf, len);
}

void fs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 size_t size)
{
	struct inode *i = fs_inode(req, ino);
	enum acl_kind kind = acl_kind(name);
	struct nfsacl_getacl_res res;
	struct rpc_reply reply;
	struct fattr3 a;
	char *buf = NULL;
	long need;
	bool dir;
	int ret;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (kind == ACL_NONE)
		STAT_INC(getxattr_other);
	if (fs_xattr_is_user(name)) {
		fs_uxattr_get(req, i, name, size);
		return;
	}
	if (fs_of(req)->nfs->v4) {
		fs_getxattr4(req, i, name, size);
		return;
	}
	if (kind == ACL_NONE) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	ret = acl_usable(req, i, &dir, &a);
	if (ret == 0 && kind == ACL_DEFAULT && !dir)
		ret = -ENODATA;
	if (ret == 0) {
		void *val;
		size_t len;

		if (acl_cache_get(i, kind, &val, &len)) {
			STAT_INC(acl_hits);
			if (len == 0)
				fuse_reply_err(req, ENODATA);
			else
				fs_reply_xattr(req, val, len, size);
			free(val);
			return;
		}
		ret = acl_none_by_fs(req, i, &a, "getxattr");
		if (ret == 0)
			ret = get_acls(req, i, &a, dir, &res, &reply);
		if (ret == -EOPNOTSUPP && fs_of(req)->kernel_acl)
			ret = -ENODATA;
	}
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	acl_cache_put(i, &res, dir);
	need = nfsacl_to_xattr(kind == ACL_ACCESS ? &res.acl : &res.dfacl,
			       kind == ACL_ACCESS, NULL, 0);
	if (need > 0 && size > 0) {
		if ((size_t)need > size) {
			need = -ERANGE;
		} else if (!(buf = malloc((size_t)need))) {
			need = -ENOMEM;
		} else {
			nfsacl_to_xattr(kind == ACL_ACCESS ? &res.acl
							    : &res.dfacl,
					kind == ACL_ACCESS, buf, (size_t)need);
			ids_in(buf, (size_t)need);
		}
	}
	rpc_reply_release(&reply);
	if (need == -EIO)
		nf_log(NF_LOG_ERR, "GETACL of node %llu: the server sent "
		       "entries that are not an ACL",
		       (unsigned long long)ino);
	if (need < 0)
		fuse_reply_err(req, (int)-need);
	else if (need == 0)
		fuse_reply_err(req, ENODATA);
	else if (size == 0)
		fuse_reply_xattr(req, (size_t)need);
	else
		fuse_reply_buf(req, buf, (size_t)need);
	free(buf);
}

/* Entries of a decoded list as an owned array (the wire's types, default
 * bit included, and ids kept); the minimal ACL of the mode for an empty
 * access list. */
static int copy_list(const struct nfsacl_wire_list *l, bool access,
		     const struct fattr3 *a, struct nfsacl_entry **out,
		     uint32_t *n)
{
	uint32_t cnt = l->n;

	if (cnt == 0 && !access) {
		*out = NULL;
		*n = 0;
		return 0;
	}
	*out = calloc(cnt ? cnt : 4, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	if (cnt == 0) {
		nfsacl_from_mode(a->mode, a->uid, a->gid, *out);
		*n = 4;
		return 0;
	}
	for (uint32_t k = 0; k < cnt; k++)
		nfsacl_entry_get(l, k, &(*out)[k]);
	*n = cnt;
	return 0;
}

/* Set (value != NULL) or remove one ACL of i: GETACL for the other one
 * and the owner, then SETACL of both. */
static int set_acl(fuse_req_t req, struct inode *i, enum acl_kind kind,
		   const char *value, size_t size)
{
	struct fs *fs = fs_of(req);
	struct nfsacl_entry *acc = NULL, *def = NULL, *mine = NULL;
	char *val = NULL;
	struct nfsacl_setacl_args args;
	struct nfsacl_getacl_res cur;
	struct nfsacl_setacl_res res;
	struct fs_wait w;
	uint32_t nacc = 0, ndef = 0, nmine = 0;
	struct rpc_reply reply;
	struct rpc_cred cred;
	struct fattr3 a, cached;
	uint64_t since;
	bool dir;
	int ret;

	ret = acl_usable(req, i, &dir, &cached);
	if (ret)
		return ret;
	if (kind == ACL_DEFAULT && !dir)
		return value && size > 4 ? -EACCES : 0;
	if (acl_fs_refuses_set(fs, &cached)) {
		STAT_INC(acl_set_refused);
		TRACE("setacl %s: the server refused SETACL on file system "
		      "%#llx → EOPNOTSUPP, no call", fs_name_of(i),
		      (unsigned long long)cached.fsid);
		return -EOPNOTSUPP;
	}
	if (value && userns_active()) {
		/* The server's ids, checked before anything is sent. */
		val = malloc(size ? size : 1);
		if (!val)
			return -ENOMEM;
		memcpy(val, value, size);
		ret = nfsacl_xattr_map_ids(val, size, id_out, NULL);
		if (ret) {
			free(val);
			return ret;
		}
		value = val;
	}
	ret = get_acls(req, i, &cached, dir, &cur, &reply);
	if (ret) {
		free(val);
		return ret;
	}
	if (!cur.attr.present && (ret = node_attr(req, i, &cur.attr.attr)))
		goto out;
	a = cur.attr.attr;
	if (value) {
		ret = nfsacl_from_xattr(value, size,
					kind == ACL_DEFAULT ? NFSACL_DEFAULT
							    : 0,
					a.uid, a.gid, &mine, &nmine);
		if (ret)
			goto out;
	}
	if (kind == ACL_ACCESS) {
		if (value && nmine) {
			acc = mine;
			nacc = nmine;
			mine = NULL;
		} else {
			ret = copy_list(&(struct nfsacl_wire_list){ 0 }, true,
					&a, &acc, &nacc);
		}
		if (ret == 0 && dir)
			ret = copy_list(&cur.dfacl, false, &a, &def, &ndef);
	} else {
		def = mine;
		ndef = nmine;
		mine = NULL;
		ret = copy_list(&cur.acl, true, &a, &acc, &nacc);
	}
	if (ret)
		goto out;
	args = (struct nfsacl_setacl_args){
		.fh = i->fh,
		.mask = NFSACL_ACL | NFSACL_ACLCNT |
			(dir ? NFSACL_DFACL | NFSACL_DFACLCNT : 0),
		.acl = { nacc, nacc, acc },
		.dfacl = { ndef, ndef, def },
	};
	fs_req_cred(req, &cred);
	fs_wait_begin(&w, req);
	/* Whatever the outcome, what was cached may be the old ACL. */
	acl_cache_drop(i);
	since = fs_wsince(fs);
	ret = nfsacl_setacl(fs->acl, &cred, &args, &res, &w.stop);
	fs_wait_end(&w);
	if (ret == -EINVAL) {
		/* GARBAGE_ARGS: nfs-ganesha 4.3 decodes SETACL's ACLs as
		 * optional pointers (a bool before each), which no client
		 * sends; it cannot store POSIX ACLs through VFS either. */
		nf_log(NF_LOG_INFO, "the server refused SETACL's arguments "
		       "(GARBAGE_ARGS): ACLs not supported there");
		ret = -EOPNOTSUPP;
	}
	if (ret == -EPROTONOSUPPORT)
		ret = -EOPNOTSUPP;
	if (ret == 0) {
		/* The mode's group bits may have become the mask; older
		 * answers would bring the old mode back. */
		if (fs_wchanged_own(fs, i, &since))
			fs_learn(fs, i, &res.attr, since, "setacl");
		else
			inode_invalidate_attr(i);
		if (res.status == NFS3ERR_NOTSUPP)
			ret = -EOPNOTSUPP;
		else if (res.status != NFS3_OK)
			ret = nfs_stat_errno(res.status);
		else
			acl_fs_keeps(fs, &a);
	}
	/* Refused, whichever way the server said so. */
	if (ret == -EOPNOTSUPP)
		acl_fs_refused_set(fs, &a);
out:
	rpc_reply_release(&reply);
	free(acc);
	free(def);
	free(mine);
	free(val);
	return ret;
}

void fs_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 const char *value, size_t size, int flags)
{
	struct inode *i = fs_inode(req, ino);
	enum acl_kind kind = acl_kind(name);

	/* XATTR_CREATE/XATTR_REPLACE mean nothing for ACLs (as in Linux's
	 * posix_acl_xattr_set). */
	(void)flags;
	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (fs_xattr_is_user(name)) {
		fs_uxattr_set(req, i, name, value, size, flags);
		return;
	}
	if (fs_of(req)->nfs->v4) {
		fs_setxattr4(req, i, name, value, size, flags);
		return;
	}
	if (kind == ACL_NONE) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	fuse_reply_err(req, -set_acl(req, i, kind, value, size));
}

void fs_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	struct inode *i = fs_inode(req, ino);
	enum acl_kind kind = acl_kind(name);

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (fs_xattr_is_user(name)) {
		fs_uxattr_remove(req, i, name);
		return;
	}
	if (fs_of(req)->nfs->v4) {
		fs_removexattr4(req, i, name);
		return;
	}
	if (kind == ACL_NONE) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	fuse_reply_err(req, -set_acl(req, i, kind, NULL, 0));
}

void fs_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	static const char acc[] = XATTR_ACL_ACCESS, def[] = XATTR_ACL_DEFAULT;
	struct inode *i = fs_inode(req, ino);
	struct nfsacl_getacl_res res;
	struct rpc_reply reply;
	char names[sizeof(acc) + sizeof(def)];
	struct fattr3 a;
	size_t len = 0;
	bool dir;
	int ret;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (fs_of(req)->nfs->v4) {
		fs_listxattr4(req, i, size);
		return;
	}
	ret = acl_usable(req, i, &dir, &a);
	if (ret == -EOPNOTSUPP) {
		ret = 0; /* no ACLs: an empty list */
	} else if (ret == 0 && acl_list_cached(i, dir, names, &len)) {
		STAT_INC(acl_hits);
	} else if (ret == 0 && acl_none_by_fs(req, i, &a, "listxattr")) {
		ret = 0; /* the file system keeps none: an empty list */
	} else if (ret == 0) {
		ret = get_acls(req, i, &a, dir, &res, &reply);
		if (ret == 0)
			acl_cache_put(i, &res, dir);
		if (ret == -EOPNOTSUPP)
			ret = 0;
		else if (ret == 0) {
			if (nfsacl_to_xattr(&res.acl, true, NULL, 0) > 0) {
				memcpy(names, acc, sizeof(acc));
				len += sizeof(acc);
			}
			if (dir && nfsacl_to_xattr(&res.dfacl, false, NULL,
						   0) > 0) {
				memcpy(names + len, def, sizeof(def));
				len += sizeof(def);
			}
			rpc_reply_release(&reply);
		}
	}
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fs_reply_xattr(req, names, len, size);
}
