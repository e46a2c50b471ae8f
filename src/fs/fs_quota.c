/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "fs_quota.h"

#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/clock.h"
#include "../base/log.h"
#include "../proto/quota.h"
#include "../base/trace.h"
#include "../base/userns.h"

/* Cached statfs answers kept at most; past that the expired ones go, and
 * if none has expired, all of them (a burst of new uids, not a leak). */
#define QUOTA_CACHE_MAX 1024

struct quota_entry {
	int64_t expires_ns;  /* monotonic */
	int err;             /* of fs_quota_get */
	struct rquota_dqblk dq;
};

struct fs_quota {
	struct rpc_addr server;
	int proto;
	char where[1100];     /* "HOST:/export" */
	char *path;           /* the export path, for GETQUOTA */
	char machinename[256];
	struct rquota_stats stats;

	pthread_mutex_t lock;  /* protects what follows */
	bool located;
	struct rquota_server rs;
	GHashTable *cache;     /* uid -> struct quota_entry */
	bool fallback_logged;
};

int fs_quota_new(const struct rpc_addr *server, int proto,
		 const char *host, const char *export_path,
		 const char *machinename, struct fs_quota **out)
{
	struct fs_quota *q = calloc(1, sizeof(*q));

	*out = NULL;
	if (!q)
		return -ENOMEM;
	q->path = strdup(export_path);
	q->cache = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					 g_free);
	if (!q->path || !q->cache) {
		free(q->path);
		if (q->cache)
			g_hash_table_destroy(q->cache);
		free(q);
		return -ENOMEM;
	}
	q->server = *server;
	q->proto = proto;
	snprintf(q->where, sizeof(q->where), "%s:%s", host, export_path);
	snprintf(q->machinename, sizeof(q->machinename), "%s", machinename);
	rquota_stats_init(&q->stats);
	pthread_mutex_init(&q->lock, NULL);
	*out = q;
	return 0;
}

void fs_quota_free(struct fs_quota *q)
{
	if (!q)
		return;
	g_hash_table_destroy(q->cache);
	pthread_mutex_destroy(&q->lock);
	rquota_stats_destroy(&q->stats);
	free(q->path);
	free(q);
}

/* Where rquotad is: the kept answer, or the portmapper's (fresh when
 * again is true). */
static int locate(struct fs_quota *q, bool again, struct rquota_server *rs)
{
	int ret;

	pthread_mutex_lock(&q->lock);
	if (q->located && !again) {
		*rs = q->rs;
		pthread_mutex_unlock(&q->lock);
		return 0;
	}
	pthread_mutex_unlock(&q->lock);
	ret = rquota_locate(&q->server, q->proto, rs);
	pthread_mutex_lock(&q->lock);
	q->located = ret == 0;
	if (ret == 0)
		q->rs = *rs;
	pthread_mutex_unlock(&q->lock);
	return ret;
}

int fs_quota_get(struct fs_quota *q, const struct rpc_cred *cred,
		 uint32_t type, uint32_t id, struct rquota_dqblk *dq)
{
	struct rquota_server rs;
	bool kept;
	int ret;

	pthread_mutex_lock(&q->lock);
	kept = q->located;
	pthread_mutex_unlock(&q->lock);
	ret = locate(q, false, &rs);
	if (ret)
		return ret;
	ret = rquota_getquota(&rs, cred, q->path, type, id, dq, &q->stats);
	/* Nobody at the kept port: rquotad restarted elsewhere, perhaps. */
	if (kept && (ret == -ECONNREFUSED || ret == -EPROTONOSUPPORT)) {
		ret = locate(q, true, &rs);
		if (ret == 0)
			ret = rquota_getquota(&rs, cred, q->path, type, id, dq,
					      &q->stats);
	}
	return ret;
}

static gboolean expired(gpointer key, gpointer value, gpointer now)
{
	(void)key;
	return ((struct quota_entry *)value)->expires_ns <= *(int64_t *)now;
}

/* Keep e for uid, making room first (lock held). */
static void cache_put(struct fs_quota *q, uint32_t uid,
		      const struct quota_entry *e, int64_t now)
{
	struct quota_entry *copy = g_memdup2(e, sizeof(*e));

	if (g_hash_table_size(q->cache) >= QUOTA_CACHE_MAX) {
		g_hash_table_foreach_remove(q->cache, expired, &now);
		if (g_hash_table_size(q->cache) >= QUOTA_CACHE_MAX)
			g_hash_table_remove_all(q->cache);
	}
	g_hash_table_replace(q->cache, GUINT_TO_POINTER(uid), copy);
}

void fs_quota_statfs(struct fs_quota *q, const struct rpc_cred *cred,
		     struct statvfs *sv)
{
	struct quota_entry e, *found;
	int64_t now = clock_mono_ns();
	bool log_it = false, fresh;

