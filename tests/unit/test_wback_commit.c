/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Write-behind (src/cache/wback.c) against a fake NFS call layer: a small
 * in-memory server that keeps the file's bytes, size and times, answers
 * WRITE with wcc data (pre-op attributes or not, as the test asks), holds
 * replies until the test releases them (in any order), and answers COMMIT
 * with the verifier of the moment (one sent ahead, asynchronously, is held
 * like a WRITE and covers what the server has when it is answered); a
 * "restart" forgets what was not committed and changes the verifier.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/base/stats.h"
#include "../../src/cache/attr.h"
#include "../../src/cache/wback.h"
#include "wback_sync.h"

#define FILE_MAX (4u << 20)
#define MAX_CALLS 64

struct held_call {
	enum nfs3_proc proc;            /* WRITE, or a COMMIT sent ahead */
	struct nfs3_write_args args;    /* WRITE */
	void *res;
	nfs_done_fn done;
	void *ctx;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool hold;                  /* keep WRITE replies until released */
	bool send_pre;              /* WRITE replies carry pre-op attributes */
	uint32_t fail_status;       /* answer WRITEs with this status */
	int restart_every_commit;   /* restart before this many COMMITs */
	/* The next flusher's COMMIT finds the server restarted and waits
	 * (commit_waiting) until the test clears this. */
	bool restart_hold_commit;
	bool commit_waiting;
	struct held_call held[MAX_CALLS];
	unsigned nheld;
	uint8_t verf[NFS3_WRITEVERFSIZE];
	uint8_t data[FILE_MAX];     /* what the server has, stable or not */
	uint8_t stable[FILE_MAX];   /* what survives a restart */
	struct fattr3 attr;         /* size, mtime, ctime move per change */
	size_t uncommitted_max;     /* most unstable bytes the server held */
	size_t uncommitted;
	char log[256];              /* 'W' unstable, 'S' FILE_SYNC, 'C' commit,
				     * 'c' commit sent ahead */
	unsigned nlog;
} srv = { .lock = PTHREAD_MUTEX_INITIALIZER,
	  .cond = PTHREAD_COND_INITIALIZER };

static void srv_reset(void)
{
	pthread_mutex_lock(&srv.lock);
	srv.hold = false;
	srv.send_pre = false;
	srv.fail_status = NFS3_OK;
	srv.restart_every_commit = 0;
	srv.restart_hold_commit = srv.commit_waiting = false;
	srv.nheld = 0;
	memset(srv.verf, 0xa1, sizeof(srv.verf));
	memset(srv.data, 0, sizeof(srv.data));
	memset(srv.stable, 0, sizeof(srv.stable));
	memset(&srv.attr, 0, sizeof(srv.attr));
	srv.attr.type = NF3REG;
	srv.attr.fileid = 42;
	srv.attr.mtime.seconds = srv.attr.ctime.seconds = 1000;
	srv.uncommitted = srv.uncommitted_max = 0;
	memset(srv.log, 0, sizeof(srv.log));
	srv.nlog = 0;
	pthread_mutex_unlock(&srv.lock);
}

static void srv_log(char c)
{
	if (srv.nlog + 1 < sizeof(srv.log))
		srv.log[srv.nlog++] = c;
}

/* A change on the server: every change moves mtime and ctime. */
static void srv_touch(void)
{
	srv.attr.mtime.nseconds++;
	srv.attr.ctime.nseconds++;
}

static struct wcc_attr wcc_of(const struct fattr3 *a)
{
	struct wcc_attr w = { .size = a->size, .mtime = a->mtime,
			      .ctime = a->ctime };

	return w;
}

/* Apply one WRITE to the server (lock held) and fill its reply. */
static void srv_apply(const struct nfs3_write_args *a,
		      struct nfs3_write_res *r)
{
	memset(r, 0, sizeof(*r));
	if (srv.fail_status != NFS3_OK) {
		r->status = srv.fail_status;
		r->file_wcc.after.present = true;
		r->file_wcc.after.attr = srv.attr;
		return;
	}
	assert_true(a->offset + a->count <= FILE_MAX);
	r->file_wcc.before.present = srv.send_pre;
	r->file_wcc.before.attr = wcc_of(&srv.attr);
	memcpy(srv.data + a->offset, a->data, a->count);
	if (a->stable != UNSTABLE) {
		memcpy(srv.stable + a->offset, a->data, a->count);
	} else {
		srv.uncommitted += a->count;
		if (srv.uncommitted > srv.uncommitted_max)
			srv.uncommitted_max = srv.uncommitted;
	}
	if (a->offset + a->count > srv.attr.size)
		srv.attr.size = a->offset + a->count;
	srv_touch();
	r->file_wcc.after.present = true;
	r->file_wcc.after.attr = srv.attr;
	r->status = NFS3_OK;
	r->count = a->count;
	r->committed = a->stable == UNSTABLE ? UNSTABLE : FILE_SYNC;
	memcpy(r->verf, srv.verf, sizeof(r->verf));
}

/* The server restarts: what was not committed is gone, and so is the
 * verifier (lock held). */
static void srv_restart(void)
{
	memcpy(srv.data, srv.stable, sizeof(srv.data));
	srv.uncommitted = 0;
	srv.verf[0]++;
}

