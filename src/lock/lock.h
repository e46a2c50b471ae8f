/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lock manager: NLM byte-range locks on behalf of FUSE lock owners (NLM
 * v4 on NFSv3 mounts, NLM v3 with its 32-bit ranges on NFSv2 mounts),
 * the callback listener (NLM_GRANTED, NLM_GRANTED_MSG, the statd callback),
 * STATMON (SM_MON with the local statd, or SM_STAT polling of the server),
 * reclaim after a server reboot, the client's own NSM state on stable
 * storage, and the journal that lets the next start release exactly the
 * locks of a daemon that died.
 *
 * Threads: FUSE workers call lockmgr_test/lock/unlock/release_owner; a
 * lock that must wait is handed to the wait thread, which answers it
 * later through a callback (no worker sleeps in a wait).  The
 * listener thread answers callbacks; the monitor thread polls blocked locks
 * (when no callback can arrive), watches the server's state number when no
 * statd monitors it, reclaims after a reboot and writes the status file.
 * One mutex (lockmgr.mu) guards the tables; it is never held across an RPC.
 *
 * Errors are negative errnos: -EAGAIN (conflict), -EINTR (interrupted
 * while waiting; a CANCEL was sent), -ENOLCK (the server refused or cannot
 * be reached), -EDEADLK, -ESTALE, -EIO; on NLM v3, -EINVAL for a range
 * beyond NLM_V1_OFFSET_MAX (as the Linux NFSv2 client answers).
 */
#ifndef NFSFUSE_LOCK_H
#define NFSFUSE_LOCK_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <glib.h>

#include "../../xdr/nfs3.h"
#include "../../xdr/rpc_msg.h"
#include "../rpc/addr.h"

struct lockmgr;

struct lockmgr_config {
	struct rpc_addr server;     /* the NFS server (port ignored) */
	const char *server_name;    /* as the user wrote it, for SM_MON */
	const char *caller_name;    /* our NLM caller_name and NSM name */
	const char *clientaddr;     /* source of our NLM traffic, numeric IPv4
				     * or IPv6 (the server's family); NULL */
	const char *statedir;       /* NULL: $XDG_STATE_HOME/nfsfuse/NAME */
	bool callbacks;             /* false: blocked locks always poll */
	uint32_t nfs_vers;          /* 2: NLM v3; otherwise NLM v4 */
	uint16_t nlm_port;          /* the server's NLM; 0: ask rpcbind */
};

/* On failure -1 with one line in err.  Starts the listener and monitor
 * threads: call after daemon_start(). */
int lockmgr_start(const struct lockmgr_config *cfg, struct lockmgr **out,
		  char *err, size_t errlen);
/* Releases every lock still held (UNLOCK), stops the threads. */
void lockmgr_stop(struct lockmgr *lm);

/* One lock request.  The handle is copied when the lock is kept. */
struct lock_req {
	const struct nfs_fh3 *fh;
	uint64_t ino;           /* FUSE node id, for listings and EIO */
	uint64_t owner;         /* FUSE lock owner */
	bool flock;             /* flock(2): a separate owner space */
	pid_t pid;              /* of the caller, for the svid */
	bool excl;
	uint64_t start;
	uint64_t len;           /* 0: up to end of file */
	const struct rpc_cred *cred;
};

struct lock_conflict {
	bool found;
	bool excl;
	int32_t svid;           /* the holder's, as its client named it */
	uint64_t start;
	uint64_t len;           /* 0: to end of file */
};

/* NLM_TEST: is there a conflicting lock held by someone else? */
int lockmgr_test(struct lockmgr *lm, const struct lock_req *r,
		 struct lock_conflict *c);

/* How a lock was granted. */
enum lock_grant {
	LOCK_GRANT_IMMEDIATE,  /* the first LOCK was granted */
	LOCK_GRANT_CALLBACK,   /* the server's GRANTED reached the listener */
	LOCK_GRANT_POLL,       /* a later LOCK of ours was granted */
};
const char *lockmgr_grant_name(enum lock_grant g);

/* The answer to a lock that waited: result 0 (granted, how says by what)
 * or a negative errno (-EINTR after an interrupt). */
typedef void (*lock_done_fn)(void *ctx, int result, enum lock_grant how);
struct lock_wait;

/*
 * NLM_LOCK.  Without wait, or when the server answers at once: the result
 * (0, -EAGAIN, ...), *granted_by (may be NULL) set on a grant.  When the
 * lock must wait: -EINPROGRESS and *wp.  No thread of the caller waits:
 * after lockmgr_wait_arm(*wp) the lock manager calls done(ctx, ...)
 * exactly once, on its wait thread, when the lock is granted (by the
 * server's callback, or by asking again where no callback comes) or
 * after lockmgr_wait_interrupt(*wp) (a CANCEL goes to the server and the
 * result is -EINTR).  *wp is valid until done() returns.
 */
int lockmgr_lock(struct lockmgr *lm, const struct lock_req *r, bool wait,
		 lock_done_fn done, void *ctx, struct lock_wait **wp,
		 enum lock_grant *granted_by);
void lockmgr_wait_arm(struct lockmgr *lm, struct lock_wait *w);
void lockmgr_wait_interrupt(struct lockmgr *lm, struct lock_wait *w);
/* The session ends: every waiting lock is cancelled and answered with
 * -EINTR; returns when each done() has returned. */
void lockmgr_end_waits(struct lockmgr *lm);

/* NLM_UNLOCK of the range (POSIX semantics: may split a held lock). */
int lockmgr_unlock(struct lockmgr *lm, const struct lock_req *r);

/* Does owner hold any lock on ino?  (So that close need not send UNLOCK.) */
bool lockmgr_owner_holds(struct lockmgr *lm, uint64_t ino, uint64_t owner,
			 bool flock);

/* A lock on ino was lost after a server reboot: I/O must fail with EIO
 * until the file is opened again (lockmgr_reopened clears it). */
bool lockmgr_ino_lost(struct lockmgr *lm, uint64_t ino);
void lockmgr_reopened(struct lockmgr *lm, uint64_t ino);

/* "callback (registered)", "callback (shared port)", "poll (...)". */
const char *lockmgr_mode(struct lockmgr *lm);

/* Text for `nfsfusectl stats` and `nfsfusectl MNT locks`, appended to
 * out: "key value" lines, and one line per held or waiting lock. */
void lockmgr_format_stats(struct lockmgr *lm, GString *out);
void lockmgr_format_locks(struct lockmgr *lm, GString *out);

#endif
