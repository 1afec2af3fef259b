/* bar_chart: the bar charts memtop plot draws for the labs' results (seed
 * 003): groups along the axis (an order, a thread count, a list length), a
 * bar per series in each group, the value over each bar, on a linear or a
 * log scale; two files side by side on one scale, so their bars compare.
 * Each lab fills a chart from its result (matmul_plot.c, falseshare_plot.c,
 * lists_plot.c); this draws it. */
#ifndef MEMTOP_BAR_CHART_H
#define MEMTOP_BAR_CHART_H

#include <stddef.h>

#include "svg.h"
#include "run/result_kind.h"

#define BAR_MAX_GROUPS 16
#define BAR_MAX_SERIES 8

/* One bar chart: groups along the axis, a bar per series in each group. */
struct bar_chart {
	const char *title, *ylabel;
	size_t ngroups, nseries;
	char group[BAR_MAX_GROUPS][24];
	const char *series[BAR_MAX_SERIES];     /* legend names (nseries > 1) */
	const char *group_color[BAR_MAX_GROUPS]; /* nseries == 1: a colour per group, or NULL */
	const char *key_name[BAR_MAX_SERIES], *key_color[BAR_MAX_SERIES]; /* ... and what they mean */
	size_t nkeys;
	double v[BAR_MAX_GROUPS][BAR_MAX_SERIES];   /* NAN: not measured */
	int logy;
};

/* Draw the charts of in[0..n) (n <= PLOT_MAX_FILES), each filled by fill
 * from its result (fill sets the title, labels, groups and values; a chart
 * left empty says "(nothing measured)"), side by side on one scale, into s
 * (which this begins). Returns 0, or -1 when s failed. */
int bar_chart_plot(const struct result_file *in, size_t n, struct svg *s,
		   void (*fill)(const void *r, struct bar_chart *c));

#endif
