/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NFSv4.1 open-state table (src/proto/nfs4_open.c): one entry per
 * (file handle, uid) shared by that user's opens with counts by share
 * access; OPEN_DOWNGRADE when the union of the opens left shrinks, CLOSE
 * at the last release; the newest stateid kept; failed OPENs leave
 * nothing; users apart; the walk sees every open held; a CLOSE on the
 * wire holds back a new OPEN of the same entry, which then starts a new
 * one.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/proto/nfs4_open.h"

#define R NFS4_SHARE_ACCESS_READ
#define W NFS4_SHARE_ACCESS_WRITE
#define RW NFS4_SHARE_ACCESS_BOTH

static struct nfs_fh3 fh_of(uint8_t b)
{
	struct nfs_fh3 fh = { .len = 8 };

	memset(fh.data, b, fh.len);
	return fh;
}

static struct nfs4_stateid sid_of(uint32_t seq, uint8_t other)
{
	struct nfs4_stateid s = { .seqid = seq };

	memset(s.other, other, sizeof(s.other));
	return s;
}

/* An OPEN that the server answered with sid. */
static struct nfs4_open *opened(struct nfs4_opens *t, uint8_t f,
				uint32_t uid, uint32_t access,
				struct nfs4_stateid sid)
{
	struct nfs_fh3 fh = fh_of(f);
	struct nfs4_open *o;

	assert_int_equal(nfs4_opens_begin_open(t, &fh, uid, NULL, &o), 0);
	assert_non_null(o);
	return nfs4_opens_end_open(t, o, access, true, &sid);
}

static enum nfs4_open_action release(struct nfs4_opens *t,
				     struct nfs4_open *o, uint32_t access,
				     uint32_t *want, struct nfs4_stateid *sid,
				     struct nfs4_stateid reply)
{
	enum nfs4_open_action a = nfs4_opens_begin_release(t, o, access, want,
							   sid);

	if (a != NFS4_OPEN_KEEP)
		nfs4_opens_end_release(t, o, a, true, &reply);
	return a;
}

static void test_access_of_flags(void **state)
{
	(void)state;
	assert_int_equal(nfs4_open_access_of(O_RDONLY), R);
	assert_int_equal(nfs4_open_access_of(O_WRONLY | O_TRUNC), W);
	assert_int_equal(nfs4_open_access_of(O_RDWR | O_CREAT), RW);
}

static void test_owner_per_uid(void **state)
{
	char a[NFS4_OPEN_OWNER_MAX], b[NFS4_OPEN_OWNER_MAX];

	(void)state;
	nfs4_open_owner_name(1000, a);
	nfs4_open_owner_name(1001, b);
	assert_string_not_equal(a, b);
	nfs4_open_owner_name(1000, b);
	assert_string_equal(a, b);
}

static void test_shared_then_close_at_last(void **state)
{
	struct nfs4_opens *t = nfs4_opens_new();
	struct nfs4_stateid sid, got;
	struct nfs_fh3 fh = fh_of(1);
	struct nfs4_open *a, *b;
	uint32_t want;

	(void)state;
	a = opened(t, 1, 1000, R, sid_of(1, 7));
	b = opened(t, 1, 1000, R, sid_of(2, 7));
	assert_ptr_equal(a, b); /* one entry for the user's two opens */
	assert_int_equal(nfs4_opens_count(t), 1);
	assert_int_equal(nfs4_opens_stateid(t, &fh, 1000, &got), 0);
	assert_int_equal(got.seqid, 2); /* the newest */
	assert_int_equal(release(t, a, R, &want, &sid, sid_of(3, 7)),
			 NFS4_OPEN_KEEP);
	assert_int_equal(nfs4_opens_stateid(t, &fh, 1000, &got), 0);
	assert_int_equal(release(t, b, R, &want, &sid, sid_of(3, 7)),
			 NFS4_OPEN_CLOSE);
	assert_int_equal(sid.seqid, 2); /* CLOSE names the real seqid */
	assert_int_equal(nfs4_opens_stateid(t, &fh, 1000, &got), -ENOENT);
	assert_int_equal(nfs4_opens_count(t), 0);
	nfs4_opens_free(t);
}

