/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Handlers for attributes and names, the helpers the other fs_*.c files
 * share, and the operations table.
 */
#include "fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "../cache/data.h"
#include "../cache/groups.h"
#include "../cache/wback.h"
#include "../proto/nfs42_ops.h"
#include "../proto/nfs4_deleg.h"
#include "fs_quota.h"
#include "fs_wait.h"
#include "../base/clock.h"
#include "killpriv.h"
#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "../base/userns.h"

struct fs *fs_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

/* The caller's supplementary groups, from the cache (groups.h) or read
 * from /proc by libfuse.  A process with more than 16 groups is cut to
 * the first 16, as the kernel client does with AUTH_SYS; the server may
 * then deny what the 17th group would have allowed. */
static void req_groups(fuse_req_t req, const struct fuse_ctx *ctx,
		       struct rpc_cred *cred)
{
	struct groups_cache *gc = fs_of(req)->groups;
	struct groups_key k = { .tid = (uint32_t)ctx->pid, .uid = ctx->uid,
				.gid = ctx->gid };
	gid_t groups[RPC_AUTH_SYS_MAXGIDS];
	int64_t now = clock_mono_ns();
	int n;

	if (gc && groups_lookup(gc, &k, now, cred->gids, &cred->ngids))
		return;
	n = fuse_req_getgroups(req, RPC_AUTH_SYS_MAXGIDS, groups);
	if (n > (int)RPC_AUTH_SYS_MAXGIDS)
		n = RPC_AUTH_SYS_MAXGIDS;
	for (int i = 0; i < n; i++)
		cred->gids[i] = groups[i];
	cred->ngids = n > 0 ? (uint32_t)n : 0;
	/* A thread gone before its groups were read is not remembered. */
	if (gc && n >= 0)
		groups_store(gc, &k, cred->gids, cred->ngids, now);
}

void fs_req_cred(fuse_req_t req, struct rpc_cred *cred)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);

	memset(cred, 0, sizeof(*cred));
	cred->flavor = RPC_AUTH_SYS;
	cred->machinename = fs_of(req)->machinename;
	cred->uid = ctx->uid;
	cred->gid = ctx->gid;
	req_groups(req, ctx, cred);
	userns_cred_wire(cred, fs_of(req)->opts->uid, fs_of(req)->opts->gid);
}

struct inode *fs_inode(fuse_req_t req, fuse_ino_t ino)
{
	struct inode *i = inode_get(fs_of(req)->inodes, ino);

	if (!i)
		nf_log(NF_LOG_ERR, "kernel named unknown node %llu",
		       (unsigned long long)ino);
	return i;
}

int fs_call(fuse_req_t req, enum nfs3_proc proc, const void *args, void *res,
	    struct rpc_reply *reply)
{
	struct rpc_cred cred;

	fs_req_cred(req, &cred);
	return fs_call_as(req, &cred, proc, args, res, reply);
}

/* The inode of fh, if we have one, ended a call in NFS3ERR_STALE. */
static void stale_fh(struct fs *fs, const struct nfs_fh3 *fh)
{
	struct inode *ino = fh ? inode_find_fh(fs->inodes, fh) : NULL;

	if (!ino)
		return;
	fs_stale_check(ino, -ESTALE);
	inode_forget(fs->inodes, ino->id, 1);
}

int fs_call_as(fuse_req_t req, const struct rpc_cred *cred,
	       enum nfs3_proc proc, const void *args, void *res,
	       struct rpc_reply *reply)
{
	const struct nfs_fh3 *other;
	struct fs_wait w;
	int ret;

