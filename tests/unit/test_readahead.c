/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The read-ahead policy (src/cache/readahead.c): a sequential reader opens
 * a window that doubles up to its maximum; reads a little out of order
 * (the kernel's worker threads) keep the stream; a read elsewhere closes
 * the window; nothing is fetched past the limit; a small rsize bounds the
 * window in READs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/cache/readahead.h"

#define K 1024u
#define M (1024u * 1024u)
#define RSIZE (1 * M)
#define BIG (1ull << 40) /* a file size that never limits */

/* A read of size at off; everything proposed is issued. */
static void rd(struct readahead *ra, uint64_t off, size_t size,
	       uint64_t limit, uint64_t *start, uint64_t *end)
{
	readahead_next(ra, RSIZE, off, size, limit, start, end);
	readahead_issued(ra, *end > *start ? *end : *start);
}

static void test_sequential_grows(void **state)
{
	struct readahead ra = { 0 };
	uint64_t s, e, off = 0;

	(void)state;
	/* The first read starts no stream. */
	rd(&ra, 0, 128 * K, BIG, &s, &e);
	assert_int_equal(ra.window, 0);
	assert_true(e <= s);
	off = 128 * K;
	/* The next one where it stopped opens the window... */
	rd(&ra, off, 128 * K, BIG, &s, &e);
	assert_int_equal(ra.window, READAHEAD_START);
	assert_int_equal(s, off + 128 * K);
	assert_int_equal(e, off + 128 * K + READAHEAD_START);
	/* ...which doubles, then stays at the maximum. */
	off += 128 * K;
	rd(&ra, off, 128 * K, BIG, &s, &e);
	assert_int_equal(ra.window, READAHEAD_MAX);
	off += 128 * K;
	rd(&ra, off, 128 * K, BIG, &s, &e);
	assert_int_equal(ra.window, READAHEAD_MAX);
	/* What was issued is not proposed again. */
	assert_int_equal(s, off + 128 * K + READAHEAD_MAX - 128 * K);
}

static void test_out_of_order_keeps_stream(void **state)
{
	struct readahead ra = { 0 };
	uint64_t s, e;

	(void)state;
	rd(&ra, 0, 128 * K, BIG, &s, &e);
	rd(&ra, 128 * K, 128 * K, BIG, &s, &e);
	rd(&ra, 384 * K, 128 * K, BIG, &s, &e);
	assert_int_equal(ra.window, READAHEAD_MAX);
	/* The request the other worker thread had: behind, but inside. */
	rd(&ra, 256 * K, 128 * K, BIG, &s, &e);
	assert_int_equal(ra.window, READAHEAD_MAX);
	assert_int_equal(ra.last_end, 512 * K);
	/* It did not move what is read ahead back. */
	assert_true(s >= 512 * K + READAHEAD_START);
}

static void test_seek_closes_window(void **state)
{
	struct readahead ra = { 0 };
	uint64_t s, e;

	(void)state;
	rd(&ra, 0, 128 * K, BIG, &s, &e);
	rd(&ra, 128 * K, 128 * K, BIG, &s, &e);
	assert_int_not_equal(ra.window, 0);
	rd(&ra, 100 * M, 128 * K, BIG, &s, &e);
	assert_int_equal(ra.window, 0);
	assert_true(e <= s);
	/* A read at 0 is never a continuation. */
	rd(&ra, 100 * M + 128 * K, 128 * K, BIG, &s, &e);
	assert_int_not_equal(ra.window, 0);
	rd(&ra, 0, 128 * K, BIG, &s, &e);
	assert_int_equal(ra.window, 0);
}

static void test_limit(void **state)
{
	struct readahead ra = { 0 };
	uint64_t s, e;

	(void)state;
	rd(&ra, 0, 128 * K, 1 * M, &s, &e);
	rd(&ra, 128 * K, 128 * K, 1 * M, &s, &e);
	assert_int_equal(e, 1 * M);
	/* Size unknown (limit 0): the stream is followed, nothing fetched. */
	rd(&ra, 256 * K, 128 * K, 0, &s, &e);
	assert_true(e <= s);
	assert_int_not_equal(ra.window, 0);
}

static void test_small_rsize(void **state)
{
	struct readahead ra = { 0 };
	uint64_t s, e;

	(void)state;
	readahead_next(&ra, 8 * K, 0, 8 * K, BIG, &s, &e);
	readahead_issued(&ra, s);
	readahead_next(&ra, 8 * K, 8 * K, 8 * K, BIG, &s, &e);
	assert_int_equal(ra.window, 4 * 8 * K);
	for (int k = 2; k < 10; k++) {
		readahead_issued(&ra, e);
		readahead_next(&ra, 8 * K, k * 8 * K, 8 * K, BIG, &s, &e);
	}
	assert_int_equal(ra.window, 16 * 8 * K);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential_grows),
		cmocka_unit_test(test_out_of_order_keeps_stream),
		cmocka_unit_test(test_seek_closes_window),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_small_rsize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
