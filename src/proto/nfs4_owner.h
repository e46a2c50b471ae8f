/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NFSv4.1 client owner (RFC 8881 §2.4): the string EXCHANGE_ID names
 * this client by.  The server keeps one client id, and all its state
 * (opens, locks, delegations), per owner; a new verifier with a known
 * owner means "this client restarted: drop its old state".  So the owner
 * must be
 *
 *   - the same at every start of the same mount (so that a restart
 *     replaces its own dead state instead of waiting for the lease);
 *   - different for every mount that runs at the same time: each nfsfuse
 *     daemon is a client of its own, and two daemons with one owner
 *     would throw each other's state away; and users must not share
 *     state.
 *
 * It is made of a host id (random, kept in the state directory so that
 * it survives restarts and differs between machines even when their
 * host names are alike, e.g. containers), the mount owner's uid (as the
 * server sees it), the server, the export and the mount point.
 */
#ifndef NFSFUSE_PROTO_NFS4_OWNER_H
#define NFSFUSE_PROTO_NFS4_OWNER_H

#include <stddef.h>
#include <stdint.h>

/* Hex digits of a host id, without the NUL. */
#define NFS4_HOSTID_LEN 32u
/* The owner's length at most (NFS4_OPAQUE_LIMIT). */
#define NFS4_OWNER_MAX 1024u

/*
 * The owner string into out (NUL-terminated, at most NFS4_OWNER_MAX bytes
 * before the NUL).  A string that would be longer keeps its head and ends
 * in a hash of the whole, so that it stays distinct.  Returns its length,
 * or -EINVAL when outlen is too small for NFS4_OWNER_MAX + 1 or a part
 * is missing.
 */
int nfs4_owner_make(const char *hostid, uint32_t uid, const char *server,
		    const char *export_path, const char *mountpoint,
		    char *out, size_t outlen);

/*
 * The host id kept in dir/nfs4-hostid: read, or made (random) and written
 * when the file is missing or malformed.  dir is made (0700) when missing.
 * out gets NFS4_HOSTID_LEN hex digits and a NUL.  0, or a negative errno
 * (then out holds a random id that will not survive a restart).
 */
int nfs4_hostid_load(const char *dir, char out[NFS4_HOSTID_LEN + 1]);

#endif
