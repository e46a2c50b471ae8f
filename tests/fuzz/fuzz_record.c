/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the record-marking reader (src/rpc/record.h).
 *
 * Input:
 *   byte 0     the record limit: bit 7 set RPC_RECORD_MAX, otherwise
 *              (byte & 0x7f) * 8 bytes (small, to reach -EMSGSIZE);
 *   then chunks, each a 2-byte big-endian header and up to that many bytes
 *   of stream: header bit 15 asks for the zero-copy path
 *   (rpc_record_direct/rpc_record_commit) while the reader is inside a
 *   fragment body, the low 15 bits are the chunk length (clipped to what
 *   is left).  A last lone byte is fed as a chunk of its own.
 *
 * The bytes of all chunks form one stream.  A reference reader (below,
 * written for clarity, not speed) splits the same stream into records up
 * to its first error; every record the real reader hands out must be the
 * next reference record, byte for byte, and -EMSGSIZE must come exactly
 * where the reference fails.  After an error the reader is reset and fed
 * the rest without the comparison (that part is for ASan and UBSan).
 */
#include <errno.h>

#include "fuzz.h"
#include "fuzz_records.h"
#include "record.h"

FUZZ_DEFINE_SINK;

struct state {
	struct rpc_record_reader r;
	struct fuzz_records ref;
	size_t got;     /* records handed out so far */
	bool checking;  /* no error yet: compare with the reference */
};

static void on_record(struct state *st, uint8_t *rec, size_t rec_len)
{
	fuzz_touch(rec, rec_len);
	FUZZ_CHECK(rec_len <= st->r.max);
	if (st->checking) {
		FUZZ_CHECK(st->got < st->ref.n);
		FUZZ_CHECK(rec_len == st->ref.lens[st->got]);
		FUZZ_CHECK(rec_len == 0 ||
			   memcmp(rec, st->ref.recs[st->got], rec_len) == 0);
	}
	st->got++;
	free(rec);
}

static void on_error(struct state *st, int ret)
{
	FUZZ_CHECK(ret == -EMSGSIZE || ret == -ENOMEM);
	if (st->checking && ret == -EMSGSIZE) {
		FUZZ_CHECK(st->ref.over);
		FUZZ_CHECK(st->got == st->ref.n);
	}
	st->checking = false;
	rpc_record_reader_reset(&st->r);
}

/* Feeds one chunk, through the zero-copy path first if asked. */
static void feed(struct state *st, const uint8_t *p, size_t n, bool direct)
{
	uint8_t *rec, *dst;
	size_t rec_len, used, room;
	int ret;

	while (n > 0) {
		if (direct && (room = rpc_record_direct(&st->r, &dst)) > 0) {
			if (room > n)
				room = n;
			memcpy(dst, p, room);
			p += room;
			n -= room;
			rec = NULL;
			rec_len = 0;
			ret = rpc_record_commit(&st->r, room, &rec, &rec_len);
			FUZZ_CHECK(ret == 0 || ret == 1);
			if (ret == 1)
				on_record(st, rec, rec_len);
			continue;
		}
		rec = NULL;
		rec_len = 0;
		used = 0;
		ret = rpc_record_feed(&st->r, p, n, &used, &rec, &rec_len);
		FUZZ_CHECK(used <= n);
		if (ret == 1) {
			on_record(st, rec, rec_len);
		} else if (ret < 0) {
			on_error(st, ret);
		} else {
			FUZZ_CHECK(ret == 0 && used == n);
		}
		/* Progress: a call that consumed nothing must have
		 * completed an empty record at the previous call's end. */
		if (used == 0 && ret != 1)
			break;
		p += used;
		n -= used;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state st;
	uint8_t *stream;
	size_t max, off, slen = 0;

	if (size < 1)
		return 0;
	max = data[0] & 0x80 ? RPC_RECORD_MAX : (size_t)(data[0] & 0x7f) * 8;

	/* The stream is the concatenation of the chunks. */
	stream = malloc(size);
	if (!stream)
		abort();
	for (off = 1; off < size;) {
		size_t n = size - off;

		if (n >= 2) {
			size_t want = (size_t)(data[off] & 0x7f) << 8 |
				      data[off + 1];

			off += 2;
			n = size - off;
			if (want < n)
				n = want;
		}
		memcpy(stream + slen, data + off, n);
		slen += n;
		off += n;
	}

	memset(&st, 0, sizeof(st));
	rpc_record_reader_init(&st.r, max);
	fuzz_records_parse(&st.ref, stream, slen, max);
	st.checking = true;

	for (off = 1; off < size;) {
		size_t n = size - off;
		bool direct = false;
		uint8_t *chunk;

		if (n >= 2) {
			size_t want = (size_t)(data[off] & 0x7f) << 8 |
				      data[off + 1];

			direct = data[off] & 0x80;
			off += 2;
			n = size - off;
			if (want < n)
				n = want;
		}
		/* A heap copy of exactly the chunk, for ASan. */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			abort();
		memcpy(chunk, data + off, n);
		feed(&st, chunk, n, direct);
		free(chunk);
		off += n;
	}
	if (st.checking) {
		/* Every complete reference record came out, and the reader
		 * holds no more than the stream's incomplete tail. */
		FUZZ_CHECK(st.got == st.ref.n);
		FUZZ_CHECK(!st.ref.over);
		FUZZ_CHECK(st.r.len <= st.r.max);
	}
	rpc_record_reader_free(&st.r);
	fuzz_records_free(&st.ref);
	free(stream);
	return 0;
}