/* A COMMIT: what the server has becomes stable (lock held). */
static void srv_commit(struct nfs3_commit_res *r)
{
	if (srv.restart_every_commit > 0) {
		srv.restart_every_commit--;
		srv_restart();
	}
	memset(r, 0, sizeof(*r));
	r->status = NFS3_OK;
	r->file_wcc.before.present = srv.send_pre;
	r->file_wcc.before.attr = wcc_of(&srv.attr);
	r->file_wcc.after.present = true;
	r->file_wcc.after.attr = srv.attr;
	memcpy(srv.stable, srv.data, sizeof(srv.stable));
	srv.uncommitted = 0;
	memcpy(r->verf, srv.verf, sizeof(r->verf));
}

/* Every WRITE the server got so far: offsets and sizes, in order. */
static struct { uint64_t off; uint32_t count; } wlog[MAX_CALLS];
static unsigned nwlog;

static void wlog_reset(void)
{
	nwlog = 0;
}

/* ---- the fake call layer wback.c uses (src/proto/nfs.h) ---- */

int nfs_stat_errno(uint32_t status)
{
	switch (status) {
	case NFS3_OK: return 0;
	case NFS3ERR_NOSPC: return -ENOSPC;
	case NFS3ERR_DQUOT: return -EDQUOT;
	default: return -EIO;
	}
}

int nfs_call_async(struct nfs_client *c, enum nfs3_proc proc,
		   const struct rpc_cred *cred, const void *args, void *res,
		   nfs_done_fn done, void *ctx)
{
	const struct nfs3_write_args *a = args;
	struct held_call *h;

	(void)c;
	(void)cred;
	assert_true(proc == NFS3PROC_WRITE || proc == NFS3PROC_COMMIT);
	pthread_mutex_lock(&srv.lock);
	if (proc == NFS3PROC_COMMIT) {
		srv_log('c');
	} else {
		srv_log(a->stable == UNSTABLE ? 'W' : 'S');
		if (nwlog < MAX_CALLS) {
			wlog[nwlog].off = a->offset;
			wlog[nwlog++].count = a->count;
		}
	}
	assert_true(srv.nheld < MAX_CALLS);
	/* Answered later, by the server thread or by the test: done must
	 * not run under the caller's lock. */
	h = &srv.held[srv.nheld++];
	h->proc = proc;
	if (proc == NFS3PROC_WRITE)
		h->args = *a;
	h->res = res;
	h->done = done;
	h->ctx = ctx;
	pthread_cond_broadcast(&srv.cond);
	pthread_mutex_unlock(&srv.lock);
	return 0;
}

int nfs_call(struct nfs_client *c, enum nfs3_proc proc,
	     const struct rpc_cred *cred, const void *args, void *res,
	     struct rpc_reply *reply, volatile int *interrupted)
{
	struct nfs3_commit_res *r = res;

	if (proc == NFS3PROC_WRITE)
		return sync_write(c, cred, args, res);

	(void)c;
	(void)cred;
	(void)args;
	(void)reply;
	(void)interrupted;
	assert_int_equal(proc, NFS3PROC_COMMIT);
	pthread_mutex_lock(&srv.lock);
	if (srv.restart_hold_commit) {
		srv_restart();
		srv.commit_waiting = true;
		pthread_cond_broadcast(&srv.cond);
		while (srv.restart_hold_commit)
			pthread_cond_wait(&srv.cond, &srv.lock);
		srv.commit_waiting = false;
	}
	srv_log('C');
	srv_commit(r);
	pthread_mutex_unlock(&srv.lock);
	return 0;
}

/* ---- driving the replies ---- */

/* Apply and deliver the held call k, as the transport thread would;
 * the lock is held and is dropped around the callback. */
static void deliver_locked(unsigned k)
{
	struct held_call h = srv.held[k];

	memmove(&srv.held[k], &srv.held[k + 1],
		(srv.nheld - k - 1) * sizeof(srv.held[0]));
	srv.nheld--;
	if (h.proc == NFS3PROC_COMMIT)
		srv_commit(h.res);
	else
		srv_apply(&h.args, h.res);
	pthread_mutex_unlock(&srv.lock);
	h.done(h.ctx, 0, h.res, NULL);
	pthread_mutex_lock(&srv.lock);
}

/* In hold mode, the test answers: the k-th reply still held. */
static void srv_release(unsigned k)
{
	pthread_mutex_lock(&srv.lock);
	assert_true(k < srv.nheld);
	deliver_locked(k);
	pthread_mutex_unlock(&srv.lock);
}

/* In hold mode: answer everything held, newest first (a server may
 * answer in any order). */
static void srv_pump(void)
{
	pthread_mutex_lock(&srv.lock);
	while (srv.nheld)
		deliver_locked(srv.nheld - 1);
	pthread_mutex_unlock(&srv.lock);
}

/* Otherwise this thread answers each call in order, as soon as it is
 * made. */
static pthread_t srv_thread;
static bool srv_stop;

static void *srv_main(void *p)
{
	(void)p;
	pthread_mutex_lock(&srv.lock);
	while (!srv_stop) {
		if (!srv.hold && srv.nheld)
			deliver_locked(0);
		else
			pthread_cond_wait(&srv.cond, &srv.lock);
	}
	pthread_mutex_unlock(&srv.lock);
	return NULL;
}

static void srv_set_hold(bool on)
{
	pthread_mutex_lock(&srv.lock);
	srv.hold = on;
	pthread_cond_broadcast(&srv.cond);
	pthread_mutex_unlock(&srv.lock);
}

