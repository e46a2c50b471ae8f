/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "wback.h"

#include <errno.h>
#include <glib.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../base/clock.h"
#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "attr.h"

/* How often a batch is sent again after verifier changes before the
 * writes are reported as failed: a server that restarts that often is
 * not going to keep them. */
#define MAX_RESENDS 5
/* The first buffer of a gathered WRITE; it doubles up to wsize as the
 * run grows, so a file that gets a few bytes costs a few bytes. */
#define GATHER_FIRST (64u << 10)
/* wcc pairs remembered per batch; more writes than this between two
 * flushes simply count as "not provably ours". */
#define MAX_PAIRS 4096
/* Replies that changed nothing (COMMITs) remembered per batch. */
#define MAX_CHECKS 256
/* How often a wait that may be stopped looks at its stop flag. */
#define STOP_POLL_NS (100 * 1000 * 1000ll)

struct chunk {
	struct chunk *next;
	uint64_t order;                   /* place on the kept list */
	size_t cap;                       /* bytes data[] can hold */
	struct wback *wb;
	bool acked;                       /* WRITE answered */
	bool stable;                      /* answered FILE_SYNC */
	bool in_commit;                   /* covered by the COMMIT ahead */
	uint8_t verf[NFS3_WRITEVERFSIZE];
	/* Who wrote these bytes: their WRITE, a resend after a verifier
	 * change and the COMMIT that covers them go out as that identity,
	 * whoever happens to flush (the kernel's write-back and last
	 * release have no caller of their own). */
	struct rpc_cred cred;
	struct nfs3_write_args args;      /* args.data points at data[] */
	struct nfs3_write_res res;
	uint8_t data[];
};

struct wcc_pair {
	struct wcc_data w;
};

struct wback {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct nfs_client *nfs;
	struct nfs_fh3 fh;
	size_t max_held;

	struct chunk *head, *tail;  /* kept until committed, in send order */
	uint64_t norder;            /* chunks ever put on it */
	/* Those on the wire, unanswered, by offset (then order): a WRITE
	 * looks among them for one it overlaps (wait_overlap()), and a
	 * file written at random may have thousands on the wire. */
	GTree *unanswered;
	uint32_t longest;           /* the longest chunk ever sent */
	/* A changed verifier's resend is under way (resend()). */
	bool resending;
	/* Writes not sent yet, gathered into one run of bytes by one
	 * identity (wback.h says when it goes): when it is all the file
	 * gets before a flush, it goes as one FILE_SYNC WRITE and needs no
	 * COMMIT. */
	struct chunk *gather;
	size_t held;
	unsigned inflight;
	/* A commit is under way, one at a time: a flusher's (commit_locked)
	 * or one sent ahead (commit_ahead), whose call lives here. */
	bool committing;
	struct nfs3_commit_args ahead_args;
	struct nfs3_commit_res ahead_res;
	struct rpc_cred ahead_cred;
	uint64_t seq;
	int err;
	bool have_verf;
	uint8_t verf[NFS3_WRITEVERFSIZE];

	struct wcc_pair *pairs;
	unsigned npairs;
	/* The state each reply that changed nothing saw (a COMMIT: before
	 * and after alike): not a step of the chain, but a point it must
	 * pass through, wherever among the WRITEs' replies it landed. */
	struct wcc_attr *checks;
	unsigned nchecks;
	bool chain_unknown;         /* a reply without wcc, or too many */
	/* Replies with post-op but no pre-op attributes: how many, the
	 * newest post-op attributes among them, and where our writes since
	 * the last chain check reached (wback_chain). */
	unsigned nopre;
	struct fattr3 nopre_after;
	uint64_t batch_end;
	/* Its owner let go (wback_free) while calls were in flight: the
	 * last of them to end frees it. */
	bool orphan;
};

/* The order of the unanswered tree: by offset, then by place on the
 * kept list, so that no two chunks compare equal. */
static gint chunk_cmp(gconstpointer a, gconstpointer b)
{
	const struct chunk *x = a, *y = b;

	if (x->args.offset != y->args.offset)
		return x->args.offset < y->args.offset ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return 0;
}

struct wback *wback_new(struct nfs_client *nfs, const struct nfs_fh3 *fh,
			size_t max_held)
{
	struct wback *wb = calloc(1, sizeof(*wb));

	if (!wb)
		return NULL;
	wb->unanswered = g_tree_new(chunk_cmp);
	pthread_mutex_init(&wb->lock, NULL);
	clock_cond_init(&wb->cond);
	wb->nfs = nfs;
	wb->fh = *fh;
	wb->max_held = max_held;
	return wb;
}

static void drop_chunks(struct wback *wb)
{
	struct chunk *c, *next;

	for (c = wb->head; c; c = next) {
		next = c->next;
		wb->held -= c->args.count;
		free(c);
	}
	wb->head = wb->tail = NULL;
}

