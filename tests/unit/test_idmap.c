/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * User-namespace id maps: the text of /proc/PID/uid_map parsed, and ids
 * translated both ways through it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "../../src/base/idmap.h"

static struct idmap m;

static uint32_t out_of(uint32_t id)
{
	uint32_t v = 12345;

	assert_true(idmap_to_outside(&m, id, &v));
	return v;
}

static uint32_t in_of(uint32_t id)
{
	uint32_t v = 12345;

	assert_true(idmap_to_inside(&m, id, &v));
	return v;
}

static void test_identity(void **state)
{
	uint32_t v;

	(void)state;
	/* The initial namespace's map, as the kernel prints it. */
	assert_int_equal(idmap_parse("         0          0 4294967295\n", &m),
			 0);
	assert_true(m.identity);
	assert_int_equal(out_of(0), 0);
	assert_int_equal(out_of(1000), 1000);
	assert_int_equal(in_of(4294967294u), 4294967294u);
	/* (uid_t)-1 is no id, not even in the identity. */
	assert_false(idmap_to_outside(&m, 4294967295u, &v));
	assert_false(idmap_to_inside(&m, 4294967295u, &v));
	idmap_set_identity(&m);
	assert_true(m.identity);
	assert_int_equal(out_of(77), 77);
}

static void test_unshare_r(void **state)
{
	uint32_t v = 7;

	(void)state;
	/* unshare -Ur as uid 1002: one id, root inside. */
	assert_int_equal(idmap_parse("0 1002 1\n", &m), 0);
	assert_false(m.identity);
	assert_int_equal(out_of(0), 1002);
	assert_int_equal(in_of(1002), 0);
	assert_false(idmap_to_outside(&m, 1, &v));
	assert_false(idmap_to_inside(&m, 0, &v));
	assert_false(idmap_to_inside(&m, 1003, &v));
	assert_int_equal(v, 7); /* left alone when unmapped */
}

static void test_extents(void **state)
{
	uint32_t v;

	(void)state;
	/* Root to the user, then a subordinate range (newuidmap), then a
	 * single extra id, in no particular order. */
	assert_int_equal(idmap_parse("0 1002 1\n"
				     "         1     100000      65536\n"
				     "70000 1005 1\n", &m), 0);
	assert_int_equal(m.n, 3);
	assert_int_equal(out_of(0), 1002);
	assert_int_equal(out_of(1), 100000);
	assert_int_equal(out_of(65536), 165535);
	assert_false(idmap_to_outside(&m, 65537, &v));
	assert_int_equal(out_of(70000), 1005);
	assert_int_equal(in_of(1005), 70000);
	assert_int_equal(in_of(100000), 1);
	assert_int_equal(in_of(165535), 65536);
	assert_false(idmap_to_inside(&m, 165536, &v));
	assert_false(idmap_to_inside(&m, 99999, &v));
}

static void test_top_of_range(void **state)
{
	uint32_t v;

	(void)state;
	/* A range may reach 4294967294 but not the reserved -1. */
	assert_int_equal(idmap_parse("4294967294 5 1", &m), 0);
	assert_int_equal(out_of(4294967294u), 5);
	assert_int_equal(in_of(5), 4294967294u);
	assert_int_equal(idmap_parse("0 4294967294 1", &m), 0);
	assert_int_equal(in_of(4294967294u), 0);
	assert_false(idmap_to_inside(&m, 4294967295u, &v));
	assert_int_equal(idmap_parse("4294967294 0 2", &m), -EINVAL);
	assert_int_equal(idmap_parse("0 4294967294 2", &m), -EINVAL);
	assert_int_equal(idmap_parse("0 0 4294967296", &m), -EINVAL);
}

static void test_empty(void **state)
{
	uint32_t v;

	(void)state;
	/* A namespace whose map was never written maps nothing. */
	assert_int_equal(idmap_parse("", &m), 0);
	assert_int_equal(m.n, 0);
	assert_false(m.identity);
	assert_false(idmap_to_outside(&m, 0, &v));
	assert_false(idmap_to_inside(&m, 0, &v));
	assert_int_equal(idmap_parse("\n", &m), 0);
	assert_int_equal(m.n, 0);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"0 1000", "0 1000 0", "a 1 1", "0 1 1 9", "-1 0 1",
		"0 1000 1x", "0 1000 99999999999",
	};
	char many[400 * 8];
	size_t at = 0;

	(void)state;
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		assert_int_equal(idmap_parse(bad[k], &m), -EINVAL);
		assert_int_equal(m.n, 0);
	}
	for (unsigned k = 0; k <= IDMAP_MAX_EXTENTS; k++)
		at += (size_t)snprintf(many + at, sizeof(many) - at,
				       "%u %u 1\n", k, k);
	assert_int_equal(idmap_parse(many, &m), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_unshare_r),
		cmocka_unit_test(test_extents),
		cmocka_unit_test(test_top_of_range),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