static int group_setup(void **state)
{
	(void)state;
	return pthread_create(&srv_thread, NULL, srv_main, NULL);
}

static int group_teardown(void **state)
{
	(void)state;
	pthread_mutex_lock(&srv.lock);
	srv_stop = true;
	pthread_cond_broadcast(&srv.cond);
	pthread_mutex_unlock(&srv.lock);
	return pthread_join(srv_thread, NULL);
}

/* Wait (bounded, generously) until n replies are held. */
static void srv_wait_held(unsigned n)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 60;
	pthread_mutex_lock(&srv.lock);
	while (srv.nheld < n) {
		int ret = pthread_cond_timedwait(&srv.cond, &srv.lock, &until);

		if (ret == ETIMEDOUT) {
			pthread_mutex_unlock(&srv.lock);
			fail_msg("no %u WRITEs in flight after 60 s", n);
		}
	}
	pthread_mutex_unlock(&srv.lock);
}

/* No more than n replies held for a while (300 ms): a call that must
 * wait did not go out.  A slow machine only makes this pass more easily
 * for a call that would wrongly go out; never fails the right one. */
static bool srv_held_stays(unsigned n)
{
	struct timespec until;
	bool stayed;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 300 * 1000 * 1000;
	if (until.tv_nsec >= 1000 * 1000 * 1000) {
		until.tv_sec++;
		until.tv_nsec -= 1000 * 1000 * 1000;
	}
	pthread_mutex_lock(&srv.lock);
	while (srv.nheld <= n &&
	       pthread_cond_timedwait(&srv.cond, &srv.lock, &until) == 0)
		;
	stayed = srv.nheld <= n;
	pthread_mutex_unlock(&srv.lock);
	return stayed;
}

/* ---- helpers ---- */

static struct nfs_client fake_nfs = { .wsize = 1u << 20 };
static const struct rpc_cred cred = { .flavor = RPC_AUTH_SYS };
static uint8_t pattern[FILE_MAX];

static struct wback *new_wb(size_t max_held)
{
	struct nfs_fh3 fh = { .len = 4, .data = { 1, 2, 3, 4 } };
	struct wback *wb = wback_new(&fake_nfs, &fh, max_held);

	assert_non_null(wb);
	return wb;
}

static int setup(void **state)
{
	(void)state;
	srv_reset();
	wlog_reset();
	for (size_t i = 0; i < sizeof(pattern); i++)
		pattern[i] = (uint8_t)(i * 131 + (i >> 9));
	return 0;
}

/* Write [off, off+len) of the pattern, in pieces of `piece`, gathered
 * or (flags WBACK_NOW) each sent as it comes. */
static void write_flags(struct wback *wb, uint64_t off, size_t len,
			size_t piece, unsigned flags)
{
	for (size_t done = 0; done < len; done += piece) {
		size_t n = len - done < piece ? len - done : piece;

		assert_int_equal(n, wback_write(wb, &cred, off + done,
						pattern + off + done, n,
						flags, NULL));
	}
}

/* The tests of commits, verifiers and wcc: each write its own WRITE. */
static void write_range(struct wback *wb, uint64_t off, size_t len,
			size_t piece)
{
	write_flags(wb, off, len, piece, WBACK_NOW);
}

/* Wait for every WRITE in flight (what a READ does first). */
static void wait_writes(struct wback *wb)
{
	uint64_t seq;

	assert_int_equal(0, wback_wait(wb, NULL, &seq));
}

/* Flush with the server thread answering (hold mode ends). */
static void flush_ok(struct wback *wb)
{
	srv_set_hold(false);
	assert_int_equal(0, wback_flush(wb, NULL));
}

/* ---- the tests ---- */

/* Large writes go out UNSTABLE at once and one COMMIT at flush makes
 * them stable; nothing is held after. */
static void test_unstable_then_commit(void **state)
{
	struct wback *wb = new_wb(64u << 20);

	(void)state;
	write_range(wb, 0, 3 * (256u << 10), 256u << 10);
	assert_string_equal("WWW", srv.log);
	assert_true(wback_busy(wb));
	flush_ok(wb);
	assert_string_equal("WWWC", srv.log);
	assert_memory_equal(srv.stable, pattern, 3 * (256u << 10));
	assert_false(wback_busy(wb));
	wback_free(wb);
}

/* A small file written in one run goes out as one FILE_SYNC WRITE at
 * flush, with no COMMIT. */
static void test_small_file_sync(void **state)
{
	struct wback *wb = new_wb(64u << 20);

	(void)state;
	write_flags(wb, 0, 5000, 1000, 0);
	assert_string_equal("", srv.log); /* held back */
	flush_ok(wb);
	assert_string_equal("S", srv.log);
	assert_memory_equal(srv.stable, pattern, 5000);
	wback_free(wb);
}

/* The server restarts between the WRITEs and the COMMIT: the COMMIT's
 * verifier differs, every uncommitted byte is sent again and committed,
 * and the server ends with all of them. */
static void test_verifier_change_resends(void **state)
{
	struct wback *wb = new_wb(64u << 20);
	uint64_t changes = STAT_GET(verifier_changes);

	(void)state;
	write_range(wb, 0, 1u << 20, 128u << 10);
	wait_writes(wb);
	pthread_mutex_lock(&srv.lock);
	srv.restart_every_commit = 1;
	pthread_mutex_unlock(&srv.lock);
	assert_int_equal(0, wback_flush(wb, NULL));
	/* 8 WRITEs, a COMMIT that saw the new verifier, the 8 again, and
	 * the COMMIT that found them all. */
	assert_string_equal("WWWWWWWWCWWWWWWWWC", srv.log);
	assert_memory_equal(srv.stable, pattern, 1u << 20);
	assert_int_equal(changes + 1, STAT_GET(verifier_changes));
	wback_free(wb);
}

