/* svg: a small SVG 1.1 writer into memory, for memtop plot. Every element
 * memtop draws is one call: rectangles, lines, polylines, polygons, text
 * (XML-escaped), groups. Numbers are written with one decimal, colours as
 * "#rrggbb". Running out of memory is remembered and reported once, at
 * svg_finish(). No dependency beyond libc. */
#ifndef MEMTOP_SVG_H
#define MEMTOP_SVG_H

#include <stddef.h>

#include "base/util.h"

struct svg {
	char *buf;
	size_t len, cap;
	int failed; /* out of memory at some point: the text is incomplete */
	double w, h;
};

/* Text anchors. */
enum svg_anchor { SVG_START, SVG_MIDDLE, SVG_END };

/* Start a w x h document (white background, sans-serif) with a <title>.
 * Returns 0, or -1 when out of memory. */
int svg_begin(struct svg *s, double w, double h, const char *title);

/* A filled rectangle (fill NULL: none; stroke NULL: none). */
void svg_rect(struct svg *s, double x, double y, double w, double h, const char *fill,
	      const char *stroke);

/* A line; dash non-zero: dashed. */
void svg_line(struct svg *s, double x1, double y1, double x2, double y2, const char *stroke,
	      double width, int dash);

/* An open polyline through n points (xs[i], ys[i]). */
void svg_polyline(struct svg *s, const double *xs, const double *ys, size_t n, const char *stroke,
		  double width, int dash);

/* A closed polygon through n points, filled and outlined. */
void svg_polygon(struct svg *s, const double *xs, const double *ys, size_t n, const char *fill,
		 const char *stroke, double width);

/* A circle (a marker on a curve). */
void svg_circle(struct svg *s, double cx, double cy, double r, const char *fill);

/* Text at (x, y) (the baseline), size in px; bold non-zero: bold; rotate:
 * degrees about (x, y), 0 none. text is escaped (& < > " '). */
void svg_text(struct svg *s, double x, double y, double size, enum svg_anchor anchor, int bold,
	      double rotate, const char *fill, const char *text);

/* printf into a text element. */
void svg_textf(struct svg *s, double x, double y, double size, enum svg_anchor anchor, int bold,
	       const char *fill, const char *fmt, ...) MT_PRINTF(8, 9);

/* A group with a class name (what the plot part is: "surface", "axis",
 * "legend", ...), so a reader can find its parts; close with svg_group_end. */
void svg_group(struct svg *s, const char *cls);
void svg_group_end(struct svg *s);

/* Close the document. Returns the text (owned by s, NUL-terminated) or NULL
 * with e when out of memory happened anywhere. */
const char *svg_finish(struct svg *s, mt_error *e);

/* Free the buffer. */
void svg_free(struct svg *s);

#endif
