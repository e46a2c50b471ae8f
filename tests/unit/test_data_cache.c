/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The data-block cache: ranges, misses, truncation, the size cap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/uio.h>

#include <cmocka.h>

#include "../../src/cache/data.h"
#include "../../src/rpc/rpc.h"
#include "../../src/base/stats.h"


static uint8_t pattern(uint64_t off)
{
	return (uint8_t)(off * 7 + 3);
}

static void fill(uint8_t *buf, uint64_t off, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern(off + i);
}

static void check(const uint8_t *buf, uint64_t off, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != pattern(off + i))
			fail_msg("byte %llu differs", (unsigned long long)(off + i));
}

static void test_appends_read_back(void **state)
{
	struct dcache *dc = dcache_new(64u << 20);
	struct dfile *df = dfile_new(dc);
	uint8_t buf[300000];
	uint64_t off = 0;

	(void)state;
	/* 100 appends of odd sizes, across block boundaries. */
	for (int i = 0; i < 100; i++) {
		size_t n = 1000 + (size_t)i * 37;

		fill(buf, off, n);
		dcache_write(dc, df, off, buf, n);
		off += n;
	}
	memset(buf, 0, sizeof(buf));
	assert_int_equal(dcache_read(dc, df, 0, sizeof(buf), off, buf), off);
	check(buf, 0, off);
	/* Past EOF: nothing, not a miss. */
	assert_int_equal(dcache_read(dc, df, off, 100, off, buf), 0);
	dfile_free(dc, df);
	dcache_free(dc);
}

static void test_holes_miss(void **state)
{
	struct dcache *dc = dcache_new(64u << 20);
	struct dfile *df = dfile_new(dc);
	uint8_t buf[8192];

	(void)state;
	fill(buf, 0, 4096);
	dcache_fill(dc, df, 0, buf, 4096);
	fill(buf, 8192, 4096);
	dcache_write(dc, df, 8192, buf, 4096);  /* replaces [0,4096) */
	memset(buf, 0xEE, sizeof(buf));
	assert_int_equal(dcache_read(dc, df, 0, 100, 1 << 20, buf), -1);
	assert_int_equal(buf[0], 0xEE);          /* a miss copies nothing */
	assert_int_equal(dcache_read(dc, df, 8192, 4096, 1 << 20, buf), 4096);
	check(buf, 8192, 4096);
	/* A range spanning a cached and a missing block misses. */
	assert_int_equal(dcache_read(dc, df, 8192, DCACHE_BLOCK, 1 << 20, buf),
			 -1);
	dfile_free(dc, df);
	dcache_free(dc);
}

static void test_truncate_and_purge(void **state)
{
	struct dcache *dc = dcache_new(64u << 20);
	struct dfile *df = dfile_new(dc);
	static uint8_t buf[3 * DCACHE_BLOCK];
	unsigned blocks;
	size_t bytes;

	(void)state;
	fill(buf, 0, sizeof(buf));
	dcache_fill(dc, df, 0, buf, sizeof(buf));
	dcache_describe(dc, df, &blocks, &bytes);
	assert_int_equal(blocks, 3);
	assert_int_equal(bytes, sizeof(buf));
	dcache_truncate(dc, df, DCACHE_BLOCK + 10);
	dcache_describe(dc, df, &blocks, &bytes);
	assert_int_equal(blocks, 2);
	assert_int_equal(bytes, DCACHE_BLOCK + 10);
	assert_int_equal(dcache_read(dc, df, 0, sizeof(buf), sizeof(buf), buf),
			 -1);                 /* bytes past the cut are gone */
	assert_int_equal(dcache_purge(dc, df), 2);
	assert_int_equal(dcache_bytes(dc), 0);
	dfile_free(dc, df);
	dcache_free(dc);
}

/* A reader's READ smaller than a block takes no block of its own, but
 * updates one that is there; a whole block is kept. */
