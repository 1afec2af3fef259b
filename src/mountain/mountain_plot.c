/* mountain_plot: the mountain kind's picture for memtop plot: a mountain as the book's surface (CS:APP 3e, Fig. 6.41).
 *
 * The floor is the size x stride grid seen from its front corner (the
 * largest size at the largest stride, the valley): the size axis runs from
 * there up to the right toward the smallest size, the stride axis up to the
 * left toward stride 1, so the peak (small sizes, stride 1) stands at the
 * back, as in the book. Throughput goes straight up. The cells are drawn as
 * quadrilaterals from the back to the front (painter's order: a surface over
 * a grid seen from a corner hides only what lies behind it), each filled
 * with the colour of the cache level its front row belongs to (rowlevels.h:
 * the cliffs' L1, L2, L3, or a latency run's of the same machine where the
 * two disagree, said in a caption under the floor; past the last level,
 * memory only when reached) and lightened with height, outlined like the
 * book's mesh. */
#include "config.h"

#include "base/i18n.h"

#include "mountain.h"
#include "render/plot_common.h"
#include "rowlevels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PANEL_W 860.0
#define BELOW_FLOOR 90.0     /* under the front corner: the labels and axis titles */
#define SIZE_AXIS_PX 400.0   /* the size axis' length across */
#define STRIDE_AXIS_PX 300.0 /* the stride axis' length across */
#define DEPTH_SLOPE 0.38     /* how far up the floor recedes per px across */
#define Z_PX 280.0           /* the throughput axis' height */
#define MAX_LEVELS 5         /* L1..L4 and memory */
#define CAPTION_PX 16.0      /* a caption line under the floor */

/* The colours of the levels, warm (fast) to cool (slow). */
static const char *const level_color[MAX_LEVELS] = { "#d62728", "#ff7f0e", "#2ca02c", "#9467bd",
						     "#1f77b4" };

struct surface {
	const struct mountain *m;
	double x0, y0;   /* the front corner on the page */
	double sx, sy;   /* one size step toward the back: right and up */
	double tx, ty;   /* one stride step toward the back: left and up */
	double zmax, zpx;
	int level[64];   /* each size row's level index (nlevels = beyond them) */
	int nlevels;     /* cache levels found */
	struct row_levels rl;
};

/* The page point of size row i, stride column j at height z (MB/s). */
static void project(const struct surface *f, double i, double j, double z, double *x, double *y)
{
	double back_i = (double)(f->m->nsizes - 1) - i, back_j = (double)(f->m->nstrides - 1) - j;
	*x = f->x0 + back_i * f->sx - back_j * f->tx;
	*y = f->y0 - back_i * f->sy - back_j * f->ty - z / f->zmax * f->zpx;
}

/* The colour of level k (k == nlevels: memory, always the coolest). */
static const char *color_of(const struct surface *f, int k)
{
	return level_color[k < f->nlevels ? k : MAX_LEVELS - 1];
}

/* "#rrggbb" mixed toward white by w (0..1). */
static void lighten(char *out, size_t len, const char *hex, double w)
{
	unsigned r, g, b;
	if (sscanf(hex, "#%02x%02x%02x", &r, &g, &b) != 3) {
		mt_strlcpy(out, hex, len);
		return;
	}
	r = (unsigned)lround(r + (255 - r) * w);
	g = (unsigned)lround(g + (255 - g) * w);
	b = (unsigned)lround(b + (255 - b) * w);
	mt_snprintf(out, len, "#%02x%02x%02x", r, g, b);
}

/* Each size row's level (row_levels_find: the cliffs', or other's where
 * the two disagree). */
static void find_levels(struct surface *f, const struct other_levels *other)
{
	const struct mountain *m = f->m;
	f->nlevels = row_levels_find(m, other, &f->rl);
	for (size_t i = 0; i < m->nsizes && i < MT_ARRAY_LEN(f->level); i++)
		f->level[i] = row_levels_of(&f->rl, m->sizes[i]);
}

/* One cell's quadrilateral (rows i, i+1; columns j, j+1), when all four
 * corners are measured. */
static void draw_quad(struct svg *s, const struct surface *f, size_t i, size_t j)
{
	const struct mountain *m = f->m;
	double xs[4], ys[4], z[4], top = 0;
	size_t ci[4] = { i, i + 1, i + 1, i }, cj[4] = { j, j, j + 1, j + 1 };
	char fill[16];
	for (int k = 0; k < 4; k++) {
		z[k] = mountain_at(m, ci[k], cj[k]);
		if (!isfinite(z[k]))
			return;
		project(f, (double)ci[k], (double)cj[k], z[k], &xs[k], &ys[k]);
		top = z[k] > top ? z[k] : top;
	}
	lighten(fill, sizeof fill, color_of(f, f->level[i + 1 < 64 ? i + 1 : 63]),
		0.35 * top / f->zmax);
	svg_polygon(s, xs, ys, 4, fill, "#404040", 0.6);
}

