/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FUSE lock handlers: getlk, setlk (F_SETLK and blocking F_SETLKW), flock
 * (a whole-file NLM lock of its own owner, as the Linux NFS client does),
 * and the release of an owner's locks when it closes the file.
 *
 * On an NFSv4 mount the same handlers go to NFSv4 LOCK, LOCKT and LOCKU
 * (proto/nfs4_lock.h) instead of the NLM lock manager: fs->v4locks is
 * set there and fs->locks is NULL.
 *
 * With nolock, or local_lock= naming a kind, fs_lock_init_conn() leaves
 * that kind to the kernel (FUSE_CAP_POSIX_LOCKS / FUSE_CAP_FLOCK_LOCKS not
 * wanted), and these handlers are not called for it.
 *
 * Cache rules: after a grant, fs_lock_acquired() revalidates the file;
 * before an unlock, fs_lock_releasing() writes back and commits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>

#include "fs.h"
#include "fs_wait.h"
#include "../lock/lock.h"
#include "../proto/nfs4_lock.h"
#include "../base/log.h"

static bool posix_remote(const struct fs *fs)
{
	return (fs->locks || fs->v4locks) &&
	       fs->opts->local_lock != LOCAL_LOCK_POSIX &&
	       fs->opts->local_lock != LOCAL_LOCK_ALL;
}

static bool flock_remote(const struct fs *fs)
{
	return (fs->locks || fs->v4locks) &&
	       fs->opts->local_lock != LOCAL_LOCK_FLOCK &&
	       fs->opts->local_lock != LOCAL_LOCK_ALL;
}

void fs_lock_init_conn(struct fs *fs, struct fuse_conn_info *conn)
{
	if (posix_remote(fs) && (conn->capable & FUSE_CAP_POSIX_LOCKS))
		conn->want |= FUSE_CAP_POSIX_LOCKS;
	else
		conn->want &= ~FUSE_CAP_POSIX_LOCKS;
	if (flock_remote(fs) && (conn->capable & FUSE_CAP_FLOCK_LOCKS))
		conn->want |= FUSE_CAP_FLOCK_LOCKS;
	else
		conn->want &= ~FUSE_CAP_FLOCK_LOCKS;
}

/*
 * What getlk, setlk and flock begin with: the inode, a lock manager, the
 * request filled from the caller.  NULL when the request was answered.
 */
static struct inode *lock_begin(fuse_req_t req, fuse_ino_t ino,
				struct fuse_file_info *fi, bool flock,
				struct rpc_cred *cred, struct lock_req *r)
{
	struct inode *i = fs_inode(req, ino);

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return NULL;
	}
	if (!fs_of(req)->locks && !fs_of(req)->v4locks) {
		fuse_reply_err(req, ENOSYS);
		return NULL;
	}
	memset(r, 0, sizeof(*r));
	fs_req_cred(req, cred);
	r->fh = &i->fh;
	r->ino = i->id;
	r->owner = fi->lock_owner;
	r->flock = flock;
	r->pid = fuse_req_ctx(req)->pid;
	r->cred = cred;
	return i;
}

/* The request as NFSv4 locking takes it. */
static void req_to4(const struct lock_req *r, struct nfs4_lock_req *q)
{
	*q = (struct nfs4_lock_req){
		.fh = r->fh, .ino = r->ino, .owner = r->owner,
		.flock = r->flock, .excl = r->excl, .start = r->start,
		.len = r->len, .cred = r->cred,
	};
}

static int v4_test(fuse_req_t req, const struct lock_req *r,
		   struct lock_conflict *c)
{
	struct nfs4_lock_conflict c4;
	struct nfs4_lock_req q;
	struct fs_wait w;
	int ret;

	req_to4(r, &q);
	fs_wait_begin(&w, req);
	ret = nfs4_lock_test(fs_of(req)->v4locks, &q, &c4, &w.stop);
	fs_wait_end(&w);
	memset(c, 0, sizeof(*c));
	if (ret == 0 && c4.found) {
		/* NFSv4 names the holder by its lock-owner, not a pid. */
		c->found = true;
		c->excl = c4.excl;
		c->start = c4.start;
		c->len = c4.len;
	}
	return ret;
}

/* FUSE gives l_len >= 0 with 0 meaning "to end of file", as NLM does. */
static void range_of(const struct flock *l, struct lock_req *r)
{
	r->start = l->l_start < 0 ? 0 : (uint64_t)l->l_start;
	r->len = l->l_len <= 0 ? 0 : (uint64_t)l->l_len;
}

