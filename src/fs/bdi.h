/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's read-ahead on the mount.  A FUSE mount starts with the
 * default 128 KiB of read-ahead (its INIT can only lower it), so a
 * sequential reader sends a request per 128 KiB, each a round trip
 * through /dev/fuse.  Its backing device's read_ahead_kb in sysfs can
 * raise it once INIT is done, which only root may do.
 */
#ifndef NFSFUSE_BDI_H
#define NFSFUSE_BDI_H

#include <stddef.h>

/* The "MAJOR:MINOR" of the file system mounted last on the canonical path
 * mnt, from /proc/self/mountinfo (no access to the mount itself).
 * Returns 0, or a negative errno. */
int bdi_of_mount(const char *mnt, char *dev, size_t len);
/* Raise the device's read-ahead to kb unless it is already as large.
 * Returns 0, or a negative errno (-EACCES for an ordinary user). */
int bdi_raise_readahead(const char *dev, unsigned kb);

#endif
