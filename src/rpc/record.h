/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RPC record marking over a byte stream (RFC 5531 §11).
 *
 * Each record is sent as one or more fragments; each fragment starts with a
 * 4-byte big-endian mark whose top bit says "last fragment" and whose low 31
 * bits give the fragment length.  The reader below is pure: it is fed bytes
 * and hands back whole records, so it can be unit-tested and fuzzed without
 * a socket.  A record longer than its limit is a protocol error: the reader
 * refuses it before allocating for it.
 */
#ifndef NFSFUSE_RPC_RECORD_H
#define NFSFUSE_RPC_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPC_RECORD_LAST 0x80000000u
/* Largest record we accept: 8 MiB of data plus room for the headers. */
#define RPC_RECORD_MAX (8u * 1024 * 1024 + 64 * 1024)

struct rpc_record_reader {
	size_t max;         /* records longer than this are refused */
	uint8_t mark[4];    /* a fragment mark being read */
	unsigned mark_have; /* bytes of mark[] read so far */
	bool in_body;       /* reading a fragment's body */
	bool last;          /* that fragment is the record's last */
	uint32_t frag_left; /* bytes of the fragment's body still to come */
	uint8_t *buf;       /* the record so far (owned) */
	size_t len, cap;
};

void rpc_record_reader_init(struct rpc_record_reader *r, size_t max);
/* Drops a partial record (after a reconnect). */
void rpc_record_reader_reset(struct rpc_record_reader *r);
void rpc_record_reader_free(struct rpc_record_reader *r);

/*
 * Feeds up to len bytes.  *used is set to the bytes consumed.  Returns
 *   1  a record is complete: *rec (malloc'd, owned by the caller; may be
 *      NULL when *rec_len is 0) and *rec_len; the bytes after *used are
 *      the start of the next record and must be fed again;
 *   0  all bytes consumed, no record complete yet;
 *  -EMSGSIZE  the record would exceed the limit (the reader must be reset);
 *  -ENOMEM.
 */
int rpc_record_feed(struct rpc_record_reader *r, const uint8_t *data,
		    size_t len, size_t *used, uint8_t **rec, size_t *rec_len);

/*
 * Zero-copy path for large fragments: when the reader is inside a
 * fragment's body, returns where the next bytes of the body go and how many
 * of them are expected (0 when a mark comes next).  After writing n bytes
 * there, call rpc_record_commit(), which returns as rpc_record_feed().
 */
size_t rpc_record_direct(struct rpc_record_reader *r, uint8_t **dst);
int rpc_record_commit(struct rpc_record_reader *r, size_t n, uint8_t **rec,
		      size_t *rec_len);

#endif
