/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The byte ranges one lock-owner holds on one file, as the server granted
 * them, with the POSIX rules the server applies (RFC 8881 §9.2: a LOCK
 * replaces the owner's locks in its range, so it upgrades, downgrades or
 * extends them; a LOCKU may split one in two).  Kept so that a recovery
 * can reclaim exactly what was held.  Pure: no I/O, no locks.
 *
 * Ranges are [start, end), end UINT64_MAX meaning "to the end of the
 * file"; they never overlap, are sorted by start, and touching ranges of
 * one type are one range.
 */
#ifndef NFSFUSE_PROTO_NFS4_LKRANGE_H
#define NFSFUSE_PROTO_NFS4_LKRANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nfs4_lkrange {
	uint64_t start;
	uint64_t end;           /* exclusive; UINT64_MAX: to the end */
	bool excl;
};

struct nfs4_lkranges {
	struct nfs4_lkrange *r;
	size_t n;
};

void nfs4_lkranges_init(struct nfs4_lkranges *s);
void nfs4_lkranges_free(struct nfs4_lkranges *s);

/*
 * A granted LOCK (lock true, of type excl) or a LOCKU of the POSIX range
 * start, len (len 0: to the end of the file).  0, or -ENOMEM with s
 * unchanged.
 */
int nfs4_lkranges_apply(struct nfs4_lkranges *s, uint64_t start,
			uint64_t len, bool lock, bool excl);
/* dst (initialised, emptied first) becomes a copy of src: 0 or -ENOMEM
 * (dst then empty). */
int nfs4_lkranges_copy(struct nfs4_lkranges *dst,
		       const struct nfs4_lkranges *src);
/* A range as POSIX start and len (0: to the end of the file). */
uint64_t nfs4_lkrange_len(const struct nfs4_lkrange *r);

#endif
