/* mountain_json: see mountain_json.h. */
#include "config.h"

#include "base/i18n.h"

#include "mountain_json.h"
#include "base/jsonio.h"
#include "os/datadir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The seed's name for its one full stride row (the M4 Max's 256 KB row). */
#define FULL_ROW_KEY "row_256k"

static cJSON *grid_to_json(const struct mountain *m, const double *v, int round1)
{
	cJSON *rows = cJSON_CreateArray();
	if (!rows)
		return NULL;
	for (size_t r = 0; r < m->nsizes; r++) {
		cJSON *row = cJSON_CreateArray();
		if (!row)
			goto fail;
		cJSON_AddItemToArray(rows, row);
		for (size_t c = 0; c < m->nstrides; c++) {
			double x = v[r * m->nstrides + c];
			cJSON *item;
			if (isnan(x))
				item = cJSON_CreateNull();
			else
				item = cJSON_CreateNumber(round1 ? round(x * 10) / 10 : round(x * 1e4) / 1e4);
			if (!item)
				goto fail;
			cJSON_AddItemToArray(row, item);
		}
	}
	return rows;
fail:
	cJSON_Delete(rows);
	return NULL;
}

/* The full stride row as the seed's widget names it: "row_256k":
 * {"size", "strides", "throughput"}. Returns 0, or -1 out of memory. */
static int full_row_to_json(const struct mountain_row *row, cJSON *root)
{
	cJSON *o = cJSON_AddObjectToObject(root, FULL_ROW_KEY), *st, *tp;
	if (!o || !cJSON_AddNumberToObject(o, "size", (double)row->size) ||
	    !(st = cJSON_AddArrayToObject(o, "strides")) ||
	    !(tp = cJSON_AddArrayToObject(o, "throughput")))
		return -1;
	for (size_t c = 0; c < row->n; c++) {
		cJSON *v = isnan(row->mbs[c]) ? cJSON_CreateNull()
					      : cJSON_CreateNumber(round(row->mbs[c] * 10) / 10);
		cJSON *s = cJSON_CreateNumber(row->strides[c]);
		if (!v || !s) {
			cJSON_Delete(v);
			cJSON_Delete(s);
			return -1;
		}
		cJSON_AddItemToArray(tp, v);
		cJSON_AddItemToArray(st, s);
	}
	return 0;
}

cJSON *mountain_to_json(const struct mountain *m)
{
	cJSON *root = cJSON_CreateObject(), *a, *caches;
	if (!root)
		return NULL;
	if (run_header_to_json(&m->hdr, root) < 0)
		goto fail;
	if (!(a = cJSON_CreateArray()))
		goto fail;
	cJSON_AddItemToObject(root, "sizes", a);
	for (size_t i = 0; i < m->nsizes; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)m->sizes[i]));
	if (!(a = cJSON_CreateArray()))
		goto fail;
	cJSON_AddItemToObject(root, "strides", a);
	for (size_t i = 0; i < m->nstrides; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(m->strides[i]));
	if (!(a = grid_to_json(m, m->mbs, 1)))
		goto fail;
	cJSON_AddItemToObject(root, "throughput", a);
	if (!(a = grid_to_json(m, m->spread, 0)))
		goto fail;
	cJSON_AddItemToObject(root, "spread", a);
	if (!(a = grid_to_json(m, m->canary, 0)))
		goto fail;
	cJSON_AddItemToObject(root, "canary", a);
	if (!(a = grid_to_json(m, m->typical, 1)))
		goto fail;
	cJSON_AddItemToObject(root, "typical", a);
	if (m->elapsed_s > 0)
		cJSON_AddNumberToObject(root, "elapsed_s", round(m->elapsed_s * 100) / 100);
	if (m->caches) {
		if (!(caches = cJSON_Duplicate(m->caches, 1)))
			goto fail;
		cJSON_AddItemToObject(root, "caches", caches);
	}
	if (m->full.n && full_row_to_json(&m->full, root) < 0)
		goto fail;
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

