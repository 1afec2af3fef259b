/* falseshare_plot: memtop plot of a false-sharing result, a bar chart
 * (seed 003): ms for each thread count, packed (one line) beside padded. */
#include "config.h"

#include "falseshare.h"
#include "base/i18n.h"
#include "base/util.h"
#include "render/bar_chart.h"
#include "render/plot_common.h"

#include <math.h>

/* The chart of a false-sharing result (bar_chart_plot's fill). */
static void falseshare_chart(const void *rv, struct bar_chart *c)
{
	const struct falseshare_result *r = rv;
	static char packed[96], padded[96];
	c->title = _("false sharing: ms for the increments (lower is faster)");
	c->ylabel = _("ms");
	c->nseries = 2;
	mt_snprintf(packed, sizeof packed, _("packed (%u bytes apart)"), r->packed);
	mt_snprintf(padded, sizeof padded, _("padded (%u bytes apart)"), r->padded);
	c->series[0] = packed;
	c->series[1] = padded;
	for (size_t i = 0; i < r->nthreads && c->ngroups < BAR_MAX_GROUPS; i++) {
		mt_snprintf(c->group[c->ngroups], sizeof c->group[0],
			    MT_NGETTEXT("%u threads", "%u threads", r->threads[i]), r->threads[i]);

		for (int l = 0; l < 2; l++)
			c->v[c->ngroups][l] = r->tab[i][l].have ? r->tab[i][l].ms : (double)NAN;
		c->ngroups++;
	}
}

int falseshare_plot(const struct result_file *f, size_t n, struct svg *s)
{
	return bar_chart_plot(f, n, s, falseshare_chart);
}
