/* numa_plot: the numa kind's picture for memtop plot. The loaded-latency
 * curves as Intel MLC's users draw them: the injectors' GB/s across, the
 * chaser's ns a load up (both from 0), one curve a node pair (a second
 * file's dashed), each point a circle, the knee a ring with its words and
 * Little's law under the chart; then each file's matrices (idle latency,
 * each traffic mix's GB/s) as small tables. */
#include "config.h"

#include "numa.h"
#include "base/i18n.h"
#include "render/plot_common.h"

#include <math.h>
#include <string.h>

#define PAGE_W 900.0
#define CHART_H 380.0
#define LEFT 80.0
#define CELL_W 64.0
#define ROW_H 18.0

struct frame {
	double x, y, w, h;
	double xmax, ymax; /* GB/s and ns at the right and top edges */
};

static double fx(const struct frame *f, double gbs)
{
	return f->x + gbs / f->xmax * f->w;
}

static double fy(const struct frame *f, double ns)
{
	return f->y + f->h - ns / f->ymax * f->h;
}

/* The GB/s and ns the curves of the files reach, rounded up to a step. */
static void ranges(const struct result_file *in, size_t n, struct frame *f)
{
	double gx = 0, ny = 0;
	for (size_t k = 0; k < n; k++) {
		const struct numa_result *r = in[k].r;
		for (size_t c = 0; c < r->ncurves; c++)
			for (size_t i = 0; i < r->curves[c].npts; i++) {
				gx = fmax(gx, r->curves[c].pts[i].gbs);
				ny = fmax(ny, r->curves[c].pts[i].ns);
			}
	}
	gx = gx > 0 ? gx * 1.05 : 1;
	ny = ny > 0 ? ny * 1.1 : 100;
	f->xmax = ceil(gx / plot_nice_step(gx, 8)) * plot_nice_step(gx, 8);
	f->ymax = ceil(ny / plot_nice_step(ny, 8)) * plot_nice_step(ny, 8);
}

static void draw_axes(struct svg *s, const struct frame *f)
{
	double sx = plot_nice_step(f->xmax, 8), sy = plot_nice_step(f->ymax, 8);
	char lab[32];
	svg_group(s, "axes");
	svg_rect(s, f->x, f->y, f->w, f->h, NULL, "#000000");
	for (double v = 0; v <= f->xmax + 1e-9; v += sx) {
		svg_line(s, fx(f, v), f->y, fx(f, v), f->y + f->h, "#e0e0e0", 1, 0);
		svg_text(s, fx(f, v), f->y + f->h + 16, 11, SVG_MIDDLE, 0, 0, "#333333",
			 plot_short(lab, sizeof lab, v));
	}
	for (double v = 0; v <= f->ymax + 1e-9; v += sy) {
		svg_line(s, f->x, fy(f, v), f->x + f->w, fy(f, v), "#e0e0e0", 1, 0);
		svg_text(s, f->x - 6, fy(f, v) + 4, 11, SVG_END, 0, 0, "#333333",
			 plot_short(lab, sizeof lab, v));
	}
	svg_text(s, f->x + f->w / 2, f->y + f->h + 36, 12, SVG_MIDDLE, 0, 0, "#000000",
		 _("bandwidth the injectors moved, GB/s"));
	svg_text(s, f->x - 52, f->y + f->h / 2, 12, SVG_MIDDLE, 0, -90, "#000000",
		 _("the chaser's latency, ns a load"));
	svg_group_end(s);
}

/* One curve: its line in the order of the points (idle, then the delays
 * from light to none), its points, its knee ringed. */
