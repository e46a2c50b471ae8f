/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Removals in flight, and the opens that must not slip past them.
 *
 * An unlink, or a rename over a name, decides whether the file it takes
 * the name of is open here (then it is moved aside, the silly rename) or
 * not (then the server may destroy it).  The kernel walks a path and
 * opens the file it found in two requests, and another thread's unlink
 * can be decided between them: seeing the file not yet open, it sends a
 * REMOVE, and the open's own GETATTR may still find the file before the
 * REMOVE does.  The open succeeds, and its reads and writes then meet a
 * stale handle.  The Linux client decides from the dentry's count, which
 * the opener holds across its walk; FUSE shows us no such count.
 *
 * So a removal is bracketed: fs_removal_begin() before it decides,
 * fs_removal_end() once the server answered.  An open first counts itself
 * open (which any later decision sees), then waits out every removal
 * begun before that, and asks the server about its file again if one
 * was: a file that lost its last name is then found stale, and the
 * kernel looks the path up once more, as after any ESTALE.
 */
#ifndef NFSFUSE_FS_REMOVALS_H
#define NFSFUSE_FS_REMOVALS_H

#include <fuse_lowlevel.h>
#include <stdint.h>

struct fs_removal {
	uint64_t ticket;
	struct fs_removal *prev, *next;
};

/* r lives on the caller's stack, from begin to end. */
void fs_removal_begin(struct fs_removal *r);
void fs_removal_end(struct fs_removal *r);

/* How many removals have begun: taken before an open's first call to
 * the server about the file it opens. */
uint64_t fs_removals_begun(void);

/*
 * After the open counted itself in its inode's nopen: waits until every
 * removal begun before now has ended.  Returns 1 when a removal began
 * since seen (fs_removals_begun() at the open's start) or was still in
 * flight, so the file may have lost its last name and the caller must
 * ask the server; 0 when none did; -EINTR when the wait was ended
 * (fs_wait.h).
 */
int fs_removals_settle(fuse_req_t req, uint64_t seen);

#endif
