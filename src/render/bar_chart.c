/* bar_chart: see bar_chart.h. */
#include "config.h"

#include "bar_chart.h"
#include "base/i18n.h"
#include "plot_common.h"

#include <math.h>
#include <string.h>

#define BAR_PANEL_W 620.0 /* a file's chart, wide */
#define BAR_H 520.0       /* the page, high */

/* The largest and smallest positive values of the charts. */
static void chart_range(const struct bar_chart *c, size_t n, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t g = 0; g < c[k].ngroups; g++)
			for (size_t i = 0; i < c[k].nseries; i++) {
				double v = c[k].v[g][i];
				if (!isfinite(v) || v <= 0)
					continue;
				*lo = v < *lo ? v : *lo;
				*hi = v > *hi ? v : *hi;
			}
	if (!(*hi > 0)) {
		*lo = 1;
		*hi = 10;
	}
}

/* The value axis of a chart in the box (x, y, w, h) up to top (log: from
 * bottom); returns the y of v. */
static double vy(double v, double y, double h, double bottom, double top, int logy)
{
	double f = logy ? (log10(v) - log10(bottom)) / (log10(top) - log10(bottom)) : v / top;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return y + h - f * h;
}

/* The value axis: ticks and grid lines. */
static void chart_axis(struct svg *s, const struct bar_chart *c, double x, double y, double w,
		       double h, double bottom, double top)
{
	char lab[32];
	svg_group(s, "axes");
	svg_rect(s, x, y, w, h, NULL, "#000000");
	if (c->logy) {
		for (double d = floor(log10(bottom)); d <= log10(top) + 1e-9; d += 1) {
			double ty = vy(pow(10, d), y, h, bottom, top, 1);
			if (pow(10, d) < bottom * 0.999)
				continue;
			svg_line(s, x, ty, x + w, ty, "#e0e0e0", 0.8, 0);
			svg_text(s, x - 6, ty + 4, 11, SVG_END, 0, 0, "#000000",
				 plot_short(lab, sizeof lab, pow(10, d)));
		}
	} else {
		double step = plot_nice_step(top, 5);
		for (double v = 0; v <= top * 1.0001; v += step) {
			double ty = vy(v, y, h, bottom, top, 0);
			svg_line(s, x, ty, x + w, ty, "#e0e0e0", 0.8, 0);
			svg_text(s, x - 6, ty + 4, 11, SVG_END, 0, 0, "#000000",
				 plot_short(lab, sizeof lab, v));
		}
	}
	svg_text(s, x - 48, y + h / 2, 12, SVG_MIDDLE, 1, -90, "#000000", c->ylabel);
	svg_group_end(s);
}

/* The bars of a chart and their values, groups labelled under the box. */
static void chart_bars(struct svg *s, const struct bar_chart *c, double x, double y, double w,
		       double h, double bottom, double top)
{
	double gw = w / (double)c->ngroups, bw = gw * 0.8 / (double)c->nseries;
	char lab[32];
	svg_group(s, "bars");
	for (size_t g = 0; g < c->ngroups; g++) {
		double gx = x + gw * (double)g + gw * 0.1;
		svg_text(s, x + gw * ((double)g + 0.5), y + h + 16, 11, SVG_MIDDLE, 0, 0, "#000000",
			 c->group[g]);
		for (size_t i = 0; i < c->nseries; i++) {
			double v = c->v[g][i], ty;
			const char *col = c->nseries == 1 && c->group_color[g] ? c->group_color[g]
									     : plot_color(i);
			if (!isfinite(v) || v <= 0)
				continue;
			ty = vy(v, y, h, bottom, top, c->logy);
			svg_rect(s, gx + bw * (double)i, ty, bw - 1, y + h - ty, col, "#303030");
			svg_text(s, gx + bw * ((double)i + 0.5), ty - 3, 10, SVG_MIDDLE, 0, 0, "#000000",
				 plot_short(lab, sizeof lab, v));
		}
	}
	svg_group_end(s);
}

/* The legend at (x, y): the series (nseries > 1), or what the groups'
 * colours mean. */
static void chart_legend(struct svg *s, const struct bar_chart *c, double x, double y)
{
	size_t n = c->nseries > 1 ? c->nseries : c->nkeys;
	if (n == 0)
		return;
	svg_group(s, "legend");
	for (size_t i = 0; i < n; i++) {
		svg_rect(s, x, y - 10 + 16.0 * (double)i, 12, 12,
			 c->nseries > 1 ? plot_color(i) : c->key_color[i], "#303030");
		svg_text(s, x + 18, y + 16.0 * (double)i, 11, SVG_START, 0, 0, "#000000",
			 c->nseries > 1 ? c->series[i] : c->key_name[i]);
	}
	svg_group_end(s);
}

/* The chart of a lab result, filled by fill (its kind's). */
static void chart_fill(const void *r, void (*fill)(const void *r, struct bar_chart *c), struct bar_chart *c)
{
	memset(c, 0, sizeof *c);
	fill(r, c);
	if (c->ngroups == 0) { /* nothing measured: an empty chart says so */
		mt_strlcpy(c->group[0], _("(nothing measured)"), sizeof c->group[0]);
		c->ngroups = 1;
		c->nseries = c->nseries ? c->nseries : 1;
		for (size_t i = 0; i < BAR_MAX_SERIES; i++)
			c->v[0][i] = NAN;
	}
}

int bar_chart_plot(const struct result_file *in, size_t n, struct svg *s,
		     void (*fill)(const void *r, struct bar_chart *c))
{
	struct bar_chart c[PLOT_MAX_FILES];
	double lo, hi, top, bottom;
	for (size_t k = 0; k < n; k++)
		chart_fill(in[k].r, fill, &c[k]);
	chart_range(c, n, &lo, &hi);
	if (c[0].logy) {
		bottom = pow(10, floor(log10(lo)));
		top = pow(10, ceil(log10(hi * 1.3)));
	} else {
		double step = plot_nice_step(hi * 1.1, 5);
		bottom = 0;
		top = ceil(hi * 1.1 / step) * step;
	}
	top = top > 0 ? top : 1;
	if (svg_begin(s, BAR_PANEL_W * (double)n, BAR_H, c[0].title) < 0)
		return -1;
	{
		double y = plot_heading(s, 20, 8, BAR_PANEL_W * (double)n - 40, c[0].title, in, n);
		double h = BAR_H - y - 70;
		for (size_t k = 0; k < n; k++) {
			double x = BAR_PANEL_W * (double)k + 80, w = BAR_PANEL_W - 110;
			if (n > 1)
				svg_text(s, x, y + 4, 14, SVG_START, 1, 0, "#000000", k ? "B" : "A");
			chart_axis(s, &c[k], x, y + 12, w, h, bottom, top);
			chart_bars(s, &c[k], x, y + 12, w, h, bottom, top);
			chart_legend(s, &c[k], x + 10, y + 30);
		}
	}
	return s->failed ? -1 : 0;
}
