/* falseshare_kind: the false sharing lab's result kind
 * (run/result_kind.h): falseshare_result_to_json's file. */
#include "config.h"

#include "falseshare.h"
#include "base/i18n.h"
#include "run/result_kind.h"

#include <stdlib.h>
#include <string.h>

RESULT_KIND_STRUCT(struct falseshare_result, falseshare_result_from_json, falseshare_result_to_json,
		   falseshare_result_measured)

/* Files written before results named their experiment: the first result's
 * "layout" is "packed" or "padded". */
static int is(const cJSON *root)
{
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(root, "results");
	const cJSON *it = cJSON_IsArray(res) ? cJSON_GetArrayItem(res, 0) : NULL;
	const cJSON *lay = it ? cJSON_GetObjectItemCaseSensitive(it, "layout") : NULL;
	return cJSON_IsString(lay) && (strcmp(lay->valuestring, "packed") == 0 ||
				       strcmp(lay->valuestring, "padded") == 0);
}

/* The headline figures: ns an increment with the counters packed in one
 * line and padded apart, at the table's most threads. */
static size_t figures(const void *r, struct result_figure *out, size_t max)
{
	const struct falseshare_result *f = r;
	size_t n = 0;
	if (f->nthreads == 0)
		return 0;
	if (f->tab[f->nthreads - 1][0].have)
		result_figure_add(out, max, &n, "packed", f->tab[f->nthreads - 1][0].ns_inc, "ns");
	if (f->tab[f->nthreads - 1][1].have)
		result_figure_add(out, max, &n, "padded", f->tab[f->nthreads - 1][1].ns_inc, "ns");
	return n;
}

/* How the run measured: its most threads, its tries, its counters
 * malloc'd (left to the THP mode). */
static void method(const void *rv, struct result_method *m)
{
	const struct falseshare_result *r = rv;
	for (size_t i = 0; i < r->nthreads; i++)
		if ((int)r->threads[i] > m->threads)
			m->threads = (int)r->threads[i];
	m->tries = r->tries;
	m->advice = RESULT_PAGES_LEFT;
}

const struct result_kind kind_falseshare = {
	.name = "falseshare",
	.what = N_("false sharing result"),
	.tab = "False sharing",
	.seed = "ref/falseshare-m4max.json",
	.is = is,
	.load = kind_load,
	.free = free,
	.measured = kind_measured,
	.to_json = kind_to_json,
	.figures = figures,
	.compare = falseshare_compare,
	.method = method,
	.plot = falseshare_plot,
};
