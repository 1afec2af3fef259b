/* matmul_plot: memtop plot of a matmul result, a bar chart (seed 003): ns
 * per inner iteration for each order, coloured by class (AB, AC, BC: the
 * book's three), lower is faster. */
#include "config.h"

#include "base/i18n.h"

#include "matmul.h"
#include "base/util.h"
#include "render/bar_chart.h"
#include "render/plot_common.h"

#include <math.h>

/* The colours of the book's classes AB, AC, BC (the legend's order). */
static const char *class_color(enum matmul_class c)
{
	return plot_color((size_t)c);
}

/* The chart of a matmul result (bar_chart_plot's fill). */
static void matmul_chart(const void *rv, struct bar_chart *c)
{
	const struct matmul_result *r = rv;
	static const char *const classes[] = { N_("class AB (ijk, jik)"), N_("class AC (jki, kji)"),
					       N_("class BC (kij, ikj)") };
	c->title = _("matmul: ns per inner iteration (lower is faster)");
	c->ylabel = _("ns per iteration");
	c->nseries = 1;
	for (int k = 0; k < 3; k++) {
		c->key_name[k] = _(classes[k]);
		c->key_color[k] = plot_color((size_t)k);
	}
	c->nkeys = 3;
	for (int o = 0; o < MATMUL_NORDERS && c->ngroups < BAR_MAX_GROUPS; o++) {
		mt_strlcpy(c->group[c->ngroups], matmul_order_name(o), sizeof c->group[0]);
		c->group_color[c->ngroups] = class_color(matmul_order_class(o));
		c->v[c->ngroups++][0] = r->res[o].have ? r->res[o].ns_iter : (double)NAN;
	}
}

int matmul_plot(const struct result_file *f, size_t n, struct svg *s)
{
	return bar_chart_plot(f, n, s, matmul_chart);
}
