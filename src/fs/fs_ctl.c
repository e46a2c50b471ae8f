/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `nfsfusectl` may ask of a running mount: the hooks the control
 * socket calls, on its own thread, while FUSE workers run.  Each takes the
 * same locks the workers do and holds none across I/O.
 */
#include "fs_ctl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../cache/data.h"
#include "../cache/wback.h"
#include "fs_quota.h"
#include "../lock/lock.h"
#include "../proto/nfs4_deleg.h"
#include "../proto/nfs4_idcache.h"
#include "../proto/nfs4_lock.h"
#include "../proto/nfs4_session.h"
#include "../proto/nfsacl_client.h"
#include "../base/clock.h"
#include "../base/stats.h"
#include "../base/trace.h"

struct find {
	uint64_t fileid;
	struct inode *found;
};

static void match_fileid(struct inode *ino, void *ctx)
{
	struct find *f = ctx;

	pthread_mutex_lock(&ino->lock);
	if (!f->found && ino->as.attr.fileid == f->fileid &&
	    (ino->as.valid || ino->as.fetched))
		f->found = ino;
	pthread_mutex_unlock(&ino->lock);
}

/* The inode of a fileid.  The pointer is used while the kernel holds the
 * node open (the caller just stat()ed it), the same guarantee requests
 * rely on. */
static struct inode *by_fileid(struct fs *fs, uint64_t fileid)
{
	struct find f = { fileid, NULL };

	inode_foreach(fs->inodes, match_fileid, &f);
	return f.found;
}

static int describe(void *ctx, uint64_t fileid, struct ctl_out *out)
{
	struct fs *fs = ctx;
	struct inode *ino = by_fileid(fs, fileid);
	struct attr_state as;
	unsigned blocks = 0, nacc = 0;
	size_t bytes = 0;
	uint64_t gen;
	bool batch;
	int64_t now = clock_mono_ns();

	if (!ino)
		return -ENOENT;
	pthread_mutex_lock(&ino->lock);
	as = ino->as;
	gen = ino->data_gen;
	batch = ino->wbatch;
	nacc = access_count(ino->acc);
	pthread_mutex_unlock(&ino->lock);

	ctl_printf(out, "node %llu, fileid %llu, last name '%s'\n",
		   (unsigned long long)ino->id, (unsigned long long)fileid,
		   fs_name_of(ino));
	if (!as.valid) {
		ctl_printf(out, "attributes: none believed (%s)\n",
			   batch ? "our writes are in flight: the write "
				   "counter rule" : "invalidated or never fetched");
	} else {
		double age = (double)(now - as.fetched) / NS_PER_SEC;
		double left = acache_remaining(&as, now);

		ctl_printf(out, "attributes: size %llu mtime %lld.%09u, "
			   "fetched %.1f s ago; timeout %.1f s (%s) → %s\n",
			   (unsigned long long)as.attr.size,
			   (long long)as.attr.mtime.seconds,
			   as.attr.mtime.nseconds, age,
			   (double)as.timeo / NS_PER_SEC,
			   as.timeo == 0 ? "noac, or changed within the "
					   "server's time_delta" :
			   "doubles while unchanged, up to the maximum",
			   left > 0 ? "believed" : "revalidate at next use");
		if (left > 0)
			ctl_printf(out, "attributes believed for %.1f s more\n",
				   left);
		ctl_printf(out, "metadata: mode %04o, %u links, owner %u, "
			   "group %u, ctime %lld.%09u\n",
			   (unsigned)(as.attr.mode & 07777), as.attr.nlink,
			   as.attr.uid, as.attr.gid,
			   (long long)as.attr.ctime.seconds,
			   as.attr.ctime.nseconds);
	}
	if (fs->nfs->v4delegs) {
		int64_t granted;
		uint32_t type;
		bool recalled;

		if (nfs4_delegs_describe(fs->nfs->v4delegs, &ino->fh, &type,
					 &granted, &recalled))
			ctl_printf(out, "delegation: none (every open and "
				   "timed-out stat asks the server)\n");
		else
			ctl_printf(out, "delegation: %s, held for %.1f s%s\n",
				   type == NFS4_OPEN_DELEGATE_WRITE ? "write"
								    : "read",
				   (double)(now - granted) / NS_PER_SEC,
				   recalled ? "; recalled, being given back"
					    : "; attributes and data believed "
					      "until recalled");
	}
	if (ino->df)
		dcache_describe(fs->dc, ino->df, &blocks, &bytes);
	ctl_printf(out, "data: %u blocks of %u KiB, %zu bytes cached "
		   "(generation %llu); kept while close-to-open and wcc "
		   "prove it current\n", blocks, DCACHE_BLOCK >> 10, bytes,
		   (unsigned long long)gen);
	ctl_printf(out, "write-back: %s\n",
		   ino->wb && wback_busy(ino->wb) ? "writes not yet committed"
						  : "nothing pending");
	ctl_printf(out, "access cache: %u credentials\n", nacc);
	return 0;
}

