/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "data.h"

#include <glib.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "../base/stats.h"
#include "../rpc/rpc.h"

/*
 * Block memory comes in slabs of SLAB_BYTES, aligned so that the kernel
 * may back each with one huge page, and filled in one call where the
 * kernel can: a cache that grows by a cold sequential read would
 * otherwise take a page fault per 4 KiB, which costs more than copying
 * the data.  A slab holds SLAB_BLOCKS blocks; freed blocks are used again
 * before a new slab is made.  A slab whose last block is freed is kept
 * while all the slabs together stay within the cache's cap, its pages
 * left to the kernel to take back under memory pressure (MADV_FREE): a
 * file deleted and written again, a build's outputs, would otherwise
 * have the kernel zero the same memory again for every round.  Past the
 * cap it goes back to the system at once.  So the memory held stays
 * within the largest the cache has been, rounded up to a slab, and above
 * the cap only by the one empty slab of each kind kept hot.
 *
 * A file's first block begun with a few bytes (a small file written or
 * read whole, the first write(2) of a file written in small pieces)
 * comes from a lazy slab instead: no huge page, nothing filled in
 * advance, so only the pages written are ever zeroed and held.  An untar
 * of small files otherwise zeroes 2 MiB for every 32 files and holds
 * 64 KiB for each, whatever its size.  Later blocks of a file are taken
 * from the filled slabs however they begin: a file written in 4 KiB
 * pieces would otherwise take a page fault per write.
 *
 * Read-ahead needs no block memory of its own where a READ reply holds
 * whole blocks: those blocks point into the reply's buffer, which stays
 * until the last of them goes (dcache_fill_from).  Copying a stream's
 * bytes from reply to block was as costly as either copy the kernel
 * makes (socket to reply, block to page cache).
 */
#define SLAB_BYTES (2u << 20)
#define SLAB_BLOCKS (SLAB_BYTES / DCACHE_BLOCK)

struct slab {
	uint8_t *base;
	unsigned used;     /* blocks handed out and not freed */
	unsigned bump;     /* blocks [bump, SLAB_BLOCKS) never handed out */
	uint8_t *free;     /* freed blocks, linked through their first bytes */
	struct slab *prev, *next; /* in dc->slabs_avail while it has room */
	bool avail;
	bool lazy;         /* pages come as they are written */
};

struct block {
	struct dfile *file;
	uint64_t index;
	uint32_t vs, ve;   /* valid bytes [vs, ve) within the block */
	bool ahead;        /* made by read-ahead, not by a write of ours */
	GList lru;         /* link in dc->lru; data of the link is the block */
	struct slab *slab; /* where data lies, or NULL: */
	struct dbuf *db;   /* in a READ reply's buffer (dcache_fill_from) */
	uint8_t *data;     /* DCACHE_BLOCK bytes */
};

struct dbuf {
	struct rpc_reply reply;
	unsigned refs;     /* atomic: the blocks hold them under dc->lock,
			    * the caller of dcache_fill_from without it */
};

struct dbuf *dbuf_new(struct rpc_reply *reply)
{
	struct dbuf *db = malloc(sizeof(*db));

	if (!db)
		return NULL;
	db->reply = *reply;
	reply->buf = NULL;
	reply->len = 0;
	db->refs = 1;
	return db;
}