static void destroy(struct wback *wb)
{
	free(wb->gather);
	drop_chunks(wb);
	g_tree_destroy(wb->unanswered);
	free(wb->pairs);
	free(wb->checks);
	pthread_cond_destroy(&wb->cond);
	pthread_mutex_destroy(&wb->lock);
	free(wb);
}

void wback_free(struct wback *wb)
{
	bool idle;

	if (!wb)
		return;
	/* A WRITE or COMMIT whose waiter was interrupted answers into *wb,
	 * however late: the last to end frees it.  Never a wait here:
	 * inode_free() runs under the inode table's lock. */
	pthread_mutex_lock(&wb->lock);
	wb->orphan = true;
	idle = !wb->inflight && !wb->committing;
	pthread_mutex_unlock(&wb->lock);
	if (idle)
		destroy(wb);
}

/* The end of a reply callback: unlocks, and frees an orphan once nothing
 * of it is in flight. */
static void done_unlock(struct wback *wb)
{
	bool gone = wb->orphan && !wb->inflight && !wb->committing;

	pthread_mutex_unlock(&wb->lock);
	if (gone)
		destroy(wb);
}

/*
 * Wait for a change of *wb (a reply, a commit ended); the lock is held.
 * 0 when woken (spuriously too: the caller looks again), -EINTR once
 * *stop is set.  stop NULL: no end but the change.
 */
static int wait_change(struct wback *wb, volatile int *stop)
{
	struct timespec t;

	if (!stop) {
		pthread_cond_wait(&wb->cond, &wb->lock);
		return 0;
	}
	if (__atomic_load_n(stop, __ATOMIC_RELAXED))
		return -EINTR;
	t = clock_mono_deadline(STOP_POLL_NS);
	pthread_cond_timedwait(&wb->cond, &wb->lock, &t);
	return __atomic_load_n(stop, __ATOMIC_RELAXED) ? -EINTR : 0;
}

/* Is a later than b?  ctime moves with every change; size breaks a tie
 * within the server's timestamp granularity (writes only grow it). */
static bool attr_newer(const struct fattr3 *a, const struct fattr3 *b)
{
	int64_t ca = nfstime_ns(&a->ctime), cb = nfstime_ns(&b->ctime);

	return ca != cb ? ca > cb : a->size > b->size;
}

static void keep_pair(struct wback *wb, const struct wcc_data *w)
{
	if (!w->before.present && w->after.present) {
		if (!wb->nopre || attr_newer(&w->after.attr, &wb->nopre_after))
			wb->nopre_after = w->after.attr;
		wb->nopre++;
		return;
	}
	if (w->before.present && w->after.present &&
	    wcc_attr_is(&w->before.attr, &w->after.attr)) {
		if (!wb->checks)
			wb->checks = calloc(MAX_CHECKS, sizeof(*wb->checks));
		if (!wb->checks || wb->nchecks >= MAX_CHECKS)
			wb->chain_unknown = true;
		else
			wb->checks[wb->nchecks++] = w->before.attr;
		return;
	}
	if (!w->before.present || !w->after.present ||
	    wb->npairs >= MAX_PAIRS) {
		wb->chain_unknown = true;
		return;
	}
	if (!wb->pairs) {
		wb->pairs = calloc(MAX_PAIRS, sizeof(*wb->pairs));
		if (!wb->pairs) {
			wb->chain_unknown = true;
			return;
		}
	}
	wb->pairs[wb->npairs++].w = *w;
}

/* Its WRITE was answered, or never went: off the wire. */
static void chunk_answered(struct wback *wb, struct chunk *c)
{
	if (c->acked)
		return;
	c->acked = true;
	g_tree_remove(wb->unanswered, c);
	wb->inflight--;
}

/* Runs on the RPC transport thread: must not block. */
static void write_done(void *ctx, int err, void *res, struct rpc_reply *reply)
{
	struct chunk *c = ctx;
	struct wback *wb = c->wb;
	struct nfs3_write_res *r = res;

	rpc_reply_release(reply);
	pthread_mutex_lock(&wb->lock);
	if (err == 0 && r->status != NFS3_OK)
		err = nfs_stat_errno(r->status);
	if (err == 0 && r->count != c->args.count) {
		/* A short WRITE is legal but no server here does it; sending
		 * the rest from this thread could block, so report it. */
		nf_log(NF_LOG_WARNING, "server wrote %u of %u bytes",
		       r->count, c->args.count);
		err = -EIO;
	}
	if (err == 0 || r->file_wcc.after.present)
		keep_pair(wb, &r->file_wcc);
	/* Answered either way: nothing need wait for it any longer. */
	chunk_answered(wb, c);
	if (err) {
		if (!wb->err)
			wb->err = err;
	} else {
		c->stable = r->committed == FILE_SYNC;
		memcpy(c->verf, r->verf, sizeof(c->verf));
		if (wb->have_verf && memcmp(wb->verf, r->verf, sizeof(r->verf)))
			TRACE("write verifier changed on a WRITE reply");
		memcpy(wb->verf, r->verf, sizeof(wb->verf));
		wb->have_verf = true;
	}
	wb->seq++;
	pthread_cond_broadcast(&wb->cond);
	done_unlock(wb);
}

