/* bandwidth_plot: memtop plot of a bandwidth result, roofline-like: the
 * one-thread GB/s of each kernel at each level (L1, L2, L3, DRAM: the
 * file's sizes, left to right) as points on a log scale, and above each
 * point the kernel's ceiling at that level (what the core's ports and
 * fills allow, bandwidth_ceiling.c) turned into GB/s at the clock the run
 * measured, as a short line in the kernel's colour; under (or, every
 * other kernel, over) each point its share of that ceiling. A level without a ceiling (DRAM, a core the table
 * lacks) has the point alone, and the caption says why. Two files: two
 * panels side by side on one scale. */
#include "config.h"

#include "bandwidth.h"
#include "render/plot_common.h"
#include "render/svg.h"

#include <math.h>
#include <string.h>

#define PANEL_W 520.0
#define AREA_H 420.0
#define LEFT 70.0   /* the GB/s labels */
#define LEGEND_H 96.0

/* The thread index the picture shows: one thread when measured, else the
 * first thread count (said in the panel's title). */
static size_t shown_threads(const struct bandwidth_result *r)
{
	int t = bandwidth_result_tindex(r, 1);
	return t >= 0 ? (size_t)t : 0;
}

/* The ceiling of cell (s, kernel, t) in GB/s of all its threads, 0 none. */
static double ceiling_gbs(const struct bandwidth_result *r, size_t s, int kernel, size_t t,
			  struct bandwidth_share *sh)
{
	if (bandwidth_cell_share(r, s, kernel, t, sh) < 0 || !(sh->ceiling > 0))
		return 0;
	return sh->ceiling * sh->ghz * r->threads[t].threads;
}

/* The smallest and largest GB/s drawn (points and ceilings) over the files. */
static void range(const struct result_file *in, size_t n, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (size_t f = 0; f < n; f++) {
		const struct bandwidth_result *r = in[f].r;
		size_t t = shown_threads(r);
		for (size_t s = 0; s < r->nsizes && r->nthreads; s++)
			for (size_t k = 0; k < r->nkernels; k++) {
				const struct bandwidth_cell *c = &r->cell[s][r->kernels[k]][t];
				struct bandwidth_share sh;
				double v = ceiling_gbs(r, s, r->kernels[k], t, &sh);
				if (!c->have || !(c->gbs > 0) || !isfinite(c->gbs))
					continue;
				*lo = fmin(*lo, c->gbs);
				*hi = fmax(*hi, fmax(c->gbs, v));
			}
	}
}

struct scale {
	double top, lo, hi; /* the area's top y; log10 of its lowest and highest GB/s */
};

static double y_of(const struct scale *sc, double gbs)
{
	return sc->top + AREA_H * (sc->hi - log10(gbs)) / (sc->hi - sc->lo);
}

/* The GB/s axis: a line at each 1, 2, 5 x 10^k inside the scale. */
static void draw_axis(struct svg *s, const struct scale *sc, double x, double w)
{
	char b[32];
	svg_group(s, "axis");
	svg_rect(s, x, sc->top, w, AREA_H, NULL, "#404040");
	for (int e = (int)floor(sc->lo); e <= (int)ceil(sc->hi); e++)
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
			double v = m * pow(10, e), y;
			if (log10(v) < sc->lo || log10(v) > sc->hi)
				continue;
			y = y_of(sc, v);
			svg_line(s, x, y, x + w, y, "#e0e0e0", 1, 0);
			svg_text(s, x - 6, y + 4, 11, SVG_END, 0, 0, "#404040",
				 plot_short(b, sizeof b, v));
		}
	svg_text(s, x - 52, sc->top + AREA_H / 2, 12, SVG_MIDDLE, 0, -90, "#000000",
		 "GB/s (log scale)");
	svg_group_end(s);
}

/* The x of kernel ki (of nk) in column s (of ns) of a panel at x, w wide. */
static double x_of(double x, double w, size_t s, size_t ns, size_t ki, size_t nk)
{
	double col = w / (double)ns, dx = col * 0.7 / (double)nk;
	return x + col * ((double)s + 0.5) + dx * ((double)ki - ((double)nk - 1) / 2);
}

/* A point's label: its share of the ceiling cg ("75%"), or its GB/s when
 * it has none. */
static const char *point_label(char *buf, size_t len, double gbs, double cg)
{
	if (!(cg > 0))
		return plot_short(buf, len, gbs);
	mt_snprintf(buf, len, "%.0f%%", 100 * gbs / cg);
	return buf;
}

