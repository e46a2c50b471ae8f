/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NFSv4.2 operations that have no NFSv3 procedure (RFC 7862): SEEK,
 * ALLOCATE, DEALLOCATE and COPY, each one COMPOUND on the mount's
 * session:
 *
 *   SEEK         PUTFH SEEK, or PUTFH OPEN SEEK CLOSE
 *   ALLOCATE     PUTFH GETATTR ALLOCATE GETATTR      (wcc: before, after)
 *   DEALLOCATE   PUTFH GETATTR DEALLOCATE GETATTR
 *   COPY         PUTFH src SAVEFH PUTFH dst COPY COMMIT GETATTR
 *
 * COPY is synchronous, consecutive and within the server; its COMMIT
 * (of the destination from dst_off) rides in the same COMPOUND, so the
 * bytes are on stable storage when the call returns whether the server
 * copied them FILE_SYNC or UNSTABLE.  READ_PLUS is never sent: a server
 * may answer it NFS4_OK with an empty data segment (nfs-ganesha 4.3).
 *
 * Each carries the caller's open stateid of the file (nfs4_open.h), as
 * READ and WRITE do, or where the caller has none the anonymous one (RFC
 * 8881 §8.2.3); SEEK then opens the file in its own COMPOUND instead
 * (nfs42_ops.c says why).
 *
 * On a mount that is not NFSv4.2 (NFSv3, NFSv2, NFSv4.1) every call
 * returns -ENOTSUP without a round trip.  Otherwise, as nfs_call(): 0
 * when the reply was parsed (look at res->status, an NFSv3 status:
 * NFS3ERR_NOTSUPP where the server has no such operation, or cannot do
 * it as asked), or a negative errno of the transport or session.
 */
#ifndef NFSFUSE_PROTO_NFS42_OPS_H
#define NFSFUSE_PROTO_NFS42_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "nfs.h"

/* Does c speak NFSv4.2 (minor version 2 on its session)? */
bool nfs42_available(const struct nfs_client *c);

struct nfs42_seek_res {
	uint32_t status;   /* nfsstat3 */
	bool eof;          /* the server reached the end of the file */
	uint64_t offset;   /* NFS3_OK: where the data or hole starts */
};
/* The first data (hole false) or hole (hole true) at or after offset. */
int nfs42_seek(struct nfs_client *c, const struct rpc_cred *cred,
	       const struct nfs_fh3 *fh, uint64_t offset, bool hole,
	       struct nfs42_seek_res *res, volatile int *interrupted);
/*
 * lseek(2)'s answer from a SEEK reply (pure): the offset, or -ENXIO when
 * SEEK_DATA found no data before the end of the file (NFS3ERR_NXIO, or
 * NFS3_OK with eof set: RFC 7862 §15.11.3), or the status's errno.
 */
int64_t nfs42_seek_answer(const struct nfs42_seek_res *res, bool hole);

struct nfs42_space_res {
	uint32_t status;       /* nfsstat3 */
	struct wcc_data wcc;   /* the file's attributes before and after */
};
/*
 * ALLOCATE (dealloc false: the range reads as before and cannot fail for
 * want of space; a range past the end grows the file) or DEALLOCATE
 * (the range reads as zeros) of [offset, offset + length).
 */
int nfs42_space(struct nfs_client *c, const struct rpc_cred *cred,
		const struct nfs_fh3 *fh, bool dealloc, uint64_t offset,
		uint64_t length, struct nfs42_space_res *res,
		volatile int *interrupted);

struct nfs42_copy_res {
	uint32_t status;             /* nfsstat3 */
	uint64_t count;              /* NFS3_OK: bytes copied (may be short) */
	struct post_op_attr dst_attr; /* the destination after it */
};
/*
 * COPY of count bytes from src at src_off to dst at dst_off.  A server
 * that would only copy asynchronously, or not within itself, answers
 * NFS3ERR_NOTSUPP here, as one without COPY does.
 */
int nfs42_copy(struct nfs_client *c, const struct rpc_cred *cred,
	       const struct nfs_fh3 *src, uint64_t src_off,
	       const struct nfs_fh3 *dst, uint64_t dst_off, uint64_t count,
	       struct nfs42_copy_res *res, volatile int *interrupted);

#endif
