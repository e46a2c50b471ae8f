/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Handlers that add, remove and move names in directories. */
#include "fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "fs_removals.h"

/* The creator's mode, less the umask the kernel already applied; owner and
 * group follow from the AUTH_SYS identity of the call. */
static void sattr_mode(struct sattr3 *s, mode_t mode)
{
	memset(s, 0, sizeof(*s));
	s->set_mode = true;
	s->mode = mode & 07777;
}

static int check_name(fuse_req_t req, struct inode *dir, const char *name)
{
	if (!dir) {
		fuse_reply_err(req, ESTALE);
		return -1;
	}
	if (strlen(name) > NFS3_MAXNAMLEN) {
		fuse_reply_err(req, ENAMETOOLONG);
		return -1;
	}
	return 0;
}

static void reply_diropres_call(fuse_req_t req, struct inode *dir,
				enum nfs3_proc proc, const void *args,
				const char *name)
{
	struct nfs3_diropres res;
	uint64_t since = fs_wsince(fs_of(req));
	struct names_stamp stamp = inode_dir_stamp(dir);
	int ret = fs_call(req, proc, args, &res, NULL);

	if (ret) {
		fs_dir_named(dir, name, false);
		fuse_reply_err(req, -ret);
		return;
	}
	fs_reply_created(req, dir, &res, since, stamp, name,
			 proc == NFS3PROC_MKDIR);
}

void fs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode, dev_t rdev)
{
	struct inode *dir = fs_inode(req, parent);
	struct nfs3_mknod_args args;

	if (check_name(req, dir, name))
		return;
	memset(&args, 0, sizeof(args));
	args.where.dir = &dir->fh;
	args.where.name = name;
	sattr_mode(&args.attributes, mode);
	switch (mode & S_IFMT) {
	case S_IFREG: {
		/* mknod(2) of a regular file is a plain create. */
		struct nfs3_create_args c;

		memset(&c, 0, sizeof(c));
		c.where = args.where;
		c.mode = GUARDED;
		c.obj_attributes = args.attributes;
		reply_diropres_call(req, dir, NFS3PROC_CREATE, &c, name);
		return;
	}
	case S_IFCHR:
		args.type = NF3CHR;
		break;
	case S_IFBLK:
		args.type = NF3BLK;
		break;
	case S_IFIFO:
		args.type = NF3FIFO;
		break;
	case S_IFSOCK:
		args.type = NF3SOCK;
		break;
	default:
		fuse_reply_err(req, EINVAL);
		return;
	}
	args.spec.specdata1 = major(rdev);
	args.spec.specdata2 = minor(rdev);
	reply_diropres_call(req, dir, NFS3PROC_MKNOD, &args, name);
}

void fs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode)
{
	struct inode *dir = fs_inode(req, parent);
	struct nfs3_mkdir_args args;

	if (check_name(req, dir, name))
		return;
	args.where.dir = &dir->fh;
	args.where.name = name;
	sattr_mode(&args.attributes, mode);
	reply_diropres_call(req, dir, NFS3PROC_MKDIR, &args, name);
}

void fs_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		const char *name)
{
	struct inode *dir = fs_inode(req, parent);
	struct nfs3_symlink_args args;

	if (check_name(req, dir, name))
		return;
	if (strlen(link) > NFS3_MAXPATHLEN) {
		fuse_reply_err(req, ENAMETOOLONG);
		return;
	}
	args.where.dir = &dir->fh;
	args.where.name = name;
	memset(&args.symlink_attributes, 0, sizeof(args.symlink_attributes));
	args.symlink_data = link;
	reply_diropres_call(req, dir, NFS3PROC_SYMLINK, &args, name);
}