/* The surface, back to front: the cells in order of i + j (the smaller, the
 * further back). */
static void draw_surface(struct svg *s, const struct surface *f)
{
	size_t ni = f->m->nsizes, nj = f->m->nstrides;
	svg_group(s, "surface");
	for (size_t sum = 0; ni > 1 && nj > 1 && sum <= (ni - 2) + (nj - 2); sum++)
		for (size_t i = 0; i + 1 < ni; i++)
			if (sum >= i && sum - i + 1 < nj)
				draw_quad(s, f, i, sum - i);
	svg_group_end(s);
}

/* The floor's outline, the size and stride labels along its front edges. */
static void draw_floor(struct svg *s, const struct surface *f)
{
	const struct mountain *m = f->m;
	size_t ni = m->nsizes, nj = m->nstrides;
	double xs[4], ys[4], x, y;
	char lab[32];
	svg_group(s, "axes");
	project(f, (double)(ni - 1), (double)(nj - 1), 0, &xs[0], &ys[0]);
	project(f, 0, (double)(nj - 1), 0, &xs[1], &ys[1]);
	project(f, 0, 0, 0, &xs[2], &ys[2]);
	project(f, (double)(ni - 1), 0, 0, &xs[3], &ys[3]);
	svg_polygon(s, xs, ys, 4, "#f4f4f4", "#b0b0b0", 0.8);
	for (size_t i = 0; i < ni; i++) { /* sizes along the right front edge */
		project(f, (double)i, (double)(nj - 1), 0, &x, &y);
		svg_text(s, x + 8, y + 12, 11, SVG_START, 0, 0, "#000000",
			 mt_fmt_size(lab, sizeof lab, m->sizes[i]));
	}
	for (size_t j = 0; j < nj; j++) { /* strides along the left front edge */
		project(f, (double)(ni - 1), (double)j, 0, &x, &y);
		mt_snprintf(lab, sizeof lab, "s%u", m->strides[j]);
		svg_text(s, x - 6, y + 14, 11, SVG_END, 0, 0, "#000000", lab);
	}
	project(f, (double)(ni - 1) / 2, (double)(nj - 1), 0, &x, &y);
	svg_text(s, x + 40, y + 46, 13, SVG_MIDDLE, 1, 0, "#000000", _("Size (bytes)"));
	project(f, (double)(ni - 1), (double)(nj - 1) / 2, 0, &x, &y);
	svg_text(s, x - 46, y + 50, 13, SVG_MIDDLE, 1, 0, "#000000", _("Stride (x8 bytes)"));
	svg_group_end(s);
}

/* The throughput axis, standing at the floor's left corner (largest size,
 * stride 1). */
static void draw_z_axis(struct svg *s, const struct surface *f)
{
	double x, y, top_y, step = plot_nice_step(f->zmax, 5);
	char lab[32];
	svg_group(s, "axes");
	project(f, (double)(f->m->nsizes - 1), 0, 0, &x, &y);
	project(f, (double)(f->m->nsizes - 1), 0, f->zmax, &x, &top_y);
	x -= 24;
	svg_line(s, x, y, x, top_y, "#000000", 1, 0);
	for (double v = 0; v <= f->zmax * 1.0001; v += step) {
		double ty = y - v / f->zmax * f->zpx;
		svg_line(s, x - 5, ty, x, ty, "#000000", 1, 0);
		mt_snprintf(lab, sizeof lab, "%.0f", v);
		svg_text(s, x - 8, ty + 4, 11, SVG_END, 0, 0, "#000000", lab);
	}
	svg_text(s, x - 62, (y + top_y) / 2, 13, SVG_MIDDLE, 1, -90, "#000000",
		 _("Read throughput (MB/s)"));
	svg_group_end(s);
}

/* The levels: their names on the stride-1 edge (as the book writes L1, L2,
 * L3, Mem on its ridge) and a legend with the sizes that bound them. */
static void draw_levels(struct svg *s, const struct surface *f, double lx, double ly)
{
	const struct mountain *m = f->m;
	char lab[64], sz[32], name[16];
	svg_group(s, "levels");
	for (int k = 0; k <= f->nlevels; k++) {
		size_t first = m->nsizes, last = 0;
		double x, y;
		if (k < f->nlevels)
			mt_snprintf(name, sizeof name, "L%d", k + 1);
		else
			mt_strlcpy(name, f->rl.memory ? "Mem" : "?", sizeof name);
		for (size_t i = 0; i < m->nsizes && i < 64; i++)
			if (f->level[i] == k) {
				first = i < first ? i : first;
				last = i;
			}
		if (k < f->nlevels)
			mt_snprintf(lab, sizeof lab, _("L%d (up to %s)"), k + 1,
				    mt_fmt_size(sz, sizeof sz, f->rl.bound[k]));
		else
			mt_strlcpy(lab, row_levels_beyond(&f->rl), sizeof lab);
		svg_rect(s, lx, ly + 18.0 * k - 10, 14, 12, color_of(f, k), "#404040");
		svg_text(s, lx + 20, ly + 18.0 * k, 12, SVG_START, 0, 0, "#000000", lab);
		if (first > last || !isfinite(mountain_at(m, (first + last) / 2, 0)))
			continue;
		project(f, (double)(first + last) / 2, 0, mountain_at(m, (first + last) / 2, 0), &x, &y);
		svg_text(s, x - 10, y - 6, 14, SVG_END, 1, 0, "#000000", name);
	}
	svg_group_end(s);
}

