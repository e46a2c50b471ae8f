/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stats.h"

struct cache_stats cache_stats;