/*
 * Silly rename.  An NFS server does not know which files are open, so a
 * file unlinked while this client holds it open would vanish under the
 * open descriptors.  Instead, when the name is the file's last one, we
 * RENAME it to a hidden name in the same directory and REMOVE that name at
 * the last close (fs_release).  Rename over an open file does the same to
 * the target first.  rmdir of a directory whose only entries are such
 * names of ours moves them to the parent directory and then succeeds,
 * which the kernel's client does not do.
 *
 * The names are ".nfs" + 8 hex digits naming this mount + 8 hex digits of
 * a counter: 20 characters, where the Linux client's are 28, so the two
 * never mistake each other's.  The mount's part is a hash of the AUTH_SYS
 * machine name, the server, the export and the mount point as given on
 * the command line: a later mount of the same export at the same place
 * recognises the names a crashed run of itself left behind, while a
 * second mount running at the same time elsewhere does not take ours.
 *
 * Crash cleanup is lazy: a scan of the whole export at mount time would
 * cost too much, so a READDIR(PLUS) (fs_dir.c) or an rmdir that meets one
 * of our names that no open file of ours holds REMOVEs it (counted as
 * silly_orphans, logged at info).
 *
 * An inode's silly state is set before its RENAME goes out and cleared
 * before its REMOVE does, under the inode lock; no lock is held across
 * the RPCs.  A last close while the unlink or rename that made the silly
 * name is not over (its RENAME still on the wire, or the rename it made
 * room for, which may fail and move the file back) does not REMOVE: a
 * REMOVE sent ahead of the RENAME would find nothing and leave the file
 * behind for good.  That unlink or rename removes it when it is over.
 */
#define SILLY_PREFIX ".nfs"
#define SILLY_NAME_LEN 20

static uint32_t silly_counter;
static pthread_once_t silly_once = PTHREAD_ONCE_INIT;

/* A counter that started where the last run's did would reuse names its
 * leftovers may still hold: it starts at random instead. */
static void silly_counter_init(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v))
		v = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16);
	silly_counter = v;
}

static uint32_t fnv1a(uint32_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return (h ^ 0xffu) * 16777619u; /* separates the fields */
}

static uint32_t mount_hash(struct fs *fs)
{
	uint32_t h = 2166136261u;

	h = fnv1a(h, fs->machinename);
	h = fnv1a(h, fs->opts->host);
	h = fnv1a(h, fs->opts->export_path);
	return fnv1a(h, fs->opts->mountpoint);
}

static void silly_make_name(struct fs *fs, char out[SILLY_NAME_LEN + 1])
{
	uint32_t n;

	pthread_once(&silly_once, silly_counter_init);
	n = __atomic_add_fetch(&silly_counter, 1, __ATOMIC_RELAXED);
	snprintf(out, SILLY_NAME_LEN + 1, SILLY_PREFIX "%08x%08x",
		 mount_hash(fs), n);
}

struct silly_find {
	const char *name;
	bool found;
};

static void silly_find_one(struct inode *ino, void *ctx)
{
	struct silly_find *f = ctx;

	pthread_mutex_lock(&ino->lock);
	if (ino->silly && !strcmp(ino->silly->name, f->name))
		f->found = true;
	pthread_mutex_unlock(&ino->lock);
}

bool fs_silly_is_orphan(struct fs *fs, const char *name)
{
	struct silly_find f = { name, false };
	char mine[9];

	if (strncmp(name, SILLY_PREFIX, 4) || strlen(name) != SILLY_NAME_LEN)
		return false;
	snprintf(mine, sizeof(mine), "%08x", mount_hash(fs));
	if (memcmp(name + 4, mine, 8) ||
	    strspn(name + 12, "0123456789abcdef") != 8)
		return false;
	inode_foreach(fs->inodes, silly_find_one, &f);
	return !f.found;
}

/* name left the directory we know only by its handle dirfh, or may
 * have: a REMOVE or a RENAME away, answered (w: the reply's wcc data of
 * the directory) or not (w NULL).  What a LOOKUP found under it no longer
 * holds. */
static void name_left(fuse_req_t req, const struct nfs_fh3 *dirfh,
		      const char *name, const struct wcc_data *w,
		      const char *op)
{
	struct fs *fs = fs_of(req);
	struct inode *dir = inode_find_fh(fs->inodes, dirfh);

	if (!dir)
		return;
	inode_dir_drop_name(dir, name);
	if (w)
		fs_learn_wcc(fs, dir, w, op);
	inode_forget(fs->inodes, dir->id, 1);
}