/* A kept chunk goes on the wire: unanswered, in flight. */
static void chunk_leaves(struct wback *wb, struct chunk *c)
{
	c->acked = false;
	g_tree_insert(wb->unanswered, c, c);
	if (c->args.count > wb->longest)
		wb->longest = c->args.count;
	wb->inflight++;
	wb->seq++;
	STAT_INC(writebacks);
	STAT_ADD(writeback_bytes, c->args.count);
}

/* Send one kept chunk; the lock is held. */
static int send_chunk(struct wback *wb, struct chunk *c)
{
	int ret;

	chunk_leaves(wb, c);
	ret = nfs_call_async(wb->nfs, NFS3PROC_WRITE, &c->cred, &c->args,
			     &c->res, write_done, c);
	if (ret)
		chunk_answered(wb, c);
	return ret;
}

static int commit_locked(struct wback *wb, volatile int *stop);

static bool overlaps(const struct chunk *c, uint64_t off, uint64_t len)
{
	return c->args.offset < off + len && off < c->args.offset + c->args.count;
}

/*
 * A server may run two WRITEs in flight at once in either order: if they
 * overlap, the older bytes could land last and stay.  So a WRITE waits
 * until no earlier unanswered one overlaps it (up to `until`, exclusive,
 * for a chunk sent again; NULL for a new WRITE, which also waits while
 * chunks are sent again).  The lock is held; 0, or -EINTR
 * (wait_change()).
 */
static bool any_overlap(struct wback *wb, uint64_t off, uint64_t len,
			const struct chunk *until)
{
	/* No chunk is longer than the longest sent: one that overlaps
	 * starts after off - longest, and the search starts there. */
	struct chunk from = { .order = 0 };
	GTreeNode *n;

	from.args.offset = off >= wb->longest ? off - wb->longest + 1 : 0;
	for (n = g_tree_lower_bound(wb->unanswered, &from); n;
	     n = g_tree_node_next(n)) {
		const struct chunk *c = g_tree_node_key(n);

		if (c->args.offset >= off + len)
			return false;
		if ((!until || c->order < until->order) &&
		    overlaps(c, off, len))
			return true;
	}
	return false;
}

static int wait_overlap(struct wback *wb, uint64_t off, uint64_t len,
			const struct chunk *until, volatile int *stop)
{
	for (;;) {
		int ret;

		if ((until || !wb->resending) &&
		    !any_overlap(wb, off, len, until))
			return 0;
		if ((ret = wait_change(wb, stop)))
			return ret;
	}
}

static bool cred_same(const struct rpc_cred *a, const struct rpc_cred *b)
{
	return a->flavor == b->flavor && a->uid == b->uid &&
	       a->gid == b->gid && a->ngids == b->ngids &&
	       !memcmp(a->gids, b->gids, a->ngids * sizeof(a->gids[0]));
}

/*
 * Send a kept chunk and wait for its answer, the lock dropped meanwhile:
 * for a sender that would only wait for it.  The calling thread then
 * reads the reply itself (rpc.c's leader) instead of the transport
 * thread reading it and waking the caller: a context switch less per
 * flush of a small file.  The answer goes through write_done(), as an
 * asynchronous one would; and if the sender is stopped first (-EINTR),
 * the WRITE goes on as an asynchronous one, not abandoned: it is still
 * in flight for every later WRITE that must not overtake it.
 */
static int send_chunk_wait(struct wback *wb, struct chunk *c,
			   volatile int *stop)
{
	int ret;

	chunk_leaves(wb, c);
	memset(&c->res, 0, sizeof(c->res));
	pthread_mutex_unlock(&wb->lock);
	if (stop)
		ret = nfs_call_detach(wb->nfs, NFS3PROC_WRITE, &c->cred,
				      &c->args, &c->res, stop, write_done, c);
	else
		ret = nfs_call(wb->nfs, NFS3PROC_WRITE, &c->cred, &c->args,
			       &c->res, NULL, NULL);
	if (ret != -EINPROGRESS)
		write_done(c, ret, &c->res, NULL);
	pthread_mutex_lock(&wb->lock);
	return ret == -EINPROGRESS ? -EINTR : 0;
}

