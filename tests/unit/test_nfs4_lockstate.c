/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The NFSv4.1 lock state table: lock-owner names, lock stateids per
 * (file, lock-owner) and their seqids, lock opens and their references,
 * and the range conversions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/proto/nfs4_lockstate.h"

static struct nfs_fh3 fh_of(uint8_t b)
{
	struct nfs_fh3 fh = { .len = 8 };

	memset(fh.data, b, fh.len);
	return fh;
}

static struct nfs4_stateid sid_of(uint32_t seqid, uint8_t b)
{
	struct nfs4_stateid s = { .seqid = seqid };

	memset(s.other, b, sizeof(s.other));
	return s;
}

static void test_owner_names(void **state)
{
	char a[NFS4_LKOWNER_NAME_MAX], b[NFS4_LKOWNER_NAME_MAX];

	(void)state;
	assert_int_equal(nfs4_lkowner_name(0x1234, false, a), 22);
	assert_string_equal(a, "posix:0000000000001234");
	nfs4_lkowner_name(0x1234, true, b);
	assert_string_equal(b, "flock:0000000000001234");
	/* fcntl and flock owners of one FUSE owner are different owners */
	assert_string_not_equal(a, b);
	assert_int_equal(nfs4_lkowner_name(UINT64_MAX, true, a), 22);
	assert_string_equal(a, "flock:ffffffffffffffff");
}

static void test_ranges(void **state)
{
	uint64_t off, len, s, l;

	(void)state;
	nfs4_lock_range_to4(100, 50, &off, &len);
	assert_true(off == 100 && len == 50);
	/* 0: to the end of the file, all ones on the wire */
	nfs4_lock_range_to4(7, 0, &off, &len);
	assert_true(off == 7 && len == UINT64_MAX);
	/* a length passing 2^64 - 1 would be NFS4ERR_INVAL: the rest */
	nfs4_lock_range_to4(UINT64_MAX - 10, 11, &off, &len);
	assert_true(len == UINT64_MAX);
	nfs4_lock_range_to4(UINT64_MAX - 10, 10, &off, &len);
	assert_true(len == 10);

	nfs4_lock_range_from4(100, 50, &s, &l);
	assert_true(s == 100 && l == 50);
	nfs4_lock_range_from4(0, UINT64_MAX, &s, &l);
	assert_true(s == 0 && l == 0);
	/* an end past what off_t holds is "to the end of the file" */
	nfs4_lock_range_from4((uint64_t)INT64_MAX - 5, 100, &s, &l);
	assert_true(s == (uint64_t)INT64_MAX - 5 && l == 0);
	nfs4_lock_range_from4((uint64_t)INT64_MAX - 5, 6, &s, &l);
	assert_true(l == 6);
	nfs4_lock_range_from4(UINT64_MAX - 1, 1, &s, &l);
	assert_true(s == (uint64_t)INT64_MAX && l == 0);
}

static void test_stateid_newer(void **state)
{
	struct nfs4_stateid a = sid_of(2, 1), b = sid_of(1, 1);

	(void)state;
	assert_true(nfs4_stateid_newer(&a, &b));
	assert_false(nfs4_stateid_newer(&b, &a));
	assert_false(nfs4_stateid_newer(&a, &a));
	/* seqids wrap */
	a = sid_of(0, 1);
	b = sid_of(UINT32_MAX, 1);
	assert_true(nfs4_stateid_newer(&a, &b));
	/* another stateid altogether replaces the old one */
	a = sid_of(1, 2);
	b = sid_of(5, 1);
	assert_true(nfs4_stateid_newer(&a, &b));
}

static void test_states_per_file_and_owner(void **state)
{
	struct nfs4_lktable t;
	struct nfs_fh3 f1 = fh_of(1), f2 = fh_of(2), bad = { .len = 0 };
	struct nfs4_lkstate *a, *b, *c, *d;

	(void)state;
	nfs4_lktable_init(&t);
	assert_null(nfs4_lkstate_get(&t, &f1, 10, 7, false, false));
	a = nfs4_lkstate_get(&t, &f1, 10, 7, false, true);
	assert_non_null(a);
	assert_false(a->has_stateid);
	assert_ptr_equal(nfs4_lkstate_get(&t, &f1, 10, 7, false, true), a);
	/* another file, another owner, the flock owner: entries of their own */
	b = nfs4_lkstate_get(&t, &f2, 11, 7, false, true);
	c = nfs4_lkstate_get(&t, &f1, 10, 8, false, true);
	d = nfs4_lkstate_get(&t, &f1, 10, 7, true, true);
	assert_true(b != a && c != a && d != a && c != d);
	assert_int_equal(t.nstates, 4);
	assert_null(nfs4_lkstate_get(&t, &bad, 1, 7, false, true));
	assert_null(nfs4_lkstate_get(&t, NULL, 1, 7, false, true));
	assert_int_equal(t.nstates, 4);
	nfs4_lktable_clear(&t);
	assert_int_equal(t.nstates, 0);
	assert_null(t.states);
}

