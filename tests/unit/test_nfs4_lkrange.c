/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ranges an NFSv4 lock-owner holds on a file, as a recovery would
 * reclaim them: POSIX merging and splitting on LOCK and LOCKU, upgrades
 * and downgrades, locks to the end of the file, and what the lock table
 * keeps of them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/proto/nfs4_lkrange.h"
#include "../../src/proto/nfs4_lockstate.h"

/* "w:0+10,r:10+0": each range as TYPE:START+LEN (LEN 0: to the end). */
static const char *show(const struct nfs4_lkranges *s)
{
	static char buf[512];
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->n && off < sizeof(buf); i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off,
					"%s%s:%llu+%llu", i ? "," : "",
					s->r[i].excl ? "w" : "r",
					(unsigned long long)s->r[i].start,
					(unsigned long long)nfs4_lkrange_len(
						&s->r[i]));
	return buf;
}

static void lock(struct nfs4_lkranges *s, uint64_t start, uint64_t len,
		 bool excl)
{
	assert_int_equal(nfs4_lkranges_apply(s, start, len, true, excl), 0);
}

static void unlock(struct nfs4_lkranges *s, uint64_t start, uint64_t len)
{
	assert_int_equal(nfs4_lkranges_apply(s, start, len, false, false), 0);
}

static void test_merge(void **state)
{
	struct nfs4_lkranges s;

	(void)state;
	nfs4_lkranges_init(&s);
	lock(&s, 100, 50, true);
	assert_string_equal(show(&s), "w:100+50");
	/* the same lock again changes nothing */
	lock(&s, 100, 50, true);
	assert_string_equal(show(&s), "w:100+50");
	/* touching ranges of one type are one, in either order */
	lock(&s, 150, 10, true);
	lock(&s, 90, 10, true);
	assert_string_equal(show(&s), "w:90+70");
	/* overlapping ones too */
	lock(&s, 80, 20, true);
	lock(&s, 155, 100, true);
	assert_string_equal(show(&s), "w:80+175");
	/* a gap stays a gap, kept in order */
	lock(&s, 0, 10, true);
	lock(&s, 500, 1, true);
	assert_string_equal(show(&s), "w:0+10,w:80+175,w:500+1");
	/* one lock over all of them makes one range */
	lock(&s, 0, 600, true);
	assert_string_equal(show(&s), "w:0+600");
	/* touching ranges of different types stay apart */
	lock(&s, 600, 10, false);
	assert_string_equal(show(&s), "w:0+600,r:600+10");
	nfs4_lkranges_free(&s);
	assert_int_equal(s.n, 0);
}

static void test_split_and_unlock(void **state)
{
	struct nfs4_lkranges s;

	(void)state;
	nfs4_lkranges_init(&s);
	lock(&s, 0, 100, true);
	/* an unlock in the middle splits the range in two */
	unlock(&s, 40, 20);
	assert_string_equal(show(&s), "w:0+40,w:60+40");
	/* unlocking what is not held changes nothing */
	unlock(&s, 40, 20);
	unlock(&s, 1000, 0);
	assert_string_equal(show(&s), "w:0+40,w:60+40");
	/* an unlock across both ends trims both */
	unlock(&s, 30, 40);
	assert_string_equal(show(&s), "w:0+30,w:70+30");
	/* unlock of the head and the tail */
	unlock(&s, 0, 10);
	unlock(&s, 90, 10);
	assert_string_equal(show(&s), "w:10+20,w:70+20");
	/* an unlock to the end of the file of everything */
	unlock(&s, 0, 0);
	assert_string_equal(show(&s), "");
	/* an empty range is nothing */
	lock(&s, 10, 0, true);
	unlock(&s, 5, 1);
	assert_string_equal(show(&s), "w:10+0");
	nfs4_lkranges_free(&s);
}

static void test_upgrade_downgrade(void **state)
{
	struct nfs4_lkranges s;

	(void)state;
	nfs4_lkranges_init(&s);
	lock(&s, 0, 100, false);
	/* a write lock in the middle of a read lock: three ranges */
	lock(&s, 40, 20, true);
	assert_string_equal(show(&s), "r:0+40,w:40+20,r:60+40");
	/* downgraded again: one read lock */
	lock(&s, 40, 20, false);
	assert_string_equal(show(&s), "r:0+100");
	/* upgrade of the whole and more */
	lock(&s, 0, 150, true);
	assert_string_equal(show(&s), "w:0+150");
	/* a read lock across the end of a write lock */
	lock(&s, 100, 100, false);
	assert_string_equal(show(&s), "w:0+100,r:100+100");
	nfs4_lkranges_free(&s);
}

