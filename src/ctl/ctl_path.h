/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the control socket of a mount lives, computed the same way by the
 * daemon and by nfsfusectl so that the client finds it from the mount
 * point alone:
 *
 *   directory  $XDG_RUNTIME_DIR/nfsfuse  when XDG_RUNTIME_DIR is set and is
 *                                        a directory (unset: /run/user/<uid>
 *                                        when it is ours, for non-root),
 *              /run/nfsfuse              else for root,
 *              /tmp/nfsfuse-<uid>        else;
 *   where root and <uid> are the effective uid as the initial user
 *   namespace knows it (userns.h): inside `unshare -Ur` as uid 1000, the
 *   directory is /tmp/nfsfuse-1000, which the namespace sees owned by its
 *   uid 0, the same user.
 *   file       hex SHA-1 of the canonical (realpath) mount point + ".sock".
 *
 * The directory is 0700 and the socket 0600: only the owner (and root)
 * may talk to a mount's daemon.  No I/O beyond stat() and realpath().
 */
#ifndef NFSFUSE_CTL_PATH_H
#define NFSFUSE_CTL_PATH_H

#include <stddef.h>

/* Longest socket path: what fits in sockaddr_un.sun_path with its NUL. */
#define CTL_PATH_MAX 108

/* The directory of the control sockets of this user.  0 or -ENAMETOOLONG. */
int ctl_sock_dir(char *buf, size_t len);

/* The socket path for an already canonical mount point (no realpath). */
int ctl_sock_path_canon(const char *canon_mountpoint, char *buf, size_t len);

/*
 * The socket path for mountpoint, canonicalized with realpath() first; the
 * canonical form is copied to canon (which may be NULL) when canonlen
 * allows.  Returns 0, -errno from realpath, or -ENAMETOOLONG.
 *
 * realpath() looks at every component: on the daemon side call this
 * before the FUSE session is mounted, not while the mount exists but is
 * not yet served (it could wait on the daemon itself).
 */
int ctl_sock_path(const char *mountpoint, char *buf, size_t len, char *canon,
		  size_t canonlen);

#endif