/* Runs on the RPC transport thread: must not block.  A COMMIT sent
 * ahead frees the chunks it covered that the server acknowledged under
 * the verifier it answers with; the others stay for the flusher's
 * COMMIT, which sends them again if the verifier changed, or meets the
 * error again if the COMMIT failed. */
static void commit_done(void *ctx, int err, void *res, struct rpc_reply *reply)
{
	struct wback *wb = ctx;
	struct nfs3_commit_res *r = res;
	struct chunk *c, *prev = NULL, *next;
	size_t freed = 0;

	rpc_reply_release(reply);
	pthread_mutex_lock(&wb->lock);
	if (err == 0 && r->status != NFS3_OK)
		err = nfs_stat_errno(r->status);
	if (err == 0)
		keep_pair(wb, &r->file_wcc);
	for (c = wb->head; c; c = next) {
		bool done = c->in_commit && err == 0 &&
			    !memcmp(c->verf, r->verf, sizeof(r->verf));

		next = c->next;
		c->in_commit = false;
		if (!done) {
			prev = c;
			continue;
		}
		if (prev)
			prev->next = next;
		else
			wb->head = next;
		wb->held -= c->args.count;
		freed += c->args.count;
		free(c);
	}
	wb->tail = prev;
	if (err == 0) {
		if (wb->have_verf && memcmp(wb->verf, r->verf, sizeof(r->verf)))
			TRACE("write verifier changed on a COMMIT sent ahead: "
			      "%zu bytes wait to be sent again", wb->held);
		memcpy(wb->verf, r->verf, sizeof(wb->verf));
		wb->have_verf = true;
	}
	TRACE("commit ahead: %zu bytes stable, %zu held", freed, wb->held);
	wb->committing = false;
	pthread_cond_broadcast(&wb->cond);
	done_unlock(wb);
}

/*
 * Past half the bound on held bytes, what the server has acknowledged is
 * committed ahead, without waiting: the writer goes on meanwhile, rather
 * than meet the bound, wait for its WRITEs to drain and then for the
 * COMMIT (tens of ms for 64 MiB), as the Linux client's writers do not
 * wait for its COMMITs.  Only chunks acknowledged under the verifier we
 * know go with it: after a change, commit_locked() sends them again.  It
 * goes out as the writer of the oldest bytes it covers.  The lock is
 * held; a COMMIT that cannot be sent is left to the flusher.
 */
static void commit_ahead(struct wback *wb, size_t adding)
{
	struct chunk *c, *first = NULL;

	if (wb->committing || wb->err || !wb->have_verf ||
	    wb->held + adding <= wb->max_held / 2)
		return;
	for (c = wb->head; c; c = c->next) {
		if (!c->acked || c->stable ||
		    memcmp(c->verf, wb->verf, sizeof(wb->verf)))
			continue;
		c->in_commit = true;
		if (!first)
			first = c;
	}
	if (!first)
		return;
	memset(&wb->ahead_args, 0, sizeof(wb->ahead_args));
	wb->ahead_args.file = wb->fh;
	wb->ahead_cred = first->cred;
	wb->committing = true;
	STAT_INC(commits);
	if (nfs_call_async(wb->nfs, NFS3PROC_COMMIT, &wb->ahead_cred,
			   &wb->ahead_args, &wb->ahead_res, commit_done, wb)) {
		for (c = wb->head; c; c = c->next)
			c->in_commit = false;
		wb->committing = false;
		pthread_cond_broadcast(&wb->cond);
	}
}

/*
 * Make room for a WRITE of len bytes at off: past half the bound on held
 * bytes, commit ahead what the server acknowledged; past the bound, wait
 * for that COMMIT or for replies, or commit and wait; then wait until no
 * unanswered WRITE overlaps it.  The lock is held, and dropped while
 * waiting.  0: the WRITE may go now, before the lock is dropped again;
 * -EINTR: stopped; or the error of a COMMIT (kept for the next flush).
 */
static int make_room(struct wback *wb, uint64_t off, size_t len, bool wait,
		     volatile int *stop)
{
	int ret;

	/* A caller that waits is about to commit everything (or to read):
	 * a COMMIT ahead of its own would be one round trip more. */
	if (!wait)
		commit_ahead(wb, len);
	while (wb->held + len > wb->max_held && wb->head) {
		if (wb->inflight == 0 && !wb->committing) {
			ret = commit_locked(wb, stop);
			if (ret) {
				if (ret != -EINTR && !wb->err)
					wb->err = ret;
				return ret;
			}
			if (wb->head)
				break; /* could not free anything */
		} else {
			if ((ret = wait_change(wb, stop)))
				return ret;
			commit_ahead(wb, len);
		}
	}
	return wait_overlap(wb, off, len, NULL, stop);
}

