/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's entries for names in a directory someone else changed.
 *
 * The kernel keeps each name we answered, and each "no such file", for
 * the entry timeout we gave it.  Once the daemon sees that someone else
 * changed a directory (its attributes moved without a change of ours),
 * any of those names may now be gone, another file, or there: the Linux
 * client then looks each name up again at its next use.  So the daemon
 * tells the kernel that its entries for the names it holds in that
 * directory have expired (FUSE_NOTIFY_INVAL_ENTRY, FUSE_EXPIRE_ONLY), and
 * each is looked up again at its next use; a name still naming the same
 * file keeps its inode, and the daemon its caches of the file.  A kernel
 * older than FUSE 7.38 (Linux 6.2) keeps its entries to their timeout.
 *
 * The kernel takes the directory's lock for that, which a request of its
 * own in the directory may hold while it waits for our answer: so the
 * drops are made by a thread of their own, never by a request's.  And
 * that thread must be stopped while requests are still answered
 * (fs_names_stop() before the FUSE loop stops serving), or a drop could
 * wait for ever on a lock that a request no one will answer holds.
 */
#ifndef NFSFUSE_FS_NAMES_H
#define NFSFUSE_FS_NAMES_H

struct fs;
struct inode;

/* Starts the thread, for fs->se.  0, or a negative errno (entries then
 * just expire with their timeout). */
int fs_names_start(struct fs *fs);

/* dir was changed by someone else: the kernel's entries for the names
 * in it are to expire.  Queued, never waits; at most
 * FS_NAMES_MAX_PER_DIR names of one directory, the rest expire with
 * their timeout. */
void fs_names_changed(struct fs *fs, struct inode *dir);
#define FS_NAMES_MAX_PER_DIR 4096

/* Waits, a second at most, until a drop of dir's names queued or under
 * way is done: for a request the kernel makes holding no lock of dir
 * (an opendir: `ls` then `stat` of a name gone finds it gone). */
void fs_names_settle(struct inode *dir);
#define FS_NAMES_SETTLE_NS 1000000000ll

/* Stops the thread; what is still queued is dropped.  Again: nothing. */
void fs_names_stop(void);

#endif
