/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Open files under close-to-open consistency.
 *
 * open: GETATTR (unless nocto and the attributes are fresh).  Unchanged
 * size and mtime prove the cached data current: ours stays and the kernel
 * keeps its pages (keep_cache).  Anything else purges both.
 * read: from the data-block cache when every byte is there, else READ;
 * what a READ returns is cached unless a write or a purge happened while
 * it was on the wire.
 * write: write-behind (cache/wback.h), which gathers sequential writes
 * into WRITEs of wsize; the bytes also enter the data cache, since they
 * are now the file's contents.
 * flush, fsync, release: every written byte is sent and COMMITted before
 * the call returns, with the first write error; the wcc data of the
 * replies then says whether the file changed by our hand alone, in which
 * case the cache survives our own writes.
 * NFSv4: open and create hold an OPEN (proto/nfs4_open.h) whose
 * attributes stand in for open's GETATTR; release gives it back (CLOSE
 * at the user's last one) after the flush above.
 */
#include "fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bdi.h"
#include "fs_removals.h"
#include "fs_wait.h"
#include "../cache/data.h"
#include "../cache/wback.h"
#include "../lock/lock.h"
#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "../proto/nfs4_lock.h"
#include "../proto/nfs4_open.h"

/* Bytes of written data held per file until the server acknowledges and
 * commits them: bounds memory on a long sequential write. */
#define WBACK_MAX_HELD (64u << 20)

struct open_file {
	struct inode *ino;
	/* Who opened the file: the identity of the READs sent ahead of its
	 * readers, as the Linux client uses the open context's, and of the
	 * kernel's write-back of mmap'd pages, which has no caller (uid 0,
	 * pid 0).  Looked up once, since the groups come from /proc. */
	struct rpc_cred cred;
	/* NFSv4: the open this handle holds (shared by the opener's other
	 * opens of the file) and the share access it counts for. */
	struct nfs4_open *v4;
	uint32_t v4access;
	/* Opened for writing: write-back errors are this handle's to
	 * report, at fsync and close, those that came since it opened or
	 * last reported (ino->nwerr then), whoever's flush met them (a
	 * stat's, another handle's): as Linux's errseq, and at close too,
	 * so that a writer that never fsyncs learns its bytes are lost. */
	bool writer;
	uint64_t werr_seen;
};

/* h is bound to ino (h->ino set now): the errors it reports are those
 * that come from now on. */
static void handle_bind(struct open_file *h, struct inode *ino)
{
	h->ino = ino;
	if (!ino)
		return;
	pthread_mutex_lock(&ino->lock);
	h->werr_seen = ino->nwerr;
	pthread_mutex_unlock(&ino->lock);
}

/* What h's fsync or close answers: its own flush's error ret, or else a
 * write-back error it has not reported yet. */
static int handle_werr(struct open_file *h, int ret)
{
	struct inode *i = h->ino;

	if (!h->writer || !i || ret == -EINTR)
		return ret;
	pthread_mutex_lock(&i->lock);
	if (h->werr_seen != i->nwerr) {
		if (!ret)
			ret = -i->werr;
		h->werr_seen = i->nwerr;
	}
	pthread_mutex_unlock(&i->lock);
	return ret;
}

/* A lock on the file was lost when the server restarted: as the Linux
 * client does, I/O fails until the file is opened again, so that nobody
 * goes on writing under a lock that someone else may now hold. */
static bool lock_lost(struct fs *fs, struct inode *ino)
{
	return (fs->locks && lockmgr_ino_lost(fs->locks, ino->id)) ||
	       (fs->v4locks && nfs4_lock_ino_lost(fs->v4locks, ino->id));
}

static struct open_file *of_of(struct fuse_file_info *fi)
{
	return (struct open_file *)(uintptr_t)fi->fh;
}

/* What open must be allowed: O_TRUNC writes, whatever the access mode
 * (the owner of a 0477 file may not truncate it with O_RDONLY|O_TRUNC). */
static uint32_t access_for_flags(int flags)
{
	uint32_t want;

	switch (flags & O_ACCMODE) {
	case O_RDONLY:
		want = ACCESS3_READ;
		break;
	case O_WRONLY:
		want = ACCESS3_MODIFY | ACCESS3_EXTEND;
		break;
	default:
		want = ACCESS3_READ | ACCESS3_MODIFY | ACCESS3_EXTEND;
		break;
	}
	if (flags & O_TRUNC)
		want |= ACCESS3_MODIFY;
	return want;
}

static int truncate_to_zero(fuse_req_t req, struct inode *ino)
{
	struct nfs3_setattr_args args;
	struct nfs3_setattr_res res;
	int ret;

	memset(&args, 0, sizeof(args));
	args.object = ino->fh;
	args.new_attributes.set_size = true;
	args.new_attributes.size = 0;
	ret = fs_call(req, NFS3PROC_SETATTR, &args, &res, NULL);
	if (ret)
		return ret;
	fs_wchanged(fs_of(req), ino);
	fs_learn_wcc(fs_of(req), ino, &res.obj_wcc, "truncate");
	pthread_mutex_lock(&ino->lock);
	ino->data_gen++; /* READs in flight carry what was cut */
	pthread_mutex_unlock(&ino->lock);
	if (res.status == NFS3_OK && ino->df)
		dcache_truncate(fs_of(req)->dc, ino->df, 0);
	return nfs_stat_errno(res.status);
}

static struct open_file *handle_new(fuse_req_t req, struct inode *ino,
				    int flags)
{
	struct open_file *h = calloc(1, sizeof(*h));

	if (h) {
		handle_bind(h, ino);
		fs_req_cred(req, &h->cred);
		h->v4access = nfs4_open_access_of(flags);
		h->writer = (flags & O_ACCMODE) != O_RDONLY;
	}
	return h;
}

/* NFSv4: the handle's open given back (CLOSE at the user's last one),
 * as its opener, once its written data is on the server. */
static void handle_close_v4(struct fs *fs, struct open_file *h)
{
	if (h->v4)
		nfs4_open_release(fs->nfs, &h->cred, h->v4, h->v4access);
	h->v4 = NULL;
}

static void handle_free(struct fs *fs, struct open_file *h)
{
	if (h)
		handle_close_v4(fs, h);
	free(h);
}

/* NFSv4: OPEN of ino for h (PUTFH OPEN ACCESS GETATTR); *pa its
 * attributes.  The ACCESS answer goes where fs_check_access() looks
 * next, so that the open costs one round trip. */