int mountain_save(const struct mountain *m, const char *path, mt_error *e)
{
	cJSON *root = mountain_to_json(m);
	int rc;
	if (!root)
		return mt_fail(e, _("%s: out of memory"), path);
	rc = jsonio_save(path, root, e);
	cJSON_Delete(root);
	return rc;
}

/* Read a table of nsizes rows x nstrides values. Optional tables (spread,
 * canary, typical) may be absent; when present they are checked like throughput.
 * null cells are unmeasured (NAN). */
static int read_grid(const cJSON *root, const char *key, const char *file, struct mountain *m,
		     double *out, int required, mt_error *e)
{
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, key), *row;
	size_t r = 0;
	if (!rows) {
		if (required)
			return mt_fail(e, _("%s: field \"%s\" is missing"), file, key);
		return 0;
	}
	if (!cJSON_IsArray(rows))
		return mt_fail(e, _("%s: field \"%s\" is not an array"), file, key);
	if ((size_t)cJSON_GetArraySize(rows) != m->nsizes)
		return mt_fail(e, _("%s: %s has %d rows, expected %zu (one per size)"), file, key,
			       cJSON_GetArraySize(rows), m->nsizes);
	cJSON_ArrayForEach(row, rows)
	{
		const cJSON *v;
		size_t c = 0;
		if (!cJSON_IsArray(row))
			return mt_fail(e, _("%s: %s row %zu is not an array"), file, key, r + 1);
		if ((size_t)cJSON_GetArraySize(row) != m->nstrides)
			return mt_fail(e, _("%s: %s row %zu has %d values, expected %zu"), file, key, r + 1,
				       cJSON_GetArraySize(row), m->nstrides);
		cJSON_ArrayForEach(v, row)
		{
			double x;
			if (cJSON_IsNull(v)) {
				x = NAN;
			} else if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0) {
				return mt_fail(e, _("%s: %s row %zu value %zu is not a finite non-negative number"),
					       file, key, r + 1, c + 1);
			} else {
				x = v->valuedouble;
			}
			if (required && !isnan(x) && x <= 0)
				return mt_fail(e, _("%s: %s row %zu value %zu must be positive"), file, key,
					       r + 1, c + 1);
			out[r * m->nstrides + c] = x;
			c++;
		}
		r++;
	}
	return 0;
}

static int read_axis(const cJSON *root, const char *key, const char *file, uint64_t *out,
		     size_t cap, size_t *n, uint64_t max, mt_error *e)
{
	const cJSON *a = jsonio_array(root, key, file, e), *v;
	size_t i = 0;
	if (!a)
		return -1;
	if (cJSON_GetArraySize(a) == 0)
		return mt_fail(e, _("%s: %s is empty"), file, key);
	if ((size_t)cJSON_GetArraySize(a) > cap)
		return mt_fail(e, _("%s: %s has more than %zu values"), file, key, cap);
	cJSON_ArrayForEach(v, a)
	{
		double x = cJSON_IsNumber(v) ? v->valuedouble : (double)NAN;
		if (!isfinite(x) || x != floor(x))
			return mt_fail(e, _("%s: %s value %zu is not an integer"), file, key, i + 1);
		if (x <= 0 || x > (double)max)
			return mt_fail(e, _("%s: %s value %zu must be in 1..%llu"), file, key, i + 1,
				       (unsigned long long)max);
		out[i] = (uint64_t)x;
		if (i > 0 && out[i] <= out[i - 1])
			return mt_fail(e, _("%s: %s must be increasing (value %zu is not above value %zu)"),
				       file, key, i + 1, i);
		i++;
	}
	*n = i;
	return 0;
}

/* The optional full stride row (FULL_ROW_KEY): {"size": bytes, "strides":
 * increasing words, "throughput": MB/s, null for unmeasured}, same length.
 * Absent: row->n stays 0. Returns 0, or -1 with e naming the field. */
