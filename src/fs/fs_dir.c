/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Directory listing.  The FUSE offset of an entry is the NFS cookie that
 * resumes the listing after it.  A directory handle keeps the last reply
 * and a cursor into it, so that a kernel buffer smaller than the reply is
 * filled from what we already have instead of asking the server again.
 *
 * A lister that reads on past its first kernel buffer gets the next part
 * of the listing asked for at once (struct dir_ahead): the kernel takes a
 * reply in a few dozen entries a request, and the server's round trip for
 * the next part then overlaps the lister's work on this one instead of
 * adding to it.  The calls are the ones the listing needs anyway; one
 * abandoned listing costs at most one call more.
 *
 * The first part is asked for at the open (fs_opendir): close-to-open
 * for the directory at no call of its own.
 *
 * A lister that opens a directory again right after reading its start
 * (rm reads each directory twice: once to see whether it is empty, then
 * in full) gets that first part again from the reply kept at the close
 * (struct dir_reread), as the Linux client's cached listing would give
 * it, instead of a second call for the same part.
 */
#include "fs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fs_names.h"
#include "fs_wait.h"
#include "../base/clock.h"
#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"

/*
 * What we knew of a directory when a part of its listing was asked for:
 * its cached ctime (known: it had attributes).  A change made through
 * this mount since (by the lister itself or another process) moves it;
 * a part that may predate the change would give the kernel back names
 * removed since, so it is asked for again, as the Linux client drops
 * the listing it keeps when the directory changes.
 */
struct dir_stamp {
	bool known;
	int64_t ctime;
};

static struct dir_stamp dir_stamp_of(struct inode *dir)
{
	struct dir_stamp st = { false, 0 };
	struct fattr3 a;

	if (inode_get_attr(dir, &a)) {
		st.known = true;
		st.ctime = nfstime_ns(&a.ctime);
	}
	return st;
}

static bool dir_stamp_holds(struct inode *dir, struct dir_stamp then)
{
	struct dir_stamp now = dir_stamp_of(dir);

	return now.known == then.known && now.ctime == then.ctime;
}

/* A call for a part of a listing, READDIR or READDIRPLUS, as it goes out
 * and as it comes back. */
union dir_args {
	struct nfs3_readdir_args r;
	struct nfs3_readdirplus_args p;
};
union dir_res {
	struct nfs3_readdir_res r;
	struct nfs3_readdirplus_res p;
};

/*
 * The next part of a listing, asked for before the lister needs it.  The
 * handle and the call each hold a reference: a directory closed with the
 * call in flight leaves the call its memory (args and res) until it ends.
 */
struct dir_ahead {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned refs;
	bool done;
	bool plus;
	int err;               /* the call's; valid when done */
	uint64_t cookie;       /* the part resumes after this cookie */
	struct dir_stamp sent; /* the directory when the call went */
	struct names_stamp names; /* ... and what we knew of its names */
	uint64_t wsince;       /* fs_wsince() then */
	union dir_args args;
	union dir_res res;
	struct rpc_reply reply;  /* owned when done and err == 0 */
};

/* The part of a listing a handle holds: one reply and a cursor in it. */
struct dir_part {
	uint8_t cookieverf[NFS3_COOKIEVERFSIZE];
	bool plus;               /* the buffered reply is READDIRPLUS */
	bool have;               /* reply/it hold a reply */
	bool eof;                /* the buffered reply ends the directory */
	bool same;               /* ... of a directory unchanged since the
				  * last listing (dir_unchanged) */
	uint64_t pos;            /* cookie at which `it` stands */
	struct dir_stamp got;    /* the directory when the reply came */
	uint64_t wsince;         /* fs_wsince() before its call went */
	struct names_stamp names; /* inode_dir_stamp() then */
	struct rpc_reply reply;
	struct xdr_dec it;
	struct xdr_dec first;    /* the reply's first entry */
	bool from_start;         /* the listing's first part (cookie 0) */
	int64_t fetched;         /* monotonic ns when the reply came */
	bool unread;             /* had at the open, not yet read from */
};

/*
 * The names a listing read from its start has met so far, so that at its
 * end the names the kernel held before it and the directory no longer has
 * are told (fs_names.h).  Kept only where the kernel holds names in the
 * directory when the listing starts.
 */
