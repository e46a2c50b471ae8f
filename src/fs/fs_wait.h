/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel request's wait for the server, and what ends it early: the
 * kernel's INTERRUPT (a signal to the caller), or the end of the kernel
 * connection (an unmount).  After an unmount nothing can take the answer,
 * and a request still waiting on a dead hard-mounted server would keep
 * the daemon from ever exiting: every wait is ended then, and every wait
 * begun later ends at once.
 *
 * Only the caller's death ends a wait for the server, as on a hard mount
 * of the Linux client: a fatal signal, or the caller's exit (its files
 * are closed at exit with no signal pending, and the kernel waits for
 * the answer all the same).  Any other signal leaves it waiting: a
 * local disk never fails a stat, a read or a close with EINTR because a
 * child exited or a terminal was resized, and programs take it for an
 * I/O error.  Where the caller cannot be seen (another pid namespace, a
 * /proc that hides it, a /proc of another pid namespace than ours), any
 * signal ends the wait.
 *
 * Usage: fs_wait_begin(&w, req); call(..., &w.stop); fs_wait_end(&w);
 * w lives on the caller's stack; begin and end on the same thread.
 */
#ifndef NFSFUSE_FS_WAIT_H
#define NFSFUSE_FS_WAIT_H

#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct fs_wait {
	volatile int stop;           /* the flag the RPC layer watches */
	fuse_req_t req;
	pid_t tid;                   /* the caller; 0: none, or unseen */
	volatile int intr;           /* interrupted, the caller not dying */
	uint64_t since_us;
	struct fs_wait *prev, *next; /* in the list of waits, [its lock] */
};

/* req NULL: a wait of no caller's, which only the unmount ends. */
void fs_wait_begin(struct fs_wait *w, fuse_req_t req);
void fs_wait_end(struct fs_wait *w);
/*
 * pthread_cond_wait() on cond (mu held) as w's wait: returns 0 when
 * woken (spuriously too: the caller tests its condition in a loop), or
 * -EINTR once w is to stop.  A stop does not signal cond, so the wait
 * looks at w in slices of a fraction of a second.  cond must have been
 * made by clock_cond_init() (base/clock.h).
 */
int fs_wait_cond(struct fs_wait *w, pthread_cond_t *cond,
		 pthread_mutex_t *mu);

/*
 * pthread_mutex_lock() of mu as w's wait, for a lock that may be held
 * across a wait for the server (an inode's `settle`, during a flush):
 * 0 once held, or -EINTR once w is to stop.
 */
int fs_wait_lock(struct fs_wait *w, pthread_mutex_t *mu);

/* Ends the waits whose callers are dying: from a thread that runs every
 * fraction of a second. */
void fs_waits_poll(void);

/* The kernel connection is gone: every wait ends, now and from now on. */
void fs_waits_abort(void);
/* Has fs_waits_abort() run? */
bool fs_waits_aborted(void);

#endif
