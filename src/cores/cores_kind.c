/* cores_kind: the core-to-core latency result's kind (core/result_kind.h):
 * cores_result_to_json's file; compare prints the summaries side by side. */
#include "config.h"

#include "cores.h"
#include "core/result_kind.h"
#include "render/compare_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RESULT_KIND_TYPED(struct cores_result, cores_result_to_json)

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	struct cores_result *r = calloc(1, sizeof *r);
	if (!r) {
		mt_fail(e, "%s: out of memory", path ? path : "input");
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

/* The summary line of relation rel in r, or NULL. */
static const struct cores_summary *line_of(const struct cores_result *r, const char *rel)
{
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
 * 1: the pairs, 2: the ratio to A) of relation rel, "-" where it has none. */
static void row(const struct result_file *f, size_t n, const char *label, const char *rel,
		int what)
{
	const struct cores_summary *a = line_of(f[0].r, rel);
	if (LABEL_W + COL_W * (int)n > CMP_WIDTH - 1)
		printf("%s\n%-*s", label, LABEL_W, "");
	else
		printf("%-*.*s", LABEL_W, LABEL_W - 1, label);
	for (size_t m = 0; m < n; m++) {
		const struct cores_summary *s = line_of(f[m].r, rel);
		if (!s || (what == 2 && !(a && a->ns > 0)))
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

/* Every relation of the files once, the first file's order first: for
 * each the median ns, then its pairs and its ratio to A. */
static void table(const struct result_file *f, size_t n, const char *title, int what)
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
				before = line_of(f[m].r, ri->sum[k].rel) != NULL;
			if (!before)
				row(f, n, ri->sum[k].rel, ri->sum[k].rel, what);
		}
	}
}

/* Each file's conditions, then the summaries side by side: the median
 * one-way ns of each relation, the pairs behind it, the ratio to A. */
static int compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	(void)o;
	for (size_t i = 0; i < n; i++) {
		const struct cores_result *r = f[i].r;
		char line[300];
		compare_print_header((char)('A' + i), f[i].path ? f[i].path : "", &r->hdr);
		mt_snprintf(line, sizeof line, "%d CPUs, %zu pairs measured%s, method %s%s%s",
			    r->plan.n, cores_result_measured(r), r->plan.sampled ? " (sampled)" : "",
			    cores_method_name(r->plan.p.method), r->origin[0] ? "; " : "", r->origin);
		cmp_wrapped(stdout, 3, NULL, line);
	}
	printf("\ncore-to-core latency, one-way (round trip / 2): the median of each "
	       "relation\n");
	table(f, n, "one-way ns", 0);
	table(f, n, "pairs", 1);
	if (n > 1)
		table(f, n, "ratio to A", 2);
	return 0;
}

const struct result_kind kind_cores = {
	.name = "cores",
	.what = "core-to-core latency result",
	.tab = "Cores",
	.seed = NULL,
	.load = load,
	.free = release,
	.to_json = kind_to_json,
	.figures = figures,
	.compare = compare,
	.plot = cores_plot,
};
