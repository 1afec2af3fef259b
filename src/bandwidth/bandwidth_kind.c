/* bandwidth_kind: the bandwidth lab's result kind (core/result_kind.h):
 * bandwidth_result_to_json's file, which always names its experiment. */
#include "config.h"

#include "bandwidth.h"
#include "core/result_kind.h"

#include <stdlib.h>

static int from(const cJSON *root, const char *path, void *r, mt_error *e)
{
	return bandwidth_result_from_json(root, path, r, e);
}

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	return result_kind_load_into(sizeof(struct bandwidth_result), root, path, e, from);
}

static void release(void *r)
{
	free(r);
}

static cJSON *to_json(const void *r)
{
	return bandwidth_result_to_json(r);
}

static const struct run_header *header(const void *r)
{
	return &((const struct bandwidth_result *)r)->hdr;
}

const struct result_kind kind_bandwidth = {
	.name = "bandwidth",
	.what = "bandwidth result",
	.tab = "Bandwidth",
	.seed = NULL,
	.load = load,
	.free = release,
	.to_json = to_json,
	.header = header,
};
