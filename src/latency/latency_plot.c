/* latency_plot: the latency kind's picture for memtop plot: latency runs as curves on log axes: the array size across
 * (powers of two, labelled every 4x), ns a load up (1, 2, 5 x 10^k), one
 * curve per fixed stride and the random chase drawn thickest; the levels
 * the level finder reads (latency_detect) marked with a dashed line at their
 * size and their latency written beside it, and the memory plateau. Two
 * runs overlay: the second file's curves dashed, its levels marked below. */
#include "config.h"

#include "base/i18n.h"

#include "latency.h"
#include "render/plot_common.h"

#include <math.h>
#include <string.h>

#define LATENCY_W 900.0
#define LATENCY_H 620.0
#define LEFT 80.0
#define RIGHT 30.0
#define BOTTOM 70.0 /* room for the size labels and the axis title */

struct frame {
	double x, y, w, h;  /* the plot box */
	double lx0, lx1;    /* log2 of the size range */
	double ly0, ly1;    /* log10 of the ns range */
};

static double fx(const struct frame *f, double size)
{
	return f->x + (log2(size) - f->lx0) / (f->lx1 - f->lx0) * f->w;
}

static double fy(const struct frame *f, double ns)
{
	return f->y + f->h - (log10(ns) - f->ly0) / (f->ly1 - f->ly0) * f->h;
}

/* The size and ns ranges over every measured point of the runs. */
static void ranges(const struct result_file *in, size_t n, struct frame *f)
{
	double smin = INFINITY, smax = 0, nmin = INFINITY, nmax = 0;
	for (size_t k = 0; k < n; k++) {
		const struct latency_result *r = in[k].r;
		for (size_t i = 0; i < r->nsizes; i++) {
			for (size_t c = 0; c <= r->nstrides; c++) {
				double v = c < r->nstrides ? r->ns[c][i]
					   : r->has_random ? r->random_ns[i]
							   : (double)NAN;
				if (!isfinite(v) || v <= 0)
					continue;
				nmin = v < nmin ? v : nmin;
				nmax = v > nmax ? v : nmax;
				smin = (double)r->sizes[i] < smin ? (double)r->sizes[i] : smin;
				smax = (double)r->sizes[i] > smax ? (double)r->sizes[i] : smax;
			}
		}
	}
	if (!(smax > 0)) {
		smin = 4096;
		smax = 1 << 20;
		nmin = 1;
		nmax = 100;
	}
	f->lx0 = floor(log2(smin));
	f->lx1 = ceil(log2(smax));
	if (f->lx1 <= f->lx0)
		f->lx1 = f->lx0 + 1;
	f->ly0 = floor(log10(nmin * 0.8) * 2) / 2; /* half decades */
	f->ly1 = ceil(log10(nmax * 1.25) * 2) / 2;
	if (f->ly1 <= f->ly0)
		f->ly1 = f->ly0 + 1;
}

/* The box, the grid and the labels of both axes. */
static void draw_axes(struct svg *s, const struct frame *f)
{
	static const double mant[] = { 1, 2, 5 };
	char lab[32];
	svg_group(s, "axes");
	svg_rect(s, f->x, f->y, f->w, f->h, NULL, "#000000");
	for (double e = f->lx0; e <= f->lx1 + 1e-9; e += 1) {
		double x = fx(f, exp2(e));
		int labelled = ((long)e % 2) == 0;
		svg_line(s, x, f->y, x, f->y + f->h, "#e0e0e0", 0.8, 0);
		svg_line(s, x, f->y + f->h, x, f->y + f->h + (labelled ? 6 : 3), "#000000", 1, 0);
		if (labelled)
			svg_text(s, x, f->y + f->h + 20, 11, SVG_MIDDLE, 0, 0, "#000000",
				 mt_fmt_size(lab, sizeof lab, (uint64_t)exp2(e)));
	}
	for (double d = floor(f->ly0); d <= f->ly1; d += 1)
		for (size_t m = 0; m < MT_ARRAY_LEN(mant); m++) {
			double v = mant[m] * pow(10, d), y;
			if (log10(v) < f->ly0 - 1e-9 || log10(v) > f->ly1 + 1e-9)
				continue;
			y = fy(f, v);
			svg_line(s, f->x, y, f->x + f->w, y, "#e0e0e0", 0.8, 0);
			mt_snprintf(lab, sizeof lab, v < 1 ? "%.1f" : "%.0f", v);
			svg_text(s, f->x - 8, y + 4, 11, SVG_END, 0, 0, "#000000", lab);
		}
	svg_text(s, f->x + f->w / 2, f->y + f->h + 40, 13, SVG_MIDDLE, 1, 0, "#000000",
		 "Array size (bytes, log scale)");
	svg_text(s, f->x - 52, f->y + f->h / 2, 13, SVG_MIDDLE, 1, -90, "#000000",
		 "ns a load (log scale)");
	svg_group_end(s);
}

/* One curve: the points of v measured, joined; markers at each point. */
static void draw_curve(struct svg *s, const struct frame *f, const struct latency_result *r,
		       const double *v, const char *color, double width, int dash)
{
	double xs[LATENCY_MAX_SIZES] = { 0 }, ys[LATENCY_MAX_SIZES] = { 0 };
	size_t n = 0;
	for (size_t i = 0; i < r->nsizes; i++) {
		if (!isfinite(v[i]) || v[i] <= 0)
			continue;
		xs[n] = fx(f, (double)r->sizes[i]);
		ys[n] = fy(f, v[i]);
		n++;
	}
	svg_polyline(s, xs, ys, n, color, width, dash);
	for (size_t i = 0; i < n && !dash && width > 2; i++) /* the random chase's points */
		svg_circle(s, xs[i], ys[i], 2.2, color);
}