struct drop_ctx {
	struct fs *fs;
	unsigned blocks;
	unsigned files;
	uint64_t *ids;
	unsigned nids, cap;
};

static void drop_one(struct fs *fs, struct inode *ino, struct drop_ctx *d)
{
	pthread_mutex_lock(&ino->lock);
	ino->data_gen++;
	acache_invalidate(&ino->as);
	access_clear(ino->acc);
	pthread_mutex_unlock(&ino->lock);
	if (ino->df)
		d->blocks += dcache_purge(fs->dc, ino->df);
	d->files++;
}

static void drop_each(struct inode *ino, void *ctx)
{
	struct drop_ctx *d = ctx;

	drop_one(d->fs, ino, d);
	if (d->nids < d->cap)
		d->ids[d->nids++] = ino->id;
}

static int drop(void *ctx, uint64_t fileid, bool all)
{
	struct fs *fs = ctx;
	struct drop_ctx d = { .fs = fs };

	if (all) {
		nfs4_idcache_forget();
		d.cap = inode_count(fs->inodes) + 16;
		d.ids = calloc(d.cap, sizeof(*d.ids));
		inode_foreach(fs->inodes, drop_each, &d);
	} else {
		struct inode *ino = by_fileid(fs, fileid);

		if (!ino)
			return -ENOENT;
		drop_one(fs, ino, &d);
		d.ids = calloc(1, sizeof(*d.ids));
		if (d.ids)
			d.ids[d.nids++] = ino->id;
	}
	STAT_ADD(purge_drop, d.files);
	TRACE("drop: %u files, %u blocks purged on request", d.files,
	      d.blocks);
	/* The kernel's page and attribute caches go too: nobody holds a
	 * request lock here, so notifying cannot deadlock. */
	for (unsigned k = 0; k < d.nids && fs->se; k++)
		fuse_lowlevel_notify_inval_inode(fs->se, d.ids[k], 0, 0);
	free(d.ids);
	return 0;
}

static int parse_uint(const char *v, unsigned long max, unsigned long *out)
{
	char *end;

	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	*out = strtoul(v, &end, 10);
	return errno || *end || *out > max ? -1 : 0;
}

static int set(void *ctx, const char *key, const char *value,
	       struct ctl_out *out)
{
	struct fs *fs = ctx;
	struct acache_params p;
	unsigned long v;

	inode_get_params(fs->inodes, &p);
	if (!strcmp(key, "cache_size")) {
		if (parse_uint(value, 1ul << 40, &v) || v < (1ul << 20)) {
			ctl_printf(out, "cache_size: bytes from 1048576 to 2^40");
			return -EINVAL;
		}
		dcache_set_cap(fs->dc, v);
		return 0;
	}
	if (!strcmp(key, "noac") || !strcmp(key, "ac")) {
		if (parse_uint(value, 1, &v)) {
			ctl_printf(out, "%s: 0 or 1", key);
			return -EINVAL;
		}
		p.noac = !strcmp(key, "noac") ? v : !v;
		inode_set_params(fs->inodes, &p);
		return 0;
	}
	if (parse_uint(value, 24 * 3600, &v)) {
		ctl_printf(out, "%s: seconds from 0 to 86400", key);
		return -EINVAL;
	}
	if (!strcmp(key, "acregmin"))
		p.regmin = (unsigned)v;
	else if (!strcmp(key, "acregmax"))
		p.regmax = (unsigned)v;
	else if (!strcmp(key, "acdirmin"))
		p.dirmin = (unsigned)v;
	else if (!strcmp(key, "acdirmax"))
		p.dirmax = (unsigned)v;
	else if (!strcmp(key, "actimeo"))
		p.regmin = p.regmax = p.dirmin = p.dirmax = (unsigned)v;
	else {
		ctl_printf(out, "unknown option '%s' (acregmin acregmax "
			   "acdirmin acdirmax actimeo noac cache_size)", key);
		return -EINVAL;
	}
	if (p.regmin > p.regmax || p.dirmin > p.dirmax) {
		ctl_printf(out, "minimum above maximum");
		return -EINVAL;
	}
	inode_set_params(fs->inodes, &p);
	TRACE("set %s=%s", key, value);
	return 0;
}

