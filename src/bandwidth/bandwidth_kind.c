/* bandwidth_kind: the bandwidth lab's result kind (run/result_kind.h):
 * bandwidth_result_to_json's file, which always names its experiment. */
#include "config.h"

#include "bandwidth.h"
#include "run/result_kind.h"

#include <math.h>
#include <stdlib.h>

RESULT_KIND_STRUCT(struct bandwidth_result, bandwidth_result_from_json, bandwidth_result_to_json,
		   bandwidth_result_measured)

/* The best read (scalar or vector) of size s on thread index t, GB/s;
 * NAN when neither was measured. */
static double best_read(const struct bandwidth_result *r, size_t s, size_t t)
{
	const struct bandwidth_cell *a = &r->cell[s][BANDWIDTH_READ][t], *b = &r->cell[s][BANDWIDTH_READ_VECTOR][t];
	if (!a->have && !b->have)
		return (double)NAN;
	return !b->have || (a->have && a->gbs > b->gbs) ? a->gbs : b->gbs;
}

/* The headline figures: read bandwidth (the better of the scalar and the
 * vector read) at each planned level, one thread and all of them ("L2 1T",
 * "DRAM all"), GB/s. */
static size_t figures(const void *r, struct result_figure *out, size_t max)
{
	const struct bandwidth_result *b = r;
	size_t n = 0;
	if (b->nthreads == 0)
		return 0;
	for (size_t s = 0; s < b->nsizes; s++) {
		char name[32];
		size_t last = b->nthreads - 1;
		if (!b->sizes[s].level[0])
			continue;
		if (b->threads[0].threads == 1) {
			mt_snprintf(name, sizeof name, "%s 1T", b->sizes[s].level);
			result_figure_add(out, max, &n, name, best_read(b, s, 0), "GB/s");
		}
		if (b->threads[last].threads > 1) {
			mt_snprintf(name, sizeof name, "%s all", b->sizes[s].level);
			result_figure_add(out, max, &n, name, best_read(b, s, last), "GB/s");
		}
	}
	return n;
}

const struct result_kind kind_bandwidth = {
	.name = "bandwidth",
	.what = "bandwidth result",
	.tab = "Bandwidth",
	.seed = NULL,
	.load = kind_load,
	.free = free,
	.measured = kind_measured,
	.to_json = kind_to_json,
	.figures = figures,
	.plot = bandwidth_plot,
};
