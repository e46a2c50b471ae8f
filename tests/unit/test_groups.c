/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cache of callers' supplementary groups: when a remembered set may be
 * sent again, on a clock of the test's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/base/stats.h"
#include "../../src/cache/groups.h"

#define MS 1000000ll
#define T0 (1000 * MS)

static const uint32_t g3[] = { 10, 20, 30 };

static struct groups_key key(uint32_t tid, uint32_t uid, uint32_t gid)
{
	return (struct groups_key){ .tid = tid, .uid = uid, .gid = gid };
}

static bool lookup(struct groups_cache *c, struct groups_key k, int64_t now,
		   uint32_t *n)
{
	uint32_t gids[RPC_AUTH_SYS_MAXGIDS];

	memset(gids, 0xff, sizeof(gids));
	if (!groups_lookup(c, &k, now, gids, n))
		return false;
	if (*n == 3)
		assert_memory_equal(gids, g3, sizeof(g3));
	return true;
}

static void test_hit_within_bound(void **state)
{
	struct groups_cache *c = groups_cache_new();
	uint32_t n = 99;

	(void)state;
	assert_false(lookup(c, key(4242, 1000, 100), T0, &n));
	groups_store(c, &(struct groups_key){ 4242, 1000, 100 }, g3, 3, T0);
	assert_true(lookup(c, key(4242, 1000, 100), T0, &n));
	assert_int_equal(n, 3);
	assert_true(lookup(c, key(4242, 1000, 100),
			   T0 + GROUPS_MAX_AGE_NS - 1, &n));
	assert_int_equal(n, 3);
	groups_cache_free(c);
}

static void test_expires_at_bound(void **state)
{
	struct groups_cache *c = groups_cache_new();
	uint32_t n;

	(void)state;
	groups_store(c, &(struct groups_key){ 4242, 1000, 100 }, g3, 3, T0);
	assert_false(lookup(c, key(4242, 1000, 100), T0 + GROUPS_MAX_AGE_NS,
			    &n));
	assert_false(lookup(c, key(4242, 1000, 100), T0 + 3600 * 1000 * MS,
			    &n));
	/* A clock behind the read believes nothing. */
	assert_false(lookup(c, key(4242, 1000, 100), T0 - 1, &n));
	/* Read again: believed again. */
	groups_store(c, &(struct groups_key){ 4242, 1000, 100 }, g3, 3,
		     T0 + 5000 * MS);
	assert_true(lookup(c, key(4242, 1000, 100), T0 + 5001 * MS, &n));
	groups_cache_free(c);
}

/* setuid/setgid in the same thread, or another thread of the same id: not
 * the same caller. */
static void test_keyed_by_tid_uid_gid(void **state)
{
	struct groups_cache *c = groups_cache_new();
	uint32_t n;

	(void)state;
	groups_store(c, &(struct groups_key){ 4242, 1000, 100 }, g3, 3, T0);
	assert_false(lookup(c, key(4242, 1001, 100), T0 + MS, &n));
	assert_false(lookup(c, key(4242, 1000, 101), T0 + MS, &n));
	assert_false(lookup(c, key(4242, 0, 0), T0 + MS, &n));
	assert_false(lookup(c, key(4243, 1000, 100), T0 + MS, &n));
	/* A thread id that shares the slot does not read the other's. */
	assert_false(lookup(c, key(4242 + GROUPS_SLOTS * 64, 1000, 100),
			    T0 + MS, &n));
	assert_true(lookup(c, key(4242, 1000, 100), T0 + MS, &n));
	groups_cache_free(c);
}

/* The same thread after setresuid: its new identity's groups replace the
 * old ones, and going back reads again. */
static void test_new_identity_replaces(void **state)
{
	static const uint32_t g1[] = { 7 };
	struct groups_cache *c = groups_cache_new();
	uint32_t gids[RPC_AUTH_SYS_MAXGIDS], n;

	(void)state;
	groups_store(c, &(struct groups_key){ 4242, 1000, 100 }, g3, 3, T0);
	groups_store(c, &(struct groups_key){ 4242, 0, 0 }, g1, 1, T0 + MS);
	assert_true(groups_lookup(c, &(struct groups_key){ 4242, 0, 0 },
				  T0 + 2 * MS, gids, &n));
	assert_int_equal(n, 1);
	assert_int_equal(gids[0], 7);
	assert_false(lookup(c, key(4242, 1000, 100), T0 + 2 * MS, &n));
	groups_cache_free(c);
}

static void test_tid_zero_has_none(void **state)
{
	struct groups_cache *c = groups_cache_new();
	uint32_t gids[RPC_AUTH_SYS_MAXGIDS], n = 99;
	uint64_t hits = STAT_GET(groups_hits), reads = STAT_GET(groups_reads);

	(void)state;
	assert_true(groups_lookup(c, &(struct groups_key){ 0, 1000, 100 }, T0,
				  gids, &n));
	assert_int_equal(n, 0);
	/* Nothing stored under 0 is ever sent. */
	groups_store(c, &(struct groups_key){ 0, 1000, 100 }, g3, 3, T0);
	assert_true(groups_lookup(c, &(struct groups_key){ 0, 1000, 100 },
				  T0 + MS, gids, &n));
	assert_int_equal(n, 0);
	/* Counted as neither. */
	assert_int_equal(STAT_GET(groups_hits), hits);
	assert_int_equal(STAT_GET(groups_reads), reads);
	groups_cache_free(c);
}

static void test_no_groups_and_too_many(void **state)
{
	struct groups_cache *c = groups_cache_new();
	uint32_t many[RPC_AUTH_SYS_MAXGIDS + 4], gids[RPC_AUTH_SYS_MAXGIDS];
	uint32_t n = 99;
	uint64_t hits = STAT_GET(groups_hits), reads = STAT_GET(groups_reads);

	(void)state;
	groups_store(c, &(struct groups_key){ 5, 1000, 100 }, NULL, 0, T0);
	assert_true(groups_lookup(c, &(struct groups_key){ 5, 1000, 100 },
				  T0 + MS, gids, &n));
	assert_int_equal(n, 0);
	for (uint32_t i = 0; i < RPC_AUTH_SYS_MAXGIDS + 4; i++)
		many[i] = 1000 + i;
	groups_store(c, &(struct groups_key){ 6, 1000, 100 }, many,
		     RPC_AUTH_SYS_MAXGIDS + 4, T0);
	assert_true(groups_lookup(c, &(struct groups_key){ 6, 1000, 100 },
				  T0 + MS, gids, &n));
	assert_int_equal(n, RPC_AUTH_SYS_MAXGIDS);
	assert_memory_equal(gids, many, sizeof(gids));
	assert_int_equal(STAT_GET(groups_hits), hits + 2);
	assert_int_equal(STAT_GET(groups_reads), reads);
	groups_cache_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_within_bound),
		cmocka_unit_test(test_expires_at_bound),
		cmocka_unit_test(test_keyed_by_tid_uid_gid),
		cmocka_unit_test(test_new_identity_replaces),
		cmocka_unit_test(test_tid_zero_has_none),
		cmocka_unit_test(test_no_groups_and_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