void dbuf_put(struct dbuf *db)
{
	if (db && __atomic_sub_fetch(&db->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		rpc_reply_release(&db->reply);
		free(db);
	}
}

struct dfile {
	GHashTable *blocks; /* uint64_t index → struct block */
	/* The sequence our writes are in: where the last one ended, and how
	 * many bytes it has had since a write landed elsewhere. */
	uint64_t wseq_end, wseq_len;
};

struct dcache {
	pthread_mutex_t lock;
	GQueue lru;         /* head: most recently used */
	size_t cap;
	size_t bytes;       /* DCACHE_BLOCK per block held */
	struct slab *slabs_avail[2]; /* slabs with a block to give, by lazy */
	GHashTable *slabs;  /* every slab (struct slab * → itself) */
	/* One empty slab of each kind is kept with its pages: a cache at its
	 * cap frees blocks as fast as it takes new ones.  Others kept empty
	 * have given theirs back (MADV_FREE). */
	struct slab *empty_slab[2];
};

static void avail_add(struct dcache *dc, struct slab *sl)
{
	sl->avail = true;
	sl->prev = NULL;
	sl->next = dc->slabs_avail[sl->lazy];
	if (sl->next)
		sl->next->prev = sl;
	dc->slabs_avail[sl->lazy] = sl;
}

static void avail_del(struct dcache *dc, struct slab *sl)
{
	if (sl->prev)
		sl->prev->next = sl->next;
	else
		dc->slabs_avail[sl->lazy] = sl->next;
	if (sl->next)
		sl->next->prev = sl->prev;
	sl->prev = sl->next = NULL;
	sl->avail = false;
}

static struct slab *slab_new(struct dcache *dc, bool lazy)
{
	struct slab *sl = calloc(1, sizeof(*sl));
	size_t len = 2 * (size_t)SLAB_BYTES, head;
	uint8_t *p;

	if (!sl)
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		free(sl);
		return NULL;
	}
	/* Keep the aligned SLAB_BYTES in the middle. */
	head = (SLAB_BYTES - (uintptr_t)p % SLAB_BYTES) % SLAB_BYTES;
	if (head)
		munmap(p, head);
	munmap(p + head + SLAB_BYTES, len - head - SLAB_BYTES);
	sl->base = p + head;
	sl->lazy = lazy;
	if (lazy) {
#ifdef MADV_NOHUGEPAGE
		/* Where huge pages are the default, the first byte written
		 * would zero and hold all 2 MiB. */
		madvise(sl->base, SLAB_BYTES, MADV_NOHUGEPAGE);
#endif
	} else {
#ifdef MADV_HUGEPAGE
		madvise(sl->base, SLAB_BYTES, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
		/* Best effort (Linux 5.14): otherwise the pages fault in
		 * on use. */
		madvise(sl->base, SLAB_BYTES, MADV_POPULATE_WRITE);
#endif
	}
	g_hash_table_add(dc->slabs, sl);
	avail_add(dc, sl);
	return sl;
}

static void slab_free(struct dcache *dc, struct slab *sl)
{
	if (sl == dc->empty_slab[sl->lazy])
		dc->empty_slab[sl->lazy] = NULL;
	if (sl->avail)
		avail_del(dc, sl);
	g_hash_table_remove(dc->slabs, sl);
	munmap(sl->base, SLAB_BYTES);
	free(sl);
}

/* DCACHE_BLOCK bytes for b, from a lazy slab or not; false without
 * memory. */
static bool data_alloc(struct dcache *dc, struct block *b, bool lazy)
{
	struct slab *sl = dc->slabs_avail[lazy];

	if (!sl && !(sl = slab_new(dc, lazy)))
		return false;
	if (sl->free) {
		b->data = sl->free;
		memcpy(&sl->free, b->data, sizeof(sl->free));
	} else {
		b->data = sl->base + (size_t)sl->bump++ * DCACHE_BLOCK;
	}
	b->slab = sl;
	if (sl == dc->empty_slab[lazy])
		dc->empty_slab[lazy] = NULL;
	if (++sl->used == SLAB_BLOCKS)
		avail_del(dc, sl);
	return true;
}

/* Bytes of every slab, in use or not. */
static size_t slab_bytes(struct dcache *dc)
{
	return (size_t)g_hash_table_size(dc->slabs) * SLAB_BYTES;
}

static void data_free(struct dcache *dc, struct block *b)
{
	struct slab *sl = b->slab;

	if (b->db) {
		dbuf_put(b->db);
		return;
	}
	if (--sl->used == 0) {
		if (dc->empty_slab[sl->lazy] && slab_bytes(dc) > dc->cap) {
			slab_free(dc, sl);
			return;
		}
		/* Handed out from its start again: the free list would live
		 * in pages MADV_FREE lets the kernel zero. */
		sl->free = NULL;
		sl->bump = 0;
		if (!dc->empty_slab[sl->lazy]) {
			dc->empty_slab[sl->lazy] = sl;
		} else {
#ifdef MADV_FREE
			madvise(sl->base, SLAB_BYTES, MADV_FREE);
#endif
		}
		if (!sl->avail)
			avail_add(dc, sl);
		return;
	}
	memcpy(b->data, &sl->free, sizeof(sl->free));
	sl->free = b->data;
	if (!sl->avail)
		avail_add(dc, sl);
}

/* The cap came down: empty slabs past it go back to the system. */
static void trim_empty(struct dcache *dc)
{
	while (slab_bytes(dc) > dc->cap) {
		struct slab *empty = NULL;
		GHashTableIter it;
		gpointer k;

		g_hash_table_iter_init(&it, dc->slabs);
		while (!empty && g_hash_table_iter_next(&it, &k, NULL))
			if (((struct slab *)k)->used == 0)
				empty = k;
		if (!empty)
			return;
		slab_free(dc, empty);
	}
}

static void block_free(struct dcache *dc, struct block *b)
{
	data_free(dc, b);
	free(b);
}

struct dcache *dcache_new(size_t cap)
{
	struct dcache *dc = calloc(1, sizeof(*dc));

	if (!dc)
		return NULL;
	pthread_mutex_init(&dc->lock, NULL);
	g_queue_init(&dc->lru);
	dc->cap = cap;
	dc->slabs = g_hash_table_new(g_direct_hash, g_direct_equal);
	return dc;
}

void dcache_free(struct dcache *dc)
{
	GHashTableIter it;
	gpointer k;

	if (!dc)
		return;
	/* Slabs of files not freed first (the daemon's end). */
	g_hash_table_iter_init(&it, dc->slabs);
	while (g_hash_table_iter_next(&it, &k, NULL)) {
		struct slab *sl = k;

		g_hash_table_iter_remove(&it);
		munmap(sl->base, SLAB_BYTES);
		free(sl);
	}
	g_hash_table_destroy(dc->slabs);
	pthread_mutex_destroy(&dc->lock);
	free(dc);
}

size_t dcache_slab_bytes(struct dcache *dc)
{
	size_t n;

	pthread_mutex_lock(&dc->lock);
	n = slab_bytes(dc);
	pthread_mutex_unlock(&dc->lock);
	return n;
}

size_t dcache_bytes(struct dcache *dc)
{
	size_t n;

	pthread_mutex_lock(&dc->lock);
	n = dc->bytes;
	pthread_mutex_unlock(&dc->lock);
	return n;
}

struct dfile *dfile_new(struct dcache *dc)
{
	struct dfile *df = calloc(1, sizeof(*df));

	(void)dc;
	if (!df)
		return NULL;
	df->blocks = g_hash_table_new(g_int64_hash, g_int64_equal);
	return df;
}

static void block_drop(struct dcache *dc, struct block *b)
{
	g_hash_table_remove(b->file->blocks, &b->index);
	g_queue_unlink(&dc->lru, &b->lru);
	dc->bytes -= DCACHE_BLOCK;
	block_free(dc, b);
}

static void evict(struct dcache *dc)
{
	while (dc->bytes > dc->cap && dc->lru.tail) {
		block_drop(dc, dc->lru.tail->data);
		STAT_INC(evictions);
	}
}

void dcache_set_cap(struct dcache *dc, size_t cap)
{
	pthread_mutex_lock(&dc->lock);
	dc->cap = cap;
	evict(dc);
	trim_empty(dc);
	pthread_mutex_unlock(&dc->lock);
}

static unsigned purge_locked(struct dcache *dc, struct dfile *df)
{
	GHashTableIter it;
	gpointer v;
	unsigned n = 0;

	g_hash_table_iter_init(&it, df->blocks);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct block *b = v;

		g_hash_table_iter_remove(&it);
		g_queue_unlink(&dc->lru, &b->lru);
		dc->bytes -= DCACHE_BLOCK;
		block_free(dc, b);
		n++;
	}
	return n;
}