static void test_refresh_small_reads(void **state)
{
	struct dcache *dc = dcache_new(64u << 20);
	struct dfile *df = dfile_new(dc);
	static uint8_t buf[2 * DCACHE_BLOCK];
	unsigned blocks;
	size_t bytes;

	(void)state;
	fill(buf, 5 * DCACHE_BLOCK, 4096);
	assert_int_equal(dcache_refresh(dc, df, 5 * DCACHE_BLOCK, buf, 4096,
					false),
			 4096);
	assert_int_equal(dcache_bytes(dc), 0);
	/* Unaligned, one block and a bit: the whole block is kept, the
	 * pieces of the blocks around it are not. */
	fill(buf, DCACHE_BLOCK - 100, DCACHE_BLOCK + 200);
	assert_int_equal(dcache_refresh(dc, df, DCACHE_BLOCK - 100, buf,
					DCACHE_BLOCK + 200, false), 200);
	dcache_describe(dc, df, &blocks, &bytes);
	assert_int_equal(blocks, 1);
	assert_int_equal(bytes, DCACHE_BLOCK);
	/* Into a block that exists: kept, and read back. */
	fill(buf, 0, 4096);
	dcache_write(dc, df, 0, buf, 4096);
	fill(buf, 4096, 4096);
	assert_int_equal(dcache_refresh(dc, df, 4096, buf, 4096, false), 0);
	assert_int_equal(dcache_read(dc, df, 0, 8192, 1 << 30, buf), 8192);
	check(buf, 0, 8192);
	/* A small file read whole (eof) keeps its one block; a piece that
	 * does not start the block does not, eof or not. */
	fill(buf, 8 * DCACHE_BLOCK, 900);
	assert_int_equal(dcache_refresh(dc, df, 8 * DCACHE_BLOCK, buf, 900,
					true), 0);
	assert_int_equal(dcache_read(dc, df, 8 * DCACHE_BLOCK, 900, 1 << 30,
				     buf), 900);
	check(buf, 8 * DCACHE_BLOCK, 900);
	fill(buf, 9 * DCACHE_BLOCK + 4096, 900);
	assert_int_equal(dcache_refresh(dc, df, 9 * DCACHE_BLOCK + 4096, buf,
					900, true), 900);
	dfile_free(dc, df);
	dcache_free(dc);
}

static void test_cap_evicts_lru(void **state)
{
	struct dcache *dc = dcache_new(4 * DCACHE_BLOCK);
	struct dfile *df = dfile_new(dc);
	static uint8_t buf[DCACHE_BLOCK];

	(void)state;
	for (uint64_t i = 0; i < 16; i++) {
		fill(buf, i * DCACHE_BLOCK, DCACHE_BLOCK);
		dcache_fill(dc, df, i * DCACHE_BLOCK, buf, DCACHE_BLOCK);
		/* Keep block 0 hot. */
		assert_int_equal(dcache_read(dc, df, 0, 10, 1ull << 40, buf), 10);
	}
	assert_true(dcache_bytes(dc) <= 4 * DCACHE_BLOCK);
	assert_int_equal(dcache_read(dc, df, 0, 10, 1ull << 40, buf), 10);
	assert_int_equal(dcache_read(dc, df, 15 * DCACHE_BLOCK, 10, 1ull << 40,
				     buf), 10);
	assert_int_equal(dcache_read(dc, df, 1 * DCACHE_BLOCK, 10, 1ull << 40,
				     buf), -1);
	assert_true(cache_stats.evictions >= 12);
	dfile_free(dc, df);
	dcache_free(dc);
}

/* Resident bytes of this process (statm). */
static size_t rss_bytes(void)
{
	unsigned long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lu %lu", &size, &resident), 2);
	fclose(f);
	return resident * (size_t)sysconf(_SC_PAGESIZE);
}

/* 256 small files written whole hold their pages, not 256 blocks: a
 * block begun with a few bytes takes its memory as it is written. */
static void test_small_files_hold_little(void **state)
{
	struct dcache *dc = dcache_new(64u << 20);
	struct dfile *df[256];
	uint8_t buf[300];
	size_t before;

	(void)state;
	fill(buf, 0, sizeof(buf));
	before = rss_bytes();
	for (int i = 0; i < 256; i++) {
		df[i] = dfile_new(dc);
		dcache_write(dc, df[i], 0, buf, sizeof(buf));
	}
	/* Eight slabs of 2 MiB each had they been filled in advance: 16 MiB. */
	if (rss_bytes() > before + (4u << 20))
		fail_msg("256 files of %zu bytes made the process %zu KiB larger",
			 sizeof(buf), (rss_bytes() - before) >> 10);
	for (int i = 0; i < 256; i++) {
		memset(buf, 0, sizeof(buf));
		assert_int_equal(dcache_read(dc, df[i], 0, sizeof(buf),
					     sizeof(buf), buf), sizeof(buf));
		check(buf, 0, sizeof(buf));
		dfile_free(dc, df[i]);
	}
	dcache_free(dc);
}

