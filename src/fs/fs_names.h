/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's entries for names a listing showed gone.
 *
 * The kernel keeps each name we answered for the entry timeout we gave
 * it.  Another client may rename or remove the file meanwhile; the Linux
 * client looks its names up again once it sees the directory's change
 * attribute move, so `ls` then `stat` of a name renamed away says "No
 * such file".  Here a listing read from its start to its end tells which
 * names the kernel holds that the directory no longer has, and the
 * daemon tells the kernel that its entries for those have expired
 * (FUSE_NOTIFY_INVAL_ENTRY with FUSE_EXPIRE_ONLY, protocol 7.38): each
 * is looked up again at its next use.  A name that still names the same
 * file keeps its inode, and the daemon its caches of the file.  A
 * listing through READDIRPLUS already gives the kernel every name it
 * has, including those the kernel believed missing or held for another
 * file.
 *
 * The kernel takes the directory's lock for each expiry, which a
 * request of its own in the directory (the listing's next read) may
 * hold while it waits for our answer: so the expiries are sent by a
 * thread of their own, never by a request's.  And that thread must be
 * stopped while requests are still answered (fs_names_stop() before
 * the FUSE loop stops serving), or an expiry could wait for ever on a
 * lock that a request no one will answer holds.
 */
#ifndef NFSFUSE_FS_NAMES_H
#define NFSFUSE_FS_NAMES_H

#include <stdint.h>
#include <glib.h>

struct fs;

/* Starts the thread, for fs->se.  0, or a negative errno (entries then
 * just expire with their timeout). */
int fs_names_start(struct fs *fs);

/* The kernel's entries for names (owned strings; taken, freed here) in
 * the directory of node id dir are to expire.  Queued, never waits; at
 * most FS_NAMES_QUEUE_MAX directories wait at once, and the names of
 * others expire with their timeout. */
void fs_names_expire(struct fs *fs, uint64_t dir, GPtrArray *names);
#define FS_NAMES_QUEUE_MAX 256

/* Stops the thread; what is still queued is dropped.  Again: nothing. */
void fs_names_stop(void);

#endif
