/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RQUOTA client (program 100011, xdr/rquota.h): a user's or a group's
 * disk quota on the server's file system that holds an export, as
 * quota(1) asks rpc.rquotad for it.
 *
 * Quotas are asked for by `nfsfusectl quota` and, with -o quota_statfs,
 * by statfs (whose caller caches the answer): never on the data path.  So,
 * like the MOUNT and portmap clients, each call opens a short-lived
 * connection (soft, 5 s timeout, one retry), makes one call and closes it.
 * Where rquotad listens is asked of the portmapper once, by
 * rquota_locate(), and kept by the caller.
 *
 * Version 2 (Linux's EXT_RQUOTAVERS) carries the quota type and so can
 * answer for groups; version 1 knows users only.  rquota_locate() prefers
 * v2; rquota_getquota() falls back to v1 for a user quota when the server
 * turns v2 down after all (program version mismatch).
 *
 * Results hold no pointers: the quota is copied out of the reply.
 */
#ifndef NFSFUSE_PROTO_RQUOTA_CLIENT_H
#define NFSFUSE_PROTO_RQUOTA_CLIENT_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>

#include "../../xdr/rquota.h"
#include "../rpc/addr.h"
#include "../rpc/rpc.h"

/* Where rquotad listens, from rquota_locate(). */
struct rquota_server {
	struct rpc_addr addr;    /* port included */
	int proto;               /* IPPROTO_TCP or IPPROTO_UDP */
	uint32_t vers;           /* RQUOTA_V2, or RQUOTA_V1 */
};

/*
 * Calls made, per procedure, summed over the short-lived connections
 * (struct rpc_proc_stats; rtt_us_p99 is the largest p99 any connection
 * saw: with one call per connection, the slowest call).  The lock makes
 * it safe to share between threads; initialise with rquota_stats_init().
 */
struct rquota_stats {
	pthread_mutex_t lock;
	struct rpc_proc_stats proc[RQUOTAPROC_COUNT];
};
void rquota_stats_init(struct rquota_stats *s);
void rquota_stats_destroy(struct rquota_stats *s);
/* A copy of proc's counters; -EINVAL when proc is out of range. */
int rquota_stats_get(struct rquota_stats *s, uint32_t proc,
		     struct rpc_proc_stats *out);

/*
 * Ask server's portmapper where RQUOTA v2 (else v1) listens over proto.
 * Returns 0 with *rs filled, or:
 *  -EPROTONOSUPPORT  no rquotad registered (neither version): the server
 *                    offers no quota information
 *  other errors of pmap_clnt_getport() (-ECONNREFUSED: no portmapper, ...)
 */
int rquota_locate(const struct rpc_addr *server, int proto,
		  struct rquota_server *rs);

/*
 * GETQUOTA: the quota of id (a uid or gid by type, enum rquota_type) on
 * the file system of path (the export path as the server names it), with
 * cred as the AUTH_SYS identity (rquotad may refuse to tell anyone but
 * root about another user).  stats may be NULL.
 *
 * Returns 0 with *q filled (Q_OK), or:
 *  -ESRCH            Q_NOQUOTA: no quota for id there (or quotas are off)
 *  -EPERM            Q_EPERM: the server refused to tell (nfs-ganesha
 *                    also answers it for a path it does not export)
 *  -EOPNOTSUPP       a group quota asked of a server with v1 only
 *  -ENAMETOOLONG     path over RQUOTA_PATHLEN bytes
 *  -EPROTONOSUPPORT  rquotad does not serve the version (anymore)
 *  -ECONNREFUSED, -ETIMEDOUT, -EACCES, -EIO: as rpc_clnt_call()
 */
int rquota_getquota(const struct rquota_server *rs,
		    const struct rpc_cred *cred, const char *path,
		    uint32_t type, uint32_t id, struct rquota_dqblk *q,
		    struct rquota_stats *stats);

/* One lower-case phrase for an error of rquota_locate() or
 * rquota_getquota(): "no quota", "the server has no rquotad (RQUOTA not
 * registered with its portmapper)", ...  Never NULL; static storage. */
const char *rquota_strerror(int err);

#endif
