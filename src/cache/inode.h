/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The inode table: node ids handed to the kernel ↔ NFS file handles.
 *
 * Lookup counts are a contract with the kernel: every entry reply adds one
 * (inode_remember), every forget takes n away (inode_forget), and the inode
 * is freed when its count reaches zero.  The root is pinned.  Because the
 * kernel never forgets a node it has a request in flight for, a pointer from
 * inode_get() stays valid for the duration of that request without a
 * reference of its own.
 *
 * Lock order: the table lock is taken before any inode's lock, and neither
 * is held across an RPC or a FUSE reply.
 */
#ifndef NFSFUSE_CACHE_INODE_H
#define NFSFUSE_CACHE_INODE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../../xdr/nfs3.h"

struct inode {
	uint64_t id;            /* node id; immutable */
	struct nfs_fh3 fh;      /* immutable */
	uint64_t nlookup;       /* table lock */

	pthread_mutex_t lock;   /* protects everything below */
	struct fattr3 attr;
	bool attr_valid;
	int64_t attr_fetched;   /* monotonic ns when attr was current */
};

struct inode_table;

struct inode_table *inode_table_new(const struct nfs_fh3 *root_fh,
				    uint64_t root_id);
void inode_table_free(struct inode_table *t);

struct inode *inode_root(struct inode_table *t);
/* The inode with node id `id`, or NULL if the kernel names one we do not
 * know (which would be a kernel or daemon bug). */
struct inode *inode_get(struct inode_table *t, uint64_t id);
/* Find or create the inode of fh and add one lookup; NULL only when out
 * of memory. */
struct inode *inode_remember(struct inode_table *t, const struct nfs_fh3 *fh);
/* Take n lookups away; frees the inode at zero.  Forgetting more than was
 * remembered aborts: it means the lookup accounting is broken. */
void inode_forget(struct inode_table *t, uint64_t id, uint64_t n);
/* Number of inodes held, root included (for statistics and tests). */
unsigned inode_count(struct inode_table *t);

/* Record attributes fresh from the server (any reply that carries them). */
void inode_set_attr(struct inode *ino, const struct fattr3 *a);
/* Copy of the cached attributes; false when there are none. */
bool inode_get_attr(struct inode *ino, struct fattr3 *a);
void inode_invalidate_attr(struct inode *ino);

#endif
