/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Write-behind for one file.
 *
 * Writes are gathered: one that starts inside or right at the end of the
 * run of bytes not yet sent, by the same identity, joins it, and the run
 * goes out as one WRITE when it reaches wsize, so a writer in pieces of
 * any size leaves as few full WRITEs.  The run goes early when a write
 * lands elsewhere or comes from someone else, and at every flush or wait
 * (fsync, close, a lock, a READ, attributes that must include it).
 * A WRITE is sent as UNSTABLE without waiting for
 * the reply, and kept until a COMMIT with the same write verifier proves
 * the server has it on stable storage: if the verifier changes (the server
 * restarted and may have lost what it had not committed), every kept byte
 * is sent again.  The bytes held are bounded; a writer past the bound
 * waits for replies, or commits to free what was acknowledged.
 *
 * Errors of writes whose callers have already returned are kept and given
 * to the next wback_flush(): close() and fsync() report them, as POSIX
 * expects of a cached file system.
 *
 * Each WRITE reply's wcc data is kept so that, once the writes are done,
 * the caller can tell whether the file changed only by our hand: the
 * pre-op attributes of the replies must chain, one after another, from the
 * attributes cached before the writes (wback_chain()).
 *
 * Waits for the server (a flush, a writer past the bound, a reader
 * waiting for WRITEs) end early once *stop is set (the caller's
 * interrupt, an unmount; stop may be NULL): they return -EINTR, and
 * nothing is lost or abandoned.  Bytes not sent stay gathered or kept,
 * WRITEs and COMMITs on the wire go on without their waiter and still
 * answer here, and the next flush carries on where this one stopped.
 *
 * Locking: the wback lock protects everything here; the RPC transport
 * thread takes it in the reply callback, so it is never held across a
 * blocking RPC.
 */
#ifndef NFSFUSE_CACHE_WBACK_H
#define NFSFUSE_CACHE_WBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../proto/nfs.h"

struct wback;

struct wback *wback_new(struct nfs_client *nfs, const struct nfs_fh3 *fh,
			size_t max_held);
/* The owner lets go: a call still in flight (its waiter stopped) frees
 * it when it ends.  Never waits.  Bytes not yet sent are dropped: call
 * it after a flush. */
void wback_free(struct wback *wb);

/* Send these bytes now instead of gathering them (O_DIRECT: the writer
 * asked for no cache between it and the server). */
#define WBACK_NOW 1u

/* Queue bytes at off, written by cred: every WRITE and COMMIT of them,
 * however late, carries that identity.  Returns the bytes taken: len,
 * or fewer if stopped after taking some (a short write); or a negative
 * errno if none could be taken (-EINTR: stopped). */
ssize_t wback_write(struct wback *wb, const struct rpc_cred *cred,
		    uint64_t off, const void *data, size_t len, unsigned flags,
		    volatile int *stop);
/* Send what is gathered and wait until no WRITE is in flight; *seq gets
 * the write counter (below).  0 or -EINTR. */
int wback_wait(struct wback *wb, volatile int *stop, uint64_t *seq);
/*
 * Wait for every WRITE, COMMIT what is unstable (sending it again after a
 * verifier change), and return the first error since the last flush
 * (then forgotten), or 0.  The calls carry the writers' identities, not
 * the flusher's.  -EINTR: stopped, every byte and error kept for the
 * next flush.
 */
int wback_flush(struct wback *wb, volatile int *stop);
/* The same, but an error is kept for the next wback_flush() too (and the
 * bytes with it): a flush the writer did not ask for (a delegation
 * recalled) must not eat the error its fsync or close is owed.  Waits
 * for as long as it takes. */
int wback_push(struct wback *wb);
/* Bumped when a WRITE is sent and when its reply arrives: attributes
 * fetched across a change of this counter may predate our own writes. */
uint64_t wback_seq(struct wback *wb);
bool wback_busy(struct wback *wb);

/*
 * After a flush: did the writes since the last call change the file from
 * `before` by our hand alone?  WBACK_OURS: every reply's pre-op attributes
 * chain from `before`; *after is the server's attributes after the last.
 * WBACK_OURS_ASSUMED: the server sent post-op attributes only (nfs-ganesha
 * does for WRITE and COMMIT), and they are what our writes alone would
 * leave: same file, the size `before` extended by our writes, mtime not
 * older.  As the Linux client does in that case, the change is taken as
 * ours (a write by another client in the same bytes and moment would go
 * unseen until the next open).  WBACK_FOREIGN: the chain broke, a reply
 * had no attributes, or the assumption does not hold.  WBACK_NONE: no
 * writes (then *after is untouched).  Forgets the collected replies.
 */
enum wback_chain { WBACK_NONE, WBACK_OURS, WBACK_OURS_ASSUMED, WBACK_FOREIGN };
enum wback_chain wback_chain(struct wback *wb, const struct fattr3 *before,
			     struct fattr3 *after);

#endif
