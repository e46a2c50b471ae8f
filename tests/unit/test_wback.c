/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Write-behind identities: every WRITE, resend and COMMIT of kept bytes
 * carries the identity of whoever wrote them, not of whoever flushes.
 * The NFS calls are replaced by a recorder; a thread answers the
 * asynchronous WRITEs, as the transport thread would.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/cache/wback.h"
#include "wback_sync.h"

#define MAX_CALLS 64

struct call {
	enum nfs3_proc proc;
	uint32_t uid;
	uint64_t offset;
	uint32_t count;
};

struct pending {
	struct pending *next;
	const struct nfs3_write_args *args;
	struct nfs3_write_res *res;
	nfs_done_fn done;
	void *ctx;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static struct call calls[MAX_CALLS];
static unsigned ncalls;
static struct pending *queue;
static bool stopping;
/* The verifier WRITE replies carry, and those COMMIT replies carry in
 * turn (a change makes wback send everything again). */
static uint8_t write_verf;
static uint8_t commit_verfs[4];
static unsigned ncommits;
/* WRITEs sent with nfs_call(): by a flusher that waits for them. */
static unsigned nsync;

static void record(enum nfs3_proc proc, const struct rpc_cred *cred,
		   uint64_t off, uint32_t count)
{
	assert_true(ncalls < MAX_CALLS);
	calls[ncalls++] = (struct call){ proc, cred->uid, off, count };
}

int nfs_call_async(struct nfs_client *c, enum nfs3_proc proc,
		   const struct rpc_cred *cred, const void *args, void *res,
		   nfs_done_fn done, void *ctx)
{
	const struct nfs3_write_args *a = args;
	struct pending *p = calloc(1, sizeof(*p));

	(void)c;
	assert_int_equal(proc, NFS3PROC_WRITE);
	assert_non_null(p);
	p->args = a;
	p->res = res;
	p->done = done;
	p->ctx = ctx;
	pthread_mutex_lock(&mu);
	record(proc, cred, a->offset, a->count);
	p->next = queue;
	queue = p;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return 0;
}

int nfs_call(struct nfs_client *c, enum nfs3_proc proc,
	     const struct rpc_cred *cred, const void *args, void *res,
	     struct rpc_reply *reply, volatile int *interrupted)
{
	struct nfs3_commit_res *r = res;

	if (proc == NFS3PROC_WRITE) {
		nsync++;
		return sync_write(c, cred, args, res);
	}