static void test_downgrade_when_union_shrinks(void **state)
{
	struct nfs4_opens *t = nfs4_opens_new();
	struct nfs_fh3 fh = fh_of(2);
	struct nfs4_stateid sid, got;
	struct nfs4_open *r, *w;
	uint32_t want;

	(void)state;
	r = opened(t, 2, 0, R, sid_of(1, 9));
	w = opened(t, 2, 0, W, sid_of(2, 9));
	assert_int_equal(nfs4_opens_access(t, &fh, 0), RW);
	assert_int_equal(nfs4_opens_stateid_for(t, &fh, 0, W, &got), 0);
	/* The writer goes: only READ is left. */
	assert_int_equal(release(t, w, W, &want, &sid, sid_of(3, 9)),
			 NFS4_OPEN_DOWNGRADE);
	assert_int_equal(want, R);
	assert_int_equal(nfs4_opens_access(t, &fh, 0), R);
	assert_int_equal(nfs4_opens_stateid(t, &fh, 0, &got), 0);
	assert_int_equal(got.seqid, 3);
	/* A read-only open carries no WRITE or truncation. */
	assert_int_equal(nfs4_opens_stateid_for(t, &fh, 0, W, &got), -ENOENT);
	assert_int_equal(nfs4_opens_stateid_for(t, &fh, 0, R, &got), 0);
	assert_int_equal(release(t, r, R, &want, &sid, sid_of(4, 9)),
			 NFS4_OPEN_CLOSE);
	nfs4_opens_free(t);
}

static void test_both_covers_read(void **state)
{
	struct nfs4_opens *t = nfs4_opens_new();
	struct nfs4_stateid sid;
	struct nfs4_open *a, *b;
	uint32_t want;

	(void)state;
	a = opened(t, 3, 0, RW, sid_of(1, 1));
	b = opened(t, 3, 0, R, sid_of(2, 1));
	/* The reader goes: BOTH is still wanted, nothing to send. */
	assert_int_equal(release(t, b, R, &want, &sid, sid_of(9, 1)),
			 NFS4_OPEN_KEEP);
	assert_int_equal(release(t, a, RW, &want, &sid, sid_of(9, 1)),
			 NFS4_OPEN_CLOSE);
	nfs4_opens_free(t);
}

static void test_users_apart(void **state)
{
	struct nfs4_opens *t = nfs4_opens_new();
	struct nfs_fh3 fh = fh_of(4);
	struct nfs4_stateid got, sid;
	struct nfs4_open *a, *b;
	uint32_t want;

	(void)state;
	a = opened(t, 4, 1000, R, sid_of(1, 0xa));
	b = opened(t, 4, 1001, W, sid_of(1, 0xb));
	assert_ptr_not_equal(a, b);
	assert_int_equal(nfs4_opens_stateid(t, &fh, 1000, &got), 0);
	assert_int_equal(got.other[0], 0xa);
	assert_int_equal(nfs4_opens_stateid(t, &fh, 1001, &got), 0);
	assert_int_equal(got.other[0], 0xb);
	assert_int_equal(nfs4_opens_stateid(t, &fh, 1002, &got), -ENOENT);
	/* One user's last close leaves the other's open alone. */
	assert_int_equal(release(t, a, R, &want, &sid, sid_of(2, 0xa)),
			 NFS4_OPEN_CLOSE);
	assert_int_equal(nfs4_opens_stateid(t, &fh, 1001, &got), 0);
	assert_int_equal(release(t, b, W, &want, &sid, sid_of(2, 0xb)),
			 NFS4_OPEN_CLOSE);
	nfs4_opens_free(t);
}