/* REMOVE as cred, or as the caller of req when cred is NULL. */
static int remove_fh_as(fuse_req_t req, const struct rpc_cred *cred,
			const struct nfs_fh3 *dir, const char *name)
{
	struct nfs3_remove_args args = { .object = { dir, name } };
	struct nfs3_wccstat_res res;
	int ret = cred ? fs_call_as(req, cred, NFS3PROC_REMOVE, &args, &res,
				    NULL)
		       : fs_call(req, NFS3PROC_REMOVE, &args, &res, NULL);

	name_left(req, dir, name, ret ? NULL : &res.dir_wcc, "remove");
	return ret ? ret : nfs_stat_errno(res.status);
}

static int remove_fh(fuse_req_t req, const struct nfs_fh3 *dir,
		     const char *name)
{
	return remove_fh_as(req, NULL, dir, name);
}

static int rename_fh(fuse_req_t req, const struct nfs_fh3 *from,
		     const char *name, const struct nfs_fh3 *to,
		     const char *newname)
{
	struct nfs3_rename_args args = { { from, name }, { to, newname } };
	struct nfs3_rename_res res;
	struct fs *fs = fs_of(req);
	/* Held across the call: the target directory gains newname. */
	struct inode *todir = inode_find_fh(fs->inodes, to);
	int ret = fs_call(req, NFS3PROC_RENAME, &args, &res, NULL);

	name_left(req, from, name, ret ? NULL : &res.fromdir_wcc, "rename");
	if (ret == 0) {
		/* Within one directory both wcc_data describe the same
		 * change. */
		if (todir && (from->len != to->len ||
			      memcmp(from->data, to->data, from->len)))
			fs_learn_wcc(fs, todir, &res.todir_wcc, "rename");
		ret = nfs_stat_errno(res.status);
	}
	if (todir) {
		fs_dir_named(todir, newname, ret == 0);
		inode_forget(fs->inodes, todir->id, 1);
	}
	return ret;
}

void fs_silly_remove_orphan(fuse_req_t req, struct inode *dir,
			    const char *name)
{
	int ret = remove_fh(req, &dir->fh, name);

	if (ret && ret != -ENOENT) {
		nf_log(NF_LOG_WARNING, "cannot remove %s, left by an earlier "
		       "run of this mount: %s", name, strerror(-ret));
		return;
	}
	if (ret == 0) {
		STAT_INC(silly_orphans);
		nf_log(NF_LOG_INFO, "removed %s, left by an earlier run of "
		       "this mount", name);
	}
}

void fs_silly_release(fuse_req_t req, struct inode *ino)
{
	struct fs_removal removal;
	struct inode_silly *s;
	int ret;

	/* An open of the file may come yet (its path walked before the
	 * unlink): it waits for this REMOVE, then finds the file stale. */
	fs_removal_begin(&removal);
	pthread_mutex_lock(&ino->lock);
	s = ino->nopen || (ino->silly && ino->silly->renaming) ? NULL
							       : ino->silly;
	if (s)
		ino->silly = NULL;
	pthread_mutex_unlock(&ino->lock);
	if (!s) {
		fs_removal_end(&removal);
		return;
	}
	ret = remove_fh_as(req, &s->cred, &s->dir, s->name);
	fs_removal_end(&removal);
	if (ret == 0 || ret == -ENOENT) {
		STAT_INC(silly_removes);
		TRACE("close %s: last close of an unlinked file → REMOVE %s",
		      fs_name_of(ino), s->name);
	} else {
		/* A later listing of the directory will find it an orphan. */
		nf_log(NF_LOG_WARNING, "cannot remove %s at last close: %s",
		       s->name, strerror(-ret));
	}
	free(s);
}

/*
 * The file behind name in dir, which is about to lose that name (REMOVE,
 * or RENAME over it).  The kernel names only the directory and the name,
 * so only a LOOKUP tells, or what we know of the directory's names, and
 * it is asked only when the answer matters: a file open here whose last
 * name it is must be moved aside (silly rename), and a file with other
 * names keeps them with one link fewer, which its cached attributes must
 * not hide.  Returns the inode with a hold or NULL (not ours to care
 * about); *open_last says it is open here and this is its last name.
 */