	pthread_mutex_lock(&q->lock);
	found = g_hash_table_lookup(q->cache, GUINT_TO_POINTER(cred->uid));
	fresh = found && found->expires_ns > now;
	if (fresh)
		e = *found;
	pthread_mutex_unlock(&q->lock);
	if (!fresh) {
		/* Two workers may both ask at expiry: harmless, and cheaper
		 * than holding the lock across the call. */
		memset(&e, 0, sizeof(e));
		e.err = fs_quota_get(q, cred, RQUOTA_USRQUOTA, cred->uid,
				     &e.dq);
		e.expires_ns = now + (int64_t)QUOTA_STATFS_TTL * 1000000000;
		pthread_mutex_lock(&q->lock);
		cache_put(q, cred->uid, &e, now);
		pthread_mutex_unlock(&q->lock);
		TRACE("statfs: RQUOTA for uid %u on %s: %s", cred->uid,
		      q->where, e.err ? rquota_strerror(e.err) : "quota");
	}
	if (e.err == 0 && quota_statfs_apply(&e.dq, sv))
		return;
	pthread_mutex_lock(&q->lock);
	if (!q->fallback_logged)
		log_it = q->fallback_logged = true;
	pthread_mutex_unlock(&q->lock);
	if (log_it)
		nf_log(NF_LOG_INFO, "quota_statfs: %s for uid %u on %s: statfs "
		       "shows the whole file system (FSSTAT)",
		       e.err ? rquota_strerror(e.err) : "a quota without "
		       "limits", cred->uid, q->where);
}

/* May peer ask about id?  Root about anyone; others about themselves
 * and the groups they are in. */
static bool allowed(const struct ctl_peer *p, uint32_t type, uint32_t id)
{
	if (p->uid == 0)
		return true;
	if (type == RQUOTA_USRQUOTA)
		return id == p->uid;
	if (id == p->gid)
		return true;
	for (unsigned i = 0; i < p->ngroups; i++)
		if (p->groups[i] == id)
			return true;
	return false;
}

int fs_quota_ctl(struct fs_quota *q, int argc, char **argv,
		 struct ctl_out *out)
{
	const struct ctl_peer *peer = ctl_out_peer(out);
	struct quota_report r;
	struct rpc_cred cred;
	char buf[sizeof(r.where) + 512];
	uint32_t id;
	int ret;

	if (!peer) {
		ctl_printf(out, "quota: the caller's identity is unknown");
		return -EPERM;
	}
	memset(&r, 0, sizeof(r));
	r.type = RQUOTA_USRQUOTA;
	r.id = peer->uid;
	if (argc == 3 && (!strcmp(argv[1], "user") ||
			  !strcmp(argv[1], "group"))) {
		r.type = !strcmp(argv[1], "group") ? RQUOTA_GRPQUOTA
						   : RQUOTA_USRQUOTA;
		if (quota_parse_id(argv[2], &r.id)) {
			ctl_printf(out, "quota: '%s' is not a numeric id",
				   argv[2]);
			return -EINVAL;
		}
	} else if (argc != 1) {
		ctl_printf(out, "usage: quota [user|group ID]");
		return -EINVAL;
	}
	if (!allowed(peer, r.type, r.id)) {
		if (r.type == RQUOTA_GRPQUOTA)
			ctl_printf(out, "quota: only root may ask about a "
				   "group it is not in (gid %u), as with "
				   "quota(1)", r.id);
		else
			ctl_printf(out, "quota: only root may ask about "
				   "another user (uid %u), as with quota(1)",
				   r.id);
		return -EPERM;
	}
	/* The peer's own identity, so that the server applies its rules
	 * (rquotad may answer only root about other users). */
	memset(&cred, 0, sizeof(cred));
	cred.flavor = RPC_AUTH_SYS;
	cred.machinename = q->machinename;
	cred.uid = peer->uid;
	cred.gid = peer->gid;
	for (unsigned i = 0; i < peer->ngroups && i < RPC_AUTH_SYS_MAXGIDS;
	     i++)
		cred.gids[cred.ngids++] = peer->groups[i];
	userns_cred_out(&cred);
	/* The server knows the id by its outside number; the report keeps
	 * the number asked for. */
	if (!(r.type == RQUOTA_GRPQUOTA ? userns_gid_out(r.id, &id)
					: userns_uid_out(r.id, &id))) {
		ctl_printf(out, "quota: %s %u has no id outside this user "
			   "namespace", r.type == RQUOTA_GRPQUOTA ? "group"
			   : "user", r.id);
		return -EINVAL;
	}
	ret = fs_quota_get(q, &cred, r.type, id, &r.q);
	TRACE("quota: %s %u on %s: %s",
	      r.type == RQUOTA_GRPQUOTA ? "group" : "user", r.id, q->where,
	      rquota_strerror(ret));
	if (ret && ret != -ESRCH) {
		ctl_printf(out, "%s: %s", q->where, rquota_strerror(ret));
		return ret;
	}
	r.found = ret == 0;
	snprintf(r.where, sizeof(r.where), "%s", q->where);
	if (quota_report_write(&r, buf, sizeof(buf)) >= sizeof(buf)) {
		ctl_printf(out, "quota: report too long");
		return -EOVERFLOW;
	}
	ctl_printf(out, "%s", buf);
	return 0;
}

int fs_quota_stats(struct fs_quota *q, unsigned proc,
		   struct rpc_proc_stats *st)
{
	return rquota_stats_get(&q->stats, proc, st);
}
