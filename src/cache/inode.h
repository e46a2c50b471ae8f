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

#include <glib.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../../xdr/nfs3.h"
#include "../../xdr/rpc_msg.h"
#include "access.h"
#include "aclcache.h"
#include "attr.h"
#include "readahead.h"

struct dcache;
struct dir_known;
struct inode_dent;
struct dfile;
struct wback;

/*
 * One file.  The fields come in three groups by owner: the table's, the
 * caches' (the modules of this folder, which alone change them), and
 * state the file system operations keep per file, which the cache only
 * stores and frees.
 */
struct inode {
	/* The table's. */
	uint64_t id;            /* node id; immutable */
	struct nfs_fh3 fh;      /* immutable */
	uint64_t nlookup;       /* table lock */
	/* The names the kernel last took this inode under, newest first,
	 * to find it by name again (inode_renamed) and to name it in the
	 * trace (inode_name).  Changed under the table lock and `lock`
	 * both, so either lock reads it; owned. */
	struct inode_dent *dent;
	/* A directory: the names the kernel took files under in it, a list
	 * through their dents (inode_kernel_names); table lock. */
	struct inode_dent *kids;

	/* Held by a write from before it joins the write-behind until the
	 * batch is marked, and by a flush from before it starts until the
	 * attributes it found are cached: a write that joins after a flush
	 * began would otherwise see its batch declared settled, and the
	 * file told to the kernel shorter than its bytes.  Taken before
	 * `lock`, never while holding it. */
	pthread_mutex_t settle;

	pthread_mutex_t lock;   /* protects everything below */

	/* The caches'. */
	struct attr_state as;   /* attr.h */
	/* The ftype3 of the first attributes taken, 0 before.  A handle
	 * names one object for its life, and the kernel takes a file whose
	 * type changed for a broken one, failing it until it is forgotten:
	 * other types for it are a corrupt reply, never cached. */
	uint32_t type;
	/* Bumped by every change to what we know of a directory's names
	 * (inode_dir_*()): a LOOKUP's "no such name" is remembered only if
	 * nothing changed while it was on the wire. */
	uint32_t dir_gen;
	uint64_t data_gen;      /* bumped by every purge of the data */
	struct dfile *df;       /* data.h: data blocks; made on first use */
	struct wback *wb;       /* wback.h: write-behind; made on first write */
	/* access.h: ACCESS answers; made at the first (inode_access_cache),
	 * as most files (listed, never opened) never have one. */
	struct access_cache *acc; /* owned; NULL: no answer yet */
	struct aclcache acl;    /* aclcache.h: the POSIX ACLs */
	struct readahead ra;    /* readahead.h: the read-ahead window */
	/* What we know of a directory's names since the last change not
	 * ours (inode.c); NULL: nothing.  Owned; changed only through
	 * inode_dir_*(). */
	struct dir_known *dir_known;

	/* The file system operations'. */
	unsigned nopen;         /* open file handles */
	bool wbatch;            /* writes sent since the last flush */
	/* The attribute cache as that batch found it: what the batch
	 * started from, and for how long it would still have been
	 * believed.  Owned; made with wb, at the first write (most files
	 * are never written here): set while wbatch is. */
	struct attr_state *wb_before;
	/* Where our writes of the batch reach: a file with writes not yet
	 * on the server is never told to the kernel as shorter, or its
	 * next O_APPEND would land on them. */
	uint64_t wb_end;
	/* fs->wclock when a batch of ours last began or settled (fs.h,
	 * fs_wsince). */
	uint64_t wstamp;
	/* Write-back errors, whoever's flush met them: the last one and
	 * how many so far.  Each handle open for writing then reports
	 * those it has not reported yet (fs_file.c, werr_seen). */
	int werr;
	uint64_t nwerr;
	/* Writes accepted from the kernel, ever: tells a CB_GETATTR that
	 * more came since the last one (nfs4_deleg.h). */
	uint64_t wgen;
	/* The cached attributes show a non-directory with more than one
	 * name (counted in the table: inode_multilinked). */
	bool multilink;
	/* Bumped when someone else may have changed a directory
	 * (inode_dir_incomplete()): a create of ours whose call went out
	 * before may not say what its name holds now. */
	uint32_t dir_epoch;
	/* A directory: its size, mtime and ctime when a READDIRPLUS last
	 * listed it from the start (fs_dir.c), to tell an unchanged one. */
	struct wcc_attr listed;
	bool listed_valid;
	/* ... and the process that listed it so (FUSE's pid; 0: none). */
	pid_t listed_by;
	/* Monotonic ns until which the kernel believes the attributes we
	 * last gave it (0: not known). */
	int64_t kattr_until;
	pthread_cond_t ra_cond; /* signalled when a read-ahead READ ends */
	unsigned ra_inflight;   /* read-ahead READs on the wire */
	/* Silly rename (fs_ns.c); NULL when the file was not silly-renamed.
	 * Set before the RENAME goes out, so that no one takes the name for
	 * a stale one while it is on the wire. */
	struct inode_silly *silly; /* owned */
	/* A directory our RMDIR, or our RENAME over its name, removed: its
	 * handle names nothing on the server for good, and its descriptors
	 * see it with no links, as on a local disk (fs_inode_stat). */
	bool removed;
};

