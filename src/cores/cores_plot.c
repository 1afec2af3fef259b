/* cores_plot: memtop plot of core-to-core results: each matrix as a
 * heatmap, a square per pair coloured from the fastest pair (light) to the
 * slowest (dark) on a log scale shared by the files drawn, the figure in
 * the square when it is big enough, CPU numbers along both sides, a scale
 * under it and the summary by relation beside it. */
#include "config.h"

#include "cores.h"
#include "render/plot_common.h"
#include "render/svg.h"

#include <math.h>

#define MAT_PX 560.0 /* a matrix's side */
#define SIDE_W 260.0 /* the summary beside it */
#define PAGE_H 760.0

/* The fastest and slowest pair over the files drawn (NAN: none). */
static void range(const struct result_file *in, size_t n, double *lo, double *hi)
{
	*lo = *hi = NAN;
	for (size_t f = 0; f < n; f++) {
		const struct cores_result *r = in[f].r;
		for (size_t k = 0; k < r->plan.npairs; k++) {
			double v = r->plan.pairs[k].ns;
			if (!r->plan.pairs[k].have)
				continue;
			if (isnan(*lo) || v < *lo)
				*lo = v;
			if (isnan(*hi) || v > *hi)
				*hi = v;
		}
	}
}

/* The colour of v between lo and hi: pale yellow to dark red (log). */
static void heat_color(char *buf, size_t len, double v, double lo, double hi)
{
	double f = hi > lo * 1.0001 ? log(v / lo) / log(hi / lo) : 0.5;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	mt_snprintf(buf, len, "#%02x%02x%02x", (int)lround(255 - 100 * f),
		    (int)lround(245 - 215 * f), (int)lround(200 - 170 * f));
}

/* One matrix at (x, y): its squares, the CPU labels every step. */
static void draw_matrix(struct svg *s, const struct cores_result *r, double x, double y,
			double lo, double hi)
{
	int n = r->plan.n, step = n <= 16 ? 1 : n <= 64 ? 4 : 8;
	double c = MAT_PX / n;
	char fill[16];
	svg_group(s, "matrix");
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double v = cores_result_ns(r, i, j);
			if (!isfinite(v)) {
				svg_rect(s, x + j * c, y + i * c, c, c, i == j ? "#e0e0e0" : "#ffffff",
					 NULL);
				continue;
			}
			heat_color(fill, sizeof fill, v, lo, hi);
			svg_rect(s, x + j * c, y + i * c, c, c, fill, NULL);
			if (c >= 34)
				svg_textf(s, x + (j + 0.5) * c, y + (i + 0.5) * c + 4, 11, SVG_MIDDLE, 0,
					  "#000000", "%.1f", v);
		}
	svg_group_end(s);
	svg_group(s, "axes");
	svg_rect(s, x, y, MAT_PX, MAT_PX, NULL, "#404040");
	for (int i = 0; i < n; i += step) {
		svg_textf(s, x - 4, y + (i + 0.5) * c + 4, 10, SVG_END, 0, "#404040", "%d",
			  r->plan.cpus[i]);
		svg_textf(s, x + (i + 0.5) * c, y - 4, 10, SVG_MIDDLE, 0, "#404040", "%d",
			  r->plan.cpus[i]);
	}
	svg_group_end(s);
}

/* The scale under the matrices, fastest to slowest. */
static void draw_scale(struct svg *s, double x, double y, double lo, double hi)
{
	char fill[16];
	svg_group(s, "legend");
	for (int k = 0; k < 20; k++) {
		heat_color(fill, sizeof fill, lo * pow(hi / lo, k / 19.0), lo, hi);
		svg_rect(s, x + k * 14.0, y, 14, 12, fill, NULL);
	}
	svg_textf(s, x, y + 26, 11, SVG_START, 0, "#404040", "%.1f ns", lo);
	svg_textf(s, x + 280, y + 26, 11, SVG_END, 0, "#404040", "%.1f ns (log scale)", hi);
	svg_group_end(s);
}

/* The summary by relation beside matrix k. */
static void draw_summary(struct svg *s, const struct cores_result *r, double x, double y,
			 const char *tag)
{
	svg_group(s, "summary");
	svg_textf(s, x, y, 12, SVG_START, 1, "#000000", "%sby relation (median)", tag);
	for (size_t k = 0; k < r->nsum && k < 30; k++)
		svg_textf(s, x, y + 18.0 * (k + 1), 11, SVG_START, 0, "#000000",
			  "%s: %.1f ns (%zu pair%s)", r->sum[k].rel, r->sum[k].ns, r->sum[k].pairs,
			  r->sum[k].pairs == 1 ? "" : "s");
	svg_group_end(s);
}

int cores_plot(const struct result_file *in, size_t n, struct svg *s)
{
	double lo, hi, top, w = 40 + n * (MAT_PX + SIDE_W + 40);
	if (svg_begin(s, w, PAGE_H + 20.0 * (double)n,
		      "memtop: core-to-core latency, one-way ns (round trip / 2)") < 0)
		return -1;
	top = plot_heading(s, 20, 8, w - 40, "Core-to-core latency, one-way ns (round trip / 2)",
			   in, n);
	range(in, n, &lo, &hi);
	for (size_t k = 0; k < n; k++) {
		const struct cores_result *r = in[k].r;
		double x = 50 + k * (MAT_PX + SIDE_W + 40);
		if (!isnan(lo))
			draw_matrix(s, r, x, top + 30, lo, hi);
		draw_summary(s, r, x + MAT_PX + 16, top + 40, n > 1 ? (k ? "B: " : "A: ") : "");
	}
	if (!isnan(lo))
		draw_scale(s, 50, top + 30 + MAT_PX + 16, lo, hi);
	return s->failed ? -1 : 0;
}