/* A server that restarts at every COMMIT is given up on: flush fails
 * rather than resend forever. */
static void test_verifier_change_gives_up(void **state)
{
	struct wback *wb = new_wb(64u << 20);

	(void)state;
	write_range(wb, 0, 512u << 10, 128u << 10);
	wait_writes(wb);
	pthread_mutex_lock(&srv.lock);
	srv.restart_every_commit = 1000;
	pthread_mutex_unlock(&srv.lock);
	assert_int_equal(-EIO, wback_flush(wb, NULL));
	assert_false(wback_busy(wb));
	wback_free(wb);
}

struct writer {
	struct wback *wb;
	uint64_t off;
	size_t len;
	ssize_t ret;
	bool gathered;              /* else each write sent as it comes */
	volatile int *stop;
};

static void *writer_main(void *p)
{
	struct writer *w = p;

	w->ret = wback_write(w->wb, &cred, w->off, pattern + w->off, w->len,
			     w->gathered ? 0 : WBACK_NOW, w->stop);
	return NULL;
}

static uint8_t over_bytes[64u << 10];

static void *over_main(void *p)
{
	struct writer *w = p;

	w->ret = wback_write(w->wb, &cred, w->off, over_bytes, w->len,
			     WBACK_NOW, NULL);
	return NULL;
}

/* Two WRITEs on the wire may land in either order, so a WRITE over
 * bytes whose WRITE is unanswered waits for that answer, and only for
 * it: one elsewhere in the file goes at once, and its answer does not
 * let the waiting one go. */
static void test_overlap_waits(void **state)
{
	const size_t piece = sizeof(over_bytes);
	struct wback *wb = new_wb(64u << 20);
	struct writer w = { wb, piece / 2, piece, 0, false, NULL };
	pthread_t t;

	(void)state;
	memset(over_bytes, 0xab, sizeof(over_bytes));
	srv_set_hold(true);
	write_range(wb, 0, piece, piece);         /* A: [0, 64 KiB) */
	write_range(wb, 4 * piece, piece, piece); /* B: elsewhere */
	srv_wait_held(2);
	assert_string_equal("WW", srv.log);
	/* C: [32, 96 KiB), over A's second half. */
	assert_int_equal(0, pthread_create(&t, NULL, over_main, &w));
	assert_true(srv_held_stays(2));
	srv_release(1); /* B answered: C still waits for A */
	assert_true(srv_held_stays(1));
	srv_release(0); /* A answered: C goes */
	srv_wait_held(1);
	srv_release(0);
	assert_int_equal(0, pthread_join(t, NULL));
	assert_int_equal(piece, w.ret);
	assert_string_equal("WWW", srv.log);
	/* C's bytes over A's, as they were written. */
	assert_memory_equal(srv.data, pattern, piece / 2);
	assert_memory_equal(srv.data + piece / 2, over_bytes, piece);
	assert_memory_equal(srv.data + 4 * piece, pattern + 4 * piece, piece);
	flush_ok(wb);
	wback_free(wb);
}

/* The held bytes are bounded: a writer past the bound waits for the
 * replies and for a COMMIT of what was acknowledged before its WRITE goes
 * out, so the server never holds more unstable bytes than the bound. */
static void test_held_bytes_cap(void **state)
{
	const size_t cap = 512u << 10, piece = 256u << 10;
	struct wback *wb = new_wb(cap);
	struct writer w = { wb, 2 * piece, piece, 1, false, NULL };
	pthread_t t;

	(void)state;
	srv_set_hold(true);
	write_range(wb, 0, 2 * piece, piece); /* exactly at the bound */
	assert_int_equal(0, pthread_create(&t, NULL, writer_main, &w));
	/* The third cannot go out while two are unanswered... */
	srv_wait_held(2);
	assert_string_equal("WW", srv.log);
	/* ...once one is answered, the waiting writer commits it ahead,
	 * while the other is still on the wire... */
	srv_release(1);
	srv_wait_held(2);
	assert_string_equal("WWc", srv.log);
	srv_release(0);
	/* ...and goes out once that COMMIT has freed room, the first one
	 * committed ahead in turn (still past half the bound). */
	assert_int_equal(srv.held[0].proc, NFS3PROC_COMMIT);
	srv_release(0);
	assert_int_equal(0, pthread_join(t, NULL));
	assert_int_equal(piece, w.ret);
	assert_string_equal("WWccW", srv.log);
	assert_true(srv.uncommitted_max <= cap);
	flush_ok(wb);
	assert_memory_equal(srv.stable, pattern, 3 * piece);
	wback_free(wb);
}

/* Past half the bound, what the server acknowledged is committed ahead
 * while the writer goes on: its writes return with the COMMIT still
 * unanswered, and the COMMIT frees only what it covered. */