static void draw_curve(struct svg *s, const struct frame *f, const struct numa_curve *c,
		       const char *color, int dash)
{
	double xs[NUMA_MAX_POINTS], ys[NUMA_MAX_POINTS];
	struct numa_knee k;
	for (size_t i = 0; i < c->npts; i++) {
		xs[i] = fx(f, c->pts[i].gbs);
		ys[i] = fy(f, c->pts[i].ns);
	}
	svg_group(s, "curve");
	svg_polyline(s, xs, ys, c->npts, color, 2, dash);
	for (size_t i = 0; i < c->npts; i++)
		svg_circle(s, xs[i], ys[i], 3, color);
	if (numa_knee_find(c->pts, c->npts, &k)) {
		svg_circle(s, xs[k.knee], ys[k.knee], 8, color); /* a ring round the point */
		svg_circle(s, xs[k.knee], ys[k.knee], 6, "#ffffff");
		svg_circle(s, xs[k.knee], ys[k.knee], 3, color);
		char lab[64];
		/* TRANSLATORS: a curve's knee on the chart: its share of the peak's GB/s */
		mt_hsnprintf(lab, sizeof lab, _("knee %.2f"), k.frac);
		svg_text(s, xs[k.knee] + 10, ys[k.knee] - 8, 11, SVG_START, 1, 0, color, lab);
	}
	svg_group_end(s);
}

/* The chart and, under it, a line a curve: its pair, knee and Little's
 * law. Returns the y under them. */
static double draw_chart(struct svg *s, const struct result_file *in, size_t n, double top)
{
	struct frame f = { LEFT, top + 10, PAGE_W - LEFT - 30, CHART_H, 0, 0 };
	double y = f.y + f.h + 56;
	size_t series = 0;
	char knee[400], little[400];
	ranges(in, n, &f);
	draw_axes(s, &f);
	svg_group(s, "legend");
	for (size_t k = 0; k < n; k++) {
		const struct numa_result *r = in[k].r;
		for (size_t c = 0; c < r->ncurves; c++, series++) {
			const struct numa_curve *cv = &r->curves[c];
			struct numa_knee kn;
			const char *color = plot_color(c);
			draw_curve(s, &f, cv, color, k > 0);
			numa_knee_find(cv->pts, cv->npts, &kn);
			const char *why = numa_why_text(cv->why);
			/* TRANSLATORS: a curve's legend: file A or B, the pair, why it was chosen,
			 * then its knee */
			svg_textf(s, f.x, y, 12, SVG_START, 1, color,
				  k ? _("%s%d>%d (%s), dashed: %s") : _("%s%d>%d (%s): %s"),
				  n > 1 ? (k ? "B " : "A ") : "", r->nodes[cv->cpu], r->nodes[cv->mem],
				  why[0] ? _(why) : why, numa_knee_text(cv->pts, &kn, knee, sizeof knee));
			svg_text(s, f.x + 16, y + 16, 11, SVG_START, 0, 0, "#333333",
				 numa_little_text(cv->pts, &kn, little, sizeof little));
			y += 38;
		}
	}
	svg_group_end(s);
	return y;
}

/* One matrix of r (measurement k) as a table at (x, y). Returns the y under it. */
static double draw_matrix(struct svg *s, const struct numa_result *r, int k, const char *title,
			  double x, double y)
{
	svg_group(s, "matrix");
	svg_text(s, x, y, 12, SVG_START, 1, 0, "#000000", title);
	y += ROW_H;
	/* TRANSLATORS: a matrix's corner: CPU nodes down, memory nodes across */
	svg_text(s, x, y, 11, SVG_START, 0, 0, "#555555", _("CPU\\mem"));
	for (size_t j = 0; j < r->nnodes; j++)
		svg_textf(s, x + 60 + CELL_W * (double)(j + 1), y, 11, SVG_END, 0, "#555555", "%d",
			  r->nodes[j]);
	for (size_t i = 0; i < r->nnodes; i++) {
		if (!r->ncpus[i])
			continue;
		y += ROW_H;
		svg_textf(s, x, y, 11, SVG_START, 0, "#555555", "%d", r->nodes[i]);
		for (size_t j = 0; j < r->nnodes; j++) {
			const struct numa_value *v = &r->v[i][j][k];
			char cell[32] = "-";
			if (v->have)
				mt_hsnprintf(cell, sizeof cell, "%.1f", v->v);
			svg_text(s, x + 60 + CELL_W * (double)(j + 1), y, 11, SVG_END, 0, 0, "#000000",
				 cell);
		}
	}
	svg_group_end(s);
	return y + ROW_H * 1.5;
}