static struct inode *name_victim(fuse_req_t req, struct inode *dir,
				 const char *name, bool *open_last)
{
	struct fs *fs = fs_of(req);
	struct post_op_attr a = { 0 };
	struct nfs_fh3 fh;
	struct inode *ino;
	uint64_t since;

	*open_last = false;
	if (!fs_files_open() && !inode_multilinked(fs->inodes))
		return NULL;
	/* What answers the kernel's lookup of the name answers here too:
	 * the same name, the same moment. */
	if (fs_dir_lacks(fs, dir, name) != DIR_MAY_HOLD)
		return NULL;
	ino = fs_dir_known(fs, dir, name, &a.attr);
	if (ino) {
		a.present = true;
		TRACE("%s in %s: the file known under the name, the "
		      "directory changed by nobody else since → no LOOKUP",
		      name, fs_name_of(dir));
	} else {
		if (fs_lookup_fh(req, dir, name, &fh, &a, &since))
			return NULL;
		ino = inode_find_fh(fs->inodes, &fh);
		if (!ino)
			return NULL;
		if (a.present)
			fs_learn(fs, ino, &a, since, "lookup");
	}
	pthread_mutex_lock(&ino->lock);
	*open_last = ino->nopen > 0 &&
		     (!a.present ||
		      (a.attr.type != NF3DIR && a.attr.nlink <= 1));
	pthread_mutex_unlock(&ino->lock);
	return ino;
}

/* Move name (ino, open here) out of the way to a new silly name in dir.
 * On success *silly holds that name. */
static int silly_rename(fuse_req_t req, struct inode *dir, const char *name,
			struct inode *ino, char silly[SILLY_NAME_LEN + 1])
{
	struct inode_silly *s;
	int ret;

	silly_make_name(fs_of(req), silly);
	s = malloc(sizeof(*s) + SILLY_NAME_LEN + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s->name, silly, SILLY_NAME_LEN + 1);
	s->dir = dir->fh;
	fs_req_cred(req, &s->cred);
	s->renaming = true;
	pthread_mutex_lock(&ino->lock);
	if (ino->silly) {
		/* Its last name is already a silly one (someone unlinks
		 * .nfsXXXX itself): the kernel's client says EBUSY too. */
		pthread_mutex_unlock(&ino->lock);
		free(s);
		return -EBUSY;
	}
	ino->silly = s;
	pthread_mutex_unlock(&ino->lock);

	ret = rename_fh(req, &dir->fh, name, &dir->fh, silly);
	if (ret) {
		pthread_mutex_lock(&ino->lock);
		if (ino->silly == s)
			ino->silly = NULL;
		else
			s = NULL;
		pthread_mutex_unlock(&ino->lock);
		free(s);
		return ret;
	}
	STAT_INC(silly_renames);
	TRACE("unlink %s: open on this client → RENAME to %s", name, silly);
	return 0;
}

/* The operation silly_rename made room for is over (undone or not): a
 * last close that came meanwhile left the REMOVE of the silly name to
 * us. */
static void silly_settle(fuse_req_t req, struct inode *ino)
{
	pthread_mutex_lock(&ino->lock);
	if (ino->silly)
		ino->silly->renaming = false;
	pthread_mutex_unlock(&ino->lock);
	fs_silly_release(req, ino);
}

/* Undo silly_rename after the operation it made room for failed. */
static void silly_undo(fuse_req_t req, struct inode *dir, const char *name,
		       struct inode *ino, const char *silly)
{
	struct inode_silly *mine = NULL;

	if (rename_fh(req, &dir->fh, silly, &dir->fh, name)) {
		nf_log(NF_LOG_WARNING, "cannot rename %s back to %s; it goes "
		       "at the last close", silly, name);
		return;
	}
	pthread_mutex_lock(&ino->lock);
	if (ino->silly && !strcmp(ino->silly->name, silly)) {
		mine = ino->silly;
		ino->silly = NULL;
	}
	pthread_mutex_unlock(&ino->lock);
	free(mine);
}

void fs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct inode *dir = fs_inode(req, parent);
	char silly[SILLY_NAME_LEN + 1];
	struct fs_removal removal;
	struct inode *ino;
	bool open_last;
	int ret;

	if (check_name(req, dir, name))
		return;
	fs_removal_begin(&removal);
	ino = name_victim(req, dir, name, &open_last);
	if (ino && open_last)
		ret = silly_rename(req, dir, name, ino, silly);
	else
		ret = remove_fh(req, &dir->fh, name);
	fs_removal_end(&removal);
	if (ret == 0)
		inode_unnamed(fs_of(req)->inodes, dir->id, name);
	if (ino) {
		if (ret == 0)
			fs_name_lost(fs_of(req), ino);
		if (ret == 0 && open_last)
			silly_settle(req, ino);
		inode_forget(fs_of(req)->inodes, ino->id, 1);
	}
	fuse_reply_err(req, -ret);
}

