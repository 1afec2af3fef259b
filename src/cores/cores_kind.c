/* cores_kind: the core-to-core latency result's kind (core/result_kind.h):
 * cores_result_to_json's file; compare prints the summaries side by side. */
#include "config.h"

#include "cores.h"
#include "core/result_kind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static cJSON *to_json(const void *r)
{
	return cores_result_to_json(r);
}

static const struct run_header *header(const void *r)
{
	return &((const struct cores_result *)r)->hdr;
}

/* One figure a relation: its median one-way ns. */
static size_t figures(const void *rv, struct result_figure *out, size_t max)
{
	const struct cores_result *r = rv;
	size_t n = 0;
	for (size_t k = 0; k < r->nsum && n < max; k++) {
		if (!isfinite(r->sum[k].ns))
			continue;
		mt_snprintf(out[n].name, sizeof out[n].name, "%s", r->sum[k].rel);
		out[n].value = r->sum[k].ns;
		mt_strlcpy(out[n].unit, "ns", sizeof out[n].unit);
		n++;
	}
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

/* Each file's name and conditions above the table. */
static void compare_head(const struct result_file *f, size_t n)
{
	printf("core-to-core latency, one-way ns (round trip / 2): the median over each "
	       "relation's pairs\n");
	for (size_t i = 0; i < n; i++) {
		const struct cores_result *r = f[i].r;
		char path[120], hw[160];
		mt_printable(path, sizeof path, f[i].path ? f[i].path : "", 0);
		mt_printable(hw, sizeof hw, r->hdr.hardware[0] ? r->hdr.hardware : r->origin, 0);
		printf("%c: %s: %d CPUs, %zu pairs%s%s%s\n", (int)('A' + i), path, r->plan.n,
		       cores_result_measured(r), r->plan.sampled ? " (sampled)" : "",
		       hw[0] ? "; " : "", hw);
	}
}

/* The relations of every file, first file's order first, side by side with
 * each file's ratio to A. */
static int compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	(void)o;
	compare_head(f, n);
	printf("\n%-24s", "relation");
	for (size_t i = 0; i < n; i++)
		printf(" %12c%s", (int)('A' + i), i ? "       " : "");
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		const struct cores_result *ri = f[i].r;
		for (size_t k = 0; k < ri->nsum; k++) {
			const struct cores_summary *a = line_of(f[0].r, ri->sum[k].rel);
			int before = 0;
			for (size_t m = 0; m < i && !before; m++)
				before = line_of(f[m].r, ri->sum[k].rel) != NULL;
			if (before)
				continue;
			printf("%-24.24s", ri->sum[k].rel);
			for (size_t m = 0; m < n; m++) {
				const struct cores_summary *s = line_of(f[m].r, ri->sum[k].rel);
				if (!s)
					printf(" %12s%s", "-", m ? "       " : "");
				else if (m == 0 || !a || !(a->ns > 0))
					printf(" %7.1f (%2zu)%s", s->ns, s->pairs, m ? "       " : "");
				else
					printf(" %7.1f (%2zu) %5.2fx", s->ns, s->pairs, s->ns / a->ns);
			}
			printf("\n");
		}
	}
	printf("(n): the pairs of that relation; the ratio is to A\n");
	return 0;
}

const struct result_kind kind_cores = {
	.name = "cores",
	.what = "core-to-core latency result",
	.tab = "Cores",
	.seed = NULL,
	.load = load,
	.free = release,
	.to_json = to_json,
	.header = header,
	.figures = figures,
	.compare = compare,
};