/* A run's curves and their legend entries from legend line ly. Returns the
 * next legend line. */
static double draw_run(struct svg *s, const struct frame *f, const struct latency_result *r,
		       int second, double lx, double ly)
{
	char lab[64];
	svg_group(s, second ? "curves-b" : "curves");
	for (size_t c = 0; c < r->nstrides; c++) {
		const char *col = plot_color(c + 1);
		draw_curve(s, f, r, r->ns[c], col, 1.5, second);
		/* TRANSLATORS: a legend's curve, "B: " first for the second file */
		mt_snprintf(lab, sizeof lab, _("%sstride %u B"), second ? "B: " : "", r->strides[c]);
		svg_line(s, lx, ly - 4, lx + 24, ly - 4, col, 2, second);
		svg_text(s, lx + 30, ly, 11, SVG_START, 0, 0, "#000000", lab);
		ly += 16;
	}
	if (r->has_random) {
		draw_curve(s, f, r, r->random_ns, "#000000", 2.5, second);
		mt_snprintf(lab, sizeof lab, _("%srandom chase"), second ? "B: " : "");
		svg_line(s, lx, ly - 4, lx + 24, ly - 4, "#000000", 3, second);
		svg_text(s, lx + 30, ly, 11, SVG_START, 1, 0, "#000000", lab);
		ly += 16;
	}
	svg_group_end(s);
	return ly;
}

/* The levels a run shows: a dashed line at each level's size, tagged at the
 * top of the box, its latency as a bar over the plateau it was read on,
 * and a line per level in the legend
 * column from ly; the memory plateau as a dashed line across. Returns the
 * next legend line. */
static double draw_levels(struct svg *s, const struct frame *f, const struct latency_result *r,
			  const char *tag, double lx, double ly)
{
	struct latency_levels lv;
	char lab[96], sz[32];
	latency_detect(r, &lv);
	svg_group(s, "levels");
	svg_textf(s, lx, ly, 11, SVG_START, 1, "#c00000", _("%slevels found"), tag);
	ly += 15;
	for (size_t i = 0, prev = (size_t)-1; i < lv.n; i++) {
		const struct latency_level *l = &lv.lv[i];
		double x = fx(f, (double)l->size);
		if (l->tlb)
			continue;
		svg_line(s, x, f->y, x, f->y + f->h, "#c00000", 1, 1);
		if (l->ns > 0 && isfinite(l->ns)) {
			/* the latency over the plateau it was read on (from the level
			 * before to this one's size), not a dot at the size, where the
			 * curve already climbs to the next level */
			double x0 = prev == (size_t)-1 ? f->x : fx(f, (double)lv.lv[prev].size);
			double y = fy(f, l->ns);
			svg_line(s, x0, y, x, y, "#c00000", 2.5, 0);
			svg_circle(s, (x0 + x) / 2, y, 4, "#c00000");
		}
		prev = i;
		mt_snprintf(lab, sizeof lab, "%sL%d", tag, l->level);
		svg_text(s, x + 3, f->y + (tag[0] == 'B' ? 28 : 14), 11, SVG_START, 1, 0, "#c00000",
			 lab);
		if (l->cycles > 0)
			/* TRANSLATORS: a level in the legend: its size, cycles (c) and ns */
			mt_hsnprintf(lab, sizeof lab, _("L%d %s: %.1f c, %.2f ns"), l->level,
				     mt_fmt_size(sz, sizeof sz, l->size), l->cycles, l->ns);
		else /* no clock (an imported table): ns only */
			mt_hsnprintf(lab, sizeof lab, _("L%d %s: %.2f ns"), l->level,
				     mt_fmt_size(sz, sizeof sz, l->size), l->ns);
		svg_text(s, lx, ly, 11, SVG_START, 0, 0, "#c00000", lab);
		ly += 15;
	}
	if (lv.has_memory && lv.memory_ns > 0) {
		double y = fy(f, lv.memory_ns);
		svg_line(s, f->x, y, f->x + f->w, y, "#7f7f7f", 1, 1);
		mt_snprintf(lab, sizeof lab, _("memory: %.0f ns"), lv.memory_ns);
		svg_text(s, lx, ly, 11, SVG_START, 0, 0, "#404040", lab);
		ly += 15;
	}
	svg_group_end(s);
	return ly;
}

int latency_plot(const struct result_file *in, size_t n, struct svg *s)
{
	struct frame f;
	double top, ly;
	if (svg_begin(s, LATENCY_W, LATENCY_H + 20.0 * (double)n, _("memtop: load latency by pointer chasing")) < 0)
		return -1;
	top = plot_heading(s, 20, 8, LATENCY_W - 40, _("Load latency by pointer chasing"), in, n);
	ranges(in, n, &f);
	f.x = LEFT;
	f.y = top + 10;
	f.w = LATENCY_W - LEFT - RIGHT - 150; /* the legend on the right */
	f.h = LATENCY_H + 20.0 * (double)n - f.y - BOTTOM;
	draw_axes(s, &f);
	ly = f.y + 14;
	for (size_t k = 0; k < n; k++)
		ly = draw_run(s, &f, in[k].r, (int)k, f.x + f.w + 14, ly) + 8;
	for (size_t k = 0; k < n; k++)
		ly = draw_levels(s, &f, in[k].r, n > 1 ? (k ? "B: " : "A: ") : "",
				 f.x + f.w + 14, ly + 6);
	return s->failed ? -1 : 0;
}