/* ---- rmdir of a directory that holds only our silly names ---- */

#define SILLY_MOVE_MAX 64

struct silly_dir_scan {
	const struct nfs_fh3 *dir;
	unsigned n;
	bool overflow;
	struct nfs_fh3 fh[SILLY_MOVE_MAX];
};

static void silly_in_dir(struct inode *ino, void *ctx)
{
	struct silly_dir_scan *s = ctx;

	pthread_mutex_lock(&ino->lock);
	if (ino->silly && ino->silly->dir.len == s->dir->len &&
	    !memcmp(ino->silly->dir.data, s->dir->data, s->dir->len)) {
		if (s->n < SILLY_MOVE_MAX)
			s->fh[s->n++] = ino->fh;
		else
			s->overflow = true;
	}
	pthread_mutex_unlock(&ino->lock);
}

struct silly_move {
	struct inode *ino;      /* held */
	char name[SILLY_NAME_LEN + 1];
	bool moved;
};

struct silly_plan {
	struct fs *fs;
	struct silly_move live[SILLY_MOVE_MAX];
	unsigned nlive;
	char orphan[SILLY_MOVE_MAX][SILLY_NAME_LEN + 1];
	unsigned norphan;
};

/* One entry of the directory to remove: 0 if it is ours, -ENOTEMPTY if
 * not (or if there are more of ours than we handle at once). */
static int silly_plan_entry(const char *name, void *ctx)
{
	struct silly_plan *p = ctx;

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	for (unsigned k = 0; k < p->nlive; k++)
		if (!strcmp(p->live[k].name, name))
			return 0;
	if (p->norphan < SILLY_MOVE_MAX && fs_silly_is_orphan(p->fs, name)) {
		/* fs_silly_is_orphan() checked its length */
		memcpy(p->orphan[p->norphan++], name, SILLY_NAME_LEN + 1);
		return 0;
	}
	return -ENOTEMPTY;
}

/* Every name in directory d, each handed to fn; the first nonzero return
 * of fn ends the walk and is returned. */
static int walk_dir(fuse_req_t req, const struct nfs_fh3 *d,
		    int (*fn)(const char *name, void *ctx), void *ctx)
{
	struct fs *fs = fs_of(req);
	uint8_t verf[NFS3_COOKIEVERFSIZE] = { 0 };
	uint64_t cookie = 0;

	for (;;) {
		struct nfs3_readdir_args a = { .dir = *d, .cookie = cookie,
					       .count = fs->nfs->dsize };
		struct nfs3_readdir_res r;
		struct rpc_reply reply = { 0 };
		struct nfs3_entry e;
		char name[NFS3_MAXNAMLEN + 1];
		bool eof;
		int ret, n;

		memcpy(a.cookieverf, verf, sizeof(verf));
		ret = fs_call(req, NFS3PROC_READDIR, &a, &r, &reply);
		if (ret)
			return ret;
		if (r.status != NFS3_OK) {
			rpc_reply_release(&reply);
			return nfs_stat_errno(r.status);
		}
		memcpy(verf, r.cookieverf, sizeof(verf));
		eof = r.eof;
		ret = 0;
		while (ret == 0 &&
		       (n = nfs3_readdir_next(&r.entries, &e)) == 1) {
			uint32_t len = e.namelen < NFS3_MAXNAMLEN ?
				       e.namelen : NFS3_MAXNAMLEN;

			memcpy(name, e.name, len);
			name[len] = '\0';
			cookie = e.cookie;
			ret = fn(name, ctx);
		}
		rpc_reply_release(&reply);
		if (ret)
			return ret;
		/* An empty page that is not the last would loop forever. */
		if (eof || r.nentries == 0)
			return 0;
	}
}