/*
 * Put a chunk on the wire and on the kept list, once make_room() said it
 * may go.  The lock is held.  On error the chunk is freed.  With wait (a
 * caller about to wait for every WRITE), a chunk that would be alone in
 * flight is sent synchronously (send_chunk_wait(): -EINTR when stopped,
 * the chunk then in flight and kept).
 */
static int queue_chunk(struct wback *wb, struct chunk *c, bool wait,
		       volatile int *stop)
{
	int ret;

	c->order = ++wb->norder;
	wait = wait && !wb->inflight;
	if (!wait) {
		ret = send_chunk(wb, c);
		if (ret) {
			free(c);
			return ret;
		}
	}
	if (wb->tail)
		wb->tail->next = c;
	else
		wb->head = c;
	wb->tail = c;
	wb->held += c->args.count;
	/* Kept before it goes: a WRITE of another thread meanwhile must
	 * find it to wait for (wait_overlap()). */
	if (wait)
		return send_chunk_wait(wb, c, stop);
	return 0;
}

/* push_gather()'s stable: FILE_SYNC if the run is all there is to send,
 * else UNSTABLE. */
#define STABLE_IF_ALONE UINT32_MAX

/*
 * Send the gathered run as one WRITE; the lock is held.  The run stays
 * gathered (writes may still join it) while it waits for room, so a
 * stopped wait (-EINTR) leaves it where it was, for the next flush.  An
 * error is also kept for the next flush: the writes it holds were
 * answered already.
 */
static int push_gather(struct wback *wb, uint32_t stable, bool wait,
		       const char *why, volatile int *stop)
{
	struct chunk *c;
	int ret;

	for (;;) {
		uint64_t off;
		uint32_t count;

		if (!(c = wb->gather))
			return 0;
		off = c->args.offset;
		count = c->args.count;
		ret = make_room(wb, off, count, wait, stop);
		if (ret == -EINTR)
			return ret;
		if (ret) {
			free(wb->gather);
			wb->gather = NULL;
			return ret;
		}
		/* The same run as the room was made for, or look again. */
		if (wb->gather == c && c->args.offset == off &&
		    c->args.count == count)
			break;
	}
	wb->gather = NULL;
	if (stable == STABLE_IF_ALONE)
		stable = wb->head || wb->inflight ? UNSTABLE : FILE_SYNC;
	c->args.stable = stable;
	if (c->args.count < wb->nfs->wsize) {
		STAT_INC(gather_early);
		TRACE("write-back: %u gathered bytes at %llu sent before "
		      "wsize: %s", c->args.count,
		      (unsigned long long)c->args.offset, why);
	}
	ret = queue_chunk(wb, c, wait, stop);
	if (ret && ret != -EINTR && !wb->err)
		wb->err = ret;
	return ret;
}

/* Room for need bytes in the gathered chunk, which may move. */
static bool gather_room(struct wback *wb, size_t need)
{
	struct chunk *c = wb->gather, *n;
	size_t cap = c->cap;

	if (need <= cap)
		return true;
	while (cap < need)
		cap *= 2;
	if (cap > wb->nfs->wsize)
		cap = wb->nfs->wsize;
	n = realloc(c, sizeof(*c) + cap);
	if (!n)
		return false;
	n->cap = cap;
	n->args.data = n->data;
	wb->gather = n;
	return true;
}

/* A new gathered run starting at off; the lock is held. */
static struct chunk *gather_new(struct wback *wb, const struct rpc_cred *cred,
				uint64_t off, size_t len)
{
	size_t wsize = wb->nfs->wsize;
	size_t cap = GATHER_FIRST < wsize ? GATHER_FIRST : wsize;
	struct chunk *g;

	while (cap < len)
		cap *= 2;
	if (cap > wsize)
		cap = wsize;
	g = malloc(sizeof(*g) + cap);
	if (!g)
		return NULL;
	memset(g, 0, sizeof(*g));
	g->wb = wb;
	g->cap = cap;
	g->args.file = wb->fh;
	g->args.offset = off;
	g->args.data = g->data;
	g->cred = *cred;
	wb->gather = g;
	return g;
}

/* Does a write at off by cred join the run g? */
static bool gather_joins(const struct chunk *g, const struct rpc_cred *cred,
			 uint64_t off, size_t wsize)
{
	return off >= g->args.offset &&
	       off <= g->args.offset + g->args.count &&
	       off < g->args.offset + wsize && cred_same(&g->cred, cred);
}

/*
 * Add a write to the gathered run: it joins when it starts inside the
 * run or right at its end (sequential, or rewriting bytes not yet sent)
 * and comes from the same identity.  The run goes out when it reaches
 * wsize, and what did not fit starts the next, so the WRITEs stay whole
 * and aligned to the first.  A write that does not join sends the run
 * and starts the next one.  The lock is held.  Returns the bytes taken:
 * all of them, or fewer when a wait to send a run was stopped; 0 when
 * they are a whole WRITE of their own; or a negative errno (-EINTR:
 * stopped before any was taken).
 */
