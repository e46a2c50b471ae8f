/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ACL cache of one file: its POSIX ACLs as the xattr values the kernel
 * asks for (<linux/posix_acl_xattr.h> format), [ACLCACHE_ACCESS] and
 * [ACLCACHE_DEFAULT], kept with the file's ctime when they were read.
 *
 * As the Linux client does, the ACLs are kept with the attributes: `ls -l`
 * asks for both ACLs of every file (for its "+"), and without a cache each
 * would be a GETACL.  There is no clock here: an entry is believed while
 * the attributes are (their clock is the attribute cache's, attr.h) and
 * the file's ctime is the one it was read at, which any change to an ACL
 * or to the mode moves.
 *
 * Pure: no locking (the caller holds the lock of the object that embeds
 * it), no I/O.  A zeroed struct is an empty cache.
 */
#ifndef NFSFUSE_CACHE_ACLCACHE_H
#define NFSFUSE_CACHE_ACLCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "../../xdr/nfs3.h"

enum aclcache_kind { ACLCACHE_ACCESS = 0, ACLCACHE_DEFAULT = 1 };

struct aclcache {
	bool valid;
	struct nfstime3 ctime;  /* the file's ctime when they were read */
	void *xattr[2];         /* owned; NULL: no such ACL */
	size_t len[2];
};

/*
 * The value of kind if the cache holds the ACLs read at ctime (the file's
 * ctime now): true with *val a malloc'd copy for the caller, or NULL and
 * *len 0 when the file has no such ACL.  False for a miss, and when the
 * copy cannot be made.
 */
bool aclcache_get(const struct aclcache *c, const struct nfstime3 *ctime,
		  enum aclcache_kind kind, void **val, size_t *len);

/* Both ACLs as read at ctime; takes val[0] and val[1] (may be NULL, with
 * len 0: no such ACL) and frees what the cache held. */
void aclcache_put(struct aclcache *c, const struct nfstime3 *ctime,
		  void *val[2], const size_t len[2]);

/* Forget the ACLs (a SETACL of ours, or one that failed): the next read
 * asks the server. */
void aclcache_drop(struct aclcache *c);

/* Free what the cache holds; it is empty afterwards. */
void aclcache_clear(struct aclcache *c);

#endif