static int rmdir_fh(fuse_req_t req, struct inode *dir, const char *name)
{
	struct nfs3_remove_args args = { .object = { &dir->fh, name } };
	struct nfs3_wccstat_res res;
	int ret = fs_call(req, NFS3PROC_RMDIR, &args, &res, NULL);

	inode_dir_drop_name(dir, name);
	if (ret)
		return ret;
	fs_learn_wcc(fs_of(req), dir, &res.dir_wcc, "rmdir");
	return nfs_stat_errno(res.status);
}

/*
 * RMDIR of dir/name said "not empty": if every entry is a silly name of
 * ours, move the live ones to dir (their inodes follow), remove the
 * orphans, and try again.  On a second failure the moved ones go back.
 */
static int rmdir_silly(fuse_req_t req, struct inode *dir, const char *name)
{
	struct fs *fs = fs_of(req);
	struct silly_dir_scan scan;
	struct silly_plan *plan;
	struct post_op_attr a;
	struct nfs_fh3 victim;
	uint64_t since;
	int ret;

	if (fs_lookup_fh(req, dir, name, &victim, &a, &since))
		return -ENOTEMPTY;
	memset(&scan, 0, sizeof(scan));
	scan.dir = &victim;
	inode_foreach(fs->inodes, silly_in_dir, &scan);
	if (scan.overflow)
		return -ENOTEMPTY;
	plan = calloc(1, sizeof(*plan));
	if (!plan)
		return -ENOMEM;
	plan->fs = fs;
	for (unsigned k = 0; k < scan.n; k++) {
		struct inode *ino = inode_find_fh(fs->inodes, &scan.fh[k]);
		struct silly_move *m = &plan->live[plan->nlive];

		if (!ino)
			continue;
		pthread_mutex_lock(&ino->lock);
		if (ino->silly)
			snprintf(m->name, sizeof(m->name), "%s",
				 ino->silly->name);
		pthread_mutex_unlock(&ino->lock);
		if (!m->name[0]) {
			inode_forget(fs->inodes, ino->id, 1);
			continue;
		}
		m->ino = ino;
		plan->nlive++;
	}
	ret = walk_dir(req, &victim, silly_plan_entry, plan);
	if (ret) {
		ret = -ENOTEMPTY;
		goto out;
	}
	for (unsigned k = 0; k < plan->norphan; k++)
		fs_silly_remove_orphan(req, dir, plan->orphan[k]);
	/* Our names are unique to this mount, so each keeps its name in the
	 * parent directory. */
	for (unsigned k = 0; k < plan->nlive; k++) {
		struct silly_move *m = &plan->live[k];
		int r = rename_fh(req, &victim, m->name, &dir->fh, m->name);

		if (r && r != -ENOENT) {
			ret = r;
			break;
		}
		m->moved = r == 0;
		pthread_mutex_lock(&m->ino->lock);
		if (m->moved && m->ino->silly &&
		    !strcmp(m->ino->silly->name, m->name))
			m->ino->silly->dir = dir->fh;
		pthread_mutex_unlock(&m->ino->lock);
		TRACE("rmdir %s: move %s to the parent directory", name,
		      m->name);
	}
	if (ret == 0)
		ret = rmdir_fh(req, dir, name);
	if (ret) {
		for (unsigned k = 0; k < plan->nlive; k++) {
			struct silly_move *m = &plan->live[k];

			if (!m->moved ||
			    rename_fh(req, &dir->fh, m->name, &victim, m->name))
				continue;
			pthread_mutex_lock(&m->ino->lock);
			if (m->ino->silly &&
			    !strcmp(m->ino->silly->name, m->name))
				m->ino->silly->dir = victim;
			pthread_mutex_unlock(&m->ino->lock);
		}
	}
out:
	for (unsigned k = 0; k < plan->nlive; k++)
		inode_forget(fs->inodes, plan->live[k].ino->id, 1);
	free(plan);
	return ret;
}

void fs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct inode *dir = fs_inode(req, parent);
	int ret;

	if (check_name(req, dir, name))
		return;
	ret = rmdir_fh(req, dir, name);
	if (ret == -ENOTEMPTY)
		ret = rmdir_silly(req, dir, name);
	if (ret == 0)
		fs_dir_removed(fs_of(req)->inodes, dir->id, name);
	fuse_reply_err(req, -ret);
}

/*
 * A RENAME moves the file's ctime on the server, as rename(2) does on a
 * local disk, and its reply carries no attributes of the file: those we
 * hold are asked again at the next use (the Linux client marks the inode
 * too).  The kernel names only the directory and the name, so the inode
 * is the one it last took under that name.
 */