	(void)c;
	(void)args;
	(void)reply;
	(void)interrupted;
	assert_int_equal(proc, NFS3PROC_COMMIT);
	pthread_mutex_lock(&mu);
	record(proc, cred, 0, 0);
	memset(r, 0, sizeof(*r));
	r->status = NFS3_OK;
	memset(r->verf, commit_verfs[ncommits < 4 ? ncommits : 3],
	       sizeof(r->verf));
	ncommits++;
	pthread_mutex_unlock(&mu);
	return 0;
}

int nfs_stat_errno(uint32_t status)
{
	return status == NFS3_OK ? 0 : -EIO;
}

/* The transport thread: answers each queued WRITE in full, as stable as asked. */
static void *answer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	for (;;) {
		struct pending *p;
		struct rpc_reply reply = { 0 };

		while (!queue && !stopping)
			pthread_cond_wait(&cv, &mu);
		if (!queue)
			break;
		p = queue;
		queue = p->next;
		memset(p->res, 0, sizeof(*p->res));
		p->res->status = NFS3_OK;
		p->res->count = p->args->count;
		p->res->committed = p->args->stable;
		memset(p->res->verf, write_verf, sizeof(p->res->verf));
		pthread_mutex_unlock(&mu);
		p->done(p->ctx, 0, p->res, &reply);
		free(p);
		pthread_mutex_lock(&mu);
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

static pthread_t answerer;

static int setup(void **state)
{
	(void)state;
	ncalls = 0;
	ncommits = 0;
	nsync = 0;
	stopping = false;
	return pthread_create(&answerer, NULL, answer, NULL);
}

static int teardown(void **state)
{
	(void)state;
	pthread_mutex_lock(&mu);
	stopping = true;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return pthread_join(answerer, NULL);
}

static struct rpc_cred cred_of(uint32_t uid)
{
	return (struct rpc_cred){ .flavor = RPC_AUTH_SYS, .uid = uid,
				  .gid = uid };
}

static struct wback *new_wback(struct nfs_client *nc)
{
	struct nfs_fh3 fh = { .len = 4, .data = { 1, 2, 3, 4 } };

	memset(nc, 0, sizeof(*nc));
	nc->wsize = 1 << 20;
	return wback_new(nc, &fh, 64u << 20);
}

/* Two users' short writes, one after the other in one run of bytes: not
 * held back together as one WRITE under the first user's identity. */
static void test_two_writers_two_writes(void **state)
{
	struct rpc_cred a = cred_of(1001), b = cred_of(1002);
	uint8_t buf[100] = { 0 };
	struct nfs_client nc;
	struct wback *wb = new_wback(&nc);

	(void)state;
	write_verf = 7;
	commit_verfs[0] = 7;
	assert_int_equal(wback_write(wb, &a, 0, buf, sizeof(buf), 0, NULL),
			 (ssize_t)sizeof(buf));
	assert_int_equal(wback_write(wb, &b, 100, buf, sizeof(buf), 0, NULL),
			 (ssize_t)sizeof(buf));
	assert_int_equal(wback_flush(wb, NULL), 0);
	assert_int_equal(ncalls, 3);
	assert_int_equal(calls[0].proc, NFS3PROC_WRITE);
	assert_int_equal(calls[0].uid, 1001);
	assert_int_equal(calls[0].offset, 0);
	assert_int_equal(calls[1].proc, NFS3PROC_WRITE);
	assert_int_equal(calls[1].uid, 1002);
	assert_int_equal(calls[1].offset, 100);
	/* The COMMIT goes as the writer of the oldest bytes. */
	assert_int_equal(calls[2].proc, NFS3PROC_COMMIT);
	assert_int_equal(calls[2].uid, 1001);
	wback_free(wb);
}

/* One user's short writes stay one WRITE, sent by the flusher itself and
 * waited for there (it reads its own reply: no hand-over from the
 * transport thread). */
static void test_one_writer_one_write(void **state)
{
	struct rpc_cred a = cred_of(1001);
	uint8_t buf[100] = { 0 };
	struct nfs_client nc;
	struct wback *wb = new_wback(&nc);

	(void)state;
	assert_int_equal(wback_write(wb, &a, 0, buf, sizeof(buf), 0, NULL),
			 (ssize_t)sizeof(buf));
	assert_int_equal(wback_write(wb, &a, 100, buf, sizeof(buf), 0, NULL),
			 (ssize_t)sizeof(buf));
	assert_int_equal(wback_flush(wb, NULL), 0);
	assert_int_equal(ncalls, 1);
	assert_int_equal(calls[0].uid, 1001);
	assert_int_equal(calls[0].count, 200);
	assert_int_equal(nsync, 1);
	wback_free(wb);
}

/* After a verifier change every kept byte goes again, each chunk as its
 * writer; the COMMITs as the writer of the oldest. */
static void test_resend_keeps_writers(void **state)
{
	struct rpc_cred a = cred_of(1001), b = cred_of(1002);
	static uint8_t big[128 << 10];
	struct nfs_client nc;
	struct wback *wb = new_wback(&nc);

	(void)state;
	write_verf = 1;
	commit_verfs[0] = 2; /* the server restarted: resend */
	commit_verfs[1] = 1; /* the resends were answered under 1 */
	commit_verfs[2] = 1;
	assert_int_equal(wback_write(wb, &a, 0, big, sizeof(big), 0, NULL),
			 (ssize_t)sizeof(big));
	assert_int_equal(wback_write(wb, &b, sizeof(big), big, sizeof(big), 0, NULL),
			 (ssize_t)sizeof(big));
	assert_int_equal(wback_flush(wb, NULL), 0);
	assert_int_equal(ncalls, 6);
	assert_int_equal(calls[0].uid, 1001);
	assert_int_equal(calls[1].uid, 1002);
	assert_int_equal(calls[2].proc, NFS3PROC_COMMIT);
	assert_int_equal(calls[2].uid, 1001);
	assert_int_equal(calls[3].proc, NFS3PROC_WRITE);
	assert_int_equal(calls[3].uid, 1001);
	assert_int_equal(calls[3].offset, 0);
	assert_int_equal(calls[4].proc, NFS3PROC_WRITE);
	assert_int_equal(calls[4].uid, 1002);
	assert_int_equal(calls[4].offset, sizeof(big));
	assert_int_equal(calls[5].proc, NFS3PROC_COMMIT);
	assert_int_equal(calls[5].uid, 1001);
	wback_free(wb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_writers_two_writes,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_writer_one_write,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_resend_keeps_writers,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
