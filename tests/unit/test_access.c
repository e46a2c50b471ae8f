/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ACCESS cache, keyed by whole credential, on a clock of the test's
 * own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/cache/access.h"

#define S 1000000000ll
#define RW (ACCESS3_READ | ACCESS3_MODIFY | ACCESS3_EXTEND)

static const struct nfstime3 ct = { 1700000000, 5 };

static struct access_key key(uint32_t uid, uint32_t gid, uint32_t n,
			     const uint32_t *gids)
{
	struct rpc_cred c = { .flavor = RPC_AUTH_SYS, .uid = uid, .gid = gid,
			      .ngids = n };
	struct access_key k;

	if (n)
		memcpy(c.gids, gids, n * sizeof(*gids));
	access_key_of(&k, &c);
	return k;
}

static void test_keyed_by_whole_credential(void **state)
{
	static const uint32_t g12[] = { 1, 2 }, g21[] = { 2, 1 }, g1[] = { 1 },
			      g13[] = { 1, 3 };
	struct access_cache c = { 0 };
	struct access_key mine = key(1000, 100, 2, g12);
	struct access_key k;
	uint32_t got = 0;

	(void)state;
	access_store(&c, &mine, ACCESS3_ALL, ACCESS3_READ, &ct, 10 * S);
	assert_true(access_lookup(&c, &mine, ACCESS3_READ, &ct, 11 * S, &got));
	assert_int_equal(got, ACCESS3_READ);
	/* The same groups listed in another order: the same credential. */
	k = key(1000, 100, 2, g21);
	assert_true(access_lookup(&c, &k, ACCESS3_READ, &ct, 11 * S, &got));
	/* Same uid, anything else different: another credential. */
	k = key(1000, 101, 2, g12);
	assert_false(access_lookup(&c, &k, ACCESS3_READ, &ct, 11 * S, &got));
	k = key(1000, 100, 2, g13);
	assert_false(access_lookup(&c, &k, ACCESS3_READ, &ct, 11 * S, &got));
	k = key(1000, 100, 0, NULL);
	assert_false(access_lookup(&c, &k, ACCESS3_READ, &ct, 11 * S, &got));
	k = key(1001, 100, 2, g12);
	assert_false(access_lookup(&c, &k, ACCESS3_READ, &ct, 11 * S, &got));
	/* A user removed from group 2: the new process's groups no longer
	 * match the answer its group earned. */
	k = key(1000, 100, 1, g1);
	assert_false(access_lookup(&c, &k, ACCESS3_READ, &ct, 11 * S, &got));
}

static void test_each_credential_its_own_answer(void **state)
{
	static const uint32_t g[] = { 50 };
	struct access_cache c = { 0 };
	struct access_key with = key(1000, 100, 1, g), without =
		key(1000, 100, 0, NULL);
	uint32_t got;

	(void)state;
	access_store(&c, &with, ACCESS3_ALL, ACCESS3_READ, &ct, S);
	access_store(&c, &without, ACCESS3_ALL, 0, &ct, S);
	assert_true(access_lookup(&c, &with, ACCESS3_READ, &ct, 2 * S, &got));
	assert_int_equal(got, ACCESS3_READ);
	assert_true(access_lookup(&c, &without, ACCESS3_READ, &ct, 2 * S,
				  &got));
	assert_int_equal(got, 0);
	assert_int_equal(access_count(&c), 2);
	/* A new answer for one replaces its own slot only. */
	access_store(&c, &without, ACCESS3_ALL, RW, &ct, 3 * S);
	assert_int_equal(access_count(&c), 2);
	assert_true(access_lookup(&c, &with, ACCESS3_READ, &ct, 4 * S, &got));
	assert_int_equal(got, ACCESS3_READ);
}

static void test_expiry(void **state)
{
	struct access_cache c = { 0 };
	struct access_key k = key(7, 7, 0, NULL);
	uint32_t got;

	(void)state;
	access_store(&c, &k, ACCESS3_ALL, RW, &ct, 100 * S);
	assert_true(access_lookup(&c, &k, RW, &ct,
				  100 * S + ACCESS_MAX_AGE_NS - 1, &got));
	assert_false(access_lookup(&c, &k, RW, &ct,
				   100 * S + ACCESS_MAX_AGE_NS, &got));
}

