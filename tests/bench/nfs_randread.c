/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs_randread: random reads of one file over NFS with libnfs, the
 * random-read baseline of tests/bench/bench.sh (not installed).
 *
 *   nfs_randread [-t THREADS] [-s SECONDS] [-b BYTES] nfs://SERVER/EXPORT/FILE
 *
 * It does what a FUSE client built on libnfs (fuse-nfs) does at its best
 * for `fio --rw=randread --ioengine=psync --numjobs=N`: N threads, each
 * with a libnfs context (connection) of its own, each sending one
 * synchronous READ of BYTES at a random BYTES-aligned offset after the
 * other, for SECONDS; no FUSE, no kernel, no cache in between.  It prints
 * "iops N", "reads N" and "seconds S", one per line.
 *
 * Exit status: 0 done, 1 an NFS error or a short read, 2 bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nfsc/libnfs.h>

#define MAX_THREADS 64

struct worker {
	pthread_t tid;
	unsigned idx;
	struct nfs_context *nfs;
	struct nfsfh *fh;
	uint64_t blocks;        /* whole blocks in the file */
	uint64_t reads;
	char err[256];          /* empty when the worker did not fail */
};

static const char *url_arg;
static unsigned block_bytes = 4096;
static double run_seconds = 10;
/* Every worker has opened the file (ready), then the clock starts (go). */
static pthread_barrier_t ready, go;
static double deadline;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t xorshift64s(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * UINT64_C(2685821657736338717);
}

/* Mount and open in this worker's own context; false with w->err set. */
static bool worker_open(struct worker *w)
{
	struct nfs_url *url;
	struct nfs_stat_64 st;
	int rc;

	w->nfs = nfs_init_context();
	if (!w->nfs) {
		snprintf(w->err, sizeof(w->err), "nfs_init_context failed");
		return false;
	}
	url = nfs_parse_url_full(w->nfs, url_arg);
	if (!url) {
		snprintf(w->err, sizeof(w->err), "bad URL %s: %s", url_arg,
			 nfs_get_error(w->nfs));
		return false;
	}
	rc = nfs_mount(w->nfs, url->server, url->path);
	if (rc == 0)
		rc = nfs_open(w->nfs, url->file, O_RDONLY, &w->fh);
	if (rc == 0)
		rc = nfs_fstat64(w->nfs, w->fh, &st);
	if (rc != 0) {
		snprintf(w->err, sizeof(w->err), "%s: %s", url_arg,
			 nfs_get_error(w->nfs));
		nfs_destroy_url(url);
		return false;
	}
	nfs_destroy_url(url);
	w->blocks = st.nfs_size / block_bytes;
	if (w->blocks == 0) {
		snprintf(w->err, sizeof(w->err),
			 "%s: smaller than one block of %u bytes", url_arg,
			 block_bytes);
		return false;
	}
	return true;
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	uint64_t seed = UINT64_C(0x9e3779b97f4a7c15) * (w->idx + 1) ^
			(uint64_t)getpid();
	bool ok = worker_open(w);
	char *buf = malloc(block_bytes);

	if (ok && !buf) {
		snprintf(w->err, sizeof(w->err), "out of memory");
		ok = false;
	}
	/* A worker that failed waits too: the others must not hang. */
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&go);
	while (ok && now() < deadline) {
		uint64_t off = (xorshift64s(&seed) % w->blocks) * block_bytes;
		int n = nfs_pread(w->nfs, w->fh, off, block_bytes, buf);

		if (n != (int)block_bytes) {
			snprintf(w->err, sizeof(w->err),
				 "READ at %" PRIu64 ": %s", off,
				 n < 0 ? nfs_get_error(w->nfs) : "short read");
			break;
		}
		w->reads++;
	}
	free(buf);
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: nfs_randread [-t THREADS] [-s SECONDS] "
		"[-b BYTES] nfs://SERVER/EXPORT/FILE\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct worker w[MAX_THREADS];
	unsigned threads = 4;
	uint64_t total = 0;
	double t0, elapsed;
	int c, rc = 0;

	while ((c = getopt(argc, argv, "t:s:b:")) != -1) {
		char *end;
		unsigned long v;

		switch (c) {
		case 't':
		case 'b':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || v == 0 ||
			    v > (c == 't' ? MAX_THREADS : 1u << 20)) {
				fprintf(stderr, "nfs_randread: bad -%c '%s'\n",
					c, optarg);
				return 2;
			}
			if (c == 't')
				threads = (unsigned)v;
			else
				block_bytes = (unsigned)v;
			break;
		case 's':
			run_seconds = strtod(optarg, &end);
			if (*end || !(run_seconds > 0 && run_seconds < 86400)) {
				fprintf(stderr, "nfs_randread: bad -s '%s'\n",
					optarg);
				return 2;
			}
			break;
		default:
			return usage();
		}
	}
	if (optind != argc - 1)
		return usage();
	url_arg = argv[optind];

	pthread_barrier_init(&ready, NULL, threads + 1);
	pthread_barrier_init(&go, NULL, threads + 1);
	for (unsigned i = 0; i < threads; i++) {
		w[i].idx = i;
		if (pthread_create(&w[i].tid, NULL, worker_run, &w[i])) {
			fprintf(stderr, "nfs_randread: cannot start a thread\n");
			return 1;
		}
	}
	/* Mounting and opening are not timed. */
	pthread_barrier_wait(&ready);
	t0 = now();
	deadline = t0 + run_seconds;
	pthread_barrier_wait(&go);
	for (unsigned i = 0; i < threads; i++) {
		pthread_join(w[i].tid, NULL);
		total += w[i].reads;
		if (w[i].err[0]) {
			fprintf(stderr, "nfs_randread: thread %u: %s\n", i,
				w[i].err);
			rc = 1;
		}
		if (w[i].fh)
			nfs_close(w[i].nfs, w[i].fh);
		if (w[i].nfs)
			nfs_destroy_context(w[i].nfs);
	}
	elapsed = now() - t0;
	pthread_barrier_destroy(&ready);
	pthread_barrier_destroy(&go);
	if (rc)
		return rc;
	printf("iops %.0f\nreads %" PRIu64 "\nseconds %.3f\n",
	       (double)total / elapsed, total, elapsed);
	return 0;
}