static void stats_extra(void *ctx, struct ctl_stats *s)
{
	struct fs *fs = ctx;
	struct acache_params p;

	inode_get_params(fs->inodes, &p);
	ctl_stat_u64(s, "inodes", inode_count(fs->inodes));
	ctl_stat_u64(s, "data_cache_bytes", dcache_bytes(fs->dc));
	ctl_stat_u64(s, "data_cache_mapped_bytes", dcache_slab_bytes(fs->dc));
	ctl_stat_u64(s, "readahead_inflight_max", fs_readahead_inflight_max());
	ctl_stat_u64(s, "acregmin", p.regmin);
	ctl_stat_u64(s, "acregmax", p.regmax);
	ctl_stat_u64(s, "acdirmin", p.dirmin);
	ctl_stat_u64(s, "acdirmax", p.dirmax);
	ctl_stat_u64(s, "noac", p.noac);
	{
		/* The rules behind acl_none_fs and acl_set_refused:
		 * which file systems, why, and for how long. */
		char rules[1024];

		fs_aclfs_format(fs, false, rules, sizeof(rules));
		ctl_stat_str(s, "acl_none_fs_rules", rules[0] ? rules : "-");
		fs_aclfs_format(fs, true, rules, sizeof(rules));
		ctl_stat_str(s, "acl_set_refused_rules",
			     rules[0] ? rules : "-");
	}
	/* Which way blocked locks are granted here: by the server's
	 * callback, or by polling where no callback can arrive. */
	ctl_stat_str(s, "lock_mode",
		     fs->locks ? lockmgr_mode(fs->locks)
		     : fs->v4locks ? "nfsv4 (blocked locks poll)"
				   : "local (nolock)");
	if (fs->locks || fs->v4locks) {
		/* The lock manager's "key value" lines (its mode again,
		 * then version, watch and counters), one stat each. */
		GString *g = g_string_new(NULL);
		char *line, *next;

		if (fs->locks)
			lockmgr_format_stats(fs->locks, g);
		else
			nfs4_lock_format_stats(fs->v4locks, g);
		for (line = g->str; *line; line = next) {
			char *sp;

			next = line + strcspn(line, "\n");
			if (*next)
				*next++ = '\0';
			sp = strchr(line, ' ');
			if (!sp || !strncmp(line, "lock_mode ", 10))
				continue;
			*sp++ = '\0';
			if (*sp && sp[strspn(sp, "0123456789")] == '\0')
				ctl_stat_u64(s, line, strtoull(sp, NULL, 10));
			else
				ctl_stat_str(s, line, sp);
		}
		g_string_free(g, TRUE);
	}
}

static int locks_cmd(void *ctx, int argc, char **argv, struct ctl_out *out)
{
	struct fs *fs = ctx;
	GString *g;

	(void)argc;
	(void)argv;
	if (!fs->locks && !fs->v4locks) {
		ctl_printf(out, "locks are local to this machine (nolock)\n");
		return 0;
	}
	g = g_string_new(NULL);
	if (fs->locks)
		lockmgr_format_locks(fs->locks, g);
	else
		nfs4_lock_format_locks(fs->v4locks, g);
	ctl_printf(out, "%s", g->str);
	g_string_free(g, TRUE);
	return 0;
}

static int quota_cmd(void *ctx, int argc, char **argv, struct ctl_out *out)
{
	struct fs *fs = ctx;

	return fs_quota_ctl(fs->quota, argc, argv, out);
}

/* For `nfsfusectl list` (nfsstat -m): the server, the export and the
 * options in effect, the negotiated ones (version, sizes) included. */
static int mountinfo_cmd(void *ctx, int argc, char **argv,
			 struct ctl_out *out)
{
	static const char *const lookupcache[] = { "all", "positive", "none" };
	static const char *const local_lock[] = { "none", "flock", "posix",
						  "all" };
	struct fs *fs = ctx;
	const struct nfsfuse_opts *o = fs->opts;
	struct acache_params p;