void dfile_free(struct dcache *dc, struct dfile *df)
{
	if (!df)
		return;
	pthread_mutex_lock(&dc->lock);
	purge_locked(dc, df);
	pthread_mutex_unlock(&dc->lock);
	g_hash_table_destroy(df->blocks);
	free(df);
}

unsigned dcache_purge(struct dcache *dc, struct dfile *df)
{
	unsigned n;

	pthread_mutex_lock(&dc->lock);
	n = purge_locked(dc, df);
	pthread_mutex_unlock(&dc->lock);
	return n;
}

static void touch(struct dcache *dc, struct block *b)
{
	g_queue_unlink(&dc->lru, &b->lru);
	g_queue_push_head_link(&dc->lru, &b->lru);
}

/* b, its data set, becomes the file's empty block at index. */
static void block_add(struct dcache *dc, struct dfile *df, struct block *b,
		      uint64_t index, bool ahead)
{
	b->file = df;
	b->index = index;
	b->vs = b->ve = 0;
	b->ahead = ahead;
	b->lru.data = b;
	b->lru.prev = b->lru.next = NULL;
	g_hash_table_insert(df->blocks, &b->index, b);
	g_queue_push_head_link(&dc->lru, &b->lru);
	dc->bytes += DCACHE_BLOCK;
}

