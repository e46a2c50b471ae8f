/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "aclfs.h"

#include <stdio.h>
#include <string.h>

#include "../../xdr/nfs3.h"

static struct aclfs_entry *find(struct aclfs *t, uint64_t fsid)
{
	for (int k = 0; k < ACLFS_SLOTS; k++)
		if (t->e[k].used && t->e[k].fsid == fsid)
			return &t->e[k];
	return NULL;
}

void aclfs_mark(struct aclfs *t, uint64_t fsid, enum aclfs_why why,
		uint64_t fileid, int64_t now, int64_t ttl)
{
	struct aclfs_entry *e = find(t, fsid);

	for (int k = 0; !e && k < ACLFS_SLOTS; k++)
		if (!t->e[k].used)
			e = &t->e[k];
	if (!e) {
		e = &t->e[0];
		for (int k = 1; k < ACLFS_SLOTS; k++)
			if (t->e[k].until < e->until)
				e = &t->e[k];
	}
	*e = (struct aclfs_entry){ .used = true, .why = why, .fsid = fsid,
				   .fileid = fileid, .since = now,
				   .until = now + ttl };
}

enum aclfs_why aclfs_none(const struct aclfs *t, uint64_t fsid, int64_t now)
{
	for (int k = 0; k < ACLFS_SLOTS; k++)
		if (t->e[k].used && t->e[k].fsid == fsid)
			return now < t->e[k].until ? t->e[k].why : 0;
	return 0;
}

void aclfs_forget(struct aclfs *t, uint64_t fsid)
{
	struct aclfs_entry *e = find(t, fsid);

	if (e)
		memset(e, 0, sizeof(*e));
}

enum aclfs_why aclfs_rule(uint32_t status, uint32_t acl_count,
			  uint32_t acl_n, uint32_t dfacl_n)
{
	if (status == NFS3ERR_NOTSUPP)
		return ACLFS_NOTSUPP;
	if (status == NFS3_OK && acl_count == 0 && acl_n == 0 &&
	    dfacl_n == 0)
		return ACLFS_EMPTY;
	return 0;
}

size_t aclfs_format(const struct aclfs *t, int64_t now, char *buf,
		    size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (int k = 0; k < ACLFS_SLOTS; k++) {
		const struct aclfs_entry *e = &t->e[k];
		int n;

		if (!e->used || now >= e->until)
			continue;
		n = snprintf(used < len ? buf + used : NULL,
			     used < len ? len - used : 0,
			     "%sfsid %#llx: %s of fileid %llu %s %lld s ago; "
			     "%lld s left)",
			     used ? "; " : "", (unsigned long long)e->fsid,
			     e->why == ACLFS_SET_REFUSED
				     ? "ACLs not settable (SETACL"
				     : "no ACLs (GETACL",
			     (unsigned long long)e->fileid,
			     e->why == ACLFS_EMPTY ? "answered no entries"
			     : e->why == ACLFS_NOTSUPP ? "answered NOTSUPP"
						       : "refused",
			     (long long)((now - e->since) / 1000000000ll),
			     (long long)((e->until - now + 999999999ll) /
					 1000000000ll));
		if (n > 0)
			used += (size_t)n;
	}
	return used;
}