	(void)argc;
	(void)argv;
	inode_get_params(fs->inodes, &p);
	ctl_printf(out, "server %s\nexport %s\nvers %u\n", o->host,
		   o->export_path, fs->nfs->v->vers);
	ctl_printf(out, "options vers=%u,proto=%s,mountproto=%s,"
		   "rsize=%u,wsize=%u,timeo=%u,retrans=%u,%s,%s,"
		   "acregmin=%u,acregmax=%u,acdirmin=%u,acdirmax=%u,%s,%s,"
		   "lookupcache=%s,%s,%s,%s,local_lock=%s,%s,"
		   "cache_size=%lu,excl=%s,%s",
		   fs->nfs->v->vers, o->proto_udp ? "udp" : "tcp",
		   o->mountproto ? "udp" : "tcp", fs->nfs->rsize,
		   fs->nfs->wsize, o->timeo, o->retrans,
		   o->softerr ? "softerr" : o->soft ? "soft" : "hard",
		   o->resvport ? "resvport" : "noresvport",
		   p.regmin, p.regmax, p.dirmin, p.dirmax,
		   p.noac ? "noac" : "ac", o->cto ? "cto" : "nocto",
		   lookupcache[o->lookupcache % 3],
		   o->rdirplus ? "rdirplus" : "nordirplus",
		   o->dircomplete ? "dircomplete" : "nodircomplete",
		   fs->locks || fs->v4locks ? "lock" : "nolock", local_lock[o->local_lock % 4],
		   fs->acl ? "acl" : "noacl", o->cache_size,
		   o->excl ? "guarded" : "exclusive",
		   o->quota_statfs ? "quota_statfs" : "noquota_statfs");
	if (o->port)
		ctl_printf(out, ",port=%u", o->port);
	if (o->mountport)
		ctl_printf(out, ",mountport=%u", o->mountport);
	if (o->clientaddr)
		ctl_printf(out, ",clientaddr=%s", o->clientaddr);
	ctl_printf(out, "\n");
	return 0;
}

static const struct ctl_cmd_ext fs_ctl_cmds[] = {
	{ "mountinfo", "server, export, version and options in effect",
	  mountinfo_cmd },
	{ "locks", "held and waiting locks, with owners and ranges",
	  locks_cmd },
	{ "quota", "quota [user|group ID]: the server's disk quota (RQUOTA)",
	  quota_cmd },
};

static int rquota_stats(void *ctx, unsigned proc, struct rpc_proc_stats *st)
{
	struct fs *fs = ctx;

	return fs_quota_stats(fs->quota, proc, st);
}

/* NFSACL's client; all zeros when ACLs are off (noacl, no NFSACL). */
static int nfsacl_stats(void *ctx, unsigned proc, struct rpc_proc_stats *st)
{
	struct fs *fs = ctx;

	if (!fs->acl) {
		if (proc >= NFSACLPROC_COUNT)
			return -EINVAL;
		memset(st, 0, sizeof(*st));
		return 0;
	}
	return rpc_clnt_get_stats(fs->acl, proc, st);
}

/* NFSv4 operations inside the COMPOUNDs; all zeros on other mounts. */
static int nfs4ops_stats(void *ctx, unsigned proc, struct rpc_proc_stats *st)
{
	struct fs *fs = ctx;

	return nfs4_session_op_stats(fs->nfs->v4, proc, st);
}

static const struct ctl_rpc_prog fs_ctl_progs[] = {
	{ "rquota", rquota_proc_names, RQUOTAPROC_COUNT, rquota_stats },
	{ "nfsacl", nfsacl_proc_names, NFSACLPROC_COUNT, nfsacl_stats },
	{ "nfs4ops", nfs4_op_names, NFS4_OPS_COUNTED, nfs4ops_stats },
};

void fs_ctl_hooks(struct fs *fs, struct ctl_hooks *h)
{
	*h = (struct ctl_hooks){
		.ctx = fs,
		.server = fs->opts->host,
		.export_path = fs->opts->export_path,
		.rpc = fs->nfs->rpc,
		.conns = fs->nfs->conns,
		.nconns = fs->nfs->nconns,
		.proc_names = fs->nfs->v->names,
		.nprocs = fs->nfs->v->nnames,
		.describe = describe,
		.drop = drop,
		.set = set,
		.stats_extra = stats_extra,
		.cmds = fs_ctl_cmds,
		.ncmds = sizeof(fs_ctl_cmds) / sizeof(fs_ctl_cmds[0]),
		.progs = fs_ctl_progs,
		.nprogs = sizeof(fs_ctl_progs) / sizeof(fs_ctl_progs[0]),
	};
}