static int read_full_row(const cJSON *root, const char *file, struct mountain_row *row,
			 mt_error *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, FULL_ROW_KEY), *tp, *v;
	uint64_t strides[MOUNTAIN_MAX_STRIDES];
	double size;
	char where[300];
	size_t n, c = 0;
	if (!o)
		return 0;
	mt_snprintf(where, sizeof where, "%s: %s", file, FULL_ROW_KEY);
	if (!cJSON_IsObject(o))
		return mt_fail(e, _("%s is not an object"), where);
	if (jsonio_number(o, "size", where, &size, e) < 0)
		return -1;
	if (size != floor(size) || size <= 0 || size > (double)(1ull << 46))
		return mt_fail(e, _("%s: size must be a whole number of bytes"), where);
	row->size = (uint64_t)size;
	if (read_axis(o, "strides", where, strides, MT_ARRAY_LEN(strides), &n, 1u << 20, e) < 0 ||
	    !(tp = jsonio_array(o, "throughput", where, e)))
		return -1;
	if ((size_t)cJSON_GetArraySize(tp) != n)
		return mt_fail(e, _("%s: throughput has %d values, expected %zu (one per stride)"),
			       where, cJSON_GetArraySize(tp), n);
	cJSON_ArrayForEach(v, tp)
	{
		if (!cJSON_IsNull(v) &&
		    (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble <= 0))
			return mt_fail(e, _("%s: throughput value %zu is not a positive number"), where,
				       c + 1);
		row->mbs[c] = cJSON_IsNull(v) ? (double)NAN : v->valuedouble;
		row->strides[c] = (unsigned)strides[c];
		c++;
	}
	row->n = n;
	return 0;
}

struct mountain *mountain_from_json(const cJSON *root, const char *file, mt_error *e)
{
	uint64_t sizes[MOUNTAIN_MAX_SIZES * 4], strides64[MOUNTAIN_MAX_STRIDES * 4];
	unsigned strides[MOUNTAIN_MAX_STRIDES * 4];
	size_t ns, nst;
	struct mountain *m;
	const cJSON *caches;
	if (!file)
		file = "input";
	if (!cJSON_IsObject(root)) {
		mt_fail(e, _("%s: not a JSON object"), file);
		return NULL;
	}
	if (read_axis(root, "sizes", file, sizes, MT_ARRAY_LEN(sizes), &ns, 1ull << 46, e) < 0 ||
	    read_axis(root, "strides", file, strides64, MT_ARRAY_LEN(strides64), &nst, 1u << 20, e) < 0)
		return NULL;
	for (size_t i = 0; i < nst; i++)
		strides[i] = (unsigned)strides64[i];
	if (!(m = mountain_new(sizes, ns, strides, nst))) {
		mt_fail(e, _("%s: out of memory"), file);
		return NULL;
	}
	if (read_grid(root, "throughput", file, m, m->mbs, 1, e) < 0 ||
	    read_grid(root, "spread", file, m, m->spread, 0, e) < 0 ||
	    read_grid(root, "canary", file, m, m->canary, 0, e) < 0 ||
	    read_grid(root, "typical", file, m, m->typical, 0, e) < 0) {
		mountain_free(m);
		return NULL;
	}
	if (read_full_row(root, file, &m->full, e) < 0) {
		mountain_free(m);
		return NULL;
	}
	run_header_from_json(root, &m->hdr);
	m->elapsed_s = jsonio_opt_number(root, "elapsed_s", 0);
	caches = cJSON_GetObjectItemCaseSensitive(root, "caches");
	if (cJSON_IsObject(caches) && !(m->caches = cJSON_Duplicate(caches, 1))) {
		mountain_free(m);
		mt_fail(e, _("%s: out of memory"), file);
		return NULL;
	}
	mt_strlcpy(m->source, file, sizeof m->source);
	return m;
}

struct mountain *mountain_load(const char *path, mt_error *e)
{
	cJSON *root = jsonio_load(path, e);
	struct mountain *m;
	if (!root)
		return NULL;
	m = mountain_from_json(root, path, e);
	cJSON_Delete(root);
	return m;
}

const char *mountain_reference_path(char *buf, size_t len)
{
	return mt_data_path("m4max.json", buf, len);
}