static void test_commit_ahead(void **state)
{
	const size_t cap = 1u << 20, piece = 256u << 10;
	struct wback *wb = new_wb(cap);

	(void)state;
	srv_set_hold(true);
	write_range(wb, 0, 2 * piece, piece);   /* half the bound */
	srv_wait_held(2);
	srv_pump();
	assert_string_equal("WW", srv.log);
	/* Past half: a COMMIT of the two goes ahead of the third WRITE,
	 * and neither that write nor the next waits for it. */
	write_range(wb, 2 * piece, 2 * piece, piece);
	assert_string_equal("WWcWW", srv.log);
	srv_wait_held(3);
	/* Answered after the WRITEs sent behind it: it covers what the
	 * server had then, but frees only the two it was sent for. */
	assert_int_equal(srv.held[0].proc, NFS3PROC_COMMIT);
	srv_release(2);
	srv_release(1);
	srv_release(0);
	assert_true(wback_busy(wb)); /* the third and fourth are kept */
	flush_ok(wb);
	assert_string_equal("WWcWWC", srv.log);
	assert_memory_equal(srv.stable, pattern, 4 * piece);
	assert_false(wback_busy(wb));
	wback_free(wb);
}

struct flusher {
	struct wback *wb;
	int ret;
	bool done;                  /* [srv.lock] */
	volatile int *stop;
};

static void *flusher_main(void *p)
{
	struct flusher *f = p;
	int ret = wback_flush(f->wb, f->stop);

	pthread_mutex_lock(&srv.lock);
	f->ret = ret;
	f->done = true;
	pthread_mutex_unlock(&srv.lock);
	return NULL;
}

/* A flush that fails may return with a COMMIT sent ahead still on the
 * wire: the owner may let go at once (wback_free() never waits: it runs
 * under the inode table's lock), and the late reply frees the rest. */
static void test_free_with_commit_ahead_on_wire(void **state)
{
	const size_t cap = 1u << 20, piece = 256u << 10;
	struct wback *wb = new_wb(cap);

	(void)state;
	srv_set_hold(true);
	write_range(wb, 0, 2 * piece, piece);
	srv_wait_held(2);
	srv_pump();
	write_range(wb, 2 * piece, piece, piece); /* past half: 'c' */
	assert_string_equal("WWcW", srv.log);
	assert_int_equal(srv.held[0].proc, NFS3PROC_COMMIT);
	/* The third WRITE fails; the COMMIT stays unanswered. */
	pthread_mutex_lock(&srv.lock);
	srv.fail_status = NFS3ERR_NOSPC;
	pthread_mutex_unlock(&srv.lock);
	srv_release(1);
	assert_int_equal(-ENOSPC, wback_flush(wb, NULL));
	assert_int_equal(1, srv.nheld);
	wback_free(wb);
	/* Answered into the orphan, which then goes (ASan and valgrind
	 * see to the rest). */
	srv_release(0);
	srv.fail_status = NFS3_OK;
}

/* Start a flush stopped by *stop on its own thread. */
static void flusher_start(struct flusher *f, pthread_t *t, struct wback *wb,
			  volatile int *stop)
{
	*f = (struct flusher){ wb, 0, false, stop };
	assert_int_equal(0, pthread_create(t, NULL, flusher_main, f));
}

/* The server restarted before a flusher's COMMIT, and another thread
 * wrote over part of the lost bytes while that COMMIT was on its way:
 * the lost bytes are sent again, but not over the newer ones, which are
 * what the file ends with (the newer WRITE, answered under the new
 * verifier, is not itself sent again otherwise). */
static void test_resend_keeps_newer_write(void **state)
{
	const size_t piece = sizeof(over_bytes);
	struct wback *wb = new_wb(64u << 20);
	struct writer w = { wb, piece / 2, piece, 0, false, NULL };
	struct flusher f;
	pthread_t t, tw;

	(void)state;
	memset(over_bytes, 0xcd, sizeof(over_bytes));
	write_range(wb, 0, piece, piece);       /* A: [0, 64 KiB) */
	wait_writes(wb);
	pthread_mutex_lock(&srv.lock);
	srv.restart_hold_commit = true;
	pthread_mutex_unlock(&srv.lock);
	flusher_start(&f, &t, wb, NULL);
	pthread_mutex_lock(&srv.lock);
	while (!srv.commit_waiting)
		pthread_cond_wait(&srv.cond, &srv.lock);
	pthread_mutex_unlock(&srv.lock);
	/* B: [32, 96 KiB), while the COMMIT is unanswered. */
	assert_int_equal(0, pthread_create(&tw, NULL, over_main, &w));
	assert_int_equal(0, pthread_join(tw, NULL));
	assert_int_equal(piece, w.ret);
	pthread_mutex_lock(&srv.lock);
	srv.restart_hold_commit = false;
	pthread_cond_broadcast(&srv.cond);
	pthread_mutex_unlock(&srv.lock);
	assert_int_equal(0, pthread_join(t, NULL));
	assert_int_equal(0, f.ret);
	assert_int_equal(0, wback_flush(wb, NULL));
	assert_memory_equal(srv.stable, pattern, piece / 2);
	assert_memory_equal(srv.stable + piece / 2, over_bytes, piece);
	wback_free(wb);
}

/* 5000 bytes gathered, a flush of them stopped while their FILE_SYNC
 * WRITE is held unanswered: the flush returns -EINTR. */
static void flush_stopped_on_held_write(struct wback *wb)
{
	volatile int stop = 0;
	struct flusher f;
	pthread_t t;

	srv_set_hold(true);
	write_flags(wb, 0, 5000, 1000, 0);
	flusher_start(&f, &t, wb, &stop);
	srv_wait_held(1);
	assert_string_equal("S", srv.log);
	stop = 1;
	assert_int_equal(0, pthread_join(t, NULL));
	assert_int_equal(-EINTR, f.ret);
}

