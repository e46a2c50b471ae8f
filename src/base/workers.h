/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How many threads serve FUSE requests at most (main.c's session loop).
 * A layer below that runs a caller's call on a thread of its own sizes
 * its pool from it: no more callers than this wait at once.
 */
#ifndef NFSFUSE_BASE_WORKERS_H
#define NFSFUSE_BASE_WORKERS_H

#define NF_FUSE_WORKERS 16

#endif
