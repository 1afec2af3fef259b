/* lists_plot: memtop plot of a list-layout result, a bar chart (seed 003):
 * cycles per cell for each length, a bar per layout, on a log scale (the
 * seed's M4 spans 2.6 to 258). */
#include "config.h"

#include "lists.h"
#include "base/i18n.h"
#include "base/util.h"
#include "render/bar_chart.h"
#include "render/plot_common.h"

#include <math.h>

/* The chart of a list-layout result (bar_chart_plot's fill). */
static void lists_chart(const void *rv, struct bar_chart *c)
{
	const struct lists_result *r = rv;
	int layouts[LIST_NLAYOUTS], n = 0;
	c->title = _("list layouts: cycles per cell of the walk (log scale)");
	c->ylabel = _("cycles per cell");
	c->logy = 1;
	for (int l = 0; l < LIST_NLAYOUTS; l++)
		for (size_t i = 0; i < r->nlengths; i++)
			if (r->c[i][l].have) {
				layouts[n++] = l;
				break;
			}
	c->nseries = (size_t)(n < BAR_MAX_SERIES ? n : BAR_MAX_SERIES);
	for (size_t k = 0; k < c->nseries; k++)
		c->series[k] = list_layout_name(layouts[k]);
	for (size_t i = 0; i < r->nlengths && c->ngroups < BAR_MAX_GROUPS; i++) {
		mt_snprintf(c->group[c->ngroups], sizeof c->group[0],
			    MT_NGETTEXT("%zu cells", "%zu cells", r->lengths[i]), r->lengths[i]);

		for (size_t k = 0; k < c->nseries; k++)
			c->v[c->ngroups][k] = r->c[i][layouts[k]].have ? r->c[i][layouts[k]].cyc
									  : (double)NAN;
		c->ngroups++;
	}
}

int lists_plot(const struct result_file *f, size_t n, struct svg *s)
{
	return bar_chart_plot(f, n, s, lists_chart);
}