static void test_ctime_change_ends_it(void **state)
{
	struct access_cache c = { 0 };
	struct access_key k = key(7, 7, 0, NULL);
	struct nfstime3 later = ct;
	uint32_t got;

	(void)state;
	access_store(&c, &k, ACCESS3_ALL, RW, &ct, S);
	later.nseconds++;      /* a chmod, chown or SETACL since */
	assert_false(access_lookup(&c, &k, ACCESS3_READ, &later, 2 * S, &got));
	assert_true(access_lookup(&c, &k, ACCESS3_READ, &ct, 2 * S, &got));
}

static void test_only_bits_asked(void **state)
{
	struct access_cache c = { 0 };
	struct access_key k = key(7, 7, 0, NULL);
	uint32_t got;

	(void)state;
	access_store(&c, &k, ACCESS3_READ, ACCESS3_READ, &ct, S);
	assert_true(access_lookup(&c, &k, ACCESS3_READ, &ct, 2 * S, &got));
	/* Never asked about writing: no answer, not a refusal. */
	assert_false(access_lookup(&c, &k, ACCESS3_MODIFY, &ct, 2 * S, &got));
}

static void test_oldest_replaced(void **state)
{
	struct access_cache c = { 0 };
	struct access_key k;
	uint32_t got;

	(void)state;
	for (uint32_t u = 0; u < ACCESS_SLOTS; u++) {
		k = key(u, u, 0, NULL);
		access_store(&c, &k, ACCESS3_ALL, RW, &ct, (10 - u) * S);
	}
	/* The oldest answer is the last user's (time 10 - SLOTS + 1). */
	k = key(99, 99, 0, NULL);
	access_store(&c, &k, ACCESS3_ALL, RW, &ct, 20 * S);
	assert_int_equal(access_count(&c), ACCESS_SLOTS);
	assert_true(access_lookup(&c, &k, RW, &ct, 21 * S, &got));
	k = key(ACCESS_SLOTS - 1, ACCESS_SLOTS - 1, 0, NULL);
	assert_false(access_lookup(&c, &k, RW, &ct, 21 * S, &got));
	k = key(0, 0, 0, NULL);
	assert_true(access_lookup(&c, &k, RW, &ct, 21 * S, &got));
	access_clear(&c);
	assert_int_equal(access_count(&c), 0);
	assert_false(access_lookup(&c, &k, RW, &ct, 21 * S, &got));
}

static void test_from_mode(void **state)
{
	struct fattr3 a = { .type = NF3REG, .mode = 0640, .uid = 10,
			    .gid = 20 };
	struct rpc_cred owner = { .uid = 10, .gid = 99 };
	struct rpc_cred member = { .uid = 11, .gid = 99, .ngids = 1,
				   .gids = { 20 } };
	struct rpc_cred other = { .uid = 12, .gid = 99 };
	struct rpc_cred root = { .uid = 0, .gid = 0 };

	(void)state;
	assert_int_equal(access_from_mode(&a, &owner),
			 ACCESS3_READ | ACCESS3_MODIFY | ACCESS3_EXTEND |
			 ACCESS3_DELETE);
	assert_int_equal(access_from_mode(&a, &member), ACCESS3_READ);
	assert_int_equal(access_from_mode(&a, &other), 0);
	/* Root: all but executing a file nobody may execute. */
	assert_int_equal(access_from_mode(&a, &root) & ACCESS3_EXECUTE, 0);
	assert_int_equal(access_from_mode(&a, &root) & RW, RW);
	a.type = NF3DIR;
	assert_true(access_from_mode(&a, &root) & ACCESS3_LOOKUP);
	/* The owner's bits, even where group or other say more. */
	a.mode = 0077;
	assert_int_equal(access_from_mode(&a, &owner), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keyed_by_whole_credential),
		cmocka_unit_test(test_each_credential_its_own_answer),
		cmocka_unit_test(test_expiry),
		cmocka_unit_test(test_ctime_change_ends_it),
		cmocka_unit_test(test_only_bits_asked),
		cmocka_unit_test(test_oldest_replaced),
		cmocka_unit_test(test_from_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
