/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The FUSE low-level handlers.  Each kernel request becomes cache look-ups
 * and NFS calls; each handler replies exactly once, and helpers return a
 * negative errno for the handler to reply with.
 */
#ifndef NFSFUSE_FS_H
#define NFSFUSE_FS_H

#include <fuse_lowlevel.h>

#include "../cache/aclfs.h"
#include "../cache/inode.h"
#include "../options.h"
#include "../proto/nfs.h"

struct fs_quota;
struct groups_cache;
struct nfs4_locks;

struct fs {
	struct nfs_client *nfs;
	struct inode_table *inodes;
	struct dcache *dc;
	struct groups_cache *groups; /* callers' supplementary groups */
	const struct nfsfuse_opts *opts;
	char machinename[256];
	struct fuse_session *se;
	struct lockmgr *locks;  /* NULL with nolock: the kernel's locks */
	/* NFSv4 mounts: LOCK, LOCKU, LOCKT instead (NULL with nolock). */
	struct nfs4_locks *v4locks;
	struct rpc_clnt *acl;   /* NFSACL (fs_xattr.c); NULL: ACLs off */
	/* The kernel enforces the POSIX ACLs we serve (FUSE_CAP_POSIX_ACL,
	 * set once in fs_init before any other request). */
	bool kernel_acl;
	/* The kernel lists with READDIRPLUS (set in fs_init likewise). */
	bool kernel_rdplus;
	/* The kernel can expire an entry without dropping its inode
	 * (protocol 7.38, FUSE_EXPIRE_ONLY; fs_names.h), likewise. */
	bool kernel_expire;
	/* File systems of the server that keep no ACLs, and those where
	 * it refused SETACL (cache/aclfs.h), under aclfs_lock (taken
	 * alone). */
	pthread_mutex_t aclfs_lock;
	struct aclfs aclfs;
	struct aclfs aclset;
	struct fs_quota *quota; /* RQUOTA (fs_quota.h) */
	/* The mount's backing device ("MAJ:MIN", "" if unknown), whose
	 * read-ahead the first open raises (bdi.h); ra_raised: done. */
	char bdi[32];
	int ra_raised;
	/* NFSv4.2 operations this mount lacks (FS_NO_SEEK ...), learned
	 * from the version or a NOTSUPP; [atomic], only ever set. */
	unsigned v42_missing;
	/* Ticks at every start and end of a batch of our writes to any
	 * file ([atomic]): fs_wsince(). */
	uint64_t wclock;
};

extern const struct fuse_lowlevel_ops fs_ops;

/* ---- shared by the fs_*.c files ---- */

struct fs *fs_of(fuse_req_t req);
/* The AUTH_SYS identity of the process behind the request. */
void fs_req_cred(fuse_req_t req, struct rpc_cred *cred);
struct inode *fs_inode(fuse_req_t req, fuse_ino_t ino);

/* Call an NFS procedure on behalf of req; FUSE interrupts abort the wait. */
int fs_call(fuse_req_t req, enum nfs3_proc proc, const void *args, void *res,
	    struct rpc_reply *reply);
/* The same on behalf of cred, for requests the kernel sends without a
 * caller of their own (the last release). */
int fs_call_as(fuse_req_t req, const struct rpc_cred *cred,
	       enum nfs3_proc proc, const void *args, void *res,
	       struct rpc_reply *reply);

void fs_fattr_to_stat(const struct fattr3 *a, struct stat *st);
/* The same for the kernel's view of ino: a silly-renamed file's hidden
 * name is not counted among its links. */
void fs_inode_stat(struct inode *ino, const struct fattr3 *a, struct stat *st);
/* ino lost a name (REMOVE, RENAME over it): its link count and ctime
 * moved on the server, so neither our attributes nor the kernel's hold. */
void fs_name_lost(struct fs *fs, struct inode *ino);
/* Our RMDIR of name in dir, or a RENAME of ours over it, removed the
 * directory the kernel took under that name (if it holds one): it shows
 * no links from now on, and its last attributes answer for it, which
 * the server, having forgotten its handle, cannot. */
void fs_dir_removed(struct inode_table *t, uint64_t dir, const char *name);
bool fs_removed_dir(struct inode *ino);
/* Attributes came for it from the server: it was not removed (the name
 * we removed held another directory by then). */
void fs_dir_alive(struct inode *ino);
/* A call on ino ended in err: at -ESTALE the server knows its handle no
 * longer (the file was removed, or another renamed over its name), and
 * its attributes are believed no longer.  The kernel, told ESTALE,
 * looks its path up again, and a name found for it before must not be
 * answered without a LOOKUP (a LOOKUP's answer needs them).  Returns
 * err.  fs_call_as() does this for every call it makes; others (an
 * NFSv4 OPEN) call it themselves. */