	fs_wait_begin(&w, req);
	ret = nfs_call(fs_of(req)->nfs, proc, cred, args, res, reply,
		       &w.stop);
	fs_wait_end(&w);
	/* Whichever call meets a stale handle, of a file or of the
	 * directory a name is looked up or made in: the kernel, told
	 * ESTALE, walks the path again asking for each name, and those
	 * lookups must reach the server (RENAME and LINK name two; the
	 * attributes of both are dropped). */
	if (ret == 0 && nfs3_res_status(proc, res) == NFS3ERR_STALE) {
		stale_fh(fs_of(req), nfs3_args_fh(proc, args, &other));
		stale_fh(fs_of(req), other);
	}
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
	st->st_uid = userns_uid_in(a->uid);
	st->st_gid = userns_gid_in(a->gid);
	/* The kernel fails a file whose size is negative as an off_t until
	 * it is forgotten; the Linux client caps such a size likewise. */
	st->st_size = a->size > INT64_MAX ? INT64_MAX : (off_t)a->size;
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

void fs_inode_stat(struct inode *ino, const struct fattr3 *a, struct stat *st)
{
	uint32_t type;

	fs_fattr_to_stat(a, st);
	/* The .nfs name an unlinked open file was moved to is an artefact
	 * of this client: its descriptors see the file without it, as on a
	 * local disk (0 links once every name the user knew is gone). */
	pthread_mutex_lock(&ino->lock);
	/* Attributes the cache refused (inode.h) may still answer the call
	 * that brought them: never with another type than the file's. */
	type = ino->type;
	if (type && type != a->type)
		st->st_mode = ftype_to_mode(type) | (st->st_mode & 07777);
	if (ino->silly && st->st_nlink > 0)
		st->st_nlink--;
	if (ino->removed)
		st->st_nlink = 0;
	/* Attributes from a LOOKUP or READDIRPLUS while our writes are
	 * still gathered or on the wire lack them; the Linux client, too,
	 * never shrinks a file that has writes pending. */
	if (ino->wbatch && (uint64_t)st->st_size < ino->wb_end)
		st->st_size = (off_t)ino->wb_end;
	pthread_mutex_unlock(&ino->lock);
}

void fs_kernel_attr_given(struct inode *ino, double timeout)
{
	pthread_mutex_lock(&ino->lock);
	ino->kattr_until = clock_mono_ns() + (int64_t)(timeout * 1e9);
	pthread_mutex_unlock(&ino->lock);
}

void fs_dir_removed(struct inode_table *t, uint64_t dir, const char *name)
{
	struct inode *ino = inode_unnamed_take(t, dir, name);

	if (!ino)
		return;
	pthread_mutex_lock(&ino->lock);
	if (ino->type == NF3DIR)
		ino->removed = true;
	pthread_mutex_unlock(&ino->lock);
	inode_forget(t, ino->id, 1);
}

void fs_dir_alive(struct inode *ino)
{
	pthread_mutex_lock(&ino->lock);
	ino->removed = false;
	pthread_mutex_unlock(&ino->lock);
}

bool fs_removed_dir(struct inode *ino)
{
	bool removed;

	pthread_mutex_lock(&ino->lock);
	removed = ino->removed;
	pthread_mutex_unlock(&ino->lock);
	return removed;
}

void fs_name_lost(struct fs *fs, struct inode *ino)
{
	/* Its link count: older answers would bring it back. */
	fs_wchanged(fs, ino);
	inode_expire_attr(ino);
	if (fs->se)
		fuse_lowlevel_notify_inval_inode(fs->se, ino->id, -1, 0);
}

int fs_stale_check(struct inode *ino, int err)
{
	/* Counted where attributes are dropped: fs_call_as() and the call's
	 * caller may both report the same stale handle.  A directory we
	 * removed keeps its last ones: nothing else will answer for it. */
	if (err == -ESTALE && ino && !fs_removed_dir(ino) &&
	    inode_invalidate_attr(ino)) {
		STAT_INC(attr_stale_handles);
		TRACE("%s: the server knows its handle no longer → attributes "
		      "dropped, its name asked again", fs_name_of(ino));
	}
	return err;
}

const char *fs_name_of(struct inode *ino)
{
	/* A few at once: one trace line may name two files. */
	static __thread char names[4][NFS3_MAXNAMLEN + 1];
	static __thread unsigned next;
	char *buf = names[next++ % 4];

	return inode_name(ino, buf, sizeof(names[0]))[0] ? buf : "(unnamed)";
}

/* NFSv4: while a delegation for ino is held, no other client changes it
 * without recalling it first, so the attributes we have are current
 * however long ago they came; they count as fetched now.  Not while our
 * own writes are gathered or in flight (the size is not the server's
 * yet), nor for attributes expired on purpose (a link count our own
 * unlink changed: the server recalls nothing for its holder's own
 * changes).  *a: the attributes. */
bool fs_deleg_vouches(struct fs *fs, struct inode *ino, struct fattr3 *a)
{
	bool batch;

	if (!fs->nfs->v4delegs || !nfs4_deleg_held(fs->nfs, &ino->fh))
		return false;
	pthread_mutex_lock(&ino->lock);
	batch = ino->wbatch;
	pthread_mutex_unlock(&ino->lock);
	if (batch || !inode_renew_attr(ino, a))
		return false;
	STAT_INC(deleg_attr_hits);
	TRACE("getattr %s: attributes timed out, a delegation is held → "
	      "no GETATTR", fs_name_of(ino));
	return true;
}

static void deleg_forget(void *ctx, const struct nfs_fh3 *fh, bool recalled)
{
	struct fs *fs = ctx;
	struct inode *ino = inode_find_fh(fs->inodes, fh);

	if (!ino)
		return;
	inode_expire_attr(ino);
	TRACE("delegation of %s %s: attributes to be asked again",
	      fs_name_of(ino), recalled ? "recalled" : "gone");
	/* Attributes only (no pages, no lock taken with them): the
	 * kernel asks us at the next stat. */
	if (recalled && fs->se)
		fuse_lowlevel_notify_inval_inode(fs->se, ino->id, -1, 0);
	inode_forget(fs->inodes, ino->id, 1);
}

static int deleg_flush(void *ctx, const struct nfs_fh3 *fh)
{
	struct fs *fs = ctx;
	struct inode *ino = inode_find_fh(fs->inodes, fh);
	struct wback *wb;
	int ret = 0;

	if (!ino)
		return 0;
	pthread_mutex_lock(&ino->lock);
	wb = ino->wb;
	pthread_mutex_unlock(&ino->lock);
	/* Pushed, not settled: the writer's own fsync or close still gets
	 * any error, and settles the attributes the writes left. */
	if (wb) {
		ret = wback_push(wb);
		TRACE("write delegation of %s going back: our writes sent and "
		      "committed first%s", fs_name_of(ino),
		      ret ? " (failed)" : "");
	}
	inode_forget(fs->inodes, ino->id, 1);
	return ret;
}

static int deleg_report(void *ctx, const struct nfs_fh3 *fh,
			struct nfs4_deleg_report *r)
{
	struct fs *fs = ctx;
	struct inode *ino = inode_find_fh(fs->inodes, fh);
	const struct fattr3 *a;