struct dir_seen {
	GHashTable *names;       /* owned strings; NULL: not kept */
	uint64_t upto;           /* inode_kernel_names_mark() at the start */
};

struct dir_handle {
	pthread_mutex_t lock;
	struct dir_ahead *ahead; /* NULL: none asked for */
	pid_t opener;            /* the lister (FUSE's pid; 0: unknown) */
	struct dir_part part;
	struct dir_seen seen;
};

/*
 * The first part of the listing of the directory closed last, kept for
 * the lister that closed it: the process whose opendir it was, and only
 * that one, may read it again from the start without a call, within
 * DIR_REREAD_NS of the reply (however often it reads it meanwhile) and
 * while the directory's attributes are believed and show no change of
 * ours (its cached ctime).  Another process lists afresh, so a name
 * another client made is seen by the next `ls` as before.  One slot for
 * the mount: the pattern is a close and an open of the same directory
 * back to back.
 */
#define DIR_REREAD_NS (CLOCK_NS_PER_SEC / 2)

static struct dir_reread {
	pthread_mutex_t lock;
	uint64_t dir;            /* node id */
	pid_t lister;
	struct dir_part part;    /* part.have: the slot holds one */
} reread = { .lock = PTHREAD_MUTEX_INITIALIZER };

static struct dir_handle *dh_of(struct fuse_file_info *fi)
{
	return (struct dir_handle *)(uintptr_t)fi->fh;
}

static void dh_drop(struct dir_handle *dh)
{
	if (dh->part.have)
		rpc_reply_release(&dh->part.reply);
	dh->part.have = false;
}

static void ahead_put(struct dir_ahead *a)
{
	bool last;

	pthread_mutex_lock(&a->lock);
	last = --a->refs == 0;
	pthread_mutex_unlock(&a->lock);
	if (!last)
		return;
	if (a->done && a->err == 0)
		rpc_reply_release(&a->reply);
	pthread_cond_destroy(&a->cond);
	pthread_mutex_destroy(&a->lock);
	free(a);
}

/* On the transport thread: keep the reply for the lister. */
static void ahead_done(void *ctx, int err, void *res, struct rpc_reply *reply)
{
	struct dir_ahead *a = ctx;

	(void)res;
	pthread_mutex_lock(&a->lock);
	a->err = err;
	if (err == 0)
		a->reply = *reply;
	else
		rpc_reply_release(reply);
	a->done = true;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	ahead_put(a);
}

static void dh_drop_ahead(struct dir_handle *dh)
{
	if (dh->ahead)
		ahead_put(dh->ahead);
	dh->ahead = NULL;
}

static int dh_fetch(fuse_req_t req, struct inode *dir, struct dir_handle *dh,
		    uint64_t cookie, bool plus);
static bool reread_take(struct inode *dir, struct dir_handle *dh, bool plus);

static void seen_end(struct dir_seen *seen)
{
	if (seen->names)
		g_hash_table_destroy(seen->names);
	seen->names = NULL;
}

/* A listing starts from the beginning (again). */
static void seen_start(struct fs *fs, struct inode *dir,
		       struct dir_seen *seen)
{
	seen_end(seen);
	if (!fs->kernel_expire ||
	    !inode_kernel_names_mark(fs->inodes, dir, &seen->upto))
		return;
	seen->names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					    NULL);
}

static void seen_name(struct dir_seen *seen, const char *name)
{
	if (seen->names)
		g_hash_table_add(seen->names, g_strdup(name));
}

struct seen_gone {
	GHashTable *seen;
	GPtrArray *gone;
};

static void seen_gone_one(const char *name, void *ctx)
{
	struct seen_gone *g = ctx;

	if (!g_hash_table_contains(g->seen, name))
		g_ptr_array_add(g->gone, g_strdup(name));
}

/* The listing reached the end of the directory: the kernel's names from
 * before it that it did not meet are gone, and expire. */
static void seen_done(struct fs *fs, struct inode *dir,
		      struct dir_seen *seen)
{
	struct seen_gone g;