/* Where an open file whose last name was removed was moved to: REMOVEd
 * at its last close. */
struct inode_silly {
	struct nfs_fh3 dir;     /* the directory holding it */
	/* Who unlinked it: the REMOVE at the last close goes out as the one
	 * the server let remove the name (the release has no caller). */
	struct rpc_cred cred;
	/* The unlink or rename that moved the file to name is not over
	 * [ino->lock]: a last close meanwhile leaves the REMOVE to it,
	 * which may yet move the file back (fs_ns.c). */
	bool renaming;
	char name[];            /* the name it was moved to */
};

struct inode_table;

struct inode_table *inode_table_new(const struct nfs_fh3 *root_fh,
				    uint64_t root_id,
				    const struct acache_params *params,
				    struct dcache *dc);
void inode_table_free(struct inode_table *t);

struct inode *inode_root(struct inode_table *t);
/* The inode with node id `id`, or NULL if the kernel names one we do not
 * know (which would be a kernel or daemon bug). */
struct inode *inode_get(struct inode_table *t, uint64_t id);
/* Find or create the inode of fh and add one lookup; NULL only when out
 * of memory. */
struct inode *inode_remember(struct inode_table *t, const struct nfs_fh3 *fh);
/* The inode whose node id is id, with one lookup more; NULL when it is
 * gone (node ids are never given twice). */
struct inode *inode_ref(struct inode_table *t, uint64_t id);
/*
 * The inode of fh if the table holds one, with one lookup added: a
 * reference of the daemon's own, so that the inode cannot be freed under a
 * caller that waits on an RPC.  Give it back with inode_forget(t, id, 1).
 * NULL when no inode has that handle (nothing is created).
 */
struct inode *inode_find_fh(struct inode_table *t, const struct nfs_fh3 *fh);
/*
 * The kernel took ino as `name` in the directory whose node id is dir (a
 * LOOKUP, a create, a listing).  Remembered so that a call which names
 * only the directory and the name, and changes the file itself (a RENAME
 * moves its ctime), can find the inode: a few names per inode, the last
 * ones.  Out of memory, the inode is just not found by name.  Only a
 * hint: another client may have moved the name since, so it serves where
 * a wrong inode costs no more than a question to the server.
 */
void inode_named(struct inode_table *t, struct inode *ino, uint64_t dir,
		 const char *name);
/* The newest of those names, copied to buf (truncated to size); "" when
 * none.  Takes ino->lock. */
const char *inode_name(struct inode *ino, char *buf, size_t size);
/* The node id of the directory it was last taken in; 0: none (the root,
 * or a file the kernel holds by no name). */
uint64_t inode_parent(struct inode *ino);
/* name left dir (REMOVE, RMDIR): no inode is found under it now. */
void inode_unnamed(struct inode_table *t, uint64_t dir, const char *name);
/* The same, and the inode that was taken under it, with one lookup
 * added; NULL when none. */
struct inode *inode_unnamed_take(struct inode_table *t, uint64_t dir,
				 const char *name);
/* name in dir is now newname in newdir (RENAME): the inode taken under
 * name, with one lookup added, found under newname from now on; NULL
 * when none. */
struct inode *inode_renamed(struct inode_table *t, uint64_t dir,
			    const char *name, uint64_t newdir,
			    const char *newname);
/* Does the kernel hold an entry for some name in dir?  And *upto: where
 * the count of names given to the kernel stands now (each inode_named()
 * moves it, also for a name given again). */
bool inode_kernel_names_mark(struct inode_table *t, struct inode *dir,
			     uint64_t *upto);
/* Calls fn(name, ctx) for each name the kernel took a file under in
 * dir (inode_named, less the names removed since), given last while the
 * count stood at `upto` or below (inode_kernel_names_mark; UINT64_MAX: all),
 * under the table lock: fn must not block or call into the table. */
void inode_kernel_names(struct inode_table *t, struct inode *dir,
			uint64_t upto,
			void (*fn)(const char *name, void *ctx), void *ctx);
/* The lookups ino holds now: the kernel's and the daemon's own. */
uint64_t inode_lookups(struct inode_table *t, const struct inode *ino);
/* Take n lookups away; frees the inode at zero.  Forgetting more than was
 * remembered aborts: it means the lookup accounting is broken. */