	if (!ino)
		return -ENOENT;
	pthread_mutex_lock(&ino->lock);
	/* While our writes are pending the cached attributes are set
	 * aside: the batch started from wb_before, and reaches wb_end. */
	a = ino->wbatch ? &ino->wb_before->attr : &ino->as.attr;
	r->change = a->change;
	r->size = a->size;
	r->dirty = ino->wbatch;
	if (ino->wbatch && ino->wb_end > r->size)
		r->size = ino->wb_end;
	r->wgen = ino->wgen;
	pthread_mutex_unlock(&ino->lock);
	inode_forget(fs->inodes, ino->id, 1);
	return 0;
}

void fs_deleg_hooks(struct fs *fs, struct nfs4_deleg_hooks *h)
{
	h->forget = deleg_forget;
	h->flush = deleg_flush;
	h->report = deleg_report;
	h->ctx = fs;
}

double fs_attr_timeout(struct inode *ino)
{
	struct fattr3 a;
	double left;

	return inode_fresh_attr(ino, &a, &left) ? left : 0.0;
}

bool fs_v42_missing(struct fs *fs, unsigned what)
{
	return __atomic_load_n(&fs->v42_missing, __ATOMIC_RELAXED) & what;
}

void fs_v42_mark_missing(struct fs *fs, unsigned what, const char *op,
			 const char *why)
{
	unsigned old = __atomic_fetch_or(&fs->v42_missing, what,
					 __ATOMIC_RELAXED);

	if (!(old & what))
		TRACE("%s: %s → not asked again on this mount", op, why);
}

const char *fs_v42_why(struct fs *fs)
{
	return fs->nfs->v4 ? "NFSv4.1 mount, no NFSv4.2 operations"
			   : "no such operation before NFSv4.2";
}

bool fs_v42_lacks(struct fs *fs, unsigned what, const char *op)
{
	if (!fs_v42_missing(fs, what) && !nfs42_available(fs->nfs))
		fs_v42_mark_missing(fs, what, op, fs_v42_why(fs));
	return fs_v42_missing(fs, what);
}

int fs_size_clip(const struct fs *fs, uint64_t off, uint64_t *len)
{
	uint64_t max = fs->nfs->info.maxfilesize;

	if (off >= max)
		return -EFBIG;
	if (*len > max - off)
		*len = max - off;
	return 0;
}

void fs_purge_data(struct fs *fs, struct inode *ino, const char *why)
{
	unsigned n = 0;

	pthread_mutex_lock(&ino->lock);
	ino->data_gen++;
	pthread_mutex_unlock(&ino->lock);
	/* A directory changed by someone else may hold any name now. */
	inode_dir_incomplete(ino);
	if (ino->df)
		n = dcache_purge(fs->dc, ino->df);
	TRACE("%s %s: data changed on the server → purge %u blocks", why,
	      fs_name_of(ino), n);
}

uint64_t fs_wsince(struct fs *fs)
{
	return __atomic_load_n(&fs->wclock, __ATOMIC_SEQ_CST);
}

void fs_wstamp(struct fs *fs, struct inode *ino)
{
	ino->wstamp = __atomic_add_fetch(&fs->wclock, 1, __ATOMIC_SEQ_CST);
}

bool fs_wchanged_own(struct fs *fs, struct inode *ino, uint64_t *since)
{
	bool believed;

	/* Under `settle`: a learner's look at the stamp and its update of
	 * the cache are one step, before this or after it; and so are the
	 * look at a batch here and the tick (one that settles after the
	 * look is after the tick too). */
	pthread_mutex_lock(&ino->settle);
	pthread_mutex_lock(&ino->lock);
	believed = ino->wstamp <= *since;
	fs_wstamp(fs, ino);
	*since = ino->wstamp;
	pthread_mutex_unlock(&ino->lock);
	pthread_mutex_unlock(&ino->settle);
	return believed;
}

void fs_wchanged(struct fs *fs, struct inode *ino)
{
	uint64_t since = 0; /* no reply of its own to judge */

	fs_wchanged_own(fs, ino, &since);
}

bool fs_wstraddled(struct fs *fs, struct inode *ino, uint64_t since)
{
	bool straddled;

	/* Nothing ticked anywhere: no lock to take. */
	if (fs_wsince(fs) == since)
		return false;
	pthread_mutex_lock(&ino->lock);
	straddled = ino->wstamp > since;
	pthread_mutex_unlock(&ino->lock);
	return straddled;
}

/* The caller holds ino->settle: no write can join, and no flush cache
 * what it left, between the look at the batch and the update.  a: from
 * a call that went after fs_wsince() gave since. */
static enum acache_change learn_settled(struct fs *fs, struct inode *ino,
					const struct fattr3 *a, uint64_t since)
{
	enum acache_change change;
	bool batch;

	pthread_mutex_lock(&ino->lock);
	batch = ino->wbatch || ino->wstamp > since;
	pthread_mutex_unlock(&ino->lock);
	/* The write counter rule: attributes that may or may not include
	 * our own writes in flight would poison the cache either way; so
	 * would those of a call a batch began or settled during (a flush
	 * by another thread caches what it left, and these predate it). */
	if (batch) {
		STAT_INC(attr_uncacheable);
		return ACACHE_SAME;
	}
	change = inode_set_attr(fs->inodes, ino, a);
	if (change == ACACHE_REFUSED) {
		STAT_INC(attr_refused);
		TRACE("attributes of %s refused: file type %u, known as %u",
		      fs_name_of(ino), a->type, inode_type(ino));
	}
	return change;
}

/* What follows an update: the kernel and the data cache told.  Never
 * under ino->settle (fs_writes_settle() says why). */
static enum acache_change learned(struct fs *fs, struct inode *ino,
				  enum acache_change change, const char *why)
{
	/* The kernel keeps attributes of its own, for as long as we told it
	 * to: when they changed, it must ask again (its size bounds reads). */
	if ((change == ACACHE_DATA || change == ACACHE_META) && fs->se)
		fuse_lowlevel_notify_inval_inode(fs->se, ino->id, -1, 0);
	if (change == ACACHE_DATA) {
		if (!strcmp(why, "open"))
			STAT_INC(purge_cto);
		else
			STAT_INC(purge_timeout);
		fs_purge_data(fs, ino, why);
	}
	return change;
}

enum acache_change fs_learn(struct fs *fs, struct inode *ino,
			    const struct post_op_attr *a, uint64_t since,
			    const char *why)
{
	enum acache_change change;

	if (!ino || !a->present)
		return ACACHE_SAME;
	pthread_mutex_lock(&ino->settle);
	change = learn_settled(fs, ino, &a->attr, since);
	pthread_mutex_unlock(&ino->settle);
	return learned(fs, ino, change, why);
}

void fs_learn_wcc(struct fs *fs, struct inode *ino, const struct wcc_data *w,
		  const char *op)
{
	if (!ino)
		return;
	if (w->before.present && inode_wcc_matches(ino, &w->before.attr)) {
		STAT_INC(wcc_kept);
		TRACE("%s %s: wcc pre-op matches the cache → ours alone, kept",
		      op, fs_name_of(ino));
		if (w->after.present)
			inode_set_attr(fs->inodes, ino, &w->after.attr);
		else
			inode_invalidate_attr(ino);
		return;
	}
	STAT_INC(wcc_lost);
	TRACE("%s %s: wcc pre-op %s → changed elsewhere", op, fs_name_of(ino),
	      w->before.present ? "differs from the cache" : "missing");
	if (w->before.present) {
		STAT_INC(purge_wcc);
		fs_purge_data(fs, ino, op); /* names too */
	} else {
		/* Nothing proves the names unchanged either. */
		inode_dir_incomplete(ino);
	}
	if (w->after.present)
		inode_set_attr(fs->inodes, ino, &w->after.attr);
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
	enum acache_change change;
	uint64_t gen, seq = 0, since = fs_wsince(fs_of(req));
	bool stale;
	int ret;

	pthread_mutex_lock(&ino->lock);
	gen = ino->data_gen;
	if (ino->wb)
		seq = wback_seq(ino->wb);
	pthread_mutex_unlock(&ino->lock);
	ret = getattr_fh(req, &ino->fh, a);
	if (ret)
		return ret;
	/* A truncate or a write of ours that overtook this GETATTR leaves
	 * its answer describing a file that is gone. */
	pthread_mutex_lock(&ino->settle);
	pthread_mutex_lock(&ino->lock);
	stale = gen != ino->data_gen || (ino->wb && wback_seq(ino->wb) != seq);
	pthread_mutex_unlock(&ino->lock);
	if (stale) {
		pthread_mutex_unlock(&ino->settle);
		STAT_INC(attr_uncacheable);
		return 0;
	}
	change = learn_settled(fs_of(req), ino, a, since);
	pthread_mutex_unlock(&ino->settle);
	if (change == ACACHE_REFUSED)
		return -EIO;
	learned(fs_of(req), ino, change, "revalidate");
	return 0;
}

/* Fresh attributes of ino as a stat needs them: size and mtime are the
 * server's only once our writes reached it (the Linux client flushes
 * before stat for the same reason).  A flush error is the writers' to
 * hear (fs_file.c, handle_werr), not the asker's.  The flush's own
 * WRITE replies, when they show the change was ours alone, are the
 * server's word after it: no GETATTR to ask it again (nor does the Linux
 * client send one after its write-back). */
static int stat_attr(fuse_req_t req, struct inode *ino, struct fattr3 *a)
{
	double left;

	if (ino->wb) {
		fs_writes_settle(req, ino);
		if (inode_atime_known(ino) && inode_fresh_attr(ino, a, &left)) {
			STAT_INC(attr_from_flush);
			return 0;
		}
	}
	return fs_getattr_rpc(req, ino, a);
}

/* The kernel's entry for ino, named name in dir (NULL for none), with
 * attributes a; the lookup it stands for is counted already. */
static void fill_entry(struct fs *fs, struct inode *dir, const char *name,
		       struct inode *ino, const struct fattr3 *a,
		       struct fuse_entry_param *e)
{
	if (dir && name && name[0] && strcmp(name, ".") && strcmp(name, ".."))
		inode_named(fs->inodes, ino, dir->id, name);
	memset(e, 0, sizeof(*e));
	e->ino = ino->id;
	fs_inode_stat(ino, a, &e->attr);
	e->attr_timeout = fs_attr_timeout(ino);
	/* A name is believed as long as its directory is: a change to the
	 * directory is what would show the name gone or replaced. */
	e->entry_timeout = dir ? fs_attr_timeout(dir) : e->attr_timeout;
	if (e->entry_timeout < e->attr_timeout)
		e->entry_timeout = e->attr_timeout;
	fs_kernel_attr_given(ino, e->attr_timeout);
}

int fs_make_entry(fuse_req_t req, struct inode *dir,
		  const struct nfs_fh3 *fh,
		  const struct post_op_attr *a, uint64_t since,
		  const char *name, struct fuse_entry_param *e)
{
	struct post_op_attr pa;
	struct fs *fs = fs_of(req);
	struct fattr3 attr;
	struct inode *ino;
	int ret;

	if (a && a->present) {
		attr = a->attr;
	} else {
		since = fs_wsince(fs);
		ret = getattr_fh(req, fh, &attr);
		if (ret)
			return ret;
	}
	ino = inode_remember(fs->inodes, fh);
	if (!ino)
		return -ENOMEM;
	pa.present = true;
	pa.attr = attr;
	if (fs_learn(fs, ino, &pa, since, "lookup") == ACACHE_REFUSED) {
		inode_forget(fs->inodes, ino->id, 1);
		return -EIO;
	}
	/* The kernel asked after every write it has seen complete, and
	 * believes the size it gets: not one from before a flush that
	 * settled during the call.  Asked again as a stat would be. */
	if (fs_wstraddled(fs, ino, since)) {
		STAT_INC(attr_straddled);
		ret = stat_attr(req, ino, &attr);
		if (ret) {
			inode_forget(fs->inodes, ino->id, 1);
			return ret;
		}
	}
	fill_entry(fs, dir, name, ino, &attr, e);
	return 0;
}

/* The kernel did not take the entry (the request was interrupted): give
 * back the lookup that fs_make_entry counted for it. */
static void entry_not_taken(fuse_req_t req, const struct fuse_entry_param *e)
{
	inode_forget(fs_of(req)->inodes, e->ino, 1);
}

int fs_lookup_fh(fuse_req_t req, struct inode *dir, const char *name,
		 struct nfs_fh3 *fh, struct post_op_attr *a, uint64_t *since)
{
	struct nfs3_lookup_args args = { .what = { &dir->fh, name } };
	struct nfs3_lookup_res res;
	int ret;

