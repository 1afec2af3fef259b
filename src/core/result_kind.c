/* result_kind: what the kinds share (core/result_kind.h). */
#include "config.h"

#include "result_kind.h"

#include <stdlib.h>

void *result_kind_load_into(size_t size, const cJSON *root, const char *path, mt_error *e,
			    int (*from)(const cJSON *root, const char *path, void *r, mt_error *e))
{
	void *r = calloc(1, size);
	if (!r) {
		mt_fail(e, "%s: out of memory", path);
		return NULL;
	}
	if (from(root, path, r, e) < 0) {
		free(r);
		return NULL;
	}
	return r;
}
