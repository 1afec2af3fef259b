/* plot_common: what every picture of memtop plot shares, whatever its
 * kind: the palette, round axis steps, short numbers for labels and the
 * heading that names where the numbers come from. Each kind's picture
 * (its kind's plot callback, e.g. mountain/mountain_plot.c) draws with
 * these and svg.h. */
#ifndef MEMTOP_PLOT_COMMON_H
#define MEMTOP_PLOT_COMMON_H

#include <stddef.h>

#include "svg.h"
#include "run/result_kind.h"

#define PLOT_MAX_FILES 2 /* a picture shows one file, or two side by side */

/* The ith colour of the series palette (distinct, readable on white). */
const char *plot_color(size_t i);

/* A round axis step for a range of span with about n ticks (1, 2, 5 x 10^k). */
double plot_nice_step(double span, int n);

/* Short numbers for labels: "90.5k" for 90549, "258.3", "2.23", "0.22". */
const char *plot_short(char *buf, size_t len, double v);

/* The lines above a picture: the title (bold), then per file "A: HARDWARE
 * (NAME)" (hardware cut to fit the width in whole words; the file's kind
 * gives its header). y is the top; returns the y under them. */
double plot_heading(struct svg *s, double x, double y, double width, const char *title,
		    const struct result_file *f, size_t n);

/* The height plot_heading takes for n files (to size the page first). */
double plot_heading_height(size_t n);

#endif
