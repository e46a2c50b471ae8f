/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "idmap.h"

#include <errno.h>
#include <string.h>

#define ID_NONE UINT32_MAX

void idmap_set_identity(struct idmap *m)
{
	m->n = 1;
	m->identity = true;
	m->ext[0] = (struct idmap_extent){ 0, 0, UINT32_MAX };
}

/* A decimal field of at most 32 bits; *p moves past it. */
static int field(const char **p, uint32_t *out)
{
	unsigned long long v = 0;
	const char *s = *p;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned)(*s++ - '0');
		if (v > UINT32_MAX)
			return -EINVAL;
	}
	*out = (uint32_t)v;
	*p = s;
	return 0;
}

int idmap_parse(const char *text, struct idmap *m)
{
	const char *p = text;

	memset(m, 0, sizeof(*m));
	while (*p) {
		struct idmap_extent e;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		if (m->n == IDMAP_MAX_EXTENTS || field(&p, &e.inside) ||
		    field(&p, &e.outside) || field(&p, &e.count))
			goto bad;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p && *p != '\n')
			goto bad;
		/* The last id of a range is at most 4294967294. */
		if (e.count == 0 || e.count > UINT32_MAX - e.inside ||
		    e.count > UINT32_MAX - e.outside)
			goto bad;
		m->ext[m->n++] = e;
	}
	m->identity = m->n == 1 && m->ext[0].inside == 0 &&
		      m->ext[0].outside == 0 && m->ext[0].count == UINT32_MAX;
	return 0;
bad:
	memset(m, 0, sizeof(*m));
	return -EINVAL;
}

bool idmap_to_outside(const struct idmap *m, uint32_t id, uint32_t *out)
{
	if (id == ID_NONE)
		return false;
	if (m->identity) {
		*out = id;
		return true;
	}
	for (unsigned k = 0; k < m->n; k++) {
		const struct idmap_extent *e = &m->ext[k];

		if (id >= e->inside && id - e->inside < e->count) {
			*out = e->outside + (id - e->inside);
			return true;
		}
	}
	return false;
}

bool idmap_to_inside(const struct idmap *m, uint32_t id, uint32_t *out)
{
	if (id == ID_NONE)
		return false;
	if (m->identity) {
		*out = id;
		return true;
	}
	for (unsigned k = 0; k < m->n; k++) {
		const struct idmap_extent *e = &m->ext[k];

		if (id >= e->outside && id - e->outside < e->count) {
			*out = e->inside + (id - e->outside);
			return true;
		}
	}
	return false;
}
