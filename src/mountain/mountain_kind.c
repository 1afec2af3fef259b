/* mountain_kind: the memory mountain's result kind (core/result_kind.h):
 * its file is mountain_json.c's. */
#include "config.h"

#include "mountain.h"
#include "mountain_json.h"
#include "core/result_kind.h"

/* A mountain file names no experiment (the seed's keys exactly): its
 * "throughput" table tells it. */
static int is(const cJSON *root)
{
	return cJSON_GetObjectItemCaseSensitive(root, "throughput") != NULL;
}

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	return mountain_from_json(root, path, e);
}

static void release(void *r)
{
	mountain_free(r);
}

static cJSON *to_json(const void *r)
{
	return mountain_to_json(r);
}

static const struct run_header *header(const void *r)
{
	return &((const struct mountain *)r)->hdr;
}

const struct result_kind kind_mountain = {
	.name = "mountain",
	.what = "mountain",
	.tab = "Mountain",
	.seed = "m4max.json",
	.is = is,
	.load = load,
	.free = release,
	.to_json = to_json,
	.header = header,
	.compare = mountain_compare,
	.plot = mountain_plot,
	.strides = 1,
};
