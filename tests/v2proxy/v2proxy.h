/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs2to3proxy: a test-only NFSv2 server that is really an NFSv3 client.
 *
 * It accepts NFS version 2 (program 100003) and MOUNT version 1 (program
 * 100005) calls over TCP on one port, translates each into NFSv3 / MOUNT
 * v3 calls to a real server (nfs-ganesha, which has no v2), and translates
 * the replies back, so that nfsfuse's NFSv2 client can be tested against
 * a real server's semantics.  It also takes NLM versions 1 and 3 (program
 * 100021, the lock manager of NFSv2 clients) and makes NLM v4 calls of
 * them (nlm_srv.c).  Built from the project's own codecs (xdr/nfs2.h,
 * xdr/nfs3.h, xdr/mount.h, xdr/nlm.h, xdr/rpc_msg.h).
 *
 * Threads: one per client connection; each has its own upstream
 * connections and makes one upstream call at a time.  The handle and
 * cookie maps (maps.c) are shared and have their own lock.
 *
 * Handles: a v3 handle of up to 31 bytes travels inside the 32-byte v2
 * handle as [length][bytes][zeros]; a longer one is kept in a map and the
 * v2 handle carries its index.  READDIR cookies: v3 cookies are 64 bits
 * and come with a cookie verifier, so every cookie handed to a v2 client
 * is an index into a map of (cookie, verifier).
 */
#ifndef NFS2TO3PROXY_H
#define NFS2TO3PROXY_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "nfs2.h"
#include "nfs3.h"
#include "rpc_msg.h"

#define PROXY_MAX_RECORD (1u << 20)

/* An upstream RPC connection (one program and version), opened lazily and
 * reopened once when it breaks. */
struct upstream {
	struct sockaddr_in addr;
	uint32_t prog, vers;
	int fd;
};

typedef int (*enc_fn)(struct xdr_enc *e, const void *args);
typedef int (*dec_fn)(struct xdr_dec *d, void *res);

/*
 * One call.  cred is the client's credential, passed on as it came.  On 0
 * res holds the decoded results, which may point into *buf (free it when
 * done).  Otherwise a negative errno: transport, RPC rejection, or
 * -EBADMSG for results that do not decode.
 */
int up_call(struct upstream *u, uint32_t proc, const struct rpc_cred *cred,
	    enc_fn enc, const void *args, dec_fn dec, void *res,
	    uint8_t **buf);
/* The same, with the raw result bytes in [*res, *res + *len). */
int up_call_raw(struct upstream *u, uint32_t proc,
		const struct rpc_cred *cred, enc_fn enc, const void *args,
		const uint8_t **res, size_t *len, uint8_t **buf);

struct conn {
	int fd;
	struct upstream nfs;
	struct upstream mnt;
	struct upstream nlm;    /* the server's NLM v4 */
};

/*
 * Serve one NFSv2 call: decode the arguments at d, call the server, encode
 * the v2 results into e.  Returns the accept_stat for the reply:
 * RPC_SUCCESS (e holds the results), RPC_PROC_UNAVAIL, RPC_GARBAGE_ARGS or
 * RPC_SYSTEM_ERR (the server could not be reached).
 */
uint32_t nfs2_serve(struct conn *c, uint32_t proc,
		    const struct rpc_cred *cred, struct xdr_dec *d,
		    struct xdr_enc *e);

/* The same for NLM v1 and v3 (vers), through NLM v4: nlm_srv.c. */
uint32_t nlm1_serve(struct conn *c, uint32_t vers, uint32_t proc,
		    const struct rpc_cred *cred, struct xdr_dec *d,
		    struct xdr_enc *e);

/* maps.c */
void map_fh_to_v2(const struct nfs_fh3 *fh3, struct nfs2_fh *out);
/* -ESTALE for a handle this proxy did not make. */
int map_fh_to_v3(const struct nfs2_fh *fh2, struct nfs_fh3 *out);
/* A v2 cookie (never 0) for a v3 cookie and verifier. */
uint32_t map_cookie_to_v2(uint64_t cookie, const uint8_t *verf);
/* 0 is the start of the directory; -EINVAL for an unknown cookie. */
int map_cookie_to_v3(uint32_t cookie2, uint64_t *cookie, uint8_t *verf);

#endif
