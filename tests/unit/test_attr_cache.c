/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The attribute cache rules, driven by a clock of the test's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/cache/attr.h"

#define S NS_PER_SEC
/* Wall clock of the test: the files' timestamps are an hour old. */
#define REAL (1700000000ll * S)

static const struct acache_params params = {
	.regmin = 3, .regmax = 60, .dirmin = 30, .dirmax = 60,
	.time_delta_ns = S,
};

static struct fattr3 file_attr(uint64_t size, uint32_t mtime)
{
	struct fattr3 a;

	memset(&a, 0, sizeof(a));
	a.type = NF3REG;
	a.size = size;
	a.mtime.seconds = a.ctime.seconds = mtime;
	return a;
}

static void test_timeout_doubles_and_resets(void **state)
{
	struct attr_state s = { 0 };
	struct fattr3 a = file_attr(10, (uint32_t)(REAL / S) - 3600);
	int64_t skew = 0, t = 0;

	(void)state;
	assert_int_equal(acache_update(&s, &a, &params, t, REAL, &skew),
			 ACACHE_NEW);
	assert_true(acache_fresh(&s, t + 2 * S));
	assert_false(acache_fresh(&s, t + 3 * S));   /* acregmin = 3 s */

	/* Each confirmation without change doubles: 6, 12, 24, 48, 60. */
	int64_t want[] = { 6, 12, 24, 48, 60, 60 };
	for (size_t i = 0; i < 6; i++) {
		t += 100 * S;
		assert_int_equal(acache_update(&s, &a, &params, t, REAL + t,
					       &skew), ACACHE_SAME);
		assert_int_equal(s.timeo, want[i] * S);
	}
	/* A change starts again at the minimum. */
	a.size = 11;
	t += S;
	assert_int_equal(acache_update(&s, &a, &params, t, REAL + t, &skew),
			 ACACHE_DATA);
	assert_int_equal(s.timeo, 3 * S);
	/* ctime alone is metadata, not data. */
	a.ctime.seconds++;
	assert_int_equal(acache_update(&s, &a, &params, t, REAL + t, &skew),
			 ACACHE_META);
}

static void test_directories_use_dir_limits(void **state)
{
	struct attr_state s = { 0 };
	struct fattr3 a = file_attr(4096, (uint32_t)(REAL / S) - 3600);
	int64_t skew = 0;

	(void)state;
	a.type = NF3DIR;
	acache_update(&s, &a, &params, 0, REAL, &skew);
	assert_int_equal(s.timeo, 30 * S);
	assert_true(acache_remaining(&s, 10 * S) > 19.9);
}

static void test_noac(void **state)
{
	struct acache_params p = params;
	struct attr_state s = { 0 };
	struct fattr3 a = file_attr(1, 1000);
	int64_t skew = 0;

	(void)state;
	p.noac = true;
	acache_update(&s, &a, &p, 0, REAL, &skew);
	assert_false(acache_fresh(&s, 0));
	assert_true(acache_remaining(&s, 0) == 0.0);
}

static void test_recent_change_not_trusted(void **state)
{
	struct attr_state s = { 0 };
	struct fattr3 a = file_attr(1, (uint32_t)(REAL / S));
	int64_t skew = 0;

	(void)state;
	/* Modified this very second on the server: not believed at all. */
	acache_update(&s, &a, &params, 0, REAL, &skew);
	assert_false(acache_fresh(&s, 0));
	/* Two seconds later the same attributes are trusted again. */
	acache_update(&s, &a, &params, 2 * S, REAL + 2 * S, &skew);
	assert_true(acache_fresh(&s, 2 * S));
}

static void test_server_clock_ahead(void **state)
{
	struct attr_state s = { 0 };
	/* The server's clock runs 100 s ahead: a file it changed "now" has a
	 * ctime 100 s in our future. */
	struct fattr3 fresh = file_attr(1, (uint32_t)(REAL / S) + 100);
	struct fattr3 other = file_attr(1, (uint32_t)(REAL / S) + 99);
	int64_t skew = 0;

	(void)state;
	acache_update(&s, &fresh, &params, 0, REAL, &skew);
	assert_int_equal(skew, 100 * S);
	/* A file changed half a second before the server's now is inside
	 * time_delta even though it is 99 s in our future. */
	other.mtime.nseconds = other.ctime.nseconds = 500000000;
	memset(&s, 0, sizeof(s));
	acache_update(&s, &other, &params, 0, REAL, &skew);
	assert_false(acache_fresh(&s, 0));
}