	if (!seen->names)
		return;
	g.seen = seen->names;
	g.gone = g_ptr_array_new_with_free_func(g_free);
	inode_kernel_names(fs->inodes, dir, seen->upto, seen_gone_one, &g);
	seen_end(seen);
	if (g.gone->len)
		TRACE("readdir %s: names the kernel held that the whole "
		      "listing lacks: %u → their entries expire",
		      fs_name_of(dir), g.gone->len);
	fs_names_expire(fs, dir->id, g.gone);
}

static void dh_free(struct dir_handle *dh)
{
	seen_end(&dh->seen);
	dh_drop(dh);
	dh_drop_ahead(dh);
	pthread_mutex_destroy(&dh->lock);
	free(dh);
}

/*
 * Close-to-open for a directory, as the Linux client's GETATTR at each
 * open of one, without a call of its own: the first part of the
 * listing, which the opener reads next, is asked for at the open, and
 * its reply brings the directory's attributes.  A handle the server no
 * longer knows (another client removed the directory and made one under
 * its name) then fails the open rather than the first read, and the
 * kernel retries an open that met ESTALE with a fresh lookup of each
 * name on its path, which finds the new directory.  Other errors are
 * left to the read, which asks again and reports what it gets.
 *
 * Not for a process opening again a directory it listed itself, while
 * the attributes that listing brought are believed: its listing was the
 * check, and find(1) reopens directories it has read, to return to
 * them, without reading them again.
 */
static bool listed_by_opener(struct inode *dir, pid_t opener)
{
	struct fattr3 a;
	double left;
	bool same;

	pthread_mutex_lock(&dir->lock);
	same = opener && dir->listed_by == opener;
	pthread_mutex_unlock(&dir->lock);
	return same && inode_fresh_attr(dir, &a, &left);
}

void fs_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct fs *fs = fs_of(req);
	struct inode *dir = fs_inode(req, ino);
	struct dir_handle *dh;
	int ret;

	if (!dir) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	dh = calloc(1, sizeof(*dh));
	if (!dh) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	pthread_mutex_init(&dh->lock, NULL);
	dh->opener = fuse_req_ctx(req)->pid;
	if (reread_take(dir, dh, fs->kernel_rdplus)) {
		STAT_INC(dir_rereads);
		TRACE("opendir %s: the first part of its listing, read by the "
		      "same process a moment ago, the directory unchanged "
		      "here → no call", fs_name_of(dir));
		dh->part.unread = true;
	} else if (listed_by_opener(dir, dh->opener)) {
		TRACE("opendir %s: listed by the same process, its attributes "
		      "still believed → no call until it reads",
		      fs_name_of(dir));
	} else {
		ret = dh_fetch(req, dir, dh, 0, fs->kernel_rdplus);
		TRACE("opendir %s: the first part of its listing asked for now "
		      "(close-to-open) → %s", fs_name_of(dir),
		      ret ? strerror(-ret) : "held for the first read");
		if (ret == -ESTALE || ret == -EINTR) {
			dh_free(dh);
			fuse_reply_err(req, -ret);
			return;
		}
		dh->part.unread = ret == 0;
	}
	fi->fh = (uintptr_t)dh;
	if (fuse_reply_open(req, fi))
		dh_free(dh);
}

/* Keep the first part dh holds for its lister to read again (the
 * reply passes to the slot). */
static void reread_keep(struct dir_handle *dh, uint64_t dir)
{
	struct rpc_reply old = { NULL, 0 };

	if (!dh->part.have || !dh->part.from_start || !dh->opener)
		return;
	pthread_mutex_lock(&reread.lock);
	if (reread.part.have)
		old = reread.part.reply;
	reread.dir = dir;
	reread.lister = dh->opener;
	reread.part = dh->part;
	pthread_mutex_unlock(&reread.lock);
	dh->part.have = false;
	if (old.buf)
		rpc_reply_release(&old);
}

/* The first part of dir's listing for a new handle dh of the same
 * lister, if the slot holds one still good, read from its start; true
 * when dh has it. */