static ssize_t gather(struct wback *wb, const struct rpc_cred *cred,
		      uint64_t off, const void *data, size_t len,
		      volatile int *stop)
{
	const uint8_t *p = data;
	size_t wsize = wb->nfs->wsize, taken = 0;
	int ret;

	while (len) {
		struct chunk *g = wb->gather;
		uint64_t end;
		size_t take;

		if (g && !gather_joins(g, cred, off, wsize)) {
			ret = push_gather(wb, UNSTABLE, false,
					  "not next to the run", stop);
			if (ret)
				return taken ? (ssize_t)taken : ret;
			continue;
		}
		if (!g) {
			/* Only the first piece can be this large. */
			if (len >= wsize)
				return 0;
			if (!(g = gather_new(wb, cred, off, len)))
				return taken ? (ssize_t)taken : -ENOMEM;
		} else {
			STAT_INC(writes_gathered);
		}
		take = g->args.offset + wsize - off;
		if (take > len)
			take = len;
		end = off + take - g->args.offset;
		if (!gather_room(wb, end))
			return taken ? (ssize_t)taken : -ENOMEM;
		g = wb->gather;
		memcpy(g->data + (off - g->args.offset), p, take);
		if (end > g->args.count)
			g->args.count = (uint32_t)end;
		/* Attributes fetched from now on may lack these bytes. */
		wb->seq++;
		off += take;
		p += take;
		len -= take;
		taken += take;
		if (g->args.count >= wsize &&
		    (ret = push_gather(wb, UNSTABLE, false, "full", stop)))
			/* Taken all the same: the full run stays gathered
			 * when the wait was stopped. */
			return ret == -EINTR ? (ssize_t)taken : ret;
	}
	return (ssize_t)taken;
}

ssize_t wback_write(struct wback *wb, const struct rpc_cred *cred,
		    uint64_t off, const void *data, size_t len, unsigned flags,
		    volatile int *stop)
{
	struct chunk *c;
	ssize_t ret;

	if (!len)
		return 0;
	pthread_mutex_lock(&wb->lock);
	/* An earlier write already failed (a soft mount that timed out, a
	 * full disk): fail this one now rather than queue behind it; the
	 * error also stays for close and fsync. */
	if (wb->err) {
		ret = wb->err;
		goto out;
	}
	if (flags & WBACK_NOW) {
		ret = push_gather(wb, UNSTABLE, false,
				  "a write that may not wait", stop);
		if (ret)
			goto out;
	} else {
		ret = gather(wb, cred, off, data, len, stop);
		if (ret)
			goto out;
	}
	ret = make_room(wb, off, len, false, stop);
	if (ret)
		goto out;
	c = malloc(sizeof(*c) + len);
	if (!c) {
		ret = -ENOMEM;
		goto out;
	}
	memset(c, 0, sizeof(*c));
	c->wb = wb;
	c->cap = len;
	memcpy(c->data, data, len);
	c->args.file = wb->fh;
	c->args.offset = off;
	c->args.count = (uint32_t)len;
	c->args.stable = UNSTABLE;
	c->args.data = c->data;
	c->cred = *cred;
	/* Refused before it left (e.g. past NFSv2's 2 GiB): the writer
	 * hears it now, and nobody needs to hear it again. */
	ret = queue_chunk(wb, c, false, stop);
	if (ret == 0)
		ret = (ssize_t)len;
out:
	if (ret > 0 && off + (uint64_t)ret > wb->batch_end)
		wb->batch_end = off + (uint64_t)ret;
	pthread_mutex_unlock(&wb->lock);
	return ret;
}

static int wait_idle(struct wback *wb, volatile int *stop)
{
	int ret;

	while (wb->inflight)
		if ((ret = wait_change(wb, stop)))
			return ret;
	return 0;
}

int wback_wait(struct wback *wb, volatile int *stop, uint64_t *seq)
{
	int ret;

	pthread_mutex_lock(&wb->lock);
	/* Whoever waits is about to read from the server: it must find the
	 * held bytes there. */
	ret = push_gather(wb, UNSTABLE, true, "read or attributes wanted",
			  stop);
	if (ret != -EINTR)
		ret = wait_idle(wb, stop);
	*seq = wb->seq;
	pthread_mutex_unlock(&wb->lock);
	return ret;
}

uint64_t wback_seq(struct wback *wb)
{
	uint64_t seq;

	pthread_mutex_lock(&wb->lock);
	seq = wb->seq;
	pthread_mutex_unlock(&wb->lock);
	return seq;
}