int fs_stale_check(struct inode *ino, int err);

/* NFSv4.2 operations a mount may lack (fs->v42_missing). */
#define FS_NO_SEEK 0x1u
#define FS_NO_ALLOC 0x2u
#define FS_NO_DEALLOC 0x4u
#define FS_NO_COPY 0x8u
#define FS_NO_XATTR 0x10u   /* GETXATTR, SETXATTR, LISTXATTRS, REMOVEXATTR */
bool fs_v42_missing(struct fs *fs, unsigned what);
/* Remember that the mount has no `what`; traced the first time. */
void fs_v42_mark_missing(struct fs *fs, unsigned what, const char *op,
			 const char *why);
/* Why the mount has no NFSv4.2 operation at all, for the trace. */
const char *fs_v42_why(struct fs *fs);
/* Does the mount lack `what`?  One that is not NFSv4.2 is marked so
 * (traced as op) at the first look. */
bool fs_v42_lacks(struct fs *fs, unsigned what, const char *op);

/* Bytes from off that a file of the mount may hold, as a local file
 * system's s_maxbytes bounds write(2) (and the Linux client makes the
 * server's maxfilesize its s_maxbytes): -EFBIG when off is at or past
 * the server's maxfilesize, else 0 with *len cut to end there. */
int fs_size_clip(const struct fs *fs, uint64_t off, uint64_t *len);
/* The name the kernel last took ino under, for the trace and the log:
 * valid until the calling thread's fourth call after this one;
 * "(unnamed)" for the root and a file known by no name. */
const char *fs_name_of(struct inode *ino);
/* NFSv4: what this fs does for the delegations of its mount
 * (nfs4_deleg.h, ctx the fs): forget the attributes of a file whose
 * delegation is recalled or gone (the kernel's too when recalled), send
 * and commit a written file's bytes before its write delegation goes
 * back, and report its size and change attribute for CB_GETATTR. */
struct nfs4_deleg_hooks;
void fs_deleg_hooks(struct fs *fs, struct nfs4_deleg_hooks *h);
/* NFSv4: ino's attributes, believed again because a delegation vouches
 * for them (fs.c says when it can): true with *a, or false (ask). */
bool fs_deleg_vouches(struct fs *fs, struct inode *ino, struct fattr3 *a);
/* We give the kernel ino's attributes to keep for timeout seconds. */
void fs_kernel_attr_given(struct inode *ino, double timeout);
/* Seconds the kernel may keep ino's attributes (what our cache has left). */
double fs_attr_timeout(struct inode *ino);
/*
 * Attributes a call brought show the file at some moment of the call.  If
 * a batch of our writes to it began or settled meanwhile, they may lack
 * writes the kernel has seen complete: cached, or told to the kernel,
 * they would make the file shorter than its bytes, and the next O_APPEND
 * land on them.  So each call whose attributes are learned takes
 * fs_wsince() before it goes, and the attributes come with it:
 * fs_wstraddled() says whether a batch of ino's began or settled since.
 */
uint64_t fs_wsince(struct fs *fs);
bool fs_wstraddled(struct fs *fs, struct inode *ino, uint64_t since);
/* A batch of our writes to ino begins or settles: ino->lock held. */
void fs_wstamp(struct fs *fs, struct inode *ino);
/* A call of ours changed ino on the server otherwise (a SETATTR, an
 * ALLOCATE, DEALLOCATE or COPY, the removal of one of its names): so far
 * as fs_wstraddled() tells, it is one more batch.  Before the call's own
 * attributes are learned; takes ino->settle and ino->lock. */
void fs_wchanged(struct fs *fs, struct inode *ino);
/* The same for a call whose own reply brings ino's attributes, sent after
 * fs_wsince() gave *since: *since becomes what those attributes are to be
 * learned with; false when a batch of ours began or settled during the
 * call, and they are not to be believed at all. */
bool fs_wchanged_own(struct fs *fs, struct inode *ino, uint64_t *since);
/*
 * Learn from a post-op attribute of ino, if the server sent one, from a
 * call that went after fs_wsince() gave `since` (none is cached that
 * straddles a batch of our writes).  When it shows the data changed, the
 * cached data is purged; `why` names the rule for the trace and the
 * counters ("revalidate", "open").  Returns what changed.
 */
enum acache_change fs_learn(struct fs *fs, struct inode *ino,
			    const struct post_op_attr *a, uint64_t since,
			    const char *why);
/* Learn from the wcc data of a change we made to ino: kept when the
 * pre-op attributes are the cached ones, purged otherwise. */
void fs_learn_wcc(struct fs *fs, struct inode *ino, const struct wcc_data *w,
		  const char *op);