/* From the top of a panel to its front corner: the throughput axis over
 * the floor's depth, with room for the level labels. */
static double panel_depth(void)
{
	return 40 + Z_PX + (SIZE_AXIS_PX + STRIDE_AXIS_PX) * DEPTH_SLOPE;
}

/* The captions under the floor: which level is read from where, and why. */
static void draw_captions(struct svg *s, const struct surface *f, double x, double y)
{
	if (!f->rl.ncaptions)
		return;
	svg_group(s, "captions");
	for (int i = 0; i < f->rl.ncaptions; i++)
		svg_text(s, x, y + CAPTION_PX * i, 11, SVG_START, 0, 0, "#000000", f->rl.caption[i]);
	svg_group_end(s);
}

/* One mountain's surface in the panel at (px, py), on the scale zmax, its
 * levels held against other's (NULL: the cliffs' alone). */
static void draw_panel(struct svg *s, const struct mountain *m, const struct other_levels *other,
		       double px, double py, double zmax)
{
	struct surface f;
	memset(&f, 0, sizeof f);
	f.m = m;
	f.zmax = zmax;
	f.zpx = Z_PX;
	f.sx = m->nsizes > 1 ? SIZE_AXIS_PX / (double)(m->nsizes - 1) : 0;
	f.sy = f.sx * DEPTH_SLOPE;
	f.tx = m->nstrides > 1 ? STRIDE_AXIS_PX / (double)(m->nstrides - 1) : 0;
	f.ty = f.tx * DEPTH_SLOPE;
	f.x0 = px + 110 + STRIDE_AXIS_PX;
	f.y0 = py + panel_depth();
	find_levels(&f, other);
	draw_floor(s, &f);
	draw_z_axis(s, &f);
	draw_surface(s, &f);
	draw_levels(s, &f, px + PANEL_W - 190, py + 40);
	draw_captions(s, &f, px + 20, py + panel_depth() + BELOW_FLOOR);
}

/* other[k], or NULL when there is none or it has nothing to say. */
static const struct other_levels *other_of(const struct other_levels *other, size_t k)
{
	return other && (other[k].n || other[k].memory) ? &other[k] : NULL;
}

/* The caption lines the panels need: the most any of them has. */
static int caption_lines(const struct mountain *const *in, size_t n,
			 const struct other_levels *other)
{
	int most = 0;
	for (size_t k = 0; k < n; k++) {
		struct row_levels rl;
		row_levels_find(in[k], other_of(other, k), &rl);
		most = rl.ncaptions > most ? rl.ncaptions : most;
	}
	return most;
}

int mountain_plot(const struct result_file *f, size_t n, struct svg *s)
{
	return mountain_plot_with(f, n, NULL, s);
}

int mountain_plot_with(const struct result_file *f, size_t n, const struct other_levels *other,
		       struct svg *s)
{
	const struct mountain *in[PLOT_MAX_FILES];
	double zmax = 0, step, top;
	int lines;
	for (size_t k = 0; k < n && k < PLOT_MAX_FILES; k++)
		in[k] = f[k].r;
	for (size_t k = 0; k < n; k++)
		for (size_t c = 0; c < in[k]->nsizes * in[k]->nstrides; c++)
			if (isfinite(in[k]->mbs[c]) && in[k]->mbs[c] > zmax)
				zmax = in[k]->mbs[c];
	if (!(zmax > 0))
		zmax = 1;
	step = plot_nice_step(zmax, 5);
	zmax = ceil(zmax / step) * step;
	lines = caption_lines(in, n < PLOT_MAX_FILES ? n : PLOT_MAX_FILES, other);
	if (svg_begin(s, PANEL_W * (double)n,
		      plot_heading_height(n) + panel_depth() + BELOW_FLOOR + CAPTION_PX * lines,
		      _("memtop: the memory mountain (read throughput over size and stride)")) < 0)
		return -1;
	top = plot_heading(s, 20, 8, PANEL_W * (double)n - 40,
			   _("The memory mountain: read throughput over working-set size and stride"),
			   f, n);
	for (size_t k = 0; k < n; k++) {
		if (n > 1)
			svg_text(s, PANEL_W * (double)k + 40, top + 14, 16, SVG_START, 1, 0, "#000000",
				 k ? "B" : "A");
		draw_panel(s, in[k], other_of(other, k), PANEL_W * (double)k, top, zmax);
	}
	return s->failed ? -1 : 0;
}