bool wback_busy(struct wback *wb)
{
	bool busy;

	pthread_mutex_lock(&wb->lock);
	busy = wb->inflight || wb->head || wb->gather;
	pthread_mutex_unlock(&wb->lock);
	return busy;
}

/*
 * COMMIT everything kept; the lock is held.  The
 * COMMIT itself is a blocking call, so the lock is dropped around it; new
 * writes that arrive meanwhile are not freed by this commit.  It goes out
 * as the writer of the oldest kept bytes: a COMMIT covers the whole file,
 * and a writer is someone the server lets change it.
 */
static int commit_rounds(struct wback *wb, volatile int *stop);

static int commit_locked(struct wback *wb, volatile int *stop)
{
	int ret;

	/* One commit at a time: a second flusher waits for the first (or
	 * for the COMMIT sent ahead) and then commits whatever is left. */
	while (wb->committing || wb->inflight)
		if ((ret = wait_change(wb, stop)))
			return ret;
	if (!wb->head)
		return 0;
	wb->committing = true;
	ret = commit_rounds(wb, stop);
	/* A COMMIT that went on without its waiter ends in commit_done(),
	 * which ends the commit. */
	if (ret == -EINPROGRESS)
		return -EINTR;
	wb->committing = false;
	pthread_cond_broadcast(&wb->cond);
	return ret;
}

/*
 * After a changed verifier, every kept chunk goes again, in the order of
 * the first time: those written while the COMMIT was on its way too,
 * since an older chunk sent again after a newer one over the same bytes
 * would undo it.  No new WRITE goes out meanwhile (wait_overlap()), for
 * the same reason.  A stop in here leaves chunks acknowledged under the
 * old verifier: the next flush's COMMIT finds them and sends every chunk
 * again.  The lock is held; 0, -EINTR, or the first error.
 */
static int resend(struct wback *wb, volatile int *stop)
{
	struct chunk *c;
	int ret;

	if ((ret = wait_idle(wb, stop)))
		return ret;
	for (c = wb->head; c; c = c->next)
		c->stable = false;
	for (c = wb->head; c; c = c->next) {
		if ((ret = wait_overlap(wb, c->args.offset, c->args.count, c,
					stop)))
			return ret;
		ret = send_chunk(wb, c);
		if (ret) {
			if (!wb->err)
				wb->err = ret;
			break;
		}
	}
	if ((ret = wait_idle(wb, stop)))
		return ret;
	return wb->err;
}

/* commit_locked()'s COMMIT, and the resends after a changed verifier.
 * -EINPROGRESS: stopped, the COMMIT still on the wire. */
static int commit_rounds(struct wback *wb, volatile int *stop)
{
	for (int round = 0; round <= MAX_RESENDS; round++) {
		struct nfs3_commit_res *res = &wb->ahead_res;
		struct chunk *c, *last, *stop_at;
		bool need = false, changed = false;
		int ret;

		for (c = wb->head; c; c = c->next)
			need |= !c->stable;
		if (!need) {
			drop_chunks(wb);
			return 0;
		}
		last = wb->tail;
		/* In *wb, not on the stack: if the waiter is stopped, the
		 * COMMIT goes on and answers there (commit_done(), which then
		 * frees nothing: no chunk is in_commit). */
		memset(&wb->ahead_args, 0, sizeof(wb->ahead_args));
		wb->ahead_args.file = wb->fh;
		wb->ahead_cred = wb->head->cred;
		pthread_mutex_unlock(&wb->lock);
		STAT_INC(commits);
		if (stop)
			ret = nfs_call_detach(wb->nfs, NFS3PROC_COMMIT,
					      &wb->ahead_cred, &wb->ahead_args,
					      res, stop, commit_done, wb);
		else
			ret = nfs_call(wb->nfs, NFS3PROC_COMMIT,
				       &wb->ahead_cred, &wb->ahead_args, res,
				       NULL, NULL);
		pthread_mutex_lock(&wb->lock);
		if (ret == -EINPROGRESS)
			return ret;
		/* Writes queued while we waited stay for the next COMMIT. */
		stop_at = last->next;
		if (ret == 0 && res->status != NFS3_OK)
			ret = nfs_stat_errno(res->status);
		if (ret)
			return ret;
		keep_pair(wb, &res->file_wcc);
		/* Chunks acknowledged under another verifier may be gone. */
		for (c = wb->head; c != stop_at; c = c->next)
			if (!c->stable &&
			    memcmp(c->verf, res->verf, sizeof(res->verf)))
				changed = true;
		memcpy(wb->verf, res->verf, sizeof(wb->verf));
		wb->have_verf = true;
		if (!changed) {
			/* Free what this COMMIT covered. */
			while (wb->head && wb->head != stop_at) {
				c = wb->head;
				wb->head = c->next;
				wb->held -= c->args.count;
				free(c);
			}
			if (!wb->head)
				wb->tail = NULL;
			return 0;
		}
		STAT_INC(verifier_changes);
		nf_log(NF_LOG_WARNING, "server restarted (write verifier "
		       "changed): sending %zu uncommitted bytes again",
		       wb->held);
		TRACE("commit: verifier changed → resend %zu bytes", wb->held);
		wb->chain_unknown = true;
		wb->resending = true;
		ret = resend(wb, stop);
		wb->resending = false;
		pthread_cond_broadcast(&wb->cond);
		if (ret)
			return ret;
	}
	return -EIO;
}