static void test_failed_open_leaves_nothing(void **state)
{
	struct nfs4_opens *t = nfs4_opens_new();
	struct nfs_fh3 fh = fh_of(5);
	struct nfs4_stateid sid = sid_of(1, 1), got;
	struct nfs4_open *o, *a;
	uint32_t want;

	(void)state;
	assert_int_equal(nfs4_opens_begin_open(t, &fh, 0, NULL, &o), 0);
	assert_null(nfs4_opens_end_open(t, o, R, false, &sid));
	assert_int_equal(nfs4_opens_count(t), 0);
	assert_int_equal(nfs4_opens_stateid(t, &fh, 0, &got), -ENOENT);
	/* A failure beside a held open keeps the held one. */
	a = opened(t, 5, 0, R, sid_of(1, 1));
	assert_int_equal(nfs4_opens_begin_open(t, &fh, 0, NULL, &o), 0);
	assert_ptr_equal(o, a);
	assert_null(nfs4_opens_end_open(t, o, W, false, &sid));
	assert_int_equal(nfs4_opens_access(t, &fh, 0), R);
	assert_int_equal(release(t, a, R, &want, &sid, sid), NFS4_OPEN_CLOSE);
	nfs4_opens_free(t);
}

static void test_older_stateid_ignored(void **state)
{
	struct nfs4_opens *t = nfs4_opens_new();
	struct nfs_fh3 fh = fh_of(6);
	struct nfs4_stateid got, sid;
	struct nfs4_open *a;
	uint32_t want;

	(void)state;
	a = opened(t, 6, 0, R, sid_of(5, 2));
	opened(t, 6, 0, R, sid_of(4, 2));
	assert_int_equal(nfs4_opens_stateid(t, &fh, 0, &got), 0);
	assert_int_equal(got.seqid, 5);
	/* seqids wrap: 1 follows 0xffffffff */
	opened(t, 6, 0, R, sid_of(0xffffffffu, 3));
	opened(t, 6, 0, R, sid_of(0xfffffffeu, 3));
	opened(t, 6, 0, R, sid_of(1, 3));
	assert_int_equal(nfs4_opens_stateid(t, &fh, 0, &got), 0);
	assert_int_equal(got.seqid, 1);
	/* A reclaim's new stateid replaces whatever was there. */
	assert_int_equal(nfs4_opens_set_stateid(t, &fh, 0, &(struct
			 nfs4_stateid){ 1, { 3 } }), 0);
	assert_int_equal(nfs4_opens_stateid(t, &fh, 0, &got), 0);
	assert_int_equal(got.other[0], 3);
	for (int i = 0; i < 4; i++)
		assert_int_equal(release(t, a, R, &want, &sid, sid),
				 NFS4_OPEN_KEEP);
	assert_int_equal(release(t, a, R, &want, &sid, sid), NFS4_OPEN_CLOSE);
	nfs4_opens_free(t);
}

struct walk_seen {
	unsigned n;
	uint32_t uids;
	unsigned nopens;
};

static int walk_one(const struct nfs4_open_info *o, void *ctx)
{
	struct walk_seen *w = ctx;

	w->n++;
	w->uids += o->uid;
	w->nopens += o->nopens;
	return 0;
}

static int walk_stop(const struct nfs4_open_info *o, void *ctx)
{
	(void)o;
	(void)ctx;
	return -42;
}

static void test_walk(void **state)
{
	struct nfs4_opens *t = nfs4_opens_new();
	struct walk_seen w = { 0 };
	struct nfs_fh3 fh = fh_of(9);
	struct nfs4_open *pending;

	(void)state;
	for (uint8_t f = 0; f < 40; f++)
		opened(t, f, 10, R, sid_of(1, f));
	opened(t, 0, 10, W, sid_of(2, 0));
	opened(t, 0, 20, W, sid_of(1, 0x20));
	/* An OPEN still on the wire holds nothing yet. */
	assert_int_equal(nfs4_opens_begin_open(t, &fh, 30, NULL, &pending),
			 0);
	assert_int_equal(nfs4_opens_walk(t, walk_one, &w), 0);
	assert_int_equal(w.n, 41);
	assert_int_equal(w.uids, 40 * 10 + 20);
	assert_int_equal(w.nopens, 42);
	assert_int_equal(nfs4_opens_walk(t, walk_stop, NULL), -42);
	nfs4_opens_end_open(t, pending, R, false, NULL);
	nfs4_opens_free(t);
}