void fs_getlk(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
	      struct flock *lock)
{
	struct lock_conflict c;
	struct rpc_cred cred;
	struct lock_req r;
	int ret;

	if (!lock_begin(req, ino, fi, false, &cred, &r))
		return;
	if (lock->l_pid > 0)
		r.pid = lock->l_pid;
	r.excl = lock->l_type == F_WRLCK;
	range_of(lock, &r);
	if (fs_of(req)->v4locks)
		ret = v4_test(req, &r, &c);
	else
		ret = lockmgr_test(fs_of(req)->locks, &r, &c);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	if (!c.found) {
		lock->l_type = F_UNLCK;
	} else {
		lock->l_type = c.excl ? F_WRLCK : F_RDLCK;
		lock->l_whence = SEEK_SET;
		lock->l_start = (off_t)c.start;
		lock->l_len = (off_t)c.len;
		lock->l_pid = c.svid;
	}
	fuse_reply_lock(req, lock);
}

/* A lock that waits: the request, kept until the lock manager answers. */
struct lock_waiting {
	fuse_req_t req;
	struct inode *i;
	struct lockmgr *lm;
	struct lock_wait *w;
	struct nfs4_locks *v4;      /* NFSv4: instead of lm and w */
	struct nfs4_lock_wait *w4;
};

/* Revalidate after a grant (a cache rule: see fs.h). */
static void lock_granted(fuse_req_t req, struct inode *i)
{
	int e = fs_lock_acquired(req, i);

	if (e)
		nf_log(NF_LOG_WARNING, "revalidating node %llu after a lock "
		       "grant: %s", (unsigned long long)i->id, strerror(-e));
}

/* From libfuse, with the request's lock held: a signal to the caller. */
static void on_interrupt(fuse_req_t req, void *data)
{
	struct lock_waiting *lw = data;

	(void)req;
	if (lw->v4)
		nfs4_lock_wait_interrupt(lw->v4, lw->w4);
	else
		lockmgr_wait_interrupt(lw->lm, lw->w);
}

/* From the lock manager's wait thread, once. */
static void on_done(void *ctx, int result, enum lock_grant how)
{
	struct lock_waiting *lw = ctx;

	(void)how;
	/* Returns only once an on_interrupt() under way has returned, and
	 * none comes after it: lw can go. */
	fuse_req_interrupt_func(lw->req, NULL, NULL);
	if (result == 0)
		lock_granted(lw->req, lw->i);
	fuse_reply_err(lw->req, -result);
	free(lw);
}

static void v4_on_done(void *ctx, int result)
{
	on_done(ctx, result, LOCK_GRANT_POLL);
}

/* do_lock() on an NFSv4 mount: a wait polls on a thread of its own. */
static int v4_do_lock(fuse_req_t req, struct inode *i, struct lock_req *r,
		      bool wait)
{
	struct nfs4_locks *v4 = fs_of(req)->v4locks;
	struct lock_waiting *lw = NULL;
	struct nfs4_lock_req q;
	struct fs_wait w;
	int ret;

	if (wait) {
		lw = calloc(1, sizeof(*lw));
		if (!lw)
			return -ENOMEM;
		lw->req = req;
		lw->i = i;
		lw->v4 = v4;
	}
	req_to4(r, &q);
	/* The first LOCK as this request's wait; a wait after it is the
	 * poller's, ended by any signal (on_interrupt). */
	fs_wait_begin(&w, req);
	ret = nfs4_lock_lock(v4, &q, wait, v4_on_done, lw,
			     lw ? &lw->w4 : NULL, &w.stop);
	fs_wait_end(&w);
	if (ret == -EINPROGRESS) {
		fuse_req_interrupt_func(req, on_interrupt, lw);
		nfs4_lock_wait_arm(v4, lw->w4);
		return 1;
	}
	free(lw);
	if (ret == 0)
		lock_granted(req, i);
	return ret;
}

/*
 * Lock, waiting if asked.  A lock that waits holds no thread: the request
 * is answered from on_done(), and a FUSE interrupt (a signal to the
 * caller) ends the wait with a CANCEL and EINTR.  Returns 1 when the
 * request will be answered so, else the result to answer now.
 */
