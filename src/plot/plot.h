/* plot: memtop plot's pictures, for slides and reports, as SVG written by
 * memtop itself (render/svg.h). Each kind of result draws its own picture
 * (its result kind's plot callback, beside its experiment):
 *   - a mountain as the book's surface (CS:APP Fig. 6.41): size and stride
 *     on the floor, read throughput up, each size row coloured by the cache
 *     level the cliff finder puts it in; two mountains side by side on one
 *     throughput scale (mountain/mountain_plot.c);
 *   - a latency run as curves on log axes (size across, ns up) with the
 *     levels the level finder reads marked; two runs overlaid
 *     (latency/latency_plot.c);
 *   - lab results (matmul, false sharing, lists) as bar charts; two files
 *     side by side on one scale (labs/labs_plot.c).
 * Every picture names where its numbers come from: each file's hardware
 * field and name (render/plot_common.h). This folder is the command's
 * part: the dispatch by kind and writing the SVG or PNG. */
#ifndef MEMTOP_PLOT_H
#define MEMTOP_PLOT_H

#include <stddef.h>

#include "base/util.h"
#include "render/plot_common.h"
#include "render/svg.h"
#include "run/result_kind.h"

/* Draw f[0..n) (n 1 or PLOT_MAX_FILES, loaded with result_file_load) into
 * a new document s through their kind's plot. Returns 0, or -1 with e: two
 * kinds ("A is a mountain, B a matmul result: plot two files of one kind"),
 * a kind with no picture ("PATH: memtop plot draws no picture of a WHAT
 * (...)"), out of memory. Free s with svg_free() either way. */
int plot_draw(const struct result_file *f, size_t n, struct svg *s, mt_error *e);

/* Write the SVG to path atomically ("-": stdout). 0, or -1 with e. */
int plot_write_svg(const char *path, const char *text, mt_error *e);

/* Render the SVG to a PNG at path with rsvg-convert (librsvg2-bin), run
 * without a shell; the PNG is written to a temporary file beside path and
 * renamed over it. Returns 0, or -1 with e (rsvg-convert missing: says to
 * install librsvg2-bin or use --svg; it failed: its exit status). */
int plot_write_png(const char *path, const char *text, mt_error *e);

#endif