static bool reread_take(struct inode *dir, struct dir_handle *dh, bool plus)
{
	bool take;

	if (!dh->opener)
		return false;
	pthread_mutex_lock(&reread.lock);
	take = reread.part.have && reread.dir == dir->id &&
	       reread.lister == dh->opener && reread.part.plus == plus &&
	       clock_mono_ns() - reread.part.fetched < DIR_REREAD_NS &&
	       fs_attr_timeout(dir) > 0 &&
	       dir_stamp_holds(dir, reread.part.got);
	if (take) {
		dh_drop(dh);
		dh->part = reread.part;
		dh->part.it = dh->part.first;
		dh->part.pos = 0;
		reread.part.have = false;
	}
	pthread_mutex_unlock(&reread.lock);
	return take;
}

void fs_dir_drop_kept(void)
{
	pthread_mutex_lock(&reread.lock);
	if (reread.part.have)
		rpc_reply_release(&reread.part.reply);
	reread.part.have = false;
	pthread_mutex_unlock(&reread.lock);
}

void fs_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct dir_handle *dh = dh_of(fi);

	reread_keep(dh, ino);
	dh_free(dh);
	fuse_reply_err(req, 0);
}

void fs_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		 struct fuse_file_info *fi)
{
	/* Directory operations are synchronous on an NFSv3 server. */
	(void)ino;
	(void)datasync;
	(void)fi;
	fuse_reply_err(req, 0);
}

/*
 * Is dir, as READDIRPLUS just described it (a), unchanged since it was
 * last listed from the start, with attributes we believe (not changed
 * within the server's timestamp granularity of now)?  Then every name in
 * it still names what that listing said, and the kernel's entries from
 * it still hold.  A listing from the start records what it saw.
 */
static bool dir_unchanged(struct inode *dir, const struct post_op_attr *a,
			  uint64_t cookie)
{
	bool same;

	if (!a->present)
		return false;
	pthread_mutex_lock(&dir->lock);
	same = dir->listed_valid && wcc_attr_is(&dir->listed, &a->attr);
	if (cookie == 0) {
		dir->listed = (struct wcc_attr){ a->attr.size, a->attr.mtime,
						 a->attr.ctime,
						 a->attr.change };
		dir->listed_valid = true;
	}
	pthread_mutex_unlock(&dir->lock);
	return same && fs_attr_timeout(dir) > 0;
}

/*
 * Does the kernel hold the inode of this entry already, with the
 * attributes the listing gives (size, mtime, ctime: any change of mode,
 * owner or links moves ctime)?  In a directory unchanged since the
 * listing that gave the kernel its entries, the name is the kernel's
 * already, and linking it again would only make the kernel drop the ACLs
 * it keeps for the file (one GETXATTR per file for the next `ls -l`).
 * The attributes still refresh ours.
 */
#define KEPT_MARGIN_NS (2 * CLOCK_NS_PER_SEC)

static bool entry_held_same(struct fs *fs, const struct nfs_fh3 *fh,
			    const struct post_op_attr *pa, uint64_t since)
{
	struct inode *ino = inode_find_fh(fs->inodes, fh);
	struct fattr3 a;
	bool same;

	if (!ino)
		return false;
	/* Beyond our own hold, one the kernel (or a call in flight) has;
	 * and the kernel still believes the attributes it has, for a while
	 * yet (the lister stats the names after the listing): otherwise it
	 * asks for them again, and an entry given now saves that request. */
	pthread_mutex_lock(&ino->lock);
	same = ino->kattr_until > clock_mono_ns() + KEPT_MARGIN_NS;
	pthread_mutex_unlock(&ino->lock);
	same = same && inode_lookups(fs->inodes, ino) >= 2 &&
	       inode_get_attr(ino, &a) &&
	       acache_compare(&a, &pa->attr) == ACACHE_SAME;
	if (same)
		fs_learn(fs, ino, pa, since, "readdir");
	inode_forget(fs->inodes, ino->id, 1);
	return same;
}

/* Did a batch of our writes to the file of fh begin or settle after
 * `since`?  Most listings see no write at all, and look at no file. */
static bool wstraddled_fh(struct fs *fs, const struct nfs_fh3 *fh,
			  uint64_t since)
{
	struct inode *ino;
	bool straddled;

	if (fs_wsince(fs) == since)
		return false;
	ino = inode_find_fh(fs->inodes, fh);
	if (!ino)
		return false;
	straddled = fs_wstraddled(fs, ino, since);
	inode_forget(fs->inodes, ino->id, 1);
	return straddled;
}

