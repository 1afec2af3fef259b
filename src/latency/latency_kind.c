/* latency_kind: the latency run's result kind (core/result_kind.h):
 * latency_json.c's file (memtop run latency, and memtop import's). */
#include "config.h"

#include "latency.h"
#include "core/result_kind.h"

/* Files written before results named their experiment: "cycles" and "ns"
 * (a mountain's "throughput" is told first, by the registry's order). */
static int is(const cJSON *root)
{
	return cJSON_GetObjectItemCaseSensitive(root, "cycles") &&
	       cJSON_GetObjectItemCaseSensitive(root, "ns") &&
	       !cJSON_GetObjectItemCaseSensitive(root, "throughput");
}

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	return latency_from_json(root, path, e);
}

static void release(void *r)
{
	latency_result_free(r);
}

static cJSON *to_json(const void *r)
{
	return latency_to_json(r);
}

static const struct run_header *header(const void *r)
{
	return &((const struct latency_result *)r)->hdr;
}

const struct result_kind kind_latency = {
	.name = "latency",
	.what = "latency run",
	.tab = "Latency",
	.is = is,
	.load = load,
	.free = release,
	.to_json = to_json,
	.header = header,
	.compare = latency_compare,
	.plot = latency_plot,
};