	if (strlen(name) > NFS3_MAXNAMLEN)
		return -ENAMETOOLONG;
	*since = fs_wsince(fs_of(req));
	ret = fs_call(req, NFS3PROC_LOOKUP, &args, &res, NULL);
	if (ret)
		return ret;
	fs_learn(fs_of(req), dir, &res.dir_attributes, *since, "lookup");
	if (res.status != NFS3_OK)
		return nfs_stat_errno(res.status);
	*fh = res.object;
	*a = res.obj_attributes;
	return 0;
}

/* LOOKUP name in dir for the kernel: an entry it will hold. */
static int lookup_name(fuse_req_t req, struct inode *dir, const char *name,
		       struct fuse_entry_param *e)
{
	struct post_op_attr a;
	struct nfs_fh3 fh;
	uint64_t since;
	int ret = fs_lookup_fh(req, dir, name, &fh, &a, &since);

	if (ret != -ENAMETOOLONG)
		STAT_INC(lookup_misses);
	if (ret)
		return ret;
	return fs_make_entry(req, dir, &fh, &a, since, name, e);
}

void fs_dir_named(struct inode *dir, const char *name, bool ok)
{
	if (!dir)
		return;
	if (ok)
		inode_dir_add_name(dir, name);
	else
		inode_dir_incomplete(dir);
}

void fs_reply_created(fuse_req_t req, struct inode *dir,
		      const struct nfs3_diropres *r, uint64_t since,
		      struct names_stamp stamp, const char *name, bool new_dir)
{
	struct fuse_entry_param e;
	int ret;

