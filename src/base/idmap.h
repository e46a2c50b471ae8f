/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * User-namespace id maps (user_namespaces(7)): the text of
 * /proc/PID/uid_map or gid_map, and the translation of ids through it.
 *
 * Each line is "ID_INSIDE ID_OUTSIDE COUNT": the COUNT ids from
 * ID_INSIDE up, inside the namespace, are the ids from ID_OUTSIDE up
 * outside it.  The initial namespace's map is "0 0 4294967295": every id
 * is itself (the identity).  4294967295 ((uid_t)-1) is never an id: it is
 * mapped by no map.  An empty map (a namespace whose map was never
 * written) maps nothing.
 *
 * Pure: no I/O, no global state; userns.h loads the maps of this process.
 */
#ifndef NFSFUSE_IDMAP_H
#define NFSFUSE_IDMAP_H

#include <stdbool.h>
#include <stdint.h>

/* The kernel accepts at most 340 lines. */
#define IDMAP_MAX_EXTENTS 340u

struct idmap_extent {
	uint32_t inside;
	uint32_t outside;
	uint32_t count;
};

struct idmap {
	unsigned n;
	bool identity;  /* every id is itself: nothing to translate */
	struct idmap_extent ext[IDMAP_MAX_EXTENTS];
};

/* Parse map text into *m.  0, or -EINVAL (a malformed line, a range past
 * 2^32, too many lines) with *m emptied. */
int idmap_parse(const char *text, struct idmap *m);

/* The identity map, as outside any namespace. */
void idmap_set_identity(struct idmap *m);

/* Inside id to outside id: true and *out set, or false when id has no
 * mapping. */
bool idmap_to_outside(const struct idmap *m, uint32_t id, uint32_t *out);

/* Outside id to inside id: true and *out set, or false when id has no
 * mapping. */
bool idmap_to_inside(const struct idmap *m, uint32_t id, uint32_t *out);

#endif