static void renamed(struct fs *fs, struct inode *from, const char *name,
		    struct inode *to, const char *newname)
{
	struct inode *moved = inode_renamed(fs->inodes, from->id, name,
					    to->id, newname);

	if (!moved)
		return;
	inode_expire_attr(moved);
	TRACE("rename %s → %s: its ctime moved on the server → attributes "
	      "asked again", name, newname);
	inode_forget(fs->inodes, moved->id, 1);
}

void fs_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
	       fuse_ino_t newparent, const char *newname, unsigned int flags)
{
	struct inode *from = fs_inode(req, parent);
	struct inode *to = fs_inode(req, newparent);
	char silly[SILLY_NAME_LEN + 1];
	struct fs_removal removal;
	struct inode *target;
	bool open_last;
	int ret;

	/* NFSv3 RENAME replies atomically or not at all; it has no way to
	 * refuse an existing target or to swap two names. */
	if (flags) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (check_name(req, from, name) || check_name(req, to, newname))
		return;
	/* A target open here would lose its last name: move it aside
	 * first, as unlink would. */
	fs_removal_begin(&removal);
	target = name_victim(req, to, newname, &open_last);
	if (target && open_last &&
	    (ret = silly_rename(req, to, newname, target, silly))) {
		fs_removal_end(&removal);
		inode_forget(fs_of(req)->inodes, target->id, 1);
		fuse_reply_err(req, -ret);
		return;
	}
	ret = rename_fh(req, &from->fh, name, &to->fh, newname);
	fs_removal_end(&removal);
	if (ret == 0) {
		/* A directory the rename replaced is gone (a file would
		 * have lost a name only: fs_name_lost below); a rename of a
		 * name onto itself replaced nothing. */
		if (from != to || strcmp(name, newname))
			fs_dir_removed(fs_of(req)->inodes, to->id, newname);
		renamed(fs_of(req), from, name, to, newname);
	}
	if (target) {
		if (ret && open_last)
			silly_undo(req, to, newname, target, silly);
		/* Lost a name either way: newname, or its last one to the
		 * silly rename (and then its descriptors show 0 links). */
		if (ret == 0)
			fs_name_lost(fs_of(req), target);
		if (open_last)
			silly_settle(req, target);
		inode_forget(fs_of(req)->inodes, target->id, 1);
	}
	fuse_reply_err(req, -ret);
}

void fs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
	     const char *newname)
{
	struct inode *i = fs_inode(req, ino);
	struct inode *dir = fs_inode(req, newparent);
	struct nfs3_link_args args;
	struct nfs3_link_res res;
	struct fuse_entry_param e;
	uint64_t since;
	struct names_stamp stamp;
	bool believed;
	int ret;

	if (!i) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (check_name(req, dir, newname))
		return;
	args.file = i->fh;
	args.link.dir = &dir->fh;
	args.link.name = newname;
	since = fs_wsince(fs_of(req));
	stamp = inode_dir_stamp(dir);
	ret = fs_call(req, NFS3PROC_LINK, &args, &res, NULL);
	if (ret) {
		fs_dir_named(dir, newname, false);
		fuse_reply_err(req, -ret);
		return;
	}
	fs_learn_wcc(fs_of(req), dir, &res.linkdir_wcc, "link");
	fs_dir_named(dir, newname, res.status == NFS3_OK);
	if (res.status != NFS3_OK) {
		fs_learn(fs_of(req), i, &res.file_attributes, since, "link");
		fuse_reply_err(req, -nfs_stat_errno(res.status));
		return;
	}
	/* The link count changed: the reply's attributes say so (with our
	 * writes in flight none are believed anyway), and older answers
	 * would bring the old count back.  A statement of its own: `since`
	 * is passed as the tick leaves it. */
	believed = fs_wchanged_own(fs_of(req), i, &since);
	ret = fs_make_entry(req, dir, &i->fh,
			    believed ? &res.file_attributes : NULL, since,
			    newname, &e);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	inode_dir_made(dir, newname, e.ino, stamp);
	if (fuse_reply_entry(req, &e))
		inode_forget(fs_of(req)->inodes, e.ino, 1);
}
