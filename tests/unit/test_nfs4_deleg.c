/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of delegations held (nfs4_deleg.h): one per file, of its
 * type, believed until recalled, a recall answered by what is held, each
 * recalled one handed out once for its DELEGRETURN, everything handed out
 * at the end, and CB_GETATTR's change attribute for a written file. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/proto/nfs4_deleg.h"

static struct nfs_fh3 fh_n(unsigned n)
{
	struct nfs_fh3 fh = { .len = 8 };

	memcpy(fh.data, "fh-", 3);
	fh.data[4] = (uint8_t)n;
	fh.data[5] = (uint8_t)(n >> 8);
	return fh;
}

static struct nfs4_stateid sid_n(unsigned n)
{
	struct nfs4_stateid sid = { .seqid = 1 };

	sid.other[0] = (uint8_t)n;
	sid.other[1] = (uint8_t)(n >> 8);
	sid.other[11] = 0x5a;
	return sid;
}

static void test_one_per_file(void **state)
{
	struct nfs4_delegs *t = nfs4_delegs_new();
	struct nfs_fh3 a = fh_n(1), b = fh_n(2), bad = { 0 };
	struct nfs4_stateid s1 = sid_n(1), s2 = sid_n(2);
	uint32_t type;
	int64_t when;
	bool recalled;

	(void)state;
	assert_non_null(t);
	assert_false(nfs4_delegs_held(t, &a));
	assert_int_equal(nfs4_delegs_add(t, &a, &s1, NFS4_OPEN_DELEGATE_READ, 100), 0);
	assert_true(nfs4_delegs_held(t, &a));
	assert_false(nfs4_delegs_held(t, &b));
	/* a second one for the same file: the caller gives it back; the
	 * same one named again: the caller keeps it */
	assert_int_equal(nfs4_delegs_add(t, &a, &s2, NFS4_OPEN_DELEGATE_READ,
					 200), -EEXIST);
	assert_int_equal(nfs4_delegs_add(t, &a, &s1, NFS4_OPEN_DELEGATE_WRITE,
					 300), -EALREADY);
	assert_int_equal(nfs4_delegs_add(t, &bad, &s2,
					 NFS4_OPEN_DELEGATE_READ, 200),
			 -EINVAL);
	assert_int_equal(nfs4_delegs_add(t, &b, &s2, 0, 200), -EINVAL);
	assert_int_equal(nfs4_delegs_add(t, &b, &s2, NFS4_OPEN_DELEGATE_NONE, 200),
			 -EINVAL);
	assert_int_equal(nfs4_delegs_count(t), 1);
	assert_int_equal(nfs4_delegs_describe(t, &a, &type, &when, &recalled), 0);
	assert_int_equal(when, 100);
	assert_int_equal(type, NFS4_OPEN_DELEGATE_READ);
	assert_int_equal(nfs4_delegs_held(t, &a), NFS4_OPEN_DELEGATE_READ);
	assert_false(recalled);
	assert_int_equal(nfs4_delegs_describe(t, &b, &type, &when,
					      &recalled),
			 -ENOENT);
	nfs4_delegs_free(t);
}