	fs_learn_wcc(fs_of(req), dir, &r->dir_wcc, "create");
	fs_dir_named(dir, name, r->status == NFS3_OK);
	if (r->status != NFS3_OK) {
		fuse_reply_err(req, -nfs_stat_errno(r->status));
		return;
	}
	/* RFC 1813 lets a server create the object without returning its
	 * handle; then we must look the name up like anyone else. */
	if (r->obj.present)
		ret = fs_make_entry(req, dir, &r->obj.fh, &r->obj_attributes,
				    since, name, &e);
	else
		ret = lookup_name(req, dir, name, &e);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	if (new_dir && r->obj.present) {
		struct inode *made = inode_get(fs_of(req)->inodes, e.ino);

		if (made)
			inode_dir_complete(made);
	}
	inode_dir_made(dir, name, e.ino, stamp);
	if (fuse_reply_entry(req, &e))
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
	fs->kernel_rdplus = conn->capable & FUSE_CAP_READDIRPLUS &&
			    fs->opts->rdirplus;
	fs->kernel_expire = conn->proto_major > 7 ||
			    (conn->proto_major == 7 && conn->proto_minor >= 38);
	if (fs->kernel_rdplus)
		conn->want |= FUSE_CAP_READDIRPLUS;
	else
		conn->want &= ~FUSE_CAP_READDIRPLUS;
	conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
	if (conn->capable & FUSE_CAP_ASYNC_READ)
		conn->want |= FUSE_CAP_ASYNC_READ;
	/* Permissions are checked by the kernel before each call, as on a
	 * local disk (default_permissions, main.c), from the mode bits and,
	 * where the server serves them, the POSIX ACLs; the server still
	 * checks every call with its caller's AUTH_SYS identity, and open
	 * asks ACCESS as the kernel NFS client does. */
	if (fs->acl && (conn->capable & FUSE_CAP_POSIX_ACL)) {
		conn->want |= FUSE_CAP_POSIX_ACL;
		fs->kernel_acl = true;
	}
	/* The kernel keeps its page cache only where close-to-open says it
	 * may. */
	conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
	conn->want |= FUSE_CAP_ATOMIC_O_TRUNC & conn->capable;
	/* The kernel drops its pages of a file whose mtime or size moved in
	 * attributes we return: the same rule our own cache follows. */
	conn->want |= FUSE_CAP_AUTO_INVAL_DATA & conn->capable;
	/* A symlink's target never changes: NFS has no call that writes
	 * one, and a link made again under the same name is a new file with
	 * a new handle.  So the kernel keeps each target it has read, for as
	 * long as it keeps the inode, and a path through a symlink costs no
	 * READLINK after the first (the Linux client keeps them too). */
	conn->want |= FUSE_CAP_CACHE_SYMLINKS & conn->capable;
	/* The server clears setuid/setgid at WRITE, SETATTR of the size
	 * or owner (killpriv.h); the kernel must not try as the caller. */
	if (conn->capable & FUSE_CAP_HANDLE_KILLPRIV) {
		conn->want |= FUSE_CAP_HANDLE_KILLPRIV;
		killpriv_want(true);
	}
	fs_lock_init_conn(fs, conn);
}

enum dir_lack fs_dir_lacks(struct fs *fs, struct inode *dir,
			   const char *name)
{
	enum dir_lack lack;

	if (fs->opts->lookupcache != LOOKUPCACHE_ALL ||
	    fs_attr_timeout(dir) <= 0)
		return DIR_MAY_HOLD;
	lack = inode_dir_lacks(dir, name);
	if (lack == DIR_LACKS_COMPLETE && !fs->opts->dircomplete)
		return DIR_MAY_HOLD;
	return lack;
}

struct inode *fs_dir_known(struct fs *fs, struct inode *dir,
			   const char *name, struct fattr3 *a)
{
	struct inode *ino;
	uint64_t id;
	double left;

	if (fs->opts->lookupcache == LOOKUPCACHE_NONE ||
	    fs_attr_timeout(dir) <= 0 || !(id = inode_dir_holds(dir, name)))
		return NULL;
	ino = inode_ref(fs->inodes, id);
	if (ino && !inode_fresh_attr(ino, a, &left)) {
		inode_forget(fs->inodes, ino->id, 1);
		ino = NULL;
	}
	return ino;
}

/* A lookup answered from fs_dir_known(): the kernel would have kept its
 * own entry (FUSE asks again before a rename over the name, a mkdir or
 * an O_EXCL create of it).  The hold it takes is the lookup the entry
 * stands for, as fs_make_entry() counts one. */
static bool fs_dir_holds(fuse_req_t req, struct inode *dir, const char *name,
			 struct fuse_entry_param *e)
{
	struct fs *fs = fs_of(req);
	struct fattr3 a;
	struct inode *ino = fs_dir_known(fs, dir, name, &a);