static void test_wcc_match(void **state)
{
	struct attr_state s = { 0 };
	struct fattr3 a = file_attr(7, 1000);
	struct wcc_attr pre = { .size = 7, .mtime = { 1000, 0 },
				.ctime = { 1000, 0 } };
	int64_t skew = 0;

	(void)state;
	assert_false(acache_wcc_matches(&s, &pre));  /* nothing cached */
	acache_update(&s, &a, &params, 0, REAL, &skew);
	assert_true(acache_wcc_matches(&s, &pre));
	pre.mtime.nseconds = 1;                      /* someone else wrote */
	assert_false(acache_wcc_matches(&s, &pre));
	pre.mtime.nseconds = 0;
	pre.size = 8;
	assert_false(acache_wcc_matches(&s, &pre));
	acache_invalidate(&s);
	assert_false(acache_fresh(&s, 0));
}

/* NFSv4's pre-op attributes are a change attribute (change_info4):
 * that alone decides, whatever the timestamps say. */
static void test_wcc_match_change(void **state)
{
	struct attr_state s = { 0 };
	struct fattr3 a = file_attr(7, 1000);
	struct wcc_attr pre = { .change = 42 };
	int64_t skew = 0;

	(void)state;
	a.change = 42;
	acache_update(&s, &a, &params, 0, REAL, &skew);
	assert_true(acache_wcc_matches(&s, &pre));
	pre.change = 43;                             /* moved in between */
	pre.size = 7;
	pre.mtime = pre.ctime = a.mtime;
	assert_false(acache_wcc_matches(&s, &pre));
	/* a cache from a version without one never matches it */
	a.change = 0;
	acache_update(&s, &a, &params, 1, REAL, &skew);
	assert_false(acache_wcc_matches(&s, &pre));
}

/* A file that lost a name is asked about again, and what the server
 * then says is still compared with what was cached: a data change behind
 * it is seen as one, not taken as a first answer. */
static void test_expire_keeps_for_compare(void **state)
{
	struct attr_state s = { 0 };
	struct fattr3 a = file_attr(7, 1000), b;
	int64_t skew = 0;

	(void)state;
	acache_update(&s, &a, &params, 0, REAL, &skew);
	assert_true(acache_fresh(&s, 1));
	acache_expire(&s);
	assert_false(acache_fresh(&s, 1));
	b = a;
	b.nlink = 1;
	b.ctime.seconds++;
	assert_int_equal(ACACHE_META, acache_update(&s, &b, &params, 2, REAL,
						    &skew));
	acache_expire(&s);
	b.mtime.seconds++;
	assert_int_equal(ACACHE_DATA, acache_update(&s, &b, &params, 3, REAL,
						    &skew));
}

/* NFSv4's change attribute: equal proves no change, whatever the
 * timestamps; a file changed just now is still believed, since a later
 * change in the same clock tick would move the attribute. */
static void test_change_attribute(void **state)
{
	struct attr_state s = { 0 };
	uint32_t now_s = (uint32_t)(REAL / S);
	struct fattr3 a = file_attr(10, now_s); /* changed this second */
	int64_t skew = 0, t = 0;

	(void)state;
	/* without it, attributes this fresh are not believed */
	acache_update(&s, &a, &params, t, REAL, &skew);
	assert_int_equal(s.timeo, 0);

	memset(&s, 0, sizeof(s));
	a.change = 42;
	acache_update(&s, &a, &params, t, REAL, &skew);
	assert_int_equal(s.timeo, 3 * S);
	/* the same change value: the same file, timeout doubling */
	t += 4 * S;
	assert_int_equal(acache_update(&s, &a, &params, t, REAL + t, &skew),
			 ACACHE_SAME);
	assert_int_equal(s.timeo, 6 * S);
	/* a new value without a size or mtime move: metadata */
	a.change = 43;
	assert_int_equal(acache_update(&s, &a, &params, t, REAL + t, &skew),
			 ACACHE_META);
	assert_int_equal(s.timeo, 3 * S);
	/* and with one: data */
	a.change = 44;
	a.size = 11;
	assert_int_equal(acache_update(&s, &a, &params, t, REAL + t, &skew),
			 ACACHE_DATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeout_doubles_and_resets),
		cmocka_unit_test(test_directories_use_dir_limits),
		cmocka_unit_test(test_noac),
		cmocka_unit_test(test_recent_change_not_trusted),
		cmocka_unit_test(test_server_clock_ahead),
		cmocka_unit_test(test_wcc_match),
		cmocka_unit_test(test_wcc_match_change),
		cmocka_unit_test(test_expire_keeps_for_compare),
		cmocka_unit_test(test_change_attribute),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
