/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who clears setuid/setgid when a file is written, truncated or given
 * away.  NFS servers do it themselves (the kernel's NFS client leaves it
 * to them); left to the FUSE kernel module, it is done with a SETATTR of
 * the mode sent as the writer, which a server refuses to anyone but the
 * owner: a write the server allows would fail with EPERM.  So the daemon
 * takes FUSE_CAP_HANDLE_KILLPRIV.
 *
 * libfuse 3.14 accepts that capability in conn->want but leaves
 * FUSE_HANDLE_KILLPRIV out of its INIT reply (fixed in later releases),
 * so the flag is added to the reply on its way to the kernel, by I/O
 * functions that otherwise only read and write /dev/fuse.
 */
#ifndef NFSFUSE_FS_KILLPRIV_H
#define NFSFUSE_FS_KILLPRIV_H

#include <fuse_lowlevel.h>
#include <stdbool.h>

/* Route se's /dev/fuse I/O through the INIT fix-up; after
 * fuse_session_mount().  0 or a negative errno (the mount then works
 * as before, with the kernel clearing the bits). */
int killpriv_attach(struct fuse_session *se);
/* From the init handler: the file system wants the flag (only then is
 * the reply changed). */
void killpriv_want(bool on);
/* Did the kernel get FUSE_HANDLE_KILLPRIV? (for tests and stats) */
bool killpriv_granted(void);

#endif