/* One panel: the columns' names, the ceilings, the points and their shares. */
static void draw_panel(struct svg *s, const struct bandwidth_result *r, const struct scale *sc,
		       double x, double w)
{
	size_t t = shown_threads(r), nk = r->nkernels, ns = r->nsizes;
	double dx = w / (double)(ns ? ns : 1) * 0.7 / (double)(nk ? nk : 1);
	char b[48], sz[32];
	svg_group(s, "levels");
	for (size_t i = 0; i < ns; i++)
		svg_textf(s, x + w / (double)ns * ((double)i + 0.5), sc->top + AREA_H + 18, 12,
			  SVG_MIDDLE, 1, "#000000", "%s%s%s", r->sizes[i].level,
			  r->sizes[i].level[0] ? " " : "", mt_fmt_size(sz, sizeof sz, r->sizes[i].bytes));
	svg_group_end(s);
	for (int pass = 0; pass < 3 && r->nthreads; pass++) {
		static const char *const groups[] = { "ceilings", "points", "labels" };
		svg_group(s, groups[pass]);
		for (size_t i = 0; i < ns; i++)
			for (size_t k = 0; k < nk; k++) {
				const struct bandwidth_cell *c = &r->cell[i][r->kernels[k]][t];
				struct bandwidth_share sh;
				double cg = ceiling_gbs(r, i, r->kernels[k], t, &sh);
				double px = x_of(x, w, i, ns, k, nk);
				if (!c->have || !(c->gbs > 0) || !isfinite(c->gbs))
					continue;
				if (pass == 0 && cg > 0)
					svg_line(s, px - dx * 0.45, y_of(sc, cg), px + dx * 0.45,
						 y_of(sc, cg), plot_color((size_t)r->kernels[k]), 2.5, 0);
				else if (pass == 1)
					svg_circle(s, px, y_of(sc, c->gbs), 4, plot_color((size_t)r->kernels[k]));
				else if (pass == 2)
					svg_text(s, px, y_of(sc, c->gbs) + (k % 2 ? -8 : 16), 10,
						 SVG_MIDDLE, 0, 0,
						 "#202020", point_label(b, sizeof b, c->gbs, cg));
			}
		svg_group_end(s);
	}
}

/* The kernels' colours (one a kernel, the same in every file), and what
 * the ceilings are (or why there are none); tag: "A: ", "B: " or "". */
static void draw_legend(struct svg *s, const struct bandwidth_result *r, double x, double y,
			const char *tag)
{
	const struct bandwidth_core *core = bandwidth_core_find(&r->cpu);
	int measured;
	double ghz = bandwidth_result_ghz(r, &measured);
	svg_group(s, "legend");
	for (size_t k = 0; k < r->nkernels; k++) {
		svg_circle(s, x + 6 + (double)k * 100, y, 4, plot_color((size_t)r->kernels[k]));
		svg_text(s, x + 14 + (double)k * 100, y + 4, 11, SVG_START, 0, 0, "#000000",
			 bandwidth_kernel_name(r->kernels[k]));
	}
	if (core && ghz > 0)
		svg_textf(s, x, y + 22, 11, SVG_START, 0, "#000000",
			  "%slines: each kernel's ceiling at the level, %s's ports and fills at %.2f GHz",
			  tag, core->name, ghz);
	else
		svg_textf(s, x, y + 22, 11, SVG_START, 0, "#000000", "%s%s", tag,
			  core ? "no ceiling drawn: the file has no core clock"
			       : "no ceiling known for this core: the points alone");
	if (core && ghz > 0)
		svg_textf(s, x, y + 38, 11, SVG_START, 0, "#404040",
			  "(the clock %s); %%: the point's share of its ceiling",
			  measured ? "measured during the run" : "calibrated before the run");
	svg_text(s, x, y + 54, 11, SVG_START, 0, 0, "#404040",
		 "no line: no figure there (DRAM is the memory system's; streaming stores have none)");
	svg_group_end(s);
}

int bandwidth_plot(const struct result_file *in, size_t n, struct svg *s)
{
	double lo, hi, top, w = LEFT + 40 + (double)n * (PANEL_W + LEFT);
	struct scale sc;
	if (svg_begin(s, w, plot_heading_height(n) + AREA_H + LEGEND_H + (double)n * LEGEND_H,
		      "memtop: bandwidth against the core's ceilings") < 0)
		return -1;
	top = plot_heading(s, 20, 8, w - 40,
			   "Bandwidth per level against the core's ceilings (GB/s, one thread)", in, n);
	range(in, n, &lo, &hi);
	if (!(hi > 0) || !isfinite(lo)) /* nothing measured: one sentence */
		lo = 1, hi = 10;
	sc.top = top + 24;
	sc.lo = floor(log10(lo / 1.2));
	sc.hi = log10(hi * 1.3);
	for (size_t f = 0; f < n; f++) {
		const struct bandwidth_result *r = in[f].r;
		double x = LEFT + (double)f * (PANEL_W + LEFT);
		size_t t = shown_threads(r);
		svg_textf(s, x, top + 14, 12, SVG_START, 1, "#000000", "%s%u thread%s, %s",
			  n > 1 ? (f ? "B: " : "A: ") : "", r->nthreads ? r->threads[t].threads : 0,
			  r->nthreads && r->threads[t].threads == 1 ? "" : "s",
			  bandwidth_isa_name(r->isa));
		draw_axis(s, &sc, x, PANEL_W);
		draw_panel(s, r, &sc, x, PANEL_W);
		draw_legend(s, r, 20, sc.top + AREA_H + 44 + (double)f * LEGEND_H,
			    n > 1 ? (f ? "B: " : "A: ") : "");
	}
	return s->failed ? -1 : 0;
}
