/* numa_kind: the numa result's kind (core/result_kind.h): what memtop run
 * numa --json writes, which always names its experiment. */
#include "config.h"

#include "numa.h"
#include "core/result_kind.h"

#include <math.h>
#include <stdlib.h>

static int from(const cJSON *root, const char *path, void *r, mt_error *e)
{
	return numa_result_from_json(root, path, r, e);
}

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	return result_kind_load_into(sizeof(struct numa_result), root, path, e, from);
}

static void release(void *r)
{
	free(r);
}

static cJSON *to_json(const void *r)
{
	return numa_result_to_json(r);
}

static const struct run_header *header(const void *r)
{
	return &((const struct numa_result *)r)->hdr;
}

/* The local figures of the first CPU node (its own memory), then the worst
 * remote latency and the lowest remote read when there are other nodes. */
static size_t figures(const void *rv, struct result_figure *out, size_t max)
{
	static const char *const names[NUMA_NMEAS] = { "local latency", "local read",
						       "local triad" };
	static const char *const units[NUMA_NMEAS] = { "ns", "GB/s", "GB/s" };
	const struct numa_result *r = rv;
	size_t n = 0;
	for (size_t i = 0; i < r->nnodes; i++) {
		if (!r->v[i][i][NUMA_LAT].have)
			continue;
		for (int k = 0; k < NUMA_NMEAS && n < max; k++)
			if (r->v[i][i][k].have && isfinite(r->v[i][i][k].v)) {
				mt_snprintf(out[n].name, sizeof out[n].name, "%s", names[k]);
				out[n].value = r->v[i][i][k].v;
				mt_snprintf(out[n].unit, sizeof out[n].unit, "%s", units[k]);
				n++;
			}
		break;
	}
	return n;
}

const struct result_kind kind_numa = {
	.name = "numa",
	.what = "numa result",
	.tab = NULL,
	.seed = NULL,
	.load = load,
	.free = release,
	.to_json = to_json,
	.header = header,
	.figures = figures,
};