void inode_forget(struct inode_table *t, uint64_t id, uint64_t n);
/*
 * What we know of a directory's names (ino->lock taken inside), for as
 * long as nobody else changed it: a lookup of a name it lacks can then
 * be answered "no such file" without asking the server, for as long as
 * the directory's attributes are trusted.
 *
 * inode_dir_complete: dir was just made, empty, by us: every name it
 * gets we add.  inode_dir_add_name: we added name (or renamed a file
 * over it).  inode_dir_drop_name: we removed name or renamed it away
 * (whether that worked or not).
 * inode_dir_stamp: where dir stands, taken before a call whose answer
 * is then handed back with it.
 * inode_dir_absent, inode_dir_found: a LOOKUP of name found nothing, or
 * the inode whose node id is id (ignored if anything changed since the
 * stamp).  inode_dir_holds: the node id a LOOKUP found under name, with
 * nothing changed since, or 0.
 * inode_dir_listed: the same for a name a READDIRPLUS gave, kept only
 * while the set has room.
 * inode_dir_made: a create (or link) of ours put the inode whose node id
 * is id under name (ignored if a change by someone else was seen since
 * the stamp; the kernel makes no other change of the name meanwhile).
 * inode_dir_incomplete: someone else may have changed it, or one of our
 * changes failed in an unknown way: nothing is known any longer.
 */
struct names_stamp {
	uint32_t gen;       /* inode.dir_gen */
	uint32_t epoch;     /* inode.dir_epoch */
};
enum dir_lack {
	DIR_MAY_HOLD,       /* ask the server */
	DIR_LACKS_COMPLETE, /* a complete directory without it */
	DIR_LACKS_ABSENT,   /* a LOOKUP found nothing, nothing changed since */
};
void inode_dir_complete(struct inode *dir);
void inode_dir_add_name(struct inode *dir, const char *name);
void inode_dir_drop_name(struct inode *dir, const char *name);
struct names_stamp inode_dir_stamp(struct inode *dir);
void inode_dir_absent(struct inode *dir, const char *name,
		      struct names_stamp s);
void inode_dir_found(struct inode *dir, const char *name, uint64_t id,
		     struct names_stamp s);
void inode_dir_listed(struct inode *dir, const char *name, uint64_t id,
		      struct names_stamp s);
void inode_dir_made(struct inode *dir, const char *name, uint64_t id,
		    struct names_stamp s);
uint64_t inode_dir_holds(struct inode *dir, const char *name);
void inode_dir_incomplete(struct inode *dir);
enum dir_lack inode_dir_lacks(struct inode *dir, const char *name);

/*
 * Does any inode's cached attributes show a file with more than one name?
 * Only then can removing a name leave another name's cached link count
 * wrong, and only then must a REMOVE or RENAME learn which file the name
 * was (the kernel names only the directory and the name).
 */
bool inode_multilinked(struct inode_table *t);

/* ino's ACCESS cache, made now if it has none; NULL only when out of
 * memory.  ino->lock held. */
struct access_cache *inode_access_cache(struct inode *ino);

/* Number of inodes held, root included (for statistics and tests). */
unsigned inode_count(struct inode_table *t);

/* The attribute rules in force; set at run time by nfsfusectl. */
void inode_get_params(struct inode_table *t, struct acache_params *p);
void inode_set_params(struct inode_table *t, const struct acache_params *p);
struct dcache *inode_dcache(struct inode_table *t);
/* Calls fn on every inode, table lock held: fn must not block. */
void inode_foreach(struct inode_table *t,
		   void (*fn)(struct inode *ino, void *ctx), void *ctx);

/* Record attributes fresh from the server (any reply that carries them);
 * what changed since the cached ones.  ACACHE_REFUSED, with nothing
 * cached, for attributes without a valid file type or of another type
 * than the file's. */
enum acache_change inode_set_attr(struct inode_table *t, struct inode *ino,
				  const struct fattr3 *a);
/* Copy of the cached attributes; false when there are none. */
bool inode_get_attr(struct inode *ino, struct fattr3 *a);
/* The file's type (ftype3) as first seen; 0 when not yet known. */
uint32_t inode_type(struct inode *ino);
/* The same, only while they are still to be believed; *left is the
 * seconds that remain (for the kernel's timeouts). */
bool inode_fresh_attr(struct inode *ino, struct fattr3 *a, double *left);
/* Drops them; true when there were any to drop. */
bool inode_invalidate_attr(struct inode *ino);
/* A READ that asked for no attributes went (acache_atime_moved); and
 * whether the cached atime is still the server's since the last ones. */
void inode_atime_moved(struct inode *ino);
bool inode_atime_known(struct inode *ino);
/* Ask the server at the next use, and compare its answer with these. */
void inode_expire_attr(struct inode *ino);
/* The attributes held are known current now (a delegation vouches for
 * them): believed again for their timeout, as if just fetched, and
 * copied to *a.  False (nothing done) when there are none, or they were
 * expired on purpose or never time out (acache_renew). */
bool inode_renew_attr(struct inode *ino, struct fattr3 *a);
/* wcc: are the cached attributes those the server had before our call? */
bool inode_wcc_matches(struct inode *ino, const struct wcc_attr *pre);

#endif