	if (!ino)
		return false;
	fill_entry(fs, dir, name, ino, &a, e);
	return true;
}

static void fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct inode *dir = fs_inode(req, parent);
	struct fuse_entry_param e;
	/* "." and "..": never remembered, always asked. */
	bool named;
	enum dir_lack lack;
	struct names_stamp stamp;
	int ret;

	if (!dir) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	named = strcmp(name, ".") && strcmp(name, "..");
	lack = named ? fs_dir_lacks(fs_of(req), dir, name) : DIR_MAY_HOLD;
	if (lack != DIR_MAY_HOLD) {
		memset(&e, 0, sizeof(e));
		e.entry_timeout = fs_attr_timeout(dir);
		if (lack == DIR_LACKS_COMPLETE) {
			STAT_INC(lookup_complete_dir);
			TRACE("lookup %s in %s: no such name (a directory "
			      "made here, changed by nobody else since) → no "
			      "LOOKUP", name, fs_name_of(dir));
		} else {
			STAT_INC(lookup_negative_hits);
			TRACE("lookup %s in %s: no such name (a LOOKUP found "
			      "none, the directory changed by nobody else "
			      "since) → no LOOKUP", name, fs_name_of(dir));
		}
		fuse_reply_entry(req, &e);
		return;
	}
	if (named && fs_dir_holds(req, dir, name, &e)) {
		STAT_INC(lookup_hits);
		TRACE("lookup %s in %s: found before (a LOOKUP, or made "
		      "here), the directory changed by nobody else since → "
		      "no LOOKUP", name, fs_name_of(dir));
		if (fuse_reply_entry(req, &e))
			entry_not_taken(req, &e);
		return;
	}
	stamp = inode_dir_stamp(dir);
	ret = lookup_name(req, dir, name, &e);
	if (ret == -ENOENT) {
		/* A negative entry lives as long as the directory's
		 * attributes: a name created elsewhere changes the directory,
		 * and we see that when they are revalidated. */
		memset(&e, 0, sizeof(e));
		if (fs_of(req)->opts->lookupcache == LOOKUPCACHE_ALL) {
			e.entry_timeout = fs_attr_timeout(dir);
			if (e.entry_timeout > 0) {
				STAT_INC(lookup_negative_stored);
				if (named)
					inode_dir_absent(dir, name, stamp);
			}
		}
		fuse_reply_entry(req, &e);
		return;
	}
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	if (named)
		inode_dir_found(dir, name, e.ino, stamp);
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

/*
 * The kernel's own look at the size before a read or an lseek, which
 * names the open file (a stat(2) never does), while our writes are
 * gathered: the attributes from before them with the size they reach.
 * A flush here would send every small write that a read follows as a
 * WRITE of its own, and the mtime it moved would make the kernel drop
 * every page it holds of the file, its own writes' included.  Only while
 * the attributes from before would still be believed, as another
 * client's change is looked for at the same pace as ever; and given to
 * the kernel to be asked again at once, so that a stat still flushes and
 * shows the server's mtime.
 */
static bool batch_attr(struct inode *ino, struct fattr3 *a)
{
	bool ok;

	pthread_mutex_lock(&ino->lock);
	ok = ino->wbatch && acache_fresh(ino->wb_before, clock_mono_ns());
	if (ok) {
		*a = ino->wb_before->attr;
		/* Here, under the lock that saw the batch: settled by the
		 * time fs_inode_stat() looks, it would leave the size from
		 * before, and the kernel cut its pages to it. */
		if (ino->wb_end > a->size)
			a->size = ino->wb_end;
	}
	pthread_mutex_unlock(&ino->lock);
	return ok;
}

/* Reply with a as ino's attributes, which the kernel believes for
 * timeout seconds. */
static void reply_attr(fuse_req_t req, struct inode *ino,
		       const struct fattr3 *a, double timeout)
{
	struct stat st;

	fs_inode_stat(ino, a, &st);
	fs_kernel_attr_given(ino, timeout);
	fuse_reply_attr(req, &st, timeout);
}

static void fs_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct inode *i = fs_inode(req, ino);
	struct fattr3 a, last;
	double left;
	bool had, atime;
	int ret;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	/*
	 * A READ that asked for no attributes (NFSv4) may have moved the
	 * server's atime, and the kernel asks again after each read for
	 * that: those it asks then come from the server, as the Linux
	 * client's after a read do, not the atime from before the read.
	 */
	atime = inode_atime_known(i);
	if (inode_fresh_attr(i, &a, &left)) {
		if (atime) {
			STAT_INC(attr_hits);
			reply_attr(req, i, &a, left);
			return;
		}
		STAT_INC(attr_atime_asked);
		TRACE("getattr %s: a READ without attributes since → the "
		      "server's atime asked", fs_name_of(i));
	}
	if (fi && batch_attr(i, &a)) {
		STAT_INC(attr_batch_size);
		reply_attr(req, i, &a, 0.0);
		return;
	}
	if (atime && fs_deleg_vouches(fs_of(req), i, &a)) {
		reply_attr(req, i, &a, fs_attr_timeout(i));
		return;
	}
	had = inode_get_attr(i, &a);
	if (had)
		STAT_INC(attr_revalidations);
	else
		STAT_INC(attr_misses);
	last = a;
	ret = stat_attr(req, i, &a);
	/* A directory we removed: the server forgot its handle, and its
	 * last attributes answer, with no links.  Found alive instead (the
	 * name held another directory by then), it is one no longer. */
	if (ret == -ESTALE && had && fs_removed_dir(i)) {
		reply_attr(req, i, &last, 0.0);
		return;
	}
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_dir_alive(i);
	reply_attr(req, i, &a, fs_attr_timeout(i));
}