/* The block at index, created empty if absent (for a first piece of
 * `first` bytes, by read-ahead or not); NULL without memory. */
static struct block *block_get(struct dcache *dc, struct dfile *df,
			       uint64_t index, uint32_t first, bool ahead)
{
	struct block *b = g_hash_table_lookup(df->blocks, &index);

	if (b) {
		touch(dc, b);
		return b;
	}
	b = malloc(sizeof(*b));
	if (!b)
		return NULL;
	if (!data_alloc(dc, b, index == 0 && first < DCACHE_BLOCK / 2)) {
		free(b);
		return NULL;
	}
	b->db = NULL;
	block_add(dc, df, b, index, ahead);
	return b;
}

/* b, kept for good now (our write is in it), leaves the reply it lies
 * in for memory of its own: one such block would otherwise hold the
 * whole reply, up to rsize, for DCACHE_BLOCK counted against the cap.
 * Without memory it stays where it is. */
static void block_own(struct dcache *dc, struct block *b)
{
	struct block mine;

	if (!b->db || !data_alloc(dc, &mine, false))
		return;
	memcpy(mine.data + b->vs, b->data + b->vs, b->ve - b->vs);
	dbuf_put(b->db);
	b->db = NULL;
	b->slab = mine.slab;
	b->data = mine.data;
}

/* A new block whose DCACHE_BLOCK bytes of read-ahead lie at data, in
 * db's buffer; NULL without memory. */
static struct block *block_adopt(struct dcache *dc, struct dfile *df,
				 uint64_t index, uint8_t *data,
				 struct dbuf *db)
{
	struct block *b = malloc(sizeof(*b));

	if (!b)
		return NULL;
	__atomic_add_fetch(&db->refs, 1, __ATOMIC_RELAXED);
	b->slab = NULL;
	b->db = db;
	b->data = data;
	block_add(dc, df, b, index, true);
	b->vs = 0;
	b->ve = DCACHE_BLOCK;
	return b;
}

/* Put bytes [s, e) of block b; keep one contiguous valid range. */
static void block_put(struct block *b, uint32_t s, uint32_t e,
		      const uint8_t *src)
{
	memcpy(b->data + s, src, e - s);
	if (b->ve > b->vs && s <= b->ve && e >= b->vs) {
		if (s < b->vs)
			b->vs = s;
		if (e > b->ve)
			b->ve = e;
	} else {
		b->vs = s;
		b->ve = e;
	}
}

enum put_kind {
	PUT_WRITE,   /* our own bytes */
	PUT_STREAM,  /* ours, past DCACHE_STREAM_KEEP of a sequence */
	PUT_AHEAD,   /* read ahead of a reader */
	PUT_REFRESH, /* what a reader asked for (dcache_refresh) */
};

/* Puts [off, off+len); for PUT_REFRESH, a piece smaller than a block
 * goes only where its block exists, unless it runs from the block's start
 * to the end of the file (eof); for PUT_STREAM, any piece goes only where
 * its block exists.  Returns the bytes left out.  dc->lock held. */