static void test_recall(void **state)
{
	struct nfs4_delegs *t = nfs4_delegs_new();
	struct nfs_fh3 a = fh_n(1), b = fh_n(2), fh;
	struct nfs4_stateid s1 = sid_n(1), s2 = sid_n(2), sid;
	uint32_t type;
	int64_t when;
	bool queued, recalled;

	(void)state;
	assert_int_equal(nfs4_delegs_add(t, &a, &s1, NFS4_OPEN_DELEGATE_READ, 1), 0);
	assert_int_equal(nfs4_delegs_take_recalled(t, &fh, &sid), 0);
	/* nothing held for b; a is held under another stateid */
	assert_int_equal(nfs4_delegs_recall(t, &b, &s1, &queued),
			 NFS4ERR_BADHANDLE);
	assert_false(queued);
	assert_int_equal(nfs4_delegs_recall(t, &a, &s2, &queued),
			 NFS4ERR_BAD_STATEID);
	assert_false(queued);
	assert_true(nfs4_delegs_held(t, &a));
	/* the recall: no longer believed at once, queued once; a repeat
	 * (the server resending) is answered the same, queued no more.
	 * The seqid does not matter, the stateid's other does. */
	s1.seqid = 0;
	assert_int_equal(nfs4_delegs_recall(t, &a, &s1, &queued), NFS4_OK);
	assert_true(queued);
	assert_false(nfs4_delegs_held(t, &a));
	assert_int_equal(nfs4_delegs_recall(t, &a, &s1, &queued), NFS4_OK);
	assert_false(queued);
	assert_int_equal(nfs4_delegs_describe(t, &a, &type, &when, &recalled), 0);
	assert_true(recalled);
	/* handed out once, with what DELEGRETURN names */
	assert_int_equal(nfs4_delegs_take_recalled(t, &fh, &sid),
			 NFS4_OPEN_DELEGATE_READ);
	assert_memory_equal(&fh, &a, sizeof(fh));
	assert_memory_equal(sid.other, sid_n(1).other, NFS4_OTHER_SIZE);
	assert_int_equal(nfs4_delegs_take_recalled(t, &fh, &sid), 0);
	assert_int_equal(nfs4_delegs_count(t), 0);
	/* gone: a late recall of it finds nothing, a new grant is kept */
	assert_int_equal(nfs4_delegs_recall(t, &a, &s1, &queued),
			 NFS4ERR_BADHANDLE);
	assert_int_equal(nfs4_delegs_add(t, &a, &s2, NFS4_OPEN_DELEGATE_WRITE, 2), 0);
	assert_true(nfs4_delegs_held(t, &a));
	assert_int_equal(nfs4_delegs_held(t, &a), NFS4_OPEN_DELEGATE_WRITE);
	/* taken by handle, once, and only if of the type asked for (an
	 * open for writing of ours gives back a read one, keeps a write
	 * one) */
	assert_int_equal(nfs4_delegs_take(t, &b, 0, &sid), 0);
	assert_int_equal(nfs4_delegs_take(t, &a, NFS4_OPEN_DELEGATE_READ,
					  &sid), 0);
	assert_int_equal(nfs4_delegs_held(t, &a), NFS4_OPEN_DELEGATE_WRITE);
	assert_int_equal(nfs4_delegs_take(t, &a, 0, &sid),
			 NFS4_OPEN_DELEGATE_WRITE);
	assert_memory_equal(sid.other, s2.other, NFS4_OTHER_SIZE);
	assert_int_equal(nfs4_delegs_take(t, &a, 0, &sid), 0);
	assert_false(nfs4_delegs_held(t, &a));
	assert_int_equal(nfs4_delegs_count(t), 0);
	nfs4_delegs_free(t);
}

/* Many files (more than the buckets): each found, each recalled one
 * handed out exactly once, the rest by take_any, none twice. */
static void test_many(void **state)
{
	enum { N = 1000 };
	static bool seen[N];
	struct nfs4_delegs *t = nfs4_delegs_new();
	struct nfs4_stateid sid;
	struct nfs_fh3 fh;
	unsigned taken = 0;
	uint32_t type;
	bool queued;

	(void)state;
	for (unsigned i = 0; i < N; i++) {
		struct nfs_fh3 f = fh_n(i);
		struct nfs4_stateid s = sid_n(i);

		assert_int_equal(nfs4_delegs_add(t, &f, &s, i % 2 ? NFS4_OPEN_DELEGATE_READ :
						 NFS4_OPEN_DELEGATE_WRITE, i), 0);
	}
	assert_int_equal(nfs4_delegs_count(t), N);
	for (unsigned i = 0; i < N; i += 3) {
		struct nfs_fh3 f = fh_n(i);
		struct nfs4_stateid s = sid_n(i);

		assert_int_equal(nfs4_delegs_recall(t, &f, &s, &queued),
				 NFS4_OK);
		assert_true(queued);
	}
	while ((type = nfs4_delegs_take_recalled(t, &fh, &sid))) {
		unsigned i = fh.data[4] | (unsigned)fh.data[5] << 8;

		assert_true(i < N && i % 3 == 0 && !seen[i]);
		assert_int_equal(type, i % 2 ? NFS4_OPEN_DELEGATE_READ
					     : NFS4_OPEN_DELEGATE_WRITE);
		assert_int_equal(sid.other[0] | sid.other[1] << 8, i);
		seen[i] = true;
		taken++;
	}
	assert_int_equal(taken, (N + 2) / 3);
	for (unsigned i = 1; i < N; i += 3) {
		struct nfs_fh3 f = fh_n(i);

		assert_true(nfs4_delegs_held(t, &f));
	}
	while (nfs4_delegs_take_any(t, &fh, &sid)) {
		unsigned i = fh.data[4] | (unsigned)fh.data[5] << 8;

		assert_true(i < N && !seen[i]);
		seen[i] = true;
		taken++;
	}
	assert_int_equal(taken, N);
	assert_int_equal(nfs4_delegs_count(t), 0);
	nfs4_delegs_free(t);
}