/* The arguments of the call that lists dir after cookie; its procedure. */
static enum nfs3_proc dir_args_make(struct fs *fs, struct inode *dir,
				    const struct dir_handle *dh,
				    uint64_t cookie, bool plus,
				    union dir_args *a)
{
	if (plus) {
		a->p = (struct nfs3_readdirplus_args){
			.dir = dir->fh, .cookie = cookie,
			.dircount = fs->nfs->dsize, .maxcount = fs->nfs->dsize,
		};
		memcpy(a->p.cookieverf, dh->part.cookieverf,
		       sizeof(a->p.cookieverf));
		return NFS3PROC_READDIRPLUS;
	}
	a->r = (struct nfs3_readdir_args){
		.dir = dir->fh, .cookie = cookie, .count = fs->nfs->dsize,
	};
	memcpy(a->r.cookieverf, dh->part.cookieverf, sizeof(a->r.cookieverf));
	return NFS3PROC_READDIR;
}

/* Either reply as READDIR's: only the entries differ, and dent_next()
 * reads them by dh->part.plus. */
static void dir_res_get(const union dir_res *res, bool plus,
			struct nfs3_readdir_res *r)
{
	if (!plus) {
		*r = res->r;
		return;
	}
	r->status = res->p.status;
	r->dir_attributes = res->p.dir_attributes;
	memcpy(r->cookieverf, res->p.cookieverf, sizeof(r->cookieverf));
	r->entries = res->p.entries;
	r->nentries = res->p.nentries;
	r->eof = res->p.eof;
}

/*
 * The part asked for ahead, if it is the one that resumes after cookie:
 * waits for it as req's wait (fs_wait.h), and gives its results in *r
 * and its reply in *reply.  Returns 1 then; 0 when there is none to
 * take (another part, one the directory changed after, a failed call or
 * an error status is dropped: the caller asks again, and reports what
 * that call gives); -EINTR when the wait was ended.
 */
static int ahead_take(fuse_req_t req, struct inode *dir,
		      struct dir_handle *dh, uint64_t cookie, bool plus,
		      struct nfs3_readdir_res *r, struct rpc_reply *reply,
		      uint64_t *since, struct names_stamp *names)
{
	struct dir_ahead *a = dh->ahead;
	struct fs_wait w;
	int ret = 0;

	if (!a)
		return 0;
	dh->ahead = NULL;
	if (a->cookie != cookie || a->plus != plus) {
		ahead_put(a);
		return 0;
	}
	fs_wait_begin(&w, req);
	pthread_mutex_lock(&a->lock);
	while (!a->done && ret == 0)
		ret = fs_wait_cond(&w, &a->cond, &a->lock);
	/* Its attributes, too, would replace newer ones. */
	if (ret == 0 && a->err == 0 && dir_stamp_holds(dir, a->sent)) {
		dir_res_get(&a->res, plus, r);
		if (r->status == NFS3_OK) {
			*reply = a->reply;
			a->reply = (struct rpc_reply){ NULL, 0 };
			*since = a->wsince;
			*names = a->names;
			ret = 1;
		}
	}
	pthread_mutex_unlock(&a->lock);
	fs_wait_end(&w);
	ahead_put(a);
	return ret;
}