static void test_to_end_of_file(void **state)
{
	struct nfs4_lkranges s;

	(void)state;
	nfs4_lkranges_init(&s);
	/* flock: the whole file */
	lock(&s, 0, 0, true);
	assert_string_equal(show(&s), "w:0+0");
	/* a read lock from 100 on splits it; the tail runs to the end */
	lock(&s, 100, 0, false);
	assert_string_equal(show(&s), "w:0+100,r:100+0");
	unlock(&s, 150, 10);
	assert_string_equal(show(&s), "w:0+100,r:100+50,r:160+0");
	/* a length past 2^64 runs to the end */
	lock(&s, 200, UINT64_MAX, true);
	assert_string_equal(show(&s), "w:0+100,r:100+50,r:160+40,w:200+0");
	/* flock LOCK_SH over it all: one range again */
	lock(&s, 0, 0, false);
	assert_string_equal(show(&s), "r:0+0");
	nfs4_lkranges_free(&s);
}

static void test_copy(void **state)
{
	struct nfs4_lkranges a, b;

	(void)state;
	nfs4_lkranges_init(&a);
	nfs4_lkranges_init(&b);
	lock(&a, 0, 10, true);
	lock(&a, 20, 10, false);
	lock(&b, 500, 5, true);
	assert_int_equal(nfs4_lkranges_copy(&b, &a), 0);
	assert_string_equal(show(&b), "w:0+10,r:20+10");
	/* the copy is apart from the original */
	unlock(&a, 0, 0);
	assert_string_equal(show(&b), "w:0+10,r:20+10");
	assert_int_equal(nfs4_lkranges_copy(&b, &a), 0);
	assert_string_equal(show(&b), "");
	nfs4_lkranges_free(&a);
	nfs4_lkranges_free(&b);
}

static void test_in_the_lock_table(void **state)
{
	struct nfs4_lktable t;
	struct nfs_fh3 fh = { .len = 8 };
	struct nfs4_stateid sid = { .seqid = 1 };
	struct nfs4_lkstate *e;
	bool removed;

	(void)state;
	memset(fh.data, 7, fh.len);
	nfs4_lktable_init(&t);
	e = nfs4_lkstate_get(&t, &fh, 42, 1, false, true);
	assert_non_null(e);
	nfs4_lkstate_granted(e, &sid);
	assert_int_equal(nfs4_lkstate_record(e, 0, 10, true, true), 0);
	assert_int_equal(nfs4_lkstate_record(e, 5, 0, true, false), 0);
	assert_string_equal(show(&e->ranges), "w:0+5,r:5+0");
	/* a stateid the server forgot holds nothing */
	nfs4_lkstate_lost(e);
	assert_string_equal(show(&e->ranges), "");
	assert_false(nfs4_lkstate_holds(&t, 42, 1, false));
	nfs4_lkstate_put(&t, e, &removed);
	assert_true(removed);
	/* lost files, until opened again */
	assert_false(nfs4_lktable_ino_lost(&t, 42));
	assert_int_equal(nfs4_lktable_mark_lost(&t, 42), 0);
	assert_int_equal(nfs4_lktable_mark_lost(&t, 42), 0);
	assert_int_equal(nfs4_lktable_mark_lost(&t, 43), 0);
	assert_int_equal(t.nlost, 2);
	assert_true(nfs4_lktable_ino_lost(&t, 42));
	nfs4_lktable_reopened(&t, 42);
	assert_false(nfs4_lktable_ino_lost(&t, 42));
	assert_true(nfs4_lktable_ino_lost(&t, 43));
	/* entries with ranges are freed with the table */
	e = nfs4_lkstate_get(&t, &fh, 42, 2, true, true);
	assert_int_equal(nfs4_lkstate_record(e, 0, 0, true, true), 0);
	nfs4_lktable_clear(&t);
	assert_int_equal(t.nstates, 0);
	assert_int_equal(t.nlost, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_split_and_unlock),
		cmocka_unit_test(test_upgrade_downgrade),
		cmocka_unit_test(test_to_end_of_file),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_in_the_lock_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
