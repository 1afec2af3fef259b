/* cores_kind: the core-to-core latency result's kind (run/result_kind.h):
 * cores_result_to_json's file; compare prints the summaries side by side. */
#include "config.h"

#include "cores.h"
#include "base/i18n.h"
#include "render/compare_table.h"
#include "run/result_kind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RESULT_KIND_TYPED(struct cores_result, cores_result_to_json)
RESULT_KIND_MEASURED(struct cores_result, cores_result_measured)

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	struct cores_result *r = calloc(1, sizeof *r);
	if (!r) {
		mt_fail(e, _("%s: out of memory"), path ? path : "input");
		return NULL;
	}
	if (cores_result_from_json(root, path, r, e) < 0) {
		cores_result_free(r);
		free(r);
		return NULL;
	}
	return r;
}

static void release(void *r)
{
	if (r)
		cores_result_free(r);
	free(r);
}

/* One figure a relation: its median one-way ns. */
static size_t figures(const void *rv, struct result_figure *out, size_t max)
{
	const struct cores_result *r = rv;
	size_t n = 0;
	for (size_t k = 0; k < r->nsum; k++)
		result_figure_add(out, max, &n, r->sum[k].rel, r->sum[k].ns, "ns");
	return n;
}

/* The summary line of relation rel in r ("" every pair: the overall line,
 * kept in all), or NULL. */
static const struct cores_summary *line_of(const struct cores_result *r, const char *rel,
					   const struct cores_summary *all)
{
	if (!rel[0])
		return all;
	for (size_t k = 0; k < r->nsum; k++)
		if (strcmp(r->sum[k].rel, rel) == 0)
			return &r->sum[k];
	return NULL;
}

/* The label column, and the widest table that keeps it on the row's line
 * (more files: each label on a line of its own above its figures). */
#define LABEL_W 24
#define COL_W 9

/* One row: the label, then for each file the figure (what 0: the median ns,
 * 1: the pairs, 2: the ratio to A) of relation rel ("" all pairs), "-"
 * where it has none. */
static void row(const struct result_file *f, const struct cores_summary *all, size_t n,
		const char *label, const char *rel, int what)
{
	const struct cores_summary *a = line_of(f[0].r, rel, &all[0]);
	if (LABEL_W + COL_W * (int)n > CMP_WIDTH - 1)
		printf("%s\n%-*s", label, LABEL_W, "");
	else
		printf("%-*.*s", LABEL_W, LABEL_W - 1, label);
	for (size_t m = 0; m < n; m++) {
		const struct cores_summary *s = line_of(f[m].r, rel, &all[m]);
		if (!s || !s->pairs || (what == 2 && !(a && a->ns > 0)))
			printf(" %*s", COL_W - 1, "-");
		else if (what == 0)
			printf(" %*.1f", COL_W - 1, s->ns);
		else if (what == 1)
			printf(" %*zu", COL_W - 1, s->pairs);
		else
			printf(" %*.2fx", COL_W - 2, s->ns / a->ns);
	}
	printf("\n");
}

/* Every relation of the files once, the first file's order first, then
 * all pairs (a row every file has, so that a ratio is there even where
 * the files share no relation): for each the median ns, then its pairs and
 * its ratio to A. */
static void table(const struct result_file *f, const struct cores_summary *all, size_t n,
		  const char *title, int what)
{
	printf("\n%-*s", LABEL_W, title);
	for (size_t i = 0; i < n; i++)
		printf(" %*c", COL_W - 1, (int)('A' + i));
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		const struct cores_result *ri = f[i].r;
		for (size_t k = 0; k < ri->nsum; k++) {
			int before = 0;
			for (size_t m = 0; m < i && !before; m++)
				before = line_of(f[m].r, ri->sum[k].rel, NULL) != NULL;
			if (!before)
				row(f, all, n, ri->sum[k].rel, ri->sum[k].rel, what);
		}
	}
	row(f, all, n, "all pairs", "", what);
}

/* Each file's conditions, then the summaries side by side: the median
 * one-way ns of each relation and of all pairs, the pairs behind it, the
 * ratio to A. Returns 0, or -1 out of memory. */
static int compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	struct cores_summary *all = calloc(n ? n : 1, sizeof *all);
	(void)o;
	if (!all)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct cores_result *r = f[i].r;
		char line[400];
		compare_print_header((char)('A' + i), f[i].path ? f[i].path : "", &r->hdr);
		if (cores_result_overall(r, &all[i]) < 0) {
			free(all);
			return -1;
		}
		/* what a figure is: memtop's best try, or what the import says */
		size_t np = cores_result_measured(r);
		if (r->origin[0])
			mt_snprintf(line, sizeof line, "%d CPUs, %zu pair%s%s; %s", r->plan.n, np,
				    np == 1 ? "" : "s", r->plan.sampled ? " (sampled)" : "", r->origin);
		else
			mt_snprintf(line, sizeof line, "%d CPUs, %zu pair%s measured%s, method %s: "
				    "each pair the best of its tries", r->plan.n, np, np == 1 ? "" : "s",
				    r->plan.sampled ? " (sampled)" : "",
				    cores_method_name(r->plan.p.method));
		cmp_wrapped(stdout, 3, NULL, line);
	}
	printf(_("\ncore-to-core latency, one-way (round trip / 2): the median of each "
	       "relation\n"));
	table(f, all, n, "one-way ns", 0);
	table(f, all, n, "pairs", 1);
	if (n > 1)
		table(f, all, n, "ratio to A", 2);
	for (size_t i = 1; i < n; i++)
		if ((((const struct cores_result *)f[i].r)->origin[0] != 0) !=
		    (((const struct cores_result *)f[0].r)->origin[0] != 0)) {
			cmp_wrapped(stdout, 0, NULL, "note: a measured pair is its best try, an "
				    "imported one what its tool reports (core-to-core-latency: the "
				    "mean of its samples): the import reads higher by its noise");
			break;
		}
	free(all);
	return 0;
}

const struct result_kind kind_cores = {
	.name = "cores",
	.what = "core-to-core latency result",
	.tab = "Cores",
	.seed = NULL,
	.load = load,
	.free = release,
	.measured = kind_measured,
	.to_json = kind_to_json,
	.figures = figures,
	.compare = compare,
	.plot = cores_plot,
};