/* Every byte to the server and committed; the lock is held.  The first
 * error since the last flush, or 0; -EINTR when stopped, with every byte
 * still kept (or on the wire) for the next flush. */
static int send_all(struct wback *wb, const char *why, volatile int *stop)
{
	int ret;

	/* A file written in one run of at most wsize: one FILE_SYNC WRITE
	 * and no COMMIT saves the round trip at close. */
	if (wb->gather &&
	    push_gather(wb, STABLE_IF_ALONE, true, why, stop) == -EINTR)
		return -EINTR;
	if ((ret = wait_idle(wb, stop)))
		return ret;
	if (wb->err)
		return wb->err;
	/* A COMMIT sent ahead may still be on the wire when this returns:
	 * it answers into *wb, which outlives its owner for it
	 * (wback_free()). */
	return wb->head ? commit_locked(wb, stop) : 0;
}

int wback_flush(struct wback *wb, volatile int *stop)
{
	int ret;

	pthread_mutex_lock(&wb->lock);
	ret = send_all(wb, "flush", stop);
	if (ret != -EINTR) {
		if (ret)
			drop_chunks(wb); /* reported once; keeping them
					  * helps nobody */
		wb->err = 0;
	}
	pthread_mutex_unlock(&wb->lock);
	return ret;
}

int wback_push(struct wback *wb)
{
	int ret;

	pthread_mutex_lock(&wb->lock);
	ret = send_all(wb, "push", NULL);
	if (ret && !wb->err)
		wb->err = ret;
	pthread_mutex_unlock(&wb->lock);
	return ret;
}

/* Of the first n checkpoints, take off those the chain passes at cur;
 * how many are left. */
static unsigned pass_checks(struct wcc_attr *checks, unsigned n,
			    const struct fattr3 *cur)
{
	for (unsigned k = 0; k < n;) {
		if (wcc_attr_is(&checks[k], cur))
			checks[k] = checks[--n];
		else
			k++;
	}
	return n;
}

enum wback_chain wback_chain(struct wback *wb, const struct fattr3 *before,
			     struct fattr3 *after)
{
	enum wback_chain ret = WBACK_FOREIGN;
	struct fattr3 cur = *before;
	unsigned left, unchecked;

	pthread_mutex_lock(&wb->lock);
	unchecked = pass_checks(wb->checks, wb->nchecks, &cur);
	if (wb->npairs == 0 && wb->nopre == 0 && !wb->chain_unknown) {
		if (!unchecked)
			ret = WBACK_NONE;
		goto out;
	}
	if (wb->chain_unknown)
		goto out;
	if (wb->nopre) {
		const struct fattr3 *a = &wb->nopre_after;
		uint64_t size = before->size > wb->batch_end ? before->size
							     : wb->batch_end;

		/* No pre-op attributes to chain: only replies of that kind,
		 * and their end state must be what our writes would leave. */
		if (wb->npairs == 0 && a->fileid == before->fileid &&
		    a->type == before->type && a->size == size &&
		    nfstime_ns(&a->mtime) >= nfstime_ns(&before->mtime)) {
			*after = *a;
			ret = WBACK_OURS_ASSUMED;
		}
		goto out;
	}
	/* Replies may arrive in any order: follow the chain by matching
	 * each step's pre-op attributes to where the last one left off,
	 * and see it pass every state a COMMIT saw. */
	for (left = wb->npairs; left; left--) {
		unsigned i;

		for (i = 0; i < left; i++)
			if (wcc_attr_is(&wb->pairs[i].w.before.attr, &cur))
				break;
		if (i == left)
			goto out;
		cur = wb->pairs[i].w.after.attr;
		wb->pairs[i] = wb->pairs[left - 1];
		unchecked = pass_checks(wb->checks, unchecked, &cur);
	}
	if (unchecked)
		goto out;
	*after = cur;
	ret = WBACK_OURS;
out:
	wb->npairs = 0;
	wb->nchecks = 0;
	wb->nopre = 0;
	wb->batch_end = 0;
	wb->chain_unknown = false;
	pthread_mutex_unlock(&wb->lock);
	return ret;
}
