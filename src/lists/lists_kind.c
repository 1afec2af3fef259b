/* lists_kind: the lists lab's result kind (run/result_kind.h):
 * lists_result_to_json's file. */
#include "config.h"

#include "lists.h"
#include "base/i18n.h"
#include "run/result_kind.h"

#include <stdlib.h>
#include <string.h>

RESULT_KIND_STRUCT(struct lists_result, lists_result_from_json, lists_result_to_json,
		   lists_result_measured)

/* Files written before results named their experiment: the first result
 * has "cells" and a "layout" string. */
static int is(const cJSON *root)
{
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(root, "results");
	const cJSON *it = cJSON_IsArray(res) ? cJSON_GetArrayItem(res, 0) : NULL;
	return it && cJSON_GetObjectItemCaseSensitive(it, "cells") &&
	       cJSON_IsString(cJSON_GetObjectItemCaseSensitive(it, "layout"));
}

/* The headline figures: cycles a cell of each layout at the longest list
 * measured ("shuffled" against "sequential": the cost of chasing). */
static size_t figures(const void *r, struct result_figure *out, size_t max)
{
	const struct lists_result *l = r;
	size_t n = 0;
	if (l->graph || l->nlengths == 0)
		return 0;
	for (int k = 0; k < LIST_NLAYOUTS; k++) {
		const struct lists_cell_result *c = &l->c[l->nlengths - 1][k];
		if (c->have)
			result_figure_add(out, max, &n, list_layout_name(k), c->cyc, "cycles");
	}
	return n;
}

/* How the run measured: its longest list, its tries, its cells malloc'd
 * (left to the THP mode). */
static void method(const void *rv, struct result_method *m)
{
	const struct lists_result *r = rv;
	size_t max = 0;
	for (size_t i = 0; i < r->nlengths; i++)
		if (r->lengths[i] > max)
			max = r->lengths[i];
	if (max)
		mt_snprintf(m->size, sizeof m->size, MT_NGETTEXT("%zu cells", "%zu cells", max),
			    max);
	m->tries = r->tries;
	m->threads = 1;
	m->advice = RESULT_PAGES_LEFT;
}

const struct result_kind kind_lists = {
	.name = "lists",
	.what = N_("lists result"),
	.tab = "Lists",
	.seed = "ref/lists-m4max.json",
	.is = is,
	.load = kind_load,
	.free = free,
	.measured = kind_measured,
	.to_json = kind_to_json,
	.figures = figures,
	.compare = lists_compare,
	.method = method,
	.plot = lists_plot,
};
