/* matmul_kind: the matmul lab's result kind (run/result_kind.h): the
 * timed runs (race or table) of matmul_result_to_json; the --simulate
 * table names the experiment too but is not read back. */
#include "config.h"

#include "base/i18n.h"

#include "matmul.h"
#include "run/result_kind.h"

#include <stdlib.h>
#include <string.h>

RESULT_KIND_STRUCT(struct matmul_result, matmul_result_from_json, matmul_result_to_json,
		   matmul_result_measured)

/* Files written before results named their experiment: a "mode" beside
 * "results" and "line_bytes". */
static int is(const cJSON *root)
{
	return cJSON_IsString(cJSON_GetObjectItemCaseSensitive(root, "mode")) &&
	       cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "results")) &&
	       cJSON_GetObjectItemCaseSensitive(root, "line_bytes") != NULL;
}

static void *load_timed(const cJSON *root, const char *path, mt_error *e)
{
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(root, "mode");
	if (cJSON_IsString(mode) && strcmp(mode->valuestring, "simulate") == 0) {
		mt_fail(e, _("%s: a matmul --simulate table; memtop reads back the timed runs only"),
			path);
		return NULL;
	}
	return kind_load(root, path, e);
}

/* The headline figures: ns an inner iteration of each loop order measured
 * ("kij"), the book's table. */
static size_t figures(const void *r, struct result_figure *out, size_t max)
{
	const struct matmul_result *m = r;
	size_t n = 0;
	for (int o = 0; o < MATMUL_NORDERS; o++)
		if (m->res[o].have)
			result_figure_add(out, max, &n, matmul_order_name(o), m->res[o].ns_iter, "ns");
	return n;
}

/* How the run measured: n, its tries, its matrices malloc'd (left to the
 * THP mode). */
static void method(const void *rv, struct result_method *m)
{
	const struct matmul_result *r = rv;
	if (r->n)
		mt_snprintf(m->size, sizeof m->size, "n=%zu", r->n);
	m->tries = r->tries;
	m->threads = 1;
	m->advice = RESULT_PAGES_LEFT;
}

const struct result_kind kind_matmul = {
	.name = "matmul",
	.what = "matmul result",
	.tab = "Matmul",
	.seed = "ref/matmul-m4max.json",
	.is = is,
	.load = load_timed,
	.free = free,
	.measured = kind_measured,
	.to_json = kind_to_json,
	.figures = figures,
	.compare = matmul_compare,
	.method = method,
	.plot = matmul_plot,
};