/* A file deleted and written again takes the memory it had: empty slabs
 * stay while the slabs are within the cap, and their pages, given back,
 * read as whatever they hold when taken again (the blocks written anew
 * read back right).  A lower cap sends empty slabs past it back. */
static void test_empty_slabs_kept_to_cap(void **state)
{
	const size_t size = 8u << 20;
	struct dcache *dc = dcache_new(64u << 20);
	uint8_t *buf = malloc(size);
	struct dfile *df;
	size_t held;

	(void)state;
	assert_non_null(buf);
	fill(buf, 0, size);
	df = dfile_new(dc);
	dcache_write(dc, df, 0, buf, size);
	held = dcache_slab_bytes(dc);
	assert_true(held >= size);
	dfile_free(dc, df);
	assert_int_equal(dcache_bytes(dc), 0);
	assert_int_equal(dcache_slab_bytes(dc), held);

	for (int round = 0; round < 3; round++) {
		df = dfile_new(dc);
		fill(buf, (uint64_t)round << 30, size);
		dcache_write(dc, df, (uint64_t)round << 30, buf, size);
		assert_int_equal(dcache_slab_bytes(dc), held);
		memset(buf, 0, size);
		assert_int_equal(dcache_read(dc, df, (uint64_t)round << 30,
					     size, 1ull << 40, buf), size);
		check(buf, (uint64_t)round << 30, size);
		dfile_free(dc, df);
	}

	dcache_set_cap(dc, 2u << 20);
	assert_true(dcache_slab_bytes(dc) <= (2u << 20));
	free(buf);
	dcache_free(dc);
}

/* A file written in one sequence keeps its first DCACHE_STREAM_KEEP
 * bytes; past them its writes update the blocks it has (none keeps older
 * bytes) and make no new ones.  A write elsewhere starts a new sequence. */
static void test_write_stream_keeps_its_start(void **state)
{
	const uint64_t keep = DCACHE_STREAM_KEEP, blk = DCACHE_BLOCK;
	const uint64_t end = keep + 4 * blk, had = keep + 2 * blk;
	struct dcache *dc = dcache_new(64u << 20);
	struct dfile *df = dfile_new(dc);
	uint64_t u0 = cache_stats.data_stream_uncached;
	static uint8_t buf[DCACHE_BLOCK];

	(void)state;
	/* A block written out of sequence first: it holds other bytes. */
	memset(buf, 0xee, blk);
	dcache_write(dc, df, had, buf, blk);
	assert_true(dcache_has(dc, df, had, blk));
	/* Then the whole file, in sequence, 4 KiB at a time. */
	for (uint64_t off = 0; off < end; off += 4096) {
		fill(buf, off, 4096);
		dcache_write(dc, df, off, buf, 4096);
	}
	assert_true(dcache_has(dc, df, 0, keep));
	assert_false(dcache_has(dc, df, keep, blk));
	assert_false(dcache_has(dc, df, keep + 3 * blk, blk));
	/* The block the file had took the new bytes. */
	assert_int_equal(dcache_read(dc, df, had, blk, end, buf), blk);
	check(buf, had, blk);
	assert_int_equal(cache_stats.data_stream_uncached - u0, 3 * blk);
	/* Elsewhere: a new sequence, cached. */
	fill(buf, keep + blk, 4096);
	dcache_write(dc, df, keep + blk, buf, 4096);
	assert_true(dcache_has(dc, df, keep + blk, 4096));
	dfile_free(dc, df);
	dcache_free(dc);
}

/* The send callback of test_stream_drops_behind: copies what it is given. */
struct sink {
	uint8_t *buf;
	size_t len;
};

static int sink_send(void *ctx, const struct iovec *iov, int n)
{
	struct sink *k = ctx;

	k->len = 0;
	for (int i = 0; i < n; i++) {
		memcpy(k->buf + k->len, iov[i].iov_base, iov[i].iov_len);
		k->len += iov[i].iov_len;
	}
	return 0;
}

/* A sequential reader's read-ahead blocks go once it has them to their
 * end; blocks of our own writes, a block it has only in part, and
 * anything sent to a reader out of sequence stay. */
