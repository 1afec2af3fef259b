/* plot_beside: a mountain's picture with its levels held against a latency
 * run of the same machine (issue 20 point 14): the one named (memtop plot
 * --latency FILE), else the newest beside the mountain's file of the same
 * host and CPU (result/result_beside.h). Where the two disagree the rows
 * follow the latency run and a caption says so (mountain/rowlevels.h). */
#ifndef MEMTOP_PLOT_BESIDE_H
#define MEMTOP_PLOT_BESIDE_H

#include <stddef.h>

#include "base/util.h"
#include "latency/latency.h"
#include "mountain/rowlevels.h"
#include "render/svg.h"
#include "run/result_kind.h"

/* The cache levels (TLBs left out) and memory of the latency run r, read
 * by its level finder, as other levels for a mountain: what "the latency
 * run" (beside non-zero: "the latency run beside the file"), file the
 * last part of path (printable; path NULL: none). */
void plot_latency_levels(const struct latency_result *r, const char *path, int beside,
			 struct other_levels *o);

/* plot_draw (plot.h), mountains held against a latency run: lr (loaded
 * from lr_path by the caller, --latency) for every one, else the newest
 * beside each mountain's file; other kinds as plot_draw. Returns 0, or -1
 * with e as plot_draw. */
int plot_draw_beside(const struct result_file *f, size_t n, const struct latency_result *lr,
		     const char *lr_path, struct svg *s, mt_error *e);

#endif
