/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "aclcache.h"

#include <stdlib.h>
#include <string.h>

#include "attr.h"

bool aclcache_get(const struct aclcache *c, const struct nfstime3 *ctime,
		  enum aclcache_kind kind, void **val, size_t *len)
{
	if (!c->valid || !nfstime_eq(&c->ctime, ctime))
		return false;
	*len = c->len[kind];
	*val = NULL;
	if (*len == 0)
		return true;
	*val = malloc(*len);
	if (!*val)
		return false;
	memcpy(*val, c->xattr[kind], *len);
	return true;
}

void aclcache_put(struct aclcache *c, const struct nfstime3 *ctime,
		  void *val[2], const size_t len[2])
{
	for (int k = 0; k < 2; k++) {
		free(c->xattr[k]);
		c->xattr[k] = val[k];
		c->len[k] = val[k] ? len[k] : 0;
	}
	c->ctime = *ctime;
	c->valid = true;
}

void aclcache_drop(struct aclcache *c)
{
	c->valid = false;
}

void aclcache_clear(struct aclcache *c)
{
	free(c->xattr[0]);
	free(c->xattr[1]);
	memset(c, 0, sizeof(*c));
}