static void test_stream_drops_behind(void **state)
{
	struct dcache *dc = dcache_new(64u << 20);
	struct dfile *df = dfile_new(dc);
	static uint8_t buf[4 * DCACHE_BLOCK], out[4 * DCACHE_BLOCK];
	struct sink k = { out, 0 };
	uint64_t eof = 6 * DCACHE_BLOCK, d0 = cache_stats.data_dropped_behind;

	(void)state;
	fill(buf, 0, 4 * DCACHE_BLOCK);
	dcache_fill(dc, df, 0, buf, 4 * DCACHE_BLOCK);     /* blocks 0-3 */
	fill(buf, 4 * DCACHE_BLOCK, DCACHE_BLOCK);
	dcache_write(dc, df, 4 * DCACHE_BLOCK, buf, DCACHE_BLOCK); /* 4 */

	/* Out of sequence: everything stays. */
	assert_int_equal(dcache_send(dc, df, 0, DCACHE_BLOCK, eof, false,
				     sink_send, &k), 0);
	assert_int_equal(k.len, DCACHE_BLOCK);
	check(out, 0, DCACHE_BLOCK);
	assert_int_equal(dcache_bytes(dc), 5 * DCACHE_BLOCK);

	/* In sequence, up to the middle of block 2: 0 and 1 go, 2 stays. */
	assert_int_equal(dcache_send(dc, df, 0, 2 * DCACHE_BLOCK + 4096, eof,
				     true, sink_send, &k), 0);
	assert_int_equal(k.len, 2 * DCACHE_BLOCK + 4096);
	check(out, 0, k.len);
	assert_int_equal(cache_stats.data_dropped_behind - d0, 2);
	assert_false(dcache_has(dc, df, 0, 1));
	assert_false(dcache_has(dc, df, DCACHE_BLOCK, 1));
	assert_true(dcache_has(dc, df, 2 * DCACHE_BLOCK, DCACHE_BLOCK));

	/* On to the end of block 4: 2 and 3 go, our write (4) stays. */
	assert_int_equal(dcache_send(dc, df, 2 * DCACHE_BLOCK + 4096,
				     3 * DCACHE_BLOCK - 4096, eof, true,
				     sink_send, &k), 0);
	check(out, 2 * DCACHE_BLOCK + 4096, k.len);
	assert_int_equal(cache_stats.data_dropped_behind - d0, 4);
	assert_int_equal(dcache_bytes(dc), DCACHE_BLOCK);
	assert_true(dcache_has(dc, df, 4 * DCACHE_BLOCK, DCACHE_BLOCK));

	/* A miss sends nothing and drops nothing. */
	assert_int_equal(dcache_send(dc, df, 4 * DCACHE_BLOCK, 2 * DCACHE_BLOCK,
				     eof, true, sink_send, &k), -1);
	assert_int_equal(dcache_bytes(dc), DCACHE_BLOCK);
	dfile_free(dc, df);
	dcache_free(dc);
}

/* Read-ahead kept where the reply put it: whole blocks in place, pieces
 * and blocks the file already has copied, a block our write lands in
 * moved out; the buffer lives as long as a block of it (ASan and
 * valgrind see a leak or a use after free). */