/* Forget ino's cached data (ours; the kernel's goes at the next open). */
void fs_purge_data(struct fs *fs, struct inode *ino, const char *why);
/*
 * Fill *e for a name in dir that resolved to fh: remember the inode (one lookup
 * the kernel now holds) and take attributes from a, brought by a call that
 * went after fs_wsince() gave `since`; fetch them when the server sent none,
 * or when a batch of our writes to the file began or settled since (the
 * kernel takes the size in an entry).  Returns 0 or a negative errno
 * (nothing remembered).
 */
int fs_make_entry(fuse_req_t req, struct inode *dir,
		  const struct nfs_fh3 *fh,
		  const struct post_op_attr *a, uint64_t since,
		  const char *name, struct fuse_entry_param *e);
/* LOOKUP name in dir: the handle and attributes of what it names, dir's
 * attributes learned on the way; *since: fs_wsince() before the call.  0,
 * or a negative errno (the NFS status of a failed LOOKUP, -ENAMETOOLONG
 * without a call). */
int fs_lookup_fh(fuse_req_t req, struct inode *dir, const char *name,
		 struct nfs_fh3 *fh, struct post_op_attr *a, uint64_t *since);
/* Reply to an entry-creating request from its diropres3 (new_dir: it
 * was MKDIR, so the new directory is known to be empty); stamp:
 * inode_dir_stamp(dir) before the call. */
void fs_reply_created(fuse_req_t req, struct inode *dir,
		      const struct nfs3_diropres *r, uint64_t since,
		      struct names_stamp stamp, const char *name, bool new_dir);
/* One of our calls that adds name to dir ended: ok when the server says
 * it did; otherwise (an error, no answer) dir's names are not all known. */
void fs_dir_named(struct inode *dir, const char *name, bool ok);
/* Is name in dir known to be missing, from what we hold?  Only where
 * negative answers may be cached at all, and while the directory's
 * attributes are still trusted: the same lifetime the kernel gives a
 * negative entry.  A complete directory answers only with dircomplete
 * (it covers names nobody asked about yet). */
enum dir_lack fs_dir_lacks(struct fs *fs, struct inode *dir,
			   const char *name);
/* The file a LOOKUP of name in dir found (or a create of ours made
 * there), in a directory nobody else changed since, while its attributes
 * (in *a) are still believed and positive answers may be cached: with a
 * hold (give it back with inode_forget(..., 1)); NULL when not known. */
struct inode *fs_dir_known(struct fs *fs, struct inode *dir,
			   const char *name, struct fattr3 *a);
/* May the caller of req access ino this way (ACCESS3_* bits)?  Answers
 * from the access cache when it can.  0, -EACCES or another -errno. */
int fs_check_access(fuse_req_t req, struct inode *ino, uint32_t want);
/* Is cred's answer for want (ACCESS3_* bits) on ino known? */
bool fs_access_known(struct inode *ino, const struct rpc_cred *cred,
		     uint32_t want);
/* ACCESS of every right for cred (req's, from fs_req_cred()),
 * remembered as fs_check_access() looks for it: 0 with *granted, or a
 * negative errno (-ENOTSUP: the protocol has none, NFSv2).  *at: the
 * reply's attributes, not learned here (the caller does, with since:
 * fs_wsince() before). */
int fs_access_rpc(fuse_req_t req, struct inode *ino,
		  const struct rpc_cred *cred, uint32_t *granted,
		  struct post_op_attr *at, uint64_t since);
/* An ACCESS answer for cred that came with another call (an NFSv4 OPEN):
 * kept for fs_check_access() as its own would be.  at: that reply's
 * attributes; since: fs_wsince() before it. */
void fs_access_answered(struct fs *fs, struct inode *ino,
			const struct rpc_cred *cred, uint32_t asked,
			uint32_t granted, const struct post_op_attr *at,
			uint64_t since);
/* Fresh attributes of ino from the server. */
int fs_getattr_rpc(fuse_req_t req, struct inode *ino, struct fattr3 *a);

/*
 * Cache rules for byte-range locks (implemented with the data cache):
 * after the server grants a lock, revalidate the file and purge what
 * changed elsewhere (ours and the kernel's page cache); before a lock is
 * released, write back and COMMIT dirty data.  Both return 0 or -errno.
 */
int fs_lock_acquired(fuse_req_t req, struct inode *ino);
int fs_lock_releasing(fuse_req_t req, struct inode *ino);

/* fs_file.c */
/* Send and COMMIT ino's written data and settle what the replies say
 * about the cache (wcc chain); the first write error, or 0. */
int fs_writes_settle(fuse_req_t req, struct inode *ino);
/* The same before an operation that must not be overtaken by ino's
 * writes (a truncate, a chmod, an open's revalidation) but is not
 * theirs to fail: their refusal is their writers' to hear at fsync and
 * close.  -EINTR when the wait was cut short with writes unsent, or 0. */