static int handle_open_v4(fuse_req_t req, struct open_file *h,
			  struct inode *ino, struct post_op_attr *pa)
{
	struct fs *fs = fs_of(req);
	struct nfs4_access_ask ask = { .asked = ACCESS3_ALL };
	uint64_t since = fs_wsince(fs);
	struct fs_wait w;
	int ret;

	fs_wait_begin(&w, req);
	ret = nfs4_open_fh(fs->nfs, &h->cred, &ino->fh, h->v4access, &h->v4,
			   pa, &ask, &w.stop);
	fs_wait_end(&w);
	if (ret == 0 && ask.answered)
		fs_access_answered(fs, ino, &h->cred, ask.asked, ask.granted,
				   pa, since);
	return ret;
}

/* Open handles on the whole mount, so that unlink and rename need not
 * look for an open file behind a name when there can be none. */
static unsigned long files_open;

bool fs_files_open(void)
{
	return __atomic_load_n(&files_open, __ATOMIC_RELAXED) != 0;
}

static void nopen_inc(struct inode *ino)
{
	pthread_mutex_lock(&ino->lock);
	ino->nopen++;
	pthread_mutex_unlock(&ino->lock);
	__atomic_add_fetch(&files_open, 1, __ATOMIC_RELAXED);
}

/* Returns true when this was the last open handle of ino.  Read-ahead
 * replies name the inode: none may outlive the last one.  An unmount
 * ends the wait (a server that stopped answering would keep the daemon
 * for ever): the kernel then forgets no inode any more, and the
 * teardown ends the READs before it frees the inodes (main.c). */
static bool nopen_dec(struct inode *ino)
{
	struct fs_wait w;
	bool last;

	pthread_mutex_lock(&ino->lock);
	ino->nopen--;
	last = ino->nopen == 0;
	if (ino->ra_inflight) {
		fs_wait_begin(&w, NULL);
		while (ino->ra_inflight &&
		       fs_wait_cond(&w, &ino->ra_cond, &ino->lock) == 0)
			;
		fs_wait_end(&w);
	}
	pthread_mutex_unlock(&ino->lock);
	__atomic_sub_fetch(&files_open, 1, __ATOMIC_RELAXED);
	return last;
}

/*
 * NFSv3: where the permission check after the revalidation will need an
 * ACCESS, the ACCESS goes first and its reply's attributes serve
 * close-to-open as a GETATTR's would: one call for both, as the Linux
 * client makes.  1 with *pa, 0 when no ACCESS serves (NFSv4 and NFSv2,
 * an answer already known, a reply without attributes), or a negative
 * errno.
 */
static int attr_by_access(fuse_req_t req, struct inode *ino, uint32_t want,
			  uint64_t since, struct post_op_attr *pa)
{
	struct rpc_cred cred;
	uint32_t granted;
	int ret;

	if (fs_of(req)->nfs->v4)
		return 0;
	fs_req_cred(req, &cred);
	if (fs_access_known(ino, &cred, want))
		return 0;
	ret = fs_access_rpc(req, ino, &cred, &granted, pa, since);
	if (ret == -ENOTSUP)
		return 0;
	if (ret)
		return ret;
	return pa->present ? 1 : 0;
}

/*
 * Close-to-open revalidation, for an open that needs want (ACCESS3_*).
 * Returns 1 when the cached data is proved current (the kernel may keep
 * its pages), 0 when it was purged, or a negative errno.
 */
static int cto_revalidate(fuse_req_t req, struct inode *ino,
			  struct open_file *h, uint32_t want)
{
	struct fs *fs = fs_of(req);
	struct fattr3 before, now;
	enum acache_change change;
	struct post_op_attr pa;
	uint64_t since;
	double left;
	bool had;
	int ret;

	if (!fs->opts->cto && inode_fresh_attr(ino, &now, &left)) {
		STAT_INC(attr_hits);
		/* NFSv4 opens on the server all the same. */
		if (fs->nfs->v4 && (ret = handle_open_v4(req, h, ino, &pa)))
			return ret;
		return 1;
	}
	/* Our own unflushed writes are part of what the data must match. */
	if ((ret = fs_writes_before(req, ino)))
		return ret;
	had = inode_get_attr(ino, &before);
	pa.present = false;
	since = fs_wsince(fs);
	/* NFSv4: the OPEN brings the attributes (one round trip, as the
	 * Linux client does); a GETATTR only if they were missing. */
	if (fs->nfs->v4 && (ret = handle_open_v4(req, h, ino, &pa)))
		return ret;
	if (pa.present) {
		now = pa.attr;
	} else if (fs->nfs->v4 && had && fs_deleg_vouches(fs, ino, &now)) {
		/* Opened here under a delegation: nobody else changed it. */
		STAT_INC(cto_keep);
		TRACE("open %s: a delegation is held → no OPEN, no GETATTR, "
		      "keep data", fs_name_of(ino));
		return 1;
	} else if ((ret = attr_by_access(req, ino, want, since, &pa))) {
		if (ret < 0)
			return ret;
		now = pa.attr;
	} else {
		struct nfs3_getattr_args args = { .object = ino->fh };
		struct nfs3_getattr_res res;

		ret = fs_call(req, NFS3PROC_GETATTR, &args, &res, NULL);
		if (ret)
			return ret;
		if (res.status != NFS3_OK)
			return nfs_stat_errno(res.status);
		now = res.obj_attributes;
	}
	STAT_INC(attr_revalidations);
	pa.present = true;
	pa.attr = now;
	change = fs_learn(fs, ino, &pa, since, "open");
	if (!had) {
		fs_purge_data(fs, ino, "open");
		return 0;
	}
	if (change == ACACHE_DATA)
		return 0; /* fs_learn purged and traced it */
	STAT_INC(cto_keep);
	TRACE("open %s: revalidated, unchanged → keep data",
	      fs_name_of(ino));
	return 1;
}

/*
 * Kernel read-ahead of rsize (bdi.h): a sequential reader then asks in
 * requests of up to rsize rather than 128 KiB.  Done at the first open,
 * since the kernel sets the read-ahead again when it takes our INIT
 * reply; never lowered.
 */