/* A flush waiting for its WRITE is stopped (the caller interrupted, the
 * mount going): it returns -EINTR at once, and nothing is lost: the WRITE
 * goes on, answers into the write-back, and the next flush finds the
 * bytes on the server, with no second WRITE. */
static void test_flush_stopped_keeps_write(void **state)
{
	struct wback *wb = new_wb(64u << 20);

	(void)state;
	flush_stopped_on_held_write(wb);
	assert_true(wback_busy(wb));
	/* The reply comes after its waiter left. */
	srv_release(0);
	flush_ok(wb);
	assert_string_equal("S", srv.log);
	assert_memory_equal(srv.stable, pattern, 5000);
	assert_false(wback_busy(wb));
	wback_free(wb);
}

/* The same, and the owner lets go before the reply: no wait, and the
 * reply frees what is left. */
static void test_free_after_stopped_flush(void **state)
{
	struct wback *wb = new_wb(64u << 20);

	(void)state;
	flush_stopped_on_held_write(wb);
	wback_free(wb);
	srv_release(0);
	assert_memory_equal(srv.data, pattern, 5000);
}

/* A writer waiting at the bound on held bytes is stopped: a write whose
 * bytes were not taken fails with -EINTR and sends nothing; one that had
 * filled the gathered run returns short, the run kept for the flush. */
static void test_writer_stopped_at_bound(void **state)
{
	const size_t cap = 1u << 20, piece = 256u << 10;
	struct wback *wb = new_wb(cap);
	volatile int stop = 0;
	struct writer w = { wb, 4 * piece, piece, 1, false, &stop };
	pthread_t t;

	(void)state;
	srv_set_hold(true);
	write_range(wb, 0, 4 * piece, piece); /* at the bound, unanswered */
	assert_int_equal(0, pthread_create(&t, NULL, writer_main, &w));
	usleep(50 * 1000);
	stop = 1;
	assert_int_equal(0, pthread_join(t, NULL));
	assert_int_equal(-EINTR, w.ret);
	assert_string_equal("WWWW", srv.log);

	/* Gathered: the run takes all but 4 KiB, then the last 4 KiB of
	 * a write fill it, and it cannot go. */
	stop = 0;
	assert_int_equal(4 * piece - 4096,
			 wback_write(wb, &cred, 4 * piece, pattern + 4 * piece,
				     4 * piece - 4096, 0, NULL));
	w = (struct writer){ wb, 8 * piece - 4096, 8192, 1, true, &stop };
	assert_int_equal(0, pthread_create(&t, NULL, writer_main, &w));
	usleep(50 * 1000);
	stop = 1;
	assert_int_equal(0, pthread_join(t, NULL));
	assert_int_equal(4096, w.ret);
	assert_string_equal("WWWW", srv.log);
	/* Nothing was lost: the flush sends the run whole. */
	flush_ok(wb);
	assert_memory_equal(srv.stable, pattern, 8 * piece);
	assert_int_equal(8 * piece, srv.attr.size);
	wback_free(wb);
}

/* With pre-op attributes, replies that chain from the cached attributes
 * prove the change ours alone, whatever order they came back in. */
static void test_wcc_chain_ours(void **state)
{
	struct wback *wb = new_wb(64u << 20);
	struct fattr3 before, after;

	(void)state;
	srv.send_pre = true;
	srv_set_hold(true);
	before = srv.attr;
	write_range(wb, 0, 4 * (128u << 10), 128u << 10);
	srv_wait_held(4);
	/* answered out of order: 2, 0, 3, 1 (applied in that order too) */
	srv_release(2);
	srv_release(0);
	srv_release(1);
	srv_release(0);
	flush_ok(wb);
	memset(&after, 0, sizeof(after));
	assert_int_equal(WBACK_OURS, wback_chain(wb, &before, &after));
	assert_int_equal(srv.attr.size, after.size);
	assert_true(nfstime_eq(&srv.attr.ctime, &after.ctime));
	/* Forgotten once asked. */
	assert_int_equal(WBACK_NONE, wback_chain(wb, &before, &after));
	wback_free(wb);
}

/* Another client's change between two of our WRITEs breaks the chain;
 * so do cached attributes that were not the server's before ours. */
/* COMMITs in the middle of the writes (sent ahead, or at the bound)
 * change nothing: the state they saw lies on the chain, wherever their
 * replies land among the WRITEs'. */
static void test_wcc_chain_commits_between(void **state)
{
	const size_t piece = 256u << 10;
	struct wback *wb = new_wb(1u << 20);
	struct fattr3 before, after;

	(void)state;
	srv.send_pre = true;
	before = srv.attr;
	/* The server thread answers each call as it comes: COMMITs ahead
	 * and at the bound fall between the WRITEs. */
	write_range(wb, 0, 4 * piece, 256u << 10);
	write_range(wb, 4 * piece, 4 * piece, 256u << 10);
	flush_ok(wb);
	assert_non_null(strchr(srv.log, 'c'));
	memset(&after, 0, sizeof(after));
	assert_int_equal(WBACK_OURS, wback_chain(wb, &before, &after));
	assert_int_equal(srv.attr.size, after.size);
	assert_true(nfstime_eq(&srv.attr.ctime, &after.ctime));
	wback_free(wb);
}

