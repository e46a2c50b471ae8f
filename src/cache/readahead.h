/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The read-ahead policy of one file.  The kernel reads ahead only 128 KiB
 * on a FUSE mount, one request at a time, so a sequential reader would wait
 * a round trip per request.  While reads continue where the last one
 * stopped, a window of READs is kept in flight ahead of the reader, growing
 * from READAHEAD_START to READAHEAD_MAX; their data lands in the data
 * cache, where the reader's next requests find it.  A read elsewhere
 * closes the window.
 *
 * Pure: this only decides which bytes to fetch.  The caller holds the lock
 * of the object that embeds it, issues the READs, and says how far it got.
 * A zeroed struct is a file with no stream yet.
 */
#ifndef NFSFUSE_CACHE_READAHEAD_H
#define NFSFUSE_CACHE_READAHEAD_H

#include <stddef.h>
#include <stdint.h>

#define READAHEAD_START (2u << 20)
#define READAHEAD_MAX (4u << 20)

struct readahead {
	uint64_t last_end;  /* where the furthest read stopped; 0: no stream */
	uint64_t end;       /* read ahead up to here */
	uint32_t window;    /* bytes to keep ahead; 0: not sequential */
};

/*
 * The reader asks for [off, off + size); READs carry rsize bytes.  Follows
 * the stream and gives the range to read ahead, [*start, *end) (empty when
 * *end <= *start), never past limit: the file's size, or 0 when it is not
 * known or there is nowhere to put the data.
 *
 * The window is counted in READs rather than bytes where rsize is small
 * (UDP, NFSv2): 4 READs to start with, 16 at most, so that hundreds of
 * calls are never in flight.
 */
void readahead_next(struct readahead *ra, uint32_t rsize, uint64_t off,
		    size_t size, uint64_t limit, uint64_t *start,
		    uint64_t *end);

/* READs were issued up to upto (the *start of readahead_next when none
 * was). */
void readahead_issued(struct readahead *ra, uint64_t upto);

#endif