static void set_time(uint32_t *how, struct nfstime3 *t, bool now,
		     const struct timespec *ts)
{
	if (now) {
		*how = SET_TO_SERVER_TIME;
	} else {
		*how = SET_TO_CLIENT_TIME;
		t->seconds = ts->tv_sec;
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
	int ret;

	/* What is left of the kernel's request to clear setuid/setgid once
	 * the server is the one to do it (killpriv.h): nothing to set. */
	if (!(to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID |
			FUSE_SET_ATTR_GID | FUSE_SET_ATTR_SIZE |
			FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_ATIME_NOW |
			FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_MTIME_NOW))) {
		fs_getattr(req, ino, fi);
		return;
	}
	(void)fi;
	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	memset(&args, 0, sizeof(args));
	args.object = i->fh;
	/* An owner the server knows by no id of ours cannot be asked for. */
	if (((to_set & FUSE_SET_ATTR_UID) &&
	     !userns_uid_out(attr->st_uid, &args.new_attributes.uid)) ||
	    ((to_set & FUSE_SET_ATTR_GID) &&
	     !userns_gid_out(attr->st_gid, &args.new_attributes.gid))) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (to_set & FUSE_SET_ATTR_MODE) {
		args.new_attributes.set_mode = true;
		args.new_attributes.mode = attr->st_mode & 07777;
	}
	if (to_set & FUSE_SET_ATTR_UID)
		args.new_attributes.set_uid = true;
	if (to_set & FUSE_SET_ATTR_GID)
		args.new_attributes.set_gid = true;
	if (to_set & FUSE_SET_ATTR_SIZE) {
		if ((uint64_t)attr->st_size > fs_of(req)->nfs->info.maxfilesize) {
			fuse_reply_err(req, EFBIG);
			return;
		}
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

	/* Our writes first: a truncate must not be overtaken by them, and
	 * the wcc check needs the attributes they left.  Their refusal
	 * does not fail a truncate or a chmod (nor on the Linux client). */
	if ((ret = fs_writes_before(req, i))) {
		fuse_reply_err(req, -ret);
		return;
	}
	ret = fs_call(req, NFS3PROC_SETATTR, &args, &res, NULL);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	/* Mode, owner, times or size: older answers would bring them
	 * back. */
	fs_wchanged(fs_of(req), i);
	fs_learn_wcc(fs_of(req), i, &res.obj_wcc, "setattr");
	if (res.status != NFS3_OK) {
		fuse_reply_err(req, -nfs_stat_errno(res.status));
		return;
	}
	if (to_set & FUSE_SET_ATTR_SIZE) {
		/* READs in flight may carry bytes the truncate removed. */
		pthread_mutex_lock(&i->lock);
		i->data_gen++;
		pthread_mutex_unlock(&i->lock);
		if (i->df)
			dcache_truncate(fs_of(req)->dc, i->df,
					(uint64_t)attr->st_size);
	}
	if (res.obj_wcc.after.present)
		a = res.obj_wcc.after.attr;
	else if ((ret = fs_getattr_rpc(req, i, &a))) {
		fuse_reply_err(req, -ret);
		return;
	}
	reply_attr(req, i, &a, fs_attr_timeout(i));
}

static void fs_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct inode *i = fs_inode(req, ino);
	struct nfs3_readlink_args args;
	struct nfs3_readlink_res res;
	struct rpc_reply reply = { 0 };
	uint64_t since;
	char *target;
	int ret;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	args.symlink = i->fh;
	since = fs_wsince(fs_of(req));
	ret = fs_call(req, NFS3PROC_READLINK, &args, &res, &reply);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn(fs_of(req), i, &res.symlink_attributes, since, "readlink");
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

static bool access_cached(struct inode *ino, const struct access_key *k,
			  uint32_t want, uint32_t *granted)
{
	bool hit;

	pthread_mutex_lock(&ino->lock);
	hit = ino->as.valid &&
	      access_lookup(ino->acc, k, want, &ino->as.attr.ctime,
			    clock_mono_ns(), granted);
	pthread_mutex_unlock(&ino->lock);
	return hit;
}

/*
 * The answer is dated by the ctime its own reply shows, not the one cached
 * now: a chmod of ours that overtook the call has moved the cached ctime
 * on, and an answer from before it must not pass for one after it.  Nor is
 * an answer kept when such a change straddled the call at all, for a
 * server whose ctime may not move within its granularity.  at: the reply's
 * attributes; since: fs_wsince() before the call.
 */
static void access_remember(struct fs *fs, struct inode *ino,
			    const struct access_key *k, uint32_t asked,
			    uint32_t granted, const struct post_op_attr *at,
			    uint64_t since)
{
	const struct nfstime3 *ctime;

	if (fs_wstraddled(fs, ino, since))
		return;
	pthread_mutex_lock(&ino->lock);
	ctime = at->present ? &at->attr.ctime
	      : ino->as.valid ? &ino->as.attr.ctime : NULL;
	/* Without attributes, nothing dates the answer. */
	if (ctime && inode_access_cache(ino))
		access_store(ino->acc, k, asked, granted, ctime,
			     clock_mono_ns());
	pthread_mutex_unlock(&ino->lock);
}

void fs_access_answered(struct fs *fs, struct inode *ino,
			const struct rpc_cred *cred, uint32_t asked,
			uint32_t granted, const struct post_op_attr *at,
			uint64_t since)
{
	struct access_key key;

	access_key_of(&key, cred);
	access_remember(fs, ino, &key, asked, granted, at, since);
}

bool fs_access_known(struct inode *ino, const struct rpc_cred *cred,
		     uint32_t want)
{
	struct access_key key;
	uint32_t granted;

	access_key_of(&key, cred);
	return access_cached(ino, &key, want, &granted);
}

int fs_access_rpc(fuse_req_t req, struct inode *ino,
		  const struct rpc_cred *cred, uint32_t *granted,
		  struct post_op_attr *at, uint64_t since)
{
	struct nfs3_access_args args = { .object = ino->fh,
					 .access = ACCESS3_ALL };
	struct nfs3_access_res res;
	int ret;

	at->present = false;
	ret = fs_call_as(req, cred, NFS3PROC_ACCESS, &args, &res, NULL);
	if (ret)
		return ret;
	*at = res.obj_attributes;
	if (res.status != NFS3_OK)
		return nfs_stat_errno(res.status);
	*granted = res.access;
	fs_access_answered(fs_of(req), ino, cred, ACCESS3_ALL, res.access,
			   &res.obj_attributes, since);
	return 0;
}

int fs_check_access(fuse_req_t req, struct inode *ino, uint32_t want)
{
	struct post_op_attr at;
	struct access_key key;
	struct rpc_cred cred;
	struct fattr3 a;
	uint32_t granted;
	uint64_t since;
	int ret;

	fs_req_cred(req, &cred);
	access_key_of(&key, &cred);
	if (!access_cached(ino, &key, want, &granted)) {
		since = fs_wsince(fs_of(req));
		ret = fs_access_rpc(req, ino, &cred, &granted, &at, since);
		if (ret == -ENOTSUP) {
			/* The protocol has no ACCESS (NFSv2): the mode bits we
			 * have, or allow; the server still checks each call
			 * with the caller's identity. */
			if (!inode_get_attr(ino, &a))
				return 0;
			granted = access_from_mode(&a, &cred);
			return (granted & want) == want ? 0 : -EACCES;
		}
		fs_learn(fs_of(req), ino, &at, since, "access");
		if (ret)
			return ret;
	}
	return (granted & want) == want ? 0 : -EACCES;
}

static void fs_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	struct inode *i = fs_inode(req, ino);
	struct fattr3 a;
	uint32_t want = 0;
	bool dir;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (mask == F_OK) {
		fuse_reply_err(req, 0);
		return;
	}
	/* X_OK means LOOKUP for a directory and EXECUTE for a file: which
	 * one is asked decides the answer, so the type must be known. */
	if (!inode_get_attr(i, &a)) {
		int ret = fs_getattr_rpc(req, i, &a);

		if (ret) {
			fuse_reply_err(req, -ret);
			return;
		}
	}
	dir = a.type == NF3DIR;
	if (mask & R_OK)
		want |= ACCESS3_READ;
	/* DELETE is a hint for directories: a server may refuse it while
	 * still allowing creation, so W_OK asks only for MODIFY|EXTEND. */
	if (mask & W_OK)
		want |= ACCESS3_MODIFY | ACCESS3_EXTEND;
	if (mask & X_OK)
		want |= dir ? ACCESS3_LOOKUP : ACCESS3_EXECUTE;
	fuse_reply_err(req, -fs_check_access(req, i, want));
}

