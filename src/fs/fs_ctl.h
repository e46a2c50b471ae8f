/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The control socket's view of the mount: see ctl/ctl.h. */
#ifndef NFSFUSE_FS_CTL_H
#define NFSFUSE_FS_CTL_H

#include "../ctl/ctl.h"
#include "fs.h"

void fs_ctl_hooks(struct fs *fs, struct ctl_hooks *h);

#endif