/* A CLOSE on the wire: an OPEN of the same (file, user) waits for it,
 * then makes a new entry with the new stateid. */
struct racer {
	struct nfs4_opens *t;
	struct nfs4_open *o;
	volatile int started;
	volatile int stop;  /* the waiting open's interrupt flag */
	int ret;            /* what its begin_open returned */
};

static void *open_again(void *arg)
{
	struct racer *r = arg;
	struct nfs_fh3 fh = fh_of(8);
	struct nfs4_open *o;

	r->started = 1;
	r->ret = nfs4_opens_begin_open(r->t, &fh, 0, &r->stop, &o);
	if (r->ret)
		return NULL;
	r->o = nfs4_opens_end_open(r->t, o, R, true,
				   &(struct nfs4_stateid){ 1, { 0x55 } });
	return NULL;
}

/* An open of file 8 whose CLOSE is on the wire (its stateid in *sid),
 * and a thread *th that opens the file again, started and some 20 ms
 * into its wait.  The open being closed is returned. */
static struct nfs4_open *open_behind_close(struct racer *r,
					   struct nfs4_stateid *sid,
					   pthread_t *th)
{
	struct nfs4_open *a = opened(r->t, 8, 0, R, sid_of(1, 0x44));
	uint32_t want;

	assert_int_equal(nfs4_opens_begin_release(r->t, a, R, &want, sid),
			 NFS4_OPEN_CLOSE);
	pthread_create(th, NULL, open_again, r);
	while (!r->started)
		usleep(1000);
	usleep(20000);
	return a;
}

static void test_open_waits_for_close(void **state)
{
	struct racer r = { .t = nfs4_opens_new() };
	struct nfs_fh3 fh = fh_of(8);
	struct nfs4_stateid sid, got;
	struct nfs4_open *a;
	pthread_t th;

	(void)state;
	a = open_behind_close(&r, &sid, &th);
	/* Whatever the timing, the new OPEN cannot have finished: the
	 * entry is busy until the CLOSE ends. */
	assert_null(r.o);
	nfs4_opens_end_release(r.t, a, NFS4_OPEN_CLOSE, true, &sid);
	pthread_join(th, NULL);
	assert_non_null(r.o);
	assert_int_equal(nfs4_opens_stateid(r.t, &fh, 0, &got), 0);
	assert_int_equal(got.other[0], 0x55);
	assert_int_equal(nfs4_opens_count(r.t), 1);
	nfs4_opens_free(r.t);
}

/* An OPEN waiting for a CLOSE on the wire whose caller dies stops
 * waiting, claims nothing, and the CLOSE then ends the entry as if it
 * had never come. */
static void test_open_wait_interrupted(void **state)
{
	struct racer r = { .t = nfs4_opens_new() };
	struct nfs_fh3 fh = fh_of(8);
	struct nfs4_stateid sid, got;
	struct nfs4_open *a;
	pthread_t th;

	(void)state;
	a = open_behind_close(&r, &sid, &th);
	r.stop = 1;
	/* Joined with the CLOSE still on the wire: the wait ended by
	 * itself. */
	pthread_join(th, NULL);
	assert_int_equal(r.ret, -EINTR);
	assert_null(r.o);
	nfs4_opens_end_release(r.t, a, NFS4_OPEN_CLOSE, true, &sid);
	assert_int_equal(nfs4_opens_count(r.t), 0);
	assert_int_equal(nfs4_opens_stateid(r.t, &fh, 0, &got), -ENOENT);
	nfs4_opens_free(r.t);
}

