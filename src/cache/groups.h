/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supplementary groups of the threads behind kernel requests.  FUSE
 * gives each request the caller's uid, gid and thread id, not its groups;
 * libfuse reads those from /proc/PID/task/PID/status, which costs more CPU
 * than all the rest of a metadata request.  So the groups read for a
 * thread are kept a little while and sent again with its next requests.
 *
 * Rules (each one a unit test):
 *  - The key is the whole (thread id, uid, gid) of the request: a thread
 *    that changes its uid or gid (setuid, setgid, newgrp, su, a server
 *    switching users per request) is asked again at its next request.
 *  - An answer is believed for at most GROUPS_MAX_AGE_NS.  The bound
 *    stands in for the thread's start time, which only another /proc read
 *    would tell: the kernel hands out thread ids in turn, so an id comes
 *    back only after pid_max others were made, far more than any machine
 *    forks in 100 ms.
 *  - Thread id 0 (a caller outside the daemon's pid namespace, or the
 *    kernel itself) has no groups that can be read: none is sent, without
 *    a look-up.
 *
 * What the bound allows, and why it is safe: a thread that calls
 * setgroups() and keeps its uid and gid has its old groups sent to the
 * server for up to 100 ms.  Every request has been checked by the kernel
 * beforehand with the caller's current groups (default_permissions, mode
 * bits and POSIX ACLs), so a group just dropped opens nothing the kernel
 * knows of; the server's check with AUTH_SYS groups comes second.  And
 * only a thread with CAP_SETGID can change its groups, so it can give
 * itself any group anyway.  A group just added may be refused by the
 * server (EACCES) within the bound: a failure, never a grant.
 *
 * Look-ups answered and missed are counted (groups_hits, groups_reads).
 * Safe for concurrent use by the FUSE worker threads (one mutex, held
 * for a copy of one slot).  The clock (monotonic ns) is passed in.
 */
#ifndef NFSFUSE_CACHE_GROUPS_H
#define NFSFUSE_CACHE_GROUPS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../xdr/rpc_msg.h"

#define GROUPS_SLOTS 64u
#define GROUPS_MAX_AGE_NS (100ll * 1000000ll)

struct groups_key {
	uint32_t tid, uid, gid;
};

struct groups_cache;

struct groups_cache *groups_cache_new(void);
void groups_cache_free(struct groups_cache *c);

/*
 * The groups of k at time now: true and the first RPC_AUTH_SYS_MAXGIDS of
 * them in gids[], their number in *n, when the cache holds a believable
 * answer; false when they must be read (then store what was read).
 */
bool groups_lookup(struct groups_cache *c, const struct groups_key *k,
		   int64_t now, uint32_t *gids, uint32_t *n);

/* Remember the groups read for k at time now (only the first
 * RPC_AUTH_SYS_MAXGIDS are kept). */
void groups_store(struct groups_cache *c, const struct groups_key *k,
		  const uint32_t *gids, uint32_t n, int64_t now);

#endif