static void raise_kernel_readahead(struct fs *fs)
{
	unsigned kb = fs->nfs->rsize / 1024;
	int ret;

	if (!fs->bdi[0] ||
	    __atomic_exchange_n(&fs->ra_raised, 1, __ATOMIC_RELAXED))
		return;
	ret = bdi_raise_readahead(fs->bdi, kb);
	if (ret)
		nf_log(NF_LOG_DEBUG, "kernel read-ahead of %s not raised to "
		       "%u KiB: %s", fs->bdi, kb, strerror(-ret));
}

/*
 * An open or create counts itself open (nopen) before anything else, so
 * that an unlink deciding from then on moves the file aside, and then
 * waits out the removals it may have raced with (fs_removals.h; seen:
 * fs_removals_begun() at its start).  1 when one of them could have
 * taken the file's last name: its attributes are dropped, and the caller
 * asks the server, which then says whether the handle is stale.  0 when
 * none could, or -EINTR; either way the open is counted (open_failed()).
 */
static int open_begin(fuse_req_t req, struct inode *ino, uint64_t seen)
{
	int ret;

	nopen_inc(ino);
	ret = fs_removals_settle(req, seen);
	if (ret <= 0)
		return ret;
	STAT_INC(open_after_removal);
	TRACE("open %s: a removal was decided meanwhile → the server asked "
	      "again", fs_name_of(ino));
	inode_expire_attr(ino);
	return 1;
}

/* An open that had counted itself in nopen failed: uncounted, and the
 * last of a file an unlink meanwhile moved aside takes its silly name
 * away, as the last close would. */
static void open_failed(fuse_req_t req, struct inode *ino,
			struct open_file *h)
{
	bool last = nopen_dec(ino);

	handle_free(fs_of(req), h);
	if (last)
		fs_silly_release(req, ino);
}

void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct inode *i = fs_inode(req, ino);
	/* Before any call about the file (fs_removals.h). */
	uint64_t seen = fs_removals_begun();
	struct open_file *h;
	int keep, ret;

	raise_kernel_readahead(fs_of(req));
	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	h = handle_new(req, i, fi->flags);
	if (!h) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	/* Its attributes dropped if need be: cto_revalidate asks. */
	keep = open_begin(req, i, seen);
	if (keep >= 0)
		keep = cto_revalidate(req, i, h, access_for_flags(fi->flags));
	ret = keep < 0 ? keep
		       : fs_check_access(req, i, access_for_flags(fi->flags));
	/* After the OPEN: on NFSv4 the truncation carries its stateid. */
	if (ret == 0 && (fi->flags & O_TRUNC)) {
		ret = truncate_to_zero(req, i);
		keep = 0;
	}
	if (ret) {
		open_failed(req, i, h);
		fuse_reply_err(req, -fs_stale_check(i, ret));
		return;
	}
	/* Its errors are those that come once it is open: a refusal the
	 * open's own flush met was of writes made before it. */
	handle_bind(h, i);
	if (fs_of(req)->locks)
		lockmgr_reopened(fs_of(req)->locks, i->id);
	if (fs_of(req)->v4locks)
		nfs4_lock_reopened(fs_of(req)->v4locks, i->id);
	fi->fh = (uintptr_t)h;
	fi->keep_cache = keep == 1;
	if (fuse_reply_open(req, fi))
		open_failed(req, i, h);
}

/*
 * Exclusive create.  O_CREAT|O_EXCL is an NFSv3 EXCLUSIVE CREATE: the
 * server stores our 8-byte verifier with the new file (ganesha and knfsd
 * in its atime and mtime), and a retransmission that finds the file with
 * the same verifier is answered with success, where GUARDED would say
 * EEXIST for the file we created ourselves.  The verifier is 4 random
 * bytes drawn once per daemon and a 4-byte counter per call, so it is
 * unique to this client and this call; the RPC layer retransmits the same
 * arguments.  Since the server may have used atime and mtime to hold it,
 * a SETATTR follows with the real mode and the server's time.  A server
 * without EXCLUSIVE (NFS3ERR_NOTSUPP) gets GUARDED; so does every
 * exclusive create with -o excl=guarded.
 *
 * O_CREAT without O_EXCL (the kernel asks only for a name it believes
 * absent) is GUARDED, and if the name exists after all (made meanwhile
 * by someone else, or by our own retransmitted call) the existing file is
 * opened as open(2) would; a symlink or another kind of file there sends
 * the kernel back to walk the path (ESTALE), so that it follows the link
 * or opens the FIFO.  Unlike UNCHECKED, this never applies the creator's
 * mode to a file someone else made.
 */
static uint32_t verf_boot_id;
static uint32_t verf_counter;
static pthread_once_t verf_once = PTHREAD_ONCE_INIT;

static void verf_init(void)
{
	uint32_t v[2];

	if (getrandom(v, sizeof(v), GRND_NONBLOCK) != sizeof(v)) {
		v[0] = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16);
		v[1] = (uint32_t)clock();
	}
	verf_boot_id = v[0];
	verf_counter = v[1];
}

static void excl_verifier(uint8_t verf[NFS3_CREATEVERFSIZE])
{
	uint32_t n;

	pthread_once(&verf_once, verf_init);
	n = __atomic_add_fetch(&verf_counter, 1, __ATOMIC_RELAXED);
	memcpy(verf, &verf_boot_id, 4);
	memcpy(verf + 4, &n, 4);
}

/* What an EXCLUSIVE create must set after: the real mode, and times
 * that are times. */
static void excl_attrs(mode_t mode, struct sattr3 *s)
{
	memset(s, 0, sizeof(*s));
	s->set_mode = true;
	s->mode = mode & 07777;
	s->set_atime = SET_TO_SERVER_TIME;
	s->set_mtime = SET_TO_SERVER_TIME;
}

/* After an EXCLUSIVE create: excl_attrs() by a SETATTR of their own. */
static int excl_setattr(fuse_req_t req, const struct nfs_fh3 *fh,
			mode_t mode, struct post_op_attr *a)
{
	struct nfs3_setattr_args args;
	struct nfs3_setattr_res res;
	int ret;

	memset(&args, 0, sizeof(args));
	args.object = *fh;
	excl_attrs(mode, &args.new_attributes);
	ret = fs_call(req, NFS3PROC_SETATTR, &args, &res, NULL);
	if (ret)
		return ret;
	if (res.status != NFS3_OK)
		return nfs_stat_errno(res.status);
	*a = res.obj_wcc.after;
	return 0;
}

/* Reply to a create with the file (fh, a) now open: the handle knows its
 * inode from the start, so an unlink before any read or write still
 * finds it open. */
