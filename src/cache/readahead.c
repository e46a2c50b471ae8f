/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "readahead.h"

void readahead_next(struct readahead *ra, uint32_t rsize, uint64_t off,
		    size_t size, uint64_t limit, uint64_t *start,
		    uint64_t *end)
{
	uint64_t stop = off + size, low;

	/*
	 * The kernel sends the requests of one sequential reader to several
	 * worker threads at once, so they arrive a little out of order: a
	 * read anywhere between the start of the current window and what was
	 * read ahead continues the stream.  Only a read outside it starts
	 * over (and never moves the read-ahead back over ranges already in
	 * flight: that would fetch them twice).
	 */
	low = ra->last_end > ra->window + size ?
	      ra->last_end - ra->window - size : 0;
	if (off && ra->last_end && off >= low && off <= ra->end) {
		uint32_t first = READAHEAD_START, max = READAHEAD_MAX;

		if (first > 4 * rsize)
			first = 4 * rsize;
		if (max > 16 * rsize)
			max = 16 * rsize;
		if (stop > ra->last_end) {
			ra->window = ra->window ? ra->window * 2 : first;
			if (ra->window > max)
				ra->window = max;
		}
	} else {
		ra->window = 0;
		ra->end = stop;
		ra->last_end = 0;
	}
	if (stop > ra->last_end)
		ra->last_end = stop;
	*start = ra->end > stop ? ra->end : stop;
	*end = ra->last_end + ra->window;
	if (*end > limit)
		*end = limit;
}

void readahead_issued(struct readahead *ra, uint64_t upto)
{
	if (upto > ra->end)
		ra->end = upto;
}
