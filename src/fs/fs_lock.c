/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FUSE lock handlers: getlk, setlk (F_SETLK and blocking F_SETLKW), flock
 * (a whole-file NLM lock of its own owner, as the Linux NFS client does),
 * and the release of an owner's locks when it closes the file.
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
#include <string.h>
#include <sys/file.h>

#include "fs.h"
#include "../lock/lock.h"
#include "../base/log.h"

static bool posix_remote(const struct fs *fs)
{
	return fs->locks && fs->opts->local_lock != LOCAL_LOCK_POSIX &&
	       fs->opts->local_lock != LOCAL_LOCK_ALL;
}

static bool flock_remote(const struct fs *fs)
{
	return fs->locks && fs->opts->local_lock != LOCAL_LOCK_FLOCK &&
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

static void on_interrupt(fuse_req_t req, void *data)
{
	(void)req;
	__atomic_store_n((volatile int *)data, 1, __ATOMIC_RELAXED);
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
	if (!fs_of(req)->locks) {
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

/* Lock, waiting if asked; a FUSE interrupt (a signal to the caller) ends
 * the wait with a CANCEL and EINTR. */
static int do_lock(fuse_req_t req, struct inode *i, struct lock_req *r,
		   bool wait)
{
	struct fs *fs = fs_of(req);
	volatile int interrupted = 0;
	enum lock_grant how;
	int ret;

	if (wait)
		fuse_req_interrupt_func(req, on_interrupt,
					(void *)&interrupted);
	ret = lockmgr_lock(fs->locks, r, wait, &interrupted, &how);
	if (wait)
		fuse_req_interrupt_func(req, NULL, NULL);
	if (ret == 0) {
		int e = fs_lock_acquired(req, i);

		if (e)
			nf_log(NF_LOG_WARNING, "revalidating node %llu after "
			       "a lock grant: %s", (unsigned long long)i->id,
			       strerror(-e));
	}
	return ret;
}

static int do_unlock(fuse_req_t req, struct inode *i, struct lock_req *r)
{
	int e = fs_lock_releasing(req, i);

	if (e)
		nf_log(NF_LOG_WARNING, "writing back node %llu before an "
		       "unlock: %s", (unsigned long long)i->id, strerror(-e));
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

	if (!fs->locks || !lockmgr_owner_holds(fs->locks, ino, owner, flock))
		return;
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

void fs_lock_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (fi->flock_release)
		release_owner(req, ino, fi->lock_owner, true);
	fs_release(req, ino, fi);
}
