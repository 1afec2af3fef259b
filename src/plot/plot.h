/* plot: memtop plot's pictures, for slides and reports, as SVG written by
 * memtop itself (svg.h):
 *   - a mountain as the book's surface (CS:APP Fig. 6.41): size and stride
 *     on the floor, read throughput up, each size row coloured by the cache
 *     level the cliff finder puts it in; two mountains side by side on one
 *     throughput scale;
 *   - a latency run as curves on log axes (size across, ns up) with the
 *     levels the level finder reads marked; two runs overlaid;
 *   - lab results (matmul, false sharing, lists) as bar charts; two files
 *     side by side on one scale.
 * Every picture names where its numbers come from: each file's hardware
 * field and name. */
#ifndef MEMTOP_PLOT_H
#define MEMTOP_PLOT_H

#include <stddef.h>

#include "svg.h"
#include "core/util.h"

struct mountain;
struct latency_result;
struct matmul_result;
struct falseshare_result;
struct lists_result;

enum plot_kind { PLOT_MOUNTAIN, PLOT_LATENCY, PLOT_MATMUL, PLOT_FALSESHARE, PLOT_LISTS };

/* One file to plot. */
struct plot_input {
	enum plot_kind kind;
	char path[1024];
	struct mountain *mountain;
	struct latency_result *latency;
	struct matmul_result *matmul;
	struct falseshare_result *falseshare;
	struct lists_result *lists;
};

#define PLOT_MAX_FILES 2

/* Read path and tell its kind. Returns 0, or -1 with e ("PATH: not a
 * result memtop can plot", or the reader's own one-line error). */
int plot_load(const char *path, struct plot_input *in, mt_error *e);

/* Free what plot_load allocated (in may be zeroed or loaded). */
void plot_input_free(struct plot_input *in);

/* A name for a kind, for messages: "mountain", "latency run", ... */
const char *plot_kind_name(enum plot_kind k);

/* Draw n (1 or PLOT_MAX_FILES) inputs of one kind into a new document s.
 * Returns 0, or -1 with e (different kinds, out of memory); free s with
 * svg_free() either way. */
int plot_draw(const struct plot_input *in, size_t n, struct svg *s, mt_error *e);

/* The parts (plot_mountain.c, plot_latency.c, plot_labs.c). */
int plot_mountains(const struct plot_input *in, size_t n, struct svg *s);
int plot_latencies(const struct plot_input *in, size_t n, struct svg *s);
int plot_labs(const struct plot_input *in, size_t n, struct svg *s);

/* ---- shared by the parts ------------------------------------------------- */

/* The ith colour of the series palette (distinct, readable on white). */
const char *plot_color(size_t i);

/* A round axis step for a range of span with about n ticks (1, 2, 5 x 10^k). */
double plot_nice_step(double span, int n);

/* Short numbers for labels: "90.5k" for 90549, "258.3", "2.23", "0.22". */
const char *plot_short(char *buf, size_t len, double v);

/* The lines above a picture: the title (bold), then per file "A: HARDWARE
 * (NAME)" (hardware cut to fit the width in whole words). y is the top;
 * returns the y under them. */
double plot_heading(struct svg *s, double x, double y, double width, const char *title,
		    const struct plot_input *in, size_t n);

/* The height plot_heading takes for n files (to size the page first). */
double plot_heading_height(size_t n);

/* Write the SVG to path atomically ("-": stdout). 0, or -1 with e. */
int plot_write_svg(const char *path, const char *text, mt_error *e);

/* Render the SVG to a PNG at path with rsvg-convert (librsvg2-bin), run
 * without a shell; the PNG is written to a temporary file beside path and
 * renamed over it. Returns 0, or -1 with e (rsvg-convert missing: says to
 * install librsvg2-bin or use --svg; it failed: its exit status). */
int plot_write_png(const char *path, const char *text, mt_error *e);

#endif