/* CB_GETATTR's change attribute: the server's while nothing of ours is
 * pending; above it while our writes are, the same again when no write
 * came since the last answer, higher when one did; the server's again
 * once they are on it.  Refused for a file with no write delegation. */
static void test_cb_change(void **state)
{
	struct nfs4_delegs *t = nfs4_delegs_new();
	struct nfs_fh3 r = fh_n(1), w = fh_n(2), none = fh_n(3);
	struct nfs4_stateid s1 = sid_n(1), s2 = sid_n(2);
	struct nfs4_deleg_report rep = { .size = 10, .change = 50 };
	uint64_t change = 0;

	(void)state;
	assert_int_equal(nfs4_delegs_add(t, &r, &s1, NFS4_OPEN_DELEGATE_READ,
					 1), 0);
	assert_int_equal(nfs4_delegs_add(t, &w, &s2, NFS4_OPEN_DELEGATE_WRITE,
					 1), 0);
	assert_int_equal(nfs4_delegs_cb_change(t, &r, &rep, &change),
			 NFS4ERR_BADHANDLE);
	assert_int_equal(nfs4_delegs_cb_change(t, &none, &rep, &change),
			 NFS4ERR_BADHANDLE);
	assert_int_equal(nfs4_delegs_cb_change(t, &w, &rep, &change), NFS4_OK);
	assert_int_equal(change, 50);
	rep.dirty = true;
	rep.wgen = 7;
	assert_int_equal(nfs4_delegs_cb_change(t, &w, &rep, &change), NFS4_OK);
	assert_int_equal(change, 51);
	assert_int_equal(nfs4_delegs_cb_change(t, &w, &rep, &change), NFS4_OK);
	assert_int_equal(change, 51);
	rep.wgen = 9;
	assert_int_equal(nfs4_delegs_cb_change(t, &w, &rep, &change), NFS4_OK);
	assert_int_equal(change, 52);
	/* our WRITEs reached the server and moved its value past ours */
	rep.change = 60;
	assert_int_equal(nfs4_delegs_cb_change(t, &w, &rep, &change), NFS4_OK);
	assert_int_equal(change, 61);
	rep.dirty = false;
	assert_int_equal(nfs4_delegs_cb_change(t, &w, &rep, &change), NFS4_OK);
	assert_int_equal(change, 60);
	rep.dirty = true;
	assert_int_equal(nfs4_delegs_cb_change(t, &w, &rep, &change), NFS4_OK);
	assert_int_equal(change, 61);
	nfs4_delegs_free(t);
}

/* Revoked state flagged by the server: every one not yet recalled is
 * queued once, as if recalled; one already recalled is not counted
 * again. */
static void test_recall_all(void **state)
{
	struct nfs4_delegs *t = nfs4_delegs_new();
	struct nfs_fh3 a = fh_n(1), b = fh_n(2), c = fh_n(3), fh;
	struct nfs4_stateid s1 = sid_n(1), s2 = sid_n(2), s3 = sid_n(3), sid;
	unsigned n = 0;
	bool queued;

	(void)state;
	assert_int_equal(nfs4_delegs_recall_all(t), 0);
	assert_int_equal(nfs4_delegs_add(t, &a, &s1, NFS4_OPEN_DELEGATE_READ,
					 1), 0);
	assert_int_equal(nfs4_delegs_add(t, &b, &s2, NFS4_OPEN_DELEGATE_WRITE,
					 1), 0);
	assert_int_equal(nfs4_delegs_add(t, &c, &s3, NFS4_OPEN_DELEGATE_READ,
					 1), 0);
	assert_int_equal(nfs4_delegs_recall(t, &c, &s3, &queued), NFS4_OK);
	assert_true(queued);
	assert_int_equal(nfs4_delegs_recall_all(t), 2);
	assert_int_equal(nfs4_delegs_recall_all(t), 0);
	assert_int_equal(nfs4_delegs_held(t, &a), 0);
	assert_int_equal(nfs4_delegs_held(t, &b), 0);
	while (nfs4_delegs_take_recalled(t, &fh, &sid))
		n++;
	assert_int_equal(n, 3);
	assert_int_equal(nfs4_delegs_count(t), 0);
	nfs4_delegs_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_per_file),
		cmocka_unit_test(test_recall),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_cb_change),
		cmocka_unit_test(test_recall_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
