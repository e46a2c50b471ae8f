/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The data-block cache: file contents the server has confirmed (READ
 * replies) or that we sent it ourselves (WRITEs), in blocks of
 * DCACHE_BLOCK bytes keyed by (file, block index).
 *
 * Each block holds one contiguous valid range.  A write that touches the
 * range extends it; a write elsewhere in the block replaces it (the old
 * bytes are on the server, so losing them costs a READ, never data).
 * Blocks are never dirty: the write-back queue keeps the only copies of
 * unsent bytes, so eviction may drop any block.  The cache as a whole is
 * capped; the least recently used blocks go first.  Read-ahead blocks go
 * sooner, once a sequential reader has had them (dcache_send).
 *
 * Whether the blocks still match the server is decided above, by the
 * attribute rules (close-to-open, wcc, timeouts): they call dcache_purge().
 *
 * Locking: one lock for the whole cache, taken inside the inode lock if
 * both are needed; never held across I/O.
 */
#ifndef NFSFUSE_CACHE_DATA_H
#define NFSFUSE_CACHE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DCACHE_BLOCK (64u << 10)

struct dcache;
struct dfile;

struct dcache *dcache_new(size_t cap);
void dcache_free(struct dcache *dc);
void dcache_set_cap(struct dcache *dc, size_t cap);
size_t dcache_bytes(struct dcache *dc);
/* Memory the cache has mapped for blocks, in use or not (empty slabs
 * are kept up to the cap; see data.c). */
size_t dcache_slab_bytes(struct dcache *dc);

struct dfile *dfile_new(struct dcache *dc);
/* Drops the file's blocks. */
void dfile_free(struct dcache *dc, struct dfile *df);

/*
 * Bytes we wrote (or are writing) at off: now the file's contents.  A
 * file written in one sequence (each write where the last one ended) has
 * only its first DCACHE_STREAM_KEEP bytes of it cached: past them its
 * writes update the blocks it has and make no new ones (counted as
 * data_stream_uncached).  The kernel's page cache holds what was just
 * written, as it holds what a sequential reader had; a second copy
 * would grow the cache into fresh pages, which the kernel must fault in
 * and zero, for bytes few read from the daemon again, and push every
 * other file's blocks out.
 */
#define DCACHE_STREAM_KEEP (16u << 20)
void dcache_write(struct dcache *dc, struct dfile *df, uint64_t off,
		  const void *data, size_t len);
/* Bytes a READ returned; eof means the file ends at off + len. */
void dcache_fill(struct dcache *dc, struct dfile *df, uint64_t off,
		 const void *data, size_t len);
/*
 * A READ reply, whose bytes read-ahead blocks may hold where they lie
 * instead of in a copy (dcache_fill_from).  dbuf_new takes the reply's
 * buffer over (reply is left empty), or returns NULL without memory and
 * leaves it.  The buffer is released (rpc_reply_release) with the last
 * reference: the caller's, given back with dbuf_put, and one per block
 * that uses it.
 */
struct dbuf;
struct rpc_reply;
struct dbuf *dbuf_new(struct rpc_reply *reply);
void dbuf_put(struct dbuf *db);
/*
 * dcache_fill for bytes that lie in db's buffer: each whole block of
 * them that the file has no block for yet is cached in place, the rest
 * is copied.  A streaming reader's read-ahead is so copied twice less
 * (socket to reply, reply to block, block to kernel): the daemon's
 * single largest cost in a cold sequential read.  The buffer stays as
 * long as any of its blocks; a reader in sequence drops them as it goes
 * (dcache_send), and eviction counts each as a block like any other.  A
 * block our write lands in is kept for good, so it moves to memory of
 * its own then: one block must not hold a whole reply for long.
 */
void dcache_fill_from(struct dcache *dc, struct dfile *df, uint64_t off,
		      uint8_t *data, size_t len, struct dbuf *db);
/*
 * Bytes a READ returned to a reader (not read ahead): they update the
 * blocks the file already has and make new blocks only where they cover
 * one whole, or from its start to the end of the file (eof: the file ends
 * at off + len), as a small file read whole does.  The kernel's page
 * cache keeps what it asked for, so a small random read that took a
 * block of its own would hold DCACHE_BLOCK bytes for a few KiB nobody
 * asks the daemon for again.  Returns the bytes left out.
 */
size_t dcache_refresh(struct dcache *dc, struct dfile *df, uint64_t off,
		      const void *data, size_t len, bool eof);
/*
 * Copy [off, off+len) into out if every byte of it is cached, with len
 * cut at file_size first.  Returns the byte count (possibly 0 past EOF),
 * or -1 when any part is missing (nothing is copied then).
 */
long dcache_read(struct dcache *dc, struct dfile *df, uint64_t off,
		 size_t len, uint64_t file_size, void *out);
/*
 * The same without a copy: send(ctx, iov, n) gets the cached bytes where
 * they lie, with the cache locked so that none goes away meanwhile (send
 * must not take other locks or wait long: a FUSE reply is the use).
 * Returns what send returned, or -1 without calling it when any byte is
 * missing.
 *
 * behind: the reader reads in sequence and will not ask for these bytes
 * again (the kernel's page cache holds them now).  Then the blocks made
 * by read-ahead (dcache_fill) that the send takes to their end are
 * dropped, so that a stream's read-ahead uses the same memory over and
 * over instead of growing the cache into fresh pages, which the kernel
 * must zero, for bytes cached twice.  Blocks of our own writes stay.
 */
struct iovec;
long dcache_send(struct dcache *dc, struct dfile *df, uint64_t off,
		 size_t len, uint64_t file_size, bool behind,
		 int (*send)(void *ctx, const struct iovec *iov, int n),
		 void *ctx);
/* Is every byte of [off, off+len) cached? */
bool dcache_has(struct dcache *dc, struct dfile *df, uint64_t off,
		uint64_t len);
/* Forget everything cached for the file; returns the blocks dropped. */
unsigned dcache_purge(struct dcache *dc, struct dfile *df);
/* The file was cut to size: drop or trim what lies beyond. */
void dcache_truncate(struct dcache *dc, struct dfile *df, uint64_t size);
/* For nfsfusectl cache: blocks and bytes held for the file. */
void dcache_describe(struct dcache *dc, struct dfile *df, unsigned *blocks,
		     size_t *bytes);

#endif