static void test_wcc_chain_foreign(void **state)
{
	struct wback *wb = new_wb(64u << 20);
	struct fattr3 before, after, stale;

	(void)state;
	srv.send_pre = true;
	before = srv.attr;
	write_range(wb, 0, 128u << 10, 128u << 10);
	wait_writes(wb);
	pthread_mutex_lock(&srv.lock);
	srv_touch(); /* someone else */
	pthread_mutex_unlock(&srv.lock);
	write_range(wb, 128u << 10, 128u << 10, 128u << 10);
	flush_ok(wb);
	assert_int_equal(WBACK_FOREIGN, wback_chain(wb, &before, &after));

	stale = srv.attr;
	stale.mtime.seconds--;
	write_range(wb, 256u << 10, 128u << 10, 128u << 10);
	flush_ok(wb);
	assert_int_equal(WBACK_FOREIGN, wback_chain(wb, &stale, &after));

	/* A change that only the COMMIT saw, after our last WRITE: the
	 * state it reports is not on our chain. */
	before = srv.attr;
	write_range(wb, 384u << 10, 128u << 10, 128u << 10);
	wait_writes(wb);
	pthread_mutex_lock(&srv.lock);
	srv_touch(); /* someone else */
	pthread_mutex_unlock(&srv.lock);
	flush_ok(wb);
	assert_int_equal(WBACK_FOREIGN, wback_chain(wb, &before, &after));
	wback_free(wb);
}

/* Without pre-op attributes (nfs-ganesha): taken as ours when the end
 * state is what our writes alone leave, not when the file grew past
 * them. */
static void test_wcc_no_pre(void **state)
{
	struct wback *wb = new_wb(64u << 20);
	struct fattr3 before, after;

	(void)state;
	before = srv.attr;
	write_range(wb, 0, 256u << 10, 128u << 10);
	flush_ok(wb);
	assert_int_equal(WBACK_OURS_ASSUMED, wback_chain(wb, &before, &after));
	assert_int_equal(256u << 10, after.size);

	before = srv.attr;
	srv_set_hold(true);
	write_range(wb, 0, 128u << 10, 128u << 10);
	pthread_mutex_lock(&srv.lock);
	srv.attr.size += 10; /* someone appended before our WRITE */
	pthread_mutex_unlock(&srv.lock);
	srv_pump();
	flush_ok(wb);
	assert_int_equal(WBACK_FOREIGN, wback_chain(wb, &before, &after));
	wback_free(wb);
}

/* A failed WRITE is reported at the next flush (once) and fails later
 * writes at once until then. */
static void test_write_error_reported(void **state)
{
	struct wback *wb = new_wb(64u << 20);

	(void)state;
	srv.fail_status = NFS3ERR_NOSPC;
	write_range(wb, 0, 128u << 10, 128u << 10);
	wait_writes(wb);
	assert_int_equal(-ENOSPC, wback_write(wb, &cred, 1u << 20,
					      pattern, 100, 0, NULL));
	assert_int_equal(-ENOSPC, wback_flush(wb, NULL));
	srv.fail_status = NFS3_OK;
	assert_int_equal(0, wback_flush(wb, NULL));
	write_range(wb, 0, 128u << 10, 128u << 10);
	flush_ok(wb);
	wback_free(wb);
}

/* ---- gathering ---- */

/* Sequential 4 KiB writes leave as WRITEs of wsize, the last one short,
 * and the server ends with the bytes exact. */
static void test_gather_sequential(void **state)
{
	struct wback *wb = new_wb(64u << 20);
	const size_t len = 3 * (1u << 20) + 100;
	uint64_t gathered = STAT_GET(writes_gathered);

	(void)state;
	write_flags(wb, 0, len, 4096, 0);
	/* three full runs are out; the tail waits */
	assert_string_equal("WWW", srv.log);
	flush_ok(wb);
	assert_string_equal("WWWWC", srv.log);
	assert_int_equal(4, nwlog);
	for (unsigned k = 0; k < 3; k++) {
		assert_int_equal(k * (1u << 20), wlog[k].off);
		assert_int_equal(1u << 20, wlog[k].count);
	}
	assert_int_equal(3 * (1u << 20), wlog[3].off);
	assert_int_equal(100, wlog[3].count);
	assert_memory_equal(srv.stable, pattern, len);
	assert_int_equal(srv.attr.size, len);
	/* 769 writes: the first of each of the 4 runs started one */
	assert_int_equal(gathered + (len + 4095) / 4096 - 4,
			 STAT_GET(writes_gathered));
	wback_free(wb);
}

/* Pieces that do not divide wsize: still whole WRITEs of wsize, the
 * piece that crosses the boundary split between two. */
static void test_gather_odd_pieces(void **state)
{
	struct wback *wb = new_wb(64u << 20);
	const size_t len = 2 * (1u << 20) + 5000;

	(void)state;
	write_flags(wb, 0, len, 10240, 0);
	flush_ok(wb);
	assert_string_equal("WWWC", srv.log);
	assert_int_equal(1u << 20, wlog[0].count);
	assert_int_equal(1u << 20, wlog[1].off);
	assert_int_equal(1u << 20, wlog[1].count);
	assert_int_equal(5000, wlog[2].count);
	assert_memory_equal(srv.stable, pattern, len);
	wback_free(wb);
}