/* Fetch the part of the directory that starts after `cookie`. */
static int dh_fetch(fuse_req_t req, struct inode *dir, struct dir_handle *dh,
		    uint64_t cookie, bool plus)
{
	struct fs *fs = fs_of(req);
	struct nfs3_readdir_res r;
	struct names_stamp names = { 0, 0 };
	uint64_t since = 0;
	int ret = 0;

	dh_drop(dh);
	if (cookie == 0)
		memset(dh->part.cookieverf, 0, sizeof(dh->part.cookieverf));
	ret = ahead_take(req, dir, dh, cookie, plus, &r, &dh->part.reply, &since,
			 &names);
	if (ret < 0)
		return ret;
	if (ret == 1) {
		STAT_INC(dir_ahead_used);
		ret = 0;
	} else {
		union dir_args args;
		union dir_res res;
		enum nfs3_proc proc = dir_args_make(fs, dir, dh, cookie, plus,
						    &args);

		since = fs_wsince(fs);
		names = inode_dir_stamp(dir);
		ret = fs_call(req, proc, &args, &res, &dh->part.reply);
		if (ret == 0)
			dir_res_get(&res, plus, &r);
	}
	if (ret)
		return ret;
	fs_learn(fs, dir, &r.dir_attributes, since, "readdir");
	if (r.status != NFS3_OK) {
		rpc_reply_release(&dh->part.reply);
		return nfs_stat_errno(r.status);
	}
	dh->part.same = plus && dir_unchanged(dir, &r.dir_attributes, cookie);
	memcpy(dh->part.cookieverf, r.cookieverf, sizeof(dh->part.cookieverf));
	dh->part.it = r.entries;
	dh->part.first = r.entries;
	dh->part.from_start = cookie == 0;
	dh->part.fetched = clock_mono_ns();
	dh->part.unread = false;
	if (cookie == 0) {
		pthread_mutex_lock(&dir->lock);
		dir->listed_by = dh->opener;
		pthread_mutex_unlock(&dir->lock);
	}
	dh->part.eof = r.eof;
	dh->part.have = true;
	dh->part.plus = plus;
	dh->part.pos = cookie;
	dh->part.got = dir_stamp_of(dir);
	dh->part.wsince = since;
	dh->part.names = names;
	return 0;
}

static bool is_dot(const char *name, uint32_t len)
{
	return (len == 1 && name[0] == '.') ||
	       (len == 2 && name[0] == '.' && name[1] == '.');
}

/* One entry, as both readdir flavours see it. */
struct dent {
	char name[NFS3_MAXNAMLEN + 1];
	uint64_t fileid;
	uint64_t cookie;
	struct post_op_attr attr;
	struct post_op_fh3 fh;
};

/* The next entry at `it`, a cursor in a reply of either flavour: 1, or 0
 * at its end. */
static int dent_next(struct xdr_dec *it, bool plus, struct dent *d)
{
	const char *name;
	uint32_t namelen;
	int ret;

	d->attr.present = false;
	d->fh.present = false;
	if (plus) {
		struct nfs3_entryplus e;

		ret = nfs3_readdirplus_next(it, &e);
		if (ret != 1)
			return ret;
		name = e.name;
		namelen = e.namelen;
		d->fileid = e.fileid;
		d->cookie = e.cookie;
		d->attr = e.name_attributes;
		d->fh = e.name_handle;
	} else {
		struct nfs3_entry e;

		ret = nfs3_readdir_next(it, &e);
		if (ret != 1)
			return ret;
		name = e.name;
		namelen = e.namelen;
		d->fileid = e.fileid;
		d->cookie = e.cookie;
	}
	memcpy(d->name, name, namelen);
	d->name[namelen] = '\0';
	return 1;
}

/* The cookie after which the part that follows the buffered reply
 * starts: its last entry's.  False when that is not known. */
static bool dh_last_cookie(const struct dir_handle *dh, uint64_t *cookie)
{
	struct xdr_dec it = dh->part.it;
	struct dent d;
	int ret;

	*cookie = dh->part.pos;
	while ((ret = dent_next(&it, dh->part.plus, &d)) == 1)
		*cookie = d.cookie;
	return ret == 0 && *cookie != 0;
}

/* Ask for the part of the listing after the buffered reply, unless that
 * reply ends it or the part is asked for already. */
static void dh_ask_ahead(fuse_req_t req, struct inode *dir,
			 struct dir_handle *dh)
{
	struct fs *fs = fs_of(req);
	struct rpc_cred cred;
	struct dir_ahead *a;
	enum nfs3_proc proc;
	uint64_t last;

	if (!dh->part.have || dh->part.eof || dh->ahead || !dh_last_cookie(dh, &last))
		return;
	a = calloc(1, sizeof(*a));
	if (!a)
		return;
	pthread_mutex_init(&a->lock, NULL);
	clock_cond_init(&a->cond);
	a->refs = 2;
	a->plus = dh->part.plus;
	a->cookie = last;
	a->sent = dir_stamp_of(dir);
	a->names = inode_dir_stamp(dir);
	a->wsince = fs_wsince(fs);
	proc = dir_args_make(fs, dir, dh, last, a->plus, &a->args);
	fs_req_cred(req, &cred);
	if (nfs_call_async(fs->nfs, proc, &cred, &a->args, &a->res,
			   ahead_done, a) != 0) {
		a->refs = 1;
		ahead_put(a);
		return;
	}
	STAT_INC(dir_ahead_issued);
	dh->ahead = a;
}