/* Under a delegation: the last release keeps the open idle, a later open
 * of the same user reuses it with no OPEN (not another user's, not for
 * more access), and take_idle hands each idle one out once for CLOSE. */
static void test_idle_under_delegation(void **state)
{
	struct nfs4_opens *t = nfs4_opens_new();
	struct nfs_fh3 fa = fh_of(1), fb = fh_of(2);
	struct nfs4_stateid sid, s1 = sid_of(1, 0xa1), s2 = sid_of(1, 0xb2);
	struct nfs4_open *a, *b, *o;
	uint32_t want, uid;

	(void)state;
	a = opened(t, 1, 1000, R, s1);
	b = opened(t, 2, 1000, R, s2);
	/* nothing to reuse for another user or more access */
	assert_null(nfs4_opens_reuse(t, &fa, 1001, R));
	assert_null(nfs4_opens_reuse(t, &fa, 1000, RW));
	/* reused while in use: counted on the same entry */
	o = nfs4_opens_reuse(t, &fa, 1000, R);
	assert_ptr_equal(o, a);
	assert_int_equal(nfs4_opens_begin_release_idle(t, o, R, true, &want,
						       &sid), NFS4_OPEN_KEEP);
	/* the last release, delegation held: kept idle, still open */
	assert_int_equal(nfs4_opens_begin_release_idle(t, a, R, true, &want,
						       &sid), NFS4_OPEN_KEEP);
	assert_int_equal(nfs4_opens_count(t), 2);
	assert_int_equal(nfs4_opens_stateid(t, &fa, 1000, &sid), 0);
	assert_memory_equal(sid.other, s1.other, NFS4_OTHER_SIZE);
	/* reopened with no OPEN, released idle again */
	o = nfs4_opens_reuse(t, &fa, 1000, R);
	assert_ptr_equal(o, a);
	assert_int_equal(nfs4_opens_begin_release_idle(t, o, R, true, &want,
						       &sid), NFS4_OPEN_KEEP);
	/* b in use is not idle: only a is handed out, once */
	assert_null(nfs4_opens_take_idle(t, &fb, &uid, &sid));
	o = nfs4_opens_take_idle(t, NULL, &uid, &sid);
	assert_ptr_equal(o, a);
	assert_int_equal(uid, 1000);
	assert_memory_equal(sid.other, s1.other, NFS4_OTHER_SIZE);
	/* busy for its CLOSE: neither reused nor handed out again */
	assert_null(nfs4_opens_reuse(t, &fa, 1000, R));
	assert_null(nfs4_opens_take_idle(t, NULL, &uid, &sid));
	nfs4_opens_end_release(t, o, NFS4_OPEN_CLOSE, true, &sid);
	assert_int_equal(nfs4_opens_count(t), 1);
	assert_int_equal(nfs4_opens_stateid(t, &fa, 1000, &sid), -ENOENT);
	/* without the delegation the last release closes, as before */
	assert_int_equal(nfs4_opens_begin_release_idle(t, b, R, false, &want,
						       &sid), NFS4_OPEN_CLOSE);
	nfs4_opens_end_release(t, b, NFS4_OPEN_CLOSE, true, &sid);
	assert_int_equal(nfs4_opens_count(t), 0);
	nfs4_opens_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_access_of_flags),
		cmocka_unit_test(test_idle_under_delegation),
		cmocka_unit_test(test_owner_per_uid),
		cmocka_unit_test(test_shared_then_close_at_last),
		cmocka_unit_test(test_downgrade_when_union_shrinks),
		cmocka_unit_test(test_both_covers_read),
		cmocka_unit_test(test_users_apart),
		cmocka_unit_test(test_failed_open_leaves_nothing),
		cmocka_unit_test(test_older_stateid_ignored),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_open_waits_for_close),
		cmocka_unit_test(test_open_wait_interrupted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
