/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Directories nfsfuse makes for itself (control sockets, lock state),
 * often where anyone may create names, such as /tmp.  Another user who
 * made such a directory first could read, replace or redirect what is
 * written there; so each directory of nfsfuse's own is made 0700, and one
 * that exists already is taken only when it is a directory (not a
 * symbolic link) of this user, as the user namespace shows owners; its
 * mode is then narrowed to 0700.
 */
#ifndef NFSFUSE_SAFEDIR_H
#define NFSFUSE_SAFEDIR_H

#include <stddef.h>

/*
 * Make the absolute path.  The components that start at byte offset own
 * or later are nfsfuse's own and checked as above; those before it (a
 * home or a runtime directory, /tmp) are made 0700 when missing and not
 * checked.  Returns 0, or a negative errno with one line in why: -EPERM
 * when a directory of ours belongs to another user or is not a directory.
 */
int safedir_make(const char *path, size_t own, char *why, size_t whylen);

/* Offset of the last component of path (for safedir_make's own). */
size_t safedir_last(const char *path);

#endif