static void reply_create_open(fuse_req_t req, struct inode *dir,
			      const struct nfs_fh3 *fh,
			      const struct post_op_attr *a, uint64_t since,
			      uint64_t seen, struct names_stamp stamp,
			      const char *name, struct fuse_file_info *fi,
			      bool existing, struct nfs4_open *v4)
{
	struct fs *fs = fs_of(req);
	struct fuse_entry_param e;
	struct post_op_attr pa;
	struct open_file *h;
	struct inode *ino;
	int ret;

	h = handle_new(req, NULL, fi->flags);
	if (!h) {
		/* The create's open goes back as its creator. */
		struct rpc_cred cred;

		fs_req_cred(req, &cred);
		nfs4_open_release(fs->nfs, &cred, v4,
				  nfs4_open_access_of(fi->flags));
		fuse_reply_err(req, ENOMEM);
		return;
	}
	h->v4 = v4;
	ret = fs_make_entry(req, dir, fh, a, since, name, &e);
	if (ret) {
		handle_free(fs, h);
		fuse_reply_err(req, -ret);
		return;
	}
	if (existing && !S_ISREG(e.attr.st_mode) && !S_ISDIR(e.attr.st_mode)) {
		/* Someone else made a symlink (or a FIFO, a device) under
		 * the name the kernel believed free.  The kernel takes only
		 * a regular file from a create; ESTALE makes it walk the
		 * path again, and follow the symlink, or open the FIFO, as
		 * open(2) does.  Nothing was opened. */
		TRACE("create %s: made meanwhile elsewhere, not a regular "
		      "file → the kernel looks the path up again", name);
		handle_free(fs, h);
		inode_forget(fs->inodes, e.ino, 1);
		fuse_reply_err(req, ESTALE);
		return;
	}
	ino = inode_get(fs->inodes, e.ino);
	handle_bind(h, ino);
	/* One removal decided since the create began may have removed
	 * what it found or made: asked. */
	ret = open_begin(req, ino, seen);
	if (ret == 1) {
		struct fattr3 now;

		ret = fs_getattr_rpc(req, ino, &now);
	}
	if (ret == 0 && existing && S_ISDIR(e.attr.st_mode)) {
		ret = -EISDIR;
	} else if (ret == 0 && fs->nfs->v4 && !h->v4) {
		/* NFSv4: a file found, not made, by the create is opened
		 * now. */
		ret = handle_open_v4(req, h, ino, &pa);
	}
	if (existing) {
		if (ret == 0)
			ret = fs_check_access(req, ino,
					      access_for_flags(fi->flags));
		if (ret == 0 && (fi->flags & O_TRUNC)) {
			struct fattr3 now;

			ret = truncate_to_zero(req, ino);
			if (ret == 0 && !inode_get_attr(ino, &now))
				ret = fs_getattr_rpc(req, ino, &now);
			if (ret == 0)
				fs_inode_stat(ino, &now, &e.attr);
		}
	}
	if (ret) {
		ret = fs_stale_check(ino, ret);
		open_failed(req, ino, h);
		inode_forget(fs->inodes, e.ino, 1);
		fuse_reply_err(req, -ret);
		return;
	}
	if (fs->locks)
		lockmgr_reopened(fs->locks, ino->id);
	if (fs->v4locks)
		nfs4_lock_reopened(fs->v4locks, ino->id);
	fi->fh = (uintptr_t)h;
	fi->keep_cache = 0;
	if (!existing)
		inode_dir_made(dir, name, e.ino, stamp);
	if (fuse_reply_create(req, &e, fi)) {
		open_failed(req, ino, h);
		inode_forget(fs->inodes, e.ino, 1);
	}
}

/* The CREATE of fs_create; on NFSv4 an OPEN that creates, whose open
 * (*v4) the new handle keeps, and which sets then_set (if not NULL) on
 * the new file in the same COMPOUND (*then_set_done; never on NFSv3). */
static int create_rpc(fuse_req_t req, const struct nfs3_create_args *a,
		      const struct sattr3 *then_set, bool *then_set_done,
		      struct nfs3_diropres *res, int flags,
		      struct nfs4_open **v4)
{
	struct fs *fs = fs_of(req);
	struct rpc_cred cred;
	struct fs_wait w;
	int ret;

	*v4 = NULL;
	*then_set_done = false;
	if (!fs->nfs->v4)
		return fs_call(req, NFS3PROC_CREATE, a, res, NULL);
	fs_req_cred(req, &cred);
	fs_wait_begin(&w, req);
	ret = nfs4_open_create(fs->nfs, &cred, a, nfs4_open_access_of(flags),
			       then_set, then_set_done, res, v4, &w.stop);
	fs_wait_end(&w);
	return ret;
}