static void fs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct inode *i = fs_inode(req, ino);
	struct nfs3_fsstat_args args;
	struct nfs3_fsstat_res res;
	struct statvfs sv;
	const unsigned long bsize = 4096;
	uint64_t since;
	int ret;

	if (!i)
		i = inode_root(fs_of(req)->inodes);
	args.fsroot = i->fh;
	since = fs_wsince(fs_of(req));
	ret = fs_call(req, NFS3PROC_FSSTAT, &args, &res, NULL);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn(fs_of(req), i, &res.obj_attributes, since, "statfs");
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
	if (fs_of(req)->opts->quota_statfs && fs_of(req)->quota) {
		struct rpc_cred cred;

		fs_req_cred(req, &cred);
		fs_quota_statfs(fs_of(req)->quota, &cred, &sv);
	}
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
	.flush = fs_lock_flush,
	.release = fs_lock_release,
	.fsync = fs_fsync,
	.opendir = fs_opendir,
	.readdir = fs_readdir,
	.readdirplus = fs_readdirplus,
	.releasedir = fs_releasedir,
	.fsyncdir = fs_fsyncdir,
	.statfs = fs_statfs,
	.getxattr = fs_getxattr,
	.setxattr = fs_setxattr,
	.listxattr = fs_listxattr,
	.removexattr = fs_removexattr,
	.access = fs_access,
	.create = fs_create,
	.getlk = fs_getlk,
	.setlk = fs_setlk,
	.flock = fs_flock,
	.fallocate = fs_fallocate,
	.copy_file_range = fs_copy_file_range,
	.lseek = fs_lseek,
};