static size_t put_locked(struct dcache *dc, struct dfile *df, uint64_t off,
			 const uint8_t *data, size_t len, enum put_kind kind,
			 bool eof)
{
	size_t skipped = 0;

	while (len) {
		uint64_t index = off / DCACHE_BLOCK;
		uint32_t s = (uint32_t)(off % DCACHE_BLOCK);
		uint32_t n = DCACHE_BLOCK - s;
		struct block *b;

		if (n > len)
			n = (uint32_t)len;
		if (((kind == PUT_REFRESH && n < DCACHE_BLOCK &&
		      !(eof && s == 0 && n == len)) || kind == PUT_STREAM) &&
		    !g_hash_table_contains(df->blocks, &index))
			b = NULL;
		else if (!(b = block_get(dc, df, index, n, kind == PUT_AHEAD)) &&
			 kind != PUT_WRITE)
			break;
		/* Our bytes without memory for a new block: the blocks the
		 * file has further on must still take them, or keep older
		 * bytes than the server's. */
		if (!b) {
			skipped += n;
		} else {
			/* Our own bytes are no reader's to let go. */
			if (kind == PUT_WRITE || kind == PUT_STREAM) {
				b->ahead = false;
				block_own(dc, b);
			}
			block_put(b, s, s + n, data);
		}
		off += n;
		data += n;
		len -= n;
	}
	return skipped;
}

static size_t put_range(struct dcache *dc, struct dfile *df, uint64_t off,
			const uint8_t *data, size_t len, enum put_kind kind,
			bool eof)
{
	size_t skipped;

	pthread_mutex_lock(&dc->lock);
	if (kind == PUT_WRITE) {
		df->wseq_len = off == df->wseq_end ? df->wseq_len + len : len;
		df->wseq_end = off + len;
		if (df->wseq_len > DCACHE_STREAM_KEEP)
			kind = PUT_STREAM;
	}
	skipped = put_locked(dc, df, off, data, len, kind, eof);
	if (kind == PUT_STREAM && skipped)
		STAT_ADD(data_stream_uncached, skipped);
	evict(dc);
	pthread_mutex_unlock(&dc->lock);
	return skipped;
}

void dcache_fill_from(struct dcache *dc, struct dfile *df, uint64_t off,
		      uint8_t *data, size_t len, struct dbuf *db)
{
	pthread_mutex_lock(&dc->lock);
	while (len) {
		uint64_t index = off / DCACHE_BLOCK;
		uint32_t s = (uint32_t)(off % DCACHE_BLOCK);
		uint32_t n = DCACHE_BLOCK - s;

		if (n > len)
			n = (uint32_t)len;
		/* A piece of a block, or a block the file has (our writes
		 * may be in it), is copied as dcache_fill does. */
		if (n < DCACHE_BLOCK || g_hash_table_contains(df->blocks, &index))
			put_locked(dc, df, off, data, n, PUT_AHEAD, false);
		else if (block_adopt(dc, df, index, data, db))
			STAT_ADD(data_fill_in_place, n);
		else
			break;
		off += n;
		data += n;
		len -= n;
	}
	evict(dc);
	pthread_mutex_unlock(&dc->lock);
}

void dcache_write(struct dcache *dc, struct dfile *df, uint64_t off,
		  const void *data, size_t len)
{
	put_range(dc, df, off, data, len, PUT_WRITE, false);
}

void dcache_fill(struct dcache *dc, struct dfile *df, uint64_t off,
		 const void *data, size_t len)
{
	put_range(dc, df, off, data, len, PUT_AHEAD, false);
}

size_t dcache_refresh(struct dcache *dc, struct dfile *df, uint64_t off,
		      const void *data, size_t len, bool eof)
{
	return put_range(dc, df, off, data, len, PUT_REFRESH, eof);
}

/* Is every byte of [off, off+len) in the cache?  dc->lock held. */
static bool range_cached(struct dfile *df, uint64_t off, uint64_t len)
{
	for (uint64_t pos = off; pos < off + len;) {
		struct block *b;
		uint64_t index = pos / DCACHE_BLOCK;
		uint32_t s = (uint32_t)(pos % DCACHE_BLOCK);
		uint64_t n = DCACHE_BLOCK - s;

		if (n > off + len - pos)
			n = off + len - pos;
		b = g_hash_table_lookup(df->blocks, &index);
		if (!b || s < b->vs || s + n > b->ve)
			return false;
		pos += n;
	}
	return true;
}

bool dcache_has(struct dcache *dc, struct dfile *df, uint64_t off,
		uint64_t len)
{
	bool has;

	pthread_mutex_lock(&dc->lock);
	has = range_cached(df, off, len);
	pthread_mutex_unlock(&dc->lock);
	return has;
}