/* The fileid of dir (the node id if it has no attributes yet). */
static uint64_t fileid_of(struct inode *dir)
{
	struct fattr3 a;

	return inode_get_attr(dir, &a) ? a.fileid : dir->id;
}

/* The fileid of the directory dir was found in: its own at the root. */
static uint64_t parent_fileid(struct fs *fs, struct inode *dir)
{
	uint64_t pid = inode_parent(dir);
	struct inode *p = pid ? inode_ref(fs->inodes, pid) : NULL;
	uint64_t id;

	if (!p)
		return fileid_of(dir);
	id = fileid_of(p);
	inode_forget(fs->inodes, p->id, 1);
	return id;
}

/*
 * An NFSv4 READDIR lists no "." and "..", which every listing of a local
 * directory and of an NFSv3 one starts with: they are made here, at the
 * offsets 1 and 2, which NFSv4 keeps for them (a server's cookies start
 * past them), as the Linux client makes them.  From offset off (0 or 1)
 * into buf; *used grows by their bytes.  False when buf is full.
 */
#define DOTS_END 3

static bool add_dots(fuse_req_t req, struct inode *dir, char *buf,
		     size_t size, size_t *used, uint64_t off, bool plus)
{
	static const char *const names[] = { ".", ".." };

	for (uint64_t k = off; k < 2; k++) {
		struct fuse_entry_param e;
		size_t sz;

		memset(&e, 0, sizeof(e));
		e.attr.st_mode = S_IFDIR;
		e.attr.st_ino = k == 0 ? fileid_of(dir)
				       : parent_fileid(fs_of(req), dir);
		if (plus)
			sz = fuse_add_direntry_plus(req, buf + *used,
						    size - *used, names[k], &e,
						    (off_t)(k + 1));
		else
			sz = fuse_add_direntry(req, buf + *used, size - *used,
					       names[k], &e.attr,
					       (off_t)(k + 1));
		if (sz > size - *used)
			return false;
		*used += sz;
	}
	return true;
}

