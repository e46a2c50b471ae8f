/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ACL cache rules (src/cache/aclcache.c): an entry answers only for
 * the ctime it was read at; a missing ACL is a hit with no value; a drop
 * or a new put replaces what was there; each hit is the caller's own copy.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <stdlib.h>

#include "../../src/cache/aclcache.h"

static const struct nfstime3 t1 = { 1700000000, 5 }, t2 = { 1700000000, 6 };

static void *dup_bytes(const char *s)
{
	void *p = malloc(strlen(s));

	assert_non_null(p);
	memcpy(p, s, strlen(s));
	return p;
}

/* Access ACL "aaaa", no default ACL, read at t1. */
static void put_access(struct aclcache *c, const struct nfstime3 *t)
{
	void *v[2] = { dup_bytes("aaaa"), NULL };
	size_t n[2] = { 4, 0 };

	aclcache_put(c, t, v, n);
}

static void test_empty_misses(void **state)
{
	struct aclcache c = { 0 };
	void *v = (void *)1;
	size_t n = 99;

	(void)state;
	assert_false(aclcache_get(&c, &t1, ACLCACHE_ACCESS, &v, &n));
	assert_false(aclcache_get(&c, &t1, ACLCACHE_DEFAULT, &v, &n));
	aclcache_clear(&c);
}

static void test_hit_is_a_copy(void **state)
{
	struct aclcache c = { 0 };
	void *v, *w;
	size_t n;

	(void)state;
	put_access(&c, &t1);
	assert_true(aclcache_get(&c, &t1, ACLCACHE_ACCESS, &v, &n));
	assert_int_equal(n, 4);
	assert_memory_equal(v, "aaaa", 4);
	assert_ptr_not_equal(v, c.xattr[ACLCACHE_ACCESS]);
	memset(v, 'x', 4);
	assert_true(aclcache_get(&c, &t1, ACLCACHE_ACCESS, &w, &n));
	assert_memory_equal(w, "aaaa", 4);
	free(v);
	free(w);
	/* No default ACL is an answer too: a hit without a value. */
	v = (void *)1;
	assert_true(aclcache_get(&c, &t1, ACLCACHE_DEFAULT, &v, &n));
	assert_null(v);
	assert_int_equal(n, 0);
	aclcache_clear(&c);
	assert_false(c.valid);
	assert_null(c.xattr[0]);
}

static void test_ctime_dates_the_entry(void **state)
{
	struct aclcache c = { 0 };
	void *v;
	size_t n;

	(void)state;
	put_access(&c, &t1);
	/* A chmod or a SETACL elsewhere moved ctime: ask the server. */
	assert_false(aclcache_get(&c, &t2, ACLCACHE_ACCESS, &v, &n));
	assert_false(aclcache_get(&c, &t2, ACLCACHE_DEFAULT, &v, &n));
	/* Read again at the new ctime: the new entry answers for it only. */
	{
		void *nv[2] = { dup_bytes("bbbbbb"), dup_bytes("dd") };
		size_t nn[2] = { 6, 2 };

		aclcache_put(&c, &t2, nv, nn);
	}
	assert_false(aclcache_get(&c, &t1, ACLCACHE_ACCESS, &v, &n));
	assert_true(aclcache_get(&c, &t2, ACLCACHE_ACCESS, &v, &n));
	assert_int_equal(n, 6);
	assert_memory_equal(v, "bbbbbb", 6);
	free(v);
	assert_true(aclcache_get(&c, &t2, ACLCACHE_DEFAULT, &v, &n));
	assert_int_equal(n, 2);
	assert_memory_equal(v, "dd", 2);
	free(v);
	aclcache_clear(&c);
}

static void test_drop(void **state)
{
	struct aclcache c = { 0 };
	void *v;
	size_t n;

	(void)state;
	put_access(&c, &t1);
	aclcache_drop(&c);
	assert_false(aclcache_get(&c, &t1, ACLCACHE_ACCESS, &v, &n));
	/* A put after a drop is believed again. */
	put_access(&c, &t1);
	assert_true(aclcache_get(&c, &t1, ACLCACHE_ACCESS, &v, &n));
	free(v);
	aclcache_clear(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_misses),
		cmocka_unit_test(test_hit_is_a_copy),
		cmocka_unit_test(test_ctime_dates_the_entry),
		cmocka_unit_test(test_drop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