/* The matrices of file k (idle latency, each mix asked) in columns of
 * width colw. Returns the y under them. */
static double draw_matrices(struct svg *s, const struct result_file *in, size_t n, size_t k,
			    double y, double width)
{
	const struct numa_result *r = in[k].r;
	double colw = fmax(320, 100 + CELL_W * (double)(r->nnodes + 1)), x = LEFT, bottom = y;
	int per = (int)fmax(1, floor((width - LEFT) / colw)), col = 0;
	char title[240];
	const char *tag = n > 1 ? (k ? "B: " : "A: ") : "";
	for (int m = -1; m < NUMA_NMIX; m++) {
		if (m >= 0 && !((r->mixes >> m) & 1))
			continue;
		int rw = m == NUMA_MIX_31 || m == NUMA_MIX_21 || m == NUMA_MIX_11;
		/* TRANSLATORS: the matrices' titles ("A: " or "B: " first, then a mix's name:
		 * reads, 3:1, 2:1, 1:1, triad) */
		if (m < 0)
			mt_snprintf(title, sizeof title, _("%sidle latency, ns (4 KB pages)"), tag);
		else if (m == NUMA_MIX_READS)
			mt_snprintf(title, sizeof title, _("%s%s, GB/s"), tag, numa_mix_name(m));
		else if (rw)
			mt_snprintf(title, sizeof title,
				    r->streaming ? _("%s%s reads:writes, GB/s, streaming stores")
						 : _("%s%s reads:writes, GB/s, cached stores"),
				    tag, numa_mix_name(m));
		else
			mt_snprintf(title, sizeof title,
				    r->streaming ? _("%s%s, GB/s, streaming stores")
						 : _("%s%s, GB/s, cached stores"),
				    tag, numa_mix_name(m));
		bottom = fmax(bottom, draw_matrix(s, r, m < 0 ? NUMA_LAT : numa_mix_meas(m), title,
						  x + colw * col, y));
		if (++col == per) {
			col = 0;
			y = bottom;
		}
	}
	return bottom;
}

/* The page's height: heading, chart and its lines, the matrices. */
static double page_height(const struct result_file *in, size_t n, int chart, double width)
{
	double h = plot_heading_height(n) + 40;
	for (size_t k = 0; k < n; k++) {
		const struct numa_result *r = in[k].r;
		double colw = fmax(320, 100 + CELL_W * (double)(r->nnodes + 1));
		int tables = 1, per = (int)fmax(1, floor((width - LEFT) / colw));
		for (int m = 0; m < NUMA_NMIX; m++)
			tables += (r->mixes >> m) & 1;
		h += 38.0 * (double)r->ncurves +
		     ceil((double)tables / per) * ROW_H * (2.5 + (double)r->nnodes) + 10;
	}
	return h + (chart ? CHART_H + 80 : 0);
}

int numa_plot(const struct result_file *in, size_t n, struct svg *s)
{
	int chart = 0;
	double y, w = PAGE_W;
	for (size_t k = 0; k < n; k++) {
		const struct numa_result *r = in[k].r;
		chart |= r->ncurves > 0;
		w = fmax(w, LEFT + 80 + CELL_W * (double)(r->nnodes + 1));
	}
	if (svg_begin(s, w, page_height(in, n, chart, w),
		      _("memtop: memory by node, loaded latency and bandwidth matrices")) < 0)
		return -1;
	y = plot_heading(s, 20, 8, w - 40,
			 chart ? _("Loaded latency by node pair (as Intel MLC's --loaded_latency)")
			       : _("Memory by node: idle latency and bandwidth"),
			 in, n);
	if (chart)
		y = draw_chart(s, in, n, y);
	for (size_t k = 0; k < n; k++)
		y = draw_matrices(s, in, n, k, y + 10, w);
	return s->failed ? -1 : 0;
}
