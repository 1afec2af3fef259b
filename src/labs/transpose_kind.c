/* transpose_kind: the transpose lab's result kind (core/result_kind.h):
 * transpose_result_to_json's file (memtop run transpose --json, the
 * Transpose tab's save). It has no picture: the tab draws the matrices. */
#include "config.h"

#include "transpose.h"
#include "core/result_kind.h"

#include <stdlib.h>

static int from(const cJSON *root, const char *path, void *r, mt_error *e)
{
	return transpose_result_from_json(root, path, r, e);
}

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	return result_kind_load_into(sizeof(struct transpose_result), root, path, e, from);
}

static void release(void *r)
{
	free(r);
}

static cJSON *to_json(const void *r)
{
	return transpose_result_to_json(r);
}

static const struct run_header *header(const void *r)
{
	return &((const struct transpose_result *)r)->hdr;
}

const struct result_kind kind_transpose = {
	.name = "transpose",
	.what = "transpose result",
	.tab = "Transpose",
	.load = load,
	.free = release,
	.to_json = to_json,
	.header = header,
	.compare = transpose_compare,
};