static void test_fill_in_place(void **state)
{
	struct dcache *dc = dcache_new(64u << 20);
	struct dfile *df = dfile_new(dc);
	const size_t head = 100, len = 3 * DCACHE_BLOCK;
	const uint64_t off = DCACHE_BLOCK / 2; /* pieces at both ends */
	uint8_t *buf = malloc(head + len), *data = buf + head, mine[16];
	static uint8_t out[4 * DCACHE_BLOCK];
	uint64_t eof = 8 * DCACHE_BLOCK, in0 = cache_stats.data_fill_in_place;
	struct rpc_reply reply;
	struct dbuf *db;

	(void)state;
	assert_non_null(buf);
	fill(data, off, len);
	/* Block 2 already holds a write of ours: it keeps its block. */
	fill(mine, 2 * DCACHE_BLOCK + 10, sizeof(mine));
	dcache_write(dc, df, 2 * DCACHE_BLOCK + 10, mine, sizeof(mine));
	reply = (struct rpc_reply){ buf, head + len };
	db = dbuf_new(&reply);
	assert_non_null(db);
	assert_null(reply.buf);
	dcache_fill_from(dc, df, off, data, len, db);
	/* Blocks 1 and 2 are whole in the range; only 1 had no block. */
	assert_int_equal(cache_stats.data_fill_in_place - in0, DCACHE_BLOCK);
	assert_int_equal(dcache_read(dc, df, off, len, eof, out), len);
	check(out, off, len);

	/* Block 1 is the reply's memory, the pieces of blocks 0 and 3 and
	 * block 2 are copies: a change to the reply shows in block 1 only. */
	data[DCACHE_BLOCK - off] ^= 0xff;              /* block 1's first */
	data[0] ^= 0xff;                               /* block 0's piece */
	data[2 * DCACHE_BLOCK - off + 5] ^= 0xff;      /* block 2 */
	data[3 * DCACHE_BLOCK - off + 5] ^= 0xff;      /* block 3's piece */
	assert_int_equal(dcache_read(dc, df, 0, 4 * DCACHE_BLOCK, eof, out), -1);
	assert_int_equal(dcache_read(dc, df, off, len, eof, out), len);
	assert_int_equal(out[DCACHE_BLOCK - off], (uint8_t)~pattern(DCACHE_BLOCK));
	assert_int_equal(out[0], pattern(off));
	assert_int_equal(out[2 * DCACHE_BLOCK - off + 5], pattern(2 * DCACHE_BLOCK + 5));
	assert_int_equal(out[3 * DCACHE_BLOCK - off + 5], pattern(3 * DCACHE_BLOCK + 5));
	data[DCACHE_BLOCK - off] ^= 0xff;

	/* Our write keeps block 1 for good: it takes memory of its own
	 * rather than hold the whole reply, which no longer shows through
	 * and which the caller's reference alone now holds. */
	fill(mine, DCACHE_BLOCK + 1000, sizeof(mine));
	dcache_write(dc, df, DCACHE_BLOCK + 1000, mine, sizeof(mine));
	data[DCACHE_BLOCK - off + 5] ^= 0xff;
	assert_int_equal(dcache_read(dc, df, DCACHE_BLOCK, DCACHE_BLOCK, eof,
				     out), DCACHE_BLOCK);
	check(out, DCACHE_BLOCK, DCACHE_BLOCK);
	dbuf_put(db);
	assert_int_equal(dcache_read(dc, df, DCACHE_BLOCK, DCACHE_BLOCK, eof,
				     out), DCACHE_BLOCK);
	check(out, DCACHE_BLOCK, DCACHE_BLOCK);
	/* Truncation into the block, then the purge frees the buffer. */
	dcache_truncate(dc, df, DCACHE_BLOCK + 4096);
	assert_int_equal(dcache_read(dc, df, DCACHE_BLOCK, 8192, eof, out), -1);
	assert_int_equal(dcache_read(dc, df, DCACHE_BLOCK, 4096, eof, out), 4096);
	check(out, DCACHE_BLOCK, 4096);
	dcache_purge(dc, df);
	assert_int_equal(dcache_bytes(dc), 0);

	/* Eviction and a reader in sequence free in-place blocks too. */
	dcache_set_cap(dc, 2 * DCACHE_BLOCK);
	buf = malloc(4 * DCACHE_BLOCK);
	assert_non_null(buf);
	fill(buf, 0, 4 * DCACHE_BLOCK);
	reply = (struct rpc_reply){ buf, 4 * DCACHE_BLOCK };
	db = dbuf_new(&reply);
	assert_non_null(db);
	dcache_fill_from(dc, df, 0, buf, 4 * DCACHE_BLOCK, db);
	dbuf_put(db);
	assert_int_equal(dcache_bytes(dc), 2 * DCACHE_BLOCK);
	assert_false(dcache_has(dc, df, 0, 1));
	assert_true(dcache_has(dc, df, 2 * DCACHE_BLOCK, 2 * DCACHE_BLOCK));
	{
		struct sink k = { out, 0 };

		assert_int_equal(dcache_send(dc, df, 2 * DCACHE_BLOCK,
					     2 * DCACHE_BLOCK, eof, true,
					     sink_send, &k), 0);
		check(out, 2 * DCACHE_BLOCK, 2 * DCACHE_BLOCK);
	}
	assert_int_equal(dcache_bytes(dc), 0);
	dfile_free(dc, df);
	dcache_free(dc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_appends_read_back),
		cmocka_unit_test(test_holes_miss),
		cmocka_unit_test(test_truncate_and_purge),
		cmocka_unit_test(test_refresh_small_reads),
		cmocka_unit_test(test_cap_evicts_lru),
		cmocka_unit_test(test_small_files_hold_little),
		cmocka_unit_test(test_empty_slabs_kept_to_cap),
		cmocka_unit_test(test_stream_drops_behind),
		cmocka_unit_test(test_write_stream_keeps_its_start),
		cmocka_unit_test(test_fill_in_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