int fs_writes_before(fuse_req_t req, struct inode *ino);
void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
	       mode_t mode, struct fuse_file_info *fi);
void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	     struct fuse_file_info *fi);
void fs_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
	      off_t off, struct fuse_file_info *fi);
void fs_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
	      struct fuse_file_info *fi);
/* Is any file open on this mount?  (Unlink and rename look for an open
 * file behind the name only then.) */
bool fs_files_open(void);
/* The most read-ahead READs one file has had in flight at once. */
unsigned fs_readahead_inflight_max(void);

/* fs_space.c: NFSv4.2 SEEK, ALLOCATE, DEALLOCATE and COPY */
void fs_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
	      struct fuse_file_info *fi);
void fs_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset,
		  off_t length, struct fuse_file_info *fi);
void fs_copy_file_range(fuse_req_t req, fuse_ino_t ino_in, off_t off_in,
			struct fuse_file_info *fi_in, fuse_ino_t ino_out,
			off_t off_out, struct fuse_file_info *fi_out,
			size_t len, int flags);

/* fs_lock.c: byte-range locks and flock through NLM (src/lock/), or
 * NFSv4 LOCK (proto/nfs4_lock.h) on an NFSv4 mount */
void fs_lock_init_conn(struct fs *fs, struct fuse_conn_info *conn);
void fs_getlk(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
	      struct flock *lock);
void fs_setlk(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
	      struct flock *lock, int sleep);
void fs_flock(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
	      int op);
/* The FUSE session has ended: answer every waiting lock (EINTR) while
 * its requests can still be answered. */
void fs_lock_session_end(struct fs *fs);
/* flush/release that first drop the closing owner's locks */
void fs_lock_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_lock_release(fuse_req_t req, fuse_ino_t ino,
		     struct fuse_file_info *fi);

/* fs_xattr.c: the POSIX ACL xattrs through NFSACL */
/* An xattr value or name list of len bytes to a getxattr or listxattr
 * that offered size: its length when size is 0, ERANGE when too small. */
void fs_reply_xattr(fuse_req_t req, const void *buf, size_t len, size_t size);
void fs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 size_t size);
void fs_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 const char *value, size_t size, int flags);
void fs_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size);
void fs_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name);
/* The file systems known to keep no ACLs, or (refused_sets) to refuse
 * SETACL, for nfsfusectl (aclfs.h). */
void fs_aclfs_format(struct fs *fs, bool refused_sets, char *buf,
		     size_t len);

/* fs_xattr4.c: system.nfs4_acl on an NFSv4 mount, where the handlers
 * above send every extended attribute request */
void fs_getxattr4(fuse_req_t req, struct inode *i, const char *name,
		  size_t size);
void fs_setxattr4(fuse_req_t req, struct inode *i, const char *name,
		  const char *value, size_t size, int flags);
void fs_listxattr4(fuse_req_t req, struct inode *i, size_t size);
void fs_removexattr4(fuse_req_t req, struct inode *i, const char *name);

/* fs_xattr42.c: user.* on an NFSv4.2 mount (RFC 8276), where the
 * handlers above send those names on every mount */
bool fs_xattr_is_user(const char *name);
void fs_uxattr_get(fuse_req_t req, struct inode *i, const char *name,
		   size_t size);
void fs_uxattr_set(fuse_req_t req, struct inode *i, const char *name,
		   const char *value, size_t size, int flags);
void fs_uxattr_remove(fuse_req_t req, struct inode *i, const char *name);
/* The user.* names of i for a listing: a malloc'd *names of *len bytes
 * (NULL, 0 where there are none or the mount keeps none), or -errno. */
int fs_uxattr_list(fuse_req_t req, struct inode *i, char **names,
		   size_t *len);

/* fs_dir.c */
void fs_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		struct fuse_file_info *fi);
void fs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi);
void fs_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		 struct fuse_file_info *fi);
/* The listing part kept for a lister's second read, released (at
 * unmount, with the connections closed). */
void fs_dir_drop_kept(void);

/* fs_ns.c: names in directories */
void fs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode, dev_t rdev);
void fs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode);
void fs_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		const char *name);
void fs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name);
void fs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name);
void fs_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
	       fuse_ino_t newparent, const char *newname, unsigned int flags);
void fs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
	     const char *newname);
/* Silly rename: at the last close of ino, REMOVE the .nfs name it was
 * moved to when it was unlinked while open (nothing if it was not), as
 * the one who unlinked it. */
void fs_silly_release(fuse_req_t req, struct inode *ino);
/* Is name a .nfs name of this mount that no open file holds: one left by
 * an earlier run that crashed? */
bool fs_silly_is_orphan(struct fs *fs, const char *name);
/* REMOVE such an orphan from dir (counted and logged). */
void fs_silly_remove_orphan(fuse_req_t req, struct inode *dir,
			    const char *name);

#endif
