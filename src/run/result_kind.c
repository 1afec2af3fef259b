/* result_kind: what the kinds share (run/result_kind.h). */
#include "config.h"
#include "base/i18n.h"

#include "result_kind.h"

#include <math.h>
#include <stdlib.h>

void *result_kind_load_into(size_t size, const cJSON *root, const char *path, mt_error *e,
			    int (*from)(const cJSON *root, const char *path, void *r, mt_error *e))
{
	void *r = calloc(1, size);
	if (!r) {
		mt_fail(e, _("%s: out of memory"), path);
		return NULL;
	}
	if (from(root, path, r, e) < 0) {
		free(r);
		return NULL;
	}
	return r;
}

const struct run_header *result_kind_header(const void *r)
{
	return (const struct run_header *)r;
}

void result_figure_add(struct result_figure *out, size_t max, size_t *n, const char *name,
		       double value, const char *unit)
{
	if (*n >= max || !isfinite(value))
		return;
	mt_strlcpy(out[*n].name, name, sizeof out[*n].name);
	out[*n].value = value;
	mt_strlcpy(out[*n].unit, unit, sizeof out[*n].unit);
	(*n)++;
}
