/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user namespace this process runs in.  Its ids are not the server's:
 * a rootless container's uid 0 is, say, uid 1000 of the machine.  Ids
 * going to the server (AUTH_SYS, chown, ACL entries, quota questions) are
 * translated through /proc/self/uid_map and gid_map to the ids of the
 * parent namespace (the initial one, unless namespaces are nested);
 * owners coming back are translated into the namespace, and an owner
 * with no id here shows as the overflow id (/proc/sys/kernel/overflowuid,
 * overflowgid), as the kernel shows it.
 *
 * Outside a namespace the maps are the identity and every function here
 * returns its argument after one test.  The maps are read once, at the
 * first call, and never change afterwards (the kernel lets a map be
 * written only once).  Thread-safe.
 */
#ifndef NFSFUSE_USERNS_H
#define NFSFUSE_USERNS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../xdr/rpc_msg.h"

/* 0, or the -errno of reading the maps (then ids are taken as they are:
 * the identity), for the daemon to log. */
int userns_load_error(void);
/* Is this process in a namespace whose ids differ from the outside? */
bool userns_active(void);

/* An id of this namespace as the outside knows it: false when it has
 * none (then *out is left alone). */
bool userns_uid_out(uint32_t uid, uint32_t *out);
bool userns_gid_out(uint32_t gid, uint32_t *out);
/* An outside id as this namespace shows it: the overflow id when it has
 * no mapping here. */
uint32_t userns_uid_in(uint32_t uid);
uint32_t userns_gid_in(uint32_t gid);

/* The ids of an AUTH_SYS credential made of this namespace's ids, as the
 * server must see them.  A uid or gid without mapping becomes the
 * overflow id; a supplementary group without one is dropped (it grants
 * nothing it could prove). */
void userns_cred_out(struct rpc_cred *c);

/* USERNS_ID_NONE: no fixed id. */
#define USERNS_ID_NONE 4294967295u
/* The credential the server sees: userns_cred_out(), then a fixed uid
 * and gid (-o uid=, gid=: ids of the server, not translated) replace the
 * caller's; with either, no supplementary groups go out (they are the
 * caller's, not the fixed identity's). */
void userns_cred_wire(struct rpc_cred *c, uint32_t fixed_uid,
		      uint32_t fixed_gid);

#endif