void fs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
	       mode_t mode, struct fuse_file_info *fi)
{
	struct fs *fs = fs_of(req);
	struct inode *dir = fs_inode(req, parent);
	bool excl = fi->flags & O_EXCL;
	struct nfs3_create_args args;
	struct nfs3_diropres res;
	struct nfs4_open *v4 = NULL;
	struct post_op_attr a;
	struct sattr3 excl_set;
	bool excl_set_done = false;
	struct nfs_fh3 fh;
	/* Before the first call: the attributes replied come from one of
	 * them. */
	uint64_t since = fs_wsince(fs);
	uint64_t seen = fs_removals_begun();
	struct names_stamp stamp;
	int ret;

	if (!dir) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (strlen(name) > NFS3_MAXNAMLEN) {
		fuse_reply_err(req, ENAMETOOLONG);
		return;
	}
	memset(&args, 0, sizeof(args));
	args.where.dir = &dir->fh;
	args.where.name = name;
	stamp = inode_dir_stamp(dir);
	if (excl && fs->opts->excl == EXCL_EXCLUSIVE) {
		args.mode = EXCLUSIVE;
		excl_verifier(args.verf);
		excl_attrs(mode, &excl_set);
		ret = create_rpc(req, &args, &excl_set, &excl_set_done, &res,
				 fi->flags, &v4);
		if (ret) {
			fs_dir_named(dir, name, false);
			fuse_reply_err(req, -ret);
			return;
		}
		if (res.status != NFS3ERR_NOTSUPP)
			goto created;
		fs_learn_wcc(fs, dir, &res.dir_wcc, "create");
		TRACE("create %s: EXCLUSIVE not supported → GUARDED", name);
	}
	args.mode = GUARDED;
	args.obj_attributes.set_mode = true;
	args.obj_attributes.mode = mode & 07777;
	ret = create_rpc(req, &args, NULL, &excl_set_done, &res, fi->flags,
			 &v4);
	if (ret) {
		fs_dir_named(dir, name, false);
		fuse_reply_err(req, -ret);
		return;
	}
created:
	fs_learn_wcc(fs, dir, &res.dir_wcc, "create");
	fs_dir_named(dir, name, res.status == NFS3_OK);
	if (res.status == NFS3ERR_EXIST && !excl) {
		ret = fs_lookup_fh(req, dir, name, &fh, &a, &since);
		if (ret) {
			fuse_reply_err(req, -ret);
			return;
		}
		reply_create_open(req, dir, &fh, &a, since, seen, stamp, name,
				  fi, true, NULL);
		return;
	}
	if (res.status != NFS3_OK) {
		fuse_reply_err(req, -nfs_stat_errno(res.status));
		return;
	}
	/* RFC 1813 lets a server create the object without returning its
	 * handle; then we must look the name up like anyone else. */
	a = res.obj_attributes;
	if (res.obj.present)
		fh = res.obj.fh;
	else if ((ret = fs_lookup_fh(req, dir, name, &fh, &a, &since))) {
		fuse_reply_err(req, -ret);
		return;
	}
	if (args.mode == EXCLUSIVE && !excl_set_done &&
	    (ret = excl_setattr(req, &fh, mode, &a))) {
		/* As the kernel's client does: the file exists, but with
		 * attributes we could not make right; say so. */
		struct rpc_cred cred;

		nf_log(NF_LOG_WARNING, "SETATTR after exclusive create of %s: "
		       "%s", name, strerror(-ret));
		fs_req_cred(req, &cred);
		nfs4_open_release(fs->nfs, &cred, v4,
				  nfs4_open_access_of(fi->flags));
		fuse_reply_err(req, -ret);
		return;
	}
	reply_create_open(req, dir, &fh, &a, since, seen, stamp, name, fi,
			  false, v4);
}

/* The inode behind an open file (fs_open and fs_create set it). */
static struct inode *handle_inode(fuse_req_t req, struct open_file *h,
				  fuse_ino_t ino)
{
	if (!h->ino) {
		handle_bind(h, fs_inode(req, ino));
		if (h->ino)
			nopen_inc(h->ino);
	}
	return h->ino;
}

/* The inode a READ or WRITE of an open file works on, or NULL with *err
 * the errno to reply: ESTALE when it is gone, EIO while a lock on it is
 * lost. */
static struct inode *io_inode(fuse_req_t req, struct open_file *h,
			      fuse_ino_t ino, int *err)
{
	struct inode *i = handle_inode(req, h, ino);

	*err = !i ? ESTALE : lock_lost(fs_of(req), i) ? EIO : 0;
	return *err ? NULL : i;
}

/* Read-ahead (the policy is cache/readahead.h): READs of rsize in flight
 * ahead of a sequential reader, their data for the data cache. */
struct ra_req {
	struct fs *fs;
	struct inode *ino;
	uint64_t gen, seq;
	struct nfs3_read_args args;
	struct nfs3_read_res res;
};

/* The reply buffer that data (len bytes) lies in, taken from reply for
 * the data cache to keep the bytes in place; NULL when they are not in
 * it (a transport that decoded elsewhere), fill no block, or no memory. */
static struct dbuf *reply_dbuf(struct rpc_reply *reply, const uint8_t *data,
			       size_t len, uint8_t **where)
{
	uintptr_t at = (uintptr_t)data;
	uintptr_t buf = (uintptr_t)(reply ? reply->buf : NULL);

	if (!buf || len < DCACHE_BLOCK || at < buf ||
	    at - buf > reply->len || len > reply->len - (at - buf))
		return NULL;
	*where = reply->buf + (at - buf);
	return dbuf_new(reply);
}

/* Runs on the RPC transport thread: takes short locks only. */
static void ra_done(void *ctx, int err, void *res, struct rpc_reply *reply)
{
	struct ra_req *r = ctx;
	struct inode *ino = r->ino;
	bool used = false;

	(void)res;
	pthread_mutex_lock(&ino->lock);
	if (err == 0 && r->res.status == NFS3_OK &&
	    r->res.data_len <= r->args.count && ino->df &&
	    r->gen == ino->data_gen &&
	    (!ino->wb || wback_seq(ino->wb) == r->seq)) {
		uint8_t *data;
		struct dbuf *db = reply_dbuf(reply, r->res.data,
					     r->res.data_len, &data);

		if (db) {
			dcache_fill_from(r->fs->dc, ino->df, r->args.offset,
					 data, r->res.data_len, db);
			dbuf_put(db);
		} else {
			dcache_fill(r->fs->dc, ino->df, r->args.offset,
				    r->res.data, r->res.data_len);
		}
		used = true;
	}
	if (!used)
		STAT_INC(readahead_wasted);
	/* Over NFSv3 the next READ's reply brings the atime. */
	if (err == 0 && r->fs->nfs->v4)
		acache_atime_moved(&ino->as);
	ino->ra_inflight--;
	pthread_cond_broadcast(&ino->ra_cond);
	pthread_mutex_unlock(&ino->lock);
	rpc_reply_release(reply);
	free(r);
}

/* The most read-ahead READs one file has had on the wire at once, for
 * nfsfusectl stats: how deep the pipeline of a streaming reader got. */
static unsigned ra_inflight_max;

unsigned fs_readahead_inflight_max(void)
{
	return __atomic_load_n(&ra_inflight_max, __ATOMIC_RELAXED);
}

static void note_inflight(unsigned n)
{
	unsigned m = __atomic_load_n(&ra_inflight_max, __ATOMIC_RELAXED);

	while (n > m && !__atomic_compare_exchange_n(&ra_inflight_max, &m, n,
						     true, __ATOMIC_RELAXED,
						     __ATOMIC_RELAXED))
		;
}

/* The READs outlive the request; cred is the open file's.  Returns
 * whether the reader reads in sequence. */
static bool ra_issue(const struct rpc_cred *cred, struct fs *fs,
		     struct inode *ino, uint64_t off, size_t size)
{
	uint64_t start, end, file_size = 0, gen, seq = 0;
	struct ra_req *batch[READAHEAD_MAX / 4096];
	unsigned n = 0;
	bool stream;