/* Bytes rewritten before the run left go out once, as last written. */
static void test_gather_rewrite(void **state)
{
	static uint8_t other[1000];
	struct wback *wb = new_wb(64u << 20);

	(void)state;
	memset(other, 0x5a, sizeof(other));
	write_flags(wb, 0, 8192, 4096, 0);
	assert_int_equal(sizeof(other), wback_write(wb, &cred, 100, other,
						    sizeof(other), 0, NULL));
	write_flags(wb, 8192, 4096, 4096, 0);
	flush_ok(wb);
	assert_string_equal("S", srv.log);
	assert_memory_equal(srv.stable, pattern, 100);
	assert_memory_equal(srv.stable + 100, other, sizeof(other));
	assert_memory_equal(srv.stable + 1100, pattern + 1100, 12288 - 1100);
	wback_free(wb);
}

/* A gap, another writer or a write that may not wait sends the run
 * early, in order; a wait (before a READ) sends it too. */
static void test_gather_breaks(void **state)
{
	const struct rpc_cred other = { .flavor = RPC_AUTH_SYS, .uid = 7 };
	struct wback *wb = new_wb(64u << 20);
	uint64_t early = STAT_GET(gather_early);

	(void)state;
	write_flags(wb, 0, 8192, 4096, 0);
	write_flags(wb, 16384, 4096, 4096, 0);  /* a gap: first run goes */
	assert_string_equal("W", srv.log);
	assert_int_equal(4096, wback_write(wb, &other, 20480,
					   pattern + 20480, 4096, 0, NULL));
	/* another writer */
	assert_string_equal("WW", srv.log);
	write_flags(wb, 24576, 4096, 4096, WBACK_NOW); /* O_DIRECT */
	assert_string_equal("WWWW", srv.log);
	write_flags(wb, 28672, 4096, 4096, 0);
	wait_writes(wb);
	assert_string_equal("WWWWW", srv.log);
	assert_int_equal(early + 4, STAT_GET(gather_early));
	flush_ok(wb);
	assert_string_equal("WWWWWC", srv.log);
	assert_memory_equal(srv.stable, pattern, 8192);
	assert_memory_equal(srv.stable + 16384, pattern + 16384, 16384);
	wback_free(wb);
}

/* A server error on a gathered WRITE: the writes themselves were
 * answered already, so the flush (fsync, close) reports it. */
static void test_gather_error_at_flush(void **state)
{
	struct wback *wb = new_wb(64u << 20);

	(void)state;
	srv.fail_status = NFS3ERR_DQUOT;
	write_flags(wb, 0, 64u << 10, 4096, 0);
	assert_int_equal(-EDQUOT, wback_flush(wb, NULL));
	srv.fail_status = NFS3_OK;
	assert_int_equal(0, wback_flush(wb, NULL));
	wback_free(wb);
}

/* A push (a delegation recalled) sends and commits what is gathered,
 * like a flush, but an error it meets stays for the writer's own flush:
 * reported there, once. */
static void test_push_keeps_error(void **state)
{
	struct wback *wb = new_wb(64u << 20);

	(void)state;
	write_flags(wb, 0, 5000, 1000, 0);
	assert_string_equal("", srv.log);
	assert_int_equal(0, wback_push(wb));
	assert_string_equal("S", srv.log);
	assert_memory_equal(srv.stable, pattern, 5000);
	assert_false(wback_busy(wb));
	srv.fail_status = NFS3ERR_NOSPC;
	write_flags(wb, 8192, 64u << 10, 4096, 0);
	assert_int_equal(-ENOSPC, wback_push(wb));
	srv.fail_status = NFS3_OK;
	assert_int_equal(-ENOSPC, wback_push(wb));
	assert_int_equal(-ENOSPC, wback_flush(wb, NULL));
	assert_int_equal(0, wback_flush(wb, NULL));
	wback_free(wb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_unstable_then_commit, setup),
		cmocka_unit_test_setup(test_small_file_sync, setup),
		cmocka_unit_test_setup(test_verifier_change_resends, setup),
		cmocka_unit_test_setup(test_verifier_change_gives_up, setup),
		cmocka_unit_test_setup(test_resend_keeps_newer_write, setup),
		cmocka_unit_test_setup(test_held_bytes_cap, setup),
		cmocka_unit_test_setup(test_commit_ahead, setup),
		cmocka_unit_test_setup(test_free_with_commit_ahead_on_wire,
				       setup),
		cmocka_unit_test_setup(test_flush_stopped_keeps_write, setup),
		cmocka_unit_test_setup(test_free_after_stopped_flush, setup),
		cmocka_unit_test_setup(test_writer_stopped_at_bound, setup),
		cmocka_unit_test_setup(test_wcc_chain_ours, setup),
		cmocka_unit_test_setup(test_wcc_chain_commits_between, setup),
		cmocka_unit_test_setup(test_wcc_chain_foreign, setup),
		cmocka_unit_test_setup(test_wcc_no_pre, setup),
		cmocka_unit_test_setup(test_write_error_reported, setup),
		cmocka_unit_test_setup(test_gather_sequential, setup),
		cmocka_unit_test_setup(test_gather_odd_pieces, setup),
		cmocka_unit_test_setup(test_gather_rewrite, setup),
		cmocka_unit_test_setup(test_gather_breaks, setup),
		cmocka_unit_test_setup(test_gather_error_at_flush, setup),
		cmocka_unit_test_setup(test_push_keeps_error, setup),
		cmocka_unit_test_setup(test_overlap_waits, setup),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
