/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rule of file systems that keep no ACLs (src/cache/aclfs.c): which
 * GETACL answers mark one, how long a mark is believed, that a mark is
 * per fsid and goes when an ACL is seen, and what nfsfusectl shows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/cache/aclfs.h"
#include "../../xdr/nfs3.h"

#define S 1000000000ll

static void test_rule(void **state)
{
	(void)state;
	/* nfs-ganesha without ACL support: no entries at all */
	assert_int_equal(aclfs_rule(NFS3_OK, 0, 0, 0), ACLFS_EMPTY);
	assert_int_equal(aclfs_rule(NFS3ERR_NOTSUPP, 0, 0, 0),
			 ACLFS_NOTSUPP);
	/* the mode's entries (Linux, Solaris): a per-file answer only */
	assert_int_equal(aclfs_rule(NFS3_OK, 4, 4, 0), 0);
	assert_int_equal(aclfs_rule(NFS3_OK, 3, 3, 0), 0);
	/* a count without entries, or a default ACL, is not "none" */
	assert_int_equal(aclfs_rule(NFS3_OK, 3, 0, 0), 0);
	assert_int_equal(aclfs_rule(NFS3_OK, 0, 0, 4), 0);
	/* other failures say nothing about the file system */
	assert_int_equal(aclfs_rule(NFS3ERR_STALE, 0, 0, 0), 0);
	assert_int_equal(aclfs_rule(NFS3ERR_ACCES, 0, 0, 0), 0);
}

static void test_mark_expires(void **state)
{
	struct aclfs t = { 0 };

	(void)state;
	assert_false(aclfs_none(&t, 7, 0));
	aclfs_mark(&t, 7, ACLFS_EMPTY, 42, 10 * S, 60 * S);
	assert_true(aclfs_none(&t, 7, 10 * S));
	assert_true(aclfs_none(&t, 7, 70 * S - 1));
	assert_false(aclfs_none(&t, 7, 70 * S));
	/* another file system is not covered */
	assert_false(aclfs_none(&t, 8, 10 * S));
	/* a new answer starts the time again, in the same slot */
	aclfs_mark(&t, 7, ACLFS_EMPTY, 43, 80 * S, 60 * S);
	assert_true(aclfs_none(&t, 7, 100 * S));
	for (int k = 1; k < ACLFS_SLOTS; k++)
		assert_false(t.e[k].used);
}

static void test_forget(void **state)
{
	struct aclfs t = { 0 };

	(void)state;
	aclfs_mark(&t, 1, ACLFS_EMPTY, 1, 0, 60 * S);
	aclfs_mark(&t, 2, ACLFS_NOTSUPP, 2, 0, 60 * S);
	assert_int_equal(aclfs_none(&t, 1, S), ACLFS_EMPTY);
	assert_int_equal(aclfs_none(&t, 2, S), ACLFS_NOTSUPP);
	aclfs_forget(&t, 1);
	assert_false(aclfs_none(&t, 1, S));
	assert_true(aclfs_none(&t, 2, S));
	aclfs_forget(&t, 99); /* nothing to forget */
	assert_true(aclfs_none(&t, 2, S));
}

static void test_full_table(void **state)
{
	struct aclfs t = { 0 };

	(void)state;
	for (int k = 0; k < ACLFS_SLOTS; k++)
		aclfs_mark(&t, 100 + k, ACLFS_EMPTY, 1, 0, (10 + k) * S);
	/* the mark that ends first (fsid 100) gives way */
	aclfs_mark(&t, 999, ACLFS_EMPTY, 1, 0, 60 * S);
	assert_true(aclfs_none(&t, 999, S));
	assert_false(aclfs_none(&t, 100, S));
	for (int k = 1; k < ACLFS_SLOTS; k++)
		assert_true(aclfs_none(&t, 100 + k, S));
}

static void test_format(void **state)
{
	struct aclfs t = { 0 };
	char buf[512], small[10];
	size_t n, m;

	(void)state;
	assert_int_equal(aclfs_format(&t, 0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	aclfs_mark(&t, 0x2a, ACLFS_EMPTY, 5, 0, 60 * S);
	aclfs_mark(&t, 0x2b, ACLFS_NOTSUPP, 6, 0, 5 * S);
	n = aclfs_format(&t, 2 * S, buf, sizeof(buf));
	assert_int_equal(n, strlen(buf));
	assert_non_null(strstr(buf, "fsid 0x2a: no ACLs (GETACL of fileid 5 "
				    "answered no entries 2 s ago; 58 s left)"));
	assert_non_null(strstr(buf, "; fsid 0x2b"));
	assert_null(strchr(buf, '\n'));
	assert_non_null(strstr(buf, "answered NOTSUPP"));
	/* an expired mark is not shown */
	aclfs_format(&t, 6 * S, buf, sizeof(buf));
	assert_null(strstr(buf, "0x2b"));
	/* a short buffer: cut, and the length needed told */
	m = aclfs_format(&t, 2 * S, small, sizeof(small));
	assert_int_equal(m, n);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	/* a refused SETACL says so */
	memset(&t, 0, sizeof(t));
	aclfs_mark(&t, 0x2c, ACLFS_SET_REFUSED, 7, S, 60 * S);
	aclfs_format(&t, 4 * S, buf, sizeof(buf));
	assert_string_equal(buf, "fsid 0x2c: ACLs not settable (SETACL of "
				 "fileid 7 refused 3 s ago; 57 s left)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_mark_expires),
		cmocka_unit_test(test_forget),
		cmocka_unit_test(test_full_table),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
