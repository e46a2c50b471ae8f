/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two things an NFSv3 server hands out that do not fit NFSv2: handles
 * over 31 bytes and 64-bit READDIR cookies with their verifiers.  Both maps
 * only grow (a test proxy lives for one test) and are shared by all
 * connections under one lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "v2proxy.h"

/* Byte 0 of a v2 handle: 1..31 for an inline v3 handle of that length. */
#define FH_MAPPED 0xffu

static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nfs_fh3 *fhs;
static size_t nfhs, capfhs;

struct cookie_ent {
	uint64_t cookie;
	uint8_t verf[NFS3_COOKIEVERFSIZE];
};
static struct cookie_ent *cookies;
static size_t ncookies, capcookies;

static void *grow(void *p, size_t *cap, size_t size)
{
	size_t n = *cap ? *cap * 2 : 256;
	void *q = realloc(p, n * size);

	if (!q)
		abort(); /* a test tool: out of memory is fatal */
	*cap = n;
	return q;
}

void map_fh_to_v2(const struct nfs_fh3 *fh3, struct nfs2_fh *out)
{
	size_t i;
	uint32_t idx;

	memset(out, 0, sizeof(*out));
	if (fh3->len > 0 && fh3->len < NFS2_FHSIZE) {
		out->data[0] = (uint8_t)fh3->len;
		memcpy(out->data + 1, fh3->data, fh3->len);
		return;
	}
	pthread_mutex_lock(&map_lock);
	for (i = 0; i < nfhs; i++)
		if (fhs[i].len == fh3->len &&
		    !memcmp(fhs[i].data, fh3->data, fh3->len))
			break;
	if (i == nfhs) {
		if (nfhs == capfhs)
			fhs = grow(fhs, &capfhs, sizeof(*fhs));
		fhs[nfhs++] = *fh3;
	}
	idx = (uint32_t)i;
	pthread_mutex_unlock(&map_lock);
	out->data[0] = FH_MAPPED;
	xdr_put_u32(out->data + 1, idx);
}

int map_fh_to_v3(const struct nfs2_fh *fh2, struct nfs_fh3 *out)
{
	uint32_t idx;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (fh2->data[0] > 0 && fh2->data[0] < NFS2_FHSIZE) {
		out->len = fh2->data[0];
		memcpy(out->data, fh2->data + 1, out->len);
		return 0;
	}
	if (fh2->data[0] != FH_MAPPED)
		return -ESTALE;
	idx = xdr_get_u32(fh2->data + 1);
	pthread_mutex_lock(&map_lock);
	if (idx < nfhs)
		*out = fhs[idx];
	else
		ret = -ESTALE;
	pthread_mutex_unlock(&map_lock);
	return ret;
}

uint32_t map_cookie_to_v2(uint64_t cookie, const uint8_t *verf)
{
	uint32_t c;

	pthread_mutex_lock(&map_lock);
	if (ncookies == capcookies)
		cookies = grow(cookies, &capcookies, sizeof(*cookies));
	cookies[ncookies].cookie = cookie;
	memcpy(cookies[ncookies].verf, verf, NFS3_COOKIEVERFSIZE);
	c = (uint32_t)++ncookies;
	pthread_mutex_unlock(&map_lock);
	return c;
}

int map_cookie_to_v3(uint32_t cookie2, uint64_t *cookie, uint8_t *verf)
{
	int ret = 0;

	if (cookie2 == 0) {
		*cookie = 0;
		memset(verf, 0, NFS3_COOKIEVERFSIZE);
		return 0;
	}
	pthread_mutex_lock(&map_lock);
	if (cookie2 <= ncookies) {
		*cookie = cookies[cookie2 - 1].cookie;
		memcpy(verf, cookies[cookie2 - 1].verf, NFS3_COOKIEVERFSIZE);
	} else {
		ret = -EINVAL;
	}
	pthread_mutex_unlock(&map_lock);
	return ret;
}