	pthread_mutex_lock(&ino->lock);
	/* The cached size bounds read-ahead only while no write of ours is
	 * outstanding. */
	if (ino->as.valid && !ino->wbatch && ino->df)
		file_size = ino->as.attr.size;
	readahead_next(&ino->ra, fs->nfs->rsize, off, size, file_size, &start,
		       &end);
	gen = ino->data_gen;
	if (ino->wb)
		seq = wback_seq(ino->wb);
	while (start < end && n < sizeof(batch) / sizeof(batch[0])) {
		struct ra_req *r;
		uint64_t len = end - start;

		/* Whole rsize READs only, but for the file's tail. */
		if (len < fs->nfs->rsize && end != file_size)
			break;
		if (len > fs->nfs->rsize)
			len = fs->nfs->rsize;
		/* What we wrote or read before needs no READ (the lock order
		 * is the inode's, then the cache's, as in ra_done). */
		if (dcache_has(fs->dc, ino->df, start, len)) {
			start += len;
			continue;
		}
		r = calloc(1, sizeof(*r));
		if (!r)
			break;
		r->fs = fs;
		r->ino = ino;
		r->gen = gen;
		r->seq = seq;
		r->args.file = ino->fh;
		r->args.offset = start;
		r->args.count = (uint32_t)len;
		r->args.no_attr = true; /* ra_done() learns none */
		batch[n++] = r;
		start += len;
		ino->ra_inflight++;
	}
	note_inflight(ino->ra_inflight);
	readahead_issued(&ino->ra, start);
	stream = ino->ra.window != 0;
	pthread_mutex_unlock(&ino->lock);
	for (unsigned k = 0; k < n; k++) {
		STAT_INC(readahead_issued);
		if (nfs_call_async(fs->nfs, NFS3PROC_READ, cred,
				   &batch[k]->args, &batch[k]->res, ra_done,
				   batch[k])) {
			pthread_mutex_lock(&ino->lock);
			ino->ra_inflight--;
			pthread_cond_broadcast(&ino->ra_cond);
			pthread_mutex_unlock(&ino->lock);
			free(batch[k]);
		}
	}
	return stream;
}

/* Is [off, off+size) being read ahead right now?  Then wait for the next
 * read-ahead reply rather than asking the server a second time (as req's
 * wait: an interrupt or an unmount ends it, and false sends the READ,
 * which the same then ends at once). */
static bool ra_wait(fuse_req_t req, struct inode *ino, uint64_t off,
		    size_t size)
{
	struct fs_wait w;
	bool waited = false;

	pthread_mutex_lock(&ino->lock);
	if (ino->ra_inflight && off + size <= ino->ra.end) {
		fs_wait_begin(&w, req);
		waited = fs_wait_cond(&w, &ino->ra_cond, &ino->lock) == 0;
		fs_wait_end(&w);
	}
	pthread_mutex_unlock(&ino->lock);
	return waited;
}

/* dcache_send's way to the kernel: the cached bytes, not a copy. */
static int reply_iov(void *ctx, const struct iovec *iov, int n)
{
	fuse_reply_iov(ctx, iov, n);
	return 0;
}

static struct dfile *inode_dfile(struct fs *fs, struct inode *ino)
{
	pthread_mutex_lock(&ino->lock);
	if (!ino->df)
		ino->df = dfile_new(fs->dc);
	pthread_mutex_unlock(&ino->lock);
	return ino->df;
}

/*
 * One READ of n bytes at off for fs_read.  gen and seq date the data cache
 * and the write-back queue from before the call: a truncate or a write of
 * ours that overtook this READ makes its reply stale, and then neither its
 * data (old bytes) nor its attributes (an old size) may enter the caches.
 * Returns 0 with the reply in *res and *reply, or a negative errno (the
 * reply released).
 */
static int read_once(fuse_req_t req, const struct rpc_cred *cred,
		     struct inode *i, struct dfile *df, uint64_t off, size_t n,
		     uint64_t gen, uint64_t seq, struct nfs3_read_res *res,
		     struct rpc_reply *reply)
{
	struct fs *fs = fs_of(req);
	struct nfs3_read_args args = { .file = i->fh, .offset = off,
				       .count = (uint32_t)n };
	uint64_t since = fs_wsince(fs);
	bool fresh;
	int ret;

	/* Where attributes cost a call of their own (NFSv4), only those
	 * the cache no longer believes are asked for: the next READ after
	 * they time out brings them, as a GETATTR would. */
	args.no_attr = fs->nfs->v4 && fs_attr_timeout(i) > 0;
	ret = fs_call_as(req, cred, NFS3PROC_READ, &args, res, reply);
	if (ret) {
		rpc_reply_release(reply);
		return ret;
	}
	if (args.no_attr)
		inode_atime_moved(i);
	ret = nfs_stat_errno(res->status);
	/* A server that returns more than we asked for is not believed. */
	if (ret == 0 && (res->data_len > n || res->count != res->data_len)) {
		nf_log(NF_LOG_WARNING, "READ reply with %u bytes for %zu asked",
		       res->data_len, n);
		ret = -EIO;
	}
	pthread_mutex_lock(&i->lock);
	fresh = gen == i->data_gen && (!i->wb || wback_seq(i->wb) == seq);
	if (fresh && ret == 0 && df &&
	    dcache_refresh(fs->dc, df, off, res->data, res->data_len,
			   res->eof))
		STAT_INC(data_left_to_kernel);
	pthread_mutex_unlock(&i->lock);
	if (fresh)
		fs_learn(fs, i, &res->file_attributes, since, "read");
	else
		STAT_INC(attr_uncacheable);
	if (ret)
		rpc_reply_release(reply);
	return ret;
}

/*
 * The kernel takes a short answer for the end of the file (and sets its
 * size by it), so the whole request is answered here: in READs of at most
 * rsize, and again after a short READ, until the file ends.  The common
 * case, one READ that covers it, goes to the kernel straight from the
 * reply buffer.
 */
