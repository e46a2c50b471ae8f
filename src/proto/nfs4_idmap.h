/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4 owners and groups are strings (RFC 8881 §5.9): "user@domain",
 * or a decimal number where the server sends ids as they are.  Here they
 * become the ids the server's side of the AUTH_SYS world uses, and back:
 *
 *   - "name@DOMAIN" with our domain (compared without case): the id of
 *     name in the system's user (group) database; an unknown name or
 *     another domain gives the overflow id (65534, "nobody");
 *   - a decimal number: that id;
 *   - an id going out: "name@DOMAIN" when the database knows it, else its
 *     number (which servers accept for AUTH_SYS).
 *
 * The ids are those of the machine, as the server sees them: the user
 * namespace translation (base/userns.h) happens above, as for NFSv3.
 *
 * The domain: -o idmap_domain=, else the Domain of /etc/idmapd.conf's
 * [General] section, else the host's DNS domain, else "localdomain"
 * (what nfs-utils' libnfsidmap falls back to as well).
 */
#ifndef NFSFUSE_PROTO_NFS4_IDMAP_H
#define NFSFUSE_PROTO_NFS4_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NFS4_IDMAP_OVERFLOW 65534u
#define NFS4_IDMAP_DOMAIN_MAX 256u
/* "name@domain" at most, NUL included. */
#define NFS4_IDMAP_NAME_MAX 512u

/* Domain of an idmapd.conf text (the Domain key of [General]) into out;
 * true when found. */
bool nfs4_idmap_conf_domain(const char *text, char *out, size_t outlen);
/* Sets the domain (see above); option may be NULL.  Call once before any
 * mapping; the domain chosen is logged at info level. */
void nfs4_idmap_init(const char *option);
const char *nfs4_idmap_domain(void);

/* An owner (group) string of len bytes, not NUL-terminated, to an id. */
uint32_t nfs4_idmap_uid(const char *s, size_t len);
uint32_t nfs4_idmap_gid(const char *s, size_t len);
/* An id to the owner (group) string, into out (NFS4_IDMAP_NAME_MAX). */
void nfs4_idmap_user(uint32_t uid, char *out, size_t outlen);
void nfs4_idmap_group(uint32_t gid, char *out, size_t outlen);

#endif
