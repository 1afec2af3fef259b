/* lists_kind: the lists lab's result kind (core/result_kind.h):
 * lists_result_to_json's file. */
#include "config.h"

#include "lists.h"
#include "core/result_kind.h"

#include <stdlib.h>
#include <string.h>

/* Files written before results named their experiment: the first result
 * has "cells" and a "layout" string. */
static int is(const cJSON *root)
{
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(root, "results");
	const cJSON *it = cJSON_IsArray(res) ? cJSON_GetArrayItem(res, 0) : NULL;
	return it && cJSON_GetObjectItemCaseSensitive(it, "cells") &&
	       cJSON_IsString(cJSON_GetObjectItemCaseSensitive(it, "layout"));
}

static int from(const cJSON *root, const char *path, void *r, mt_error *e)
{
	return lists_result_from_json(root, path, r, e);
}

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	return result_kind_load_into(sizeof(struct lists_result), root, path, e, from);
}

static void release(void *r)
{
	free(r);
}

static cJSON *to_json(const void *r)
{
	return lists_result_to_json(r);
}

static const struct run_header *header(const void *r)
{
	return &((const struct lists_result *)r)->hdr;
}

const struct result_kind kind_lists = {
	.name = "lists",
	.what = "lists result",
	.tab = "Lists",
	.seed = "ref/lists-m4max.json",
	.is = is,
	.load = load,
	.free = release,
	.to_json = to_json,
	.header = header,
	.compare = lists_compare,
	.plot = lists_plot,
};