long dcache_read(struct dcache *dc, struct dfile *df, uint64_t off,
		 size_t len, uint64_t file_size, void *out)
{
	uint8_t *dst = out;
	uint64_t pos;
	size_t want;

	if (off >= file_size)
		return 0;
	if (len > file_size - off)
		len = (size_t)(file_size - off);
	want = len;
	pthread_mutex_lock(&dc->lock);
	/* Check every block first so a miss copies nothing. */
	if (!range_cached(df, off, len)) {
		pthread_mutex_unlock(&dc->lock);
		return -1;
	}
	for (pos = off; pos < off + len;) {
		uint64_t index = pos / DCACHE_BLOCK;
		uint32_t s = (uint32_t)(pos % DCACHE_BLOCK);
		uint64_t n = DCACHE_BLOCK - s;
		struct block *b = g_hash_table_lookup(df->blocks, &index);

		if (n > off + len - pos)
			n = off + len - pos;
		memcpy(dst, b->data + s, n);
		touch(dc, b);
		dst += n;
		pos += n;
	}
	pthread_mutex_unlock(&dc->lock);
	return (long)want;
}

/* More blocks than this in one request go the copying way (a miss). */
#define SEND_MAX_IOV 64

long dcache_send(struct dcache *dc, struct dfile *df, uint64_t off,
		 size_t len, uint64_t file_size, bool behind,
		 int (*send)(void *ctx, const struct iovec *iov, int n),
		 void *ctx)
{
	struct iovec iov[SEND_MAX_IOV];
	struct block *sent[SEND_MAX_IOV];
	uint64_t pos;
	int n = 0;
	long ret;

	if (off >= file_size) {
		iov[0].iov_base = NULL;
		iov[0].iov_len = 0;
		return send(ctx, iov, 0);
	}
	if (len > file_size - off)
		len = (size_t)(file_size - off);
	pthread_mutex_lock(&dc->lock);
	for (pos = off; pos < off + len; n++) {
		uint64_t index = pos / DCACHE_BLOCK;
		uint32_t s = (uint32_t)(pos % DCACHE_BLOCK);
		uint64_t k = DCACHE_BLOCK - s;
		struct block *b = g_hash_table_lookup(df->blocks, &index);

		if (k > off + len - pos)
			k = off + len - pos;
		if (n == SEND_MAX_IOV || !b || s < b->vs || s + k > b->ve) {
			pthread_mutex_unlock(&dc->lock);
			return -1;
		}
		iov[n].iov_base = b->data + s;
		iov[n].iov_len = k;
		sent[n] = b;
		touch(dc, b);
		pos += k;
	}
	ret = send(ctx, iov, n);
	/* The reader has the bytes up to off + len (and, reading in
	 * sequence, those before off): a read-ahead block they end goes. */
	for (int k = 0; behind && ret >= 0 && k < n; k++) {
		struct block *b = sent[k];

		if (b->ahead && b->index * DCACHE_BLOCK + b->ve <= off + len) {
			block_drop(dc, b);
			STAT_INC(data_dropped_behind);
		}
	}
	pthread_mutex_unlock(&dc->lock);
	return ret;
}

void dcache_truncate(struct dcache *dc, struct dfile *df, uint64_t size)
{
	GHashTableIter it;
	gpointer v;

	pthread_mutex_lock(&dc->lock);
	g_hash_table_iter_init(&it, df->blocks);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct block *b = v;
		uint64_t start = b->index * DCACHE_BLOCK;

		if (start + b->vs >= size) {
			g_hash_table_iter_remove(&it);
			g_queue_unlink(&dc->lru, &b->lru);
			dc->bytes -= DCACHE_BLOCK;
			block_free(dc, b);
		} else if (start + b->ve > size) {
			b->ve = (uint32_t)(size - start);
		}
	}
	pthread_mutex_unlock(&dc->lock);
}

void dcache_describe(struct dcache *dc, struct dfile *df, unsigned *blocks,
		     size_t *bytes)
{
	GHashTableIter it;
	gpointer v;

	*blocks = 0;
	*bytes = 0;
	pthread_mutex_lock(&dc->lock);
	g_hash_table_iter_init(&it, df->blocks);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct block *b = v;

		(*blocks)++;
		*bytes += b->ve - b->vs;
	}
	pthread_mutex_unlock(&dc->lock);
}