static int do_lock(fuse_req_t req, struct inode *i, struct lock_req *r,
		   bool wait)
{
	struct lockmgr *lm = fs_of(req)->locks;
	struct lock_waiting *lw = NULL;
	int ret;

	if (fs_of(req)->v4locks)
		return v4_do_lock(req, i, r, wait);
	if (wait) {
		lw = calloc(1, sizeof(*lw));
		if (!lw)
			return -ENOMEM;
		lw->req = req;
		lw->i = i;
		lw->lm = lm;
	}
	ret = lockmgr_lock(lm, r, wait, on_done, lw, lw ? &lw->w : NULL,
			   NULL);
	if (ret == -EINPROGRESS) {
		fuse_req_interrupt_func(req, on_interrupt, lw);
		lockmgr_wait_arm(lm, lw->w);
		return 1;
	}
	free(lw);
	if (ret == 0)
		lock_granted(req, i);
	return ret;
}

static int do_unlock(fuse_req_t req, struct inode *i, struct lock_req *r)
{
	int e = fs_lock_releasing(req, i);

	if (e)
		nf_log(NF_LOG_WARNING, "writing back node %llu before an "
		       "unlock: %s", (unsigned long long)i->id, strerror(-e));
	if (fs_of(req)->v4locks) {
		struct nfs4_lock_req q;
		struct fs_wait w;

		req_to4(r, &q);
		fs_wait_begin(&w, req);
		e = nfs4_lock_unlock(fs_of(req)->v4locks, &q, &w.stop);
		fs_wait_end(&w);
		return e;
	}
	return lockmgr_unlock(fs_of(req)->locks, r);
}

void fs_setlk(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
	      struct flock *lock, int sleep)
{
	struct rpc_cred cred;
	struct lock_req r;
	struct inode *i;
	int ret;

	i = lock_begin(req, ino, fi, false, &cred, &r);
	if (!i)
		return;
	if (lock->l_pid > 0)
		r.pid = lock->l_pid;
	range_of(lock, &r);
	if (lock->l_type == F_UNLCK) {
		ret = do_unlock(req, i, &r);
	} else {
		r.excl = lock->l_type == F_WRLCK;
		ret = do_lock(req, i, &r, sleep != 0);
	}
	if (ret <= 0)
		fuse_reply_err(req, -ret);
}

void fs_flock(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
	      int op)
{
	struct rpc_cred cred;
	struct lock_req r;
	struct inode *i;
	int ret;

	i = lock_begin(req, ino, fi, true, &cred, &r);
	if (!i)
		return;
	r.start = 0;
	r.len = 0;
	switch (op & (LOCK_SH | LOCK_EX | LOCK_UN)) {
	case LOCK_UN:
		ret = do_unlock(req, i, &r);
		break;
	case LOCK_SH:
	case LOCK_EX:
		r.excl = (op & LOCK_EX) != 0;
		ret = do_lock(req, i, &r, !(op & LOCK_NB));
		break;
	default:
		ret = -EINVAL;
	}
	if (ret <= 0)
		fuse_reply_err(req, -ret);
}

/* Close: FUSE names the owner whose POSIX locks go (flush) and the file
 * whose flock goes (release with flock_release). */
static void release_owner(fuse_req_t req, fuse_ino_t ino, uint64_t owner,
			  bool flock)
{
	struct fs *fs = fs_of(req);
	struct inode *i;
	struct rpc_cred cred;
	struct lock_req r;
	int ret;

	if (fs->v4locks) {
		if (!nfs4_lock_owner_holds(fs->v4locks, ino, owner, flock))
			return;
	} else if (!fs->locks ||
		   !lockmgr_owner_holds(fs->locks, ino, owner, flock)) {
		return;
	}
	i = fs_inode(req, ino);
	if (!i)
		return;
	memset(&r, 0, sizeof(r));
	fs_req_cred(req, &cred);
	r.fh = &i->fh;
	r.ino = ino;
	r.owner = owner;
	r.flock = flock;
	r.cred = &cred;
	ret = do_unlock(req, i, &r);
	if (ret)
		nf_log(NF_LOG_WARNING, "releasing the locks of a closed file "
		       "(node %llu): %s", (unsigned long long)ino,
		       strerror(-ret));
}

void fs_lock_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	release_owner(req, ino, fi->lock_owner, false);
	fs_flush(req, ino, fi);
}

void fs_lock_session_end(struct fs *fs)
{
	if (fs->v4locks)
		nfs4_lock_end_waits(fs->v4locks);
	lockmgr_end_waits(fs->locks);
}

void fs_lock_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (fi->flock_release)
		release_owner(req, ino, fi->lock_owner, true);
	fs_release(req, ino, fi);
}