static void do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t off, struct fuse_file_info *fi, bool plus)
{
	struct fs *fs = fs_of(req);
	struct inode *dir = fs_inode(req, ino);
	struct dir_handle *dh = dh_of(fi);
	uint64_t cookie = (uint64_t)off;
	/* .nfs names left by a crashed run of this mount (fs_ns.c): hidden
	 * from the listing and removed before the reply. */
	char orphans[8][NFS3_MAXNAMLEN + 1];
	unsigned norphans = 0;
	size_t used = 0;
	char *buf;
	int err = 0;

	if (!dir) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	buf = malloc(size);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	pthread_mutex_lock(&dh->lock);
	if (fs->nfs->v4 && cookie < DOTS_END) {
		if (!add_dots(req, dir, buf, size, &used, cookie, plus))
			goto out;
		cookie = 0;
	}
	if (cookie == 0)
		seen_start(fs, dir, &dh->seen);
	if (cookie == 0 && !dh->part.have && reread_take(dir, dh, plus)) {
		STAT_INC(dir_rereads);
		TRACE("readdir %s: its first part, read by the same process a "
		      "moment ago, the directory unchanged here → no call",
		      fs_name_of(dir));
	} else if (!dh->part.have || dh->part.pos != cookie || dh->part.plus != plus ||
		   !dir_stamp_holds(dir, dh->part.got)) {
		err = -dh_fetch(req, dir, dh, cookie, plus);
		if (err)
			goto out;
		/* A listing resumed elsewhere than at its start is read on. */
		if (cookie != 0)
			dh_ask_ahead(req, dir, dh);
	} else if (dh->part.unread) {
		/* The part the open fetched: a first buffer, for which no
		 * part is asked ahead (most directories fit one reply, and a
		 * lister that stops after one buffer, a test for emptiness
		 * or a glob's first match, would pay for a part it never
		 * reads). */
		dh->part.unread = false;
	} else {
		STAT_INC(dir_hits);
		dh_ask_ahead(req, dir, dh);
	}
	for (;;) {
		struct xdr_dec saved = dh->part.it;
		struct fuse_entry_param e;
		struct dent d;
		size_t sz;
		int r = dent_next(&dh->part.it, dh->part.plus, &d);

		if (r == 0) {
			if (dh->part.eof) {
				seen_done(fs, dir, &dh->seen);
				break;
			}
			/* dh->part.pos is the cookie of the last entry taken. */
			err = -dh_fetch(req, dir, dh, dh->part.pos, plus);
			if (err)
				break;
			dh_ask_ahead(req, dir, dh);
			continue;
		}
		/* Taken for "." or ".." when the kernel resumes after it:
		 * the listing would start again, for ever. */
		if (fs->nfs->v4 && d.cookie < DOTS_END) {
			nf_log(NF_LOG_WARNING, "readdir %s: the server gave "
			       "%s the cookie %llu, which NFSv4 keeps for "
			       "\".\" and \"..\"", fs_name_of(dir), d.name,
			       (unsigned long long)d.cookie);
			err = EIO;
			break;
		}
		/* Put first already (a server that lists them anyway). */
		if (fs->nfs->v4 && is_dot(d.name, (uint32_t)strlen(d.name))) {
			dh->part.pos = d.cookie;
			continue;
		}
		seen_name(&dh->seen, d.name);
		if (d.name[0] == '.' && norphans < 8 &&
		    fs_silly_is_orphan(fs, d.name)) {
			memcpy(orphans[norphans++], d.name, sizeof(d.name));
			dh->part.pos = d.cookie;
			continue;
		}
		memset(&e, 0, sizeof(e));
		e.attr.st_ino = d.fileid;
		if (d.attr.present) {
			fs_fattr_to_stat(&d.attr.attr, &e.attr);
			e.attr.st_ino = d.fileid;
		}
		if (!plus) {
			sz = fuse_add_direntry(req, buf + used, size - used,
					       d.name, &e.attr, (off_t)d.cookie);
		} else {
			/* Only names with a handle and attributes become
			 * entries the kernel holds; the others it will
			 * LOOKUP itself when it needs them. */
			bool name = !is_dot(d.name, (uint32_t)strlen(d.name)) &&
				    d.fh.present && d.attr.present;

			if (name && dh->part.same &&
			    entry_held_same(fs, &d.fh.fh, &d.attr, dh->part.wsince)) {
				STAT_INC(dir_entries_kept);
				name = false;
			}
			/* Attributes a batch of our writes began or
			 * settled after are not an entry's: the kernel
			 * asks for them itself. */
			if (name && wstraddled_fh(fs, &d.fh.fh, dh->part.wsince)) {
				STAT_INC(attr_straddled);
				name = false;
			}
			if (name && fs_make_entry(req, dir, &d.fh.fh, &d.attr,
						  dh->part.wsince, d.name, &e) != 0)
				memset(&e, 0, sizeof(e));
			/* What the listing found answers FUSE's next lookup
			 * of the name as a LOOKUP's answer would. */
			if (e.ino)
				inode_dir_listed(dir, d.name, e.ino, dh->part.names);
			if (e.ino == 0) {
				e.attr.st_ino = d.fileid;
				e.attr_timeout = e.entry_timeout = 0;
			}
			sz = fuse_add_direntry_plus(req, buf + used,
						    size - used, d.name, &e,
						    (off_t)d.cookie);
		}
		if (sz > size - used) {
			if (plus && e.ino)
				inode_forget(fs->inodes, e.ino, 1);
			dh->part.it = saved;
			break;
		}
		used += sz;
		dh->part.pos = d.cookie;
	}
out:
	pthread_mutex_unlock(&dh->lock);
	for (unsigned k = 0; k < norphans; k++)
		fs_silly_remove_orphan(req, dir, orphans[k]);
	if (err && used == 0)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, buf, used);
	free(buf);
}

void fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		struct fuse_file_info *fi)
{
	do_readdir(req, ino, size, off, fi, false);
}

void fs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	do_readdir(req, ino, size, off, fi, true);
}