static void reply_from_server(fuse_req_t req, const struct rpc_cred *cred,
			      struct inode *i, struct dfile *df, uint64_t off,
			      size_t size, uint64_t gen, uint64_t seq)
{
	uint32_t rsize = fs_of(req)->nfs->rsize;
	struct rpc_reply reply = { 0 };
	struct nfs3_read_res res;
	char *buf = NULL;
	size_t done = 0;
	int ret;

	for (;;) {
		size_t n = size - done < rsize ? size - done : rsize;

		ret = read_once(req, cred, i, df, off + done, n, gen, seq,
				&res, &reply);
		if (ret) {
			free(buf);
			fuse_reply_err(req, -ret);
			return;
		}
		if (done == 0 && (res.data_len == size || res.eof ||
				  res.data_len == 0)) {
			fuse_reply_buf(req, (const char *)res.data,
				       res.data_len);
			rpc_reply_release(&reply);
			return;
		}
		if (!buf && !(buf = malloc(size))) {
			rpc_reply_release(&reply);
			fuse_reply_err(req, ENOMEM);
			return;
		}
		memcpy(buf + done, res.data, res.data_len);
		done += res.data_len;
		rpc_reply_release(&reply);
		if (res.eof || res.data_len == 0 || done == size) {
			fuse_reply_buf(req, buf, done);
			free(buf);
			return;
		}
	}
}

void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	     struct fuse_file_info *fi)
{
	struct fs *fs = fs_of(req);
	struct open_file *h = of_of(fi);
	uint64_t gen, seq = 0, file_size = UINT64_MAX;
	struct dfile *df;
	struct fattr3 a;
	struct inode *i;
	bool stream;
	int err;

	i = io_inode(req, h, ino, &err);
	if (!i) {
		fuse_reply_err(req, err);
		return;
	}
	df = inode_dfile(fs, i);
	/* The cached size bounds a read only while no write of ours is
	 * outstanding (writes invalidate the cached attributes). */
	if (inode_get_attr(i, &a))
		file_size = a.size;
	/* Before any reply: once the reader has its data it may close the
	 * file, and the inode may go. */
	stream = ra_issue(&h->cred, fs, i, (uint64_t)off, size);
	while (df) {
		/* A sequential reader does not come back for what it has
		 * read: the kernel keeps it, and the read-ahead blocks go
		 * (their memory takes the next read-ahead). */
		if (dcache_send(fs->dc, df, (uint64_t)off, size, file_size,
				stream, reply_iov, req) >= 0) {
			STAT_INC(data_hits);
			if (stream)
				STAT_INC(readahead_used);
			return;
		}
		if (!ra_wait(req, i, (uint64_t)off, size))
			break;
	}
	STAT_INC(data_misses);
	/* A READ must not overtake our own WRITEs of the same bytes. */
	if (i->wb) {
		struct fs_wait w;
		int ret;

		fs_wait_begin(&w, req);
		ret = wback_wait(i->wb, &w.stop, &seq);
		fs_wait_end(&w);
		if (ret) {
			fuse_reply_err(req, -ret);
			return;
		}
	}
	pthread_mutex_lock(&i->lock);
	gen = i->data_gen;
	pthread_mutex_unlock(&i->lock);
	/* As the opener, like the READs sent ahead and like the Linux
	 * client, which reads with the credential of the open file: access
	 * was checked at open, and this spares a look at the reader's
	 * groups in /proc for every READ. */
	reply_from_server(req, &h->cred, i, df, (uint64_t)off, size, gen, seq);
}

/* Our writes to ino are unsettled: the attributes the wcc chain of the
 * batch must start from are kept, and until it is settled none are
 * believed.  The inode lock is held, i->wb_before made. */
static void batch_begin(struct fs *fs, struct inode *i)
{
	if (i->wbatch)
		return;
	i->wbatch = true;
	fs_wstamp(fs, i);
	i->wb_end = 0;
	*i->wb_before = i->as;
	acache_invalidate(&i->as);
}