static void test_stateid_seqids(void **state)
{
	struct nfs4_lktable t;
	struct nfs_fh3 f = fh_of(3);
	struct nfs4_lkstate *e;
	struct nfs4_stateid s1 = sid_of(1, 9), s2 = sid_of(2, 9),
			    s3 = sid_of(3, 9);

	(void)state;
	nfs4_lktable_init(&t);
	e = nfs4_lkstate_get(&t, &f, 5, 1, false, true);
	assert_false(nfs4_lkstate_holds(&t, 5, 1, false));
	/* the first LOCK makes the stateid */
	nfs4_lkstate_granted(e, &s1);
	assert_true(e->has_stateid && e->held);
	assert_int_equal(e->stateid.seqid, 1);
	assert_int_equal(e->lock_seqid, 1);
	assert_true(nfs4_lkstate_holds(&t, 5, 1, false));
	assert_false(nfs4_lkstate_holds(&t, 5, 1, true));
	assert_false(nfs4_lkstate_holds(&t, 6, 1, false));
	/* later ones move it on, never back */
	nfs4_lkstate_granted(e, &s3);
	nfs4_lkstate_granted(e, &s2);
	assert_int_equal(e->stateid.seqid, 3);
	assert_int_equal(e->lock_seqid, 3);
	/* a partial unlock may leave locks: still held */
	s3 = sid_of(4, 9);
	nfs4_lkstate_unlocked(e, &s3, false);
	assert_int_equal(e->stateid.seqid, 4);
	nfs4_lkstate_unlocked(e, &s2, false);
	assert_int_equal(e->stateid.seqid, 4);
	assert_int_equal(e->lock_seqid, 5);
	assert_true(e->held);
	/* the whole file unlocked: nothing held */
	s3 = sid_of(5, 9);
	nfs4_lkstate_unlocked(e, &s3, true);
	assert_int_equal(e->stateid.seqid, 5);
	assert_false(e->held);
	assert_true(e->has_stateid);
	assert_false(nfs4_lkstate_holds(&t, 5, 1, false));
	/* a busy entry (a LOCK in flight) counts for the close */
	e->busy = true;
	assert_true(nfs4_lkstate_holds(&t, 5, 1, false));
	e->busy = false;
	/* lost (freed, or the server forgot it): starts over */
	nfs4_lkstate_lost(e);
	assert_false(e->has_stateid);
	assert_int_equal(e->lock_seqid, 0);
	nfs4_lktable_clear(&t);
}

static void test_put_and_opens(void **state)
{
	struct nfs4_lktable t;
	struct nfs_fh3 f = fh_of(4), g = fh_of(5);
	struct nfs4_lkstate *e;
	struct nfs4_lkopen *o, *o2, *o3;
	bool removed;

	(void)state;
	nfs4_lktable_init(&t);
	o = nfs4_lkopen_get(&t, &f, 1000);
	assert_non_null(o);
	assert_int_equal(o->refs, 1);
	/* the same file and user: the same open; another user, another */
	assert_ptr_equal(nfs4_lkopen_get(&t, &f, 1000), o);
	assert_int_equal(o->refs, 2);
	o2 = nfs4_lkopen_get(&t, &f, 1001);
	o3 = nfs4_lkopen_get(&t, &g, 1000);
	assert_true(o2 != o && o3 != o);
	assert_int_equal(t.nopens, 3);
	/* an open never opened goes with its last reference */
	assert_false(nfs4_lkopen_put(&t, o2));
	assert_int_equal(t.nopens, 2);

	e = nfs4_lkstate_get(&t, &f, 1, 42, false, true);
	e->open = o;
	nfs4_lkstate_granted(e, &(struct nfs4_stateid){ 1, { 1 } });
	/* an entry with a stateid, or busy, stays */
	assert_null(nfs4_lkstate_put(&t, e, &removed));
	assert_false(removed);
	nfs4_lkstate_lost(e);
	e->busy = true;
	assert_null(nfs4_lkstate_put(&t, e, &removed));
	assert_false(removed);
	e->busy = false;
	/* gone: its open's reference is handed back */
	assert_ptr_equal(nfs4_lkstate_put(&t, e, &removed), o);
	assert_true(removed);
	assert_int_equal(t.nstates, 0);

	/* the last reference of an open with a stateid: the caller CLOSEs,
	 * and no one finds the closing open again */
	o->has_stateid = true;
	assert_false(nfs4_lkopen_put(&t, o));
	assert_true(nfs4_lkopen_put(&t, o));
	assert_true(o->closing);
	o2 = nfs4_lkopen_get(&t, &f, 1000);
	assert_true(o2 != o);
	nfs4_lkopen_free(&t, o);
	assert_int_equal(t.nopens, 2);
	/* freeing what is not in the table changes nothing */
	nfs4_lkopen_free(&t, o);
	assert_int_equal(t.nopens, 2);
	assert_null(nfs4_lkopen_get(&t, &(struct nfs_fh3){ .len = 0 }, 1));
	nfs4_lktable_clear(&t);
	assert_int_equal(t.nopens, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_names),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_stateid_newer),
		cmocka_unit_test(test_states_per_file_and_owner),
		cmocka_unit_test(test_stateid_seqids),
		cmocka_unit_test(test_put_and_opens),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