void fs_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
	      off_t off, struct fuse_file_info *fi)
{
	struct fs *fs = fs_of(req);
	struct open_file *h = of_of(fi);
	struct rpc_cred cred;
	struct fs_wait w;
	struct dfile *df;
	struct inode *i;
	uint64_t len;
	ssize_t n;
	int ret;

	i = io_inode(req, h, ino, &ret);
	if (!i) {
		fuse_reply_err(req, ret);
		return;
	}
	if (size > fs->nfs->wsize) {
		/* max_write is wsize, so the kernel never sends more. */
		fuse_reply_err(req, EINVAL);
		return;
	}
	/* Past what the server can hold, refused here, as a local file
	 * system refuses it: taken and gathered, it would be lost at the
	 * flush, its error heard only at fsync or close. */
	len = size;
	if ((ret = fs_size_clip(fs, (uint64_t)off, &len))) {
		fuse_reply_err(req, -ret);
		return;
	}
	size = (size_t)len;
	/* The writer waits for a flush of another (`settle`) or, past the
	 * bound on held bytes, for the server: as its request's wait, which
	 * only the writer's death or the unmount ends (fs_wait.h). */
	fs_wait_begin(&w, req);
	if (fs_wait_lock(&w, &i->settle)) {
		fs_wait_end(&w);
		fuse_reply_err(req, EINTR);
		return;
	}
	pthread_mutex_lock(&i->lock);
	if (!i->wb)
		i->wb = wback_new(fs->nfs, &i->fh, WBACK_MAX_HELD);
	if (!i->wb_before)
		i->wb_before = malloc(sizeof(*i->wb_before));
	if (i->wb && i->wb_before)
		batch_begin(fs, i);
	pthread_mutex_unlock(&i->lock);
	if (!i->wb || !i->wb_before) {
		pthread_mutex_unlock(&i->settle);
		fs_wait_end(&w);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	/* The kernel writes dirty pages back through some handle open for
	 * writing, as nobody: they go out as that handle's opener, one who
	 * could have written them.  write(2) comes with its writer. */
	if (fi->writepage)
		cred = h->cred;
	else
		fs_req_cred(req, &cred);
	/* O_DIRECT asks for no cache between the writer and the server:
	 * its writes go out as they come, not gathered. */
	n = wback_write(i->wb, &cred, (uint64_t)off, buf, size,
			(fi->flags & O_DIRECT) ? WBACK_NOW : 0, &w.stop);
	pthread_mutex_lock(&i->lock);
	if (n > 0 && (uint64_t)off + (uint64_t)n > i->wb_end)
		i->wb_end = (uint64_t)off + (uint64_t)n;
	if (n > 0)
		i->wgen++;
	pthread_mutex_unlock(&i->lock);
	pthread_mutex_unlock(&i->settle);
	fs_wait_end(&w);
	if (n < 0) {
		fuse_reply_err(req, (int)-n);
		return;
	}
	df = inode_dfile(fs, i);
	if (df)
		dcache_write(fs->dc, df, (uint64_t)off, buf, (size_t)n);
	/* Fewer than asked when interrupted after taking some: a short
	 * write, as write(2) may be. */
	fuse_reply_write(req, (size_t)n);
}

/* The batch's writes are on the server: cache what they left, if they
 * alone changed the file, or forget what is cached if not.  True when
 * the kernel must drop the attributes it holds. */
static bool settle_batch(struct fs *fs, struct inode *ino,
			 const struct fattr3 *before, bool before_valid)
{
	struct fattr3 after;
	enum wback_chain chain;

	chain = wback_chain(ino->wb, before, &after);
	if ((chain == WBACK_OURS || chain == WBACK_OURS_ASSUMED) &&
	    before_valid) {
		STAT_INC(wcc_kept);
		if (chain == WBACK_OURS)
			TRACE("write-back %s: wcc chain from the cached "
			      "attributes → ours alone, data kept",
			      fs_name_of(ino));
		else
			TRACE("write-back %s: no pre-op attributes from the "
			      "server; size and times as our writes left them "
			      "→ taken as ours, data kept", fs_name_of(ino));
		/* Re-arm the cache with the attributes our writes left: the
		 * data they changed is already in the data cache. */
		pthread_mutex_lock(&ino->lock);
		ino->as.attr = *before;
		ino->as.valid = true;
		pthread_mutex_unlock(&ino->lock);
		inode_set_attr(fs->inodes, ino, &after);
		/* The kernel follows size and mtime of its own writes, not
		 * a mode the server changed (setuid/setgid cleared on a
		 * write by someone else than the owner). */
		return (before->mode ^ after.mode) & 07777;
	}
	if (chain != WBACK_NONE) {
		STAT_INC(wcc_lost);
		STAT_INC(purge_wcc);
		TRACE("write-back %s: wcc chain broken → changed elsewhere",
		      fs_name_of(ino));
		fs_purge_data(fs, ino, "write-back");
		inode_invalidate_attr(ino);
	}
	return false;
}

/* release: for the file's last release, whose wait only the unmount
 * ends (the kernel waits for no answer; the bytes must go). */
static int writes_settle(fuse_req_t req, struct inode *ino, bool release)
{
	struct fs *fs = fs_of(req);
	struct fs_wait w;
	struct fattr3 before;
	bool batch, before_valid, tell = false;
	int ret;

	if (!ino->wb)
		return 0;
	/* As req's wait: the caller's death or the unmount ends it
	 * (-EINTR), leaving what is not yet on the server kept, and the
	 * batch open, for the next flush. */
	fs_wait_begin(&w, release ? NULL : req);
	/* No write joins between the flush and the attributes it leaves
	 * (inode.h, `settle`). */
	if (fs_wait_lock(&w, &ino->settle)) {
		fs_wait_end(&w);
		return -EINTR;
	}
	ret = wback_flush(ino->wb, &w.stop);
	fs_wait_end(&w);
	if (ret == -EINTR) {
		pthread_mutex_unlock(&ino->settle);
		return ret;
	}
	pthread_mutex_lock(&ino->lock);
	/* The flush reports its error once, to its caller, and drops the
	 * bytes: every writer must still hear of it (handle_werr). */
	if (ret) {
		ino->werr = -ret;
		ino->nwerr++;
	}
	batch = ino->wbatch;
	if (batch) {
		before = ino->wb_before->attr;
		before_valid = ino->wb_before->valid;
	}
	ino->wbatch = false;
	if (batch)
		fs_wstamp(fs, ino);
	pthread_mutex_unlock(&ino->lock);
	if (batch)
		tell = settle_batch(fs, ino, &before, before_valid);
	pthread_mutex_unlock(&ino->settle);
	/* Not under `settle`: the kernel may wait, to drop the pages, for
	 * a write that is itself waiting for `settle`. */
	if (tell && fs->se)
		fuse_lowlevel_notify_inval_inode(fs->se, ino->id, -1, 0);
	return ret;
}

int fs_writes_settle(fuse_req_t req, struct inode *ino)
{
	return writes_settle(req, ino, false);
}

int fs_writes_before(fuse_req_t req, struct inode *ino)
{
	int ret = writes_settle(req, ino, false);

	return ret == -EINTR ? ret : 0;
}

void fs_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct open_file *h = of_of(fi);
	struct inode *i = handle_inode(req, h, ino);

	fuse_reply_err(req, i ? -handle_werr(h, fs_writes_settle(req, i)) : 0);
}

void fs_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
	      struct fuse_file_info *fi)
{
	struct open_file *h = of_of(fi);
	struct inode *i = handle_inode(req, h, ino);

	(void)datasync;
	fuse_reply_err(req, i ? -handle_werr(h, fs_writes_settle(req, i)) : 0);
}

void fs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct open_file *h = of_of(fi);
	struct inode *i = handle_inode(req, h, ino);
	bool last = false;
	int ret;

	if (i) {
		ret = writes_settle(req, i, true);
		if (ret)
			nf_log(NF_LOG_WARNING, "data of %s may not have reached "
			       "the server: %s", fs_name_of(i), strerror(-ret));
		last = nopen_dec(i);
	}
	/* NFSv4: CLOSE (or OPEN_DOWNGRADE) once the written data is on
	 * the server and no read-ahead of the file is on the wire. */
	handle_free(fs_of(req), h);
	/* The last close of a file unlinked while open takes its silly
	 * name away (fs_ns.c). */
	if (last)
		fs_silly_release(req, i);
	fuse_reply_err(req, 0);
}

int fs_lock_acquired(fuse_req_t req, struct inode *ino)
{
	struct fattr3 before, now;
	bool had;
	int ret;

	/* Another client may have written under the lock it held: what we
	 * cached before the grant proves nothing about the range now. */
	had = inode_get_attr(ino, &before);
	ret = fs_getattr_rpc(req, ino, &now);
	if (ret)
		return ret;
	if (!had || acache_compare(&before, &now) == ACACHE_DATA) {
		STAT_INC(purge_lock);
		fs_purge_data(fs_of(req), ino, "lock");
		fuse_lowlevel_notify_inval_inode(fs_of(req)->se, ino->id, 0, 0);
	}
	return 0;
}

int fs_lock_releasing(fuse_req_t req, struct inode *ino)
{
	return fs_writes_settle(req, ino);
}
